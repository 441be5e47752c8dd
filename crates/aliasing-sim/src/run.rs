//! The driver: cuts the frame index space into fixed chunks, runs them in
//! parallel with rayon, adds the integer counts (so the sum does not depend on
//! order), and reports progress and checkpoints between batches of chunks.
//!
//! ```
//! use aliasing_sim::run::{Engine, Frames, Plan, RunOptions, Seed, simulate};
//! use aliasing_sim::stack::{Frame, Payload};
//! use aliasing_sim::channel::Channel;
//! let plan = Plan::new(Frame::new("crc8", 16, Payload::Random).unwrap(),
//!                      Channel::Bsc { ber: 0.05 }, Frames(20_000), Seed(1));
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

/// The seed of every random stream of a run. A type of its own, beside
/// [`Frames`], so that [`Plan::new`] and [`crate::spec::Params::new`] (both
/// `frames, seed`, in that order) refuse a swapped pair at compile time;
/// serialized as the bare number (the files keep their shape).
///
/// ```compile_fail
/// use aliasing_sim::run::Plan;
/// use aliasing_sim::stack::{Frame, Payload};
/// use aliasing_sim::{Frames, Seed};
/// let frame = Frame::new("crc8", 16, Payload::Random).unwrap();
/// let ch = aliasing_sim::channel::Channel::Bsc { ber: 1e-3 };
/// // seed and frames swapped: does not compile
/// let plan = Plan::new(frame, ch, Seed(7), Frames(1000));
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
#[serde(transparent)]
pub struct Seed(pub u64);

/// A number of frames (of a run, or of a shard). See [`Seed`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
#[serde(transparent)]
pub struct Frames(pub u64);

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
    /// A plan of `frames` frames, every random stream from `seed`, with the
    /// default chunk size.
    pub fn new(frame: Frame, channel: Channel, frames: Frames, seed: Seed) -> Self {
        Plan {
            frame,
            channel,
            seed: seed.0,
            frames: frames.0,
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
        let Shard {
            index: i, count: n, ..
        } = shard;
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
        self.channel.validate(self.frame.n_bits())?;
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
#[cfg_attr(feature = "clap", derive(clap::ValueEnum))]
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
    /// The mask of every byte when all bytes have the same one: then every
    /// frame with an error hits exactly these checks (no per-flip look-up).
    uniform: Option<u64>,
}

impl<'a> Prepared<'a> {
    /// Builds the tables of `engine` for `plan`.
    pub fn new(plan: &'a Plan, engine: Engine) -> Self {
        let coverage = coverage(&plan.frame);
        let uniform = match coverage.split_first() {
            Some((&m, rest)) if rest.iter().all(|&x| x == m) => Some(m),
            _ => None,
        };
        Prepared {
            plan,
            engine,
            sparse: (engine == Engine::Sparse).then(|| Sparse::new(&plan.frame, plan.seed)),
            dense: Dense::new(&plan.frame, plan.seed),
            coverage,
            uniform,
        }
    }

    /// Runs chunk `chunk`, calling `visit(frame index, flips, pass mask)` for
    /// every frame with an error.
    pub fn chunk_visit(&self, chunk: u64, visit: &mut dyn FnMut(u64, &[u32], u64)) -> Counts {
        // the tallies of a stack of a few checks fit one histogram of
        // (coverage, pass) pairs; larger stacks count per check
        let n = self.plan.frame.checks.len();
        if n <= PAIR_CHECKS {
            self.run_chunk(chunk, Pairs::new(n), visit)
        } else {
            self.run_chunk(chunk, PerCheck::new(n), visit)
        }
    }

    /// Runs chunk `chunk`.
    pub fn chunk(&self, chunk: u64) -> Counts {
        self.chunk_visit(chunk, &mut |_, _, _| {})
    }

    #[doc(hidden)]
    pub fn run_chunk<T: FrameTally>(
        &self,
        chunk: u64,
        mut tally: T,
        visit: &mut dyn FnMut(u64, &[u32], u64),
    ) -> Counts {
        let plan = self.plan;
        let first = chunk * plan.chunk_frames;
        let last = (first + plan.chunk_frames).min(plan.frames);
        let mut errors = ErrorStream::with_frames(
            &plan.channel,
            plan.frame.n_bits(),
            last - first,
            chunk_rng(plan.seed, chunk, 0),
        );
        let mut bit_errors = 0u64;
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
            bit_errors += flips.len() as u64;
            let hit = match self.uniform {
                Some(m) => m,
                None => flips
                    .iter()
                    .fold(0, |h, &t| h | self.coverage[plan.frame.bit_at(t).0]),
            };
            tally.frame(pass, hit);
            visit(index - 1, &flips, pass);
        }
        let n = plan.frame.checks.len();
        let mut counts = Counts::zero(n);
        counts.frames = last.saturating_sub(first);
        counts.bit_errors = bit_errors;
        tally.into_counts(&mut counts, n);
        counts
    }
}

/// The most checks whose tallies [`Pairs`] holds.
const PAIR_CHECKS: usize = 4;

/// Tallies of the frames with an error in one chunk, kept in fixed arrays
/// and added into [`Counts`] at the chunk's end.
#[doc(hidden)]
pub trait FrameTally {
    /// One frame with an error: `pass`, the checks that passed it; `hit`,
    /// the checks with a flipped bit in their coverage.
    fn frame(&mut self, pass: u64, hit: u64);
    /// Adds the tallies into `counts` (of `n` checks, zero but for the
    /// frames and bit errors).
    fn into_counts(self, counts: &mut Counts, n: usize);
}

/// Frames by (coverage mask, pass mask), for up to [`PAIR_CHECKS`] checks:
/// one increment per frame.
#[doc(hidden)]
pub struct Pairs {
    n: usize,
    frames: [u64; 1 << (2 * PAIR_CHECKS)],
}

impl Pairs {
    /// Empty tallies for `n` checks.
    #[doc(hidden)]
    pub fn new(n: usize) -> Self {
        Pairs {
            n,
            frames: [0; 1 << (2 * PAIR_CHECKS)],
        }
    }
}

impl FrameTally for Pairs {
    #[inline(always)]
    fn frame(&mut self, pass: u64, hit: u64) {
        // pass and hit are below 2^n, n <= PAIR_CHECKS (the mask only spares
        // the bounds check)
        debug_assert!(pass >> self.n == 0 && hit >> self.n == 0);
        self.frames[((hit << self.n | pass) as usize) & ((1 << (2 * PAIR_CHECKS)) - 1)] += 1;
    }

    fn into_counts(self, counts: &mut Counts, n: usize) {
        let all = (1u64 << n) - 1;
        for (key, &f) in self.frames.iter().enumerate() {
            if f == 0 {
                continue;
            }
            let (hit, pass) = ((key >> n) as u64, key as u64 & all);
            counts.frames_with_error += f;
            counts.stack_escapes += if pass == all { f } else { 0 };
            for i in 0..n {
                counts.escapes[i] += (pass >> i & 1) * f;
                counts.errored_in_coverage[i] += (hit >> i & 1) * f;
                counts.escapes_in_coverage[i] += ((hit & pass) >> i & 1) * f;
            }
        }
    }
}

/// Per-check tallies for any number of checks (up to 64: the pass masks are `u64`).
#[doc(hidden)]
pub struct PerCheck {
    /// The pass mask of a frame every check passed.
    all: u64,
    frames: u64,
    stack_escapes: u64,
    escapes: [u64; 64],
    errored_in_coverage: [u64; 64],
    escapes_in_coverage: [u64; 64],
}

impl PerCheck {
    /// Empty tallies for `n` checks.
    #[doc(hidden)]
    pub fn new(n: usize) -> Self {
        PerCheck {
            all: if n == 64 { u64::MAX } else { (1u64 << n) - 1 },
            frames: 0,
            stack_escapes: 0,
            escapes: [0; 64],
            errored_in_coverage: [0; 64],
            escapes_in_coverage: [0; 64],
        }
    }
}

impl FrameTally for PerCheck {
    #[inline(always)]
    fn frame(&mut self, pass: u64, hit: u64) {
        self.frames += 1;
        self.stack_escapes += (pass == self.all) as u64;
        let mut p = pass;
        while p != 0 {
            self.escapes[p.trailing_zeros() as usize & 63] += 1;
            p &= p - 1;
        }
        let mut h = hit;
        while h != 0 {
            let i = h.trailing_zeros() as usize & 63;
            self.errored_in_coverage[i] += 1;
            self.escapes_in_coverage[i] += pass >> i & 1;
            h &= h - 1;
        }
    }

    fn into_counts(self, counts: &mut Counts, n: usize) {
        counts.frames_with_error = self.frames;
        counts.stack_escapes = self.stack_escapes;
        counts.escapes.copy_from_slice(&self.escapes[..n]);
        counts
            .errored_in_coverage
            .copy_from_slice(&self.errored_in_coverage[..n]);
        counts
            .escapes_in_coverage
            .copy_from_slice(&self.escapes_in_coverage[..n]);
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
    /// Worker threads (0 = all cores, at most 1024, `shard::MAX_THREADS`).
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
