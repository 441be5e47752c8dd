//! The built-in layouts: the Ethernet FCS, the IPv4 and TCP headers with
//! their checksums, the inner layouts under a CRC, and a bare check after
//! random data.

use super::check::CheckDef;
use super::spec::Inner;
use crate::check::CheckSpec;
use crate::checksum::ones_complement_sum;
use crate::crc::CrcAlgorithm;
use crate::{Error, Result, catalogue};

pub(super) const MAC_DST: [u8; 6] = [0x02, 0, 0, 0, 0, 0x02];
pub(super) const MAC_SRC: [u8; 6] = [0x02, 0, 0, 0, 0, 0x01];
pub(super) const IP_SRC: [u8; 4] = [10, 0, 0, 1];
pub(super) const IP_DST: [u8; 4] = [10, 0, 0, 2];

pub(super) fn tcp_header() -> [u8; 20] {
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

pub(super) fn pseudo_constant(tcp_len: usize) -> u16 {
    ones_complement_sum(&[0, 6, (tcp_len >> 8) as u8, tcp_len as u8], 0)
}

pub(super) fn too_short(stack: &str, bytes: usize, min: usize) -> Error {
    Error::BadLength(format!(
        "stack `{stack}` needs at least {min} bytes per frame, got {bytes}"
    ))
}

pub(super) fn fcs(bytes: usize) -> CheckDef {
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

/// The layout of a bare check: random data followed by the check value
/// (checks, random range, bit order).
pub(super) type Layout = (Vec<CheckDef>, (usize, usize), bool);

pub(super) fn bare_check(stack: &str, bytes: usize, spec: CheckSpec) -> Result<Layout> {
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
pub(super) fn stacked(
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
pub(super) fn body(
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
pub(super) fn ipv4_tcp(t: &mut [u8], at: usize, m: usize, extra: usize) -> Result<Vec<CheckDef>> {
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
