//! Factoring a generator over GF(2) into irreducibles, with the order of `x`
//! modulo each factor.
//!
//! Square-free and distinct-degree factorization come from [`gf2`]; the
//! products of equal-degree irreducibles are split here by Cantor-Zassenhaus
//! for characteristic 2: for a random `a`, the trace
//! `T(a) = a + a^2 + ... + a^(2^(d-1))` is 0 or 1 modulo each degree-`d`
//! factor, each with probability 1/2, so `gcd(T(a), f)` splits `f`.
//!
//! The factors of a CRC generator say which short undetectable errors exist:
//! the period of `g` (weight 2) is the lcm of the orders of `x` modulo the
//! factors, and weight-3 codewords are discrete-logarithm questions in each
//! factor's field ([`crate::trinomial`]).
//!
//! ```
//! use aliasing_core::{factor, poly::Generator};
//! // Koopman's 0xa2572962: (x^3+x^2+1)(x^13+...)(x^16+...), period 73,678,045
//! let g = Generator::from_koopman(32, 0xa2572962).unwrap();
//! let f = factor::factor(&g);
//! let degrees: Vec<u32> = f.iter().map(|p| p.degree).collect();
//! assert_eq!(degrees, vec![3, 13, 16]);
//! let orders: Vec<u128> = f.iter().map(|p| p.order).collect();
//! assert_eq!(orders, vec![7, 8191, 1285]);
//! ```

use crate::gf2;
use crate::poly::Generator;

/// One irreducible factor `p^multiplicity` of a generator.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[non_exhaustive]
pub struct Factor {
    /// The irreducible polynomial, bit `i` the coefficient of `x^i`.
    pub poly: u128,
    /// Its degree.
    pub degree: u32,
    /// How many times it divides the generator.
    pub multiplicity: u32,
    /// The order of `x` modulo `poly` (a divisor of `2^degree - 1`).
    pub order: u128,
}

/// The irreducible factors of a polynomial `f` of degree at most 64 with
/// constant term 1, by increasing degree then value; their product (with
/// multiplicities) is `f`.
pub(crate) fn factor_poly(f: u128) -> Vec<Factor> {
    let mut out = Vec::new();
    for (s, m) in gf2::square_free(f) {
        for (p, d) in gf2::distinct_degree(s) {
            for q in equal_degree(p, d) {
                out.push(Factor {
                    poly: q,
                    degree: d,
                    multiplicity: m,
                    order: gf2::order_same_degree(q, d),
                });
            }
        }
    }
    out.sort_by_key(|f| (f.degree, f.poly));
    out
}

/// The irreducible factors of `g` (`factor_poly` of its full polynomial).
pub fn factor(g: &Generator) -> Vec<Factor> {
    factor_poly(g.full())
}

#[cfg(feature = "unit-tests")]
/// `true` if `g` has no repeated factor.
pub(crate) fn is_square_free(g: &Generator) -> bool {
    factor(g).iter().all(|f| f.multiplicity == 1)
}

/// Splits a product `f` of distinct irreducibles, all of degree `d`.
fn equal_degree(f: u128, d: u32) -> Vec<u128> {
    let n = gf2::deg(f) as u32;
    if n == d {
        return vec![f];
    }
    // A fixed-seed splitmix64 stream: the factorization is deterministic.
    let mut state = 0x9E37_79B9_7F4A_7C15u64 ^ (f as u64) ^ ((f >> 64) as u64);
    loop {
        state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = state;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^= z >> 31;
        let a = gf2::rem(z as u128, f);
        if gf2::deg(a) < 1 {
            continue;
        }
        let mut t = a;
        let mut sq = a;
        for _ in 1..d {
            sq = gf2::mulmod(sq, sq, f);
            t ^= sq;
        }
        let h = gf2::gcd(t, f);
        let dh = gf2::deg(h);
        if dh > 0 && (dh as u32) < n {
            let mut v = equal_degree(h, d);
            v.extend(equal_degree(gf2::divmod(f, h).0, d));
            return v;
        }
    }
}

#[cfg(feature = "unit-tests")]
#[doc(hidden)]
pub mod tests {
    use super::*;

    fn product(fs: &[Factor]) -> u128 {
        let mut p = 1u128;
        for f in fs {
            for _ in 0..f.multiplicity {
                p = gf2::clmul(p, f.poly);
            }
        }
        p
    }

    /// Irreducible by trial division (independent of the gf2 routines).
    fn irreducible_by_trial(p: u128) -> bool {
        let d = gf2::deg(p);
        (2u128..(1u128 << (d / 2 + 1))).all(|q| gf2::deg(q) > d / 2 || gf2::rem(p, q) != 0)
    }

    /// Order of x by stepping the register until it returns to 1.
    fn order_by_stepping(p: u128) -> u128 {
        let d = gf2::deg(p);
        let mut e = gf2::rem(2, p);
        let mut k = 1u128;
        while e != 1 {
            e <<= 1;
            if (e >> d) & 1 == 1 {
                e ^= p;
            }
            k += 1;
        }
        k
    }

    pub fn every_polynomial_up_to_degree_13_factors_correctly() {
        for f in (3u128..1 << 14).step_by(2) {
            let fs = factor_poly(f);
            assert_eq!(product(&fs), f, "{f:#x}");
            for x in &fs {
                assert!(irreducible_by_trial(x.poly), "{f:#x}: {:#x}", x.poly);
                assert_eq!(x.degree as i32, gf2::deg(x.poly));
                if f < 1 << 11 {
                    assert_eq!(x.order, order_by_stepping(x.poly), "{:#x}", x.poly);
                }
            }
            let mut polys: Vec<u128> = fs.iter().map(|x| x.poly).collect();
            polys.dedup();
            assert_eq!(
                polys.len(),
                fs.len(),
                "{f:#x}: repeated factor listed twice"
            );
        }
    }

    pub fn wide_generators_factor() {
        for spec in [
            "k:0xa2572962",
            "0x104C11DB7",
            "0x142F0E1EBA9EA3693",
            "k:0x808d",
        ] {
            let g: Generator = spec.parse().unwrap();
            let fs = factor(&g);
            assert_eq!(product(&fs), g.full(), "{spec}");
            for x in &fs {
                // x^order = 1 and x^(order/q) != 1 for each prime q | order
                assert_eq!(gf2::powmod(2, x.order, x.poly), 1);
                for q in gf2::prime_factors(x.order as u64) {
                    assert_ne!(gf2::powmod(2, x.order / q as u128, x.poly), 1);
                }
            }
        }
        // the facts quoted in issue 13 for 0xa2572962 (checked with sympy there)
        let g = Generator::from_koopman(32, 0xa2572962).unwrap();
        let fs = factor(&g);
        assert_eq!(fs[0].poly, 0b1101);
        assert_eq!(
            fs[1].poly,
            (1 << 13) | (1 << 11) | (1 << 10) | (1 << 7) | (1 << 6) | (1 << 2) | 1
        );
        assert_eq!(
            fs[2].poly,
            (1 << 16)
                | (1 << 15)
                | (1 << 14)
                | (1 << 13)
                | (1 << 7)
                | (1 << 4)
                | (1 << 3)
                | (1 << 2)
                | 1
        );
        assert!(is_square_free(&g));
        let lcm = 7u128 * 8191 * 1285;
        assert_eq!(gf2::period(&g), lcm);
        // x+1 squared is not square-free
        assert!(!is_square_free(&Generator::from_full(0b101).unwrap()));
    }
}
