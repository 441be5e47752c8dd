//! Parsing of the values a request is written with, the one syntax of
//! every command: whole-number counts ([`whole_number`], exact, digits or
//! exponent form), length lists ([`lengths`]), BER lists ([`bers`]) and
//! transfer sizes ([`size`]).
//!
//! A length list is a comma list of:
//! - `1500` a single value
//! - `START:STOP:STEP` every STEP from START up to and including STOP
//! - `log:START:STOP:N` N points spaced evenly in log scale, rounded, deduplicated
//!
//! ```
//! use aliasing_core::parse;
//! assert_eq!(parse::lengths("64,10:30:10").unwrap(), [10, 20, 30, 64]);
//! assert_eq!(parse::bers("1e-5, 1e-7").unwrap(), [1e-5, 1e-7]);
//! assert_eq!(parse::whole_number("1.5e3"), Ok(1500));
//! assert_eq!(parse::size("10TB").unwrap(), 10_000_000_000_000);
//! assert!(parse::lengths("0").is_err());
//! ```

use crate::error::{Error, Result};
use crate::units::Ber;

pub(crate) mod items;
pub use items::{hex, hops};

/// Parses a comma-separated list of bit error rates, each in [0, 1].
pub fn bers(spec: &str) -> Result<Vec<f64>> {
    let mut out = Vec::new();
    for item in spec.split(',').map(str::trim) {
        if item.is_empty() {
            return Err(Error::Invalid(format!(
                "invalid bit error rate list `{spec}`: empty item"
            )));
        }
        let p: f64 = item
            .parse()
            .map_err(|e| Error::Invalid(format!("bit error rate `{item}` is not a number: {e}")))?;
        let mantissa = item.split(['e', 'E']).next().unwrap_or("");
        if p == 0.0 && mantissa.bytes().any(|b| (b'1'..=b'9').contains(&b)) {
            return Err(Error::Invalid(format!(
                "bit error rate `{item}` underflows to 0 (the smallest is about 2.2e-308)"
            )));
        }
        if p > 0.0 && p < f64::MIN_POSITIVE {
            return Err(Error::Invalid(format!(
                "bit error rate `{item}` is below the smallest normal number, 2.2e-308"
            )));
        }
        out.push(Ber::new(p)?.get());
    }
    Ok(out)
}

/// Parses a length list; every value must be a positive integer.
pub fn lengths(spec: &str) -> Result<Vec<u64>> {
    let mut out = Vec::new();
    for item in spec.split(',').map(str::trim) {
        if item.is_empty() {
            return Err(Error::BadLength(format!("empty item in `{spec}`")));
        }
        if let Some(rest) = item.strip_prefix("log:") {
            let p: Vec<&str> = rest.split(':').collect();
            if p.len() != 3 {
                return Err(Error::BadLength(format!(
                    "`{item}` (log form is log:START:STOP:N)"
                )));
            }
            let (a, b, n) = (num(p[0], item)?, num(p[1], item)?, num(p[2], item)?);
            if a > b || n < 2 {
                return Err(Error::BadLength(format!(
                    "`{item}` needs START <= STOP and N >= 2"
                )));
            }
            if n > 10_000_000 {
                return Err(Error::BadLength(format!(
                    "`{item}` has over 10 million points"
                )));
            }
            let (la, lb) = ((a as f64).ln(), (b as f64).ln());
            for i in 0..n {
                let v = (la + (lb - la) * i as f64 / (n - 1) as f64).exp().round() as u64;
                out.push(v.clamp(a, b));
            }
        } else if item.contains(':') {
            let p: Vec<&str> = item.split(':').collect();
            if p.len() != 3 {
                return Err(Error::BadLength(format!(
                    "`{item}` (range form is START:STOP:STEP)"
                )));
            }
            let (a, b, s) = (num(p[0], item)?, num(p[1], item)?, num(p[2], item)?);
            if a > b {
                return Err(Error::BadLength(format!("`{item}` has START > STOP")));
            }
            if (b - a) / s > 10_000_000 {
                return Err(Error::BadLength(format!(
                    "`{item}` has over 10 million points"
                )));
            }
            let mut v = a;
            while v <= b {
                out.push(v);
                v += s;
            }
        } else {
            out.push(num(item, item)?);
        }
    }
    out.sort_unstable();
    out.dedup();
    if out.is_empty() {
        return Err(Error::BadLength("empty length list".into()));
    }
    Ok(out)
}

/// Parses a length list in bytes ([`lengths`]) into bits.
pub fn byte_lengths(spec: &str) -> Result<Vec<u64>> {
    lengths(spec)?
        .into_iter()
        .map(|v| {
            v.checked_mul(8)
                .ok_or_else(|| Error::BadLength(format!("{v} bytes is too large")))
        })
        .collect()
}

/// The largest length accepted, in the list's unit (bits or bytes): no exact
/// method finishes beyond it (the chain is `O(n 2^r)`, the dual code and
/// the checksum methods `O(n)` per point at best).
#[doc(hidden)] // internal: reached through `crate::__private`
pub const MAX_LENGTH: u64 = 1_000_000_000;

fn num(s: &str, item: &str) -> Result<u64> {
    let v = whole_number(s).map_err(|e| Error::BadLength(format!("`{item}` {e}")))?;
    if v == 0 {
        return Err(Error::BadLength(format!("`{item}` is zero")));
    }
    if v > MAX_LENGTH {
        return Err(Error::BadLength(format!(
            "`{item}` is over the limit of {MAX_LENGTH} (1e9)"
        )));
    }
    Ok(v)
}

/// The clap value parser of every integer count option (`--frames`,
/// `--samples`, `--max-weight`, `--seed`, ...): a whole number in
/// [`whole_number`]'s syntax that fits `T`, else one line naming the value
/// and the range.
pub fn count<T>(s: &str) -> std::result::Result<T, String>
where
    T: TryFrom<u64> + num_bound::Bounded,
{
    let v = whole_number(s).map_err(|e| format!("`{s}` {e}"))?;
    T::try_from(v).map_err(|_| format!("`{s}` is out of range (at most {})", T::MAX_U64))
}

/// The largest value of each count type, for the out-of-range message.
#[doc(hidden)] // internal: reached through `crate::__private`
pub mod num_bound {
    /// An unsigned integer type with its largest value as a `u64`.
    pub trait Bounded {
        /// `Self::MAX` as a `u64`.
        const MAX_U64: u64;
    }
    macro_rules! bounded {
        ($($t:ty),*) => {$(impl Bounded for $t { const MAX_U64: u64 = <$t>::MAX as u64; })*};
    }
    bounded!(u8, u16, u32, u64, usize);
}

/// The one number syntax for counts and lengths: a whole number written as
/// digits (`1500`, `1_000`) or in exponent form (`1e3`, `1.5e3`, `2.5E6`),
/// read exactly in decimal (never through a float: `10000000000000001`
/// and `1.0000000000000001e16` are that number), as long as its value is
/// whole and at most the largest 64-bit count. The error says what is
/// wrong, without the input (callers name it).
pub fn whole_number(s: &str) -> std::result::Result<u64, String> {
    let t = s.trim().replace('_', "");
    let t = t.strip_prefix('+').unwrap_or(&t);
    if t.starts_with('-') {
        return Err("is negative".into());
    }
    let (mantissa, exp) = match t.split_once(['e', 'E']) {
        Some((m, e)) => {
            let digits = e.strip_prefix(['+', '-']).unwrap_or(e);
            if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
                return Err("is not a whole number".into());
            }
            // a huge exponent only says "out of range" (or "not whole")
            let mag = digits.parse::<i64>().unwrap_or(i64::MAX).min(1000);
            (m, if e.starts_with('-') { -mag } else { mag })
        }
        None => (t, 0),
    };
    let (int, frac) = mantissa.split_once('.').unwrap_or((mantissa, ""));
    if int.is_empty() && frac.is_empty()
        || !int.bytes().chain(frac.bytes()).all(|b| b.is_ascii_digit())
    {
        return Err("is not a whole number".into());
    }
    // value = digits * 10^shift, digits without leading zeros
    let digits = format!("{int}{frac}");
    let digits = digits.trim_start_matches('0');
    let shift = exp - frac.len() as i64;
    if digits.is_empty() {
        return Ok(0);
    }
    let (kept, dropped) = if shift < 0 {
        let cut = digits.len().saturating_sub(shift.unsigned_abs() as usize);
        digits.split_at(cut)
    } else {
        (digits, "")
    };
    if dropped.bytes().any(|b| b != b'0') {
        return Err("is not a whole number".into());
    }
    let too_big = || {
        format!(
            "is out of range (at most {}, the largest 64-bit count)",
            u64::MAX
        )
    };
    let up = shift.max(0);
    if kept.len() as i64 + up > 20 {
        return Err(too_big());
    }
    let mut v: u128 = if kept.is_empty() {
        0
    } else {
        kept.parse::<u128>().map_err(|_| too_big())?
    };
    for _ in 0..up {
        v *= 10;
    }
    u64::try_from(v).map_err(|_| too_big())
}

/// Parses a transfer size exactly, in bytes: a number in
/// [`whole_number`]'s syntax (`1500`, `1e13`, `1.5e12`), or a decimal number
/// followed by a unit: `B`, decimal `kB`/`KB`, `MB`, `GB`, `TB`, `PB`, `EB`
/// (powers of 1000) or binary `KiB`, `MiB`, `GiB`, `TiB`, `PiB`, `EiB`
/// (powers of 1024), case ignored. The value must be a whole number of
/// bytes from 1 to 2^64 (`18446744073709551616` or `16EiB`).
pub fn size(s: &str) -> Result<u128> {
    let t = s.trim();
    let bad = |why: &str| Error::Invalid(format!("size `{s}` {why}"));
    // the unit starts at the first letter that is not an exponent's `e`
    // (one followed by a digit or a sign)
    let b = t.as_bytes();
    let split = (0..b.len())
        .find(|&i| {
            b[i].is_ascii_alphabetic()
                && !(matches!(b[i], b'e' | b'E')
                    && b.get(i + 1)
                        .is_some_and(|c| c.is_ascii_digit() || *c == b'+' || *c == b'-'))
        })
        .unwrap_or(t.len());
    let (num, unit) = (t[..split].trim(), t[split..].trim());
    const UNITS: [(&str, u32, u32); 13] = [
        ("b", 10, 0),
        ("kb", 10, 3),
        ("mb", 10, 6),
        ("gb", 10, 9),
        ("tb", 10, 12),
        ("pb", 10, 15),
        ("eb", 10, 18),
        ("kib", 2, 10),
        ("mib", 2, 20),
        ("gib", 2, 30),
        ("tib", 2, 40),
        ("pib", 2, 50),
        ("eib", 2, 60),
    ];
    let (base, power) = if unit.is_empty() {
        (10, 0)
    } else {
        let u = unit.to_ascii_lowercase();
        let Some(&(_, b, p)) = UNITS.iter().find(|(n, _, _)| *n == u) else {
            return Err(bad(
                "has an unknown unit (B, kB, MB, GB, TB, PB, EB, KiB, MiB, GiB, TiB, PiB, EiB)",
            ));
        };
        (b, p)
    };
    if num.is_empty() {
        return Err(bad("has no number"));
    }
    if num.bytes().all(|b| b.is_ascii_digit()) && unit.is_empty() {
        // plain digits: exactly, up to 2^64 itself
        let v: u128 = num
            .parse()
            .map_err(|_| bad("is over the limit of 2^64 bytes"))?;
        return checked_size(v).map_err(|e| bad(&e));
    }
    // x = v / 10^k with v whole (k decimal places), then times the unit
    let over = || bad("is over the limit of 2^64 bytes");
    let (mantissa, exp) = match num.split_once(['e', 'E']) {
        Some((m, e)) => (m, e.parse::<i64>().map_err(|_| bad("is not a number"))?),
        None => (num, 0),
    };
    let (v, k) = (0..=20u32)
        .find_map(|k| {
            whole_number(&format!("{mantissa}e{}", exp + i64::from(k)))
                .ok()
                .map(|v| (v, k))
        })
        .ok_or_else(|| match whole_number(num) {
            Err(e) if e.contains("out of range") => over(),
            Err(e) if e.contains("negative") => bad("is negative"),
            _ => bad("is not a number"),
        })?;
    let unit_v = u128::from(base).checked_pow(power).ok_or_else(over)?;
    let scaled = u128::from(v).checked_mul(unit_v).ok_or_else(over)?;
    let div = 10u128.pow(k);
    if scaled % div != 0 {
        return Err(bad("is not a whole number of bytes"));
    }
    checked_size(scaled / div).map_err(|e| bad(&e))
}

fn checked_size(v: u128) -> std::result::Result<u128, String> {
    if v == 0 {
        Err("is zero: a transfer of 0 bytes".into())
    } else if v > 1u128 << 64 {
        Err("is over the limit of 2^64 bytes".into())
    } else {
        Ok(v)
    }
}

#[cfg(feature = "unit-tests")]
#[doc(hidden)]
pub mod tests {
    use super::*;

    pub fn sizes_exactly() {
        for (s, v) in [
            ("10TB", 10_000_000_000_000u128),
            ("1TiB", 1 << 40),
            ("500GB", 500_000_000_000),
            ("500 gb", 500_000_000_000),
            ("1500", 1500),
            ("1e13", 10_000_000_000_000),
            ("1e9", 1_000_000_000),
            ("2.5e3kB", 2_500_000),
            ("1e1EiB", 10 << 60),
            ("1.5TiB", 3 << 39),
            ("2.5kB", 2500),
            ("18446744073709551616", 1 << 64),
            ("16EiB", 1 << 64),
            ("1B", 1),
        ] {
            assert_eq!(size(s).unwrap(), v, "{s}");
        }
        for (s, why) in [
            ("0", "zero"),
            ("0TB", "zero"),
            ("18446744073709551617", "2^64"),
            ("17EiB", "2^64"),
            ("1e30", "2^64"),
            ("-5GB", "negative"),
            ("1.5B", "whole"),
            ("10XB", "unknown unit"),
            ("TB", "no number"),
            ("abc", "unknown unit"),
        ] {
            let e = size(s).unwrap_err().to_string();
            assert!(e.contains(why) && !e.contains('\n'), "{s}: {e}");
        }
    }

    pub fn one_number_syntax_and_limits() {
        assert_eq!(lengths("1e3,2.5e3").unwrap(), vec![1000, 2500]);
        assert_eq!(lengths("1e3:3e3:1e3").unwrap(), vec![1000, 2000, 3000]);
        for bad in [
            "1.5",
            "1e-3",
            "18446744073709551615",
            "1000000000000",
            "1e12",
            "99999999999999999999",
        ] {
            let e = lengths(bad).unwrap_err().to_string();
            assert!(e.starts_with("invalid length"), "{bad}: {e}");
        }
        assert!(
            lengths("1e12")
                .unwrap_err()
                .to_string()
                .contains("limit of 1000000000")
        );
    }

    pub fn counts_are_exact() {
        // digits beyond a float's precision stay that number
        assert_eq!(
            whole_number("10000000000000001"),
            Ok(10_000_000_000_000_001)
        );
        assert_eq!(
            whole_number("1.0000000000000001e16"),
            Ok(10_000_000_000_000_001)
        );
        assert_eq!(whole_number("18446744073709551615"), Ok(u64::MAX));
        assert_eq!(whole_number("1.8446744073709551615e19"), Ok(u64::MAX));
        for (s, v) in [
            ("1e9", 1_000_000_000),
            ("1.5e3", 1500),
            ("1.50E1", 15),
            ("+7", 7),
            ("0", 0),
            ("0e99999", 0),
            ("0.5e1", 5),
            ("250e-1", 25),
        ] {
            assert_eq!(whole_number(s), Ok(v), "{s}");
        }
        for s in [
            "1.5", "25e-1e", "1e-3", "1.25e1", "abc", "", ".", "e5", "1e", "1e+", "0x10", "1 2",
        ] {
            let e = whole_number(s).unwrap_err();
            assert_eq!(e, "is not a whole number", "{s}");
        }
        for s in [
            "1e30",
            "18446744073709551616",
            "1.8446744073709551616e19",
            "1e999999999999",
        ] {
            let e = whole_number(s).unwrap_err();
            assert!(e.contains("out of range"), "{s}: {e}");
        }
        assert_eq!(whole_number("-1"), Err("is negative".into()));
        assert_eq!(count::<u32>("4294967295"), Ok(u32::MAX));
        let e = count::<u32>("4.294967296e9").unwrap_err();
        assert_eq!(e, "`4.294967296e9` is out of range (at most 4294967295)");
        assert_eq!(count::<u8>("2.55e2"), Ok(255u8));
    }

    pub fn forms() {
        assert_eq!(lengths("64,128").unwrap(), vec![64, 128]);
        assert_eq!(lengths("10:30:10").unwrap(), vec![10, 20, 30]);
        let l = lengths("log:10:1000:3").unwrap();
        assert_eq!(l, vec![10, 100, 1000]);
        for bad in ["", "a", "-5", "0", "5:1:1", "1:5:0", "log:1:2", "1,,2"] {
            assert!(lengths(bad).is_err(), "{bad}");
        }
    }

    pub fn log_form_is_limited_like_ranges() {
        let e = lengths("log:1:1000000000:1000000000").unwrap_err();
        assert!(e.to_string().contains("10 million"), "{e}");
    }
}
