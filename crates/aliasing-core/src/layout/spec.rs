//! Stack descriptions, parsed ([`StackSpec`], [`Inner`]); the grammar is
//! in the documentation of [`crate::layout`].

use crate::check::CheckSpec;
use crate::crc::CrcAlgorithm;
use crate::{Error, Result, catalogue};

/// A stack description, parsed: what [`Frame::new`](super::Frame::new) builds. See the module
/// documentation for the grammar.
///
/// ```
/// use aliasing_core::layout::{Inner, StackSpec};
/// let s: StackSpec = "ipv4-tcp+CRC-16/ARC".parse().unwrap();
/// assert!(matches!(s, StackSpec::Stacked { inner: Inner::Ipv4Tcp, .. }));
/// // `ethernet-tcp` is `ethernet-tcp+crc32`
/// assert_eq!("ethernet-tcp".parse::<StackSpec>(), "Ethernet-TCP + crc32".parse());
/// assert!("udp4+crc32".parse::<StackSpec>().is_err());
/// ```
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub enum StackSpec {
    /// `ethernet`: random bytes, then the FCS (CRC-32/ISO-HDLC).
    Ethernet,
    /// `tcp`: a bare TCP segment with its checksum, no CRC.
    Tcp,
    /// A bare check: random data followed by its value.
    Bare(CheckSpec),
    /// `INNER+CRC`: an inner layout, then a CRC over everything before it
    /// (`ethernet-tcp` is `ethernet-tcp+crc32`).
    Stacked {
        /// The layout before the CRC.
        inner: Inner,
        /// The CRC over it, stored at the end of the frame.
        crc: Box<CrcAlgorithm>,
    },
}

/// The inner layout of a stack description `INNER+CRC`: the bytes before the
/// CRC's field.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub enum Inner {
    /// `random`: random data only (a bare CRC).
    Random,
    /// `internet`: random data, then its Internet checksum (big-endian).
    Internet,
    /// `tcp`: a TCP segment (20-byte header, random payload) with its
    /// checksum over a constant pseudo-header (10.0.0.1 -> 10.0.0.2).
    Tcp,
    /// `ipv4-tcp`: an IPv4 header (its header checksum) and a TCP segment
    /// (its checksum over the pseudo-header from the received addresses).
    Ipv4Tcp,
    /// `ethernet-tcp`: an Ethernet II header, then `ipv4-tcp`.
    EthernetTcp,
    /// `fletcher16`, `fletcher32`, `adler32`: random data, then the sum
    /// (big-endian); always [`CheckSpec::Fletcher16`],
    /// [`CheckSpec::Fletcher32`] or [`CheckSpec::Adler32`].
    Sum(CheckSpec),
}

/// The inner layouts' names, as an error lists them.
pub(super) const INNER_NAMES: &str =
    "random, internet, tcp, ipv4-tcp, ethernet-tcp, fletcher16, fletcher32, adler32";

impl Inner {
    /// The inner layout named `name` (case ignored; the sums also by the
    /// other names of [`crate::check::resolve`]), or why there is none.
    pub(super) fn from_name(name: &str) -> std::result::Result<Inner, String> {
        Ok(match name.to_ascii_lowercase().as_str() {
            "random" => Inner::Random,
            "internet" | "inet" | "rfc1071" => Inner::Internet,
            "tcp" => Inner::Tcp,
            "ipv4-tcp" => Inner::Ipv4Tcp,
            "ethernet-tcp" => Inner::EthernetTcp,
            _ => match crate::check::resolve(name) {
                Ok(sum @ (CheckSpec::Fletcher16 | CheckSpec::Fletcher32 | CheckSpec::Adler32)) => {
                    Inner::Sum(sum)
                }
                Ok(CheckSpec::Crc(c)) => {
                    return Err(format!(
                        "inner layout `{name}` is a CRC ({}); a stack has one CRC, after the `+`",
                        c.name()
                    ));
                }
                _ => {
                    return Err(format!(
                        "unknown inner layout `{name}` (known: {INNER_NAMES})"
                    ));
                }
            },
        })
    }

    /// The fewest bytes of this layout.
    pub(super) fn min_bytes(&self) -> usize {
        match self {
            Inner::Random => 1,
            Inner::Internet => 4,
            Inner::Tcp => 20,
            Inner::Ipv4Tcp => 40,
            Inner::EthernetTcp => 54,
            // the field and at least one data byte
            Inner::Sum(sum) => sum.check_bits() as usize / 8 + 1,
        }
    }
}

impl std::str::FromStr for StackSpec {
    type Err = Error;
    /// Parses a stack description (see the module documentation); a bad one
    /// gets [`Error::BadStack`] naming the bad part, an unknown bare check
    /// the error of [`crate::check::resolve`].
    fn from_str(stack: &str) -> Result<StackSpec> {
        let t = stack.trim();
        let bad = |reason: String| Error::BadStack {
            stack: t.to_string(),
            reason,
        };
        if let Some((a, b)) = t.split_once('+') {
            let (a, b) = (a.trim(), b.trim());
            if a.is_empty() {
                return Err(bad(format!(
                    "no inner layout before `+` (one of {INNER_NAMES})"
                )));
            }
            if b.is_empty() {
                return Err(bad("no CRC after `+`".into()));
            }
            let inner = Inner::from_name(a).map_err(bad)?;
            let crc = match crate::check::resolve(b) {
                Ok(CheckSpec::Crc(c)) => c,
                Ok(other) => {
                    return Err(bad(format!(
                        "`{b}` after `+` is the {} checksum, not a CRC",
                        other.name()
                    )));
                }
                Err(e) => return Err(bad(format!("unknown CRC after `+`: {e}"))),
            };
            return Ok(StackSpec::Stacked { inner, crc });
        }
        Ok(match t.to_ascii_lowercase().as_str() {
            "ethernet" => StackSpec::Ethernet,
            "ethernet-tcp" => StackSpec::Stacked {
                inner: Inner::EthernetTcp,
                crc: Box::new(catalogue::resolve("CRC-32/ISO-HDLC").expect("catalogue entry")),
            },
            "tcp" => StackSpec::Tcp,
            // Every other name is a bare check, named through the one table
            // of checks (`adler`, `inet`, `crc32c`, `16:0x1021`, ...).
            _ => StackSpec::Bare(crate::check::resolve(t)?),
        })
    }
}
