//! The sparse engine: the verdict of a frame from its error positions alone.
//!
//! A CRC is affine, `crc(d ^ e) = crc(d) ^ S(e)`, so it passes iff the XOR
//! of a per-position table over the flipped bits is zero (the table holds
//! each data bit's syndrome and each stored check bit's own value). An
//! Internet checksum changes by `+2^k` or `-2^k` per flip, the sign given by
//! the sent data bit, which the sparse engine reads from the payload hash or
//! the fixed header without building the frame. Anything else (Fletcher,
//! Adler, a flip inside a checksum field computed over random bytes, a
//! possible all-zero ones'-complement sum) falls back to the dense engine for
//! that frame only, so verdicts are always those of the dense engine.

use crate::dense::{Dense, random_byte};
use crate::stack::{Frame, Payload};
use crate::stream::frame_key;
use aliasing_core::__private::poly::reflect;
use aliasing_core::layout::CheckDef;

/// Per-position tables of a frame layout.
pub struct Sparse<'a> {
    frame: &'a Frame,
    dense: Dense<'a>,
    seed: u64,
    crcs: Vec<(usize, Vec<u64>)>,
    internets: Vec<Internet>,
    any_generic: bool,
    all_mask: u64,
}

struct Internet {
    check: usize,
    /// Per byte: 8 for the high byte of a word, 0 for the low byte, 0xFF not covered.
    base: Vec<u8>,
    /// The sum can only come out all-zero when the pseudo-header constant is 0.
    zero_possible: bool,
}

/// Syndrome contributions of every bit of the CRC check `c` of `frame` (its
/// data range and field; 0 elsewhere), by byte index and bit position (bit
/// value `1 << j`): `table[8 * byte + j]`. Panics if `c` is not a CRC.
#[doc(hidden)]
pub fn crc_bit_table(frame: &Frame, c: &CheckDef) -> Vec<u64> {
    let alg = c.crc().expect("a CRC check");
    let (frame_bytes, data, field, field_len) = (frame.bytes, c.data, c.field, c.field_len);
    let w = alg.width();
    let mask = alg.generator().mask();
    let poly = alg.generator().normal();
    let top = 1u64 << (w - 1);
    let mut t = vec![0u64; frame_bytes * 8];
    let len_bits = (data.1 - data.0) * 8;
    // Feeding a 1 into the zero register gives `poly`; each later zero bit shifts.
    let mut reg = poly & mask;
    for d in 0..len_bits {
        let q = len_bits - 1 - d; // feed index of this bit
        let byte = data.0 + q / 8;
        let j = if alg.refin() { q % 8 } else { 7 - q % 8 };
        t[8 * byte + j] = if alg.refout() { reflect(reg, w) } else { reg };
        let fb = reg & top != 0;
        reg = (reg << 1) & mask;
        if fb {
            reg ^= poly;
        }
    }
    for jb in 0..field_len {
        let sh = if c.little_endian {
            jb
        } else {
            field_len - 1 - jb
        };
        for j in 0..8 {
            t[8 * (field + jb) + j] = 1u64 << (8 * sh + j);
        }
    }
    t
}

/// [`crc_bit_table`] in transmission order: `table[t]` is the change of the
/// check's syndrome when wire bit `t` flips ([`Frame::bit_at`]).
pub(crate) fn crc_wire_table(frame: &Frame, c: &CheckDef) -> Vec<u64> {
    let by_byte = crc_bit_table(frame, c);
    (0..frame.n_bits() as u32)
        .map(|t| {
            let (b, m) = frame.bit_at(t);
            by_byte[8 * b + m.trailing_zeros() as usize]
        })
        .collect()
}

impl<'a> Sparse<'a> {
    /// Tables for `frame`, payload seed `seed`.
    pub fn new(frame: &'a Frame, seed: u64) -> Self {
        let mut crcs = Vec::new();
        let mut internets = Vec::new();
        let mut any_generic = false;
        for (i, c) in frame.checks.iter().enumerate() {
            if c.crc().is_some() {
                crcs.push((i, crc_wire_table(frame, c)));
            } else if c.is_internet() {
                let mut base = vec![0xFFu8; frame.bytes];
                let mut off = 0usize;
                for &(a, b) in &c.ranges {
                    for (k, x) in base[a..b].iter_mut().enumerate() {
                        *x = if (off + k).is_multiple_of(2) { 8 } else { 0 };
                    }
                    off += b - a;
                }
                internets.push(Internet {
                    check: i,
                    base,
                    zero_possible: c.constant == 0,
                });
            } else {
                any_generic = true;
            }
        }
        let n = frame.checks.len();
        Sparse {
            frame,
            dense: Dense::new(frame, seed),
            seed,
            crcs,
            internets,
            any_generic,
            all_mask: if n == 64 { u64::MAX } else { (1u64 << n) - 1 },
        }
    }

    /// Pass mask (bit `i` set when check `i` passes) of frame `index` with
    /// errors `flips` (transmission order, non-empty). `buf` is scratch space
    /// of `frame.bytes` bytes for the rare dense fallback.
    // Forced inline: the per-frame loop of the `per_frame_syndrome_loop_1e7`
    // bench stopped inlining it once a second loop of the bench crate called
    // it, and paid a call per frame (+20%).
    #[inline(always)]
    pub fn verdict(&self, index: u64, flips: &[u32], buf: &mut Vec<u8>) -> u64 {
        if self.any_generic {
            return self.fallback(index, flips, buf);
        }
        let mut pass = 0u64;
        for (i, table) in &self.crcs {
            let mut s = 0u64;
            for &t in flips {
                s ^= table[t as usize];
            }
            if s == 0 {
                pass |= 1 << i;
            }
        }
        if !self.internets.is_empty() {
            let f = self.frame;
            let key = frame_key(self.seed, index);
            let random = f.payload == Payload::Random;
            for c in &self.internets {
                let mut delta: i64 = 0;
                let mut touched = false;
                for &t in flips {
                    let (b, m) = f.bit_at(t);
                    let base = c.base[b];
                    if base == 0xFF {
                        continue;
                    }
                    let in_random = b >= f.random.0 && b < f.random.1;
                    let byte = if random && in_random {
                        random_byte(key, b - f.random.0)
                    } else if f.varies[b] {
                        // a check field computed over random bytes: build the frame
                        return self.fallback(index, flips, buf);
                    } else {
                        f.template[b]
                    };
                    touched = true;
                    let k = base as u32 + m.trailing_zeros();
                    if byte & m == 0 {
                        delta += 1 << k;
                    } else {
                        delta -= 1 << k;
                    }
                }
                if delta.rem_euclid(65535) == 0 {
                    // untouched ranges keep their sum; otherwise an all-zero
                    // received range (sum 0, not 0xFFFF) needs the real bytes
                    if c.zero_possible && touched {
                        return self.fallback(index, flips, buf);
                    }
                    pass |= 1 << c.check;
                }
            }
        }
        pass
    }

    fn fallback(&self, index: u64, flips: &[u32], buf: &mut Vec<u8>) -> u64 {
        buf.resize(self.frame.bytes, 0);
        self.dense.evaluate(index, flips, buf)
    }

    /// The mask with every check passing.
    pub fn all_pass(&self) -> u64 {
        self.all_mask
    }
}
