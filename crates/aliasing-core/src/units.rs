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
#[derive(Debug, Clone, Copy, PartialEq, PartialOrd, serde::Serialize)]
#[serde(transparent)]
pub struct Ber(f64);

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
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, serde::Serialize)]
#[serde(transparent)]
pub struct Bits(pub u64);

/// A length in whole bytes (frame lengths: check field included).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, serde::Serialize)]
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
/// (`ALIAS_MEMORY_LIMIT`, e.g. `8G`), else takes [`MEMORY_FRACTION`] of the
/// available memory; the CLI's `--memory` sets it with [`MemoryBudget::parse`].
#[derive(Debug, Clone, Copy, PartialEq, PartialOrd)]
pub struct MemoryBudget(f64);

/// Environment variable setting the memory budget: a byte count with an
/// optional `K`, `M`, `G` or `T` suffix (powers of 1024).
pub const MEMORY_LIMIT_ENV: &str = "ALIAS_MEMORY_LIMIT";

/// Share of the available memory (`MemAvailable` in `/proc/meminfo`) a run
/// may use when [`MEMORY_LIMIT_ENV`] is not set.
pub const MEMORY_FRACTION: f64 = 0.8;

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
    /// [`MEMORY_FRACTION`] of `MemAvailable` (of `MemTotal` if that is
    /// missing; 4 GiB where `/proc/meminfo` cannot be read).
    pub fn from_env() -> Result<MemoryBudget> {
        if let Ok(s) = std::env::var(MEMORY_LIMIT_ENV) {
            return Self::parse(&s).ok_or_else(|| {
                Error::Invalid(format!(
                    "{MEMORY_LIMIT_ENV}=`{s}` is not a byte count (e.g. 8G, 512M, 1000000)"
                ))
            });
        }
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
        Ok(MemoryBudget(avail * MEMORY_FRACTION))
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
