//! The x86-64 vector kernels of the walk: a block's coset groups with AVX2
//! (4 lanes, 16 or 32 registers) or AVX-512 (8 lanes) and FMA, each entry
//! point holding the token that proves the CPU has its instructions.

use super::block::{BLOCK, Block, next_rep};
use crate::markov::cpu::{Avx2Fma, Avx512, Avx512Vl, Isa};
use std::arch::x86_64::*;

/// The `K` steps of a group held in `x` (`N = 2^K` vectors): step
/// `i` pairs vector `c` with `c | 2^i`, each value becoming
/// `p * partner + q * value` (one multiply, one fused multiply-add),
/// for any vector width.
macro_rules! butterflies {
    ($x:ident, $k:expr, $n:expr, $qv:ident, $pv:ident, $fmadd:ident, $mul:ident) => {
        for i in 0..$k {
            let bi = 1 << i;
            for c in 0..$n {
                if c & bi == 0 {
                    let (a, b) = ($x[c], $x[c | bi]);
                    $x[c] = $fmadd($pv, b, $mul($qv, a));
                    $x[c | bi] = $fmadd($pv, a, $mul($qv, b));
                }
            }
        }
    };
}

/// `(base of the vector, first representative, groups, clear mask,
/// q, p)`.
type Args = (*mut f64, usize, usize, usize, f64, f64);

/// Which instructions a plan runs, each with the token that proves
/// the CPU has them.
#[derive(Clone, Copy)]
enum Insns {
    /// 4 lanes, AVX2 + FMA, 16 registers.
    Avx2(Avx2Fma),
    /// 4 lanes, AVX2 + FMA with AVX-512VL's 32 registers.
    Avx2Wide(Avx512Vl),
    /// 8 lanes, AVX-512F.
    Avx512(Avx512),
}

/// Offsets and lane permutations of one block's coset elements.
pub struct Plan {
    insns: Insns,
    k: usize,
    /// `elems[c] & !(lanes-1)`: where element `c`'s vector starts,
    /// XOR `Y`.
    off: [usize; 1 << BLOCK],
    /// Lane `j` of element `c` comes from lane `j ^ (elems[c] &
    /// (lanes-1))`: `vpermps` pairs of i32 for 4 lanes, `vpermpd`
    /// i64 for 8 (as 16 i32).
    idx: [[i32; 16]; 1 << BLOCK],
}

impl Plan {
    /// The plan of `block` on `isa`, `None` without the vector
    /// instructions of its lane count.
    pub fn new(block: &Block, isa: Isa) -> Option<Plan> {
        let insns = match block.lanes {
            8 => Insns::Avx512(isa.avx512()?),
            4 => match (isa.avx512vl(), isa.avx2_fma()) {
                (Some(t), _) => Insns::Avx2Wide(t),
                (None, Some(t)) => Insns::Avx2(t),
                (None, None) => return None,
            },
            _ => return None,
        };
        let lanes = block.lanes;
        let mut off = [0; 1 << BLOCK];
        let mut idx = [[0; 16]; 1 << BLOCK];
        for (c, &e) in block.elems.iter().enumerate() {
            off[c] = e & !(lanes - 1);
            for j in 0..lanes {
                let src = (j ^ (e & (lanes - 1))) as i32;
                if lanes == 4 {
                    idx[c][2 * j] = 2 * src;
                    idx[c][2 * j + 1] = 2 * src + 1;
                } else {
                    // i64 lane index, little-endian halves
                    idx[c][2 * j] = src;
                    idx[c][2 * j + 1] = 0;
                }
            }
        }
        Some(Plan {
            insns,
            k: block.gens.len(),
            off,
            idx,
        })
    }

    /// Steps `count` coset groups from representative `y0` on.
    ///
    /// # Safety
    /// Every vector at `y ^ off[c]` of these groups lies in the
    /// state vector at `base`, and no other thread accesses their
    /// positions during the call (the contract of `Shared`).
    pub unsafe fn groups(
        &self,
        base: *mut f64,
        y0: usize,
        count: usize,
        mask: usize,
        q: f64,
        p: f64,
    ) {
        let a = (base, y0, count, mask, q, p);
        // SAFETY: the token of `self.insns` proves the CPU has the
        // instructions of the function called; the memory contract
        // is forwarded from the caller.
        unsafe {
            match (self.insns, self.k) {
                (Insns::Avx512(t), 4) => self.steps8::<4, 16>(t, a),
                (Insns::Avx512(t), 3) => self.steps8::<3, 8>(t, a),
                (Insns::Avx512(t), 2) => self.steps8::<2, 4>(t, a),
                (Insns::Avx512(t), _) => self.steps8::<1, 2>(t, a),
                (Insns::Avx2Wide(t), 4) => self.steps_wide::<4, 16>(t, a),
                (Insns::Avx2Wide(t), 3) => self.steps_wide::<3, 8>(t, a),
                (Insns::Avx2Wide(t), 2) => self.steps_wide::<2, 4>(t, a),
                (Insns::Avx2Wide(t), _) => self.steps_wide::<1, 2>(t, a),
                (Insns::Avx2(t), 4) => self.steps::<4, 16>(t, a),
                (Insns::Avx2(t), 3) => self.steps::<3, 8>(t, a),
                (Insns::Avx2(t), 2) => self.steps::<2, 4>(t, a),
                (Insns::Avx2(t), _) => self.steps::<1, 2>(t, a),
            }
        }
    }

    /// [`Plan::each`] with AVX2 and FMA.
    ///
    /// # Safety
    /// As [`Plan::groups`].
    #[target_feature(enable = "avx2,fma")]
    unsafe fn steps<const K: usize, const N: usize>(&self, _: Avx2Fma, a: Args) {
        // SAFETY: forwarded from the caller; AVX2 and FMA enabled.
        unsafe { self.each::<K, N>(a) }
    }

    /// [`Plan::each`] where AVX-512VL gives 32 vector registers
    /// (the same 256-bit instructions, fewer spills: ~7% faster).
    ///
    /// # Safety
    /// As [`Plan::groups`].
    #[target_feature(enable = "avx2,fma,avx512f,avx512vl")]
    unsafe fn steps_wide<const K: usize, const N: usize>(&self, _: Avx512Vl, a: Args) {
        // SAFETY: forwarded from the caller; AVX2 and FMA enabled.
        unsafe { self.each::<K, N>(a) }
    }

    /// [`Plan::body`] for each group, representatives in order.
    ///
    /// # Safety
    /// As [`Plan::body`].
    #[inline(always)]
    unsafe fn each<const K: usize, const N: usize>(&self, a: Args) {
        let (base, mut y, count, mask, q, p) = a;
        for _ in 0..count {
            // SAFETY: forwarded from the caller.
            unsafe { self.body::<K, N>(base, y, q, p) };
            y = next_rep(y, mask);
        }
    }

    /// Loads the `N = 2^K` vectors of the group, applies the `K`
    /// steps, stores them back.
    ///
    /// # Safety
    /// As [`Plan::groups`]; called only from a function that enables
    /// AVX2 and FMA.
    #[inline(always)]
    unsafe fn body<const K: usize, const N: usize>(
        &self,
        base: *mut f64,
        y: usize,
        q: f64,
        p: f64,
    ) {
        // SAFETY: the caller enabled AVX2 and FMA; `y ^ off[c]` is a
        // multiple of 4 with 4 values of the vector from there, owned
        // by this call (caller's contract); each index array holds
        // 8 i32. The indices are reloaded (from L1) rather than
        // held: the N values already fill the registers.
        unsafe {
            let (qv, pv) = (_mm256_set1_pd(q), _mm256_set1_pd(p));
            let perm = |c: usize| _mm256_loadu_si256(self.idx[c].as_ptr().cast());
            let mut x = [_mm256_setzero_pd(); N];
            for (c, xc) in x.iter_mut().enumerate() {
                let a = _mm256_loadu_pd(base.add(y ^ self.off[c]));
                *xc = _mm256_castps_pd(_mm256_permutevar8x32_ps(_mm256_castpd_ps(a), perm(c)));
            }
            butterflies!(x, K, N, qv, pv, _mm256_fmadd_pd, _mm256_mul_pd);
            for (c, &xc) in x.iter().enumerate() {
                let a = _mm256_castps_pd(_mm256_permutevar8x32_ps(_mm256_castpd_ps(xc), perm(c)));
                _mm256_storeu_pd(base.add(y ^ self.off[c]), a);
            }
        }
    }

    /// The groups with 8-lane AVX-512 vectors: the same products and
    /// fused sums as [`Plan::body`], lane for lane.
    ///
    /// # Safety
    /// As [`Plan::groups`].
    #[target_feature(enable = "avx512f")]
    unsafe fn steps8<const K: usize, const N: usize>(&self, _: Avx512, a: Args) {
        let (base, mut y, count, mask, q, p) = a;
        let (qv, pv) = (_mm512_set1_pd(q), _mm512_set1_pd(p));
        // SAFETY: each index array holds 16 i32 = 8 i64.
        let perm = |c: usize| unsafe { _mm512_loadu_si512(self.idx[c].as_ptr().cast()) };
        for _ in 0..count {
            let mut x = [_mm512_setzero_pd(); N];
            for (c, xc) in x.iter_mut().enumerate() {
                // SAFETY: `y ^ off[c]` is a multiple of 8 with 8
                // values of the vector from there, owned by this
                // call (caller's contract).
                let a = unsafe { _mm512_loadu_pd(base.add(y ^ self.off[c])) };
                *xc = _mm512_permutexvar_pd(perm(c), a);
            }
            butterflies!(x, K, N, qv, pv, _mm512_fmadd_pd, _mm512_mul_pd);
            for (c, &xc) in x.iter().enumerate() {
                let a = _mm512_permutexvar_pd(perm(c), xc);
                // SAFETY: as for the load.
                unsafe { _mm512_storeu_pd(base.add(y ^ self.off[c]), a) };
            }
            y = next_rep(y, mask);
        }
    }
}
