//! Evaluating `P_ud` from the dual weights without losing digits.
//!
//! `P_ud = 2^-r sum_w B_w (1-2p)^w - (1-p)^n`. When `n p` is small the two
//! terms agree in almost all their digits (for CRC-32 at `n = 12144` and
//! `p = 1e-15` the difference is about 1e-57 of each), so the sum is formed
//! in binary fixed point with `P` fraction bits (big integers, truncating
//! after every product) and `P` is raised until the proven error bound is
//! below `2^-47` (7e-15) of the result.
//!
//! Error bound. With `p` exactly representable (`P` is at least the number
//! of fraction bits of the `f64` `p`), `y = 1-2p` and `z = 1-p` are exact.
//! Every value stays in `[0, 1]`, so one truncating product adds at most one
//! unit (`2^-P`) to the error of its factors' sum: square-and-multiply and
//! then repeated multiplication give `y^w` within `2w` units, `z^n` within
//! `2n`; the weighted mean `2^-r sum B_w y^w` is within `2n + 1`. The result
//! is therefore within `E = 4n + 4` units, and it is accepted once it
//! exceeds `E 2^47` units. Results below about `1e-330` (beyond `f64`) come
//! back as 0.
//!
//! ```
//! use aliasing_core::{highprec, weights::DualWeights};
//! // x^2+x+1 at n = 3: the only non-zero codeword is 111, so P_ud = p^3.
//! let b = DualWeights::new(3, 2, vec![1, 0, 3, 0]).unwrap();
//! let p = 1e-9;
//! let v = highprec::p_undetected(&b, p).unwrap();
//! assert!((v / (p * p * p) - 1.0).abs() < 1e-14);
//! ```

use crate::dual::DualWeights;
use crate::error::Result;
use dashu_int::UBig;
use dashu_int::ops::BitTest;

/// `(mantissa, q)` with `p = mantissa * 2^-q`, for finite `0 < p < 1`.
fn dyadic(p: f64) -> (u64, usize) {
    let bits = p.to_bits();
    let exp = ((bits >> 52) & 0x7ff) as i64;
    let frac = bits & ((1u64 << 52) - 1);
    let (m, e) = if exp == 0 {
        (frac, -1074)
    } else {
        (frac | (1u64 << 52), exp - 1075)
    };
    let tz = m.trailing_zeros().min((-e) as u32);
    (m >> tz, (-e - tz as i64) as usize)
}

fn mul_fixed(a: &UBig, b: &UBig, prec: usize) -> UBig {
    (a * b) >> prec
}

fn pow_fixed(x: &UBig, mut k: u64, prec: usize) -> UBig {
    let mut result = UBig::ONE << prec;
    let mut base = x.clone();
    while k > 0 {
        if k & 1 == 1 {
            result = mul_fixed(&result, &base, prec);
        }
        k >>= 1;
        if k > 0 {
            base = mul_fixed(&base, &base, prec);
        }
    }
    result
}

/// `v * 2^-prec` as the nearest `f64` (within 2^-52 relative).
pub(crate) fn fixed_to_f64(v: &UBig, prec: usize) -> f64 {
    let bl = v.bit_len();
    if bl == 0 {
        return 0.0;
    }
    let shift = bl.saturating_sub(64);
    let top: u64 = u64::try_from(&(v >> shift)).expect("fits");
    ldexp(top as f64, shift as i64 - prec as i64)
}

/// `x * 2^e` without intermediate overflow or underflow.
pub(crate) fn ldexp(mut x: f64, mut e: i64) -> f64 {
    while e > 1000 {
        x *= 2f64.powi(1000);
        e -= 1000;
    }
    while e < -1000 {
        x *= 2f64.powi(-1000);
        e += 1000;
        if x == 0.0 {
            return 0.0;
        }
    }
    x * 2f64.powi(e as i32)
}

/// `yw (1 - 2p)` in fixed point, for `p = m 2^-q` (`q >= 1`): the same
/// integer as `mul_fixed(yw, y, prec)` with `y = 2^prec - m 2^(prec-q+1)`,
/// bit for bit, since `floor(yw y / 2^prec) = yw - ceil(yw m / 2^(q-1))`:
/// a product by one word instead of by a `prec`-bit number. `round` is
/// `2^(q-1) - 1`.
fn times_one_minus_2p(yw: &UBig, m: u64, q: usize, round: &UBig) -> UBig {
    yw - ((yw * UBig::from(m) + round) >> (q - 1))
}

/// One evaluation at `prec` fraction bits: `(S, (1-p)^n)` in fixed point.
fn terms(dual: &DualWeights, m: u64, q: usize, prec: usize) -> (UBig, UBig) {
    let one = UBig::ONE << prec;
    let pfix = UBig::from(m) << (prec - q);
    let y = &one - (&pfix << 1); // 1 - 2p >= 0 for p <= 1/2
    let z = &one - &pfix;
    let n = dual.bits;
    let (lo, hi) = (0usize, dual.counts.len() - 1);
    let first = dual.counts.iter().position(|&c| c > 0).unwrap_or(lo);
    let mut s = UBig::ZERO;
    let mut yw = pow_fixed(&y, first as u64, prec);
    let round = (UBig::ONE << (q - 1)) - UBig::ONE;
    for w in first..=hi {
        if w > first {
            yw = times_one_minus_2p(&yw, m, q, &round);
        }
        if yw == UBig::ZERO {
            // (1-2p)^w truncated to 0 at this precision: so are all the
            // higher powers, and their terms add exactly nothing
            break;
        }
        let b = dual.counts[w];
        if b > 0 {
            s += &yw * UBig::from(b);
        }
    }
    let s = s >> dual.width as usize;
    (s, pow_fixed(&z, n, prec))
}

/// `P_ud` from the dual weight distribution at BER `p` in [0, 0.5], with a
/// proven relative error below 1e-14 (see the module documentation).
pub fn p_undetected(dual: &DualWeights, p: f64) -> Result<f64> {
    p_undetected_above(dual, p, &[])
}

/// `P_ud - sum_{w=1}^{W} A_w p^w (1-p)^(n-w)`: the share of `P_ud` from
/// codewords of weight above `W`, given `low = [A_1, .., A_W]` exact (from
/// [`crate::weights::macwilliams`] or an enumeration; empty: [`p_undetected`]).
/// The difference is formed in the same fixed point as [`p_undetected`] with the error of each
/// subtracted term bounded too (`A_w (2n + 2w + 2)` units: `p^w` within `2w`,
/// `(1-p)^(n-w)` within `2n`, one truncating product), so it keeps 14
/// significant digits however small it is beside `P_ud`. Comes back as 0
/// only when it is below about `1e-330` (or exactly 0).
#[doc(hidden)] // internal: the joint computation's tail sum
pub fn p_undetected_above(dual: &DualWeights, p: f64, low: &[UBig]) -> Result<f64> {
    if !(p.is_finite() && (0.0..=0.5).contains(&p)) {
        return Err(crate::error::Error::Refused(
            crate::registry::refusal::Refusal::dual_ber(p),
        ));
    }
    let n = dual.bits;
    if p == 0.0 || n <= dual.width as u64 {
        // No error, or no non-zero codeword shorter than the generator.
        return Ok(0.0);
    }
    let (m, q) = dyadic(p);
    let mut bound = UBig::from(4 * n + 4);
    for (i, a) in low.iter().enumerate() {
        bound += a * UBig::from(2 * n + 2 * (i as u64 + 1) + 2);
    }
    let need = bound.bit_len() + 47;
    let mut prec = (q + 64).max(128);
    loop {
        let (s, zn) = terms(dual, m, q, prec);
        let mut sub = zn;
        if !low.is_empty() {
            let pfix = UBig::from(m) << (prec - q);
            let z = (UBig::ONE << prec) - &pfix;
            for (i, a) in low.iter().enumerate() {
                let w = i as u64 + 1;
                if w > n || *a == UBig::ZERO {
                    continue;
                }
                let t = mul_fixed(
                    &pow_fixed(&pfix, w, prec),
                    &pow_fixed(&z, n - w, prec),
                    prec,
                );
                sub += a * t;
            }
        }
        if s > sub {
            let r = s - sub;
            if r.bit_len() > need {
                return Ok(fixed_to_f64(&r, prec));
            }
            // Result below 2^(need - prec + 1): if that is under f64's range, stop.
            if prec > need + 1100 {
                return Ok(0.0);
            }
            prec += need + 2 - r.bit_len();
        } else {
            if prec > need + 1100 {
                return Ok(0.0);
            }
            prec *= 2;
        }
    }
}

#[cfg(feature = "unit-tests")]
#[doc(hidden)]
pub mod tests {
    use super::*;

    pub fn dyadic_is_exact() {
        for p in [0.5, 0.25, 1e-15, 0.1, 3e-7, f64::MIN_POSITIVE] {
            let (m, q) = dyadic(p);
            assert_eq!(ldexp(m as f64, -(q as i64)), p);
            assert!(m & 1 == 1 || m == 0);
        }
    }

    pub fn one_word_step_is_the_fixed_point_product() {
        // the step of `terms` against the full product it replaces, exactly,
        // from p = 1/2 (y = 0) to the smallest subnormal, at several precisions
        for p in [
            0.5,
            0.25,
            0.1,
            1e-5,
            1e-15,
            3e-300,
            f64::MIN_POSITIVE / 8.0,
            f64::from_bits(1),
        ] {
            let (m, q) = dyadic(p);
            let round = (UBig::ONE << (q - 1)) - UBig::ONE;
            for prec in [(q + 64).max(128), 2 * (q + 64), q + 1164] {
                let one = UBig::ONE << prec;
                let y = &one - ((UBig::from(m) << (prec - q)) << 1);
                let mut yw = one.clone();
                for w in 0..300u32 {
                    let full = mul_fixed(&yw, &y, prec);
                    let step = times_one_minus_2p(&yw, m, q, &round);
                    assert_eq!(full, step, "p={p} prec={prec} w={w}");
                    yw = step;
                }
                // and from a power that is not 1 at the start
                let mut yw = pow_fixed(&y, 12_144, prec) + UBig::from(12_345u32);
                for w in 0..50u32 {
                    let full = mul_fixed(&yw, &y, prec);
                    let step = times_one_minus_2p(&yw, m, q, &round);
                    assert_eq!(full, step, "p={p} prec={prec} offset w={w}");
                    yw = step;
                }
            }
        }
    }

    pub fn remainder_above_low_weights_matches_the_direct_sum() {
        // x^3+x+1 at n = 7 (Hamming code): A = 1,0,0,7,7,0,0,1.
        let g: crate::poly::Generator = "0xB".parse().unwrap();
        let d = crate::dual::dual_weights(&g, &[7], &crate::ctx::Ctx::default())
            .unwrap()
            .remove(0);
        let a = crate::weights::macwilliams(&d, 7).unwrap();
        for p in [0.3, 1e-3, 1e-9] {
            let direct = |from: usize| -> f64 {
                (from..=7)
                    .map(|w| {
                        let c: f64 = u64::try_from(&a[w]).unwrap() as f64;
                        c * crate::bsc::pattern_probability(7, w as u64, p)
                    })
                    .sum()
            };
            for w_max in 0..=6usize {
                let got = p_undetected_above(&d, p, &a[1..=w_max]).unwrap();
                let want = direct(w_max + 1);
                assert!(
                    (got - want).abs() <= 1e-13 * want,
                    "p={p} W={w_max}: {got} vs {want}"
                );
            }
        }
    }

    pub fn fixed_point_conversion() {
        let v = UBig::from(3u32) << 2000;
        assert_eq!(fixed_to_f64(&v, 2002), 0.75);
        assert_eq!(fixed_to_f64(&UBig::ONE, 1074), f64::from_bits(1));
    }
}
