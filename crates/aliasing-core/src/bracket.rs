//! A certified bracket on `P_ud` for CRCs too wide for the exact methods
//! (the dual code has `2^r` words; beyond 32 bits it is out of reach), from
//! the enumerated low weights and a proven bound on all the others.
//!
//! `P_ud(n, p) = sum_{w >= 1} A_w p^w (1-p)^(n-w)`, every term non-negative.
//!
//! **Lower bound.** The terms `w <= W` with `A_w` counted exactly by
//! [`lowweight::weight_counts`] (meet in the middle; `W` = 4 at frame
//! lengths, 5 up to 2048 bits, up to [`MAX_ENUMERATED`] on request).
//!
//! **Upper bound.** The lower bound plus `min(T_c, T_b)` where
//! - `T_b = sum_{w > W} C(n, w) p^w (1-p)^(n-w)`: every pattern of more
//!   than `W` errors counted as an escape;
//! - `T_c = sum_{w > W} U_w p^w (1-p)^(n-w)` with `U_w = ceil(n / e)
//!   C(n, w-1) / w` (`e` the period of `g`), and `U_w = 0` for odd `w` when
//!   `x + 1` divides `g`.
//!
//! *Proof that `A_w <= U_w`.* Count pairs (codeword `c` of weight `w`, a
//! position `j` of `c`): there are `w A_w`. Removing `j` leaves a set `S` of
//! `w - 1` positions, and `j` is a position whose syndrome `x^j mod g`
//! equals the XOR of the syndromes of `S` (a codeword's syndromes XOR to 0).
//! Syndromes repeat with period `e` and are distinct within a period, so
//! at most `ceil(n / e)` positions of `[0, n)` share one syndrome. Hence
//! each `S` arises from at most `ceil(n / e)` pairs: `w A_w <= ceil(n/e)
//! C(n, w-1)`. When `x + 1` divides `g` every codeword has even weight
//! (`c(1) = 0`). Both tails are summed term by term in the log domain until
//! the ratio of consecutive bound terms, which decreases with `w`
//! (`(n-w+1)/(w+1) p/(1-p)` for `T_c`, `(n-w)/(w+1) p/(1-p)` for `T_b`), is
//! below 1/2; the rest is bounded by the geometric series of that ratio.
//!
//! Floating point: each sum has under `10^4` terms, each with relative
//! rounding error below `10^-13`; the lower bound is scaled by `1 - 10^-12`
//! and the upper by `1 + 10^-12`, which covers them.
//!
//! ```
//! use aliasing_core::{bracket, catalogue, ctx::Ctx};
//! let g = catalogue::resolve("crc64-xz").unwrap().generator();
//! let b = bracket::brackets(&g, &[1024], &[1e-9], None, &Ctx::default()).unwrap();
//! assert!(b[0].lower <= b[0].upper && b[0].upper < 1e-40);
//! ```

use crate::bsc;
use crate::ctx::Ctx;
use crate::error::{Error, Result};
use crate::gf2;
use crate::lowweight;
use crate::poly::Generator;

/// Widest weight enumerated.
pub const MAX_ENUMERATED: u32 = 6;

/// The bracket at one (length, BER).
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
#[non_exhaustive]
pub struct Bracket {
    /// Codeword length in bits, check bits included.
    pub bits: u64,
    /// Bit error rate.
    pub ber: f64,
    /// Certified lower bound on `P_ud`.
    pub lower: f64,
    /// Certified upper bound on `P_ud`.
    pub upper: f64,
    /// Weights counted exactly: `A_w` for `w = 0..=W` (`counts.len() - 1 = W`).
    pub counts: Vec<u128>,
}

impl Bracket {
    /// `(upper - lower) / lower` (infinite when the lower bound is 0).
    pub fn relative_width(&self) -> f64 {
        if self.lower > 0.0 {
            (self.upper - self.lower) / self.lower
        } else {
            f64::INFINITY
        }
    }
}

/// `ln C(n, k)` for every `k` in `0..=kmax` by the product recurrence.
fn ln_binomials(n: u64, kmax: u64) -> Vec<f64> {
    let mut v = Vec::with_capacity(kmax as usize + 1);
    let mut acc = 0.0f64;
    v.push(0.0);
    for k in 1..=kmax.min(n) {
        acc += ((n - k + 1) as f64).ln() - (k as f64).ln();
        v.push(acc);
    }
    v
}

/// `sum_{w >= from} exp(ln_term(w))` for a term sequence whose ratio
/// `ratio(w) = term(w+1)/term(w)` decreases in `w`, with the geometric
/// remainder once the ratio is below 1/2. `step` is 1 or 2.
fn tail(
    from: u64,
    n: u64,
    step: u64,
    ln_term: impl Fn(u64) -> f64,
    ratio: impl Fn(u64) -> f64,
) -> f64 {
    let mut sum = 0.0;
    let mut w = from;
    while w <= n {
        let t = ln_term(w).exp();
        sum += t;
        if w + step > n {
            // the last term (a ratio past it would read weights above `n`)
            break;
        }
        let rho = if step == 1 {
            ratio(w)
        } else {
            ratio(w) * ratio(w + 1)
        };
        if rho < 0.5 {
            // every later step has a ratio <= rho
            sum += t * rho / (1.0 - rho);
            break;
        }
        w += step;
    }
    sum
}

/// The exact low-weight counts `A_w(n)` for `w = 0..=max_w`, in `ctx`
/// (its memory budget and progress, see [`lowweight::weight_counts`]).
pub fn low_weights(g: &Generator, n: u64, max_w: u32, ctx: &Ctx) -> Result<Vec<u128>> {
    let mut a = vec![1u128, 0];
    for w in 2..=max_w {
        if g.divisible_by_x_plus_1() && w % 2 == 1 {
            a.push(0);
            continue;
        }
        a.push(lowweight::weight_counts(g, w, n + 1, ctx)?[n as usize]);
    }
    Ok(a)
}

/// The bracket at one length and BER from the exact counts `A_0..=A_W`.
pub fn bracket(g: &Generator, n: u64, counts: &[u128], p: f64) -> Result<Bracket> {
    bsc::check_ber(p)?;
    let big_w = counts.len() as u64 - 1;
    if n <= g.width() as u64 {
        return Err(Error::BadLength(format!(
            "{n} bits is not longer than the {} check bits",
            g.width()
        )));
    }
    let lower: f64 = counts
        .iter()
        .enumerate()
        .skip(1)
        .map(|(w, &a)| a as f64 * bsc::pattern_probability(n, w as u64, p))
        .sum();
    let upper_tail = if p == 0.0 || big_w >= n {
        0.0
    } else if p == 1.0 {
        1.0
    } else {
        let lb = ln_binomials(n, n);
        let (lp, lq) = (p.ln(), (-p).ln_1p());
        let odds = p / (1.0 - p);
        let e = gf2::period(g);
        let mult = (n as u128).div_ceil(e).max(1) as f64;
        let even = g.divisible_by_x_plus_1();
        let first = if even && (big_w + 1) % 2 == 1 {
            big_w + 2
        } else {
            big_w + 1
        };
        let tc = tail(
            first,
            n,
            if even { 2 } else { 1 },
            |w| {
                mult.ln() + lb[w as usize - 1] - (w as f64).ln()
                    + w as f64 * lp
                    + (n - w) as f64 * lq
            },
            |w| (n - w + 1) as f64 / (w + 1) as f64 * odds,
        );
        let tb = tail(
            big_w + 1,
            n,
            1,
            |w| lb[w as usize] + w as f64 * lp + (n - w) as f64 * lq,
            |w| (n - w) as f64 / (w + 1) as f64 * odds,
        );
        tc.min(tb)
    };
    Ok(Bracket {
        bits: n,
        ber: p,
        lower: lower * (1.0 - 1e-12),
        upper: ((lower + upper_tail) * (1.0 + 1e-12)).min(1.0),
        counts: counts.to_vec(),
    })
}

/// Brackets at every (length, BER), lengths outer, with the weights
/// enumerated up to `max_w` (default: 5 up to 2048 bits, else 4), in `ctx`:
/// the enumeration is held to its memory budget and watched by its
/// progress (one stage of [`lowweight::weight_counts`] per weight
/// enumerated).
pub fn brackets(
    g: &Generator,
    lengths: &[u64],
    bers: &[f64],
    max_w: Option<u32>,
    ctx: &Ctx,
) -> Result<Vec<Bracket>> {
    if lengths.is_empty() {
        return Err(Error::BadLength("no lengths given".into()));
    }
    for &p in bers {
        bsc::check_ber(p)?;
    }
    let n_max = *lengths.iter().max().expect("non-empty");
    let counts_at = |w: u32| -> Result<Vec<Vec<u128>>> {
        let mut per = vec![vec![1u128, 0]; lengths.len()];
        for ww in 2..=w {
            if g.divisible_by_x_plus_1() && ww % 2 == 1 {
                per.iter_mut().for_each(|c| c.push(0));
                continue;
            }
            let a = lowweight::weight_counts(g, ww, n_max + 1, ctx)?;
            for (c, &n) in per.iter_mut().zip(lengths) {
                c.push(a[n as usize]);
            }
        }
        Ok(per)
    };
    let per = match max_w {
        Some(w) => {
            if !(2..=MAX_ENUMERATED).contains(&w) {
                return Err(Error::Limit(crate::error::Limit::EnumeratedWeight {
                    weight: w,
                    max: MAX_ENUMERATED,
                }));
            }
            counts_at(w)?
        }
        // 5 only where its pair table (n^2/2 entries) stays small
        None => counts_at(if n_max <= 2048 { 5 } else { 4 })?,
    };
    let mut out = Vec::new();
    for (c, &n) in per.iter().zip(lengths) {
        for &p in bers {
            out.push(bracket(g, n, c, p)?);
        }
    }
    Ok(out)
}

#[cfg(feature = "unit-tests")]
#[doc(hidden)]
pub mod tests {
    use super::*;

    pub fn tiny_lengths_at_every_ber() {
        // x^2 + 1 = (x + 1)^2 (even weights only) at 3 and 4 bits, weights up
        // to 1 or 2: the tail's last term sits at weight n, and the sum once
        // read a ratio past it (a subtraction overflow). Brute force: the
        // codewords of length 3 are 101; of length 4, 0101 1010 1111.
        let g = Generator::new(2, 1).unwrap();
        for (n, words) in [(3u64, vec![0b101u32]), (4, vec![0b0101, 0b1010, 0b1111])] {
            for w_max in 1..=2 {
                let counts = low_weights(&g, n, w_max, &Ctx::default()).unwrap();
                for p in [0.0f64, 1e-300, 1e-6, 0.3, 0.5, 0.9, 1.0] {
                    let exact: f64 = words
                        .iter()
                        .map(|e| {
                            let w = e.count_ones() as i32;
                            p.powi(w) * (1.0 - p).powi(n as i32 - w)
                        })
                        .sum();
                    let b = bracket(&g, n, &counts, p).unwrap();
                    assert!(
                        b.lower <= exact && exact <= b.upper,
                        "n={n} W={w_max} p={p}: {} <= {exact} <= {}",
                        b.lower,
                        b.upper
                    );
                }
            }
        }
    }

    pub fn brackets_contain_the_exact_value() {
        // exact P_ud by the dual code for CRCs where it is feasible
        let cases = [
            ("0x11021", vec![40u64, 200, 2000]),
            ("0x18005", vec![100, 3000]),
            ("0x107", vec![30, 300]),
            // CRC-32: a 2^32-state dual pass and weight-5 counts (the full tier)
            ("0x104C11DB7", vec![100, 1000]),
        ];
        for (spec, ns) in cases.into_iter().take(crate::tier::pick(3, 4)) {
            let g: Generator = spec.parse().unwrap();
            let bers = [1e-12, 1e-8, 1e-5, 1e-3, 0.1];
            // one dual-code pass for every length (2^32 states for CRC-32)
            let exact_all =
                crate::search::p_undetected(&g, &ns, &bers, &crate::ctx::Ctx::default()).unwrap();
            for (&n, exact) in ns.iter().zip(&exact_all) {
                // the pair table grows as n^2: weight 5 only up to 1000 bits
                let top = if n > 1000 { 4 } else { 5 };
                let all = low_weights(&g, n, top, &Ctx::default()).unwrap();
                for w in 2..=top {
                    // A_0..=A_W: the counts up to W are a prefix of those up to top
                    let counts = &all[..=w as usize];
                    if n <= 300 {
                        assert_eq!(
                            low_weights(&g, n, w, &Ctx::default()).unwrap(),
                            counts,
                            "{spec} n={n} W={w}"
                        );
                    }
                    for (bi, &p) in bers.iter().enumerate() {
                        let b = bracket(&g, n, counts, p).unwrap();
                        let x = exact[bi];
                        assert!(
                            b.lower <= x * (1.0 + 1e-12) && x <= b.upper * (1.0 + 1e-12),
                            "{spec} n={n} W={w} p={p}: {} <= {x} <= {}",
                            b.lower,
                            b.upper
                        );
                    }
                }
            }
        }
    }

    pub fn the_codeword_bound_holds_by_brute_force() {
        // w A_w <= ceil(n/e) C(n, w-1) on every weight of small codes
        for (spec, n) in [("0x13", 20u64), ("0x11", 14), ("0x107", 22), ("0x1F", 18)] {
            let g: Generator = spec.parse().unwrap();
            let k = n - g.width() as u64;
            let mut a = vec![0u128; n as usize + 1];
            let mut c = 0u128;
            for i in 1u64..(1u64 << k) {
                c ^= g.full() << i.trailing_zeros();
                a[c.count_ones() as usize] += 1;
            }
            let e = gf2::period(&g);
            let m = (n as u128).div_ceil(e);
            for (w, &aw) in a.iter().enumerate().skip(2) {
                let bound = m * crate::weights::binomial(n, w as u64 - 1)
                    .to_string()
                    .parse::<u128>()
                    .unwrap();
                assert!(w as u128 * aw <= bound, "{spec} n={n} w={w}");
                if g.divisible_by_x_plus_1() && w % 2 == 1 {
                    assert_eq!(aw, 0);
                }
            }
        }
    }

    pub fn crc64_at_1024_bits_has_the_first_tail_term_as_upper_bound() {
        // CRC-64/XZ is (x+1) times other factors: even weights only, and no
        // codeword of weight 2 or 4 fits in 1024 bits, so the lower bound is
        // 0 and the upper bound is the weight-6 term C(n,5)/6 p^6 (1-p)^(n-6)
        // (the next even term is ~1e-17 of it).
        let g = crate::catalogue::resolve("crc64-xz").unwrap().generator();
        assert!(g.divisible_by_x_plus_1());
        let (n, p) = (1024u64, 1e-12);
        let b = &brackets(&g, &[n], &[p], None, &Ctx::default()).unwrap()[0];
        assert_eq!(b.counts, vec![1, 0, 0, 0, 0, 0]);
        assert_eq!(b.lower, 0.0);
        let c5: f64 = (0..5).map(|i| (n - i) as f64 / (i + 1) as f64).product();
        let t6 = c5 / 6.0 * p.powi(6) * (1.0 - p).powi((n - 6) as i32);
        assert!(
            b.upper >= t6 && b.upper <= t6 * (1.0 + 1e-9),
            "{} vs {t6}",
            b.upper
        );
    }
}
