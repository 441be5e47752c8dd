//! The Gilbert-Elliott product chain on unwound syndromes, [`BLOCK`] bits
//! per pass over the two vectors, in place.
//!
//! In the layout of [`super::super::walk`] (the mass of register state `s`
//! after `t` steps stored at `A^-t(s)`), bit `t` is a butterfly on the
//! pairs `{Y, Y ^ G_t}` inside each channel state's vector, with that
//! state's BER, and the channel's 2x2 mix acts on each position `Y` alone.
//! Both keep the cosets of `V = span{G_t, .., G_{t+BLOCK-1}}` apart, so a
//! block loads the `2^BLOCK` values of a coset from both vectors once, runs
//! its bits in registers and stores them once. The first error of bit `t`
//! lands at `G_t` (in the coset of 0, which also gives the escape at
//! position 0). Every sum is one fused multiply-add on a product, on every
//! CPU (the hardware instruction where there is one, else the library's
//! correctly rounded one): the result does not depend on the CPU or the
//! thread count.

use super::super::walk::unwind;
use crate::poly::Generator;
use rayon::prelude::*;

/// Bits fused per pass.
pub const BLOCK: usize = 4;

/// Cosets per rayon task.
const TASK: usize = 512;

/// The per-bit constants of one block.
struct Bits {
    /// `(q, p)` of the good and the bad state.
    qp: [(f64, f64); 2],
    /// The mix `(g, b) -> (m[0] g + m[1] b, m[2] g + m[3] b)`.
    m: [f64; 4],
    /// Error mass injected at `G_t` after bit `i` of the block, per state.
    inject: [[f64; BLOCK]; 2],
}

/// A pointer to the two vectors shared by the tasks of one block, which
/// touch disjoint cosets.
#[derive(Clone, Copy)]
struct Vectors(*mut f64, *mut f64);
// SAFETY: tasks write disjoint positions (distinct cosets) only.
unsafe impl Send for Vectors {}
unsafe impl Sync for Vectors {}

/// `(P_error, P_undetected)` of `g` on the channel `ge` at each length of
/// `lengths` (any order), in one pass to the largest; `parallel` splits
/// each block's cosets across rayon threads (the same bits).
///
/// Panics unless the width is at least [`BLOCK`]; the channel must be valid
/// ([`crate::channel::GilbertElliott::validate`]). Memory: two vectors of
/// `2^r` f64, allocated without asking (the caller checks).
pub fn run(
    g: &Generator,
    ge: &crate::channel::GilbertElliott,
    lengths: &[u64],
    parallel: bool,
    progress: &dyn crate::progress::Progress,
) -> Vec<(f64, f64)> {
    let mut steps =
        crate::progress::Batch::new(progress, crate::markov::report_every(g.width() + 1));
    let mut order: Vec<usize> = (0..lengths.len()).collect();
    order.sort_by_key(|&i| lengths[i]);
    let mut out = vec![(0.0, 0.0); lengths.len()];
    let mut k_out = order.partition_point(|&i| lengths[i] == 0);
    let n_max = lengths.iter().copied().max().unwrap_or(0);
    let r = g.width();
    assert!(r as usize >= BLOCK, "fused kernel needs width >= {BLOCK}");
    let gn = g.normal();
    let n = 1usize << r;
    let mut vg = vec![0.0f64; n];
    let mut vb = vec![0.0f64; n];
    let e = [ge.p_good, ge.p_bad];
    let (g2b, b2g) = (ge.good_to_bad, ge.bad_to_good);
    let m = [1.0 - g2b, b2g, g2b, 1.0 - b2g];
    let qp = [(1.0 - e[0], e[0]), (1.0 - e[1], e[1])];
    let mut clean = ge.stationary();
    let mut p_err_now = 0.0f64;
    let mut gt = 1u64 << (r - 1);
    let mut t = 0u64;
    while t < n_max {
        let k = (n_max - t).min(BLOCK as u64) as usize;
        let mut gens = [0u64; BLOCK];
        let mut bits = Bits {
            qp,
            m,
            inject: [[0.0; BLOCK]; 2],
        };
        let mut p_err = [0.0f64; BLOCK];
        for i in 0..k {
            gens[i] = gt;
            gt = unwind(gt, gn, r);
            bits.inject[0][i] = e[0] * clean[0];
            bits.inject[1][i] = e[1] * clean[1];
            p_err_now += e[0] * clean[0] + e[1] * clean[1];
            p_err[i] = p_err_now;
            let c = [clean[0] * (1.0 - e[0]), clean[1] * (1.0 - e[1])];
            clean = [
                m[1].mul_add(c[1], m[0] * c[0]),
                m[2].mul_add(c[0], m[3] * c[1]),
            ];
        }
        let mut p_ud = [0.0f64; BLOCK];
        let zero = &mut p_ud[..k];
        match k {
            BLOCK => block::<BLOCK>(&mut vg, &mut vb, &gens, &bits, zero, parallel),
            3 => block::<3>(&mut vg, &mut vb, &gens, &bits, zero, parallel),
            2 => block::<2>(&mut vg, &mut vb, &gens, &bits, zero, parallel),
            _ => block::<1>(&mut vg, &mut vb, &gens, &bits, zero, parallel),
        }
        for i in 0..k {
            let now = t + i as u64 + 1;
            while k_out < order.len() && lengths[order[k_out]] == now {
                out[order[k_out]] = (p_err[i], p_ud[i]);
                k_out += 1;
            }
        }
        t += k as u64;
        steps.add(k as u64);
    }
    out
}

/// One block of `K` bits over both vectors; `zero[i]` gets the escape
/// after bit `i`.
fn block<const K: usize>(
    vg: &mut [f64],
    vb: &mut [f64],
    gens: &[u64; BLOCK],
    bits: &Bits,
    zero: &mut [f64],
    parallel: bool,
) {
    // Echelon basis of V (distinct leading bits: the pivots); a coset's
    // representative has zeros at the pivots.
    let mut basis: Vec<u64> = Vec::with_capacity(K);
    for &x in &gens[..K] {
        let mut y = x;
        for &b in &basis {
            y = y.min(y ^ b);
        }
        assert!(y != 0, "consecutive translations are independent");
        basis.push(y);
        basis.sort_unstable_by(|a, b| b.cmp(a));
    }
    let mask = basis
        .iter()
        .fold(0usize, |m, b| m | 1usize << (63 - b.leading_zeros()));
    let mut elems = [0usize; 1 << BLOCK];
    for (c, el) in elems.iter_mut().enumerate().take(1 << K) {
        *el = (0..K)
            .filter(|i| c >> i & 1 == 1)
            .fold(0, |acc, i| acc ^ gens[i] as usize);
    }
    let ptr = Vectors(vg.as_mut_ptr(), vb.as_mut_ptr());
    let cosets = vg.len() >> K;
    // The coset of 0 first: injection and the escape.
    // SAFETY: one coset, positions inside the vectors (elems < 2^r).
    unsafe { coset::<K>(ptr, 0, &elems, bits, Some(zero)) };
    let task = |start: usize| {
        let end = (start + TASK).min(cosets);
        // SAFETY: cosets start..end, disjoint from every other task's.
        unsafe { cosets_range::<K>(ptr, start.max(1), end, mask, &elems, bits) };
    };
    if parallel {
        (0..cosets).into_par_iter().step_by(TASK).for_each(task);
    } else {
        (0..cosets).step_by(TASK).for_each(task);
    }
}

/// The representative of coset number `i`: `i` with zeros inserted at the
/// bits of `mask`, lowest first.
fn rep(i: usize, mask: usize) -> usize {
    let (mut y, mut m) = (i, mask);
    while m != 0 {
        let b = m.trailing_zeros();
        y = ((y >> b) << (b + 1)) | (y & ((1usize << b) - 1));
        m &= m - 1;
    }
    y
}

/// Cosets number `start..end`, with hardware FMA where the CPU has it.
///
/// # Safety
/// No other thread touches these cosets; `2^r` values behind each pointer.
unsafe fn cosets_range<const K: usize>(
    v: Vectors,
    start: usize,
    end: usize,
    mask: usize,
    elems: &[usize; 1 << BLOCK],
    bits: &Bits,
) {
    #[cfg(target_arch = "x86_64")]
    if super::super::simd_allowed() && is_x86_feature_detected!("fma") {
        // SAFETY: the CPU has FMA and AVX2 is implied by the check below;
        // the caller's contract is passed on.
        if is_x86_feature_detected!("avx2") {
            unsafe { cosets_range_fma::<K>(v, start, end, mask, elems, bits) };
            return;
        }
    }
    // SAFETY: the caller's contract.
    unsafe { cosets_range_body::<K>(v, start, end, mask, elems, bits) }
}

/// [`cosets_range`] compiled for AVX2 and FMA.
///
/// # Safety
/// As [`cosets_range`], on a CPU with AVX2 and FMA.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2,fma")]
unsafe fn cosets_range_fma<const K: usize>(
    v: Vectors,
    start: usize,
    end: usize,
    mask: usize,
    elems: &[usize; 1 << BLOCK],
    bits: &Bits,
) {
    if K == BLOCK {
        if start >= end {
            return;
        }
        let mut y = rep(start, mask);
        for _ in start..end {
            // SAFETY: the caller's contract; AVX2 and FMA are enabled here.
            unsafe { avx2::coset(v, y, elems, bits) };
            y = ((y | mask).wrapping_add(1)) & !mask;
        }
        return;
    }
    // SAFETY: the caller's contract.
    unsafe { cosets_range_body::<K>(v, start, end, mask, elems, bits) }
}

/// [`coset`] for a whole block (`K = BLOCK`, no injection) in AVX2
/// registers: value `c` of a coset sits in lane `c % 4` of register
/// `c / 4`, so the butterflies of bits 0 and 1 are lane shuffles and those
/// of bits 2 and 3 whole-register swaps; the same multiply-adds in the same
/// order as [`coset`] (the same bits).
#[cfg(target_arch = "x86_64")]
mod avx2 {
    use super::{BLOCK, Bits, Vectors};
    use std::arch::x86_64::*;

    /// # Safety
    /// As [`super::coset`], on a CPU with AVX2 and FMA.
    #[inline]
    #[target_feature(enable = "avx2,fma")]
    pub(super) unsafe fn coset(v: Vectors, y: usize, elems: &[usize; 1 << BLOCK], bits: &Bits) {
        let load = |base: *mut f64, j: usize| {
            let at = |l: usize| {
                // SAFETY: in bounds and exclusive (the contract).
                unsafe { *base.add(y ^ elems[4 * j + l]) }
            };
            _mm256_setr_pd(at(0), at(1), at(2), at(3))
        };
        let mut g: [__m256d; 4] = std::array::from_fn(|j| load(v.0, j));
        let mut b: [__m256d; 4] = std::array::from_fn(|j| load(v.1, j));
        let [(qg, pg), (qb, pb)] = bits.qp;
        let (qg, pg, qb, pb) = (
            _mm256_set1_pd(qg),
            _mm256_set1_pd(pg),
            _mm256_set1_pd(qb),
            _mm256_set1_pd(pb),
        );
        let m = bits.m.map(|x| _mm256_set1_pd(x));
        // new = p * partner + (q * x), one rounding for the sum.
        let fly = |x: &mut [__m256d; 4], partner: [__m256d; 4], q: __m256d, p: __m256d| {
            for j in 0..4 {
                x[j] = _mm256_fmadd_pd(p, partner[j], _mm256_mul_pd(q, x[j]));
            }
        };
        for i in 0..BLOCK {
            let partner = |x: &[__m256d; 4]| -> [__m256d; 4] {
                match i {
                    0 => x.map(|r| _mm256_permute_pd::<0b0101>(r)),
                    1 => x.map(|r| _mm256_permute2f128_pd::<1>(r, r)),
                    2 => [x[1], x[0], x[3], x[2]],
                    _ => [x[2], x[3], x[0], x[1]],
                }
            };
            let (pgv, pbv) = (partner(&g), partner(&b));
            fly(&mut g, pgv, qg, pg);
            fly(&mut b, pbv, qb, pb);
            for j in 0..4 {
                let (x, z) = (g[j], b[j]);
                g[j] = _mm256_fmadd_pd(m[1], z, _mm256_mul_pd(m[0], x));
                b[j] = _mm256_fmadd_pd(m[2], x, _mm256_mul_pd(m[3], z));
            }
        }
        for j in 0..4 {
            let (mut lg, mut lb) = ([0.0f64; 4], [0.0f64; 4]);
            // SAFETY: 4 f64 each.
            unsafe {
                _mm256_storeu_pd(lg.as_mut_ptr(), g[j]);
                _mm256_storeu_pd(lb.as_mut_ptr(), b[j]);
            }
            for l in 0..4 {
                // SAFETY: as for the loads.
                unsafe {
                    *v.0.add(y ^ elems[4 * j + l]) = lg[l];
                    *v.1.add(y ^ elems[4 * j + l]) = lb[l];
                }
            }
        }
    }
}

/// # Safety
/// As [`cosets_range`].
#[inline(always)]
unsafe fn cosets_range_body<const K: usize>(
    v: Vectors,
    start: usize,
    end: usize,
    mask: usize,
    elems: &[usize; 1 << BLOCK],
    bits: &Bits,
) {
    if start >= end {
        return;
    }
    let mut y = rep(start, mask);
    for _ in start..end {
        // SAFETY: the caller's contract.
        unsafe { coset::<K>(v, y, elems, bits, None) };
        y = ((y | mask).wrapping_add(1)) & !mask;
    }
}

/// The coset `y ^ V` of both vectors through the block's `K` bits. With
/// `zero` (`y` = 0), the error mass is injected at `G_t` after each bit's
/// butterflies and the escape recorded after its mix.
///
/// # Safety
/// No other thread touches this coset; `2^r` values behind each pointer and
/// every `y ^ elems[c]` below `2^r`.
#[inline(always)]
unsafe fn coset<const K: usize>(
    v: Vectors,
    y: usize,
    elems: &[usize; 1 << BLOCK],
    bits: &Bits,
    mut zero: Option<&mut [f64]>,
) {
    let n = 1 << K;
    let mut xg = [0.0f64; 1 << BLOCK];
    let mut xb = [0.0f64; 1 << BLOCK];
    for c in 0..n {
        // SAFETY: in bounds and exclusive (the contract).
        unsafe {
            xg[c] = *v.0.add(y ^ elems[c]);
            xb[c] = *v.1.add(y ^ elems[c]);
        }
    }
    let [m0, m1, m2, m3] = bits.m;
    let [(qg, pg), (qb, pb)] = bits.qp;
    for i in 0..K {
        // The butterflies as one permutation and one multiply-add per value
        // (whole-register swaps and lane shuffles once vectorised).
        let bi = 1usize << i;
        let (yg, yb) = (xg, xb);
        for c in 0..n {
            xg[c] = pg.mul_add(yg[c ^ bi], qg * yg[c]);
            xb[c] = pb.mul_add(yb[c ^ bi], qb * yb[c]);
        }
        if zero.is_some() {
            xg[bi] += bits.inject[0][i];
            xb[bi] += bits.inject[1][i];
        }
        for c in 0..n {
            let (a, b) = (xg[c], xb[c]);
            xg[c] = m1.mul_add(b, m0 * a);
            xb[c] = m2.mul_add(a, m3 * b);
        }
        if let Some(z) = zero.as_mut() {
            z[i] = xg[0] + xb[0];
        }
    }
    for c in 0..n {
        // SAFETY: as for the loads.
        unsafe {
            *v.0.add(y ^ elems[c]) = xg[c];
            *v.1.add(y ^ elems[c]) = xb[c];
        }
    }
}
