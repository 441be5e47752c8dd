//! Exact sums of non-negative `f64` values (and of their squares), so that a
//! sampler's sums do not depend on the order the values come in.
//!
//! Every finite `f64` is `m 2^e` with an integer `m < 2^53` and
//! `e >= -1074`, so it is an integer number of units `2^-2148`, and so is
//! its square (`m^2 2^(2e)`). [`ExactSum`] keeps such a sum as a binary
//! integer in those units (little-endian 64-bit words, grown as needed):
//! adding is integer addition, exact, and any order and any split of the
//! values give the same sum, bit for bit. That is what lets the burst
//! rare-event sampler ([`crate::burst_rare`]) be cut into shards, ranks and
//! checkpoints and still give the single run's digits.
//!
//! [`variance`] forms the sample variance `(n S2 - S1^2) / (n (n - 1))`
//! from exact sums in exact integer arithmetic, so the usual cancellation of
//! `E[Z^2] - E[Z]^2` cannot happen; only the final conversion rounds.
//!
//! ```
//! use aliasing_sim::exact_sum::ExactSum;
//! let xs = [1e-30, 1.0, 3e-300, 0.1];
//! let (mut a, mut b) = (ExactSum::default(), ExactSum::default());
//! xs.iter().for_each(|&x| a.add(x));
//! xs.iter().rev().for_each(|&x| b.add(x));
//! assert_eq!(a, b); // order does not matter
//! assert_eq!(a.to_f64(), 1.1); // one rounding, at the end
//! ```

use dashu_int::UBig;
use dashu_int::ops::BitTest;
use serde::{Deserialize, Serialize};

/// Fraction bits of the fixed point: every `f64` and every square of one is
/// a whole number of `2^-UNIT` units.
const UNIT: i64 = 2148;

/// An exact sum of non-negative finite `f64` values or of their squares, in
/// units of `2^-2148` (serialized as a hexadecimal integer).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ExactSum {
    /// Little-endian words; no zero words at the top.
    #[doc(hidden)]
    pub words: Vec<u64>,
}

/// `(m, e)` with `x = m 2^e`, `m < 2^53`, `e >= -1074`, for finite `x >= 0`.
#[doc(hidden)]
pub fn split(x: f64) -> (u64, i64) {
    let bits = x.to_bits();
    let exp = ((bits >> 52) & 0x7ff) as i64;
    let frac = bits & ((1u64 << 52) - 1);
    if exp == 0 {
        (frac, -1074)
    } else {
        (frac | 1 << 52, exp - 1075)
    }
}

impl ExactSum {
    /// Adds the integer `v 2^k` units.
    #[doc(hidden)]
    pub fn add_at(&mut self, v: u128, k: i64) {
        if v == 0 {
            return;
        }
        let (w, b) = ((k / 64) as usize, (k % 64) as u32);
        // v << b spans at most three words
        let lo = (v << b) as u64;
        let mid = ((v << b) >> 64) as u64;
        let hi = if b == 0 { 0 } else { (v >> (128 - b)) as u64 };
        if self.words.len() < w + 4 {
            self.words.resize(w + 4, 0);
        }
        let mut carry = false;
        for (i, part) in [lo, mid, hi].into_iter().enumerate() {
            let (s, c1) = self.words[w + i].overflowing_add(part);
            let (s, c2) = s.overflowing_add(carry as u64);
            self.words[w + i] = s;
            carry = c1 || c2;
        }
        let mut i = w + 3;
        while carry {
            if i == self.words.len() {
                self.words.push(0);
            }
            let (s, c) = self.words[i].overflowing_add(1);
            self.words[i] = s;
            carry = c;
            i += 1;
        }
        self.trim();
    }

    fn trim(&mut self) {
        while self.words.last() == Some(&0) {
            self.words.pop();
        }
    }

    /// Adds `x` (finite, `x >= 0`; anything else is a caller's bug and panics).
    pub fn add(&mut self, x: f64) {
        assert!(x.is_finite() && x >= 0.0, "ExactSum::add({x})");
        let (m, e) = split(x);
        self.add_at(m as u128, e + UNIT);
    }

    /// Adds `x^2`, exactly (not the rounded `f64` square).
    pub fn add_square(&mut self, x: f64) {
        assert!(x.is_finite() && x >= 0.0, "ExactSum::add_square({x})");
        let (m, e) = split(x);
        let m = m as u128;
        // 2e + UNIT >= 0: e >= -1074
        self.add_at(m * m, 2 * e + UNIT);
    }

    /// Adds another sum.
    pub fn merge(&mut self, o: &ExactSum) {
        for (i, &w) in o.words.iter().enumerate() {
            self.add_at(w as u128, 64 * i as i64);
        }
    }

    /// The sum as a big integer of units.
    fn big(&self) -> UBig {
        UBig::from_words(&self.words)
    }

    /// The sum, rounded to an `f64` (infinite beyond its range).
    pub fn to_f64(&self) -> f64 {
        big_to_f64(&self.big(), -UNIT)
    }
}

/// `x 2^e` as an `f64`: the top 128 bits of `x` (the rest truncated, at most
/// 2^-127 relative), rounded once to 53 bits; a subnormal result is rounded
/// again by the final scaling (below 2^-1022, far under any probability shown).
fn big_to_f64(x: &UBig, e: i64) -> f64 {
    let len = x.bit_len() as i64;
    if len == 0 {
        return 0.0;
    }
    let drop = (len - 128).max(0);
    let top: UBig = x >> drop as usize;
    let words = top.as_words();
    let mut t: u128 = 0;
    for (i, &w) in words.iter().enumerate().take(2) {
        t |= (w as u128) << (64 * i);
    }
    // t 2^(drop + e), t in [2^127, 2^128) unless x is short
    let tl = 128 - t.leading_zeros() as i64;
    let mant = t as f64 / 2f64.powi(tl as i32 - 1); // in [1, 2)
    let mut exp = drop + e + tl - 1;
    let mut v = mant;
    while exp > 1000 {
        v *= 2f64.powi(1000);
        exp -= 1000;
        if v.is_infinite() {
            return v;
        }
    }
    while exp < -1000 {
        v *= 2f64.powi(-1000);
        exp += 1000;
    }
    v * 2f64.powi(exp as i32)
}

/// The sample variance `(n S2 - S1^2) / (n (n - 1))` of `n` values with sum
/// `s1` and sum of squares `s2` (both exact), formed exactly and rounded
/// once; 0 for fewer than two values.
pub fn variance(n: u64, s1: &ExactSum, s2: &ExactSum) -> f64 {
    if n < 2 {
        return 0.0;
    }
    // s1^2 is in units 2^-2 UNIT; n s2 is in 2^-UNIT, shifted to match
    let a = (s2.big() * UBig::from(n)) << UNIT as usize;
    let b = s1.big() * s1.big();
    // a >= b by Cauchy-Schwarz (exact sums: no rounding can break it)
    let d = if a >= b { a - b } else { UBig::ZERO };
    big_to_f64(&d, -2 * UNIT) / n as f64 / (n - 1) as f64
}

impl Serialize for ExactSum {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&format!("{:x}", self.big()))
    }
}

impl<'de> Deserialize<'de> for ExactSum {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let s = String::deserialize(d)?;
        if s.is_empty()
            || !s
                .bytes()
                .all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b))
        {
            return Err(serde::de::Error::custom(format!(
                "`{s}` is not a lowercase hexadecimal integer"
            )));
        }
        if s.len() > 1 && s.starts_with('0') {
            return Err(serde::de::Error::custom("leading zeros"));
        }
        let v = UBig::from_str_radix(&s, 16).map_err(serde::de::Error::custom)?;
        let mut out = ExactSum {
            words: v.as_words().to_vec(),
        };
        out.trim();
        Ok(out)
    }
}
