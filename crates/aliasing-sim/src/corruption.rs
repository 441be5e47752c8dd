//! Corruption inside hosts and routers: the exact probability that the TCP
//! checksum misses an error made after one link's FCS was checked and before
//! the next link's FCS is computed, over uniformly random data or over the
//! user's own data.
//!
//! # The segment
//!
//! A *segment* is one TCP segment as the checksum covers it: the TCP header
//! (20 bytes or more, an even number), the checksum field, and the segment's
//! *data* (`segment_bytes` bytes of the transfer, the TCP payload of one
//! frame), summed after the pseudo-header. **Every model corrupts the data
//! bytes only**; header, field and pseudo-header are unchanged, so they drop
//! out: a corruption is missed iff it changes the data and leaves the
//! ones'-complement sum of the data unchanged modulo 65535 (the end-around
//! carry makes the sum arithmetic modulo 65535, with `2^16 == 1`). The data
//! starts at an even offset of the segment, so its 16-bit words are the
//! checksum's words: byte `2i` is the high byte (weight 256), byte `2i+1`
//! the low byte (weight 1); an odd last byte is the high byte of a word
//! whose pad byte is zero and never transmitted, so never corrupted. Bit
//! order: stream bit `j` of the data is bit `7 - j % 8` of byte `j / 8` (the
//! most significant first), column `15 - j % 16` of its word.
//!
//! # The models ([`Model`])
//!
//! - `bits:P`: each data bit flips independently with probability `P`;
//!   `p_miss` is conditioned on at least one flip (`P_ud / P_err`; 0 at
//!   `P = 0`, the limit).
//! - `word`: one of the segment's `ceil(len/2)` data words, chosen
//!   uniformly, is replaced by one of the 65,535 values that differ from it,
//!   uniformly. A full word is missed iff `{old, new} = {0x0000, 0xFFFF}`,
//!   so per segment `p_miss = (full words equal to 0x0000 or 0xFFFF) /
//!   (ceil(len/2) * 65535)`. The half word of an odd-length segment has its
//!   transmitted byte replaced by one of the 255 others; that changes the
//!   sum by a non-zero multiple of 256 smaller than 65535, never missed.
//! - `burst:B`: `B` consecutive stream bits at a uniformly chosen start
//!   (`0..=8 len - B`) are replaced by a uniformly random `B`-bit value that
//!   differs from them. As a window value `V` (most significant first), the
//!   change of the sum is `2^e (V' - V)` for a unit `2^e`, so the burst is
//!   missed iff `V' == V mod 65535`: never for `B <= 15`, only for
//!   `{0x0000, 0xFFFF}` at `B = 16`; for longer bursts the count of such
//!   `V'` depends only on `V mod 65535`. A segment shorter than `B` bits
//!   (only the last segment of a file can be) cannot take the burst and is
//!   left out of the average.
//! - `splice:C`: the data from a uniformly chosen cell boundary `k C`
//!   (`k = 0 .. ceil(len/C) - 1`; boundary 0 replaces all the data, the
//!   header being kept) onward is replaced by the bytes at the same offsets
//!   of the *next* segment of the transfer; offsets the next segment does
//!   not have (it is the shorter last one) keep their bytes. The last
//!   segment of a transfer is spliced with the *first* (the transfer seen as
//!   a cycle; a one-segment transfer is spliced with itself). A splice that
//!   leaves the bytes as they were is no corruption and no miss, but it
//!   counts as a hit: `p_miss = P(the bytes change and the sum does not)`,
//!   so `escapes = frames x rate x p_miss` holds with the rate of splices.
//!   Over uniform data the next segment is independent uniform data of the
//!   same length.
//!
//! # Over a file ([`file()`], [`given`])
//!
//! The file is cut into segments of `segment_bytes` (the last one partial),
//! every segment equally likely to be hit: `p_miss` is the mean of the
//! segments' values. Per segment the value is a ratio of integers whose
//! denominator depends only on the segment's length (`word`, `burst`,
//! `splice`), so the file's numerators are summed exactly as integers; for
//! `bits` the per-segment values are summed exactly
//! ([`crate::exact_sum::ExactSum`]). The result therefore has the same
//! digits for any thread count and chunk size. A file is read in chunks of
//! about [`CHUNK_BYTES`] (bounded memory whatever its size), the segments of
//! a chunk in parallel.
//!
//! # For `alias transfer --corruption MODEL:RATE --payload FILE`
//!
//! Parse every `--corruption` with [`Corruption::from_str`] and check each
//! model against the segment size with [`Model::check`] (both before any
//! work; with `--payload`, [`open_payload`] refuses a missing, empty or
//! special file). Then, per segment size (TCP payload bytes per frame):
//! [`file()`] with all the models at once (one pass over the file), or
//! [`uniform`] per model without `--payload`; optionally [`with_digest`]
//! for an end-to-end CRC on top of TCP ([`Digest::resolve`]); and
//! [`Corruption::point`] with the transfer's frame count gives the JSON
//! entry [`CorruptionPoint`] (`model`, `rate`, `p_miss`, `escapes`,
//! `method`).
//!
//! # Syntax ([`Corruption`])
//!
//! `MODEL:RATE`, where the model's own parameters come first and the number
//! of fields fixes the meaning: `word:RATE`, `burst:B:RATE`,
//! `splice:C:RATE`, `bits:P:RATE`, and `bits:P` alone, where the rate is
//! implied: the probability that at least one data bit flips.
//!
//! ```
//! use aliasing_sim::corruption::{Corruption, Model, given, uniform};
//! let c: Corruption = "word:1e-6".parse().unwrap();
//! assert_eq!(c.model, Model::Word);
//! // uniform data: 2 / 65536 of the words can be missed, each by 1 of 65535 values
//! let u = uniform(&Model::Word, 1460).unwrap();
//! assert_eq!(u.p_miss, 2.0 / 65536.0 / 65535.0);
//! // all-zero data: every word can
//! let z = given(&vec![0u8; 3 * 1460], 1460, &[Model::Word]).unwrap();
//! assert_eq!(z[0].p_miss, 1.0 / 65535.0);
//! ```

use crate::exact_sum::ExactSum;
use aliasing_core::bsc;
use aliasing_core::internet;
use aliasing_core::progress::{Progress, Silent};
use aliasing_core::{Error, Result};
use rayon::prelude::*;
use serde::{Deserialize, Serialize};
use std::collections::HashMap;
use std::fmt;
use std::path::Path;
use std::str::FromStr;

/// The modulus of the ones'-complement sum.
const M: u64 = 65535;

/// About how many bytes [`file()`] reads at once (a whole number of segments).
pub const CHUNK_BYTES: usize = 64 << 20;

/// How a segment's data is corrupted once (see the module docs for each
/// model's exact definition).
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Model {
    /// Every data bit flips independently with probability `p`.
    Bits {
        /// Probability that a bit flips, in `[0, 1]`.
        p: f64,
    },
    /// One aligned data word is replaced by one of the 65,535 other values.
    Word,
    /// `bits` consecutive bits are replaced by a different random value.
    Burst {
        /// Burst length in bits, at least 1.
        bits: u32,
    },
    /// The data from a cell boundary onward comes from the next segment.
    Splice {
        /// Cell size in bytes, at least 1 (48 for ATM cells).
        cell: u64,
    },
}

fn bad(s: impl Into<String>) -> Error {
    Error::Invalid(s.into())
}

/// A probability in `[0, 1]` named `what` (`rate`, `bit flip probability`).
fn parse_probability(text: &str, what: &str, spec: &str) -> Result<f64> {
    let v: f64 = text.trim().parse().map_err(|_| {
        bad(format!(
            "corruption `{spec}`: {what} `{text}` is not a number"
        ))
    })?;
    if !(0.0..=1.0).contains(&v) {
        return Err(bad(format!(
            "corruption `{spec}`: {what} {text} is outside [0, 1]"
        )));
    }
    Ok(v)
}

fn parse_count(text: &str, what: &str, spec: &str) -> Result<u64> {
    let v: u64 = text.trim().parse().map_err(|_| {
        bad(format!(
            "corruption `{spec}`: {what} `{text}` is not a whole number"
        ))
    })?;
    if v == 0 {
        return Err(bad(format!("corruption `{spec}`: {what} is 0")));
    }
    Ok(v)
}

/// Splits `spec` into its model and the fields left after the model's own
/// parameters.
fn parse_model<'a>(fields: &[&'a str], spec: &str) -> Result<(Model, Vec<&'a str>)> {
    let name = fields[0].trim().to_ascii_lowercase();
    let (model, used) = match name.as_str() {
        "word" => (Model::Word, 1),
        "bits" | "burst" | "splice" => {
            let Some(arg) = fields.get(1) else {
                let want = match name.as_str() {
                    "bits" => "bits:P",
                    "burst" => "burst:B",
                    _ => "splice:C",
                };
                return Err(bad(format!(
                    "corruption `{spec}`: give the model as {want}"
                )));
            };
            let m = match name.as_str() {
                "bits" => Model::Bits {
                    p: parse_probability(arg, "bit flip probability", spec)?,
                },
                "burst" => {
                    let b = parse_count(arg, "burst length", spec)?;
                    let bits = u32::try_from(b).map_err(|_| {
                        bad(format!(
                            "corruption `{spec}`: burst length {b} is longer than any segment"
                        ))
                    })?;
                    Model::Burst { bits }
                }
                _ => Model::Splice {
                    cell: parse_count(arg, "cell size", spec)?,
                },
            };
            (m, 2)
        }
        _ => {
            return Err(bad(format!(
                "corruption `{spec}`: unknown model `{}` (bits:P, word, burst:B, splice:C)",
                fields[0]
            )));
        }
    };
    Ok((model, fields[used..].to_vec()))
}

impl FromStr for Model {
    type Err = Error;
    /// `bits:P`, `word`, `burst:B` or `splice:C` (no rate).
    fn from_str(s: &str) -> Result<Self> {
        let fields: Vec<&str> = s.split(':').collect();
        let (model, rest) = parse_model(&fields, s)?;
        if !rest.is_empty() {
            return Err(bad(format!(
                "corruption model `{s}`: unexpected `:{}`",
                rest.join(":")
            )));
        }
        Ok(model)
    }
}

impl fmt::Display for Model {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Model::Bits { p } => write!(f, "bits:{p:e}"),
            Model::Word => write!(f, "word"),
            Model::Burst { bits } => write!(f, "burst:{bits}"),
            Model::Splice { cell } => write!(f, "splice:{cell}"),
        }
    }
}

impl Model {
    /// The checks that need the segment size: a burst longer than a segment
    /// of `segment_bytes` data bytes, a cell larger than it, a segment of 0
    /// bytes. Call before any work.
    pub fn check(&self, segment_bytes: u64) -> Result<()> {
        if segment_bytes == 0 {
            return Err(bad("a segment of 0 data bytes"));
        }
        match *self {
            Model::Burst { bits } if bits as u64 > 8 * segment_bytes => Err(bad(format!(
                "corruption burst:{bits}: a burst of {bits} bits is longer than a segment of {segment_bytes} bytes ({} bits)",
                8 * segment_bytes
            ))),
            Model::Splice { cell } if cell > segment_bytes => Err(bad(format!(
                "corruption splice:{cell}: a cell of {cell} bytes is larger than a segment of {segment_bytes} bytes"
            ))),
            _ => Ok(()),
        }
    }
}

/// A corruption model with the probability that a segment is corrupted
/// once inside a host or router: `MODEL:RATE` (see the module docs).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Corruption {
    /// How the segment is corrupted.
    pub model: Model,
    /// Probability that a segment is corrupted, in `[0, 1]`; `None` only for
    /// `bits:P` written without a rate, where it is the probability that at
    /// least one data bit flips.
    pub rate: Option<f64>,
}

impl FromStr for Corruption {
    type Err = Error;
    /// `word:RATE`, `burst:B:RATE`, `splice:C:RATE`, `bits:P:RATE` or `bits:P`.
    fn from_str(s: &str) -> Result<Self> {
        let fields: Vec<&str> = s.split(':').collect();
        let (model, rest) = parse_model(&fields, s)?;
        let rate = match rest.as_slice() {
            [] if matches!(model, Model::Bits { .. }) => None,
            [] => {
                return Err(bad(format!(
                    "corruption `{s}`: give a rate, {model}:RATE (the probability that a segment is corrupted)"
                )));
            }
            [r] => Some(parse_probability(r, "rate", s)?),
            _ => {
                return Err(bad(format!(
                    "corruption `{s}`: too many fields (MODEL:RATE, e.g. word:1e-6, burst:32:1e-6, bits:1e-7)"
                )));
            }
        };
        Ok(Corruption { model, rate })
    }
}

impl fmt::Display for Corruption {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.rate {
            Some(r) => write!(f, "{}:{r:e}", self.model),
            None => write!(f, "{}", self.model),
        }
    }
}

/// The miss probability of one model over uniform data or a file.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Miss {
    /// The model, as `bits:P`, `word`, `burst:B`, `splice:C`.
    pub model: String,
    /// `P(the TCP checksum passes | the segment was hit)`, the mean over the
    /// segments that can be hit.
    pub p_miss: f64,
    /// Segments averaged over (1 for uniform data).
    pub segments: u64,
    /// `bits` only: the mean over segments of `P(at least one data bit
    /// flips)`, the implied rate.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub p_hit: Option<f64>,
    /// `bits` only: the mean over segments of `P(a flip and a pass)`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub p_undetected: Option<f64>,
    /// How it was computed (exact, and over what data).
    pub method: String,
}

/// One entry of a transfer point's `"corruption"` list (defined with the
/// transfer document).
pub use aliasing_core::document::CorruptionPoint;

impl Corruption {
    /// The transfer point's entry for `frames` segments, from the model's
    /// [`Miss`]. With an implied rate (`bits:P`) the rate is `miss.p_hit`
    /// and `p_miss` the ratio `p_undetected / p_hit` of the segment means,
    /// so that `escapes = frames x mean P(flip and pass)` exactly.
    pub fn point(&self, miss: &Miss, frames: u64) -> CorruptionPoint {
        let (rate, p_miss) = match (self.rate, miss.p_hit, miss.p_undetected) {
            (Some(r), _, _) => (r, miss.p_miss),
            (None, Some(h), Some(u)) => (h, if h > 0.0 { u / h } else { 0.0 }),
            (None, _, _) => (0.0, miss.p_miss),
        };
        let escapes = match (self.rate, miss.p_undetected) {
            (None, Some(u)) => frames as f64 * u,
            _ => frames as f64 * rate * p_miss,
        };
        CorruptionPoint {
            model: miss.model.clone(),
            rate,
            p_miss,
            escapes,
            method: miss.method.clone(),
        }
    }
}

// ---------------------------------------------------------------------------
// Uniformly random data.

/// `num / den` for exact integers, with at most two roundings.
fn ratio(num: u128, den: u128) -> f64 {
    num as f64 / den as f64
}

/// `(q - 1) / (2^B - 1)` and `1 / (2^B - 1)` for `B >= 16`, where
/// `q = floor(2^B / 65535)`: a `B`-bit window with residue `r` has
/// `q - 1 + [r < t]` other values with its residue, `t = 2^(B mod 16)`.
fn burst_terms(b: u32) -> (f64, f64) {
    debug_assert!(b >= 16);
    let t = 1u128 << (b % 16);
    if b <= 100 {
        let two_b = 1u128 << b;
        let q = two_b / M as u128;
        debug_assert_eq!(two_b - q * M as u128, t);
        (ratio(q - 1, two_b - 1), ratio(1, two_b - 1))
    } else {
        // (2^B - t - M) / (M (2^B - 1)) with x = 2^-B; no cancellation: x < 2^-100
        let x = (-(b as f64)).exp2();
        let m = M as f64;
        ((1.0 - (t as f64 + m) * x) / (m * (1.0 - x)), x / (1.0 - x))
    }
}

/// `t = 2^(B mod 16)`: residues below it have one more `B`-bit value.
fn burst_t(b: u32) -> u64 {
    1u64 << (b % 16)
}

/// Exact `P(miss)` of a splice region over uniform data: `m` bytes starting
/// at an odd offset (`odd`), old and new bytes independent and uniform:
/// `P(equal sums mod 65535) - P(equal bytes)`.
fn splice_uniform_region(m: u64, odd: bool) -> f64 {
    // lone bytes: a leading low byte (odd start), a trailing high byte
    let lead = (odd && m > 0) as u64;
    let words = (m - lead) / 2;
    let trail = (m - lead) % 2;
    let lone = lead + trail;
    // Z: the lone bytes' sum. S_Z = P(Z_old == Z_new mod M), I_Z = P(equal lone bytes).
    // Both lone bytes: Z = low + 256 high covers 0..=65535 once, 65535 == 0.
    // All values in units of 2^-32 (S_Z) / 2^-16 (I_Z) below.
    if words == 0 {
        return match lone {
            // a single byte changes the sum by a non-zero multiple < 65535
            0 | 1 => 0.0,
            // like one word: only {0x0000, 0xFFFF}
            _ => 2.0 / 65536.0 / 65536.0,
        };
    }
    // (S_Z, I_Z) as exact dyadic numerators over 2^32 and 2^16
    let (s_num, i_num): (u128, u128) = match lone {
        0 => (1 << 32, 1 << 16),
        1 => (1 << 24, 1 << 8),
        _ => (65538, 1),
    };
    if words <= 2 {
        // p = [(1 - a^2) + M (a^2 S_Z - a I_Z)] / M with a = 2^-16n, the
        // bracket exact (signed: it is positive, its parts are not)
        // a = 2^-a_exp; every term in units of 2^-100 (2^100 stands for 1):
        // a^2 = 2^(100 - 2 a_exp), a^2 S_Z = s_num 2^(100 - 2 a_exp - 32),
        // a I_Z = i_num 2^(100 - a_exp - 16)
        let a_exp = 16 * words as i32;
        let one = 1i128 << 100;
        let sh = |e: i32| -> i128 { 1i128 << e };
        let a2 = sh(100 - 2 * a_exp);
        let a2s = s_num as i128 * sh(100 - 2 * a_exp - 32);
        let ai = i_num as i128 * sh(100 - a_exp - 16);
        let bracket = one - a2 + M as i128 * (a2s - ai);
        debug_assert!(bracket > 0);
        return bracket as f64 / one as f64 / M as f64;
    }
    // a <= 2^-48: every correction is below 2^-32 of the leading 1
    let a = (-(16.0 * words as f64)).exp2();
    let s = s_num as f64 / 4294967296.0;
    let i = i_num as f64 / 65536.0;
    let m = M as f64;
    ((1.0 - a * a) + m * (a * a * s - a * i)) / m
}

/// Exact `p_miss` of `model` for one segment of `segment_bytes` uniformly
/// random data bytes (for `splice`, the next segment too).
///
/// ```
/// use aliasing_sim::corruption::{Model, uniform};
/// assert_eq!(uniform(&Model::Burst { bits: 15 }, 1460).unwrap().p_miss, 0.0);
/// let w = uniform(&Model::Word, 1460).unwrap().p_miss;
/// assert_eq!(uniform(&Model::Burst { bits: 16 }, 1460).unwrap().p_miss, w);
/// ```
pub fn uniform(model: &Model, segment_bytes: u64) -> Result<Miss> {
    model.check(segment_bytes)?;
    let len = segment_bytes;
    let mut p_hit = None;
    let mut p_undetected = None;
    let (p, method) = match *model {
        Model::Word => {
            let full = len / 2;
            let words = len.div_ceil(2);
            // P(word in {0, 0xFFFF}) = 2/65536, then 1 of 65535 values
            let p = ratio(2 * full as u128, words as u128 * 65536) / M as f64;
            (p, "exact: uniform data, closed form".to_string())
        }
        Model::Burst { bits } => {
            let p = if bits < 16 {
                0.0
            } else if bits == 16 {
                2.0 / 65536.0 / 65535.0
            } else {
                // a uniform B-bit window has residue < t with probability (q+1) t / 2^B
                let (a, b) = burst_terms(bits);
                let t = burst_t(bits) as f64;
                let q1 = if bits <= 100 {
                    let two_b = 1u128 << bits;
                    ratio((two_b / M as u128 + 1) * burst_t(bits) as u128, two_b)
                } else {
                    t / M as f64 * (1.0 + (M as f64 - t) * (-(bits as f64)).exp2())
                };
                a + q1 * b
            };
            (p, "exact: uniform data, closed form".to_string())
        }
        Model::Splice { cell } => {
            let cells = len.div_ceil(cell);
            let mut sum = 0.0;
            for k in 0..cells {
                let a = k * cell;
                sum += splice_uniform_region(len - a, a % 2 == 1);
            }
            (
                sum / cells as f64,
                "exact: uniform data, closed form per cell boundary".to_string(),
            )
        }
        Model::Bits { p } => {
            let pud = internet::p_undetected_coins(len, p)?;
            let hit = bsc::p_error(8 * len, p);
            p_hit = Some(hit);
            p_undetected = Some(pud);
            (
                if hit > 0.0 { pud / hit } else { 0.0 },
                "exact: uniform data, Internet checksum carry chain / characteristic function"
                    .to_string(),
            )
        }
    };
    Ok(Miss {
        model: model.to_string(),
        p_miss: p,
        segments: 1,
        p_hit,
        p_undetected,
        method,
    })
}

// ---------------------------------------------------------------------------
// Given data, one segment.

/// Full data words equal to 0x0000 or 0xFFFF.
fn word_count(seg: &[u8]) -> u64 {
    // 4 words per little-endian u64 (a word's two bytes form one 16-bit
    // lane whatever their order): a lane is 0 iff its low 15 bits plus
    // 0x7FFF do not carry into bit 15 and its bit 15 is 0, exactly (no
    // carry crosses lanes); each lane of `acc` counts its zero lanes of
    // x and of !x, at most 2 x 8191 before it is folded
    const LOW: u64 = 0x7FFF_7FFF_7FFF_7FFF;
    let zeros = |x: u64| (!(((x & LOW) + LOW) | x) >> 15) & 0x0001_0001_0001_0001;
    let mut n = 0u64;
    let mut it = seg.chunks_exact(8);
    loop {
        let mut acc = 0u64;
        let mut k = 0;
        for c in it.by_ref().take(8191) {
            let x = u64::from_le_bytes(c.try_into().expect("8 bytes"));
            acc += zeros(x) + zeros(!x);
            k += 1;
        }
        if k == 0 {
            break;
        }
        n += acc.wrapping_mul(0x0001_0001_0001_0001) >> 48;
    }
    for w in it.remainder().chunks_exact(2) {
        n += (w[0] == w[1] && (w[0] == 0 || w[0] == 0xFF)) as u64;
    }
    n
}

/// The weighted byte sum of `b` (not reduced): weight 256 for bytes at even
/// offsets of the segment, 1 at odd ones; `odd` says where `b` starts.
fn wsum(b: &[u8], odd: bool) -> u64 {
    let (mut s, rest) = match (odd, b) {
        (true, [first, rest @ ..]) => (*first as u64, rest),
        _ => (0, b),
    };
    // high bytes and low bytes summed apart (vectorizes)
    let (mut hi, mut lo) = (0u64, 0u64);
    let mut it = rest.chunks_exact(2);
    for w in &mut it {
        hi += w[0] as u64;
        lo += w[1] as u64;
    }
    s += (hi << 8) + lo;
    if let [x] = it.remainder() {
        s += (*x as u64) << 8;
    }
    s
}

/// The last index below `end` where `a` and `b` differ.
fn last_difference(a: &[u8], b: &[u8], end: usize) -> Option<usize> {
    let (a, b) = (&a[..end], &b[..end]);
    let mut hi = end;
    while hi > 0 {
        let lo = hi.saturating_sub(64);
        if a[lo..hi] != b[lo..hi] {
            return (lo..hi).rev().find(|&i| a[i] != b[i]);
        }
        hi = lo;
    }
    None
}

/// Splice boundaries (out of `ceil(len / cell)`) where the bytes change and
/// the sum does not.
fn splice_hits(seg: &[u8], next: &[u8], cell: usize) -> u64 {
    let end = seg.len().min(next.len());
    splice_count(seg, next, end, cell, |a, b| {
        (wsum(&seg[a..b], a % 2 == 1), wsum(&next[a..b], a % 2 == 1))
    })
}

/// [`splice_hits`] for two segments of the same length whose cell sums
/// ([`cell_sums`]) are known.
fn splice_hits_sums(seg: &[u8], next: &[u8], cell: usize, old: &[u64], new: &[u64]) -> u64 {
    debug_assert_eq!(seg.len(), next.len());
    splice_count(seg, next, seg.len(), cell, |a, _| {
        (old[a / cell], new[a / cell])
    })
}

/// The splice count over the bytes below `end`, with `sums(a, b)` the
/// weighted sums of the old and new bytes `a..b` of one cell.
fn splice_count(
    seg: &[u8],
    next: &[u8],
    end: usize,
    cell: usize,
    sums: impl Fn(usize, usize) -> (u64, u64),
) -> u64 {
    let Some(last) = last_difference(seg, next, end) else {
        return 0;
    };
    let mut hits = 0;
    let (mut old, mut new) = (0u64, 0u64);
    let mut k = (end - 1) / cell;
    loop {
        let a = k * cell;
        let (o, n) = sums(a, (a + cell).min(end));
        old += o;
        new += n;
        if a <= last && old % M == new % M {
            hits += 1;
        }
        if k == 0 {
            break;
        }
        k -= 1;
    }
    hits
}

/// The weighted sums ([`wsum`]) of the cells of `seg` into `out`.
fn cell_sums(seg: &[u8], cell: usize, out: &mut [u64]) {
    for (k, c) in seg.chunks(cell).enumerate() {
        out[k] = wsum(c, (k * cell) % 2 == 1);
    }
}

/// Burst starts (out of `8 len - B + 1`) whose window's residue is below
/// `t = 2^(B mod 16)`, for `B >= 16`.
fn burst_low(seg: &[u8], bits: u32) -> u64 {
    let nbits = 8 * seg.len();
    let b = bits as usize;
    let t = burst_t(bits);
    // S(j): the sum of stream bits 0..j, bit i weighted 2^(15 - i mod 16),
    // mod M, for every j (no division: every step adds less than M)
    let reduce = |x: u32| if x >= M as u32 { x - M as u32 } else { x };
    let mut sj = Vec::with_capacity(nbits + 1);
    let mut acc = 0u32; // the sum at the start of the current word
    for c in seg.chunks(2) {
        let w = u16::from_be_bytes([c[0], *c.get(1).unwrap_or(&0)]) as u32;
        for r in 0..16 {
            // the word's top r bits, in place (at most 0xFFFE for r < 16)
            let top = w & !((1u32 << (16 - r)) - 1) & 0xFFFF;
            sj.push(reduce(acc + top));
        }
        acc = reduce(acc + w);
    }
    // S(8 len): for an odd length that is inside the half word, whose pad
    // byte is zero, so the whole word's sum
    sj.truncate(nbits);
    sj.push(acc);
    let mut n = 0u64;
    for s in 0..=nbits - b {
        let hi = sj[s + b];
        let lo = sj[s];
        let d = if hi >= lo {
            hi - lo
        } else {
            hi + M as u32 - lo
        };
        // V = D * 2^((s + B) mod 16) mod M: a rotation of d (< M)
        let v = (d as u16).rotate_left(((s + b) % 16) as u32) as u64;
        n += (v < t) as u64;
    }
    n
}

/// Per-bit column counts of ones and the length: what the given-data
/// `bits:P` value depends on.
type BitsKey = ([u32; 16], usize);

/// Given-data `bits:P` values already computed: `(P_ud, P_err)` by key.
type BitsCache = FastMap<BitsKey, (f64, f64)>;

/// A multiply-rotate hasher for the small integer keys of the `bits:P`
/// caches (SipHash, the default, costs more per segment than a cache hit
/// saves on random data). The keys are computed, not chosen by a peer.
#[derive(Default, Clone, Copy)]
struct FxHasher(u64);

impl FxHasher {
    fn add(&mut self, x: u64) {
        self.0 = (self.0.rotate_left(5) ^ x).wrapping_mul(0x517c_c1b7_2722_0a95);
    }
}

impl std::hash::Hasher for FxHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for c in bytes.chunks(8) {
            let mut b = [0u8; 8];
            b[..c.len()].copy_from_slice(c);
            self.add(u64::from_le_bytes(b));
        }
    }
    fn write_u32(&mut self, x: u32) {
        self.add(x.into());
    }
    fn write_u64(&mut self, x: u64) {
        self.add(x);
    }
    fn write_usize(&mut self, x: usize) {
        self.add(x as u64);
    }
}

/// A hash map keyed through [`FxHasher`].
type FastMap<K, V> = HashMap<K, V, std::hash::BuildHasherDefault<FxHasher>>;

/// The most keys a [`BitsCache`] keeps (per thread and chunk).
const BITS_CACHE_MAX: usize = 4096;

fn bits_key(seg: &[u8]) -> BitsKey {
    // 16 bytes (8 words) as two little-endian u64: even byte lanes hold
    // high bytes (columns 8..15), odd lanes low bytes (0..7). acc[b] counts
    // bit b of every byte lane, up to 2 x 127 = 254 per lane before it is
    // folded into the columns (no popcount instruction needed)
    const LANES: u64 = 0x0101_0101_0101_0101;
    const EVEN: u64 = 0x00FF_00FF_00FF_00FF;
    let mut ones = [0u32; 16];
    let mut it = seg.chunks_exact(16);
    loop {
        let mut acc = [0u64; 8];
        let mut n = 0;
        for c in it.by_ref().take(127) {
            let x0 = u64::from_le_bytes(c[..8].try_into().expect("8 bytes"));
            let x1 = u64::from_le_bytes(c[8..].try_into().expect("8 bytes"));
            for (bit, a) in acc.iter_mut().enumerate() {
                *a += ((x0 >> bit) & LANES) + ((x1 >> bit) & LANES);
            }
            n += 1;
        }
        if n == 0 {
            break;
        }
        for (bit, &a) in acc.iter().enumerate() {
            // four 16-bit lanes of at most 254 each: their sum in the top one
            let sum = |x: u64| (x.wrapping_mul(0x0001_0001_0001_0001) >> 48) as u32;
            ones[8 + bit] += sum(a & EVEN);
            ones[bit] += sum((a >> 8) & EVEN);
        }
    }
    for (i, &byte) in it.remainder().iter().enumerate() {
        let base = if i % 2 == 0 { 8 } else { 0 };
        for bit in 0..8 {
            ones[base + bit] += ((byte >> bit) & 1) as u32;
        }
    }
    (ones, seg.len())
}

/// [`binomial_head`] already computed on this thread, for one `p`: by `n`
/// (a pure function of `(n, p)`, so the digits do not depend on which
/// thread computed what).
type Heads = Option<([f64; 9], [f64; 9])>;

thread_local! {
    static HEADS: std::cell::RefCell<(f64, FastMap<u64, Heads>)> =
        std::cell::RefCell::new((f64::NAN, FastMap::default()));
}

/// Relative bound on the mass the fast carry chain leaves out, as in
/// `aliasing_core::internet`.
const CUT_TOLERANCE: f64 = 1e-13;

/// `P(Bin(n, p) = j)` for `j = 0..=8` (0 above `n`) and, for each cut
/// `f = 0..=8`, a bound on `P(Bin(n, p) > f)`; `None` where the bound cannot
/// be formed (the terms above 8 not yet falling fast).
fn binomial_head(n: u64, p: f64) -> Option<([f64; 9], [f64; 9])> {
    let mut h = [0.0; 9];
    let q = p / (1.0 - p);
    let mut x = f64::exp(n as f64 * f64::ln_1p(-p));
    if x < 1e-290 {
        return None;
    }
    h[0] = x;
    let top = n.min(8) as usize;
    for j in 0..top {
        x *= (n - j as u64) as f64 / (j + 1) as f64 * q;
        h[j + 1] = x;
    }
    // above 8 the terms fall at least geometrically with the first ratio
    let mut above = 0.0;
    if n > 8 {
        let next = x * (n - 8) as f64 / 9.0 * q;
        let r = (n - 9) as f64 / 10.0 * q;
        if r >= 0.5 {
            return None;
        }
        above = next / (1.0 - r);
    }
    let mut tails = [0.0; 9];
    for f in (0..9).rev() {
        tails[f] = above;
        above += h[f];
    }
    Some((h, tails))
}

/// `P(at least one flip and the data's sum unchanged mod 65535)` when the
/// bits of each column `k` are known (`ones[k]` of them 1), each flipping
/// with probability `p`: the carry chain of `aliasing_core::internet` (a sum
/// of products of non-negative terms), with the column laws cut at `f`
/// flips per direction, the smallest `f <= 8` whose neglected mass is below
/// `1e-13` of a lower bound of the result (the patterns of one up and one
/// down flip in one column, which always escape). `None` where no such cut
/// exists (the caller then uses `internet::p_undetected_payload`).
fn bits_fast(key: &BitsKey, p: f64) -> Option<f64> {
    bits_fast_with(key, p, carry_chain)
}

/// The signature of [`carry_chain`].
type Chain = fn(usize, i64, &[[[f64; 9]; 17]; 16], &[[f64; 17]; 16], &[f64; 16], &[usize; 17]) -> f64;

/// [`bits_fast`] with the carry chain `chain`.
fn bits_fast_with(key: &BitsKey, p: f64, chain: Chain) -> Option<f64> {
    let (ones, len) = key;
    if !(p > 0.0 && p < 0.5) {
        return None;
    }
    let mut up = [0u64; 16];
    let mut down = [0u64; 16];
    for k in 0..16 {
        // columns 8..15: high bytes (even offsets); 0..7: low bytes
        let total = if k >= 8 { len.div_ceil(2) } else { len / 2 } as u64;
        down[k] = ones[k] as u64;
        up[k] = total - down[k];
    }
    let mut heads = [([0.0f64; 9], [0.0f64; 9]); 32];
    let ok = HEADS.with(|cell| {
        let mut memo = cell.borrow_mut();
        if memo.0.to_bits() != p.to_bits() {
            *memo = (p, FastMap::default());
        }
        for k in 0..16 {
            for (i, n) in [(2 * k, up[k]), (2 * k + 1, down[k])] {
                let h = match memo.1.get(&n) {
                    Some(h) => *h,
                    None => {
                        let h = binomial_head(n, p);
                        if memo.1.len() < BITS_CACHE_MAX {
                            memo.1.insert(n, h);
                        }
                        h
                    }
                };
                match h {
                    Some(h) => heads[i] = h,
                    None => return false,
                }
            }
        }
        true
    });
    if !ok {
        return None;
    }
    // lower bound: exactly two flips, up and down in one column
    let pairs: u64 = (0..16).map(|k| up[k] * down[k]).sum();
    let n = (8 * *len) as f64;
    let lower = pairs as f64 * p * p * f64::exp((n - 2.0) * f64::ln_1p(-p));
    let f = (0..9).find(|&f| {
        let tail: f64 = heads.iter().map(|h| h.1[f]).sum();
        tail == 0.0 || tail <= CUT_TOLERANCE * lower
    })?;
    let f = f.max(1);
    let tail: f64 = heads.iter().map(|h| h.1[f]).sum();
    let w = 2 * f + 1;
    let mut clean = [0.0f64; 16];
    let mut flip = [[0.0f64; 17]; 16];
    for k in 0..16 {
        let (hu, hd) = (&heads[2 * k].0, &heads[2 * k + 1].0);
        clean[k] = hu[0] * hd[0];
        for (a, &x) in hu.iter().enumerate().take(f + 1) {
            for (b, &y) in hd.iter().enumerate().take(f + 1) {
                if a + b > 0 {
                    flip[k][a + f - b] += x * y;
                }
            }
        }
    }
    // Per column, the change d of the column (ups minus downs, |d| <= f)
    // takes carry c to (c + d) / 2 (c + d even): for each c a contiguous
    // band of new carries. band[k][c] holds, from the lowest new carry
    // lo(c), the weight of each: P(a flip pattern with that d), plus the
    // clean probability at d = 0 for the runs that have flipped already
    // (a1); a run that has not flipped (a0) sits at one carry.
    let fi = f as i64;
    let lo = |c: usize| -> usize { c.div_ceil(2) };
    let mut band = [[[0.0f64; 9]; 17]; 16];
    for (k, bk) in band.iter_mut().enumerate() {
        for (c, row) in bk.iter_mut().enumerate().take(w) {
            let l = lo(c);
            // new carry index nc (shifted by f) <-> d = 2 (nc - f) - (c - f)
            let mut j = 0;
            let mut nc = l;
            while nc < w {
                let d = 2 * (nc as i64 - fi) - (c as i64 - fi);
                if d > fi {
                    break;
                }
                row[j] = flip[k][(d + fi) as usize] + if d == 0 { clean[k] } else { 0.0 };
                j += 1;
                nc += 1;
            }
        }
    }
    let width = |c: usize| -> usize {
        let l = lo(c) as i64;
        // the largest nc with 2 (nc - f) - (c - f) <= f
        let hi = ((c / 2) as i64 + fi).min(w as i64 - 1);
        (hi - l + 1).max(0) as usize
    };
    let widths: [usize; 17] = std::array::from_fn(|c| if c < w { width(c) } else { 0 });
    let total = chain(w, fi, &band, &flip, &clean, &widths);
    // the cut was chosen against a lower bound; check against the result
    if tail == 0.0 || tail <= CUT_TOLERANCE * total {
        return Some(total);
    }
    None
}

/// The carry chain of [`bits_fast`] over its `w` start carries at once:
/// `sum_t` (the weight of the runs that start at carry `t`, flip at least
/// once and end at carry `t`). Each start carry `t` is one lane of every
/// vector, so a column step is a few broadcast multiply-adds over the lanes
/// (vectorised), and each lane does exactly the operations, in the same
/// order, of a run computed on its own (the tests' reference computes the
/// runs one by one): the digits do not depend on the layout.
fn carry_chain(
    w: usize,
    fi: i64,
    band: &[[[f64; 9]; 17]; 16],
    flip: &[[f64; 17]; 16],
    clean: &[f64; 16],
    widths: &[usize; 17],
) -> f64 {
    let lo = |c: usize| -> usize { c.div_ceil(2) };
    // a1[c][t]: weight at carry c of the runs started at t that have flipped
    // (two buffers, swapped by reference after each column; only carries
    // and lanes below w are ever used)
    let [buf0, buf1] = &mut [[[0.0f64; 17]; 17]; 2];
    let (mut a1, mut b1) = (buf0, buf1);
    // a0: the run of lane t that has not flipped yet, weight x0[t] at c0[t]
    let mut x0 = [1.0f64; 17];
    let mut c0: [Option<usize>; 17] = std::array::from_fn(|t| (t < w).then_some(t));
    for k in 0..16 {
        for row in b1[..w].iter_mut() {
            row[..w].fill(0.0);
        }
        for c in 0..w {
            let l = lo(c);
            let row = &band[k][c];
            let src = &a1[c];
            for j in 0..widths[c] {
                let r = row[j];
                for (b, &x) in b1[l + j][..w].iter_mut().zip(&src[..w]) {
                    *b += x * r;
                }
            }
        }
        for t in 0..w {
            if let Some(c) = c0[t] {
                // the first flips of this run, in this column
                let l = lo(c);
                for j in 0..widths[c] {
                    let d = 2 * ((l + j) as i64 - fi) - (c as i64 - fi);
                    b1[l + j][t] += x0[t] * flip[k][(d + fi) as usize];
                }
                // no flip: carry c - f must be even, halved
                let cv = c as i64 - fi;
                if cv.rem_euclid(2) == 0 {
                    x0[t] *= clean[k];
                    c0[t] = Some((cv / 2 + fi) as usize);
                } else {
                    c0[t] = None;
                }
            }
        }
        std::mem::swap(&mut a1, &mut b1);
    }
    let mut total = 0.0;
    for t in 0..w {
        total += a1[t][t];
    }
    total
}

/// One segment's contribution to a model's tally.
#[derive(Debug, Clone, Default, PartialEq)]
struct Tally {
    /// Segments counted, full-length ones.
    full: u64,
    /// Integer numerator summed over full segments.
    full_num: u128,
    /// Segments counted of the last (shorter) length: 0 or 1.
    last: u64,
    /// Numerator of the last segment.
    last_num: u128,
    /// `bits`: sums of `P_ud / P_err`, `P_ud`, `P_err`.
    cond: ExactSum,
    pud: ExactSum,
    hit: ExactSum,
}

impl Tally {
    fn merge(mut self, o: &Tally) -> Tally {
        self.full += o.full;
        self.full_num += o.full_num;
        self.last += o.last;
        self.last_num += o.last_num;
        self.cond.merge(&o.cond);
        self.pud.merge(&o.pud);
        self.hit.merge(&o.hit);
        self
    }
}

/// Adds one segment `seg` (followed by `next`) to `t`; `full` says whether
/// it has the full length.
fn add_segment(
    t: &mut Tally,
    model: &Model,
    seg: &[u8],
    next: &[u8],
    full: bool,
    cache: &mut BitsCache,
) -> Result<()> {
    let num: u128 = match *model {
        Model::Word => word_count(seg) as u128,
        Model::Burst { bits } => {
            if (bits as usize) > 8 * seg.len() {
                return Ok(()); // cannot be hit
            }
            if bits < 16 {
                0
            } else {
                burst_low(seg, bits) as u128
            }
        }
        Model::Splice { cell } => splice_hits(seg, next, cell as usize) as u128,
        Model::Bits { p } => {
            let key = bits_key(seg);
            let (pud, hit) = match cache.get(&key) {
                Some(&v) => v,
                None => {
                    let pud = match bits_fast(&key, p) {
                        Some(v) => v,
                        None => internet::p_undetected_payload(seg, p)?,
                    };
                    let v = (pud, bsc::p_error(8 * seg.len() as u64, p));
                    // bounded: data that repeats its keys fills it early
                    if cache.len() < BITS_CACHE_MAX {
                        cache.insert(key, v);
                    }
                    v
                }
            };
            t.pud.add(pud);
            t.hit.add(hit);
            t.cond.add(if hit > 0.0 { pud / hit } else { 0.0 });
            0
        }
    };
    if full {
        t.full += 1;
        t.full_num += num;
    } else {
        t.last += 1;
        t.last_num += num;
    }
    Ok(())
}

/// The mean over a class of `count` segments of `len` bytes whose
/// numerators add up to `num`.
fn class_mean(model: &Model, len: u64, count: u64, num: u128) -> f64 {
    if count == 0 {
        return 0.0;
    }
    match *model {
        Model::Word => {
            let words = len.div_ceil(2) as u128;
            ratio(num, count as u128 * words) / M as f64
        }
        Model::Splice { cell } => {
            let cells = len.div_ceil(cell) as u128;
            ratio(num, count as u128 * cells)
        }
        Model::Burst { bits } => {
            if bits < 16 {
                return 0.0;
            }
            let npos = (8 * len - bits as u64 + 1) as u128;
            let (a, b) = burst_terms(bits);
            a + ratio(num, count as u128 * npos) * b
        }
        Model::Bits { .. } => 0.0,
    }
}

/// Tallies for several models, one per model.
#[derive(Debug, Clone)]
struct Tallies(Vec<Tally>);

impl Tallies {
    fn new(n: usize) -> Self {
        Tallies(vec![Tally::default(); n])
    }
    fn merge(mut self, o: &Tallies) -> Tallies {
        for (a, b) in self.0.iter_mut().zip(&o.0) {
            *a = std::mem::take(a).merge(b);
        }
        self
    }
}

/// Adds every segment of `buf` (segments of `seg` bytes; the last one may
/// be shorter), each followed by the next one in `buf` or, for the last of
/// `buf`, by `after`.
fn tally_all(models: &[Model], buf: &[u8], seg: usize, after: &[u8]) -> Result<Tallies> {
    let nseg = buf.len().div_ceil(seg);
    // splice: every segment's cell sums once (each is used as old and as new)
    let sums: Vec<Option<(usize, Vec<u64>)>> = models
        .iter()
        .map(|m| match *m {
            Model::Splice { cell } => {
                let c = cell as usize;
                let nc = seg.div_ceil(c);
                let mut v = vec![0u64; nseg * nc];
                v.par_chunks_mut(nc)
                    .zip(buf.par_chunks(seg))
                    .with_min_len(64)
                    .for_each(|(o, s)| cell_sums(s, c, o));
                Some((nc, v))
            }
            _ => None,
        })
        .collect();
    (0..nseg)
        .into_par_iter()
        .with_min_len(64)
        .fold(
            || Ok((Tallies::new(models.len()), BitsCache::default())),
            |acc: Result<(Tallies, BitsCache)>, i| {
                let (mut t, mut cache) = acc?;
                let a = i * seg;
                let b = (a + seg).min(buf.len());
                let s = &buf[a..b];
                let (next, inside) = if b < buf.len() {
                    (&buf[b..(b + seg).min(buf.len())], true)
                } else {
                    (after, false)
                };
                let full = s.len() == seg;
                for (k, m) in models.iter().enumerate() {
                    match (&sums[k], m) {
                        (Some((nc, v)), Model::Splice { cell })
                            if inside && full && next.len() == seg =>
                        {
                            let h = splice_hits_sums(
                                s,
                                next,
                                *cell as usize,
                                &v[i * nc..(i + 1) * nc],
                                &v[(i + 1) * nc..(i + 2) * nc],
                            );
                            t.0[k].full += 1;
                            t.0[k].full_num += h as u128;
                        }
                        _ => add_segment(&mut t.0[k], m, s, next, full, &mut cache)?,
                    }
                }
                Ok((t, cache))
            },
        )
        .map(|r| r.map(|(t, _)| t))
        .try_reduce(|| Tallies::new(models.len()), |a, b| Ok(a.merge(&b)))
}

/// Turns the tallies into results.
fn finish(models: &[Model], t: &Tallies, seg: u64, last_len: u64, what: &str) -> Vec<Miss> {
    models
        .iter()
        .zip(&t.0)
        .map(|(m, t)| {
            let n = t.full + t.last;
            let mut miss = Miss {
                model: m.to_string(),
                p_miss: 0.0,
                segments: n,
                p_hit: None,
                p_undetected: None,
                method: format!("exact: given data ({what}), mean over segments"),
            };
            if n == 0 {
                return miss;
            }
            if let Model::Bits { .. } = m {
                miss.p_miss = t.cond.to_f64() / n as f64;
                miss.p_hit = Some(t.hit.to_f64() / n as f64);
                miss.p_undetected = Some(t.pud.to_f64() / n as f64);
                miss.method = format!(
                    "exact: given data ({what}), Internet checksum carry chain per segment, mean over segments"
                );
            } else {
                let full = class_mean(m, seg, t.full, t.full_num);
                let last = class_mean(m, last_len, t.last, t.last_num);
                // one class: its mean as it is (1/65535 stays exact for zeros)
                miss.p_miss = match (t.full, t.last) {
                    (_, 0) => full,
                    (0, _) => last,
                    (f, l) => (f as f64 * full + l as f64 * last) / n as f64,
                };
            }
            miss
        })
        .collect()
}

/// The largest segment [`given`] and [`file()`] take (per-segment work
/// buffers are a few times its size, per thread).
pub const MAX_SEGMENT_BYTES: u64 = 1 << 20;

fn check_models(models: &[Model], segment_bytes: u64) -> Result<()> {
    if models.is_empty() {
        return Err(bad("no corruption model given"));
    }
    if segment_bytes > MAX_SEGMENT_BYTES {
        return Err(bad(format!(
            "a segment of {segment_bytes} data bytes: at most {MAX_SEGMENT_BYTES} over given data"
        )));
    }
    for m in models {
        m.check(segment_bytes)?;
    }
    Ok(())
}

/// Exact `p_miss` of each model over `data` cut into segments of
/// `segment_bytes` (the last one partial), every segment equally likely to
/// be hit. `data` must not be empty.
pub fn given(data: &[u8], segment_bytes: u64, models: &[Model]) -> Result<Vec<Miss>> {
    check_models(models, segment_bytes)?;
    if data.is_empty() {
        return Err(bad("the payload data is empty"));
    }
    let seg = segment_bytes as usize;
    let nseg = data.len().div_ceil(seg);
    let t = tally_all(models, data, seg, &data[..seg.min(data.len())])?;
    let last_len = (data.len() - (nseg - 1) * seg) as u64;
    Ok(finish(models, &t, segment_bytes, last_len, "payload"))
}

/// Exact `p_miss` of `model` for one segment `seg` followed by `next` (the
/// segment a splice takes its bytes from): the per-segment value that
/// [`given`] and [`file()`] average. `None` where the segment cannot be hit
/// (a burst longer than it).
pub fn segment(model: &Model, seg: &[u8], next: &[u8]) -> Result<Option<f64>> {
    if seg.is_empty() {
        return Err(bad("an empty segment"));
    }
    if let Model::Splice { cell: 0 } = model {
        return Err(bad("corruption splice:0: the cell size is 0"));
    }
    if let Model::Burst { bits } = *model
        && bits as usize > 8 * seg.len()
    {
        return Ok(None);
    }
    let mut t = Tally::default();
    add_segment(&mut t, model, seg, next, true, &mut BitsCache::default())?;
    let r = finish(
        std::slice::from_ref(model),
        &Tallies(vec![t]),
        seg.len() as u64,
        seg.len() as u64,
        "segment",
    );
    Ok(Some(r[0].p_miss))
}

/// Opens `path` for [`file()`]: refuses, with one line and before reading, a
/// missing or unreadable path, a folder, a special file (FIFO, device,
/// socket) and an empty file. Returns the open file and its length.
pub fn open_payload(path: &Path) -> Result<(std::fs::File, u64)> {
    let shown = path.display();
    let cannot = |e: std::io::Error| bad(format!("cannot read payload file {shown}: {e}"));
    let special = || {
        bad(format!(
            "payload file {shown} is not a regular file (a device, FIFO or socket)"
        ))
    };
    let meta = std::fs::metadata(path).map_err(cannot)?;
    if meta.is_dir() {
        return Err(bad(format!("payload file {shown} is a folder")));
    }
    if !meta.is_file() {
        return Err(special());
    }
    let file = std::fs::File::open(path).map_err(cannot)?;
    // what was opened, not what the path named a moment ago
    let meta = file.metadata().map_err(cannot)?;
    if !meta.is_file() {
        return Err(special());
    }
    if meta.len() == 0 {
        return Err(bad(format!("payload file {shown} is empty")));
    }
    Ok((file, meta.len()))
}

/// Reads until `buf` is full or the file ends; returns the bytes read.
fn fill(f: &mut impl std::io::Read, buf: &mut [u8], path: &Path) -> Result<usize> {
    let mut n = 0;
    while n < buf.len() {
        match f.read(&mut buf[n..]) {
            Ok(0) => break,
            Ok(k) => n += k,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
            Err(e) => {
                return Err(bad(format!(
                    "cannot read payload file {}: {e}",
                    path.display()
                )));
            }
        }
    }
    Ok(n)
}

/// Exact `p_miss` of each model over the file at `path` cut into segments
/// of `segment_bytes` data bytes (the last one partial), every segment
/// equally likely to be hit: the same numbers as [`given`] on the file's
/// bytes, streamed in chunks of about [`CHUNK_BYTES`] (memory bounded
/// whatever the file's size), the segments of a chunk in parallel on the
/// current rayon pool. Progress: one stage, `bytes`, the file's length.
/// The file is checked ([`open_payload`]) and the models against the
/// segment size before any work. A file that shrinks or grows while read
/// is read as it comes (the segments it has).
pub fn file(
    path: &Path,
    segment_bytes: u64,
    models: &[Model],
    progress: &dyn Progress,
) -> Result<Vec<Miss>> {
    file_chunked(path, segment_bytes, models, progress, CHUNK_BYTES)
}

/// [`file()`] with chunks of about `chunk_bytes` (at least one segment).
#[doc(hidden)] // for the tests: the digits must not depend on the chunk size
pub fn file_chunked(
    path: &Path,
    segment_bytes: u64,
    models: &[Model],
    progress: &dyn Progress,
    chunk_bytes: usize,
) -> Result<Vec<Miss>> {
    check_models(models, segment_bytes)?;
    let seg = usize::try_from(segment_bytes).map_err(|_| bad("segment size too large"))?;
    let (mut f, len) = open_payload(path)?;
    progress.stage("bytes", len);
    let per = (chunk_bytes / seg).max(1);
    // buf holds the carried-over last segment of the previous chunk, then the new chunk
    let mut buf = vec![0u8; (per + 1) * seg];
    let mut first: Vec<u8> = Vec::new();
    let mut total = Tallies::new(models.len());
    let mut have = 0usize; // bytes in buf (a carried segment, whole, or none)
    let last_len;
    let mut seen = false;
    loop {
        let n = fill(&mut f, &mut buf[have..], path)?;
        if !seen {
            seen = true;
            if n == 0 {
                return Err(bad(format!("payload file {} is empty", path.display())));
            }
            first = buf[..seg.min(n)].to_vec();
        }
        let end = have + n;
        let at_end = end < buf.len();
        if at_end {
            // every segment of buf, the last spliced with the first
            let nseg = end.div_ceil(seg);
            let t = tally_all(models, &buf[..end], seg, &first)?;
            total = total.merge(&t);
            last_len = (end - (nseg - 1) * seg) as u64;
            progress.advance(n as u64);
            break;
        }
        // full buffer: keep its last segment for the next round (its next is unread)
        let t = tally_all(models, &buf[..end - seg], seg, &buf[end - seg..end])?;
        total = total.merge(&t);
        progress.advance(n as u64);
        buf.copy_within(end - seg..end, 0);
        have = seg;
    }
    progress.finish();
    Ok(finish(models, &total, segment_bytes, last_len, "file"))
}

/// [`file()`] watched by nobody.
pub fn file_silent(path: &Path, segment_bytes: u64, models: &[Model]) -> Result<Vec<Miss>> {
    file(path, segment_bytes, models, &Silent)
}

// ---------------------------------------------------------------------------
// An end-to-end CRC over each segment's data, on top of TCP.

/// An end-to-end CRC over each segment's data on top of the TCP checksum:
/// an iSCSI data digest (CRC-32C) or an application CRC (CRC-64/NVME, ...).
/// Both checks see the same corrupted data; a corruption escapes when both
/// pass.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Digest {
    /// The CRC's catalogue name.
    pub name: String,
    /// Its width `r` in bits.
    pub width: u32,
    /// The generator without its `x^r` term.
    normal: u64,
    /// Bytes enter least significant bit first.
    refin: bool,
}

impl Digest {
    /// The CRC named `spec` (`crc32c`, `iscsi`, `crc64-nvme`, any catalogue
    /// name or generator `alias` accepts); refuses a check that is not a CRC
    /// and a generator without the `+1` term.
    pub fn resolve(spec: &str) -> Result<Self> {
        let c = aliasing_core::catalogue::resolve(spec)?;
        let normal = c.generator().normal();
        if normal & 1 == 0 {
            return Err(bad(format!(
                "end-to-end CRC `{spec}`: a generator divisible by x detects no burst"
            )));
        }
        Ok(Digest {
            name: c.name().to_string(),
            width: c.width(),
            normal,
            refin: c.refin(),
        })
    }

    /// `x^d mod g` for `d = 0..n`.
    fn powers(&self, n: usize) -> Vec<u64> {
        let r = self.width;
        let top = 1u64 << (r - 1);
        let mask = if r == 64 { u64::MAX } else { (1u64 << r) - 1 };
        let mut v = 1u64;
        (0..n)
            .map(|_| {
                let out = v;
                let carry = v & top != 0;
                v = (v << 1) & mask;
                if carry {
                    v ^= self.normal;
                }
                out
            })
            .collect()
    }

    /// The rank over GF(2) of the CRC's syndromes of the `bits` stream bits
    /// starting at bit `a` (0..8) of a byte: the CRC misses `2^(bits -
    /// rank) - 1` of the non-zero error patterns there.
    fn burst_rank(&self, a: usize, bits: usize) -> u32 {
        let nbytes = (a + bits).div_ceil(8);
        let pw = self.powers(8 * nbytes);
        let mut basis: Vec<u64> = Vec::new(); // reduced rows, distinct leading bits
        for t in 0..bits {
            let j = a + t; // stream bit j: bit 7 - j % 8 of byte j / 8
            let (byte, bit) = (j / 8, 7 - j % 8);
            // the order the CRC reads the bits in; the degree is the reverse
            let order = 8 * byte + if self.refin { bit } else { 7 - bit };
            let mut v = pw[8 * nbytes - 1 - order];
            for &b in &basis {
                v = v.min(v ^ b);
            }
            if v != 0 {
                basis.push(v);
                basis.sort_unstable_by(|x, y| y.cmp(x));
            }
            if basis.len() as u32 == self.width {
                break;
            }
        }
        basis.len() as u32
    }

    /// The CRC's own largest miss of `burst:B` over the 8 bit alignments of
    /// its start (independent of the data: the error pattern is uniform on
    /// the non-zero `B`-bit values), 0 where every alignment is detected.
    fn burst_miss(&self, bits: u32) -> f64 {
        (0..8)
            .map(|a| {
                let k = bits - self.burst_rank(a, bits as usize);
                // (2^k - 1) / (2^B - 1)
                if k == 0 {
                    0.0
                } else {
                    // (2^(k - B) - 2^-B) / (1 - 2^-B)
                    let x = (-(bits as f64)).exp2();
                    ((k as f64 - bits as f64).exp2() - x) / (1.0 - x)
                }
            })
            .fold(0.0, f64::max)
    }

    /// The CRC's own miss of a uniformly random non-zero difference over `m`
    /// whole bytes: `(2^(8m - r) - 1) / 2^(8m)`, 0 below `r` bits.
    fn region_miss(&self, m: u64) -> f64 {
        let n = 8 * m;
        if n <= self.width as u64 {
            return 0.0;
        }
        (-(self.width as f64)).exp2() - (-(n as f64)).exp2()
    }
}

/// `p_miss` of the TCP checksum and `digest` together for `model`, from the
/// TCP checksum's own [`Miss`] over the same data (`uniform_data`: that
/// `tcp` came from [`uniform`] for segments of `segment_bytes`). Exact 0
/// where the CRC detects every error the model can make (`word`, and
/// `burst:B` whose bits lie within `r` consecutive bits of the CRC's order
/// at every alignment); otherwise a certified upper bound, the smaller of
/// the TCP value and the CRC's own miss (per splice boundary for uniform
/// data); the method says which.
pub fn with_digest(
    model: &Model,
    tcp: &Miss,
    digest: &Digest,
    segment_bytes: u64,
    uniform_data: bool,
) -> Result<Miss> {
    model.check(segment_bytes)?;
    let r = digest.width;
    let name = &digest.name;
    let (p, method) = match *model {
        Model::Word => (
            0.0,
            format!("exact: {name} detects every error within {r} consecutive bits"),
        ),
        Model::Burst { bits } => {
            let crc = digest.burst_miss(bits);
            if crc == 0.0 {
                (
                    0.0,
                    format!("exact: {name} detects every {bits}-bit burst at every alignment"),
                )
            } else {
                (
                    tcp.p_miss.min(crc),
                    format!(
                        "bound: the smaller of the TCP checksum's exact miss and {name}'s ({crc:.6e}, exact for any data)"
                    ),
                )
            }
        }
        Model::Splice { cell } if uniform_data => {
            let cells = segment_bytes.div_ceil(cell);
            let mut sum = 0.0;
            for k in 0..cells {
                let a = k * cell;
                let m = segment_bytes - a;
                sum += splice_uniform_region(m, a % 2 == 1).min(digest.region_miss(m));
            }
            (
                sum / cells as f64,
                format!(
                    "bound: per cell boundary the smaller of the TCP checksum's exact miss and {name}'s, uniform data"
                ),
            )
        }
        Model::Splice { .. } | Model::Bits { .. } => (
            tcp.p_miss,
            format!("bound: the TCP checksum's exact miss ({name}'s own miss not computed)"),
        ),
    };
    let mut out = tcp.clone();
    out.p_miss = p;
    out.method = method;
    if let (Some(h), true) = (tcp.p_hit, p == 0.0) {
        out.p_undetected = Some(0.0);
        out.p_hit = Some(h);
    } else if tcp.p_hit.is_some() {
        // the bound on P(flip and pass) is the TCP value
        out.p_undetected = tcp.p_undetected;
    }
    Ok(out)
}

#[cfg(test)]
mod tests;
