//! Arithmetic checksums: the Internet checksum (RFC 1071, with an optional
//! TCP/UDP pseudo-header), Fletcher-16, Fletcher-32 and Adler-32.
//!
//! Each implements [`Check`], like the CRCs, so stacks of checks and the
//! simulator treat them alike. Exact escape probabilities live elsewhere;
//! this module only computes the checks.
//!
//! ```
//! use aliasing_core::checksum::{Internet, Fletcher16, Adler32};
//! use aliasing_core::check::Check;
//! // RFC 1071 section 3 example: the sum is 0xDDF2, the checksum its complement.
//! assert_eq!(Internet::new().compute(&[0x00, 0x01, 0xf2, 0x03, 0xf4, 0xf5, 0xf6, 0xf7]), 0x220D);
//! assert_eq!(Fletcher16.compute(b"abcde"), 0xC8F0);
//! assert_eq!(Adler32.compute(b"Wikipedia"), 0x11E6_0398);
//! ```

use crate::check::Check;

/// Ones'-complement sum (end-around carry) of big-endian 16-bit words; an odd
/// trailing byte is padded with a zero byte (RFC 1071). Returns the folded
/// 16-bit sum, not its complement. `initial` is a folded sum to continue from.
pub fn ones_complement_sum(data: &[u8], initial: u16) -> u16 {
    let mut sum: u64 = initial as u64;
    let mut chunks = data.chunks_exact(2);
    for c in &mut chunks {
        sum += u16::from_be_bytes([c[0], c[1]]) as u64;
    }
    if let [last] = chunks.remainder() {
        sum += (*last as u64) << 8;
    }
    while sum > 0xFFFF {
        sum = (sum & 0xFFFF) + (sum >> 16);
    }
    sum as u16
}

/// The Internet checksum of RFC 1071 (IP, TCP, UDP, ICMP), optionally over a
/// pseudo-header first (TCP and UDP sum a pseudo-header of addresses,
/// protocol and length before the segment).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Internet {
    pseudo_header: Vec<u8>,
}

impl Internet {
    /// The plain checksum over the data alone.
    pub fn new() -> Self {
        Internet::default()
    }

    /// The checksum with `pseudo_header` summed before the data.
    pub fn with_pseudo_header(pseudo_header: &[u8]) -> Self {
        Internet {
            pseudo_header: pseudo_header.to_vec(),
        }
    }

    /// The IPv4 TCP pseudo-header: source, destination, zero, protocol 6, TCP length.
    pub fn tcp_ipv4(src: [u8; 4], dst: [u8; 4], tcp_length: u16) -> Self {
        let mut ph = Vec::with_capacity(12);
        ph.extend_from_slice(&src);
        ph.extend_from_slice(&dst);
        ph.extend_from_slice(&[0, 6]);
        ph.extend_from_slice(&tcp_length.to_be_bytes());
        Internet { pseudo_header: ph }
    }

    /// The pseudo-header summed before the data (empty for the plain checksum).
    pub fn pseudo_header(&self) -> &[u8] {
        &self.pseudo_header
    }
}

impl Check for Internet {
    fn name(&self) -> String {
        if self.pseudo_header.is_empty() {
            "Internet".into()
        } else {
            "Internet+pseudo-header".into()
        }
    }
    fn check_bits(&self) -> u32 {
        16
    }
    fn compute(&self, data: &[u8]) -> u64 {
        // The pseudo-header has an even length in every protocol that uses one;
        // summing it first is then the same as summing the concatenation.
        let s = ones_complement_sum(&self.pseudo_header, 0);
        (!ones_complement_sum(data, s)) as u64
    }
}

/// Fletcher-16: two running sums of bytes modulo 255; `sum2 << 8 | sum1`.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Fletcher16;

impl Check for Fletcher16 {
    fn name(&self) -> String {
        "Fletcher-16".into()
    }
    fn check_bits(&self) -> u32 {
        16
    }
    fn compute(&self, data: &[u8]) -> u64 {
        let (mut a, mut b) = (0u32, 0u32);
        // 5802 bytes keep b below 2^32 before reduction
        for chunk in data.chunks(5802) {
            for &x in chunk {
                a += x as u32;
                b += a;
            }
            a %= 255;
            b %= 255;
        }
        ((b << 8) | a) as u64
    }
}

/// Fletcher-32: two running sums of 16-bit words modulo 65535; words are read
/// little-endian (as on the common reference implementation over `uint16_t`
/// arrays on x86), an odd trailing byte padded with zero; `sum2 << 16 | sum1`.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Fletcher32;

impl Check for Fletcher32 {
    fn name(&self) -> String {
        "Fletcher-32".into()
    }
    fn check_bits(&self) -> u32 {
        32
    }
    fn compute(&self, data: &[u8]) -> u64 {
        let (mut a, mut b) = (0u64, 0u64);
        let mut words = data.chunks(2).map(|c| {
            let lo = c[0] as u64;
            let hi = c.get(1).copied().unwrap_or(0) as u64;
            lo | (hi << 8)
        });
        loop {
            let mut n = 0;
            for w in words.by_ref().take(359) {
                a += w;
                b += a;
                n += 1;
            }
            a %= 65535;
            b %= 65535;
            if n < 359 {
                break;
            }
        }
        (b << 16) | a
    }
}

/// Adler-32 (RFC 1950): `a = 1 + sum of bytes`, `b = sum of a`, modulo 65521.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Adler32;

impl Check for Adler32 {
    fn name(&self) -> String {
        "Adler-32".into()
    }
    fn check_bits(&self) -> u32 {
        32
    }
    fn compute(&self, data: &[u8]) -> u64 {
        const MOD: u64 = 65521;
        let (mut a, mut b) = (1u64, 0u64);
        for chunk in data.chunks(5552) {
            for &x in chunk {
                a += x as u64;
                b += a;
            }
            a %= MOD;
            b %= MOD;
        }
        (b << 16) | a
    }
}

#[cfg(feature = "unit-tests")]
#[doc(hidden)]
pub mod tests {
    use super::*;

    /// Straight from the definitions, with no chunking or deferred reduction.
    fn naive_fletcher(data: &[u8], word: usize, m: u64) -> u64 {
        let (mut a, mut b) = (0u64, 0u64);
        for c in data.chunks(word) {
            let mut v = 0u64;
            for (i, &x) in c.iter().enumerate() {
                v |= (x as u64) << (8 * i);
            }
            a = (a + v) % m;
            b = (b + a) % m;
        }
        (b << (8 * word)) | a
    }

    fn naive_internet(data: &[u8]) -> u64 {
        let mut s = 0u64;
        for c in data.chunks(2) {
            let w = ((c[0] as u64) << 8) | c.get(1).copied().unwrap_or(0) as u64;
            s += w;
            if s > 0xFFFF {
                s -= 0xFFFF;
            }
        }
        !s & 0xFFFF
    }

    pub fn published_vectors() {
        // RFC 1071 section 3 numerical example.
        let d = [0x00, 0x01, 0xf2, 0x03, 0xf4, 0xf5, 0xf6, 0xf7];
        assert_eq!(ones_complement_sum(&d, 0), 0xDDF2);
        // Fletcher test vectors as published with the algorithm's description
        // (e.g. the Wikipedia article "Fletcher's checksum").
        assert_eq!(Fletcher16.compute(b"abcde"), 0xC8F0);
        assert_eq!(Fletcher16.compute(b"abcdef"), 0x2057);
        assert_eq!(Fletcher16.compute(b"abcdefgh"), 0x0627);
        assert_eq!(Fletcher32.compute(b"abcde"), 0xF04F_C729);
        assert_eq!(Fletcher32.compute(b"abcdef"), 0x5650_2D2A);
        assert_eq!(Fletcher32.compute(b"abcdefgh"), 0xEBE1_9591);
        // Adler-32 of "Wikipedia" (RFC 1950 algorithm; widely quoted value).
        assert_eq!(Adler32.compute(b"Wikipedia"), 0x11E6_0398);
        assert_eq!(Adler32.compute(b""), 1);
        // Further Adler-32 vectors as commonly published with RFC 1950
        // implementations, each cross-checked against zlib's adler32 (Python's
        // zlib module), an independent implementation.
        assert_eq!(Adler32.compute(b"a"), 0x0062_0062);
        assert_eq!(Adler32.compute(b"abc"), 0x024D_0127);
        assert_eq!(Adler32.compute(b"message digest"), 0x2975_0586);
        assert_eq!(Adler32.compute(b"abcdefghijklmnopqrstuvwxyz"), 0x9086_0B20);
        assert_eq!(Adler32.compute(b"123456789"), 0x091E_01DE);
        // 5120 bytes 0..=255 repeated: crosses no 5552-byte block but sums past 2^16 often
        let long: Vec<u8> = (0..5120u32).map(|i| i as u8).collect();
        assert_eq!(Adler32.compute(&long), 0x23C4_F688);
    }

    pub fn fast_paths_match_definitions_on_long_inputs() {
        let mut x = 7u64;
        for len in [
            0usize, 1, 2, 3, 717, 718, 5802, 5803, 11_604, 20_001, 65_536,
        ] {
            let buf: Vec<u8> = (0..len)
                .map(|_| {
                    x = x.wrapping_mul(6364136223846793005).wrapping_add(1);
                    if len % 2 == 0 { 0xFF } else { (x >> 56) as u8 }
                })
                .collect();
            assert_eq!(
                Fletcher16.compute(&buf),
                naive_fletcher(&buf, 1, 255),
                "{len}"
            );
            assert_eq!(
                Fletcher32.compute(&buf),
                naive_fletcher(&buf, 2, 65535),
                "{len}"
            );
            assert_eq!(Internet::new().compute(&buf), naive_internet(&buf), "{len}");
            let (mut a, mut b) = (1u64, 0u64);
            for &v in &buf {
                a = (a + v as u64) % 65521;
                b = (b + a) % 65521;
            }
            assert_eq!(Adler32.compute(&buf), (b << 16) | a, "{len}");
        }
    }

    pub fn internet_checksum_verifies_with_its_field_in_place() {
        // A segment whose checksum field is filled in sums to 0xFFFF, including
        // the pseudo-header.
        let ph = Internet::tcp_ipv4([10, 0, 0, 1], [10, 0, 0, 2], 24);
        let mut seg: Vec<u8> = (0u8..24).map(|i| i.wrapping_mul(37)).collect();
        seg[16] = 0;
        seg[17] = 0;
        let c = ph.compute(&seg) as u16;
        seg[16..18].copy_from_slice(&c.to_be_bytes());
        let s = ones_complement_sum(ph.pseudo_header(), 0);
        assert_eq!(ones_complement_sum(&seg, s), 0xFFFF);
    }
}
