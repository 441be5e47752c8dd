//! The register chain as a random walk on unwound syndromes, [`BLOCK`] steps
//! at a time in place.
//!
//! Let `A` be the error-free register step (shift left, feed back
//! `normal(g)` when the top bit falls out) and store the mass of state `s`
//! after `t` steps at position `A^-t(s)`: the syndrome *unwound* to time 0.
//! A flip at step `t` adds `G_t = A^-(t+1)(normal(g))` to the position,
//! whatever the state, so one step is a butterfly on the pairs
//! `{Y, Y ^ G_t}`:
//!
//! ```text
//! new[Y]       = q old[Y]       + p old[Y ^ G_t]
//! new[Y ^ G_t] = q old[Y ^ G_t] + p old[Y]
//! ```
//!
//! State 0 stays at position 0 (the escape is read there) and the first
//! error at step `t` lands at `G_t` (the error-mass injection, design.md).
//! `G_0 .. G_{r-1}` are the single bits `2^(r-1) .. 1`; later ones follow by
//! `G_{t+1} = A^-1(G_t)`.
//!
//! [`BLOCK`] consecutive steps act inside the cosets of
//! `V = span{G_t, .., G_{t+BLOCK-1}}` (the `G`s of consecutive steps are
//! always independent): a block loads the `2^BLOCK` values of a coset once,
//! applies its steps in registers and stores them once, `1/BLOCK` of the
//! memory traffic of one step at a time. The cosets that differ in the low
//! position bits share one vector (8 lanes with AVX-512, else 4 with AVX2;
//! lanes permuted by the low bits of each element of `V`); a block whose
//! `V` meets those bits runs one step at a time instead (so does a step whose translation depends on the
//! block's others, which [`escape_of_translations`] allows). Each value costs one multiply and one fused
//! multiply-add per step, the same on the vector and scalar paths, so the
//! result does not depend on the path, the thread count, or the CPU's
//! vector width (it differs from [`super::butterfly`], which does not fuse,
//! in the last bits: they agree to 1e-13 relative, tested).

mod block;
mod scalar;
mod vector;
#[cfg(target_arch = "x86_64")]
mod x86;

pub use block::BLOCK;

use super::cpu::Isa;
use crate::bsc;
use crate::poly::Generator;
use crate::progress::{Batch, Progress, Silent};
use block::{Block, Shared};
use rayon::prelude::*;
use scalar::block_stepwise;

/// The smallest width this kernel runs (smaller chains use
/// [`super::butterfly`]).
pub const MIN_WIDTH: u32 = BLOCK as u32 + 4;

/// `A^-1(s)`: the state that the error-free step takes to `s`.
pub(super) fn unwind(s: u64, gn: u64, r: u32) -> u64 {
    let b = s & 1;
    ((s ^ (b * gn)) >> 1) | (b << (r - 1))
}

/// Runs one block: every coset group, the one holding position 0 with the
/// injection and the readout. The kernel (vector or scalar, which
/// instructions) is chosen once here from `isa`, not per group.
#[allow(clippy::too_many_arguments)]
fn run_block(
    isa: Isa,
    v: &mut [f64],
    r: u32,
    block: &Block,
    q: f64,
    p: f64,
    inject: &[f64],
    zero: &mut [f64],
    parallel: bool,
) {
    let groups = 1usize << (r as usize - block.lanes.trailing_zeros() as usize - block.gens.len());
    let kernel = vector::Kernel::new(block, q, p, isa);
    let v = Shared::new(v);
    // SAFETY: group 0 alone, before any other group runs; its positions lie
    // below 2^r = `v.len`.
    unsafe { block.scalar_groups(isa.fma(), v, 0, 1, q, p, Some((inject, zero))) };
    let run = |range: std::ops::Range<usize>| {
        // SAFETY: the groups in `range` belong to this call alone (the
        // ranges below are disjoint, one thread each), and all their
        // positions lie below 2^r = `v.len`.
        unsafe { kernel.groups(block, v, range) };
    };
    const SPAN: usize = 1 << 10;
    if parallel && groups > SPAN {
        (1..groups)
            .step_by(SPAN)
            .collect::<Vec<_>>()
            .into_par_iter()
            .for_each(|s| run(s..(s + SPAN).min(groups)));
    } else {
        run(1..groups);
    }
}

/// `true` when this kernel runs `g` (width at least [`MIN_WIDTH`]).
pub fn supports(g: &Generator) -> bool {
    g.width() >= MIN_WIDTH && g.width() < usize::BITS
}

/// `true` when the CPU runs the vector path (x86-64 with AVX2 and FMA, and
/// `super::NO_SIMD_ENV` not set): [`Isa::vectorises_walk`] of
/// [`Isa::detect`].
/// Elsewhere every group takes the scalar path (the same bits, several
/// times slower), and the solver uses [`super::butterfly`] instead.
pub fn vectorised() -> bool {
    Isa::detect().vectorises_walk()
}

/// `P_undetected` of the CRC `g` at BER `p` for every length in `lengths`
/// (any order), one vector of `2^r` f64, [`BLOCK`] steps per pass. Set
/// `parallel` to split each pass across rayon threads (the same bits).
///
/// Panics unless [`supports`]`(g)`. The caller checks the memory first
/// (`check_memory`).
pub fn p_undetected_one(g: &Generator, lengths: &[u64], p: f64, parallel: bool) -> Vec<f64> {
    p_undetected_one_with(g, lengths, p, parallel, &Silent)
}

/// [`p_undetected_one`] reporting each step to `progress` (in blocks of
/// [`super::report_every`] steps); announces no stage.
pub(crate) fn p_undetected_one_with(
    g: &Generator,
    lengths: &[u64],
    p: f64,
    parallel: bool,
    progress: &dyn Progress,
) -> Vec<f64> {
    p_undetected_one_on(Isa::detect(), g, lengths, p, parallel, progress)
}

/// [`p_undetected_one_with`] on the instructions of `isa` (the same bits on
/// every `isa`).
pub(crate) fn p_undetected_one_on(
    isa: Isa,
    g: &Generator,
    lengths: &[u64],
    p: f64,
    parallel: bool,
    progress: &dyn Progress,
) -> Vec<f64> {
    assert!(supports(g), "walk kernel needs width >= {MIN_WIDTH}");
    let mut order: Vec<usize> = (0..lengths.len()).collect();
    order.sort_by_key(|&i| lengths[i]);
    let nmax = lengths.iter().copied().max().unwrap_or(0);
    let mut out = vec![0.0; lengths.len()];
    // the error-mass vector on a 64-byte boundary (a cache line): the
    // vector kernels' loads and stores then never straddle two lines,
    // wherever the allocator put the buffer
    let n = 1usize << g.width();
    let mut buf = vec![0.0; n + 8];
    let off = buf.as_ptr().align_offset(64).min(8);
    let v = &mut buf[off..off + n];
    let mut k = order.partition_point(|&i| lengths[i] == 0);
    let mut steps = Batch::new(progress, super::report_every(g.width()));
    advance_on(isa, g, p, v, 0, nmax, parallel, |len, z| {
        steps.add(1);
        while k < order.len() && lengths[order[k]] == len {
            out[order[k]] = z;
            k += 1;
        }
    });
    out
}

/// Advances the error-mass vector `v` (in the layout of time `t0`) by
/// `steps` steps at BER `p`, calling `escape(t, v[0])` after each step `t`
/// (`t0 < t <= t0 + steps`): `P_undetected(t)` when `v` started as zeros at
/// time 0. Set `parallel` to split each pass across rayon threads.
///
/// Panics unless [`supports`]`(g)` and `v` has `2^r` values.
pub fn advance(
    g: &Generator,
    p: f64,
    v: &mut [f64],
    t0: u64,
    steps: u64,
    parallel: bool,
    escape: impl FnMut(u64, f64),
) {
    advance_on(Isa::detect(), g, p, v, t0, steps, parallel, escape);
}

/// [`advance`] on the instructions of `isa`.
#[allow(clippy::too_many_arguments)]
fn advance_on(
    isa: Isa,
    g: &Generator,
    p: f64,
    v: &mut [f64],
    t0: u64,
    steps: u64,
    parallel: bool,
    escape: impl FnMut(u64, f64),
) {
    assert!(supports(g), "walk kernel needs width >= {MIN_WIDTH}");
    let r = g.width();
    let gn = g.normal();
    // G_t0: G_0 = 2^(r-1) unwound t0 times (the sequence has period <= 2^r).
    let mut gt = 1u64 << (r - 1);
    for _ in 0..t0 {
        gt = unwind(gt, gn, r);
    }
    let translations = || {
        let g = gt;
        gt = unwind(gt, gn, r);
        g
    };
    walk(isa, r, p, v, t0, steps, translations, parallel, escape);
}

/// `P(at least one error, and the XOR of translations[i] over the error
/// positions i is 0)` on a binary symmetric channel: the escape of any
/// linear check whose syndrome is the XOR of one `width`-bit value per
/// erroneous bit (a CRC field anywhere in the frame, in any byte order, or
/// covering part of it; 0 for a bit it does not cover). The same kernel as
/// the register chain, whose translations are the unwound `G_t`.
///
/// ```
/// use aliasing_core::markov::walk;
/// // Parity over 3 bits: an undetected error flips an even number of them.
/// let p = 0.1;
/// let got = walk::escape_of_translations(1, &[1, 1, 1], p);
/// assert!((got - 3.0 * p * p * (1.0 - p)).abs() < 1e-15);
/// ```
///
/// Panics unless `1 <= width < 64`. Memory: one vector of `2^width` f64.
pub fn escape_of_translations(width: u32, translations: &[u64], p: f64) -> f64 {
    assert!((1..64).contains(&width), "width must be 1..=63");
    let mut v = vec![0.0; 1usize << width];
    let mut it = translations.iter().copied();
    let mut last = 0.0;
    walk(
        Isa::detect(),
        width,
        p,
        &mut v,
        0,
        translations.len() as u64,
        || it.next().expect("one translation per step"),
        width >= super::butterfly::PARALLEL_WIDTH,
        |_, z| last = z,
    );
    last
}

/// The kernel: `steps` steps from time `t0`, step `t` translating by the
/// next value of `translations` with probability `p`, error mass injected
/// at the translation itself (the first error), `escape(t, v[0])` after
/// each step. The kernel's instructions are those of `isa`, decided here
/// once for the whole walk.
#[allow(clippy::too_many_arguments)]
fn walk(
    isa: Isa,
    r: u32,
    p: f64,
    v: &mut [f64],
    t0: u64,
    steps: u64,
    mut translations: impl FnMut() -> u64,
    parallel: bool,
    mut escape: impl FnMut(u64, f64),
) {
    assert_eq!(v.len(), 1usize << r, "vector length must be 2^width");
    let q = 1.0 - p;
    let end = t0 + steps;
    let mut t = t0;
    // Translations drawn but not yet run (at most one block ahead).
    let mut gens = [0u64; BLOCK];
    let mut have = 0;
    let lanes = vector::lanes(isa);
    while t < end {
        let avail = (BLOCK as u64).min(end - t) as usize;
        while have < avail {
            gens[have] = translations();
            have += 1;
        }
        // The longest run of steps whose span avoids the lane bits; a step
        // whose G_t lies in the lane bits runs on its own, step by step.
        let block = (1..=avail)
            .rev()
            .find_map(|k| Block::new(&gens[..k], lanes));
        let kb = block.as_ref().map_or(1, |b| b.gens.len());
        let mut inject = [0.0; BLOCK];
        for (i, x) in inject.iter_mut().take(kb).enumerate() {
            *x = p * bsc::p_clean(t + i as u64, p);
        }
        let mut zero = [0.0; BLOCK];
        match &block {
            Some(b) => run_block(isa, v, r, b, q, p, &inject[..kb], &mut zero[..kb], parallel),
            None => block_stepwise(isa.fma(), v, &gens[..1], q, p, &inject[..1], &mut zero[..1]),
        }
        for (i, &z) in zero[..kb].iter().enumerate() {
            escape(t + i as u64 + 1, z);
        }
        gens.copy_within(kb..have, 0);
        have -= kb;
        t += kb as u64;
    }
}

#[cfg(feature = "unit-tests")]
#[doc(hidden)]
pub mod tests {
    use super::block::next_rep;
    use super::*;
    use crate::markov::butterfly;

    fn rel_close(a: f64, b: f64, tol: f64) -> bool {
        (a - b).abs() <= tol * a.abs().max(b.abs())
    }

    pub fn unwind_inverts_the_register_step() {
        let g: Generator = "0x1002D".parse().unwrap();
        let (gn, r) = (g.normal(), g.width());
        for s in [0u64, 1, 2, 0x8000, 0x1234, 0xFFFF, 0x8001] {
            let a = ((s << 1) & g.mask()) ^ if s >> (r - 1) == 1 { gn } else { 0 };
            assert_eq!(unwind(a, gn, r), s);
        }
        // G_0 = A^-1(normal(g)) is the top bit.
        assert_eq!(unwind(gn, gn, r), 1 << (r - 1));
    }

    pub fn agrees_with_the_butterfly_kernel() {
        // Widths 8..=20, primitive and not, with and without (x+1); lengths
        // not multiples of BLOCK; BERs over the whole range.
        for spec in [
            "0x11D", "0x101", "0x1FF", "0x409", "0x1053", "0x1002D", "0x11021", "0x18005",
            "0x1C867", "0x100003", "0x1F", "0x83",
        ] {
            let g: Generator = spec.parse().unwrap();
            // width 20 (80% of the time) in the full tier, and two of the
            // four 16-bit generators (0x18005 with x+1 and 0x1002D stay)
            let full_only = g.width() >= 20 || ["0x11021", "0x1C867"].contains(&spec);
            if !supports(&g) || (full_only && !crate::tier::full()) {
                continue;
            }
            let lengths = [0u64, 1, 2, 3, 5, 17, 40, 299, 300, 301, 1001];
            // every BER up to width 12 (width 16 in the full tier); at
            // width 16 in the test command both ends, an interior one and a
            // tiny one; at width 20 (80% of the time) an interior one, a
            // tiny one and an end of the range
            let bers: &[f64] = if g.width() < 16 || (g.width() < 20 && crate::tier::full()) {
                &[0.5, 0.3, 1e-3, 1e-6, 1e-12, 0.0, 1.0]
            } else if g.width() < 20 {
                &[0.3, 1e-12, 0.0, 1.0]
            } else {
                &[0.3, 1e-12, 1.0]
            };
            for &p in bers {
                let a = butterfly::p_undetected_one(&g, &lengths, p, false);
                for parallel in [false, true] {
                    let b = p_undetected_one(&g, &lengths, p, parallel);
                    for (n, (&x, &y)) in lengths.iter().zip(a.iter().zip(&b)) {
                        assert!(
                            rel_close(x, y, 1e-13),
                            "{spec} p={p} n={n}: butterfly {x} vs walk {y}"
                        );
                    }
                }
            }
        }
    }

    pub fn same_bits_on_every_path() {
        // Scalar groups, vector groups and parallel passes give equal bits.
        let g: Generator = "0x1002D".parse().unwrap();
        let lengths: Vec<u64> = (0..500).collect();
        let serial = p_undetected_one(&g, &lengths, 1e-3, false);
        let parallel = p_undetected_one(&g, &lengths, 1e-3, true);
        assert_eq!(bits(&serial), bits(&parallel));
        // The scalar groups against the kernel's groups on one block, with
        // 4 and with 8 lanes, on every instruction set this CPU has (the
        // 8-lane vector path where it has AVX-512, the 4-lane one with and
        // without AVX-512VL's registers), and the lane counts against each
        // other.
        let gens = [0x1234u64, unwind(0x1234, g.normal(), 16), 0x0F0, 0x8000];
        let v0: Vec<f64> = (0..1 << 16).map(|i| ((i * 7919) % 1013) as f64).collect();
        let mut results = Vec::new();
        for isa in Isa::detect().restrictions() {
            for lanes in [4usize, 8] {
                let block = Block::new(&gens, lanes).expect("independent of the lane bits");
                let (mut a, mut b) = (v0.clone(), v0.clone());
                let kernel = vector::Kernel::new(&block, 0.875, 0.125, isa);
                let groups = 1 << (16 - lanes.trailing_zeros() - 4);
                for i in 1..groups {
                    let y = block.rep(i);
                    assert_eq!(next_rep(block.rep(i - 1), block.clear_mask), y);
                    let a = Shared::new(&mut a);
                    // SAFETY: one thread, the whole vector.
                    unsafe { block.scalar_groups(None, a, y, 1, 0.875, 0.125, None) };
                }
                let sa = Shared::new(&mut a);
                // SAFETY: one thread, the whole vector.
                unsafe { block.scalar_groups(None, sa, 0, 1, 0.875, 0.125, None) };
                let sb = Shared::new(&mut b);
                // SAFETY: one thread, the whole vector.
                unsafe {
                    kernel.groups(&block, sb, 1..groups);
                    block.scalar_groups(isa.fma(), sb, 0, 1, 0.875, 0.125, None);
                }
                assert_eq!(a, b, "{isa:?}, {lanes} lanes");
                results.push(a);
            }
        }
        assert!(results.iter().all(|r| *r == results[0]));
    }

    fn bits(v: &[f64]) -> Vec<u64> {
        v.iter().map(|x| x.to_bits()).collect()
    }

    pub fn scalar_path_gives_the_vector_paths_bits() {
        // The whole walk forced onto each instruction set, down to no vector
        // instructions and the library's fused multiply-add: equal bits.
        // Width 18 splits each pass across threads (4096 groups of 4 lanes).
        // Width 16 to 204 bits in the test command, 700 in the full tier:
        // each bit on the path without vector instructions is most of the
        // time.
        for (width, steps, parallel) in
            [(16, crate::tier::pick(204, 700u64), false), (18, 60, true)]
        {
            let g = crate::catalogue::default_primitive(width).unwrap();
            let spec = g.full_string();
            let lengths: Vec<u64> = (0..=steps).collect();
            let want = p_undetected_one_on(Isa::scalar(), &g, &lengths, 1e-3, parallel, &Silent);
            assert!(want[steps as usize] > 0.0);
            // (`want` is the last restriction's, not run twice)
            for isa in Isa::detect().restrictions() {
                if isa == Isa::scalar() {
                    continue;
                }
                let got = p_undetected_one_on(isa, &g, &lengths, 1e-3, parallel, &Silent);
                assert_eq!(bits(&got), bits(&want), "{spec} {isa:?}");
            }
        }
    }

    pub fn any_translations_against_brute_force() {
        // Tables with zeros, repeats, lane-bit values and blocks of every
        // kind: all 2^14 error patterns, 1e-12 relative.
        let tables: [&[u64]; 4] = [
            &[
                0x1F, 0x3, 0, 0x10, 0x1F, 0x2, 0x8, 0x8, 0x15, 0x1, 0x0, 0xE, 0x4, 0x19,
            ],
            &[
                0x80, 0x40, 0x20, 0x10, 0x8, 0x4, 0x2, 0x1, 0xB8, 0x5C, 0x2E, 0x17, 0xB3, 0xE1,
            ],
            &[0x5; 14],
            &[
                0x123, 0x0, 0x3FF, 0x200, 0x1, 0x2, 0x3, 0x155, 0x2AA, 0x3C, 0x0, 0x81, 0x42, 0x24,
            ],
        ];
        for (table, width) in tables.into_iter().zip([5u32, 8, 3, 10]) {
            let n = table.len();
            for p in [1e-3f64, 0.1, 0.5] {
                let mut brute = 0.0;
                for e in 1u32..(1 << n) {
                    let s = (0..n)
                        .filter(|&i| e >> i & 1 == 1)
                        .fold(0, |s, i| s ^ table[i]);
                    if s == 0 {
                        let w = e.count_ones() as i32;
                        brute += p.powi(w) * (1.0 - p).powi(n as i32 - w);
                    }
                }
                let got = escape_of_translations(width, table, p);
                assert!(
                    rel_close(got, brute, 1e-12),
                    "w{width} p={p}: {got} vs {brute}"
                );
            }
        }
    }

    pub fn blocks_meeting_the_lane_bits_run_step_by_step() {
        // G_{r-2}, G_{r-1} are the lane bits 2 and 1.
        assert!(Block::new(&[4, 2], 4).is_none());
        assert!(Block::new(&[0x100, 0x103, 0x10], 4).is_none());
        assert!(Block::new(&[0x100, 0x10], 4).is_some());
        // With 8 lanes bit 2 is a lane bit too.
        assert!(Block::new(&[0x100, 0x104], 4).is_some());
        assert!(Block::new(&[0x100, 0x104], 8).is_none());
    }
}
