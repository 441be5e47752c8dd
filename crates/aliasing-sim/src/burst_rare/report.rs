//! Scores, tallies and the reports of a run (single CRC and joint stack).

use super::*;

/// One draw's score, split by the route that found its codewords.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct Score {
    /// From the window completion.
    pub window: f64,
    /// From the single-position syndrome lookup.
    pub position: f64,
    /// From the short-burst syndrome lookup.
    pub burst: f64,
    /// Where the stack has Internet checksums beside its CRC
    /// ([`BurstRareWork::joint`]): each codeword found counted with
    /// `P(e) / D(e)` times the probability over the random payload that
    /// every checksum passes too; 0 otherwise.
    pub joint: f64,
    /// Each codeword found that flips a checksum field computed from random
    /// data, counted with `P(e) / D(e)` times the field model's bound
    /// (the joint model's bound for that pattern); 0 otherwise.
    pub model: f64,
}

impl Score {
    /// The draw's score `Z`, the sum over the routes.
    pub fn total(&self) -> f64 {
        self.window + self.position + self.burst
    }
}

/// The tally of a run or of part of it: exact sums of the draws' scores
/// ([`ExactSum`]), so that any split into items, shards, ranks or resumed
/// pieces adds up to the same bits.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct BurstTally {
    /// Draws.
    pub n: u64,
    /// Draws that found a codeword with a nonzero score.
    pub hits: u64,
    /// Sum of the scores.
    pub sum: ExactSum,
    /// Sum of the squared scores.
    pub sum2: ExactSum,
    /// Sums of the scores' parts by route: window completion,
    /// single-position lookup, short-burst lookup.
    pub routes: [ExactSum; 3],
}

impl BurstTally {
    /// Adds one draw's score.
    pub(super) fn push(&mut self, sc: &Score) {
        let z = sc.total();
        self.n += 1;
        if z > 0.0 {
            self.hits += 1;
            self.sum.add(z);
            self.sum2.add_square(z);
            for (r, v) in self
                .routes
                .iter_mut()
                .zip([sc.window, sc.position, sc.burst])
            {
                r.add(v);
            }
        }
    }
}

impl crate::shard::Tally for BurstTally {
    fn empty_like(&self) -> Self {
        BurstTally::default()
    }
    fn add(&mut self, o: &Self) {
        self.n += o.n;
        self.hits += o.hits;
        self.sum.merge(&o.sum);
        self.sum2.merge(&o.sum2);
        for (a, b) in self.routes.iter_mut().zip(&o.routes) {
            a.merge(b);
        }
    }
}

/// The result of a burst-channel rare-event run.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[non_exhaustive]
pub struct BurstRareResult {
    /// How it was obtained (an estimate, never exact).
    pub method: String,
    /// The CRC.
    pub crc_name: String,
    /// The channel.
    pub channel: GilbertElliott,
    /// The proposal the patterns were drawn from.
    pub proposal: GilbertElliott,
    /// Draws.
    pub samples: u64,
    /// Draws that found a codeword with a nonzero score.
    pub hits: u64,
    /// Share of the estimate found by the window completion.
    pub window_share: f64,
    /// Share of the estimate found by the single-position lookup.
    pub position_share: f64,
    /// Share of the estimate found by the short-burst lookup.
    pub burst_share: f64,
    /// `P(at least one error and the CRC passes)`, with its interval.
    pub crc: RareEstimate,
}

/// The report of a burst-channel rare-event run (kind
/// `simulate-rare-burst`): the run's parameters, the draws and the result.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[non_exhaustive]
pub struct BurstRareReport {
    /// Parameters of the run.
    pub params: crate::spec::Params,
    /// `"rare-burst"`.
    pub method: String,
    /// Draws.
    pub samples: u64,
    /// The estimate.
    pub result: BurstRareResult,
}

impl BurstRareReport {
    /// The report of `result` for the run `params`.
    pub fn new(params: crate::spec::Params, result: BurstRareResult) -> Self {
        BurstRareReport {
            params,
            method: "rare-burst".into(),
            samples: result.samples,
            result,
        }
    }
}

impl aliasing_core::document::Document for BurstRareReport {
    const KIND: &'static str = "simulate-rare-burst";
}

/// The tally of a joint run ([`BurstRareWork::joint_item`]): the CRC's
/// tally and exact sums of the draws' joint scores, so that any split into
/// items adds up to the same bits.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct JointBurstTally {
    /// The CRC's tally of the same draws.
    pub crc: BurstTally,
    /// Draws whose joint score is positive.
    pub hits: u64,
    /// Sum of the joint scores.
    pub sum: ExactSum,
    /// Sum of their squares.
    pub sum2: ExactSum,
    /// Sum of the field model's bound scores.
    pub model: ExactSum,
}

impl JointBurstTally {
    pub(super) fn push(&mut self, sc: &Score) {
        self.crc.push(sc);
        if sc.joint > 0.0 {
            self.hits += 1;
            self.sum.add(sc.joint);
            self.sum2.add_square(sc.joint);
        }
        if sc.model > 0.0 {
            self.model.add(sc.model);
        }
    }
}

impl crate::shard::Tally for JointBurstTally {
    fn empty_like(&self) -> Self {
        JointBurstTally::default()
    }
    fn add(&mut self, o: &Self) {
        self.crc.add(&o.crc);
        self.hits += o.hits;
        self.sum.merge(&o.sum);
        self.sum2.merge(&o.sum2);
        self.model.merge(&o.model);
    }
}

/// The result of a joint run on a burst channel: the CRC's escape and the
/// joint escape (every check passes), each an estimate with its interval,
/// from the same draws.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[non_exhaustive]
pub struct BurstJointResult {
    /// How it was obtained (an estimate, never exact).
    pub method: String,
    /// The Internet checksums beside the CRC.
    pub checks: Vec<String>,
    /// Draws whose joint score is positive.
    pub hits: u64,
    /// The field model's bound, summed over the codewords as the estimate
    /// is (0 where no codeword found flips a field computed from random
    /// data); the interval is widened by it.
    pub model_error: f64,
    /// `P(at least one error and every check passes)`, with its interval.
    pub joint: RareEstimate,
    /// The CRC's escape from the same draws (that of the lone CRC at the
    /// frame length, digit for digit).
    pub crc: BurstRareResult,
}

/// The name of the joint method in outputs.
pub const JOINT_METHOD: &str = "estimate: importance sampling (Gilbert-Elliott proposal; \
    window completions + position and short-burst lookups, balance heuristic), each CRC \
    codeword found weighted by the exact probability over the random payload that every \
    Internet checksum passes";

/// The name of the method in outputs.
pub const METHOD: &str = "estimate: importance sampling (Gilbert-Elliott proposal; \
    window completions + position and short-burst lookups, balance heuristic)";
