//! How long [`super::report_with`] takes, before it starts: a cost model
//! from the frame lengths, the CRC's width and the weights enumerated, so
//! that `alias transfer` can announce a long run and refuse one beyond a
//! day without `--allow-long` (as `alias curve`, `compare` and `stack` do).
//! Nothing is computed: the estimate is arithmetic on the request.
//!
//! # The model
//!
//! Per frame length not already in the kept tallies (and only where some
//! BER is above 0), with `n` the frame's bits, `r` the CRC's width and `w`
//! the highest weight enumerated (the request's, lowered as
//! [`aliasing_core::joint::JointPlan::new`] lowers it for long frames):
//!
//! - the shape search: `n^2 / 2` table probes for weight 4, and for weight
//!   5 every position pair scanned once per slice of the join
//!   (`slices x n^2 / 2`, the slices as [`aliasing_core::lowweight`] cuts
//!   them);
//! - the codewords' pass counts: the expected number of weight-`v` shapes
//!   of span below `n`, `C(n-1, v-1) / 2^r` (`2^(r-1)` for even `v` and
//!   none for odd `v` where `x + 1` divides the generator), each summed at
//!   `min(n / v, 8 (header bytes) + 16)` placements;
//! - the CRC's dual weights: `2^r` register states;
//! - the draws of the next weight: `samples x n` (counted whenever draws
//!   are asked for, though they run only where the bracket is wide: an
//!   upper estimate);
//!
//! and per MTU, with corruption over a payload file, one pass over the file
//! per model. Each unit has a cost in seconds on one core
//! ([`UNIT_SECONDS`]); the sum is divided by the threads of the pool.
//!
//! # Calibration
//!
//! The unit costs were measured with the test profile's optimisation of the
//! library crates (`opt-level = 2`; a release build is at most about as
//! fast), one thread (`RAYON_NUM_THREADS=1`), user CPU time, on a shared
//! 2-core machine (load average about 12, so the figures are on the slow
//! side). `alias transfer --size 1TB --ber 1e-6 --samples 0`:
//!
//! | request | n | user CPU | unit it fixes |
//! |---|---:|---:|---|
//! | `--stack ipv4-tcp+crc32 --mtu 68 --max-weight 2` | 576 | 7.5 s | dual weights, per state |
//! | `--stack ipv4-tcp+CRC-16/ARC --mtu 300 --max-weight 4` | 2,416 | 2.2 s | pass counts, per placement |
//! | `--stack ipv4-tcp+crc32 --mtu 1500 --max-weight 4` | 12,032 | 8.6 s | weight-4 probes, per probe |
//! | `--stack ipv4-tcp+crc32 --mtu 1500 --max-weight 5` | 12,032 | 29 s | weight-5 scans, per pair and slice |
//! | `--stack ipv4-tcp+crc32 --mtu 6000 --max-weight 4` | 48,032 | 24 s | check of the weight-4 unit |
//!
//! The file pass: 1 GB at two MTUs with `word` and `bits:1e-7` took
//! 11.6 s of CPU in a release build (docs/guide/transfer.md), `word` alone
//! 1.2 s.

use super::{HEADERS, Tallies, TransferParams};
use crate::corruption::Model;
use aliasing_core::layout::StackSpec;
use aliasing_core::{Error, Result};

/// Seconds on one core per unit of work (see the module notes for the
/// measurement): weight-4 probe, weight-5 pair scan, codeword placement,
/// dual-code register state, draw and frame bit.
pub const UNIT_SECONDS: UnitSeconds = UnitSeconds {
    probe4: 9.0e-10,
    scan5: 8.5e-9,
    placement: 9.0e-8,
    dual_state: 1.75e-9,
    draw_bit: 5.0e-9,
    file_byte_word: 6.0e-10,
    file_byte_bits: 5.2e-9,
};

/// The unit costs of the model, in seconds on one core.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct UnitSeconds {
    /// One table probe of the weight-4 shape search.
    pub probe4: f64,
    /// One position pair scanned in one slice of the weight-5 join.
    pub scan5: f64,
    /// One codeword placement's pass count.
    pub placement: f64,
    /// One register state of the dual-code pass.
    pub dual_state: f64,
    /// One frame bit of one draw of the next weight.
    pub draw_bit: f64,
    /// One byte of the payload file for `word`, `burst` or `splice`.
    pub file_byte_word: f64,
    /// One byte of the payload file for `bits`.
    pub file_byte_bits: f64,
}

/// Pair limits of the shape search (as `aliasing_core::lowweight`).
const SHAPE_PAIR_LIMIT: f64 = aliasing_core::lowweight::SHAPE_PAIR_LIMIT;
const SHAPE5_PAIR_LIMIT: f64 = aliasing_core::lowweight::SHAPE5_PAIR_LIMIT;

/// `ln C(a, b)` for `b` small.
fn ln_choose(a: f64, b: u32) -> f64 {
    if a < f64::from(b) {
        return f64::NEG_INFINITY;
    }
    (0..b)
        .map(|i| (a - f64::from(i)).ln() - f64::from(i + 1).ln())
        .sum()
}

/// The slices of the weight-5 join at `n` bits (as `lowweight` cuts it).
fn slices5(n: f64) -> f64 {
    let pairs = (n * (n - 1.0) / 2.0 / f64::from(1u32 << 22)).floor().max(1.0);
    pairs.log2().ceil().exp2()
}

/// The estimated seconds of the link part of one frame length of `bytes`
/// bytes (`header` bytes besides the payload), computed anew: shape search,
/// pass counts, dual weights and draws, on one core.
pub fn frame_seconds(
    params: &TransferParams,
    bytes: u64,
    header: u64,
    width: u32,
    even: bool,
) -> f64 {
    let u = UNIT_SECONDS;
    let n = 8.0 * bytes as f64;
    let pairs = n * n / 2.0;
    let w = if pairs > SHAPE_PAIR_LIMIT {
        params.max_weight.min(3)
    } else if pairs > SHAPE5_PAIR_LIMIT {
        params.max_weight.min(4)
    } else {
        params.max_weight
    };
    let mut s = 0.0;
    if w >= 4 {
        s += u.probe4 * pairs;
    }
    if w >= 5 {
        s += u.scan5 * slices5(n) * pairs;
    }
    let per_shape = |v: u32| (n / f64::from(v)).min(8.0 * header as f64 + 16.0);
    for v in 3..=w {
        let fraction = match (even, v % 2 == 0) {
            (true, false) => continue,
            (true, true) => -(f64::from(width) - 1.0) * std::f64::consts::LN_2,
            (false, _) => -f64::from(width) * std::f64::consts::LN_2,
        };
        let shapes = (ln_choose(n - 1.0, v - 1) + fraction).exp();
        s += u.placement * shapes * per_shape(v);
    }
    s += u.dual_state * f64::from(width).exp2();
    if params.samples > 0 {
        s += u.draw_bit * params.samples as f64 * n;
    }
    s
}

/// The estimated wall-clock seconds of [`super::report_with`] for `params`
/// with `kept` on `threads` threads (the lengths in `kept` cost nothing),
/// from the cost model of the module notes; `NaN` where the stack cannot be
/// read (the request is refused before any work then).
///
/// ```
/// use aliasing_sim::transfer::{Tallies, TransferParams, cost::estimate_seconds};
/// let p = TransferParams::new("ethernet-tcp", 10_u128.pow(13), vec![1500, 9000], vec![1e-6], vec![1]);
/// let s = estimate_seconds(&p, &Tallies::new(&p), 2);
/// // about a minute of work on 2 cores (docs/guide/transfer.md: 69 s of CPU)
/// assert!(s > 15.0 && s < 120.0, "{s}");
/// // every MTU from 68 to 9216: days
/// let all = TransferParams::new("ethernet-tcp", 10_u128.pow(13), (68..=9216).collect(), vec![1e-6], vec![1]);
/// assert!(estimate_seconds(&all, &Tallies::new(&all), 2) > 86_400.0);
/// ```
pub fn estimate_seconds(params: &TransferParams, kept: &Tallies, threads: usize) -> f64 {
    match estimate(params, kept) {
        Ok(s) => s / threads.max(1) as f64,
        Err(_) => f64::NAN,
    }
}

fn estimate(params: &TransferParams, kept: &Tallies) -> Result<f64> {
    let over = params.overhead()?;
    let crc = match params.stack.parse::<StackSpec>()? {
        StackSpec::Stacked { crc, .. } => crc,
        _ => return Err(Error::Invalid("no CRC".into())),
    };
    let g = crc.generator;
    let width = g.width();
    // x + 1 divides g iff g(1) = 0: an even number of terms
    let even = g.full().count_ones() % 2 == 0;
    let mut s = 0.0;
    let link = params.bers.iter().any(|&p| p > 0.0);
    let file_bytes = params
        .payload_file
        .as_ref()
        .map(|_| params.size as f64)
        .unwrap_or(0.0);
    let u = UNIT_SECONDS;
    let per_byte: f64 = params
        .corruption
        .iter()
        .map(|c| match c.model {
            Model::Bits { .. } => u.file_byte_bits,
            _ => u.file_byte_word,
        })
        .sum();
    for &mtu in &params.mtus {
        let bytes = mtu + over;
        if link && kept.frames.iter().all(|f| f.bytes != bytes) {
            s += frame_seconds(params, bytes, over + HEADERS, width, even);
        }
        s += file_bytes * per_byte;
    }
    Ok(s)
}
