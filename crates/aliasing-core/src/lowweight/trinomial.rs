//! Weight-3 codewords of a CRC, the trinomials `1 + x^a + x^b` divisible by
//! `g`, found by discrete logarithms instead of a scan of the period.
//!
//! Write `g = p_1 ... p_m` (distinct irreducibles) and let `o_i` be the order
//! of `x` modulo `p_i`; the period is `P = lcm(o_i)`. In `F_2[x]/g` the
//! powers of `x` form a cyclic group of order `P`, and `1 + x^a + x^b = 0`
//! says `x^b + 1 = x^a`: the element `x^b + 1` is a power of `x`, and `a` is
//! its discrete logarithm. By the Chinese remainder theorem this holds iff,
//! for every factor, `x^b + 1 mod p_i` lies in the subgroup `<x mod p_i>`
//! (its log `l_i`, the *Zech logarithm* of `b` in that subgroup, depends
//! only on `b mod o_i`), and the congruences `a = l_i (mod o_i)` agree.
//!
//! So one table per factor, of `o_i` Zech logarithms, answers every `b` at
//! once: a factor whose subgroup meets none of the `x^r + 1` proves that no
//! weight-3 codeword exists at any length, and otherwise only the `b` with
//! an admissible residue modulo the most selective factor are tried, in
//! increasing order, until `b` passes the shortest span found. Every
//! weight-3 codeword reduces (exponents mod `P`) to one of span below `P`,
//! so nothing is missed.
//!
//! ```
//! use aliasing_core::{poly::Generator, trinomial};
//! // Koopman's 0xa2572962: no weight-3 codeword at any length, so HD 4 holds
//! // up to its period (73,678,045 bits), as Koopman publishes.
//! let g = Generator::from_koopman(32, 0xa2572962).unwrap();
//! assert_eq!(trinomial::shortest(&g).unwrap(), None);
//! // CRC-32 is irreducible with order 2^32 - 1: too large for a Zech table,
//! // so this method declines and the meet-in-the-middle search answers.
//! let crc32: Generator = "0x104C11DB7".parse().unwrap();
//! assert!(trinomial::shortest(&crc32).is_err());
//! ```

use super::Table;
use crate::error::{Error, Limit, Result};
use crate::factor::{self, Factor};
use crate::poly::Generator;

/// Largest order of `x` modulo one factor for which a Zech table is built
/// (about 24 bytes an entry).
pub(crate) const MAX_FACTOR_ORDER: u128 = 1 << 22;

/// Most candidate values of `b` tried before the search is refused.
pub(crate) const MAX_CANDIDATES: u64 = 1 << 31;

/// A weight-3 codeword `1 + x^a + x^b`, `0 < a < b`: `b` is its span.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub struct Trinomial {
    /// The middle exponent.
    pub a: u64,
    /// The top exponent: the span.
    pub b: u64,
}

impl Trinomial {
    /// Positions `[0, a, b]` of the three error bits (`x^i` counted from the
    /// end of the codeword).
    pub fn positions(&self) -> Vec<u64> {
        vec![0, self.a, self.b]
    }
}

/// Zech logarithms in `<x mod p>`: `zech[r]` is `l` with
/// `x^r + 1 = x^l (mod p)`, or `NONE` if `x^r + 1` is not a power of `x`.
fn zech_table(f: &Factor) -> Vec<u32> {
    let o = f.order as usize;
    let d = f.degree;
    let step = |e: u128| {
        let e = e << 1;
        if (e >> d) & 1 == 1 { e ^ f.poly } else { e }
    };
    let mut logs = Table::with_capacity(o);
    let mut e = 1u128;
    for j in 0..o {
        logs.insert(e as u64, j as u64);
        e = step(e);
    }
    let mut zech = vec![NONE; o];
    let mut e = 1u128;
    for z in zech.iter_mut() {
        if let Some(l) = logs.get((e ^ 1) as u64) {
            *z = l as u32;
        }
        e = step(e);
    }
    zech
}

const NONE: u32 = u32::MAX;

/// `(r, m)` combined with `(r2, m2)`: the residue modulo `lcm(m, m2)` that
/// meets both congruences, or `None` if they disagree.
fn crt(r: u128, m: u128, r2: u128, m2: u128) -> Option<(u128, u128)> {
    let (g, p, _) = egcd(m as i128, m2 as i128);
    let g = g as u128;
    let diff = (r2 + m2 - r % m2) % m2; // r2 - r mod m2
    if !diff.is_multiple_of(g) {
        return None;
    }
    let m2g = m2 / g;
    // k = diff/g * p (mod m2/g), with p = (m/g)^-1 mod m2/g
    let p = p.rem_euclid(m2g as i128) as u128;
    let k = ((diff / g) % m2g) * p % m2g;
    let l = m * m2g;
    Some(((r + m * k) % l, l))
}

fn egcd(a: i128, b: i128) -> (i128, i128, i128) {
    if b == 0 {
        (a, 1, 0)
    } else {
        let (g, x, y) = egcd(b, a % b);
        (g, y, x - (a / b) * y)
    }
}

/// The shortest weight-3 codeword of `g` (smallest span `b`; among those the
/// smallest `a`), `None` if `g` has no weight-3 codeword at any length.
///
/// Refused ([`Error::Limit`]) for generators with a repeated factor,
/// with a factor whose order of `x` exceeds `2^22`, or when
/// more than `2^31` values of `b` would be tried; the caller
/// then uses the meet-in-the-middle search of [`crate::lowweight`].
pub fn shortest(g: &Generator) -> Result<Option<Trinomial>> {
    let factors = factor::factor(g);
    if factors.iter().any(|f| f.multiplicity > 1) {
        return Err(Error::Limit(Limit::TrinomialSquareFree));
    }
    if let Some(f) = factors.iter().find(|f| f.order > MAX_FACTOR_ORDER) {
        return Err(Error::Limit(Limit::TrinomialOrder {
            degree: f.degree,
            order: f.order,
            max: MAX_FACTOR_ORDER,
        }));
    }
    let tables: Vec<Vec<u32>> = factors.iter().map(zech_table).collect();
    let period = factors
        .iter()
        .fold(1u128, |p, f| crt(0, p, 0, f.order).expect("0 = 0").1);
    // The most selective factor: fewest admissible residues per unit order.
    let admissible: Vec<Vec<u64>> = tables
        .iter()
        .map(|t| {
            (0..t.len() as u64)
                .filter(|&r| t[r as usize] != NONE)
                .collect()
        })
        .collect();
    let pivot = (0..factors.len())
        .min_by(|&i, &j| {
            let di = admissible[i].len() as f64 / factors[i].order as f64;
            let dj = admissible[j].len() as f64 / factors[j].order as f64;
            di.total_cmp(&dj)
        })
        .expect("a generator has a factor");
    if admissible[pivot].is_empty() {
        return Ok(None);
    }
    let o_pivot = factors[pivot].order as u64;
    let period = period as u64;
    let mut best: Option<Trinomial> = None;
    let mut tried = 0u64;
    'scan: for base in (0..period).step_by(o_pivot as usize) {
        for &r in &admissible[pivot] {
            let b = base + r;
            if b >= period || best.is_some_and(|t| b >= t.b) {
                break 'scan;
            }
            tried += 1;
            if tried > MAX_CANDIDATES {
                return Err(Error::Limit(Limit::TrinomialSpans {
                    max: MAX_CANDIDATES,
                }));
            }
            let mut acc = Some((0u128, 1u128));
            for (f, t) in factors.iter().zip(&tables) {
                let l = t[(b % f.order as u64) as usize];
                acc = match (acc, l) {
                    (Some((ra, ma)), l) if l != NONE => crt(ra, ma, l as u128, f.order),
                    _ => None,
                };
                if acc.is_none() {
                    break;
                }
            }
            if let Some((a, _)) = acc {
                let a = a as u64;
                let t = Trinomial {
                    a: a.min(b),
                    b: a.max(b),
                };
                if best.is_none_or(|x| (t.b, t.a) < (x.b, x.a)) {
                    best = Some(t);
                }
            }
        }
    }
    Ok(best)
}

#[cfg(feature = "unit-tests")]
#[doc(hidden)]
pub mod tests {
    use super::*;
    use crate::lowweight;
    use crate::search::distance;

    /// The shortest trinomial multiple by trying every span `b < period`
    /// and every `a < b` on the register's states.
    fn brute(g: &Generator) -> Option<Trinomial> {
        let p = crate::gf2::period(g) as usize;
        let syn = lowweight::syndromes(g, p);
        for b in 2..p {
            for a in 1..b {
                if syn[0] ^ syn[a] ^ syn[b] == 0 {
                    return Some(Trinomial {
                        a: a as u64,
                        b: b as u64,
                    });
                }
            }
        }
        None
    }

    pub fn matches_brute_force_for_every_square_free_generator_up_to_width_10() {
        let mut with = 0;
        let mut without = 0;
        for r in 3..=10u32 {
            for k in 0..1u64 << (r - 1) {
                let g = Generator::new(r, (k << 1) | 1).unwrap();
                let Ok(t) = shortest(&g) else {
                    assert!(!factor::is_square_free(&g));
                    continue;
                };
                assert_eq!(t, brute(&g), "{}", g.full_string());
                if t.is_some() {
                    with += 1;
                } else {
                    without += 1;
                }
            }
        }
        // both outcomes occur, so the test can fail either way
        assert!(with > 100 && without > 100, "{with} {without}");
    }

    pub fn period_limited_products_match_brute_force() {
        // products of small irreducibles up to width 16, periods well below 2^r
        let irr = [
            0b111u128, 0b1011, 0b1101, 0b10011, 0b11111, 0b100101, 0b1000011,
        ];
        let mut checked = 0;
        for (i, &p) in irr.iter().enumerate() {
            for &q in &irr[i + 1..] {
                for &s in &[1u128, 0b1010111, 0b11001011] {
                    let f = crate::gf2::clmul(crate::gf2::clmul(p, q), s);
                    if crate::gf2::deg(f) > 16 || (s != 1 && (s == p || s == q)) {
                        continue;
                    }
                    let g = Generator::from_full(f).unwrap();
                    if !factor::is_square_free(&g) {
                        continue;
                    }
                    let t = shortest(&g).unwrap();
                    let p = crate::gf2::period(&g) as u64;
                    if p <= 2048 {
                        assert_eq!(t, brute(&g), "{}", g.full_string());
                    }
                    // the distance filter's own meet-in-the-middle search
                    // (search::distance) as the oracle at any period
                    let d = |n: u64| distance::min_distances(&g, &[n]).unwrap()[0];
                    match t {
                        Some(t) => {
                            if t.b > g.width() as u64 {
                                assert!(d(t.b) >= 4, "{}", g.full_string());
                            }
                            assert_eq!(d(t.b + 1), 3, "{}", g.full_string());
                        }
                        None => assert!(d(p) >= 4, "{}", g.full_string()),
                    }
                    checked += 1;
                }
            }
        }
        assert!(checked > 20, "{checked}");
    }

    pub fn crt_combines_coprime_and_common_moduli() {
        assert_eq!(crt(2, 3, 3, 5), Some((8, 15)));
        assert_eq!(crt(1, 4, 3, 6), Some((9, 12)));
        assert_eq!(crt(1, 4, 2, 6), None);
    }

    /// `data/koopman-period-limited.txt`: (Koopman, width, hd, data bits, source).
    fn published_rows() -> Vec<(u64, u32, u32, u64, String)> {
        include_str!("../../data/koopman-period-limited.txt")
            .lines()
            .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
            .map(|l| {
                let f: Vec<&str> = l.split_whitespace().collect();
                (
                    u64::from_str_radix(f[0].trim_start_matches("0x"), 16).unwrap(),
                    f[1].parse().unwrap(),
                    f[2].parse().unwrap(),
                    f[3].parse().unwrap(),
                    f[4].to_string(),
                )
            })
            .collect()
    }

    pub fn published_period_limited_rows() {
        let rows = published_rows();
        assert!(rows.len() >= 7);
        for (k, r, hd, len, src) in rows {
            let g = Generator::from_koopman(r, k).unwrap();
            let prof = lowweight::hd_profile(&g, None).unwrap();
            let e = prof.entries.iter().find(|e| e.hd == hd).unwrap();
            assert_eq!(e.max_data_bits, len, "0x{k:x} HD {hd} ({src})");
        }
        // 0xa2572962 (square-free, factor orders 7, 8191, 1285) is answered
        // by the logarithms; 0x808d has a repeated factor (even period
        // 28658) and is left to the meet-in-the-middle search.
        assert!(shortest(&Generator::from_koopman(32, 0xa2572962).unwrap()).is_ok());
        let g808d = Generator::from_koopman(16, 0x808d).unwrap();
        assert!(shortest(&g808d).is_err());
        assert_eq!(crate::gf2::period(&g808d), 28658);
    }

    pub fn a2572962_has_no_weight_3_codeword() {
        // independent check: no x^r + 1 (0 < r < 1285) lies in the order-1285
        // subgroup of GF(2^16)* generated by x mod p16 (test by powering)
        let g = Generator::from_koopman(32, 0xa2572962).unwrap();
        assert_eq!(shortest(&g).unwrap(), None);
        let p16 = factor::factor(&g)[2];
        assert_eq!(p16.order, 1285);
        let mut e = 1u128;
        for r in 1..1285 {
            e = crate::gf2::mulmod(e, 2, p16.poly);
            assert_ne!(crate::gf2::powmod(e ^ 1, 1285, p16.poly), 1, "r = {r}");
        }
    }
}
