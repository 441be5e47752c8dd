//! Typed quantities of a request: a bit error rate validated once ([`Ber`]),
//! lengths in bits or bytes that cannot be mixed up ([`Bits`], [`Bytes`]),
//! and the one memory budget every exact method is held to
//! ([`MemoryBudget`]).
//!
//! ```
//! use aliasing_core::units::{Ber, Bits, Bytes};
//! let p = Ber::new(1e-9).unwrap();
//! assert_eq!(p.get(), 1e-9);
//! assert!(Ber::new(1.5).is_err());
//! assert_eq!(Bits::from(Bytes(1518)), Bits(12144));
//! ```

use crate::error::{Error, Result, human_bytes};
use std::fmt;

/// A bit error rate: a finite probability in `[0, 1]`, checked once by
/// [`Ber::new`].
///
/// In JSON a bare number; reading one checks it as [`Ber::new`] does, so a
/// bad BER in a file is an error, not a value.
///
/// ```
/// use aliasing_core::units::Ber;
/// let p: Ber = serde_json::from_str("1e-6").unwrap();
/// assert_eq!(serde_json::to_string(&p).unwrap(), "1e-6");
/// let e = serde_json::from_str::<Ber>("1.5").unwrap_err();
/// assert!(e.to_string().contains("outside [0, 1]"), "{e}");
/// ```
#[derive(Debug, Clone, Copy, PartialEq, PartialOrd)]
pub struct Ber(f64);

impl serde::Serialize for Ber {
    fn serialize<S: serde::Serializer>(&self, s: S) -> std::result::Result<S::Ok, S::Error> {
        s.serialize_f64(self.0)
    }
}

impl<'de> serde::Deserialize<'de> for Ber {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> std::result::Result<Self, D::Error> {
        let p = f64::deserialize(d)?;
        Ber::new(p).map_err(serde::de::Error::custom)
    }
}

impl Ber {
    /// `p` if it is a probability in `[0, 1]`, else [`Error::BadBer`].
    pub fn new(p: f64) -> Result<Ber> {
        if p.is_finite() && (0.0..=1.0).contains(&p) {
            Ok(Ber(p))
        } else {
            Err(Error::BadBer(format!("{p}")))
        }
    }

    /// Every BER of a list, or the first bad one's error; an empty list is
    /// an error too.
    pub fn list(ps: &[f64]) -> Result<Vec<Ber>> {
        if ps.is_empty() {
            return Err(Error::BadBer("list is empty".into()));
        }
        ps.iter().map(|&p| Ber::new(p)).collect()
    }

    /// The probability.
    pub const fn get(self) -> f64 {
        self.0
    }
}

impl TryFrom<f64> for Ber {
    type Error = Error;
    fn try_from(p: f64) -> Result<Ber> {
        Ber::new(p)
    }
}

impl fmt::Display for Ber {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.0)
    }
}

/// A length in bits (codeword lengths: check bits included).
///
/// In JSON a bare non-negative integer; reading anything else (a negative,
/// fractional or quoted number) is an error.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, serde::Serialize, serde::Deserialize,
)]
#[serde(transparent)]
pub struct Bits(pub u64);

/// A length in whole bytes (frame lengths: check field included).
///
/// In JSON a bare non-negative integer, read as [`Bits`] is.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, serde::Serialize, serde::Deserialize,
)]
#[serde(transparent)]
pub struct Bytes(pub u64);

impl From<Bytes> for Bits {
    /// `8 x` the bytes (saturating at `u64::MAX`; such a length is refused
    /// later as too long).
    fn from(b: Bytes) -> Bits {
        Bits(b.0.saturating_mul(8))
    }
}

impl Bits {
    /// The length in whole bytes, if it is one.
    pub fn whole_bytes(self) -> Option<Bytes> {
        self.0.is_multiple_of(8).then_some(Bytes(self.0 / 8))
    }
}

/// The memory an exact method may use, in bytes: one budget for every
/// method (Markov chain, dual code, syndrome tables).
///
/// [`MemoryBudget::from_env`] reads [`MEMORY_LIMIT_ENV`]
/// (`ALIAS_MEMORY_LIMIT`, e.g. `8G`), else takes 80% of the
/// available memory; the CLI's `--memory` sets it with [`MemoryBudget::parse`].
#[derive(Debug, Clone, Copy, PartialEq, PartialOrd)]
pub struct MemoryBudget(f64);

/// In JSON: the byte count (a number); reading one checks it as
/// [`MemoryBudget::bytes`] does.
impl serde::Serialize for MemoryBudget {
    fn serialize<S: serde::Serializer>(&self, s: S) -> std::result::Result<S::Ok, S::Error> {
        s.serialize_f64(self.0)
    }
}

impl<'de> serde::Deserialize<'de> for MemoryBudget {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> std::result::Result<Self, D::Error> {
        let b = f64::deserialize(d)?;
        MemoryBudget::bytes(b).map_err(serde::de::Error::custom)
    }
}

/// Environment variable setting the memory budget: a byte count with an
/// optional `K`, `M`, `G` or `T` suffix (powers of 1024).
pub const MEMORY_LIMIT_ENV: &str = "ALIAS_MEMORY_LIMIT";

/// Share of the available memory (`MemAvailable` in `/proc/meminfo`) a run
/// may use when [`MEMORY_LIMIT_ENV`] is not set.
pub(crate) const MEMORY_FRACTION: f64 = 0.8;

impl MemoryBudget {
    /// A budget of `bytes` bytes (positive and finite, else an error).
    pub fn bytes(bytes: f64) -> Result<MemoryBudget> {
        if bytes.is_finite() && bytes > 0.0 {
            Ok(MemoryBudget(bytes))
        } else {
            Err(Error::Invalid(format!(
                "memory budget {bytes} is not a positive byte count"
            )))
        }
    }

    /// Parses `8G`, `512M`, `1000000`: what `--memory` and
    /// [`MEMORY_LIMIT_ENV`] accept.
    pub fn parse(s: &str) -> Option<MemoryBudget> {
        let s = s.trim();
        let (num, mult) = match s.chars().last()?.to_ascii_uppercase() {
            'K' => (&s[..s.len() - 1], 1u64 << 10),
            'M' => (&s[..s.len() - 1], 1 << 20),
            'G' => (&s[..s.len() - 1], 1 << 30),
            'T' => (&s[..s.len() - 1], 1 << 40),
            _ => (s, 1),
        };
        let v = num.trim().parse::<f64>().ok()? * mult as f64;
        // finite after the unit too: `1e300T` is not a budget
        (v.is_finite() && v > 0.0).then_some(MemoryBudget(v))
    }

    /// [`MEMORY_LIMIT_ENV`] if set (an error if malformed), else
    /// 80% of `MemAvailable` (of `MemTotal` if that is
    /// missing; 4 GiB where `/proc/meminfo` cannot be read).
    pub fn from_env() -> Result<MemoryBudget> {
        if let Ok(s) = std::env::var(MEMORY_LIMIT_ENV) {
            return Self::parse(&s).ok_or_else(|| {
                Error::Invalid(format!(
                    "{MEMORY_LIMIT_ENV}=`{s}` is not a byte count (e.g. 8G, 512M, 1000000)"
                ))
            });
        }
        Ok(Self::available())
    }

    /// 80% of `MemAvailable` (of `MemTotal` if that is
    /// missing; 4 GiB where `/proc/meminfo` cannot be read), ignoring
    /// [`MEMORY_LIMIT_ENV`].
    pub fn available() -> MemoryBudget {
        let info = std::fs::read_to_string("/proc/meminfo").unwrap_or_default();
        let field = |name: &str| {
            info.lines()
                .find(|l| l.starts_with(name))
                .and_then(|l| l.split_whitespace().nth(1))
                .and_then(|v| v.parse::<f64>().ok())
                .map(|kib| kib * 1024.0)
        };
        let avail = field("MemAvailable:")
            .or_else(|| field("MemTotal:"))
            .unwrap_or(4.0 * (1u64 << 30) as f64);
        MemoryBudget(avail * MEMORY_FRACTION)
    }

    /// The budget in bytes.
    pub fn get(self) -> f64 {
        self.0
    }

    /// [`Error::TooBig`] if `need` bytes exceed the budget.
    pub fn admit(self, what: impl FnOnce() -> String, need: f64) -> Result<()> {
        if need > self.0 {
            return Err(Error::TooBig {
                what: what(),
                need: human_bytes(need),
                limit: format!(
                    "{} (set {MEMORY_LIMIT_ENV} to change it)",
                    human_bytes(self.0)
                ),
            });
        }
        Ok(())
    }
}

#[cfg(feature = "unit-tests")]
#[doc(hidden)]
pub mod tests {
    use super::*;

    pub fn a_ber_reads_back_as_written_at_the_edges_and_a_bad_one_is_refused() {
        for p in [0.0, 1.0, 0.5, 1e-300, 5e-324, 1e-6] {
            let b = Ber::new(p).unwrap();
            let j = serde_json::to_string(&b).unwrap();
            assert_eq!(serde_json::from_str::<Ber>(&j).unwrap(), b, "{j}");
        }
        for bad in [
            "1.5",
            "-1e-9",
            "-0.000001",
            "2",
            "1e400",
            "\"0.1\"",
            "null",
            "[0.1]",
        ] {
            let e = serde_json::from_str::<Ber>(bad);
            assert!(e.is_err(), "{bad} read as {e:?}");
        }
        // the library's own message, not a generic one
        let e = serde_json::from_str::<Ber>("1.5").unwrap_err().to_string();
        assert!(e.starts_with("bit error rate 1.5 is outside [0, 1]"), "{e}");
        // inside a larger value too
        let e = serde_json::from_str::<Vec<Ber>>("[0.1, 3]").unwrap_err();
        assert!(e.to_string().contains("bit error rate 3 is outside"), "{e}");
    }

    pub fn lengths_read_only_non_negative_integers() {
        assert_eq!(serde_json::from_str::<Bits>("12144").unwrap(), Bits(12144));
        assert_eq!(serde_json::from_str::<Bytes>("1518").unwrap(), Bytes(1518));
        assert_eq!(serde_json::to_string(&Bytes(1518)).unwrap(), "1518");
        let max = u64::MAX.to_string();
        assert_eq!(serde_json::from_str::<Bits>(&max).unwrap(), Bits(u64::MAX));
        for bad in ["-8", "1.5", "\"64\"", "18446744073709551616", "null"] {
            assert!(serde_json::from_str::<Bits>(bad).is_err(), "{bad}");
            assert!(serde_json::from_str::<Bytes>(bad).is_err(), "{bad}");
        }
    }
}

#[cfg(feature = "unit-tests")]
#[doc(hidden)]
pub mod serde_round_trip {
    use super::*;

    /// Unit and result types read back what they wrote; a unit's reader
    /// checks its value as its constructor does.
    pub fn units_and_results_round_trip_through_json() {
        let b = MemoryBudget::bytes(123456.0).unwrap();
        let s = serde_json::to_string(&b).unwrap();
        assert_eq!(s, "123456.0");
        assert_eq!(serde_json::from_str::<MemoryBudget>(&s).unwrap(), b);
        assert!(serde_json::from_str::<MemoryBudget>("-1.0").is_err());
        assert!(serde_json::from_str::<Ber>("1.5").is_err());
        let (p, n) = (Ber::new(1e-5).unwrap(), Bits(12144));
        let back: (Ber, Bits) =
            serde_json::from_str(&serde_json::to_string(&(p, n)).unwrap()).unwrap();
        assert_eq!(back, (p, n));
        let g: crate::poly::Generator = "0x11021".parse().unwrap();
        for f in crate::factor::factor(&g) {
            let s = serde_json::to_string(&f).unwrap();
            assert_eq!(
                serde_json::from_str::<crate::factor::Factor>(&s).unwrap(),
                f
            );
        }
        let br =
            crate::bracket::brackets(&g, &[200], &[1e-5], Some(4), &crate::ctx::Ctx::default())
                .unwrap();
        let s = serde_json::to_string(&br).unwrap();
        assert_eq!(
            serde_json::from_str::<Vec<crate::bracket::Bracket>>(&s).unwrap(),
            br
        );
        let pt = crate::bsc::CurvePoint::new(1e-5, 200, 16, 1e-20);
        let s = serde_json::to_string(&pt).unwrap();
        assert_eq!(
            serde_json::from_str::<crate::bsc::CurvePoint>(&s).unwrap(),
            pt
        );
    }
}
