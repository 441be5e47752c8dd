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
//! the joint computation's sampling plan lowers it for long frames):
//!
//! - the shape search: `n^2 / 2` pairs for weight 4, each a step of a
//!   sequential scan of Zech logarithms where the generator is primitive
//!   of width 32 or less (CRC-32; see `aliasing_core::lowweight`), a table
//!   probe otherwise; and for weight 5 the `n^2 / 2` position pairs of the
//!   join, each gathered into its slice, sorted and joined once;
//! - the codewords' pass counts: the expected number of weight-`v` shapes
//!   of span below `n`, `C(n-1, v-1) / 2^r` (`2^(r-1)` for even `v` and
//!   none for odd `v` where `x + 1` divides the generator), each summed at
//!   `min(n / v, 8 (header bytes) + 16)` placements;
//! - the CRC's dual weights: `2^r` register states (the lengths of a call
//!   share one pass over the states, but each length still costs its own
//!   window update per state: measured, two lengths take twice one);
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
//! The unit costs are those of a release build, fixed by whole-command
//! measurements (release build, user CPU time from `/usr/bin/time`, 2 cores
//! shared with other jobs, load average about 3.5) of the three requests of
//! docs/guide/transfer.md, and of parts of them:
//!
//! | request | measured CPU | model |
//! |---|---:|---:|
//! | `--size 10TB --mtu 1500,9000 --ber 1e-6,1e-8,1e-10,1e-12` | 29.3 s | 32.6 s |
//! | `--size 1TB --mtu 68,9216 --ber 1e-6 --hops 1,255` | 19.9 s | 17.9 s |
//! | `--mtu 1500,9000 --ber 1e-10 --corruption word:1e-6 --corruption bits:1e-7` over 1 GB, tallies kept | 3.3 s | 4.4 s |
//!
//! (the first run with `--tallies t.json`, the file the third reads; the
//! third measured at load average 9 to 11, against 7.3 to 8.5 s for the
//! `bits:P` chain before its fixed-width vector form, when the model said
//! 11.6 s: `bits` per byte 1.6 ns, from 5.2; the
//! same requests measured 69 s, 45 s and 11.6 s before the weight-4
//! search by Zech logarithms, the weight-5 join by slices and the dual pass
//! shared by the lengths, when the model said 75 s, 46 s and 11.6 s). The
//! parts, each one `alias transfer --size 1TB --ber 1e-6` (CPU seconds):
//!
//! - the dual weights: `--mtu 68 --max-weight 2` 6.25 s, `--mtu 68,69`
//!   12.1 s: 1.45 ns a register state and length;
//! - the weight-5 join: `--stack ipv4-tcp+CRC-32C --mtu 1500 --ber 1e-8`
//!   10.3 s at `--max-weight 5`, 5.5 s at 4 (CRC-32C has the factor
//!   `x + 1`: no weight-5 codewords to place), so 4.7 s for 7.2e7 pairs;
//! - the weight-4 search by Zech logarithms: `--mtu 9000 --max-weight 4
//!   --samples 1000` 8.9 s, less the dual pass and the placements, about
//!   1.9 s for 2.6e9 pairs;
//! - the draws: `--mtu 9000` 11.7 s with the default 50,000 draws (at BER
//!   1e-6 and at 1e-12 alike), 8.9 s with 1,000: 0.75 ns a frame bit;
//! - a placement's pass count: `--mtu 1500 --ber 1e-8` 20.9 s, less the
//!   dual pass and the join, about 9.8 s for the 1.0e8 placements of
//!   weight 5 the model counts;
//! - the file pass: `word` alone 1.2 s of the third request (0.6 ns a
//!   byte and MTU); `bits` the rest.
//!
//! The weight-4 table probes (generators that are not primitive) keep their
//! earlier cost, too small to measure at Ethernet lengths. The model is
//! meant to be right within a factor of about 2 (a test checks the table),
//! enough to announce a run and to tell a day from an hour.

use super::{HEADERS, Tallies, TransferParams};
use crate::corruption::Model;
use aliasing_core::layout::StackSpec;
use aliasing_core::{Error, Result};

/// Seconds on one core per unit of work (see the module notes for the
/// measurement): weight-4 probe or Zech step, weight-5 pair, codeword
/// placement, dual-code register state and length, draw and frame bit, and
/// byte of the payload file per corruption model.
pub const UNIT_SECONDS: UnitSeconds = UnitSeconds {
    probe4: 2.0e-9,
    zech4: 7.0e-10,
    pair5: 6.5e-8,
    placement: 9.5e-8,
    dual_state: 1.45e-9,
    draw_bit: 7.5e-10,
    file_byte_word: 6.0e-10,
    file_byte_bits: 1.6e-9,
};

/// The unit costs of the model, in seconds on one core.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct UnitSeconds {
    /// One table probe of the weight-4 shape search (by hash probes: a
    /// generator that is not primitive, or wider than 32 bits).
    pub probe4: f64,
    /// One pair `(d, L)` of the weight-4 shape search by Zech logarithms (a
    /// primitive generator of width 32 or less: a sequential scan).
    pub zech4: f64,
    /// One position pair of the weight-5 join (gathered into its slice,
    /// sorted and joined).
    pub pair5: f64,
    /// One codeword placement's pass count.
    pub placement: f64,
    /// One register state of the dual-code pass, for one frame length.
    pub dual_state: f64,
    /// One frame bit of one draw of the next weight.
    pub draw_bit: f64,
    /// One byte of the payload file for `word`, `burst` or `splice`.
    pub file_byte_word: f64,
    /// One byte of the payload file for `bits`.
    pub file_byte_bits: f64,
}

/// Pair limits of the shape search (as `aliasing_core::lowweight`).
const SHAPE_PAIR_LIMIT: f64 = aliasing_core::__private::lowweight::SHAPE_PAIR_LIMIT;
const SHAPE5_PAIR_LIMIT: f64 = aliasing_core::__private::lowweight::SHAPE5_PAIR_LIMIT;

/// `ln C(a, b)` for `b` small.
fn ln_choose(a: f64, b: u32) -> f64 {
    if a < f64::from(b) {
        return f64::NEG_INFINITY;
    }
    (0..b)
        .map(|i| (a - f64::from(i)).ln() - f64::from(i + 1).ln())
        .sum()
}

/// The estimated seconds of the link part of one frame length of `bytes`
/// bytes (`header` bytes besides the payload), computed anew: shape search,
/// pass counts, dual weights and draws, on one core. `zech`: the generator
/// is primitive of width 32 or less (the weight-4 search by Zech
/// logarithms).
pub fn frame_seconds(
    params: &TransferParams,
    bytes: u64,
    header: u64,
    width: u32,
    even: bool,
    zech: bool,
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
        s += if zech { u.zech4 } else { u.probe4 } * pairs;
    }
    if w >= 5 {
        s += u.pair5 * pairs;
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
/// // tens of seconds on 2 cores (docs/guide/transfer.md: 29 s of CPU at 4 BERs)
/// assert!(s > 5.0 && s < 60.0, "{s}");
/// // every MTU from 68 to 9216: hours on 2 cores, over a day on one (the
/// // dual pass alone is about 6 s of CPU for each of the 9,149 lengths)
/// let all = TransferParams::new("ethernet-tcp", 10_u128.pow(13), (68..=9216).collect(), vec![1e-6], vec![1]);
/// let hours = estimate_seconds(&all, &Tallies::new(&all), 2) / 3600.0;
/// assert!(hours > 8.0 && hours < 24.0, "{hours}");
/// assert!(estimate_seconds(&all, &Tallies::new(&all), 1) > 86_400.0);
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
    let g = crc.generator();
    let width = g.width();
    // x + 1 divides g iff g(1) = 0: an even number of terms
    let even = g.full().count_ones() % 2 == 0;
    // as aliasing_core::lowweight: the weight-4 search by Zech logarithms
    // where x has the full period 2^r - 1 (r <= 32)
    let zech = width <= 32 && aliasing_core::gf2::period(&g) == (1u128 << width) - 1;
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
            s += frame_seconds(params, bytes, over + HEADERS, width, even, zech);
        }
        s += file_bytes * per_byte;
    }
    Ok(s)
}
