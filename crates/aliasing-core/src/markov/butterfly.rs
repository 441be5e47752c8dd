//! The butterfly kernel: the CRC register chain stepped without a matrix.
//!
//! With `half = 2^(r-1)`, `h = normal(g) >> 1`, `q = 1 - p`, one step of the
//! register chain pairs state `m` with `m + half` (they shift to the same
//! value) and writes the two states `2m` and `2m ^ g = 2(m ^ h) + 1`. In pull
//! form, for every `m < half`:
//!
//! ```text
//! out[2m]     = q v[m]       + p v[m + half]
//! out[2m + 1] = p v[m ^ h]   + q v[(m ^ h) + half]
//! ```
//!
//! and the error-mass injection `out[normal(g)] += p (1-p)^t` (design.md).
//! The state space is cut into chunks of [`CHUNK`] values of `m`; chunk `c`
//! and chunk `c ^ (h / CHUNK)` read each other's inputs, so they are processed
//! together and every input value is read from memory once per step: one
//! read and one write of the vector, the same traffic as a memory copy.
//! Chunk pairs run in parallel with rayon above [`PARALLEL_WIDTH`].
//!
//! The result does not depend on the thread count: each output value is
//! computed by the same two products in the same order.

use super::cpu::{Avx2, Isa};
use crate::bsc;
use crate::poly::Generator;
use crate::progress::{Batch, Progress, Silent};
use rayon::prelude::*;

/// Values of `m` per chunk (a power of two).
pub const CHUNK: usize = 1 << 10;

/// Widths from this one up split each step across rayon threads in
/// [`p_undetected`]; smaller widths run one BER per thread instead.
pub const PARALLEL_WIDTH: u32 = 19;

/// Widths from this one up use the in-place kernel in [`p_undetected`].
pub const INPLACE_WIDTH: u32 = 22;

/// One step of the register chain (without the injection): `out = M v`.
///
/// `v` and `out` have `2^r` entries. Set `parallel` to split the step across
/// rayon threads.
pub fn step(g: &Generator, p: f64, v: &[f64], out: &mut [f64], parallel: bool) {
    step_on(Isa::detect(), g, p, v, out, parallel);
}

/// [`step`] on the instructions of `isa`, chosen once for the whole step
/// (the same bits on every `isa`).
pub(crate) fn step_on(isa: Isa, g: &Generator, p: f64, v: &[f64], out: &mut [f64], parallel: bool) {
    // AVX-512 measured slower than AVX2 here (shuffle-bound), so AVX2.
    let avx2 = isa.avx2();
    let n = v.len();
    assert_eq!(n, 1usize << g.width(), "vector length must be 2^width");
    assert_eq!(out.len(), n);
    let half = n / 2;
    let h = (g.normal() >> 1) as usize;
    let q = 1.0 - p;
    if half <= CHUNK {
        let (a, b) = v.split_at(half);
        small_step(a, b, h, q, p, out);
        return;
    }
    let chunks = half / CHUNK;
    let hc = h / CHUNK;
    let hl = h % CHUNK;
    let (va, vb) = v.split_at(half);
    // Pair the output chunks c and c ^ hc (the same chunk when hc == 0).
    let mut slots: Vec<Option<&mut [f64]>> = out.chunks_mut(2 * CHUNK).map(Some).collect();
    let mut jobs = Vec::with_capacity(chunks);
    for c in 0..chunks {
        let c2 = c ^ hc;
        if c2 < c {
            continue;
        }
        let o1 = slots[c].take().expect("each chunk once");
        let o2 = if c2 == c { None } else { slots[c2].take() };
        jobs.push((c, c2, o1, o2));
    }
    let run = |(c, c2, o1, o2): (usize, usize, &mut [f64], Option<&mut [f64]>)| {
        let r1 = c * CHUNK..(c + 1) * CHUNK;
        let r2 = c2 * CHUNK..(c2 + 1) * CHUNK;
        let (a1, b1) = (&va[r1.clone()], &vb[r1]);
        let (a2, b2) = (&va[r2.clone()], &vb[r2]);
        pair_step(avx2, a1, b1, a2, b2, hl, q, p, o1);
        if let Some(o2) = o2 {
            pair_step(avx2, a2, b2, a1, b1, hl, q, p, o2);
        }
    };
    if parallel {
        jobs.into_par_iter().for_each(run);
    } else {
        jobs.into_iter().for_each(run);
    }
}

/// Writes `out[2i] = q a1[i] + p b1[i]`, `out[2i+1] = p a2[i^hl] + q b2[i^hl]`
/// for one chunk, with AVX2 where `avx2` proves the CPU has it (the
/// arithmetic is the same two products and one sum on every path, so the
/// results do not depend on which path runs).
#[allow(clippy::too_many_arguments)]
#[inline]
fn pair_step(
    avx2: Option<Avx2>,
    a1: &[f64],
    b1: &[f64],
    a2: &[f64],
    b2: &[f64],
    hl: usize,
    q: f64,
    p: f64,
    out: &mut [f64],
) {
    let a1: &[f64; CHUNK] = a1.try_into().expect("chunk");
    let b1: &[f64; CHUNK] = b1.try_into().expect("chunk");
    let a2: &[f64; CHUNK] = a2.try_into().expect("chunk");
    let b2: &[f64; CHUNK] = b2.try_into().expect("chunk");
    let out: &mut [f64; 2 * CHUNK] = out.try_into().expect("chunk");
    #[cfg(target_arch = "x86_64")]
    if let Some(avx2) = avx2 {
        // SAFETY: the `Avx2` token proves the CPU has AVX2.
        unsafe { pair_step_avx2(avx2, a1, b1, a2, b2, hl, q, p, out) };
        return;
    }
    let _ = avx2;
    pair_dispatch(a1, b1, a2, b2, hl, q, p, out);
}

/// [`pair_dispatch`] compiled for AVX2 (callable only with the [`Avx2`]
/// token, so safe).
#[cfg(target_arch = "x86_64")]
#[allow(clippy::too_many_arguments)]
#[target_feature(enable = "avx2")]
fn pair_step_avx2(
    _: Avx2,
    a1: &[f64; CHUNK],
    b1: &[f64; CHUNK],
    a2: &[f64; CHUNK],
    b2: &[f64; CHUNK],
    hl: usize,
    q: f64,
    p: f64,
    out: &mut [f64; 2 * CHUNK],
) {
    pair_dispatch(a1, b1, a2, b2, hl, q, p, out)
}

/// Picks the body for the lane permutation `hl % 8` (a constant there, so the
/// permutation compiles to shuffles).
#[allow(clippy::too_many_arguments)]
#[inline(always)]
fn pair_dispatch(
    a1: &[f64; CHUNK],
    b1: &[f64; CHUNK],
    a2: &[f64; CHUNK],
    b2: &[f64; CHUNK],
    hl: usize,
    q: f64,
    p: f64,
    out: &mut [f64; 2 * CHUNK],
) {
    let hb = hl / 8;
    match hl % 8 {
        0 => pair_body::<0>(a1, b1, a2, b2, hb, q, p, out),
        1 => pair_body::<1>(a1, b1, a2, b2, hb, q, p, out),
        2 => pair_body::<2>(a1, b1, a2, b2, hb, q, p, out),
        3 => pair_body::<3>(a1, b1, a2, b2, hb, q, p, out),
        4 => pair_body::<4>(a1, b1, a2, b2, hb, q, p, out),
        5 => pair_body::<5>(a1, b1, a2, b2, hb, q, p, out),
        6 => pair_body::<6>(a1, b1, a2, b2, hb, q, p, out),
        _ => pair_body::<7>(a1, b1, a2, b2, hb, q, p, out),
    }
}

/// Blocks of 8: odd outputs read block `blk ^ hb` with lanes permuted by `LO`.
#[allow(clippy::too_many_arguments)]
#[inline(always)]
fn pair_body<const LO: usize>(
    a1: &[f64; CHUNK],
    b1: &[f64; CHUNK],
    a2: &[f64; CHUNK],
    b2: &[f64; CHUNK],
    hb: usize,
    q: f64,
    p: f64,
    out: &mut [f64; 2 * CHUNK],
) {
    for blk in 0..CHUNK / 8 {
        let s = blk * 8;
        let s2 = ((blk ^ hb) % (CHUNK / 8)) * 8;
        let even: [f64; 8] = std::array::from_fn(|j| q * a1[s + j] + p * b1[s + j]);
        let odd: [f64; 8] = std::array::from_fn(|j| p * a2[s2 + j] + q * b2[s2 + j]);
        let o = &mut out[2 * s..2 * s + 16];
        for j in 0..8 {
            o[2 * j] = even[j];
            o[2 * j + 1] = odd[j ^ LO];
        }
    }
}

/// The step for `half <= CHUNK`: one chunk, `h < half`.
fn small_step(a: &[f64], b: &[f64], h: usize, q: f64, p: f64, out: &mut [f64]) {
    for (m, o) in out.chunks_exact_mut(2).enumerate() {
        let m2 = m ^ h;
        o[0] = q * a[m] + p * b[m];
        o[1] = p * a[m2] + q * b[m2];
    }
}

/// `P_undetected` of the CRC `g` at BER `p` for every length in `lengths`
/// (any order), in one pass up to the largest.
///
/// Memory: two vectors of `2^r` f64. The caller checks the memory first
/// (`check_memory`); this function allocates without asking.
pub fn p_undetected_one(g: &Generator, lengths: &[u64], p: f64, parallel: bool) -> Vec<f64> {
    p_undetected_one_with(g, lengths, p, parallel, &Silent)
}

/// [`p_undetected_one`] reporting each step to `progress` (in blocks of
/// [`super::report_every`] steps); announces no stage.
fn p_undetected_one_with(
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
    let mut steps = Batch::new(progress, super::report_every(g.width()));
    let n = 1usize << g.width();
    let inject = g.normal() as usize;
    let mut order: Vec<usize> = (0..lengths.len()).collect();
    order.sort_by_key(|&i| lengths[i]);
    let mut out = vec![0.0; lengths.len()];
    let mut v = vec![0.0; n];
    let mut w = vec![0.0; n];
    let mut k = 0;
    let mut t = 0u64;
    loop {
        while k < order.len() && lengths[order[k]] == t {
            out[order[k]] = v[0];
            k += 1;
        }
        if k == order.len() {
            break;
        }
        step_on(isa, g, p, &v, &mut w, parallel);
        // Paths whose first error is at this step: clean so far, then a flip
        // takes state 0 to normal(g).
        w[inject] += p * bsc::p_clean(t, p);
        std::mem::swap(&mut v, &mut w);
        t += 1;
        steps.add(1);
    }
    out
}

/// `P_undetected` for every BER (outer index) and length (inner index).
///
/// - below [`PARALLEL_WIDTH`]: this module's kernel, one BER per rayon
///   thread (two cache-resident vectors of `2^r` f64 each);
/// - from [`PARALLEL_WIDTH`]: BERs one after the other, each step split
///   across threads (two vectors);
/// - from [`INPLACE_WIDTH`], where the step is bound by main memory: the
///   in-place kernel of [`super::inplace`], one BER per thread (one vector
///   each), measured about twice as fast there as the split step.
///
/// The results are the same bits on every path. The solver runs this where
/// [`super::walk`] does not (`Kernel`).
pub fn p_undetected(g: &Generator, lengths: &[u64], bers: &[f64]) -> Vec<Vec<f64>> {
    p_undetected_with(g, lengths, bers, &Silent)
}

/// [`p_undetected`] reporting every step of every BER's pass to `progress`;
/// announces no stage.
pub(crate) fn p_undetected_with(
    g: &Generator,
    lengths: &[u64],
    bers: &[f64],
    progress: &dyn Progress,
) -> Vec<Vec<f64>> {
    if g.width() >= INPLACE_WIDTH {
        bers.par_iter()
            .map(|&p| super::inplace::p_undetected_one_with(g, lengths, p, progress))
            .collect()
    } else if g.width() >= PARALLEL_WIDTH {
        bers.iter()
            .map(|&p| p_undetected_one_with(g, lengths, p, true, progress))
            .collect()
    } else {
        bers.par_iter()
            .map(|&p| p_undetected_one_with(g, lengths, p, false, progress))
            .collect()
    }
}

#[cfg(feature = "unit-tests")]
#[doc(hidden)]
pub mod tests {
    use super::*;

    /// A reference step straight from the register rule.
    fn naive_step(g: &Generator, p: f64, v: &[f64]) -> Vec<f64> {
        let r = g.width();
        let mut out = vec![0.0; v.len()];
        for (s, &x) in v.iter().enumerate() {
            let s = s as u64;
            let shifted = (s << 1) & g.mask();
            let top = (s >> (r - 1)) & 1;
            let s0 = shifted ^ if top == 1 { g.normal() } else { 0 };
            out[s0 as usize] += (1.0 - p) * x;
            out[(s0 ^ g.normal()) as usize] += p * x;
        }
        out
    }

    pub fn scalar_path_gives_the_avx2_bits() {
        // The kernel forced onto each instruction set this CPU has, down to
        // none: equal bits, serial and parallel, chunk pairs with `h` below
        // and above one chunk.
        for spec in ["0x1002D", "0x1C867", "0x11021"] {
            let g: Generator = spec.parse().unwrap();
            let lengths: Vec<u64> = (0..=150).collect();
            let bits = |v: Vec<f64>| v.iter().map(|x| x.to_bits()).collect::<Vec<_>>();
            let want = bits(p_undetected_one_on(
                Isa::scalar(),
                &g,
                &lengths,
                1e-3,
                false,
                &Silent,
            ));
            for isa in Isa::detect().restrictions() {
                for parallel in [false, true] {
                    let got = bits(p_undetected_one_on(
                        isa, &g, &lengths, 1e-3, parallel, &Silent,
                    ));
                    assert_eq!(got, want, "{spec} {isa:?} parallel={parallel}");
                }
            }
        }
    }

    pub fn chunked_step_matches_register_rule() {
        // Widths above log2(CHUNK)+1 exercise chunk pairing, with h below and
        // above one chunk.
        for spec in ["0x1002D", "0x1C867", "0x11021", "0x18005", "0x3", "0x107"] {
            let g: Generator = spec.parse().unwrap();
            let n = 1usize << g.width();
            let v: Vec<f64> = (0..n).map(|i| ((i * 7919) % 1013) as f64 + 0.5).collect();
            let want = naive_step(&g, 0.125, &v);
            for parallel in [false, true] {
                let mut got = vec![f64::NAN; n];
                step(&g, 0.125, &v, &mut got, parallel);
                for i in 0..n {
                    assert!(
                        (got[i] - want[i]).abs() <= 1e-15 * want[i].abs(),
                        "{spec} state {i}: {} vs {}",
                        got[i],
                        want[i]
                    );
                }
            }
        }
    }
}
