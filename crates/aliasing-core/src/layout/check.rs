//! One check of a frame ([`CheckDef`]): what it computes and where it
//! sits; its value over the frame's bytes ([`crc_value`],
//! [`internet_sum`]) and the field's byte order.

use crate::check::{Check, CheckSpec};
use crate::checksum::{Adler32, Fletcher16, Fletcher32};
use crate::crc::CrcAlgorithm;

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
#[non_exhaustive]
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
    pub(super) fn value_at(
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
    pub(super) fn internet(
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
    #[inline]
    pub(super) fn value(&self, data: &[u8]) -> u64 {
        match &self.spec {
            CheckSpec::Crc(alg) => crc_value(alg, data),
            CheckSpec::Fletcher16 => Fletcher16.compute(data),
            CheckSpec::Fletcher32 => Fletcher32.compute(data),
            CheckSpec::Adler32 => Adler32.compute(data),
            CheckSpec::Internet => unreachable!("the Internet checksum is verified by its ranges"),
        }
    }
}

pub(super) fn store(dst: &mut [u8], v: u64, little_endian: bool) {
    let l = dst.len();
    for (j, d) in dst.iter_mut().enumerate() {
        let sh = if little_endian { j } else { l - 1 - j };
        *d = (v >> (8 * sh)) as u8;
    }
}

pub(super) fn load(src: &[u8], little_endian: bool) -> u64 {
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
pub(crate) fn crc_value(alg: &CrcAlgorithm, data: &[u8]) -> u64 {
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
pub(crate) fn internet_sum(frame: &[u8], ranges: &[(usize, usize)], constant: u16) -> u16 {
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
