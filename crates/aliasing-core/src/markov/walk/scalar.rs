//! The scalar kernels of the walk: a block's coset groups in scalar
//! registers, and a block's steps one at a time over the whole vector (when
//! its span meets the lane bits). Hardware fused multiply-adds where the
//! CPU has them, else the library's: the same bits.

use super::block::{BLOCK, Block, MAX_LANES, Shared, mix, next_rep};
use crate::markov::cpu::Fma;

impl Block<'_> {
    /// The cosets `Y ^ j ^ V` (`j < lanes`) of `count` coset groups, `Y`
    /// from `y0` on in order, with scalar arithmetic (hardware fused
    /// multiply-adds with `fma`, else the library's: the same bits). With
    /// `record`, the first group is the one of position 0 (`y0 = 0`): the
    /// error mass is injected into `V` itself after each step and the value
    /// at position 0 recorded.
    ///
    /// # Safety
    /// [`Shared`]'s contract for every position of these groups.
    #[allow(clippy::too_many_arguments)]
    pub(super) unsafe fn scalar_groups(
        &self,
        fma: Option<Fma>,
        v: Shared,
        y0: usize,
        count: usize,
        q: f64,
        p: f64,
        record: Option<(&[f64], &mut [f64])>,
    ) {
        #[cfg(target_arch = "x86_64")]
        if let Some(fma) = fma {
            // SAFETY: `fma` proves the CPU has FMA; the memory contract is
            // the caller's.
            unsafe { self.scalar_groups_fma(fma, v, y0, count, q, p, record) };
            return;
        }
        let _ = fma;
        // SAFETY: the caller's contract.
        unsafe { self.scalar_groups_body(v, y0, count, q, p, record) };
    }

    /// [`Block::scalar_groups`] with the fused multiply-adds in hardware
    /// (a library call otherwise): the same bits, many times faster.
    ///
    /// # Safety
    /// As [`Block::scalar_groups`].
    #[cfg(target_arch = "x86_64")]
    #[allow(clippy::too_many_arguments)]
    #[target_feature(enable = "fma")]
    unsafe fn scalar_groups_fma(
        &self,
        _: Fma,
        v: Shared,
        y0: usize,
        count: usize,
        q: f64,
        p: f64,
        record: Option<(&[f64], &mut [f64])>,
    ) {
        // SAFETY: the caller's contract.
        unsafe { self.scalar_groups_body(v, y0, count, q, p, record) };
    }

    /// # Safety
    /// As [`Block::scalar_groups`].
    #[inline(always)]
    unsafe fn scalar_groups_body(
        &self,
        v: Shared,
        y0: usize,
        count: usize,
        q: f64,
        p: f64,
        mut record: Option<(&[f64], &mut [f64])>,
    ) {
        let mut y = y0;
        for _ in 0..count {
            // SAFETY: the caller's contract covers group `y`.
            unsafe { self.group_body(v, y, q, p, record.take()) };
            y = next_rep(y, self.clear_mask);
        }
    }

    /// One coset group in scalar registers.
    ///
    /// # Safety
    /// [`Shared`]'s contract for the positions `y ^ j ^ elems[c]`.
    #[inline(always)]
    unsafe fn group_body(
        &self,
        v: Shared,
        y: usize,
        q: f64,
        p: f64,
        mut record: Option<(&[f64], &mut [f64])>,
    ) {
        let n = self.elems.len();
        let mut x = [[0.0f64; 1 << BLOCK]; MAX_LANES];
        let x = &mut x[..self.lanes];
        for (j, xj) in x.iter_mut().enumerate() {
            for (xc, &e) in xj.iter_mut().zip(&self.elems) {
                // SAFETY: below 2^r (every term is), owned by the caller.
                *xc = unsafe { v.read(y ^ j ^ e) };
            }
        }
        for i in 0..self.gens.len() {
            let bi = 1usize << i;
            for xj in x.iter_mut() {
                for c in (0..n).filter(|c| c & bi == 0) {
                    (xj[c], xj[c | bi]) = mix(xj[c], xj[c | bi], q, p);
                }
            }
            if let Some((inject, zero)) = record.as_mut() {
                x[0][bi] += inject[i];
                zero[i] = x[0][0];
            }
        }
        for (j, xj) in x.iter().enumerate() {
            for (&xc, &e) in xj.iter().zip(&self.elems) {
                // SAFETY: as for the reads.
                unsafe { v.write(y ^ j ^ e, xc) };
            }
        }
    }
}

/// The block's steps one at a time over the whole vector (when `V` meets the
/// lane bits), with injection and the value at position 0 after each;
/// hardware fused multiply-adds with `fma` (the same bits).
pub(super) fn block_stepwise(
    fma: Option<Fma>,
    v: &mut [f64],
    gens: &[u64],
    q: f64,
    p: f64,
    inject: &[f64],
    zero: &mut [f64],
) {
    #[cfg(target_arch = "x86_64")]
    if let Some(fma) = fma {
        // SAFETY: the `Fma` token proves the CPU has FMA.
        unsafe { block_stepwise_fma(fma, v, gens, q, p, inject, zero) };
        return;
    }
    let _ = fma;
    block_stepwise_body(v, gens, q, p, inject, zero);
}

/// [`block_stepwise`] with hardware fused multiply-adds (callable only with
/// the [`Fma`] token, so safe).
#[cfg(target_arch = "x86_64")]
#[allow(clippy::too_many_arguments)]
#[target_feature(enable = "fma")]
fn block_stepwise_fma(
    _: Fma,
    v: &mut [f64],
    gens: &[u64],
    q: f64,
    p: f64,
    inject: &[f64],
    zero: &mut [f64],
) {
    block_stepwise_body(v, gens, q, p, inject, zero);
}

#[inline(always)]
fn block_stepwise_body(
    v: &mut [f64],
    gens: &[u64],
    q: f64,
    p: f64,
    inject: &[f64],
    zero: &mut [f64],
) {
    for (i, &g) in gens.iter().enumerate() {
        let g = g as usize;
        if g == 0 {
            // A flip that does not move the syndrome: every value maps to
            // itself, q v + p v, as the pair rule gives with Y ^ 0 = Y.
            for x in v.iter_mut() {
                *x = p.mul_add(*x, q * *x);
            }
            v[0] += inject[i];
            zero[i] = v[0];
            continue;
        }
        let top = 1usize << (usize::BITS - 1 - g.leading_zeros());
        for y in 0..v.len() {
            if y & top == 0 {
                let z = y ^ g;
                (v[y], v[z]) = mix(v[y], v[z], q, p);
            }
        }
        v[g] += inject[i];
        zero[i] = v[0];
    }
}
