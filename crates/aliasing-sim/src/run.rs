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
use crate::sparse::Sparse;
use crate::stack::Frame;
use crate::stream::chunk_rng;
use aliasing_core::{Error, Result};
use rayon::prelude::*;
use serde::{Deserialize, Serialize};
use std::time::{Duration, Instant};

/// Frames per chunk unless told otherwise. Part of the parameters: changing it
/// changes the random streams.
pub const DEFAULT_CHUNK_FRAMES: u64 = 1 << 16;

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

    /// The chunks of shard `i` of `n` (1-based): every `n`-th chunk from `i - 1`.
    pub fn shard_chunks(&self, shard: (u64, u64)) -> u64 {
        let (i, n) = shard;
        let total = self.chunks();
        if total < i { 0 } else { (total - i) / n + 1 }
    }

    /// Checks the parameters.
    pub fn validate(&self) -> Result<()> {
        self.channel
            .validate(self.frame.n_bits())
            .map_err(Error::Invalid)?;
        if self.chunk_frames == 0 {
            return Err(Error::Invalid("chunk size must be positive".into()));
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
pub struct Counts {
    /// Frames simulated.
    pub frames: u64,
    /// Frames with at least one flipped bit.
    pub frames_with_error: u64,
    /// Flipped bits in all.
    pub bit_errors: u64,
    /// Per check: frames with an error that the check passed.
    pub escapes: Vec<u64>,
    /// Frames with an error that every check passed.
    pub stack_escapes: u64,
}

impl Counts {
    /// Zero tallies for `checks` checks.
    pub fn zero(checks: usize) -> Self {
        Counts {
            escapes: vec![0; checks],
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
    }
}

/// The engines' shared, read-only state for one plan.
pub struct Prepared<'a> {
    plan: &'a Plan,
    engine: Engine,
    sparse: Option<Sparse<'a>>,
    dense: Dense<'a>,
}

impl<'a> Prepared<'a> {
    /// Builds the tables of `engine` for `plan`.
    pub fn new(plan: &'a Plan, engine: Engine) -> Self {
        Prepared {
            plan,
            engine,
            sparse: (engine == Engine::Sparse).then(|| Sparse::new(&plan.frame, plan.seed)),
            dense: Dense::new(&plan.frame, plan.seed),
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
            visit(index - 1, &flips, pass);
        }
        counts
    }

    /// Runs chunk `chunk`.
    pub fn chunk(&self, chunk: u64) -> Counts {
        self.chunk_visit(chunk, &mut |_, _, _| {})
    }
}

/// Where a run stands: chunks of its shard done, and their tallies.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Progress {
    /// Number of this shard's chunks done (always a prefix of its chunk list).
    pub chunks_done: u64,
    /// Tallies of those chunks.
    pub counts: Counts,
}

/// A checkpoint callback: saves the progress; an error stops the run.
pub type CheckpointFn<'a> = &'a (dyn Fn(&Progress) -> Result<()> + Sync);

/// How to run a plan.
pub struct RunOptions<'a> {
    /// Engine.
    pub engine: Engine,
    /// Worker threads (0 = all cores).
    pub threads: usize,
    /// Run only shard `i` of `n` (1-based).
    pub shard: (u64, u64),
    /// Called with the progress after every batch (frames done in this shard).
    pub on_progress: Option<&'a (dyn Fn(u64, u64) + Sync)>,
    /// Called with the state at most every `checkpoint_every`; an error stops the run.
    pub on_checkpoint: Option<CheckpointFn<'a>>,
    /// Interval between checkpoints.
    pub checkpoint_every: Duration,
}

impl Default for RunOptions<'_> {
    fn default() -> Self {
        RunOptions {
            engine: Engine::Sparse,
            threads: 0,
            shard: (1, 1),
            on_progress: None,
            on_checkpoint: None,
            checkpoint_every: Duration::from_secs(5),
        }
    }
}

/// Runs `plan` (the shard in `opts`), continuing from `resume` if given.
/// Returns the tallies of the shard's chunks.
pub fn simulate(plan: &Plan, opts: &RunOptions, resume: Option<Progress>) -> Result<Counts> {
    plan.validate()?;
    let (si, sn) = opts.shard;
    if sn == 0 || si == 0 || si > sn {
        return Err(Error::Invalid(format!(
            "shard {si}/{sn}: expected I/N with 1 <= I <= N"
        )));
    }
    let total = plan.shard_chunks(opts.shard);
    let mut state = resume.unwrap_or(Progress {
        chunks_done: 0,
        counts: Counts::zero(plan.frame.checks.len()),
    });
    if state.chunks_done > total || state.counts.escapes.len() != plan.frame.checks.len() {
        return Err(Error::Invalid(
            "the checkpoint does not fit this run".into(),
        ));
    }
    let prepared = Prepared::new(plan, opts.engine);
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(opts.threads)
        .build()
        .map_err(|e| Error::Invalid(format!("cannot start threads: {e}")))?;
    let threads = pool.current_num_threads() as u64;
    let shard_frames = |done: u64| -> u64 {
        (0..done)
            .map(|j| {
                let c = (si - 1) + j * sn;
                ((c + 1) * plan.chunk_frames).min(plan.frames) - c * plan.chunk_frames
            })
            .sum()
    };
    let all_frames = shard_frames(total);
    let mut last_checkpoint = Instant::now();
    // Batches of a few chunks per thread; they grow while the batches are quick.
    let mut batch = threads * 2;
    while state.chunks_done < total {
        let start = state.chunks_done;
        let end = (start + batch).min(total);
        let t0 = Instant::now();
        let part = pool.install(|| {
            (start..end)
                .into_par_iter()
                .map(|j| prepared.chunk((si - 1) + j * sn))
                .reduce(
                    || Counts::zero(plan.frame.checks.len()),
                    |mut a, b| {
                        a.add(&b);
                        a
                    },
                )
        });
        state.counts.add(&part);
        state.chunks_done = end;
        if t0.elapsed() < Duration::from_millis(200) {
            batch = (batch * 2).min(threads * 64);
        } else if batch > threads {
            batch /= 2;
        }
        if let Some(p) = opts.on_progress {
            p(state.counts.frames, all_frames);
        }
        if let Some(cp) = opts.on_checkpoint
            && state.chunks_done < total
            && last_checkpoint.elapsed() >= opts.checkpoint_every
        {
            cp(&state)?;
            last_checkpoint = Instant::now();
        }
    }
    Ok(state.counts)
}
