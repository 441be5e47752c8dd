//! Frames and stacks of checks: which byte ranges each check covers, where
//! its value is stored, which bytes are fixed header fields and which are
//! payload, and the order in which bits go on the wire.
//!
//! # Stack descriptions
//!
//! A stack is named by a built-in name, a bare check, or a description
//! `INNER+CRC` (parsed by [`StackSpec`]; every command reads it through
//! [`Frame::new`]; case and spaces around the `+` are ignored).
//!
//! Built-in names:
//! - `ethernet`: random bytes, then the FCS (CRC-32/ISO-HDLC over everything
//!   before it, stored least significant byte first).
//! - `ethernet-tcp`: exactly `ethernet-tcp+crc32` (below): Ethernet II header
//!   (14 bytes), IPv4 header (20 bytes, header checksum), TCP header
//!   (20 bytes, checksum over the pseudo-header and the segment), random
//!   payload, FCS. The pseudo-header takes the IP addresses from the received
//!   frame; protocol and TCP length are those sent (a flip in the IP length or
//!   protocol is the IP checksum's business).
//! - `tcp`: a bare TCP segment (header + random payload) with its checksum;
//!   the pseudo-header (10.0.0.1 -> 10.0.0.2) is constant. No CRC.
//! - any check of the one name table ([`crate::check::resolve`]): a CRC
//!   (`crc32`, `CRC-16/IBM-3740`, `16:0x1021`, `16`...) is `random+CRC`;
//!   `internet`, `fletcher16`, `fletcher32`, `adler32` are random data
//!   followed by the checksum (big-endian).
//!
//! `INNER+CRC`: the inner layout fills every byte but the last
//! `ceil(width / 8)`, which hold the CRC computed over all the bytes before
//! them. `CRC` is anything [`crate::catalogue::resolve`] reads (`crc32c`,
//! `CRC-16/ARC`, `16:0x1021`, `k:0x8810`, ...). `INNER` is one of
//! - `random`: random data only (so `random+CRC` is the bare CRC);
//! - `internet`: random data, then its Internet checksum (an even number of
//!   bytes, at least 4);
//! - `tcp`: the `tcp` segment above;
//! - `ipv4-tcp`: an IPv4 header and a TCP segment as in `ethernet-tcp`,
//!   without the Ethernet header;
//! - `ethernet-tcp`: the Ethernet II header, then `ipv4-tcp` (the CRC is
//!   named `FCS ...` here);
//! - `fletcher16`, `fletcher32`, `adler32`: random data, then that sum. The
//!   simulator runs these; the exact joint computation
//!   ([`crate::joint::JointModel::new`]) refuses them with its reason.
//!
//! **Checks.** Each check of a frame is a [`CheckDef`]: *what* it computes
//! is its [`CheckSpec`], a value of the one name table of checks
//! ([`crate::check`]), so the layout keeps no second list of checks; the
//! rest of the [`CheckDef`] is *where* the check sits: the bytes it reads,
//! its field and the field's byte order, and for the Internet checksum the
//! ranges it sums and the pseudo-header constant. A new check computed over
//! bytes and stored after them needs here only its value (in the private
//! `CheckDef::value`) and, to be stacked under a CRC, an [`Inner`] layout.
//!
//! **Wire order.** Bits go on the wire in the order the stack's CRC reads
//! them: least significant bit of each byte first when the CRC is reflected
//! in (`refin`, as Ethernet sends CRC-32/ISO-HDLC), most significant first
//! otherwise; the CRC field is stored little-endian when the CRC is
//! reflected out (`refout`), else big-endian. So the CRC's codewords are the
//! error patterns `x^k g(x)` in wire positions, which the exact joint
//! computation needs (it checks this on a real frame). A stack without a CRC
//! (`tcp`, the bare sums) goes least significant bit first. Order matters
//! only for bursts (and for naming codewords by wire position).
//!
//! A description that cannot be read is refused with [`Error::BadStack`]
//! naming the bad part (`unknown inner layout`, `unknown CRC after +`, a
//! checksum where the CRC goes); a frame too short for the layout with
//! [`Error::BadLength`].
//!
//! The simulator (`aliasing_sim`) and the exact joint computation read the
//! same layout from here.
//!
//! ```
//! use aliasing_core::layout::{Frame, Payload};
//! let f = Frame::new("ethernet-tcp", 1518, Payload::Random).unwrap();
//! assert_eq!(f.checks.len(), 3);
//! assert_eq!(f.n_bits(), 12144);
//! // a user's stack: IPv4 + TCP under CRC-16/ARC (reflected: LSB first,
//! // the field little-endian)
//! let u = Frame::new("ipv4-tcp+CRC-16/ARC", 120, Payload::Random).unwrap();
//! assert_eq!(u.checks[2].name, "CRC-16/ARC");
//! assert_eq!((u.checks[2].field, u.random), (118, (40, 118)));
//! assert!(u.lsb_first);
//! let e = Frame::new("ipv6-tcp+crc32", 120, Payload::Random).unwrap_err();
//! assert!(e.to_string().contains("unknown inner layout `ipv6-tcp`"));
//! ```

use crate::check::{Check, CheckSpec};
use crate::checksum::{Adler32, Fletcher16, Fletcher32, ones_complement_sum};
use crate::crc::CrcAlgorithm;
use crate::{Error, Result, catalogue};

/// What the payload bytes are.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Payload {
    /// Fresh random bytes in every frame (a counter-based hash of seed and frame index).
    Random,
    /// The same bytes in every frame: the pattern repeated (or truncated) to
    /// the payload length (a fixed pattern, or a file's bytes).
    Fixed(Vec<u8>),
}

/// One check of a stack: *what* it computes, as a [`CheckSpec`] of the one
/// name table of checks, and *where* it sits in the frame (the bytes it
/// reads, its field, the field's byte order, and for the Internet checksum
/// its summed ranges and pseudo-header constant).
///
/// A CRC or a position-dependent sum (Fletcher-16/32, Adler-32) is
/// computed over `data` and its value stored at `field` (`field_len`
/// bytes, little-endian when `little_endian`). The Internet checksum is
/// verified as a whole: the ones'-complement sum over `ranges` (in order,
/// the field among them) plus `constant` must be 0xFFFF; its field is
/// big-endian.
#[derive(Debug, Clone)]
pub struct CheckDef {
    /// Display name, e.g. `FCS CRC-32/ISO-HDLC`.
    pub name: String,
    /// What the check computes (a CRC with all its parameters, or a checksum).
    pub spec: CheckSpec,
    /// Bytes the check is computed over (CRC and position-dependent sums).
    pub data: (usize, usize),
    /// First byte of the stored check value.
    pub field: usize,
    /// Length of the stored check value in bytes.
    pub field_len: usize,
    /// The field is stored least significant byte first (a CRC reflected
    /// out); otherwise big-endian, as every checksum here.
    pub little_endian: bool,
    /// Internet checksum only: the byte ranges summed, in order (each of
    /// even length but the last); empty for other checks.
    pub ranges: Vec<(usize, usize)>,
    /// Internet checksum only: the folded ones'-complement sum of constant
    /// pseudo-header words; 0 for other checks.
    pub constant: u16,
}

impl CheckDef {
    /// A CRC, a Fletcher sum or Adler-32 over `data`, stored at the `field_len`
    /// bytes from `field`.
    fn value_at(
        name: String,
        spec: CheckSpec,
        data: (usize, usize),
        field: usize,
        field_len: usize,
        little_endian: bool,
    ) -> CheckDef {
        CheckDef {
            name,
            spec,
            data,
            field,
            field_len,
            little_endian,
            ranges: Vec::new(),
            constant: 0,
        }
    }

    /// An Internet checksum over `ranges` plus `constant`, its 2-byte field at `field`.
    fn internet(
        name: &str,
        ranges: Vec<(usize, usize)>,
        constant: u16,
        data: (usize, usize),
        field: usize,
    ) -> CheckDef {
        CheckDef {
            name: name.into(),
            spec: CheckSpec::Internet,
            data,
            field,
            field_len: 2,
            little_endian: false,
            ranges,
            constant,
        }
    }

    /// `true` for the Internet checksum (verified by its `ranges`).
    pub fn is_internet(&self) -> bool {
        matches!(self.spec, CheckSpec::Internet)
    }

    /// The CRC, if this check is one.
    pub fn crc(&self) -> Option<&CrcAlgorithm> {
        match &self.spec {
            CheckSpec::Crc(alg) => Some(&**alg),
            _ => None,
        }
    }

    /// The value of a CRC or position-dependent sum over `data`.
    fn value(&self, data: &[u8]) -> u64 {
        match &self.spec {
            CheckSpec::Crc(alg) => crc_value(alg, data),
            CheckSpec::Fletcher16 => Fletcher16.compute(data),
            CheckSpec::Fletcher32 => Fletcher32.compute(data),
            CheckSpec::Adler32 => Adler32.compute(data),
            CheckSpec::Internet => unreachable!("the Internet checksum is verified by its ranges"),
        }
    }
}

/// A frame layout: length, checks (in the order a sender fills them in),
/// fixed bytes, the random payload range and the bit order on the wire.
#[derive(Debug, Clone)]
pub struct Frame {
    /// Stack name as given.
    pub stack: String,
    /// Frame length in bytes, every check field included.
    pub bytes: usize,
    /// Bits of each byte go least significant first.
    pub lsb_first: bool,
    /// The checks, in the order the sender computes them.
    pub checks: Vec<CheckDef>,
    /// Bytes `random.0..random.1` are random payload when the payload is random.
    pub random: (usize, usize),
    /// The payload mode.
    pub payload: Payload,
    /// The frame with fixed fields (and a fixed payload) filled in; check
    /// fields whose value depends on random bytes are left zero.
    pub template: Vec<u8>,
    /// Per byte: its value differs between frames (random payload, or a check
    /// field computed over random bytes).
    pub varies: Vec<bool>,
}

const MAC_DST: [u8; 6] = [0x02, 0, 0, 0, 0, 0x02];
const MAC_SRC: [u8; 6] = [0x02, 0, 0, 0, 0, 0x01];
const IP_SRC: [u8; 4] = [10, 0, 0, 1];
const IP_DST: [u8; 4] = [10, 0, 0, 2];

fn tcp_header() -> [u8; 20] {
    let mut h = [0u8; 20];
    h[0..2].copy_from_slice(&49152u16.to_be_bytes());
    h[2..4].copy_from_slice(&80u16.to_be_bytes());
    h[4..8].copy_from_slice(&1u32.to_be_bytes());
    h[8..12].copy_from_slice(&1u32.to_be_bytes());
    h[12] = 0x50; // data offset 5 words
    h[13] = 0x18; // PSH, ACK
    h[14..16].copy_from_slice(&0xFFFFu16.to_be_bytes());
    h
}

fn pseudo_constant(tcp_len: usize) -> u16 {
    ones_complement_sum(&[0, 6, (tcp_len >> 8) as u8, tcp_len as u8], 0)
}

fn too_short(stack: &str, bytes: usize, min: usize) -> Error {
    Error::BadLength(format!(
        "stack `{stack}` needs at least {min} bytes per frame, got {bytes}"
    ))
}

fn fcs(bytes: usize) -> CheckDef {
    let alg = catalogue::resolve("CRC-32/ISO-HDLC").expect("catalogue entry");
    CheckDef::value_at(
        "FCS CRC-32/ISO-HDLC".into(),
        CheckSpec::Crc(Box::new(alg)),
        (0, bytes - 4),
        bytes - 4,
        4,
        true,
    )
}

/// A stack description, parsed: what [`Frame::new`] builds. See the module
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
const INNER_NAMES: &str =
    "random, internet, tcp, ipv4-tcp, ethernet-tcp, fletcher16, fletcher32, adler32";

impl Inner {
    /// The inner layout named `name` (case ignored; the sums also by the
    /// other names of [`crate::check::resolve`]), or why there is none.
    fn from_name(name: &str) -> std::result::Result<Inner, String> {
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
    fn min_bytes(&self) -> usize {
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

/// The layout of a bare check: random data followed by the check value
/// (checks, random range, bit order).
type Layout = (Vec<CheckDef>, (usize, usize), bool);

fn bare_check(stack: &str, bytes: usize, spec: CheckSpec) -> Result<Layout> {
    let inner = match spec {
        CheckSpec::Internet => Inner::Internet,
        CheckSpec::Crc(alg) => return stacked(stack, bytes, Inner::Random, alg, &mut []),
        sum => Inner::Sum(sum),
    };
    let (checks, random) = body(stack, &inner, bytes, 0, &mut [])?;
    Ok((checks, random, true))
}

/// `inner` then `crc` over it: the CRC field (`ceil(width / 8)` bytes) at
/// the end, little-endian when the CRC is reflected out, bits on the wire
/// in the order the CRC reads them (least significant first when it is
/// reflected in).
fn stacked(
    stack: &str,
    bytes: usize,
    inner: Inner,
    crc: Box<CrcAlgorithm>,
    template: &mut [u8],
) -> Result<Layout> {
    let len = crc.width().div_ceil(8) as usize;
    if bytes < len + inner.min_bytes() {
        return Err(too_short(stack, bytes, len + inner.min_bytes()));
    }
    let m = bytes - len;
    let (mut checks, random) = body(stack, &inner, m, len, template)?;
    let name = if inner == Inner::EthernetTcp {
        format!("FCS {}", crc.name())
    } else {
        crc.name().to_string()
    };
    let (lsb_first, little_endian) = (crc.refin(), crc.refout());
    checks.push(CheckDef::value_at(
        name,
        CheckSpec::Crc(crc),
        (0, m),
        m,
        len,
        little_endian,
    ));
    Ok((checks, random, lsb_first))
}

/// The checks and random range of the inner layout over the first `m`
/// bytes of `template` (a frame of `m + extra` bytes; `template` is empty
/// for layouts with no fixed bytes), its fixed bytes written there.
fn body(
    stack: &str,
    inner: &Inner,
    m: usize,
    extra: usize,
    template: &mut [u8],
) -> Result<(Vec<CheckDef>, (usize, usize))> {
    if *inner == Inner::Internet && (m < 4 || m % 2 == 1) {
        return Err(Error::BadLength(if extra == 0 {
            format!("the `internet` stack needs an even number of bytes, at least 4; got {m}")
        } else {
            format!(
                "stack `{stack}` needs an even number of bytes, at least 4, before its CRC \
                 (the Internet checksum's words); got {m}"
            )
        }));
    }
    let min = inner.min_bytes();
    if m < min {
        return Err(too_short(stack, m + extra, min + extra));
    }
    Ok(match inner {
        Inner::Random => (Vec::new(), (0, m)),
        Inner::Internet => {
            let checks = vec![CheckDef::internet(
                "Internet",
                vec![(0, m)],
                0,
                (0, m - 2),
                m - 2,
            )];
            (checks, (0, m - 2))
        }
        Inner::Sum(sum) => {
            let len = sum.check_bits() as usize / 8;
            let checks = vec![CheckDef::value_at(
                sum.name(),
                sum.clone(),
                (0, m - len),
                m - len,
                len,
                false,
            )];
            (checks, (0, m - len))
        }
        Inner::Tcp => {
            template[0..20].copy_from_slice(&tcp_header());
            let mut ph = Vec::new();
            ph.extend_from_slice(&IP_SRC);
            ph.extend_from_slice(&IP_DST);
            let c = ones_complement_sum(&ph, pseudo_constant(m));
            let checks = vec![CheckDef::internet(
                "TCP checksum",
                vec![(0, m)],
                c,
                (0, m),
                16,
            )];
            (checks, (20, m))
        }
        Inner::Ipv4Tcp => (ipv4_tcp(template, 0, m, extra)?, (40, m)),
        Inner::EthernetTcp => {
            template[0..6].copy_from_slice(&MAC_DST);
            template[6..12].copy_from_slice(&MAC_SRC);
            template[12..14].copy_from_slice(&0x0800u16.to_be_bytes());
            (ipv4_tcp(template, 14, m, extra)?, (54, m))
        }
    })
}

/// An IPv4 packet carrying a TCP segment at bytes `at..m` of `t` (a frame of
/// `m + extra` bytes): fixed headers written, its two checks. The TCP
/// pseudo-header takes the addresses from the received IPv4 header.
fn ipv4_tcp(t: &mut [u8], at: usize, m: usize, extra: usize) -> Result<Vec<CheckDef>> {
    let ip_len = m - at;
    if ip_len > 65535 {
        return Err(Error::BadLength(format!(
            "an IPv4 packet holds at most 65535 bytes; {}-byte frames need {ip_len}",
            m + extra
        )));
    }
    let ip = &mut t[at..at + 20];
    ip[0] = 0x45;
    ip[2..4].copy_from_slice(&(ip_len as u16).to_be_bytes());
    ip[4..6].copy_from_slice(&0x1234u16.to_be_bytes());
    ip[6] = 0x40; // don't fragment
    ip[8] = 64; // TTL
    ip[9] = 6; // TCP
    ip[12..16].copy_from_slice(&IP_SRC);
    ip[16..20].copy_from_slice(&IP_DST);
    t[at + 20..at + 40].copy_from_slice(&tcp_header());
    let tcp_len = ip_len - 20;
    Ok(vec![
        CheckDef::internet(
            "IPv4 header checksum",
            vec![(at, at + 20)],
            0,
            (at, at + 20),
            at + 10,
        ),
        CheckDef::internet(
            "TCP checksum",
            vec![(at + 12, at + 20), (at + 20, m)],
            pseudo_constant(tcp_len),
            (at + 20, m),
            at + 36,
        ),
    ])
}

impl Frame {
    /// The layout of stack `stack` (a built-in name, a bare check or a
    /// description `INNER+CRC`, see the module documentation) for frames of
    /// `bytes` bytes.
    pub fn new(stack: &str, bytes: usize, payload: Payload) -> Result<Frame> {
        if let Payload::Fixed(p) = &payload
            && p.is_empty()
        {
            return Err(Error::Invalid("the payload pattern is empty".into()));
        }
        // the sparse engine keeps 64 bits per frame bit and CRC: 64 MiB at 1 MiB
        if bytes > 1 << 20 {
            return Err(Error::BadLength(format!(
                "frames of {bytes} bytes are over the limit of 1 MiB"
            )));
        }
        let spec: StackSpec = stack.parse()?;
        let mut template = vec![0u8; bytes];
        let (checks, random, lsb_first) = match spec {
            StackSpec::Ethernet => {
                if bytes < 5 {
                    return Err(too_short(stack, bytes, 5));
                }
                (vec![fcs(bytes)], (0, bytes - 4), true)
            }
            StackSpec::Tcp => {
                let (checks, random) = body(stack, &Inner::Tcp, bytes, 0, &mut template)?;
                (checks, random, true)
            }
            StackSpec::Bare(spec) => bare_check(stack, bytes, spec)?,
            StackSpec::Stacked { inner, crc } => stacked(stack, bytes, inner, crc, &mut template)?,
        };
        let mut varies = vec![false; bytes];
        if let Payload::Fixed(p) = &payload {
            for (i, b) in template[random.0..random.1].iter_mut().enumerate() {
                *b = p[i % p.len()];
            }
        } else {
            varies[random.0..random.1].fill(true);
        }
        // Fill in check fields over fixed bytes; mark the others as varying.
        let mut frame = Frame {
            stack: stack.trim().to_string(),
            bytes,
            lsb_first,
            checks,
            random,
            payload,
            template,
            varies,
        };
        for i in 0..frame.checks.len() {
            let c = &frame.checks[i];
            let covered = frame.covered_bytes(i);
            if covered.iter().any(|&b| frame.varies[b]) {
                frame.varies[c.field..c.field + c.field_len].fill(true);
            } else {
                let mut t = std::mem::take(&mut frame.template);
                frame.fill_field(i, &mut t);
                frame.template = t;
            }
        }
        Ok(frame)
    }

    /// Codeword length in bits.
    pub fn n_bits(&self) -> u64 {
        self.bytes as u64 * 8
    }

    /// The bytes check `i` reads, its own field excluded.
    pub fn covered_bytes(&self, i: usize) -> Vec<usize> {
        let c = &self.checks[i];
        if c.is_internet() {
            c.ranges
                .iter()
                .flat_map(|&(a, b)| a..b)
                .filter(|&b| b < c.field || b >= c.field + c.field_len)
                .collect()
        } else {
            (c.data.0..c.data.1).collect()
        }
    }

    /// Byte index and bit mask of the `t`-th bit on the wire.
    #[inline(always)]
    pub fn bit_at(&self, t: u32) -> (usize, u8) {
        let byte = (t / 8) as usize;
        let bit = t % 8;
        let mask = if self.lsb_first {
            1u8 << bit
        } else {
            0x80u8 >> bit
        };
        (byte, mask)
    }

    /// The frame a sender builds: the template with `payload` in the random
    /// range (a random payload; with a fixed one `payload` is ignored) and
    /// every check filled in, in order.
    ///
    /// # Panics
    /// With a random payload, if `payload` is not as long as the random range.
    pub fn sent(&self, payload: &[u8]) -> Vec<u8> {
        let mut fr = self.template.clone();
        if self.payload == Payload::Random {
            fr[self.random.0..self.random.1].copy_from_slice(payload);
        }
        for i in 0..self.checks.len() {
            self.fill_field(i, &mut fr);
        }
        fr
    }

    /// Flips the wire bits `pattern` of `frame` ([`Frame::bit_at`]).
    #[inline]
    pub fn flip(&self, frame: &mut [u8], pattern: &[u32]) {
        for &t in pattern {
            let (b, m) = self.bit_at(t);
            frame[b] ^= m;
        }
    }

    /// `true` if every check passes on the (received) frame.
    pub fn verify_all(&self, frame: &[u8]) -> bool {
        (0..self.checks.len()).all(|i| self.verify(i, frame))
    }

    /// Computes check `i` as a sender would and stores it in `frame`.
    pub fn fill_field(&self, i: usize, frame: &mut [u8]) {
        let c = &self.checks[i];
        let (f, l) = (c.field, c.field_len);
        if c.is_internet() {
            frame[f..f + l].fill(0);
            let s = internet_sum(frame, &c.ranges, c.constant);
            frame[f..f + 2].copy_from_slice(&(!s).to_be_bytes());
        } else {
            let v = c.value(&frame[c.data.0..c.data.1]);
            store(&mut frame[f..f + l], v, c.little_endian);
        }
    }

    /// `true` if check `i` passes on the (received) frame.
    pub fn verify(&self, i: usize, frame: &[u8]) -> bool {
        let c = &self.checks[i];
        let (f, l) = (c.field, c.field_len);
        if c.is_internet() {
            internet_sum(frame, &c.ranges, c.constant) == 0xFFFF
        } else {
            c.value(&frame[c.data.0..c.data.1]) == load(&frame[f..f + l], c.little_endian)
        }
    }
}

fn store(dst: &mut [u8], v: u64, little_endian: bool) {
    let l = dst.len();
    for (j, d) in dst.iter_mut().enumerate() {
        let sh = if little_endian { j } else { l - 1 - j };
        *d = (v >> (8 * sh)) as u8;
    }
}

fn load(src: &[u8], little_endian: bool) -> u64 {
    let l = src.len();
    let mut v = 0u64;
    for (j, &d) in src.iter().enumerate() {
        let sh = if little_endian { j } else { l - 1 - j };
        v |= (d as u64) << (8 * sh);
    }
    v
}

/// The CRC of `data`; CRC-32/ISO-HDLC goes through `crc32fast`.
#[inline]
pub fn crc_value(alg: &CrcAlgorithm, data: &[u8]) -> u64 {
    if alg.width() == 32
        && alg.generator().normal() == 0x04C1_1DB7
        && alg.init() == 0xFFFF_FFFF
        && alg.refin()
        && alg.refout()
        && alg.xorout() == 0xFFFF_FFFF
    {
        crc32fast::hash(data) as u64
    } else {
        alg.checksum(data)
    }
}

/// Folded ones'-complement sum over `ranges` of `frame` plus `constant`
/// (words big-endian, counted from the start of the concatenated ranges).
pub fn internet_sum(frame: &[u8], ranges: &[(usize, usize)], constant: u16) -> u16 {
    let mut acc: u64 = constant as u64;
    let mut odd = false; // the concatenation so far has odd length
    for &(a, b) in ranges {
        let mut d = &frame[a..b];
        if odd && !d.is_empty() {
            acc += d[0] as u64;
            d = &d[1..];
            odd = false;
        }
        let mut chunks = d.chunks_exact(8);
        let mut s: u64 = 0;
        for c in &mut chunks {
            let w = u64::from_be_bytes(c.try_into().unwrap());
            s += (w >> 32) + (w & 0xFFFF_FFFF);
        }
        acc += s;
        let rest = chunks.remainder();
        let mut pairs = rest.chunks_exact(2);
        for p in &mut pairs {
            acc += u16::from_be_bytes([p[0], p[1]]) as u64;
        }
        if let [last] = pairs.remainder() {
            acc += (*last as u64) << 8;
            odd = true;
        }
    }
    // 2^16 = 1 mod 65535: fold to 16 bits with end-around carry
    while acc > 0xFFFF {
        acc = (acc & 0xFFFF) + (acc >> 16);
    }
    acc as u16
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::checksum::Internet;

    fn sample(len: usize, seed: u64) -> Vec<u8> {
        let mut x = seed;
        (0..len)
            .map(|_| {
                x = x
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                (x >> 56) as u8
            })
            .collect()
    }

    #[test]
    fn internet_sum_matches_core() {
        for len in [0, 1, 2, 7, 8, 9, 17, 1464, 1465] {
            let d = sample(len, len as u64);
            assert_eq!(
                internet_sum(&d, &[(0, len)], 0),
                ones_complement_sum(&d, 0),
                "{len}"
            );
        }
        // ranges concatenate: odd first range shifts the alignment of the next
        let d = sample(40, 3);
        let mut cat = d[3..10].to_vec();
        cat.extend_from_slice(&d[20..33]);
        assert_eq!(
            internet_sum(&d, &[(3, 10), (20, 33)], 0x1234),
            ones_complement_sum(&cat, 0x1234)
        );
    }

    #[test]
    fn filled_frames_verify_and_match_reference_implementations() {
        for (stack, bytes) in [
            ("ethernet", 64),
            ("ethernet-tcp", 1518),
            ("tcp", 1500),
            ("internet", 100),
            ("fletcher16", 50),
            ("adler32", 51),
            ("crc16", 33),
            ("CRC-16/IBM-3740", 33),
            ("4:0x3", 9),
            ("tcp+crc32c", 100),
            ("ipv4-tcp+CRC-16/ARC", 120),
            ("internet+crc32c", 64),
            ("fletcher16+crc16", 40),
            ("adler32 + CRC-16/XMODEM", 41),
            ("ethernet-tcp+crc32c", 200),
            ("random+16:0x1021", 20),
            ("ethernet-tcp+CRC-8/SMBUS", 59),
        ] {
            let f = Frame::new(stack, bytes, Payload::Random).unwrap();
            let mut fr = f.template.clone();
            fr[f.random.0..f.random.1].copy_from_slice(&sample(f.random.1 - f.random.0, 5));
            for i in 0..f.checks.len() {
                f.fill_field(i, &mut fr);
            }
            for i in 0..f.checks.len() {
                assert!(f.verify(i, &fr), "{stack} check {i}");
            }
            let mut bad = fr.clone();
            bad[bytes / 2] ^= 0x10;
            assert!((0..f.checks.len()).any(|i| !f.verify(i, &bad)), "{stack}");
        }
        // ethernet-tcp against the core's own checks
        let f = Frame::new("ethernet-tcp", 1518, Payload::Random).unwrap();
        let mut fr = f.template.clone();
        fr[54..1514].copy_from_slice(&sample(1460, 9));
        for i in 0..3 {
            f.fill_field(i, &mut fr);
        }
        let ip = &fr[14..34];
        assert_eq!(ones_complement_sum(ip, 0), 0xFFFF);
        let ph = Internet::tcp_ipv4(IP_SRC, IP_DST, 1480);
        let mut seg = fr[34..1514].to_vec();
        let stored = u16::from_be_bytes([seg[16], seg[17]]);
        seg[16] = 0;
        seg[17] = 0;
        assert_eq!(ph.compute(&seg) as u16, stored);
        let crc = catalogue::resolve("crc32").unwrap();
        assert_eq!(crc.checksum(&fr[..1514]).to_le_bytes()[..4], fr[1514..1518]);
        // receiving the whole frame through CRC-32 leaves the known residue
        assert_eq!(crc32fast::hash(&fr), 0x2144DF1C);
    }

    #[test]
    fn built_in_stacks_are_their_descriptions_byte_for_byte() {
        let same = |a: &Frame, b: &Frame| {
            assert_eq!(a.template, b.template);
            assert_eq!(a.varies, b.varies);
            assert_eq!(
                (a.random, a.lsb_first, a.bytes),
                (b.random, b.lsb_first, b.bytes)
            );
            assert_eq!(format!("{:?}", a.checks), format!("{:?}", b.checks));
        };
        for bytes in [58, 64, 1518, 9018] {
            let f = |s| Frame::new(s, bytes, Payload::Random).unwrap();
            same(&f("ethernet-tcp"), &f("ethernet-tcp+crc32"));
            same(&f("ethernet-tcp"), &f("Ethernet-TCP + CRC-32/ISO-HDLC"));
            same(&f("crc32c"), &f("random+crc32c"));
            same(&f("CRC-16/XMODEM"), &f("random+CRC-16/XMODEM"));
        }
        // the description is kept as given (trimmed)
        let f = Frame::new(" tcp+crc32c ", 64, Payload::Random).unwrap();
        assert_eq!(f.stack, "tcp+crc32c");
        // ipv4-tcp is ethernet-tcp without its 14-byte header and with its CRC
        let e = Frame::new("ethernet-tcp", 1518, Payload::Random).unwrap();
        let i = Frame::new("ipv4-tcp+crc32", 1504, Payload::Random).unwrap();
        assert_eq!(e.template[14..1514], i.template[..1500]);
        assert_eq!(i.checks[1].name, "TCP checksum");
        assert_eq!(i.checks[2].name, "CRC-32/ISO-HDLC");
    }

    #[test]
    fn wire_order_and_field_follow_the_crc() {
        // reflected CRCs: LSB first, field little-endian; others MSB first,
        // big-endian (a CRC over a frame with its value at the end leaves
        // the residue when the field is stored as the CRC reads it)
        for (crc, lsb) in [
            ("crc32c", true),
            ("CRC-16/ARC", true),
            ("CRC-16/XMODEM", false),
            ("CRC-32/BZIP2", false),
        ] {
            let f = Frame::new(&format!("tcp+{crc}"), 80, Payload::Random).unwrap();
            assert_eq!(f.lsb_first, lsb, "{crc}");
            let alg = f.checks[1].crc().expect(crc);
            assert_eq!(f.checks[1].little_endian, alg.refout(), "{crc}");
        }
    }

    #[test]
    fn bad_descriptions_name_the_bad_part() {
        let err = |s: &str, bytes| Frame::new(s, bytes, Payload::Random).unwrap_err();
        for (stack, want) in [
            ("ipv6+crc32", "unknown inner layout `ipv6`"),
            ("crc16+crc32", "inner layout `crc16` is a CRC"),
            ("tcp+crc99x", "unknown CRC after `+`"),
            ("tcp+internet", "is the Internet checksum, not a CRC"),
            ("tcp+", "no CRC after `+`"),
            ("+crc32", "no inner layout before `+`"),
            ("tcp+crc32+crc16", "unknown CRC after `+`"),
        ] {
            let e = err(stack, 200);
            assert!(matches!(e, Error::BadStack { .. }), "{stack}: {e:?}");
            let m = e.to_string();
            assert!(m.contains(want) && !m.contains('\n'), "{stack}: {m}");
        }
        for (stack, bytes, want) in [
            ("ipv4-tcp+crc32", 43, "needs at least 44 bytes"),
            ("ethernet-tcp+CRC-16/ARC", 55, "needs at least 56 bytes"),
            ("internet+crc16", 7, "even number of bytes"),
            ("internet+crc16", 5, "needs at least 6 bytes"),
            ("random+crc32", 4, "needs at least 5 bytes"),
            ("ethernet-tcp", 4, "needs at least 58 bytes"),
            ("ipv4-tcp+crc32", 65540, "at most 65535 bytes"),
        ] {
            let e = err(stack, bytes);
            assert!(matches!(e, Error::BadLength(_)), "{stack}: {e:?}");
            assert!(e.to_string().contains(want), "{stack}: {e}");
        }
    }

    #[test]
    fn bad_layouts_are_refused() {
        assert!(Frame::new("ethernet-tcp", 57, Payload::Random).is_err());
        assert!(Frame::new("internet", 7, Payload::Random).is_err());
        // Bare checks resolve through the one name table of checks.
        for (alias, name) in [
            ("adler", "Adler-32"),
            ("Adler-32", "Adler-32"),
            ("inet", "Internet"),
            ("fletcher_16", "Fletcher-16"),
            ("crc32c", "CRC-32/ISCSI"),
        ] {
            let f = Frame::new(alias, 64, Payload::Random).unwrap();
            assert_eq!(f.checks[0].name, name, "{alias}");
        }
        assert!(Frame::new("nonsense-check", 70, Payload::Random).is_err());
        assert!(Frame::new("ethernet", 64, Payload::Fixed(vec![])).is_err());
    }
}
