//! The joint stack computation (`alias stack`) as shard work: its
//! parameters, the work items of every frame length in one list, the
//! tally, and its shard files.
//!
//! The items are those of [`aliasing_core::joint::JointPlan`] for each
//! length in turn (codeword shape parts, then sample chunks), so the list is
//! fixed by the parameters; shard `i` of `n` takes every `n`-th item
//! ([`crate::shard`]). Tallies are integer sums, so any split, merged, gives
//! the single run's numbers bit for bit.
//!
//! ```
//! use aliasing_sim::joint::{StackParams, StackWork};
//! use aliasing_core::shard::Shard;
//! use aliasing_sim::shard::{drive, Checkpoint, Drive};
//! let params = StackParams {
//!     stack: "ethernet-tcp".into(),
//!     bytes: vec![100],
//!     bers: vec![1e-5],
//!     max_weight: 4,
//!     samples: 0,
//!     seed: 1,
//! };
//! let work = StackWork::new(&params).unwrap();
//! let run = |i, n| {
//!     let start = Checkpoint::start(work.empty_tally());
//!     let shard = Shard::new(i, n).unwrap();
//!     drive(work.items(), shard, start, &Drive::default(), |i| work.run(i)).unwrap()
//! };
//! let mut two = run(1, 2);
//! aliasing_sim::shard::Tally::add(&mut two, &run(2, 2));
//! assert_eq!(two, run(1, 1));
//! ```

use crate::shard::{ShardFile, Tally};
use aliasing_core::joint::{FrameTally, JointOptions, JointPlan, JointStack};
use aliasing_core::layout::{Frame, Payload};
use aliasing_core::{Error, Result};
use serde::{Deserialize, Serialize};

/// Kind of an `alias stack` shard file.
pub const STACK_FORMAT: &str = "alias-stack";

/// Everything that fixes an `alias stack` run's result.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct StackParams {
    /// The stack (frame layout).
    pub stack: String,
    /// Frame lengths in bytes.
    pub bytes: Vec<u64>,
    /// Bit error rates reported.
    pub bers: Vec<f64>,
    /// Highest weight enumerated (before each length's pair limits).
    pub max_weight: u32,
    /// Draws of the next weight per length (0 for none).
    pub samples: u64,
    /// Seed of the draws.
    pub seed: u64,
}

impl StackParams {
    /// The options of the joint computation.
    pub fn options(&self) -> JointOptions {
        JointOptions {
            max_weight: self.max_weight,
            samples: self.samples,
            seed: self.seed,
        }
    }
}

/// The tallies of every frame length, in the order of [`StackParams::bytes`].
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct StackTally(pub Vec<FrameTally>);

impl Tally for StackTally {
    fn empty_like(&self) -> Self {
        StackTally(
            self.0
                .iter()
                .map(|t| {
                    let mut e = t.clone();
                    e.terms.iter_mut().for_each(|w| {
                        (w.codewords, w.pass_count, w.touching) = (0, 0, 0);
                    });
                    e.sample = Default::default();
                    e
                })
                .collect(),
        )
    }
    fn add(&mut self, other: &Self) {
        for (a, b) in self.0.iter_mut().zip(&other.0) {
            a.add(b);
        }
    }
}

/// A shard file of `alias stack`.
pub type StackFile = ShardFile<StackParams, StackTally>;

/// Which items of the list are run.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Items {
    /// Every item.
    All,
    /// The enumeration's items only (no sample chunks).
    Enumeration,
    /// The sample chunks of the lengths marked `true` only.
    Samples,
}

/// The frames and plans of a run, and its list of items.
pub struct StackWork {
    /// The frames, one per length.
    pub frames: Vec<Frame>,
    /// Their plans.
    pub plans: Vec<JointPlan>,
    /// The global item list: `(length index, item of its plan)`.
    items: Vec<(usize, u64)>,
}

impl StackWork {
    /// Builds every frame's layout and plan (refusing a bad length or stack
    /// before any long work); the item list is every length's items in order.
    pub fn new(params: &StackParams) -> Result<Self> {
        let opts = params.options();
        let mut frames = Vec::new();
        let mut plans = Vec::new();
        let mut items = Vec::new();
        for (k, &b) in params.bytes.iter().enumerate() {
            let b = usize::try_from(b)
                .map_err(|_| Error::Invalid(format!("{b} bytes: too long a frame")))?;
            let f = Frame::new(&params.stack, b, Payload::Random)?;
            let plan = JointPlan::new(&f, &opts).map_err(|e| with_bytes(e, b))?;
            items.extend((0..plan.items()).map(|i| (k, i)));
            frames.push(f);
            plans.push(plan);
        }
        Ok(StackWork {
            frames,
            plans,
            items,
        })
    }

    /// Items in the list.
    pub fn items(&self) -> u64 {
        self.items.len() as u64
    }

    /// The indices of the items of a kind: the enumeration's, or the sample
    /// chunks of the lengths where `want[k]` (for the sampling pass of a
    /// single run).
    pub fn select(&self, which: Items, want: &[bool]) -> Vec<u64> {
        (0..self.items())
            .filter(|&i| {
                let (k, j) = self.items[i as usize];
                let e = j < self.plans[k].enumeration_items();
                match which {
                    Items::All => true,
                    Items::Enumeration => e,
                    Items::Samples => !e && want.get(k).copied().unwrap_or(false),
                }
            })
            .collect()
    }

    /// The tally of no work.
    pub fn empty_tally(&self) -> StackTally {
        StackTally(self.plans.iter().map(|p| p.empty_tally()).collect())
    }

    /// The tally of item `i` of the list.
    pub fn run(&self, i: u64) -> StackTally {
        let mut t = self.empty_tally();
        if let Some(&(k, j)) = self.items.get(i as usize) {
            t.0[k] = self.plans[k].run(j);
        }
        t
    }

    /// Each length's stack from the total tally (see
    /// [`JointStack::from_tally`]: the dual code of each length, a few
    /// seconds for a 32-bit CRC).
    pub fn stacks(&self, tally: &StackTally) -> Result<Vec<JointStack>> {
        self.stacks_with(tally, &aliasing_core::progress::Silent)
    }

    /// [`StackWork::stacks`] watched by `progress`: one stage
    /// `"dual-code windows"` per length ([`JointStack::from_tally_with`]).
    pub fn stacks_with(
        &self,
        tally: &StackTally,
        progress: &dyn aliasing_core::progress::Progress,
    ) -> Result<Vec<JointStack>> {
        if tally.0.len() != self.plans.len() {
            return Err(Error::Invalid(format!(
                "a tally of {} lengths for {} lengths",
                tally.0.len(),
                self.plans.len()
            )));
        }
        self.plans
            .iter()
            .zip(&tally.0)
            .zip(&self.frames)
            .map(|((p, t), f)| {
                JointStack::from_tally_with(p, t, progress).map_err(|e| with_bytes(e, f.bytes))
            })
            .collect()
    }
}

fn with_bytes(e: Error, bytes: usize) -> Error {
    match e {
        Error::Unsupported(m) => Error::Unsupported(format!("{bytes} bytes: {m}")),
        Error::Invalid(m) => Error::Invalid(format!("{bytes} bytes: {m}")),
        e => e,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::shard::{Checkpoint, Drive, drive, merge};
    use aliasing_core::shard::Shard;
    // (the stacks from a tally, dual code included, are tested end to end
    // in the command line's tests)

    fn params() -> StackParams {
        StackParams {
            stack: "ethernet-tcp".into(),
            bytes: vec![64, 300],
            bers: vec![1e-4, 1e-6],
            max_weight: 5,
            samples: 3000,
            seed: 9,
        }
    }

    #[test]
    fn shards_merge_to_the_single_run_bit_for_bit() {
        let p = params();
        let work = StackWork::new(&p).unwrap();
        assert!(work.items() > 20, "{}", work.items());
        let run = |shard| {
            let start = Checkpoint::start(work.empty_tally());
            drive(work.items(), shard, start, &Drive::default(), |i| {
                work.run(i)
            })
            .unwrap()
        };
        let whole = run(Shard::WHOLE);
        for n in [2, 5] {
            let files: Vec<_> = (1..=n)
                .map(|i| {
                    let shard = Shard::new(i, n).unwrap();
                    let f = StackFile::finished(
                        STACK_FORMAT,
                        p.clone(),
                        shard,
                        work.items(),
                        run(shard),
                    );
                    let text = f.to_text().unwrap();
                    (
                        format!("s{i}"),
                        StackFile::from_text(&text, STACK_FORMAT, "s").unwrap(),
                    )
                })
                .collect();
            let (_, total) = merge(&files).unwrap();
            assert_eq!(total, whole, "{n} shards");
        }
        // each length's items run alone, in reverse order: the same tally
        for (k, plan) in work.plans.iter().enumerate() {
            let mut t = plan.empty_tally();
            for i in (0..plan.items()).rev() {
                t.add(&plan.run(i));
            }
            assert_eq!(t, whole.0[k]);
            assert_eq!(t.sample.draws, 3000);
            // 300 bytes: weight-5 codewords pass the checksums
            assert_eq!(t.terms.iter().any(|w| w.pass_count > 0), k == 1);
        }
    }
}
