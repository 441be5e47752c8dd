//! The butterfly in place, in a rotating layout: one state vector, no copy.
//!
//! At step `k` state `s` is stored at `rotr_k(s)` (rotated right by `k` bits
//! within `r` bits). A step of the register chain then closes on quads of
//! positions `{P, P^B, P^H, P^H^B}`, with `B = rotr_k(2^(r-1))` and
//! `H = rotr_k(h)`, `h = normal(g) >> 1`:
//!
//! ```text
//! new[P]       = q old[P]     + p old[P^B]
//! new[P^B]     = p old[P^H]   + q old[P^H^B]
//! new[P^H]     = q old[P^H]   + p old[P^H^B]
//! new[P^H^B]   = p old[P]     + q old[P^B]
//! ```
//!
//! and the next layout is `rotr_{k+1}`. Each value is read and written once
//! per step in place: half the memory of the out-of-place kernel, and no
//! even/odd interleave. The products and sums are those of
//! [`super::butterfly`], so the results are the same bits.

use crate::bsc;
use crate::poly::Generator;
use crate::progress::{Batch, Progress, Silent};

fn rotr(x: usize, k: u32, r: u32) -> usize {
    let k = k % r;
    if k == 0 {
        return x;
    }
    let mask = if r >= usize::BITS {
        usize::MAX
    } else {
        (1usize << r) - 1
    };
    ((x >> k) | (x << (r - k))) & mask
}

/// One step in place, layout `rotr_k` to `rotr_{k+1}` (without injection).
pub fn step_in_place(g: &Generator, p: f64, v: &mut [f64], k: u32) {
    let r = g.width();
    let n = v.len();
    assert_eq!(n, 1usize << r, "vector length must be 2^width");
    let q = 1.0 - p;
    let bbit = (r - 1 + r - k % r) % r; // (r-1-k) mod r
    let bm = 1usize << bbit;
    let hh = rotr((g.normal() >> 1) as usize, k, r);
    if hh == 0 {
        // g = x^r + 1: pairs only.
        for a in 0..n {
            if a & bm == 0 {
                let (x0, x1) = (v[a], v[a ^ bm]);
                v[a] = q * x0 + p * x1;
                v[a ^ bm] = p * x0 + q * x1;
            }
        }
        return;
    }
    let cbit = usize::BITS - 1 - hh.leading_zeros();
    if bbit < 3 && cbit >= 3 && n >= 16 {
        // The pair (P, P^B) lies inside an 8-block: step whole 8-blocks.
        match bbit {
            0 => small_b::<1>(v, hh, cbit, q, p),
            1 => small_b::<2>(v, hh, cbit, q, p),
            _ => small_b::<4>(v, hh, cbit, q, p),
        }
        return;
    }
    let (lo, hi) = (bbit.min(cbit), bbit.max(cbit));
    let run = 1usize << lo;
    let hlo = hh & (run - 1);
    let hhi = hh & !(run - 1);
    // Run starts: positions with bits below `lo` zero and bits b, c zero.
    let runs = n >> (lo + 2);
    for i in 0..runs {
        // Insert zero bits at lo and hi into i << lo.
        let mut p0 = i << lo;
        p0 = ((p0 >> lo) << (lo + 1)) | (p0 & (run - 1));
        p0 = ((p0 >> hi) << (hi + 1)) | (p0 & ((1usize << hi) - 1));
        let p2 = p0 ^ hhi;
        run_quads(v, p0, p2, bm, hlo, run, q, p);
    }
}

/// A step when `B = BM < 8 <= 2^c`: 8-blocks at `P0` (bit `c` clear) pair
/// with the 8-block at `P0 ^ (H & !7)`, lanes permuted by `H & 7`.
fn small_b<const BM: usize>(v: &mut [f64], hh: usize, cbit: u32, q: f64, p: f64) {
    let hl = hh & 7;
    let hhi = hh & !7;
    let blocks = v.len() >> 4;
    for i in 0..blocks {
        let mut p0 = i << 3;
        p0 = ((p0 >> cbit) << (cbit + 1)) | (p0 & ((1usize << cbit) - 1));
        let p2 = p0 ^ hhi;
        let x: [f64; 8] = v[p0..p0 + 8].try_into().expect("8");
        let yr: [f64; 8] = v[p2..p2 + 8].try_into().expect("8");
        let y: [f64; 8] = std::array::from_fn(|j| yr[j ^ hl]);
        // Lane j with bit BM clear is P; j ^ BM is P^B; y lanes are P^H.
        let nx: [f64; 8] = std::array::from_fn(|j| {
            if j & BM == 0 {
                q * x[j] + p * x[j ^ BM]
            } else {
                p * y[j ^ BM] + q * y[j]
            }
        });
        let ny: [f64; 8] = std::array::from_fn(|j| {
            if j & BM == 0 {
                q * y[j] + p * y[j ^ BM]
            } else {
                p * x[j ^ BM] + q * x[j]
            }
        });
        v[p0..p0 + 8].copy_from_slice(&nx);
        for j in 0..8 {
            v[p2 + (j ^ hl)] = ny[j];
        }
    }
}

#[allow(clippy::too_many_arguments)]
#[inline]
fn run_quads(
    v: &mut [f64],
    p0: usize,
    p2: usize,
    bm: usize,
    hlo: usize,
    run: usize,
    q: f64,
    p: f64,
) {
    if run >= 4 {
        let hb = hlo >> 2;
        match hlo & 3 {
            0 => run_blocks::<0>(v, p0, p2, bm, hb, run, q, p),
            1 => run_blocks::<1>(v, p0, p2, bm, hb, run, q, p),
            2 => run_blocks::<2>(v, p0, p2, bm, hb, run, q, p),
            _ => run_blocks::<3>(v, p0, p2, bm, hb, run, q, p),
        }
        return;
    }
    for j in 0..run {
        let a = p0 + j;
        let a2 = p2 + (j ^ hlo);
        let (x0, x1, x2, x3) = (v[a], v[a ^ bm], v[a2], v[a2 ^ bm]);
        v[a] = q * x0 + p * x1;
        v[a ^ bm] = p * x2 + q * x3;
        v[a2] = q * x2 + p * x3;
        v[a2 ^ bm] = p * x0 + q * x1;
    }
}

#[allow(clippy::too_many_arguments)]
#[inline(always)]
fn run_blocks<const LO: usize>(
    v: &mut [f64],
    p0: usize,
    p2: usize,
    bm: usize,
    hb: usize,
    run: usize,
    q: f64,
    p: f64,
) {
    for blk in 0..run / 4 {
        let a = p0 + 4 * blk;
        let a2 = p2 + 4 * (blk ^ hb);
        let load = |v: &[f64], s: usize| -> [f64; 4] { v[s..s + 4].try_into().expect("4") };
        let x0 = load(v, a);
        let x1 = load(v, a ^ bm);
        let y2 = load(v, a2);
        let y3 = load(v, a2 ^ bm);
        // Lane j of the a-block pairs with lane j ^ LO of the a2-block.
        let x2: [f64; 4] = std::array::from_fn(|j| y2[j ^ LO]);
        let x3: [f64; 4] = std::array::from_fn(|j| y3[j ^ LO]);
        let n0: [f64; 4] = std::array::from_fn(|j| q * x0[j] + p * x1[j]);
        let n1: [f64; 4] = std::array::from_fn(|j| p * x2[j] + q * x3[j]);
        let n2: [f64; 4] = std::array::from_fn(|j| q * x2[j] + p * x3[j]);
        let n3: [f64; 4] = std::array::from_fn(|j| p * x0[j] + q * x1[j]);
        let m2: [f64; 4] = std::array::from_fn(|j| n2[j ^ LO]);
        let m3: [f64; 4] = std::array::from_fn(|j| n3[j ^ LO]);
        v[a..a + 4].copy_from_slice(&n0);
        v[(a ^ bm)..(a ^ bm) + 4].copy_from_slice(&n1);
        v[a2..a2 + 4].copy_from_slice(&m2);
        v[(a2 ^ bm)..(a2 ^ bm) + 4].copy_from_slice(&m3);
    }
}

/// `P_undetected` at BER `p` for every length, one vector of `2^r` f64.
pub fn p_undetected_one(g: &Generator, lengths: &[u64], p: f64) -> Vec<f64> {
    p_undetected_one_with(g, lengths, p, &Silent)
}

/// [`p_undetected_one`] reporting each step to `progress` (in blocks of
/// [`super::report_every`] steps); announces no stage.
pub(crate) fn p_undetected_one_with(
    g: &Generator,
    lengths: &[u64],
    p: f64,
    progress: &dyn Progress,
) -> Vec<f64> {
    let mut steps = Batch::new(progress, super::report_every(g.width()));
    let r = g.width();
    let n = 1usize << r;
    let gn = g.normal() as usize;
    let mut order: Vec<usize> = (0..lengths.len()).collect();
    order.sort_by_key(|&i| lengths[i]);
    let mut out = vec![0.0; lengths.len()];
    let mut v = vec![0.0; n];
    let mut k = 0;
    let mut t = 0u64;
    loop {
        while k < order.len() && lengths[order[k]] == t {
            out[order[k]] = v[0]; // state 0 sits at position 0 in every layout
            k += 1;
        }
        if k == order.len() {
            break;
        }
        let rot = (t % r as u64) as u32;
        step_in_place(g, p, &mut v, rot);
        v[rotr(gn, rot + 1, r)] += p * bsc::p_clean(t, p);
        t += 1;
        steps.add(1);
    }
    out
}

#[cfg(feature = "unit-tests")]
#[doc(hidden)]
pub mod tests {
    use super::*;
    use crate::markov::butterfly;
    use crate::progress::Record;

    pub fn reports_every_step() {
        let g: Generator = "0x1002D".parse().unwrap();
        let r = Record::default();
        r.stage("chain steps", 300);
        let got = p_undetected_one_with(&g, &[40, 300, 7], 1e-3, &r);
        assert!(r.complete(), "{:?}", r.stages());
        assert_eq!(got, p_undetected_one(&g, &[40, 300, 7], 1e-3));
    }

    pub fn same_bits_as_the_out_of_place_kernel() {
        for spec in [
            "0x1002D", "0x107", "0x3", "0x7", "0x11021", "0x18005", "0x101", "0x13",
        ] {
            let g: Generator = spec.parse().unwrap();
            let lengths = [40u64, 7, 300, 299, 1, 0];
            for p in [1e-3, 0.25, 0.5] {
                let a = p_undetected_one(&g, &lengths, p);
                let b = butterfly::p_undetected_one(&g, &lengths, p, false);
                let bits = |v: &[f64]| v.iter().map(|x| x.to_bits()).collect::<Vec<_>>();
                assert_eq!(bits(&a), bits(&b), "{spec} p={p}");
            }
        }
    }
}
