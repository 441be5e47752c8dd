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
//! The unit costs are those of a release build, fixed by two whole-command
//! measurements of docs/guide/transfer.md (release build, user CPU time, 2
//! cores shared with other jobs) and checked against a third:
//!
//! | request | measured CPU | model |
//! |---|---:|---:|
//! | `--size 10TB --mtu 1500,9000 --ber 1e-6,1e-8,1e-10,1e-12` | 69 s | 75 s |
//! | `--size 1TB --mtu 68,9216 --ber 1e-6 --hops 1,255` | 45 s | 46 s |
//! | `--mtu 1500,9000 --ber 1e-10 --corruption word:1e-6 --corruption bits:1e-7` over 1 GB, tallies kept | 11.6 s | 11.6 s |
//!
//! The first two differ by the weight-5 join at 1518 bytes (about 2.4e9
//! pair scans: 24 s); the dual-code pass of a 32-bit CRC (2^32 states per
//! length) takes the larger part of the second, and was measured alone in
//! the test profile: 44 s of CPU on one thread (`--stack ipv4-tcp+crc32
//! --mtu 68 --max-weight 2`, 10 ns a state on a machine at load 15; a
//! release build on a quiet core is about 2.5 times faster). A placement's
//! pass count: 0.68 s of CPU for about 7.5e6 placements in the test
//! profile (`--stack ipv4-tcp+CRC-16/ARC --mtu 200 --max-weight 4`). The
//! file pass: `word` alone 1.2 s of the third request. The model is meant
//! to be right within a factor of about 2, enough to announce a run and to
//! tell a day from an hour.

use super::{HEADERS, Tallies, TransferParams};
use crate::corruption::Model;
use aliasing_core::layout::StackSpec;
use aliasing_core::{Error, Result};

/// Seconds on one core per unit of work (see the module notes for the
/// measurement): weight-4 probe, weight-5 pair scan, codeword placement,
/// dual-code register state, draw and frame bit.
pub const UNIT_SECONDS: UnitSeconds = UnitSeconds {
    probe4: 2.0e-9,
    scan5: 1.0e-8,
    placement: 5.0e-8,
    dual_state: 4.0e-9,
    draw_bit: 1.5e-9,
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
    let pairs = (n * (n - 1.0) / 2.0 / f64::from(1u32 << 22))
        .floor()
        .max(1.0);
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
    let g = crc.generator();
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::transfer::KeptFrame;

    /// The cost model reads only a kept frame's length.
    fn no_dual() -> aliasing_core::weights::DualWeights {
        aliasing_core::weights::DualWeights {
            bits: 0,
            width: 32,
            counts: Vec::new(),
        }
    }

    fn params(stack: &str, mtus: Vec<u64>, bers: Vec<f64>) -> TransferParams {
        TransferParams::new(stack, 10_u128.pow(13), mtus, bers, vec![1])
    }

    #[test]
    fn kept_lengths_and_ber_zero_cost_nothing() {
        let p = params("ethernet-tcp", vec![1500, 9000], vec![1e-6]);
        let all = estimate_seconds(&p, &Tallies::new(&p), 1);
        // two 32-bit dual passes at least
        assert!(all > 2.0 * UNIT_SECONDS.dual_state * 2f64.powi(32), "{all}");
        // one length kept: only the other one's work
        let mut kept = Tallies::new(&p);
        let one = params("ethernet-tcp", vec![9000], vec![1e-6]);
        kept.frames.push(KeptFrame {
            bytes: 1518,
            tally: Default::default(),
            dual: no_dual(),
        });
        let rest = estimate_seconds(&p, &kept, 1);
        assert_eq!(rest, estimate_seconds(&one, &Tallies::new(&one), 1));
        assert!(rest < all);
        // both kept, or BER 0 only: nothing
        kept.frames.push(KeptFrame {
            bytes: 9018,
            tally: Default::default(),
            dual: no_dual(),
        });
        assert_eq!(estimate_seconds(&p, &kept, 1), 0.0);
        let zero = params("ethernet-tcp", vec![1500, 9000], vec![0.0]);
        assert_eq!(estimate_seconds(&zero, &Tallies::new(&zero), 1), 0.0);
        // threads divide it
        assert_eq!(estimate_seconds(&p, &Tallies::new(&p), 4), all / 4.0);
    }

    #[test]
    fn the_model_grows_with_the_work() {
        let t = |stack: &str, mtu: u64, w: u32, samples: u64| {
            let mut p = params(stack, vec![mtu], vec![1e-6]);
            p.max_weight = w;
            p.samples = samples;
            estimate_seconds(&p, &Tallies::new(&p), 1)
        };
        // longer frames, higher weights, draws: more
        assert!(t("ethernet-tcp", 1500, 4, 0) < t("ethernet-tcp", 9000, 4, 0));
        assert!(t("ethernet-tcp", 1500, 4, 0) < t("ethernet-tcp", 1500, 5, 0));
        assert!(t("ethernet-tcp", 1500, 5, 0) < t("ethernet-tcp", 1500, 5, 50_000));
        // weight 5 is not enumerated at 9000 (the pair limit): no change
        assert_eq!(t("ethernet-tcp", 9000, 4, 0), t("ethernet-tcp", 9000, 5, 0));
        // a 16-bit CRC: the dual pass is nothing, the codewords many; the
        // weight-4 placements of a 1502-byte frame are about 1e9: a minute
        // or more (the request that once took minutes in a test)
        let arc = t("ipv4-tcp+CRC-16/ARC", 1500, 4, 0);
        assert!(arc > 60.0, "{arc}");
        assert!(t("ipv4-tcp+CRC-16/ARC", 68, 4, 0) < 0.1);
        // CRC-16/ARC is (x+1) times a primitive: no odd-weight codewords,
        // so weight 5 adds only its search
        let (a4, a5) = (
            t("ipv4-tcp+CRC-16/ARC", 200, 4, 0),
            t("ipv4-tcp+CRC-16/ARC", 200, 5, 0),
        );
        let n = 8.0 * 202.0;
        let search5 = UNIT_SECONDS.scan5 * slices5(n) * n * n / 2.0;
        assert!(
            ((a5 - a4) - search5).abs() <= 1e-9 * a5,
            "{a4} {a5} {search5}"
        );
    }

    #[test]
    fn a_payload_file_costs_a_pass_per_mtu_and_model() {
        let mut p = params("ethernet-tcp", vec![1500, 9000], vec![0.0]);
        p.payload_file = Some("data.bin".into());
        p.size = 1_000_000_000;
        p.corruption = vec!["word:1e-6".parse().unwrap(), "bits:1e-7".parse().unwrap()];
        let s = estimate_seconds(&p, &Tallies::new(&p), 1);
        let want = 2.0 * 1e9 * (UNIT_SECONDS.file_byte_word + UNIT_SECONDS.file_byte_bits);
        assert!((s - want).abs() <= 1e-12 * want, "{s} vs {want}");
        // over uniform data (no file) nothing is read
        p.payload_file = None;
        assert_eq!(estimate_seconds(&p, &Tallies::new(&p), 1), 0.0);
    }

    #[test]
    fn slices_are_lowweights() {
        // lowweight cuts the pair list in powers of two of 2^22 pairs
        assert_eq!(slices5(100.0), 1.0);
        let n = 12144.0;
        let pairs = n * (n - 1.0) / 2.0;
        assert_eq!(
            slices5(n),
            ((pairs / 4194304.0).floor()).log2().ceil().exp2()
        );
        assert_eq!(slices5(n), 32.0);
    }
}
