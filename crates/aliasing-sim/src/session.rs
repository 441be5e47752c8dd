//! A simulation as a command runs it: the parameters, the shard, the
//! checkpoint to write and the one to resume from, the result file, merging
//! shards and the report with exact values computed from the real payload.
//!
//! The rules live here, not in the command line:
//! - a run resumed from a checkpoint takes its parameters from the file; any
//!   parameter also given must match, or the refusal names the first field
//!   that differs, in one line;
//! - a checkpoint file that exists is continued only by resuming it (never
//!   overwritten by a fresh run);
//! - the result file of shard `i/n` records its parameters, so a merge
//!   rebuilds the same plan (payload bytes included) and prints the same
//!   exact values as the single run.
//!
//! Shard result files of one run are added by [`crate::shard::merge`] (or
//! read and merged in one call by [`merge_paths`]):
//!
//! ```
//! use aliasing_sim::channel::Channel;
//! use aliasing_sim::run::RunOptions;
//! use aliasing_sim::session::Session;
//! use aliasing_sim::shard::merge;
//! use aliasing_sim::spec::{Params, PayloadSpec};
//! use aliasing_sim::{Frames, Seed};
//! use aliasing_core::shard::Shard;
//! let p = Params::new("crc8", 32, Channel::Bsc { ber: 1e-2 }, PayloadSpec::Random, Frames(300_000), Seed(7));
//! let whole = Session::new(p.clone(), Shard::WHOLE).unwrap().run(RunOptions::default()).unwrap();
//! let files: Vec<_> = (1..=3)
//!     .map(|i| {
//!         let s = Session::new(p.clone(), Shard::new(i, 3).unwrap()).unwrap();
//!         let c = s.run(RunOptions::default()).unwrap();
//!         (format!("shard {i}"), s.result_file(c))
//!     })
//!     .collect();
//! let (params, total) = merge(&files).unwrap();
//! assert_eq!((params, total), (p, whole));
//! ```

use crate::burst_rare::{BurstRareResult, BurstRareWork, BurstTally};
use crate::channel::{Channel, GilbertElliott};
use crate::rare::{RareResult, RareTally, RareWork};
use crate::report::Report;
use crate::run::{Checkpoint, Counts, Plan, RunOptions, simulate};
use crate::shard::{ShardFile, Tally};
use crate::spec::{Params, PayloadSpec};
use crate::{Frames, Seed};
use aliasing_core::ctx::Ctx;
use aliasing_core::shard::Shard;
use aliasing_core::{Error, Result};
use std::path::{Path, PathBuf};

pub mod kinds;

/// The kind of a simulation's shard and checkpoint files.
pub const FORMAT: &str = "alias-simulate";

/// A simulation's result or checkpoint file.
pub type RunFile = ShardFile<Params, Counts>;

/// Reads and verifies a simulation's result or checkpoint file.
pub fn read(path: &Path) -> Result<RunFile> {
    RunFile::read(path, FORMAT)
}

/// Parameters as given on a command line: each may be absent (a default, or
/// the checkpoint's value when resuming).
#[derive(Debug, Clone, Default)]
pub struct Given {
    /// Stack name (default `ethernet`).
    pub stack: Option<String>,
    /// Frame length in bytes (default 1518).
    pub bytes: Option<usize>,
    /// Error model (default a BSC at BER 1e-5).
    pub channel: Option<Channel>,
    /// Payload (default random).
    pub payload: Option<PayloadSpec>,
    /// Frames (default 1e6).
    pub frames: Option<u64>,
    /// Seed (default 1).
    pub seed: Option<u64>,
    /// Frames per chunk (default [`crate::run::DEFAULT_CHUNK_FRAMES`]).
    pub chunk_frames: Option<u64>,
}

impl Given {
    /// The parameters, with defaults for what is absent.
    pub fn params(&self) -> Params {
        let mut p = Params::new(
            self.stack.as_deref().unwrap_or("ethernet"),
            self.bytes.unwrap_or(1518),
            self.channel.unwrap_or(Channel::Bsc { ber: 1e-5 }),
            self.payload.clone().unwrap_or(PayloadSpec::Random),
            Frames(self.frames.unwrap_or(1_000_000)),
            Seed(self.seed.unwrap_or(1)),
        );
        if let Some(c) = self.chunk_frames {
            p.chunk_frames = c;
        }
        p
    }

    /// `saved` with what is given put in: equal to `saved` when everything
    /// given matches it.
    fn over(&self, saved: &Params) -> Params {
        let mut p = Params::new(
            self.stack.as_deref().unwrap_or(&saved.stack),
            self.bytes.unwrap_or(saved.bytes),
            self.channel.unwrap_or(saved.channel),
            self.payload.clone().unwrap_or(saved.payload.clone()),
            Frames(self.frames.unwrap_or(saved.frames)),
            Seed(self.seed.unwrap_or(saved.seed)),
        );
        p.chunk_frames = self.chunk_frames.unwrap_or(saved.chunk_frames);
        p
    }
}

/// What a kind of run keeps in its files: its parameters (`Self`), its
/// tally and the file kind. [`Params`] (Monte Carlo), [`RareParams`]
/// (rare-event sampling) and [`BurstRareParams`] (rare events on a burst
/// channel) are the kinds; [`Session`] holds the rules they
/// share (resume, checkpoints, result files, merge).
pub trait RunKind: Clone + PartialEq + serde::Serialize + serde::de::DeserializeOwned {
    /// The integer tally of a run's work items.
    type Tally: Tally;
    /// What the parameters are built into before a run (a simulation's
    /// [`Plan`], a stack's [`crate::joint::StackWork`]).
    type Plan;
    /// The `format` of the kind's shard and checkpoint files.
    const FORMAT: &'static str;
    /// The plan the parameters describe (refusing parameters that describe
    /// none, before any work).
    fn plan(&self) -> Result<Self::Plan>;
}

impl RunKind for Params {
    type Tally = Counts;
    type Plan = Plan;
    const FORMAT: &'static str = FORMAT;
    fn plan(&self) -> Result<Plan> {
        Params::plan(self)
    }
}

impl RunKind for RareParams {
    type Tally = RareTally;
    type Plan = Plan;
    const FORMAT: &'static str = RARE_FORMAT;
    fn plan(&self) -> Result<Plan> {
        self.params.plan()
    }
}

/// One run (or one shard of it) of kind `K`: a simulation by default,
/// [`RareSession`] for the rare-event sampler, [`crate::joint::StackSession`]
/// for a stack, [`crate::weights::WeightsPass`] for a dual-code pass.
pub struct Session<K: RunKind = Params> {
    /// The parameters.
    pub params: K,
    /// The plan built from them.
    pub plan: K::Plan,
    /// The shard this run computes.
    pub shard: Shard,
    start: Option<crate::shard::Checkpoint<K::Tally>>,
    checkpoint: Option<PathBuf>,
    resumed_from: Option<PathBuf>,
}

/// A rare-event run (or one shard of it), over the strata's work items
/// ([`crate::rare::RareWork`]).
pub type RareSession = Session<RareParams>;

impl<K: RunKind> Session<K> {
    /// A fresh run of shard `shard` of `params`.
    pub fn new(params: K, shard: Shard) -> Result<Self> {
        shard.checked()?;
        let plan = params.plan()?;
        Self::planned(params, plan, shard)
    }

    /// [`Session::new`] with the plan of `params` already built.
    pub(crate) fn planned(params: K, plan: K::Plan, shard: Shard) -> Result<Self> {
        shard.checked()?;
        Ok(Session {
            params,
            plan,
            shard,
            start: None,
            checkpoint: None,
            resumed_from: None,
        })
    }

    /// Continues the run saved at `path`. Parameters and the shard come from
    /// the file; `differs` names the first parameter given that does not
    /// match the file's, and a `shard` given must match too.
    pub(crate) fn resume_with(
        path: &Path,
        differs: impl FnOnce(&K) -> Option<String>,
        shard: Option<Shard>,
    ) -> Result<Self> {
        let f = ShardFile::<K, K::Tally>::read(path, K::FORMAT)?;
        let what = path.display();
        if let Some(d) = differs(&f.params) {
            return Err(Error::Invalid(format!(
                "checkpoint {what} was written with other parameters: {d}"
            )));
        }
        if let Some(s) = shard
            && s != f.shard
        {
            return Err(Error::Invalid(format!(
                "checkpoint {what} is for shard {}, not {s}",
                f.shard
            )));
        }
        let mut s = Session::new(f.params, f.shard)?;
        s.start = Some(f.progress);
        s.checkpoint = Some(path.to_path_buf());
        s.resumed_from = Some(path.to_path_buf());
        Ok(s)
    }

    /// Rewrites the checkpoint at `path` during the run (and with the final
    /// state at its end). Refuses a file that exists unless it is the one
    /// this run resumes.
    pub fn checkpoint_to(mut self, path: PathBuf) -> Result<Self> {
        if self.resumed_from.as_deref() != Some(path.as_path()) && path.exists() {
            return Err(Error::Param {
                param: aliasing_core::Param::Checkpoint,
                reason: format!(
                    "checkpoint {} already exists; resume it or remove it",
                    path.display()
                ),
            });
        }
        self.checkpoint = Some(path);
        Ok(self)
    }

    /// The checkpoint file this run writes, if any.
    pub fn checkpoint(&self) -> Option<&Path> {
        self.checkpoint.as_deref()
    }

    /// Writes the unfinished state `p` to the checkpoint file.
    fn write_checkpoint(&self, p: &crate::shard::Checkpoint<K::Tally>) -> Result<()> {
        let Some(path) = self.checkpoint.as_ref() else {
            return Ok(()); // no checkpoint file asked for
        };
        ShardFile::new(K::FORMAT, self.params.clone(), self.shard, false, p.clone()).write(path)
    }

    /// The finished shard's file, of a run of `items` work items.
    fn finished(&self, items: u64, tally: K::Tally) -> ShardFile<K, K::Tally> {
        ShardFile::finished(K::FORMAT, self.params.clone(), self.shard, items, tally)
    }

    /// The run loop of the kinds whose work is a fixed list of items (the
    /// rare-event samplers): drives this shard of the `items` items from its
    /// checkpoint or the start (`zero`, the empty tally), checkpointing as
    /// `opts` says, and returns the shard's tally and its finished file,
    /// which replaces the checkpoint. `item(i)` tallies item `i`. One stage,
    /// `stage`, of the shard's items.
    pub(crate) fn drive_items(
        &self,
        items: u64,
        zero: K::Tally,
        stage: &str,
        opts: &crate::shard::Drive<K::Tally>,
        item: impl Fn(u64) -> K::Tally + Sync,
    ) -> Result<(K::Tally, KindFile<K>)>
    where
        K: Sync,
        K::Plan: Sync,
        K::Tally: Sync,
    {
        let shard_items = self.shard.strided_len(items);
        let start = match &self.start {
            Some(p) => {
                if p.chunks_done > shard_items || !p.counts.fits(&zero) {
                    return Err(Error::Invalid(
                        "the checkpoint does not fit its own parameters".into(),
                    ));
                }
                p.clone()
            }
            None => crate::shard::Checkpoint::start(zero),
        };
        let write = |p: &crate::shard::Checkpoint<K::Tally>| self.write_checkpoint(p);
        opts.progress.stage(stage, shard_items);
        let o = crate::shard::Drive {
            threads: opts.threads,
            progress: opts.progress,
            on_checkpoint: self.checkpoint.as_ref().map(|_| &write as _),
            checkpoint_every: opts.checkpoint_every,
            team: opts.team,
        };
        let tally = crate::shard::drive(items, self.shard, start, &o, item)?;
        let file = self.finished(items, tally.clone());
        self.close(opts.team, &file)?;
        Ok((tally, file))
    }

    /// At the end of a run: the finished file replaces the checkpoint (at
    /// a team's member 0 only).
    fn close(
        &self,
        team: Option<&dyn crate::shard::Team>,
        file: &ShardFile<K, K::Tally>,
    ) -> Result<()> {
        let root = team.is_none_or(|t| t.rank() == 0);
        if root && let Some(cp) = &self.checkpoint {
            file.write(cp)?;
        }
        Ok(())
    }
}

/// The first field in which `given` differs from `saved` (`field: SAVED
/// there, GIVEN given`), comparing their JSON forms field by field.
pub(crate) fn first_difference<P: serde::Serialize>(saved: &P, given: &P) -> Option<String> {
    let (a, b) = (
        serde_json::to_value(saved).ok()?,
        serde_json::to_value(given).ok()?,
    );
    let (Some(a), Some(b)) = (a.as_object(), b.as_object()) else {
        return (a != b).then(|| "the parameters".to_string());
    };
    a.iter()
        .find(|(k, v)| b.get(k.as_str()) != Some(v))
        .map(|(k, v)| {
            format!(
                "{k}: {v} there, {} given",
                b.get(k.as_str()).unwrap_or(&serde_json::Value::Null)
            )
        })
}

/// The shard or checkpoint file of a run of kind `K`.
pub(crate) type KindFile<K> = ShardFile<K, <K as RunKind>::Tally>;

/// Reads the complete shard files of one run of kind `K` at `paths` and
/// merges them into the whole run's session (the unsharded run) and its
/// finished file (tally in `progress.counts`). The whole run's item count is
/// the sum of the shards' (each did every `N`-th item), so the run's work
/// list is not rebuilt.
pub(crate) fn merge_kind<K: RunKind>(paths: &[PathBuf]) -> Result<(Session<K>, KindFile<K>)> {
    let mut files = Vec::new();
    for p in paths {
        files.push((
            p.display().to_string(),
            ShardFile::<K, K::Tally>::read(p, K::FORMAT)?,
        ));
    }
    let items = files.iter().map(|(_, f)| f.progress.chunks_done).sum();
    let (params, tally) = crate::shard::merge(&files)?;
    let s = Session::new(params, Shard::WHOLE)?;
    let file = s.finished(items, tally);
    Ok((s, file))
}

impl Session<Params> {
    /// Continues the run saved at `path`. Parameters and the shard come from
    /// the file; any given (`given`, `shard`) must match it. (Call it as
    /// `<Session>::resume`: a bare `Session::resume` could also name
    /// [`RareSession::resume`].)
    pub fn resume(path: &Path, given: &Given, shard: Option<Shard>) -> Result<Self> {
        let s = Self::resume_with(
            path,
            |saved| saved.difference(&given.over(saved), "there", "given"),
            shard,
        )?;
        let fits = s.start.as_ref().is_some_and(|p| {
            p.chunks_done <= s.plan.shard_chunks(s.shard)
                && p.counts.escapes.len() == s.plan.frame.checks.len()
        });
        if !fits {
            return Err(Error::Invalid(format!(
                "checkpoint {} does not fit its own parameters",
                path.display()
            )));
        }
        Ok(s)
    }

    /// Runs (the `shard` and `on_checkpoint` of `opts` are this session's);
    /// returns the shard's tallies. At a team's member 0 the checkpoint is
    /// written during the run and, finished, at its end.
    pub fn run(&self, opts: RunOptions) -> Result<Counts> {
        let write = |p: &Checkpoint| self.write_checkpoint(p);
        let opts = RunOptions {
            shard: self.shard,
            on_checkpoint: self.checkpoint.as_ref().map(|_| &write as _),
            ..opts
        };
        let counts = simulate(&self.plan, &opts, self.start.clone())?;
        self.close(opts.team, &self.result_file(counts.clone()))?;
        Ok(counts)
    }

    /// The finished shard's result file.
    pub fn result_file(&self, counts: Counts) -> RunFile {
        self.finished(self.plan.chunks(), counts)
    }

    /// The report of `counts`, with exact values unless `no_exact`, computed
    /// in `ctx` (see [`crate::exact::exact_values`]).
    pub fn report(&self, counts: &Counts, no_exact: bool, ctx: &Ctx) -> Report {
        Report::of(&self.plan, self.params.clone(), counts, no_exact, ctx)
    }
}

/// Reads the shard files at `paths` and merges them into the whole run's
/// session (the unsharded run) and tallies.
pub fn merge_paths(paths: &[PathBuf]) -> Result<(Session, Counts)> {
    merge_kind(paths).map(|(s, f)| (s, f.progress.counts))
}

/// The kind of a rare-event run's shard and checkpoint files.
pub const RARE_FORMAT: &str = "alias-rare";

/// Everything a rare-event run's result depends on.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct RareParams {
    /// Stack, length, channel (a BSC), payload and seed (`frames` is unused, 1).
    pub params: Params,
    /// Samples asked for.
    pub samples: u64,
}

/// A rare-event run's result or checkpoint file.
pub type RareFile = ShardFile<RareParams, RareTally>;

/// The first difference between a sampled (`--rare`) run's saved parameters
/// and draws and those given, if any. A sampled run has no `--frames`: the
/// saved value stands.
fn sampled_differs(
    given: &Given,
    samples: Option<u64>,
    saved: &Params,
    saved_samples: u64,
) -> Option<String> {
    let mut over = given.over(saved);
    over.frames = saved.frames;
    if let Some(d) = saved.difference(&over, "there", "given") {
        return Some(d);
    }
    match samples {
        Some(s) if s != saved_samples => Some(format!("samples: {saved_samples} there, {s} given")),
        _ => None,
    }
}

impl Session<RareParams> {
    /// Continues the rare-event run saved at `path`; what is given must match it.
    pub fn resume(
        path: &Path,
        given: &Given,
        samples: Option<u64>,
        shard: Option<Shard>,
    ) -> Result<Self> {
        let differs =
            |saved: &RareParams| sampled_differs(given, samples, &saved.params, saved.samples);
        Self::resume_with(path, differs, shard)
    }

    /// Runs the shard; returns its tally and the result file. `opts` gives
    /// threads, the watcher (one stage, `"sample chunks"`, of the shard's
    /// chunks of samples), checkpoint interval and team.
    pub fn run(&self, opts: &crate::shard::Drive<RareTally>) -> Result<(RareTally, RareFile)> {
        let work = RareWork::new(&self.plan, self.params.samples, opts.threads)?;
        self.drive_items(work.items(), work.zero(), "sample chunks", opts, |i| {
            work.item(i)
        })
    }

    /// The estimate from a whole run's tally, with the exact values unless `no_exact`.
    /// The exact values are computed in `ctx` (see
    /// [`crate::exact::exact_values`]).
    pub fn result(&self, tally: &RareTally, no_exact: bool, ctx: &Ctx) -> Result<RareResult> {
        tally.in_range()?;
        let work = RareWork::new(&self.plan, self.params.samples, 0)?;
        let mut r = work.finish(tally);
        if !no_exact {
            let exact = crate::exact::exact_values(&self.plan, ctx);
            r.stack.exact = exact.stack;
            if let Some(i) = self
                .plan
                .frame
                .checks
                .iter()
                .position(|c| c.name == r.crc_name)
            {
                r.crc.exact = exact.checks.get(i).copied().flatten();
            }
        }
        Ok(r)
    }
}

/// Reads rare-event shard files and merges them into the whole run: its
/// session and its finished file (what `alias merge --out` writes; the tally
/// is `progress.counts`).
pub fn merge_rare_paths(paths: &[PathBuf]) -> Result<(RareSession, RareFile)> {
    merge_kind(paths)
}

/// The kind (`format` field) of the shard file at `path`, if it can be read.
pub fn file_kind(path: &Path) -> Option<String> {
    let text = crate::shard::read_text(path).ok()?;
    let v: serde_json::Value = serde_json::from_str(&text).ok()?;
    Some(v.get("body")?.get("format")?.as_str()?.to_string())
}

/// The kind of a burst-channel rare-event run's shard and checkpoint files.
pub const RARE_BURST_FORMAT: &str = "alias-rare-burst";

/// Everything a burst-channel rare-event run's result depends on.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct BurstRareParams {
    /// Stack (a lone CRC), length, channel (Gilbert-Elliott), payload and
    /// seed (`frames` is unused, 1).
    pub params: Params,
    /// Draws asked for.
    pub samples: u64,
    /// The proposal the draws come from, as resolved when the run started
    /// (the default one written out, so a later default cannot change a
    /// saved run).
    pub proposal: GilbertElliott,
}

impl RunKind for BurstRareParams {
    type Tally = BurstTally;
    type Plan = Plan;
    const FORMAT: &'static str = RARE_BURST_FORMAT;
    fn plan(&self) -> Result<Plan> {
        self.params.plan()
    }
}

impl BurstRareParams {
    /// The run of `params` with `samples` draws from `proposal`
    /// ([`crate::burst_rare::default_proposal`] if `None`); refuses a
    /// channel other than Gilbert-Elliott.
    pub fn new(params: Params, samples: u64, proposal: Option<GilbertElliott>) -> Result<Self> {
        let Channel::Burst(ge) = params.channel else {
            return Err(Error::Limit(aliasing_core::Limit::BurstRareChannel));
        };
        let bits = params.plan()?.frame.n_bits();
        let proposal = match proposal {
            Some(q) => q,
            None => crate::burst_rare::default_proposal(&ge, bits)?,
        };
        Ok(BurstRareParams {
            params,
            samples,
            proposal,
        })
    }
}

/// A burst-channel rare-event run's result or checkpoint file.
pub type BurstRareFile = ShardFile<BurstRareParams, BurstTally>;

/// A burst-channel rare-event run (or one shard of it), over its chunks of
/// draws ([`crate::burst_rare::BurstRareWork`]).
pub type BurstRareSession = Session<BurstRareParams>;

impl Session<BurstRareParams> {
    /// Continues the burst rare-event run saved at `path`; what is given
    /// (parameters, draws, proposal, shard) must match it.
    pub fn resume(
        path: &Path,
        given: &Given,
        samples: Option<u64>,
        proposal: Option<GilbertElliott>,
        shard: Option<Shard>,
    ) -> Result<Self> {
        let differs = |saved: &BurstRareParams| {
            sampled_differs(given, samples, &saved.params, saved.samples).or(match proposal {
                Some(q) if q != saved.proposal => {
                    Some(format!("proposal: {} there, {q} given", saved.proposal))
                }
                _ => None,
            })
        };
        Self::resume_with(path, differs, shard)
    }

    /// The run's work items.
    pub fn work(&self) -> Result<BurstRareWork> {
        BurstRareWork::new(&self.plan, self.params.samples, Some(self.params.proposal))
    }

    /// Runs the shard; returns its tally and the result file. `opts` gives
    /// threads, the watcher (one stage, `"sample chunks"`, of the shard's
    /// chunks of draws), checkpoint interval and team.
    pub fn run(
        &self,
        opts: &crate::shard::Drive<BurstTally>,
    ) -> Result<(BurstTally, BurstRareFile)> {
        let work = self.work()?;
        self.drive_items(work.items(), work.zero(), "sample chunks", opts, |i| {
            work.item(i)
        })
    }

    /// The estimate from a whole run's tally, with the exact value (where a
    /// cheap exact method applies) unless `no_exact`.
    /// The exact value is computed in `ctx` (see
    /// [`crate::burst_rare::exact_escape`]).
    pub fn result(&self, tally: &BurstTally, no_exact: bool, ctx: &Ctx) -> Result<BurstRareResult> {
        let mut r = self.work()?.finish(tally);
        if !no_exact {
            r.crc.exact = crate::burst_rare::exact_escape(&self.plan, ctx);
        }
        Ok(r)
    }
}

/// Reads burst rare-event shard files and merges them into the whole run:
/// its session and its finished file (the tally is `progress.counts`).
pub fn merge_rare_burst_paths(paths: &[PathBuf]) -> Result<(BurstRareSession, BurstRareFile)> {
    merge_kind(paths)
}
