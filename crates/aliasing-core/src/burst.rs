//! Burst-error detection of a CRC: which bursts it always catches and what
//! share of longer ones slips through, counted by enumeration.
//!
//! A *burst of length `b`* is an error pattern whose first and last flipped
//! bits are `b - 1` apart (`b = 1`: one flipped bit); the `b - 2` bits
//! between them are any pattern. At start position `s` its polynomial is
//! `x^s B(x)` with `B(0) = 1` and `deg B = b - 1`; it escapes iff `g`
//! divides it.
//!
//! The theorem (for `g` of degree `r` with `g(0) = 1`, which every
//! [`Generator`] has): `x` is invertible modulo `g`, so the start does not
//! matter and the burst escapes iff `g | B`.
//! - `b <= r`: `B` is nonzero of degree below `r`, so every burst is caught;
//! - `b = r + 1`: `B = g` is the only multiple of degree `r`, one pattern of
//!   `2^(r-1)`: an undetected share of `2^-(r-1)`;
//! - `b >= r + 2`: `B = g c` with `c` of degree `b - 1 - r` and both end
//!   terms 1: `2^(b-r-2)` of the `2^(b-2)` patterns, a share of `2^-r`.
//!
//! [`count_undetected`] counts the escaping bursts of one length at one
//! start by running through every middle pattern (a Gray code over the
//! syndromes of the single bits), independently of the theorem;
//! [`theorem_undetected`] states it. `alias hd` prints both where the
//! enumeration is affordable; the tests compare them on small generators.
//!
//! ```
//! use aliasing_core::{burst, poly::Generator};
//! let g: Generator = "0x11021".parse().unwrap(); // r = 16
//! assert_eq!(burst::count_undetected(&g, 16, 5).unwrap(), 0);
//! assert_eq!(burst::count_undetected(&g, 17, 5).unwrap(), 1);
//! assert_eq!(burst::count_undetected(&g, 19, 0).unwrap(), 1 << 1);
//! assert_eq!(burst::theorem_undetected(16, 19), 1 << 1);
//! ```

use crate::error::{Error, Result};
use crate::gf2;
use crate::poly::Generator;

/// The most middle patterns [`count_undetected`] runs through (`2^24`).
pub const MAX_ENUMERATED: u64 = 1 << 24;

/// The number of bursts of length `b`: `2^(b-2)` middle patterns (1 for
/// `b <= 2`), saturating at `u64::MAX` from `b = 66` on.
pub(crate) fn patterns(b: u32) -> u64 {
    1u64.checked_shl(b.saturating_sub(2)).unwrap_or(u64::MAX)
}

/// The number of undetected bursts of length `b` (at any start) by the
/// theorem of the module docs, for a generator of degree `r`.
pub fn theorem_undetected(r: u32, b: u32) -> u64 {
    if b <= r {
        0
    } else {
        1u64 << (b - r - 1).saturating_sub(1)
    }
}

/// The number of the `patterns``(b)` bursts of length `b` starting `start`
/// places from the end of the codeword (the burst's lowest power is
/// `x^start`) that `g` does not detect, counted one pattern at a time.
///
/// Refuses `b = 0` and lengths with more than [`MAX_ENUMERATED`] patterns.
pub fn count_undetected(g: &Generator, b: u32, start: u64) -> Result<u64> {
    if b == 0 {
        return Err(Error::Invalid("a burst has length 1 or more".into()));
    }
    if patterns(b) > MAX_ENUMERATED {
        return Err(Error::Limit(crate::error::Limit::BurstPatterns {
            length: b,
            patterns: patterns(b),
            max: MAX_ENUMERATED,
        }));
    }
    let syn = |i: u64| gf2::x_pow_mod((start + i) as u128, g);
    if b == 1 {
        return Ok((syn(0) == 0) as u64);
    }
    // The two end bits, then a Gray code over the b - 2 middle bits.
    let middle: Vec<u64> = (1..b as u64 - 1).map(syn).collect();
    let mut s = syn(0) ^ syn(b as u64 - 1);
    let mut count = (s == 0) as u64;
    for k in 1..patterns(b) {
        s ^= middle[k.trailing_zeros() as usize];
        count += (s == 0) as u64;
    }
    Ok(count)
}

/// One line of a CRC's burst profile.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
#[non_exhaustive]
pub struct BurstRow {
    /// The smallest burst length the row covers.
    pub min_length: u32,
    /// The largest (`None`: every longer length).
    pub max_length: Option<u32>,
    /// Bursts of each length in the row that escape / bursts of that length,
    /// at any one start: the undetected share.
    pub undetected_fraction: f64,
    /// `true` where every length of the row up to [`BurstRow::enumerated_to`]
    /// was counted by [`count_undetected`] (at start 0) and agreed with the
    /// theorem; the rest rests on the theorem.
    pub enumerated_to: Option<u32>,
}

/// The burst profile of `g`: lengths `1..=r` (all caught), `r + 1`, and
/// `r + 2` and longer, each checked by enumeration at start 0 for every
/// length with at most `max_patterns` patterns (capped at
/// [`MAX_ENUMERATED`]), up to length `r + 4` for the last row.
///
/// Fails (an [`Error::Invalid`], a bug) if an enumeration disagrees with the
/// theorem.
pub fn profile(g: &Generator, max_patterns: u64) -> Result<Vec<BurstRow>> {
    let r = g.width();
    let cap = max_patterns.min(MAX_ENUMERATED);
    let check = |lo: u32, hi: u32| -> Result<Option<u32>> {
        let mut done = None;
        for b in lo..=hi {
            if patterns(b) > cap {
                break;
            }
            let got = count_undetected(g, b, 0)?;
            if got != theorem_undetected(r, b) {
                return Err(Error::Invalid(format!(
                    "bursts of length {b}: {got} undetected by enumeration, {} by the theorem",
                    theorem_undetected(r, b)
                )));
            }
            done = Some(b);
        }
        Ok(done)
    };
    Ok(vec![
        BurstRow {
            min_length: 1,
            max_length: Some(r),
            undetected_fraction: 0.0,
            enumerated_to: check(1, r)?,
        },
        BurstRow {
            min_length: r + 1,
            max_length: Some(r + 1),
            undetected_fraction: 2f64.powi(-(r as i32 - 1)),
            enumerated_to: check(r + 1, r + 1)?,
        },
        BurstRow {
            min_length: r + 2,
            max_length: None,
            undetected_fraction: 2f64.powi(-(r as i32)),
            enumerated_to: check(r + 2, r + 4)?,
        },
    ])
}

#[cfg(feature = "unit-tests")]
#[doc(hidden)]
pub mod tests {
    use super::*;

    /// The brute-force definition: every pattern of `b` bits with both ends
    /// set, as a polynomial times `x^start`, divided by `g`.
    fn by_division(g: &Generator, b: u32, start: u32) -> u64 {
        (0..patterns(b))
            .filter(|&m| {
                let body = if b == 1 {
                    1u128
                } else {
                    1 | (1u128 << (b - 1)) | ((m as u128) << 1)
                };
                gf2::rem(body << start, g.full()) == 0
            })
            .count() as u64
    }

    pub fn patterns_saturate_for_64_bit_generators() {
        assert_eq!(patterns(1), 1);
        assert_eq!(patterns(65), 1 << 63);
        assert_eq!(patterns(66), u64::MAX);
        assert_eq!(patterns(u32::MAX), u64::MAX);
    }

    pub fn enumeration_matches_division_and_the_theorem() {
        // Widths 1 to 12, primitive or not, every length to r + 6 and
        // several starts.
        for spec in [
            "0x3", "0x7", "0xB", "0xF", "0x13", "0x19", "0x1F", "0x25", "0x107", "0x1F7", "0x11D",
            "0x1021", "0x180F",
        ] {
            let g: Generator = spec.parse().unwrap();
            let r = g.width();
            for b in 1..=r + 6 {
                let want = theorem_undetected(r, b);
                for start in [0u32, 1, 5, 37] {
                    assert_eq!(by_division(&g, b, start), want, "{spec} b={b} s={start}");
                    let got = count_undetected(&g, b, start as u64).unwrap();
                    assert_eq!(got, want, "{spec} b={b} s={start}");
                }
            }
        }
    }

    pub fn shares_and_profile() {
        let g: Generator = "0x11021".parse().unwrap();
        let rows = profile(&g, 1 << 20).unwrap();
        assert_eq!(rows[0].max_length, Some(16));
        assert_eq!(rows[0].enumerated_to, Some(16));
        assert_eq!(rows[1].undetected_fraction, 2f64.powi(-15));
        assert_eq!(rows[1].enumerated_to, Some(17));
        assert_eq!(rows[2].undetected_fraction, 2f64.powi(-16));
        assert_eq!(rows[2].enumerated_to, Some(20));
        // The shares: 1 of 2^15 at r + 1, 2^(b-r-2) of 2^(b-2) beyond.
        for b in 17..=22 {
            let share = theorem_undetected(16, b) as f64 / patterns(b) as f64;
            let want = if b == 17 {
                2f64.powi(-15)
            } else {
                2f64.powi(-16)
            };
            assert_eq!(share, want);
        }
        // A 32-bit CRC: only the short lengths are counted.
        let g: Generator = "0x104C11DB7".parse().unwrap();
        let rows = profile(&g, 1 << 16).unwrap();
        assert_eq!(rows[0].enumerated_to, Some(18));
        assert_eq!(rows[1].enumerated_to, None);
        assert!(count_undetected(&g, 40, 0).is_err());
        assert!(count_undetected(&g, 0, 0).is_err());
    }
}
