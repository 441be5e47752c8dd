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
//! special file). Then [`files()`] with every segment size (TCP payload
//! bytes per frame, one per MTU) and all the models at once (one pass over
//! the file), or, per segment size, [`uniform`] per model without
//! `--payload`; optionally [`with_digest`]
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
use std::fmt;
use std::path::Path;
use std::str::FromStr;

/// The modulus of the ones'-complement sum.
const M: u64 = 65535;

/// About how many bytes [`file()`] reads at once (a whole number of segments).
pub const CHUNK_BYTES: usize = 64 << 20;

pub(crate) mod bits;
mod digest;
pub(crate) mod given;
mod models;
pub(crate) mod uniform;

use bits::*;
pub use digest::{Digest, with_digest};
use given::*;
use models::*;
pub use models::{Corruption, CorruptionPoint, Miss, Model};
pub use uniform::uniform;
use uniform::*;

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
fn add_segment(t: &mut Tally, model: &Model, seg: &[u8], next: &[u8], full: bool) -> Result<()> {
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
            let (pud, hit) = BitsCache::get_or(&key, p, || {
                let pud = match bits_fast(&key, p) {
                    Some(v) => v,
                    None => internet::p_undetected_payload(seg, p)?,
                };
                Ok((pud, p_hit(8 * seg.len() as u64, p)))
            })?;
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
#[derive(Debug, Clone, Default)]
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
            || Ok(Tallies::new(models.len())),
            |acc: Result<Tallies>, i| {
                let mut t = acc?;
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
                        _ => add_segment(&mut t.0[k], m, s, next, full)?,
                    }
                }
                Ok(t)
            },
        )
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
    add_segment(&mut t, model, seg, next, true)?;
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
    let mut all = files_chunked(path, &[segment_bytes], models, progress, chunk_bytes)?;
    Ok(all.pop().expect("one segment size"))
}

/// [`file()`] at several segment sizes in one pass over the file (each
/// chunk read once, then cut into the segments of every size): per size,
/// the same numbers as [`file()`] at that size. Progress: one stage,
/// `bytes`, the file's length. Every size is checked before any work.
pub fn files(
    path: &Path,
    segment_bytes: &[u64],
    models: &[Model],
    progress: &dyn Progress,
) -> Result<Vec<Vec<Miss>>> {
    files_chunked(path, segment_bytes, models, progress, CHUNK_BYTES)
}

/// [`files()`] with chunks of about `chunk_bytes`.
#[doc(hidden)] // for the tests: the digits must not depend on the chunk size
pub fn files_chunked(
    path: &Path,
    segment_bytes: &[u64],
    models: &[Model],
    progress: &dyn Progress,
    chunk_bytes: usize,
) -> Result<Vec<Vec<Miss>>> {
    let mut segs = Vec::with_capacity(segment_bytes.len());
    for &s in segment_bytes {
        check_models(models, s)?;
        segs.push(usize::try_from(s).map_err(|_| bad("segment size too large"))?);
    }
    let Some(&widest) = segs.iter().max() else {
        return Ok(Vec::new());
    };
    let (mut f, len) = open_payload(path)?;
    progress.stage("bytes", len);
    // buf holds the file from `base` on: per size, the segments not yet
    // tallied (at least the last whole one, whose next segment is unread,
    // and a partial one: under 2 segments), then the new chunk
    let chunk = chunk_bytes.max(widest);
    let mut buf = vec![0u8; chunk + 2 * widest];
    let mut have = 0usize; // bytes of buf holding data
    let mut base = 0usize; // file offset of buf[0]
    let mut next = vec![0usize; segs.len()]; // per size: offset of its first untallied segment
    let mut totals: Vec<Tallies> = segs.iter().map(|_| Tallies::new(models.len())).collect();
    let mut last_len = vec![0u64; segs.len()];
    let mut first: Vec<u8> = Vec::new();
    loop {
        let n = fill(&mut f, &mut buf[have..have + chunk], path)?;
        if first.is_empty() {
            if n == 0 {
                return Err(bad(format!("payload file {} is empty", path.display())));
            }
            first = buf[..widest.min(n)].to_vec();
        }
        have += n;
        let at_end = n < chunk;
        for (j, &seg) in segs.iter().enumerate() {
            let a = next[j] - base;
            let data = &buf[a..have];
            if at_end {
                // every segment left, the last spliced with the first
                let nseg = data.len().div_ceil(seg);
                let t = tally_all(models, data, seg, &first[..seg.min(first.len())])?;
                totals[j] = std::mem::take(&mut totals[j]).merge(&t);
                last_len[j] = (data.len() - (nseg - 1) * seg) as u64;
                continue;
            }
            // every whole segment whose next one is read in full
            let m = (data.len() / seg).saturating_sub(1);
            if m > 0 {
                let t = tally_all(models, &data[..m * seg], seg, &data[m * seg..(m + 1) * seg])?;
                totals[j] = std::mem::take(&mut totals[j]).merge(&t);
                next[j] += m * seg;
            }
        }
        progress.advance(n as u64);
        if at_end {
            break;
        }
        // keep what some size has not tallied
        let keep = next.iter().min().expect("a size") - base;
        buf.copy_within(keep..have, 0);
        have -= keep;
        base += keep;
    }
    progress.finish();
    Ok(segs
        .iter()
        .zip(&totals)
        .zip(&last_len)
        .map(|((&seg, t), &last)| finish(models, t, seg as u64, last, "file"))
        .collect())
}

/// [`file()`] watched by nobody.
pub fn file_silent(path: &Path, segment_bytes: u64, models: &[Model]) -> Result<Vec<Miss>> {
    file(path, segment_bytes, models, &Silent)
}
