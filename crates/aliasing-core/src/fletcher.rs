//! Exact escape probability of Fletcher-16 for random data, by a 2-D
//! characteristic function over `Z_255 x Z_255`; why Fletcher-32 and Adler-32
//! are left to the simulator.
//!
//! # Model
//!
//! The codeword is `L` bytes `d_0 .. d_{L-1}`, check bytes included, placed so
//! that both sums over the whole codeword are `0 mod 255` (the ISO 8473 /
//! RFC 1146 placement), and the receiver tests both sums for zero. With
//! `a = sum d_i` and `b = sum_i (L - i) d_i` (mod 255), a flip of bit `k` of
//! byte `i` changes `a` by `+-2^k` and `b` by `+-(L-i) 2^k`; **an error escapes
//! iff at least one bit flipped and both changes are `0 mod 255`** (a byte
//! going `0x00 <-> 0xFF` changes nothing: 255 = 0). Random data: every bit an
//! independent fair coin, so each flip goes either way with probability 1/2.
//!
//! # Method
//!
//! `P = (1/255^2) sum_{s,t} prod_i prod_k (1 - p + p cos(2 pi 2^k (s + t w_i) / 255)) - (1-p)^n`
//! with `w_i = (L - i) mod 255`. Bytes are grouped by weight class (at most
//! 255 classes); multiplying `(s, t)` by 2 permutes the bit columns
//! (`2^8 = 1 mod 255`), so only one pair per orbit is evaluated. As for the
//! Internet checksum, `(1-p)^n` is factored out and the first-order terms are
//! removed analytically, and so are the second-order terms: their sum is
//! exactly `2 q^2 sum_w N_w (N_w - 1)` (pairs in one bit column of two bytes
//! of one weight class, i.e. 255 apart, with opposite values); the rest is
//! third order and evaluated by series. A short codeword (`L <= 255`) has no
//! second-order term; its lightest escapes have weight 3 (e.g. `+1, +1, -2`
//! at weights `w, w + 2d, w + d`) for `L >= 3`. Every evaluation carries a
//! rounding-error bound, and a result is returned only when the bound is
//! below `1e-9` of it; otherwise [`p_undetected16`] returns
//! [`Error::Unsupported`] (use the simulator): in practice only 2-byte
//! codewords, whose escapes need 8 flips in one byte.
//! Cost `O(255^2 / 8 * min(L, 255))` per length and BER.
//!
//! Fletcher-32 (mod 65535) and Adler-32 (mod 65521) have about `4.3e9` joint
//! states; the same sum would cost `4.3e9 / 16 x classes` per point and a
//! transition matrix is far out of reach, so they are not computed exactly.
//!
//! ```
//! let p = aliasing_core::fletcher::p_undetected16(600, 1e-4).unwrap();
//! assert!(p > 0.0 && p < 1e-3);
//! ```

use crate::bsc::{self, CurvePoint};
use crate::error::{Error, Result};
use crate::series::{Sum, expm1_minus, expm1_minus2, ln1p_minus};
use rayon::prelude::*;

const M: usize = 255;

/// `ln(1+x) - x + x^2/2`, accurate near 0.
fn ln1p_minus2(x: f64) -> f64 {
    if x.abs() < 0.1 {
        // x^3/3 - x^4/4 + ...
        let mut s = 0.0;
        for m in (3..=21).rev() {
            let c = if m % 2 == 0 { -1.0 } else { 1.0 } / m as f64;
            s = s * x + c;
        }
        s * x * x * x
    } else {
        f64::ln_1p(x) - x + 0.5 * x * x
    }
}

/// Number of bytes in each weight class `w = (L - i) mod 255`.
fn classes(len: u64) -> Vec<u64> {
    let mut n = vec![len / M as u64; M];
    for c in n.iter_mut().skip(1).take((len % M as u64) as usize) {
        *c += 1;
    }
    n
}

/// Exact `P_ud` of Fletcher-16 over `len` bytes of random data at BER `p`
/// (model in the module docs), or [`Error::Unsupported`] where the
/// floating-point sum cannot be certified to `1e-9` relative.
pub fn p_undetected16(len: u64, p: f64) -> Result<f64> {
    bsc::check_ber(p)?;
    if len < 2 {
        return Err(Error::BadLength(format!(
            "{len} bytes is too short for Fletcher-16 (at least 2)"
        )));
    }
    if p == 0.0 {
        return Ok(0.0);
    }
    let (v, bound) = fourier16(len, p);
    if bound <= 1e-9 * v && v > 0.0 {
        Ok(v)
    } else {
        Err(Error::Unsupported(format!(
            "Fletcher-16 over {len} bytes at BER {p:e}: the exact sum cannot be certified in \
             double precision here (its lightest escapes are too heavy for a double-precision sum at this BER); use `alias simulate`"
        )))
    }
}

/// Fletcher-16 curve for random data, BER-major (see `compare::curve`).
pub fn curve16(bytes: &[u64], bers: &[f64]) -> Result<Vec<CurvePoint>> {
    let jobs: Vec<(u64, f64)> = bers
        .iter()
        .flat_map(|&p| bytes.iter().map(move |&b| (b, p)))
        .collect();
    jobs.par_iter()
        .map(|&(b, p)| Ok(CurvePoint::new(p, 8 * b, 16, p_undetected16(b, p)?)))
        .collect()
}

/// The characteristic-function sum and a bound on its rounding error.
pub fn fourier16(len: u64, p: f64) -> (f64, f64) {
    let n_w = classes(len);
    let nz: Vec<(usize, f64)> = n_w
        .iter()
        .enumerate()
        .filter(|(_, c)| **c > 0)
        .map(|(w, &c)| (w, c as f64))
        .collect();
    let n = 8 * len;
    let eps = f64::EPSILON;
    // per residue u: sum over the 8 columns of cos(2 pi 2^k u / 255) and of the log terms
    let cos: Vec<f64> = (0..M)
        .map(|u| (2.0 * std::f64::consts::PI * u as f64 / M as f64).cos())
        .collect();
    let col = |u: usize, f: &dyn Fn(f64) -> f64| -> f64 {
        let mut idx = u;
        let mut s = 0.0;
        for _ in 0..8 {
            s += f(cos[idx]);
            idx = (2 * idx) % M;
        }
        s
    };
    // orbit representatives of (s, t) under doubling, with orbit sizes
    let mut reps: Vec<(usize, usize, f64)> = Vec::new();
    for s in 0..M {
        for t in 0..M {
            let (mut a, mut b) = (s, t);
            let mut canon = true;
            let mut size = 1;
            for _ in 1..8 {
                a = 2 * a % M;
                b = 2 * b % M;
                if (a, b) == (s, t) {
                    break;
                }
                size += 1;
                if (a, b) < (s, t) {
                    canon = false;
                    break;
                }
            }
            if canon {
                reps.push((s, t, size as f64));
            }
        }
    }
    let s_clean = if p < 1.0 {
        -(n as f64) * f64::ln_1p(-p)
    } else {
        f64::INFINITY
    };
    let (mut sum, mut err) = (0.0f64, 0.0f64);
    let (mut total, mut abs_total) = (Sum::default(), 0.0f64);
    if s_clean <= 20.0 && p <= 0.5 {
        // With z = log prod (1 + q c) = q L + R, L = sum N c, Q = sum N c^2,
        // R = sum N (ln(1+qc) - qc) and R3 = sum N (ln(1+qc) - qc + (qc)^2/2):
        //   f - 1 = q L + (q^2/2)(L^2 - Q) + h,  h = e3(z) + q L R + R^2/2 + R3,
        // e3(z) = e^z - 1 - z - z^2/2. Summed over (s, t), q L gives 0 and
        // (q^2/2)(L^2 - Q) gives 2 q^2 M^2 sum_w N_w (N_w - 1) exactly (only
        // pairs in one column and one weight class survive); h is third order
        // and is evaluated by series, so nothing cancels at low BER.
        let q = p / (1.0 - p);
        let c1: Vec<f64> = (0..M).map(|u| col(u, &|c| c)).collect();
        let u1: Vec<f64> = (0..M).map(|u| col(u, &|c| ln1p_minus(q * c))).collect();
        let v1: Vec<f64> = (0..M).map(|u| col(u, &|c| ln1p_minus2(q * c))).collect();
        let va: Vec<f64> = (0..M)
            .map(|u| col(u, &|c| ln1p_minus2(q * c).abs()))
            .collect();
        let a1: Vec<f64> = (0..M).map(|u| col(u, &|c| c.abs())).collect();
        for &(s, t, size) in &reps {
            // compensated sums: error about 2 eps * sum of |terms|
            let (mut l, mut r, mut r3) = (Sum::default(), Sum::default(), Sum::default());
            let (mut al, mut ar3) = (0.0, 0.0);
            for &(w, c) in &nz {
                let u = (s + t * w) % M;
                l.add(c * c1[u]);
                r.add(c * u1[u]);
                r3.add(c * v1[u]);
                al += c * a1[u];
                ar3 += c * va[u];
            }
            let (l, r, r3) = (l.value(), r.value(), r3.value());
            let ql = q * l;
            let z = ql + r;
            let h = expm1_minus2(z) + ql * r + 0.5 * r * r + r3;
            total.add(size * h);
            abs_total += size * h.abs();
            // rounding: L and R are off by about 12 eps * (al, |R|) (the 8
            // cosines of c1 and the compensated sum; R's terms are all <= 0),
            // R3 by 12 eps * ar3; e3'(z) = e^z - 1 - z.
            let (dl, dr) = (12.0 * eps * al, 12.0 * eps * r.abs());
            let dz = q * dl + dr;
            err += size
                * (expm1_minus(z).abs() * dz
                    + q * dl * r.abs()
                    + ql.abs() * dr
                    + r.abs() * dr
                    + 12.0 * eps * ar3
                    + 8.0 * eps * (h.abs() + (ql * r).abs() + r * r + r3.abs()));
        }
        let pairs: f64 = n_w.iter().map(|&c| (c * c.saturating_sub(1)) as f64).sum();
        let second = 2.0 * q * q * pairs;
        let sum = total.value() / (M * M) as f64;
        let clean = f64::exp(-s_clean);
        let v = clean * (second + sum);
        let bound = clean
            * ((err + 4.0 * eps * abs_total) / (M * M) as f64 + 4.0 * eps * (second + sum.abs()));
        (v, bound)
    } else {
        let lf: Vec<f64> = (0..M)
            .map(|u| {
                col(u, &|c| {
                    let a = (1.0 - p) + p * c;
                    if p <= 0.5 { a.ln() } else { a.abs().ln() }
                })
            })
            .collect();
        let sg: Vec<bool> = (0..M)
            .map(|u| {
                let mut neg = false;
                let mut idx = u;
                for _ in 0..8 {
                    neg ^= (1.0 - p) + p * cos[idx] < 0.0;
                    idx = 2 * idx % M;
                }
                neg
            })
            .collect();
        for &(s, t, size) in &reps {
            let mut l = 0.0;
            let mut neg = false;
            for &(w, c) in &nz {
                let u = (s + t * w) % M;
                l += c * lf[u];
                neg ^= sg[u] && (c as u64) % 2 == 1;
            }
            let v = l.exp();
            sum += size * if neg { -v } else { v };
            err += size * v * eps * (nz.len() as f64 * 8.0 * (1.0 + l.abs()));
        }
        let clean = f64::exp(-s_clean);
        let v = sum / (M * M) as f64 - clean;
        (
            v,
            err / (M * M) as f64 + eps * (sum.abs() / (M * M) as f64 + clean) * 4.0,
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rel(a: f64, b: f64) -> f64 {
        (a - b).abs() / a.abs().max(b.abs())
    }

    /// Independent exact method: dynamic programming over the joint change
    /// (A, B) in Z_255^2, byte by byte, with a flag for "some bit flipped";
    /// every term non-negative.
    fn dp(len: u64, p: f64) -> f64 {
        // distribution of one byte's change mod 255 given at least one flip
        let clean_byte = (1.0 - p).powi(8);
        let mut dist = vec![0.0f64; M];
        for e in 1u32..256 {
            let f = e.count_ones() as i32;
            let pe = p.powi(f) * (1.0 - p).powi(8 - f);
            for signs in 0u32..256 {
                if signs & !e != 0 {
                    continue;
                }
                let mut d = 0i64;
                for k in 0..8 {
                    if e >> k & 1 == 1 {
                        d += if signs >> k & 1 == 1 {
                            -(1 << k)
                        } else {
                            1 << k
                        };
                    }
                }
                dist[d.rem_euclid(M as i64) as usize] += pe / f64::from(1u32 << f);
            }
        }
        let idx = |a: usize, b: usize| a * M + b;
        let mut none = 1.0; // no flip so far, at (0, 0)
        let mut some = vec![0.0f64; M * M];
        for i in 0..len {
            let w = ((len - i) % M as u64) as usize;
            let mut next = vec![0.0f64; M * M];
            for a in 0..M {
                for b in 0..M {
                    let x = some[idx(a, b)];
                    if x == 0.0 {
                        continue;
                    }
                    next[idx(a, b)] += x * clean_byte;
                    for (d, &pd) in dist.iter().enumerate() {
                        next[idx((a + d) % M, (b + w * d) % M)] += x * pd;
                    }
                }
            }
            for (d, &pd) in dist.iter().enumerate() {
                next[idx(d, w * d % M)] += none * pd;
            }
            none *= clean_byte;
            some = next;
        }
        some[0]
    }

    #[test]
    fn agrees_with_joint_state_dynamic_programming() {
        // every length from 3 bytes is certified at every BER
        let mut certified = 0;
        for len in [2u64, 3, 5, 9] {
            for p in [1e-12, 1e-3, 0.1, 0.5] {
                let exact = dp(len, p);
                let (v, bound) = fourier16(len, p);
                // the bound is honest: the true error never exceeds it
                assert!(
                    (v - exact).abs() <= bound.max(1e-300) * 1.0001,
                    "{len} {p}: {v} {exact} {bound}"
                );
                match p_undetected16(len, p) {
                    Ok(c) => {
                        certified += 1;
                        assert!(rel(c, exact) < 1e-9, "{len} {p}: {c} vs {exact}");
                    }
                    Err(e) => assert!(len < 3, "{len} {p}: {e}"),
                }
            }
        }
        assert!(certified >= 12, "{certified}");
    }

    #[test]
    fn long_codewords_have_a_second_order_term() {
        // L >= 256: pairs in one column of two bytes 255 apart, opposite values.
        for len in [256u64, 600, 1500] {
            let n = classes(len);
            let a2: f64 = n
                .iter()
                .map(|&c| 8.0 * (c * c.saturating_sub(1)) as f64 / 4.0)
                .sum();
            let p = 1e-12;
            let v = p_undetected16(len, p).unwrap();
            let lead = a2 * bsc::pattern_probability(8 * len, 2, p);
            assert!(rel(v, lead) < 1e-6, "{len}: {v} vs {lead}");
        }
        assert!(p_undetected16(1, 0.1).is_err());
    }
}
