//! Arithmetic on polynomials over GF(2): residues `x^k mod g`, the period
//! (order of `x`), irreducibility and primitivity.
//!
//! Polynomials are bit vectors in a `u128`: bit `i` is the coefficient of `x^i`.
//! Residues modulo a [`Generator`] of width `r` are `u64` values below `2^r`.
//!
//! ```
//! use aliasing_core::{gf2, poly::Generator};
//! let g: Generator = "0x104C11DB7".parse().unwrap(); // CRC-32
//! assert!(gf2::is_primitive(&g));
//! assert_eq!(gf2::period(&g), (1u128 << 32) - 1);
//! assert_eq!(gf2::x_pow_mod(32, &g), 0x04C11DB7);
//! ```

use crate::poly::Generator;

/// Degree of `a` (`-1` for the zero polynomial).
pub(crate) fn deg(a: u128) -> i32 {
    127 - a.leading_zeros() as i32
}

/// Carry-less product. The caller keeps `deg a + deg b < 128`.
pub(crate) fn clmul(a: u128, b: u128) -> u128 {
    let (mut a, mut b) = if a.count_ones() < b.count_ones() {
        (b, a)
    } else {
        (a, b)
    };
    let mut r = 0u128;
    while b != 0 {
        let t = b.trailing_zeros();
        r ^= a << t;
        a <<= t;
        a <<= 1;
        b >>= t;
        b >>= 1;
    }
    r
}

/// Quotient and remainder of `a / m` (`m != 0`).
pub(crate) fn divmod(mut a: u128, m: u128) -> (u128, u128) {
    assert!(m != 0, "division by the zero polynomial");
    let dm = deg(m);
    let mut q = 0u128;
    while deg(a) >= dm {
        let s = deg(a) - dm;
        q |= 1u128 << s;
        a ^= m << s;
    }
    (q, a)
}

/// `a mod m`.
pub(crate) fn rem(a: u128, m: u128) -> u128 {
    divmod(a, m).1
}

/// `a * b mod m` for `deg m <= 64` and `a, b` already reduced.
pub(crate) fn mulmod(a: u128, b: u128, m: u128) -> u128 {
    rem(clmul(a, b), m)
}

/// Greatest common divisor.
pub(crate) fn gcd(mut a: u128, mut b: u128) -> u128 {
    while b != 0 {
        let r = rem(a, b);
        a = b;
        b = r;
    }
    a
}

/// `base^e mod m`.
pub(crate) fn powmod(base: u128, mut e: u128, m: u128) -> u128 {
    let mut result = rem(1, m);
    let mut b = rem(base, m);
    while e > 0 {
        if e & 1 == 1 {
            result = mulmod(result, b, m);
        }
        b = mulmod(b, b, m);
        e >>= 1;
    }
    result
}

/// `x^k mod g` as an `r`-bit residue: the syndrome of a single error `k`
/// places from the end of the codeword.
pub fn x_pow_mod(k: u128, g: &Generator) -> u64 {
    powmod(2, k, g.full()) as u64
}

/// `a * b mod g` for residues `a, b < 2^r`.
pub(crate) fn mul_residues(a: u64, b: u64, g: &Generator) -> u64 {
    mulmod(a as u128, b as u128, g.full()) as u64
}

fn derivative(a: u128) -> u128 {
    // d/dx x^i = i x^(i-1): only odd i survive.
    (a >> 1) & 0x5555_5555_5555_5555_5555_5555_5555_5555
}

fn sqrt_of_square(a: u128) -> u128 {
    // a has only even powers; x^(2i) -> x^i
    let mut r = 0u128;
    let mut i = 0;
    let mut v = a;
    while v != 0 {
        if v & 1 == 1 {
            r |= 1u128 << i;
        }
        v >>= 2;
        i += 1;
    }
    r
}

/// Square-free decomposition: `f = prod s_j^{m_j}` with each `s_j` square-free.
pub(crate) fn square_free(f: u128) -> Vec<(u128, u32)> {
    let mut out = Vec::new();
    if deg(f) <= 0 {
        return out;
    }
    let mut c = gcd(f, derivative(f));
    let mut w = divmod(f, c).0;
    let mut i = 1;
    while w != 1 {
        let y = gcd(w, c);
        let z = divmod(w, y).0;
        if z != 1 {
            out.push((z, i));
        }
        i += 1;
        w = y;
        c = divmod(c, y).0;
    }
    if c != 1 {
        for (s, m) in square_free(sqrt_of_square(c)) {
            out.push((s, 2 * m));
        }
    }
    out
}

/// Distinct-degree factorization of a square-free `f`: products of all
/// irreducible factors of each degree `d`.
pub(crate) fn distinct_degree(mut f: u128) -> Vec<(u128, u32)> {
    let mut out = Vec::new();
    let mut h = rem(2, f);
    let mut d = 1;
    while deg(f) >= 2 * d {
        h = mulmod(h, h, f);
        let g = gcd(h ^ 2, f);
        if g != 1 {
            out.push((g, d as u32));
            f = divmod(f, g).0;
            h = rem(h, f);
        }
        d += 1;
    }
    if deg(f) > 0 {
        out.push((f, deg(f) as u32));
    }
    out
}

#[cfg(feature = "unit-tests")]
/// `true` if `g` is irreducible over GF(2).
pub(crate) fn is_irreducible(g: &Generator) -> bool {
    let f = g.full();
    let sf = square_free(f);
    sf.len() == 1 && sf[0].1 == 1 && {
        let dd = distinct_degree(f);
        dd.len() == 1 && dd[0].1 == g.width()
    }
}

/// `true` if `g` is primitive: irreducible with period `2^r - 1`, so its
/// LFSR is maximal-length.
pub fn is_primitive(g: &Generator) -> bool {
    let n = (1u128 << g.width()) - 1;
    let f = g.full();
    if powmod(2, n, f) != 1 {
        return false;
    }
    prime_factors(n as u64)
        .into_iter()
        .all(|q| powmod(2, n / q as u128, f) != 1)
}

/// Order of `x` modulo a product of distinct irreducibles all of degree `d`
/// (in particular modulo one irreducible of degree `d`, `x` not a factor).
pub(crate) fn order_same_degree(f: u128, d: u32) -> u128 {
    let mut n = (1u128 << d) - 1;
    for q in prime_factors(n as u64) {
        let q = q as u128;
        while n.is_multiple_of(q) && powmod(2, n / q, f) == 1 {
            n /= q;
        }
    }
    n
}

fn lcm(a: u128, b: u128) -> u128 {
    fn g(mut a: u128, mut b: u128) -> u128 {
        while b != 0 {
            (a, b) = (b, a % b);
        }
        a
    }
    a / g(a, b) * b
}

/// The period of `g`: the least `e > 0` with `x^e = 1 mod g`. This is the
/// length of the longest cycle of the CRC register, and the smallest
/// codeword length with a weight-2 codeword is `e + 1`.
pub fn period(g: &Generator) -> u128 {
    let mut ord = 1u128;
    let mut max_mult = 1u32;
    for (s, m) in square_free(g.full()) {
        max_mult = max_mult.max(m);
        for (p, d) in distinct_degree(s) {
            ord = lcm(ord, order_same_degree(p, d));
        }
    }
    // ord(x mod h^e) = ord(x mod h) * 2^ceil(log2 e)
    let t = 32 - (max_mult - 1).leading_zeros();
    ord << t
}

/// Distinct prime factors of `n`, ascending.
pub(crate) fn prime_factors(n: u64) -> Vec<u64> {
    let mut out = Vec::new();
    factor_into(n, &mut out);
    out.sort_unstable();
    out.dedup();
    out
}

fn factor_into(mut n: u64, out: &mut Vec<u64>) {
    if n <= 1 {
        return;
    }
    for p in [2u64, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37] {
        while n.is_multiple_of(p) {
            out.push(p);
            n /= p;
        }
    }
    if n == 1 {
        return;
    }
    if is_prime(n) {
        out.push(n);
        return;
    }
    let d = pollard_rho(n);
    factor_into(d, out);
    factor_into(n / d, out);
}

fn mul_mod_u64(a: u64, b: u64, m: u64) -> u64 {
    ((a as u128 * b as u128) % m as u128) as u64
}

fn pow_mod_u64(mut b: u64, mut e: u64, m: u64) -> u64 {
    let mut r = 1 % m;
    b %= m;
    while e > 0 {
        if e & 1 == 1 {
            r = mul_mod_u64(r, b, m);
        }
        b = mul_mod_u64(b, b, m);
        e >>= 1;
    }
    r
}

/// Deterministic Miller-Rabin for all `u64`.
pub(crate) fn is_prime(n: u64) -> bool {
    if n < 2 {
        return false;
    }
    for p in [2u64, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37] {
        if n.is_multiple_of(p) {
            return n == p;
        }
    }
    let s = (n - 1).trailing_zeros();
    let d = (n - 1) >> s;
    'witness: for a in [2u64, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37] {
        let mut x = pow_mod_u64(a, d, n);
        if x == 1 || x == n - 1 {
            continue;
        }
        for _ in 1..s {
            x = mul_mod_u64(x, x, n);
            if x == n - 1 {
                continue 'witness;
            }
        }
        return false;
    }
    true
}

fn pollard_rho(n: u64) -> u64 {
    fn gcd_u64(mut a: u64, mut b: u64) -> u64 {
        while b != 0 {
            (a, b) = (b, a % b);
        }
        a
    }
    let mut c = 1u64;
    loop {
        let f = |x: u64| (mul_mod_u64(x, x, n) + c) % n;
        let (mut x, mut y, mut d) = (2u64, 2u64, 1u64);
        while d == 1 {
            x = f(x);
            y = f(f(y));
            d = gcd_u64(x.abs_diff(y), n);
        }
        if d != n {
            return d;
        }
        c += 1;
    }
}

#[cfg(feature = "unit-tests")]
#[doc(hidden)]
pub mod tests {
    use super::*;

    fn brute_period(g: &Generator) -> u128 {
        let mut s = 1u128;
        for e in 1..=(1u128 << g.width()) {
            s = mulmod(s, 2, g.full());
            if s == 1 {
                return e;
            }
        }
        unreachable!()
    }

    pub fn period_matches_brute_force_for_small_widths() {
        for width in 1..=12u32 {
            for normal in (1..(1u64 << width)).step_by(2) {
                let g = Generator::new(width, normal).unwrap();
                let p = brute_period(&g);
                assert_eq!(period(&g), p, "{}", g.full_string());
                assert_eq!(is_primitive(&g), p == (1u128 << width) - 1);
            }
        }
    }

    pub fn irreducible_matches_trial_division() {
        for width in 1..=10u32 {
            for normal in (1..(1u64 << width)).step_by(2) {
                let g = Generator::new(width, normal).unwrap();
                let f = g.full();
                let reducible = (2u128..(1u128 << (width / 2 + 1)))
                    .any(|d| deg(d) >= 1 && deg(d) < width as i32 && rem(f, d) == 0);
                assert_eq!(is_irreducible(&g), !reducible, "{}", g.full_string());
            }
        }
    }

    pub fn known_polynomials() {
        let crc32: Generator = "0x104C11DB7".parse().unwrap();
        assert!(is_primitive(&crc32));
        // CRC-32C (Castagnoli) = (x+1) * an irreducible of degree 31, and as
        // 2^31 - 1 is prime that factor is primitive: period 2^31 - 1.
        let c: Generator = "0x11EDC6F41".parse().unwrap();
        assert!(!is_irreducible(&c));
        assert!(c.divisible_by_x_plus_1());
        assert_eq!(period(&c), (1u128 << 31) - 1);
        // CRC-16/CCITT = (x+1) * primitive degree 15: period 2^15 - 1
        let ccitt: Generator = "0x11021".parse().unwrap();
        assert!(!is_irreducible(&ccitt));
        assert_eq!(period(&ccitt), (1 << 15) - 1);
        // square factor: (x^2+x+1)^2 = x^4+x^2+1, period 3*2 = 6
        let sq = Generator::new(4, 0b0101).unwrap();
        assert_eq!(period(&sq), 6);
    }

    pub fn factoring_mersenne_numbers() {
        assert_eq!(
            prime_factors(u64::MAX),
            vec![3, 5, 17, 257, 641, 65537, 6700417]
        );
        for r in 2..=64u32 {
            let n = if r == 64 { u64::MAX } else { (1u64 << r) - 1 };
            let fs = prime_factors(n);
            let mut m = n;
            for f in &fs {
                assert!(is_prime(*f));
                while m % f == 0 {
                    m /= f;
                }
            }
            assert_eq!(m, 1, "r = {r}");
        }
    }
}
