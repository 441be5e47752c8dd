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
//!   ([`crate::joint`]) refuses them with its reason.
//!
//! **Checks.** Each check of a frame is a [`CheckDef`]: *what* it computes
//! is its [`CheckSpec`](crate::check::CheckSpec), a value of the one name table of checks
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
//! A description that cannot be read is refused with [`Error::BadStack`](crate::Error::BadStack)
//! naming the bad part (`unknown inner layout`, `unknown CRC after +`, a
//! checksum where the CRC goes); a frame too short for the layout with
//! [`Error::BadLength`](crate::Error::BadLength).
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

mod builtin;
mod check;
mod frame;
mod spec;

pub use check::CheckDef;
pub(crate) use check::crc_value;
#[cfg(feature = "unit-tests")]
use check::internet_sum;
pub use frame::{Frame, Payload};
pub use spec::{Inner, StackSpec};

#[cfg(feature = "unit-tests")]
#[doc(hidden)]
pub mod tests {
    use super::builtin::{IP_DST, IP_SRC};
    use super::*;
    use crate::check::Check;
    use crate::checksum::Internet;
    use crate::checksum::ones_complement_sum;
    use crate::{Error, catalogue};

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

    pub fn internet_sum_matches_core() {
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

    pub fn filled_frames_verify_and_match_reference_implementations() {
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

    pub fn built_in_stacks_are_their_descriptions_byte_for_byte() {
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

    pub fn wire_order_and_field_follow_the_crc() {
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

    pub fn bad_descriptions_name_the_bad_part() {
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

    pub fn bad_layouts_are_refused() {
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
