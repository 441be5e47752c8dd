//! The dense engine: build each frame's real bytes (payload, headers, check
//! fields as a sender fills them in), flip the error bits, and recompute every
//! check as a receiver would (`crc32fast` for the Ethernet FCS). It is the
//! reference for every check; the sparse engine must agree with it frame by
//! frame. Every frame is built (payload and sender-side checks); a frame
//! without errors passes by construction and is no escape, so the receiver
//! side runs only on frames with errors.

use crate::stack::{Frame, Payload};
use crate::stream::{frame_key, payload_word};

/// Builds frames of a layout.
pub struct Dense<'a> {
    frame: &'a Frame,
    seed: u64,
    /// Checks whose field must be recomputed per frame (they cover random bytes).
    varying_checks: Vec<usize>,
}

impl<'a> Dense<'a> {
    /// The dense builder for `frame` with payload seed `seed`.
    pub fn new(frame: &'a Frame, seed: u64) -> Self {
        let varying_checks = (0..frame.checks.len())
            .filter(|&i| frame.varies[frame.checks[i].field])
            .collect();
        Dense {
            frame,
            seed,
            varying_checks,
        }
    }

    /// Writes the sent bytes of frame number `index` into `buf` (`frame.bytes` long).
    #[inline]
    pub fn build(&self, index: u64, buf: &mut [u8]) {
        let f = self.frame;
        buf.copy_from_slice(&f.template);
        if f.payload == Payload::Random {
            fill_random(
                frame_key(self.seed, index),
                &mut buf[f.random.0..f.random.1],
            );
        }
        for &i in &self.varying_checks {
            f.fill_field(i, buf);
        }
    }

    /// Flips the bits `flips` (transmission order) of `buf`.
    #[inline]
    pub fn flip(&self, buf: &mut [u8], flips: &[u32]) {
        self.frame.flip(buf, flips);
    }

    /// Bit `i` set when check `i` passes on the received `buf`.
    #[inline]
    pub fn verdict(&self, buf: &[u8]) -> u64 {
        let mut pass = 0u64;
        for i in 0..self.frame.checks.len() {
            if self.frame.verify(i, buf) {
                pass |= 1 << i;
            }
        }
        pass
    }

    /// Builds frame `index`, flips `flips` and returns the pass mask.
    pub fn evaluate(&self, index: u64, flips: &[u32], buf: &mut [u8]) -> u64 {
        self.build(index, buf);
        self.flip(buf, flips);
        self.verdict(buf)
    }
}

/// Fills `dst` with the random payload of the frame with key `key`.
#[inline]
pub(crate) fn fill_random(key: u64, dst: &mut [u8]) {
    let mut chunks = dst.chunks_exact_mut(8);
    let mut w = 0u64;
    for c in &mut chunks {
        c.copy_from_slice(&payload_word(key, w).to_le_bytes());
        w += 1;
    }
    let rest = chunks.into_remainder();
    if !rest.is_empty() {
        let last = payload_word(key, w).to_le_bytes();
        let n = rest.len();
        rest.copy_from_slice(&last[..n]);
    }
}

/// Byte `j` of the random payload of the frame with key `key`.
#[inline(always)]
pub(crate) fn random_byte(key: u64, j: usize) -> u8 {
    (payload_word(key, (j / 8) as u64) >> (8 * (j % 8))) as u8
}
