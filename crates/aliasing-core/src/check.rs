//! The [`Check`] trait: an error-detecting check computed over a byte range;
//! and the one name table of checks, [`resolve`], used by every command
//! (`--check`, `--checks`, and the bare checks of `--stack`).
//!
//! CRCs and checksums both implement [`Check`], so stacks of checks and the
//! simulator treat them alike. **A new check** is a variant of
//! [`CheckSpec`] with its names in [`resolve`], an implementation of
//! [`Check`] (in [`crate::checksum`] for sums), a frame layout in
//! [`crate::layout`] (whose [`crate::layout::CheckDef`] refers to the
//! [`CheckSpec`] for what it computes and adds only where it sits) and,
//! where one exists, an exact method reached from [`crate::compare::curve`].
//!
//! ```
//! use aliasing_core::check::{resolve, CheckSpec};
//! assert_eq!(resolve("adler").unwrap(), CheckSpec::Adler32);
//! assert_eq!(resolve("Adler-32").unwrap(), CheckSpec::Adler32);
//! assert_eq!(resolve("rfc1071").unwrap().name(), "Internet");
//! assert_eq!(resolve("crc32c").unwrap().name(), "CRC-32/ISCSI");
//! ```
//!
//! ```
//! use aliasing_core::{catalogue, check::Check};
//! let crc = catalogue::resolve("crc32c").unwrap();
//! assert_eq!(crc.compute(b"123456789"), 0xE3069283);
//! assert!(crc.verify(b"123456789", 0xE3069283));
//! ```

use crate::catalogue;
use crate::crc::CrcAlgorithm;
use crate::error::{Error, Result};
use std::str::FromStr;

/// A check over a byte range: a function of the bytes, compared at the receiver.
pub trait Check: Send + Sync {
    /// Name of the check, e.g. `CRC-32/ISO-HDLC` or `Internet`.
    fn name(&self) -> String;
    /// Number of check bits the check appends or stores.
    fn check_bits(&self) -> u32;
    /// The check value of `data`.
    fn compute(&self, data: &[u8]) -> u64;
    /// `true` if `data` carries check value `value`.
    fn verify(&self, data: &[u8], value: u64) -> bool {
        self.compute(data) == value
    }
}

impl Check for CrcAlgorithm {
    fn name(&self) -> String {
        CrcAlgorithm::name(self).to_string()
    }
    fn check_bits(&self) -> u32 {
        self.width()
    }
    fn compute(&self, data: &[u8]) -> u64 {
        self.checksum(data)
    }
}

/// A check whose aliasing can be computed or compared.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub enum CheckSpec {
    /// The Internet checksum (RFC 1071; TCP, UDP, IP).
    Internet,
    /// Fletcher-16: two sums of bytes modulo 255.
    Fletcher16,
    /// Fletcher-32: two sums of 16-bit words modulo 65535.
    Fletcher32,
    /// Adler-32 (RFC 1950): two sums of bytes modulo 65521.
    Adler32,
    /// A CRC, as resolved by [`catalogue::resolve`].
    Crc(Box<CrcAlgorithm>),
}

/// The check a name denotes: `internet` (also `inet`, `ip`, `tcp`, `udp`,
/// `rfc1071`), `fletcher16`, `fletcher32`, `adler32` (also `adler`; dashes,
/// underscores, spaces and case ignored), or any CRC spec accepted by
/// [`catalogue::resolve`]. The one name table of checks: `alias curve
/// --check`, `alias compare --checks` and the bare checks of `alias simulate
/// --stack` all resolve through it (stack names such as `tcp` and `ethernet`
/// are looked up first by [`crate::layout`]).
pub fn resolve(spec: &str) -> Result<CheckSpec> {
    spec.parse()
}

impl FromStr for CheckSpec {
    type Err = Error;
    /// As [`resolve`].
    fn from_str(spec: &str) -> Result<Self> {
        let key: String = spec
            .trim()
            .chars()
            .filter(|c| !matches!(c, '-' | '_' | ' '))
            .collect::<String>()
            .to_ascii_lowercase();
        Ok(match key.as_str() {
            "internet" | "inet" | "ip" | "tcp" | "udp" | "rfc1071" => CheckSpec::Internet,
            "fletcher16" => CheckSpec::Fletcher16,
            "fletcher32" => CheckSpec::Fletcher32,
            "adler32" | "adler" => CheckSpec::Adler32,
            "" => return Err(Error::Invalid("empty check name".into())),
            _ => CheckSpec::Crc(Box::new(catalogue::resolve(spec)?)),
        })
    }
}

impl CheckSpec {
    /// Display name: `Internet`, `Fletcher-16`, ..., or the CRC's catalogue name.
    pub fn name(&self) -> String {
        match self {
            CheckSpec::Internet => "Internet".into(),
            CheckSpec::Fletcher16 => "Fletcher-16".into(),
            CheckSpec::Fletcher32 => "Fletcher-32".into(),
            CheckSpec::Adler32 => "Adler-32".into(),
            CheckSpec::Crc(c) => c.name().to_string(),
        }
    }

    /// Number of check bits.
    pub fn check_bits(&self) -> u32 {
        match self {
            CheckSpec::Internet | CheckSpec::Fletcher16 => 16,
            CheckSpec::Fletcher32 | CheckSpec::Adler32 => 32,
            CheckSpec::Crc(c) => c.width(),
        }
    }

    /// Shortest codeword in bytes the check accepts.
    pub fn min_bytes(&self) -> u64 {
        match self {
            CheckSpec::Internet => 1,
            // a data byte and the 2-byte sum
            CheckSpec::Fletcher16 => 3,
            CheckSpec::Fletcher32 | CheckSpec::Adler32 => 4,
            // at least one data bit beyond the check bits
            CheckSpec::Crc(c) => (c.width() as u64 + 1).div_ceil(8),
        }
    }
}
