//! A frame of a stack ([`Frame`]): its checks in the order a sender fills
//! them in, fixed bytes, payload range and wire bit order; filling,
//! verifying and flipping bits on the wire.

use super::builtin::{bare_check, body, fcs, stacked, too_short};
use super::check::{CheckDef, internet_sum, load, store};
use super::spec::{Inner, StackSpec};
use crate::{Error, Result};

/// What the payload bytes are.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Payload {
    /// Fresh random bytes in every frame (a counter-based hash of seed and frame index).
    Random,
    /// The same bytes in every frame: the pattern repeated (or truncated) to
    /// the payload length (a fixed pattern, or a file's bytes).
    Fixed(Vec<u8>),
}

/// A frame layout: length, checks (in the order a sender fills them in),
/// fixed bytes, the random payload range and the bit order on the wire.
#[derive(Debug, Clone)]
#[non_exhaustive]
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
