//! The driver: cuts the frame index space into fixed chunks, runs them in
//! parallel with rayon, adds the integer counts (so the sum does not depend on
//! order), and reports progress and checkpoints between batches of chunks.
//!
//! ```
//! use aliasing_sim::run::{Engine, Plan, RunOptions, simulate};
//! use aliasing_sim::stack::{Frame, Payload};
//! use aliasing_sim::channel::Channel;
//! let plan = Plan::new(Frame::new("crc8", 16, Payload::Random).unwrap(),
//!                      Channel::Bsc { ber: 0.05 }, 1, 20_000);
//! let c = simulate(&plan, &RunOptions::default(), None).unwrap();
//! assert_eq!(c.frames, 20_000);
//! assert!(c.frames_with_error > 0);
//! ```

use crate::channel::{Channel, ErrorStream};
use crate::dense::Dense;
use crate::shard::{Drive, Tally, Team, drive};
use crate::sparse::Sparse;
use crate::stack::Frame;
use crate::stream::chunk_rng;
use aliasing_core::progress::{self, Silent};
use aliasing_core::shard::Shard;
use aliasing_core::{Error, Result};
use serde::{Deserialize, Serialize};
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

/// Frames per chunk unless told otherwise. Part of the parameters: changing it
/// changes the random streams.
pub const DEFAULT_CHUNK_FRAMES: u64 = 1 << 16;

/// The most frames one run accepts.
pub const MAX_FRAMES: u64 = 10_000_000_000_000_000;

/// What to simulate.
#[derive(Debug, Clone)]
pub struct Plan {
    /// The frame layout and payload.
    pub frame: Frame,
    /// The error model.
    pub channel: Channel,
    /// The seed of every random stream.
    pub seed: u64,
    /// Number of frames.
    pub frames: u64,
    /// Frames per chunk (each chunk has its own random stream).
    pub chunk_frames: u64,
}

impl Plan {
    /// A plan with the default chunk size.
    pub fn new(frame: Frame, channel: Channel, seed: u64, frames: u64) -> Self {
        Plan {
            frame,
            channel,
            seed,
            frames,
            chunk_frames: DEFAULT_CHUNK_FRAMES,
        }
    }

    /// Number of chunks.
    pub fn chunks(&self) -> u64 {
        self.frames.div_ceil(self.chunk_frames)
    }

    /// The chunks of shard `i` of `n` (1-based): every `n`-th chunk from
    /// `i - 1` ([`Shard::strided_len`]).
    pub fn shard_chunks(&self, shard: Shard) -> u64 {
        shard.strided_len(self.chunks())
    }

    /// The frames in the first `done` chunks of shard `i` of `n`: every
    /// chunk holds [`Plan::chunk_frames`] but the plan's last, which holds
    /// the rest.
    pub fn shard_frames(&self, shard: Shard, done: u64) -> u64 {
        let Shard { index: i, count: n } = shard;
        let full = done * self.chunk_frames;
        let Some(last) = self.chunks().checked_sub(1) else {
            return 0;
        };
        let short = (last + 1) * self.chunk_frames - self.frames;
        // the plan's last chunk is the shard's chunk j when last = i - 1 + j n
        match last.checked_sub(i - 1) {
            Some(d) if d % n == 0 && d / n < done => full - short,
            _ => full,
        }
    }

    /// Checks the parameters.
    pub fn validate(&self) -> Result<()> {
        self.channel
            .validate(self.frame.n_bits())
            .map_err(Error::Invalid)?;
        if self.chunk_frames == 0 || self.chunk_frames > 1 << 40 {
            return Err(Error::Invalid(
                "chunk size must be from 1 to 2^40 frames".into(),
            ));
        }
        if self.frames > MAX_FRAMES {
            return Err(Error::Invalid(format!(
                "{} frames: at most {MAX_FRAMES:e} per run (about 14 hours on 4096 cores at \
                 2e8 frames/s each); split a larger study into runs with different seeds",
                self.frames
            )));
        }
        if self.frame.checks.len() > 63 {
            return Err(Error::Invalid("at most 63 checks per stack".into()));
        }
        Ok(())
    }
}

/// Which engine evaluates frames.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "snake_case")]
#[non_exhaustive]
pub enum Engine {
    /// Cost per error: syndrome tables and checksum deltas.
    #[default]
    Sparse,
    /// Real bytes, real checks, every frame.
    Dense,
}

/// Integer tallies of a run (or part of one). Adding tallies is exact and
/// order-independent.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, Default)]
#[non_exhaustive]
pub struct Counts {
    /// Frames simulated.
    pub frames: u64,
    /// Frames with at least one flipped bit.
    pub frames_with_error: u64,
    /// Flipped bits in all.
    pub bit_errors: u64,
    /// Per check: frames with an error (anywhere in the frame) that the check passed.
    pub escapes: Vec<u64>,
    /// Frames with an error that every check passed.
    pub stack_escapes: u64,
    /// Per check: frames with at least one flipped bit in the bytes the
    /// check covers (the bytes it reads and its own field).
    pub errored_in_coverage: Vec<u64>,
    /// Per check: those of `errored_in_coverage` that the check passed.
    pub escapes_in_coverage: Vec<u64>,
}

impl Counts {
    /// Zero tallies for `checks` checks.
    pub fn zero(checks: usize) -> Self {
        Counts {
            escapes: vec![0; checks],
            errored_in_coverage: vec![0; checks],
            escapes_in_coverage: vec![0; checks],
            ..Default::default()
        }
    }

    /// Adds `other` into `self`.
    pub fn add(&mut self, other: &Counts) {
        self.frames += other.frames;
        self.frames_with_error += other.frames_with_error;
        self.bit_errors += other.bit_errors;
        self.stack_escapes += other.stack_escapes;
        for (a, b) in self.escapes.iter_mut().zip(&other.escapes) {
            *a += b;
        }
        for (a, b) in self
            .errored_in_coverage
            .iter_mut()
            .zip(&other.errored_in_coverage)
        {
            *a += b;
        }
        for (a, b) in self
            .escapes_in_coverage
            .iter_mut()
            .zip(&other.escapes_in_coverage)
        {
            *a += b;
        }
    }
}

impl Tally for Counts {
    fn empty_like(&self) -> Self {
        Counts::zero(self.escapes.len())
    }
    fn add(&mut self, other: &Self) {
        Counts::add(self, other)
    }
}

/// The engines' shared, read-only state for one plan.
#[doc(hidden)] // internal: a plan with its engine tables, public for the engine tests
pub struct Prepared<'a> {
    plan: &'a Plan,
    engine: Engine,
    sparse: Option<Sparse<'a>>,
    dense: Dense<'a>,
    /// Per byte: the checks covering it (bit `i` for check `i`).
    coverage: Vec<u64>,
}

impl<'a> Prepared<'a> {
    /// Builds the tables of `engine` for `plan`.
    pub fn new(plan: &'a Plan, engine: Engine) -> Self {
        Prepared {
            plan,
            engine,
            sparse: (engine == Engine::Sparse).then(|| Sparse::new(&plan.frame, plan.seed)),
            dense: Dense::new(&plan.frame, plan.seed),
            coverage: coverage(&plan.frame),
        }
    }

    /// Runs chunk `chunk`, calling `visit(frame index, flips, pass mask)` for
    /// every frame with an error.
    pub fn chunk_visit(&self, chunk: u64, visit: &mut dyn FnMut(u64, &[u32], u64)) -> Counts {
        let plan = self.plan;
        let nchecks = plan.frame.checks.len();
        let all = if nchecks == 64 {
            u64::MAX
        } else {
            (1u64 << nchecks) - 1
        };
        let first = chunk * plan.chunk_frames;
        let last = (first + plan.chunk_frames).min(plan.frames);
        let mut errors = ErrorStream::new(
            &plan.channel,
            plan.frame.n_bits(),
            chunk_rng(plan.seed, chunk, 0),
        );
        let mut counts = Counts::zero(nchecks);
        counts.frames = last.saturating_sub(first);
        let mut flips = Vec::with_capacity(64);
        let mut buf = vec![0u8; plan.frame.bytes];
        let mut index = first;
        while index < last {
            let pass = match self.engine {
                Engine::Sparse => {
                    // jump over error-free frames: cost per error, not per frame
                    index += errors.skip_clean(last - index);
                    if index >= last {
                        break;
                    }
                    errors.next_frame(&mut flips);
                    index += 1;
                    if flips.is_empty() {
                        continue;
                    }
                    self.sparse
                        .as_ref()
                        .unwrap()
                        .verdict(index - 1, &flips, &mut buf)
                }
                Engine::Dense => {
                    errors.next_frame(&mut flips);
                    self.dense.build(index, &mut buf);
                    index += 1;
                    if flips.is_empty() {
                        continue;
                    }
                    self.dense.flip(&mut buf, &flips);
                    self.dense.verdict(&buf)
                }
            };
            counts.frames_with_error += 1;
            counts.bit_errors += flips.len() as u64;
            let mut p = pass;
            while p != 0 {
                counts.escapes[p.trailing_zeros() as usize] += 1;
                p &= p - 1;
            }
            counts.stack_escapes += (pass == all) as u64;
            let mut hit = 0u64;
            for &t in &flips {
                hit |= self.coverage[plan.frame.bit_at(t).0];
            }
            while hit != 0 {
                let i = hit.trailing_zeros() as usize;
                counts.errored_in_coverage[i] += 1;
                counts.escapes_in_coverage[i] += (pass >> i & 1) as u64;
                hit &= hit - 1;
            }
            visit(index - 1, &flips, pass);
        }
        counts
    }

    /// Runs chunk `chunk`.
    pub fn chunk(&self, chunk: u64) -> Counts {
        self.chunk_visit(chunk, &mut |_, _, _| {})
    }
}

/// Per byte of `frame`, the mask of the checks covering it: the bytes each
/// check reads and its own field.
fn coverage(frame: &Frame) -> Vec<u64> {
    let mut m = vec![0u64; frame.bytes];
    for (i, c) in frame.checks.iter().enumerate() {
        for b in frame.covered_bytes(i) {
            m[b] |= 1 << i;
        }
        for x in &mut m[c.field..c.field + c.field_len] {
            *x |= 1 << i;
        }
    }
    m
}

/// Where a run stands: chunks of its shard done, and their tallies.
pub type Checkpoint = crate::shard::Checkpoint<Counts>;

/// A checkpoint callback: saves the progress; an error stops the run.
pub type CheckpointFn<'a> = crate::shard::CheckpointFn<'a, Counts>;

/// How to run a plan.
pub struct RunOptions<'a> {
    /// Engine.
    pub engine: Engine,
    /// Worker threads (0 = all cores, at most [`crate::shard::MAX_THREADS`]).
    pub threads: usize,
    /// Run only this shard.
    pub shard: Shard,
    /// Watches the run: one stage, `"frames"`, of the shard's frames (those
    /// of a resumed checkpoint reported at once).
    pub progress: &'a dyn progress::Progress,
    /// Called with the state at most every `checkpoint_every`; an error stops the run.
    pub on_checkpoint: Option<CheckpointFn<'a>>,
    /// Interval between checkpoints.
    pub checkpoint_every: Duration,
    /// Processes sharing the run (MPI ranks); member 0 gets the total.
    pub team: Option<&'a dyn Team>,
}

impl Default for RunOptions<'_> {
    fn default() -> Self {
        RunOptions {
            engine: Engine::Sparse,
            threads: 0,
            shard: Shard::WHOLE,
            progress: &Silent,
            on_checkpoint: None,
            checkpoint_every: Duration::from_secs(5),
            team: None,
        }
    }
}

/// Passes the chunks [`drive`] reports on as the frames they hold.
struct ChunkFrames<'a> {
    to: &'a dyn progress::Progress,
    plan: &'a Plan,
    shard: Shard,
    done: AtomicU64,
}

impl progress::Progress for ChunkFrames<'_> {
    fn advance(&self, n: u64) {
        let a = self.done.fetch_add(n, Ordering::Relaxed);
        let f = |d| self.plan.shard_frames(self.shard, d);
        self.to.advance(f(a + n) - f(a));
    }
}

/// Runs `plan` (the shard in `opts`), continuing from `resume` if given.
/// Returns the tallies of the shard's chunks (at member 0 of a team).
pub fn simulate(plan: &Plan, opts: &RunOptions, resume: Option<Checkpoint>) -> Result<Counts> {
    plan.validate()?;
    opts.shard.checked()?;
    let total = plan.shard_chunks(opts.shard);
    let state = resume.unwrap_or(Checkpoint::start(Counts::zero(plan.frame.checks.len())));
    if state.chunks_done > total || state.counts.escapes.len() != plan.frame.checks.len() {
        return Err(Error::Invalid(
            "the checkpoint does not fit this run".into(),
        ));
    }
    let prepared = Prepared::new(plan, opts.engine);
    opts.progress
        .stage("frames", plan.shard_frames(opts.shard, total));
    let frames = ChunkFrames {
        to: opts.progress,
        plan,
        shard: opts.shard,
        done: AtomicU64::new(0),
    };
    let drive_opts = Drive {
        threads: opts.threads,
        progress: &frames,
        on_checkpoint: opts.on_checkpoint,
        checkpoint_every: opts.checkpoint_every,
        team: opts.team,
    };
    drive(plan.chunks(), opts.shard, state, &drive_opts, |c| {
        prepared.chunk(c)
    })
}
