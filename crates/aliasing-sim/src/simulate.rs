//! `alias simulate` as a library job: one request ([`SimulateRequest`]),
//! validated and routed once when the job is built ([`SimulateJob::new`]):
//! a Monte Carlo run ([`Session`]), the rare-event sampler on a binary
//! symmetric channel ([`RareSession`]) or the importance sampler on a
//! Gilbert-Elliott channel ([`BurstRareSession`]), each fresh or resumed
//! from its checkpoint. Its run returns the result file of its shard and,
//! for a whole run, its document ([`SimulateDoc`]); [`SimulateJob::merge`]
//! adds the shard files of one run of any of the three kinds.
//!
//! ```
//! use aliasing_core::ctx::{Ctx, Job};
//! use aliasing_sim::channel::Channel;
//! use aliasing_sim::session::Given;
//! use aliasing_sim::simulate::{SimulateDoc, SimulateJob, SimulateRequest};
//! let req = SimulateRequest {
//!     given: Given {
//!         stack: Some("crc8".into()),
//!         bytes: Some(16),
//!         channel: Some(Channel::Bsc { ber: 1e-3 }),
//!         frames: Some(50_000),
//!         seed: Some(7),
//!         ..Given::default()
//!     },
//!     ..SimulateRequest::default()
//! };
//! let job = SimulateJob::new(req).unwrap();
//! let SimulateDoc::Run(report) = job.run(&Ctx::default()).unwrap() else { panic!() };
//! assert_eq!(report.frames, 50_000);
//! ```

use crate::burst_rare::{self, BurstRareReport};
use crate::channel::{Channel, GilbertElliott};
use crate::rare::{self, RareReport};
use crate::report::Report;
use crate::run::{Engine, RunOptions};
use crate::session::{
    self, BurstRareFile, BurstRareParams, BurstRareSession, Given, RARE_BURST_FORMAT, RARE_FORMAT,
    RareFile, RareParams, RareSession, RunFile, Session,
};
use crate::shard::Drive;
use aliasing_core::ctx::{Ctx, Job};
use aliasing_core::shard::Shard;
use aliasing_core::{Error, Result};
use serde::Serialize;
use std::path::{Path, PathBuf};
use std::time::Duration;

/// Draws of a rare-event run on a binary symmetric channel unless told.
pub const DEFAULT_RARE_SAMPLES: u64 = 100_000_000;

/// Draws of a rare-event run on a burst channel unless told.
pub const DEFAULT_BURST_SAMPLES: u64 = 1_000_000;

/// What `alias simulate` is asked: the run's parameters as given (absent
/// ones are defaults, or a resumed checkpoint's) and how to run it.
#[derive(Debug, Clone)]
pub struct SimulateRequest {
    /// Stack, length, channel, payload, frames, seed, chunk size.
    pub given: Given,
    /// Rare-event estimation instead of plain Monte Carlo: stratified
    /// conditional sampling on a binary symmetric channel, importance
    /// sampling on a Gilbert-Elliott channel.
    pub rare: bool,
    /// Draws of a rare-event run (defaults: [`DEFAULT_RARE_SAMPLES`],
    /// [`DEFAULT_BURST_SAMPLES`]).
    pub samples: Option<u64>,
    /// The proposal channel of a burst rare-event run (default:
    /// [`burst_rare::default_proposal`]).
    pub proposal: Option<GilbertElliott>,
    /// The Monte Carlo engine.
    pub engine: Engine,
    /// The shard run (the whole run if `None`).
    pub shard: Option<Shard>,
    /// Continue the run saved in this checkpoint file.
    pub resume: Option<PathBuf>,
    /// Rewrite this checkpoint file during the run.
    pub checkpoint: Option<PathBuf>,
    /// Time between checkpoints.
    pub checkpoint_every: Duration,
    /// Leave the exact values out of the report.
    pub no_exact: bool,
}

impl Default for SimulateRequest {
    fn default() -> Self {
        SimulateRequest {
            given: Given::default(),
            rare: false,
            samples: None,
            proposal: None,
            engine: Engine::Sparse,
            shard: None,
            resume: None,
            checkpoint: None,
            checkpoint_every: Duration::from_secs(5),
            no_exact: false,
        }
    }
}

/// The document of a simulate run, by kind.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(untagged)]
pub enum SimulateDoc {
    /// A Monte Carlo run (kind `simulate`).
    Run(Report),
    /// A rare-event run on a binary symmetric channel (`simulate-rare`).
    Rare(RareReport),
    /// A rare-event run on a burst channel (`simulate-rare-burst`).
    RareBurst(BurstRareReport),
}

/// The result (or finished checkpoint) file of a simulate run's shard.
#[derive(Debug, Clone)]
pub enum ResultFile {
    /// Of a Monte Carlo run.
    Run(RunFile),
    /// Of a rare-event run.
    Rare(RareFile),
    /// Of a burst rare-event run.
    RareBurst(BurstRareFile),
}

impl ResultFile {
    /// Writes the file to `path` (atomically).
    pub fn write(&self, path: &Path) -> Result<()> {
        match self {
            ResultFile::Run(f) => f.write(path),
            ResultFile::Rare(f) => f.write(path),
            ResultFile::RareBurst(f) => f.write(path),
        }
    }
}

/// What a run (or a merge) leaves: at a team's member 0 (or without a
/// team) its result file and, for the whole run, its document; nothing at
/// the other members.
#[derive(Debug, Clone)]
#[non_exhaustive]
pub struct Finished {
    /// The shard's (or merged run's) result file.
    pub file: Option<ResultFile>,
    /// The document, for a whole run (a shard's tally alone is no result).
    pub doc: Option<SimulateDoc>,
}

enum Kind {
    Run(Session),
    Rare(RareSession),
    RareBurst(BurstRareSession),
}

/// `alias simulate` as a library job (see the module).
pub struct SimulateJob {
    kind: Kind,
    engine: Engine,
    checkpoint_every: Duration,
    no_exact: bool,
    resumed: bool,
}

/// `v` if it is from 1 to `max` (`what`: the count's name), else one line.
fn in_range(what: &str, v: u64, max: u64) -> Result<u64> {
    if v == 0 {
        return Err(Error::Invalid(format!("{what}: at least 1, not 0")));
    }
    if v > max {
        return Err(Error::Invalid(format!(
            "{v} {what}: at most {max:e} per run (split a larger study into runs with \
             different seeds)"
        )));
    }
    Ok(v)
}

impl SimulateJob {
    /// Validates `req` and routes it: a rare-event request on a burst
    /// channel (given, or the kind of the checkpoint resumed) to the
    /// importance sampler, another rare-event request to the stratified
    /// sampler, the rest to Monte Carlo; builds the session (fresh, or
    /// resumed with every value given checked against the file's).
    pub fn new(req: SimulateRequest) -> Result<SimulateJob> {
        if let Some(s) = req.shard {
            s.checked()?;
        }
        let shard = req.shard.unwrap_or(Shard::WHOLE);
        let mut given = req.given.clone();
        if let Some(f) = given.frames {
            in_range("frames", f, crate::run::MAX_FRAMES)?;
        }
        let burst = req.rare
            && (matches!(given.channel, Some(Channel::Burst(_)))
                || req
                    .resume
                    .as_deref()
                    .and_then(session::file_kind)
                    .as_deref()
                    == Some(RARE_BURST_FORMAT));
        if req.proposal.is_some() && !burst {
            return Err(Error::Invalid(
                "a proposal channel is for rare-event runs on a burst channel".into(),
            ));
        }
        let resume = req.resume.as_deref();
        let kind = if !req.rare {
            Kind::Run(match resume {
                Some(p) => <Session>::resume(p, &given, req.shard)?,
                None => Session::new(given.params(), shard)?,
            })
        } else if burst {
            given.frames = Some(1);
            if let Some(s) = req.samples {
                in_range("samples", s, burst_rare::MAX_SAMPLES)?;
            }
            Kind::RareBurst(match resume {
                Some(p) => {
                    BurstRareSession::resume(p, &given, req.samples, req.proposal, req.shard)?
                }
                None => BurstRareSession::new(
                    BurstRareParams::new(
                        given.params(),
                        req.samples.unwrap_or(DEFAULT_BURST_SAMPLES),
                        req.proposal,
                    )?,
                    shard,
                )?,
            })
        } else {
            given.frames = Some(1);
            if let Some(s) = req.samples {
                in_range("samples", s, rare::MAX_SAMPLES)?;
            }
            Kind::Rare(match resume {
                Some(p) => RareSession::resume(p, &given, req.samples, req.shard)?,
                None => RareSession::new(
                    RareParams {
                        params: given.params(),
                        samples: req.samples.unwrap_or(DEFAULT_RARE_SAMPLES),
                    },
                    shard,
                )?,
            })
        };
        let mut job = SimulateJob {
            kind,
            engine: req.engine,
            checkpoint_every: req.checkpoint_every,
            no_exact: req.no_exact,
            resumed: resume.is_some(),
        };
        if let Some(cp) = req.checkpoint {
            job.kind = match job.kind {
                Kind::Run(s) => Kind::Run(s.checkpoint_to(cp)?),
                Kind::Rare(s) => Kind::Rare(s.checkpoint_to(cp)?),
                Kind::RareBurst(s) => Kind::RareBurst(s.checkpoint_to(cp)?),
            };
        }
        Ok(job)
    }

    /// `true` for a rare-event job (either sampler).
    pub fn is_rare(&self) -> bool {
        !matches!(self.kind, Kind::Run(_))
    }

    /// The shard this job runs.
    pub fn shard(&self) -> Shard {
        match &self.kind {
            Kind::Run(s) => s.shard,
            Kind::Rare(s) => s.shard,
            Kind::RareBurst(s) => s.shard,
        }
    }

    /// An estimate of the run's wall-clock seconds on `threads` threads (0:
    /// every core), from a cost model measured on a development machine
    /// (release build, the README's performance section): the sparse engine
    /// costs about 1 ns per frame plus 37 ns per bit error, the dense one
    /// reads 2.7 GB/s per core, the stratified sampler 26 ns per sample
    /// after a set-up of about 1.5 s. `NaN` (no estimate) for a resumed run
    /// and for the burst sampler.
    pub fn estimate_seconds(&self, threads: usize) -> f64 {
        const SPARSE_FRAME_NS: f64 = 1.0;
        const SPARSE_ERROR_NS: f64 = 37.0;
        const DENSE_BYTE_NS: f64 = 1.0 / 2.7;
        const RARE_SAMPLE_NS: f64 = 26.0;
        const RARE_SETUP_S: f64 = 1.5;
        let cores = match threads {
            0 => std::thread::available_parallelism().map_or(1, |n| n.get()) as f64,
            t => t as f64,
        };
        if self.resumed {
            return f64::NAN;
        }
        match &self.kind {
            Kind::Run(s) => {
                let p = &s.params;
                let chunk = p.chunk_frames.max(1);
                let frames = s.shard.strided_len(p.frames.div_ceil(chunk)) * chunk;
                let bits = 8.0 * p.bytes as f64;
                let errors = match p.channel {
                    Channel::Bsc { ber } => ber * bits,
                    Channel::Burst(g) => g.mean_ber() * bits,
                    Channel::Exactly { k } => k as f64,
                };
                let per_frame = match self.engine {
                    Engine::Dense => DENSE_BYTE_NS * p.bytes as f64,
                    _ => SPARSE_FRAME_NS + SPARSE_ERROR_NS * errors,
                };
                frames.min(p.frames) as f64 * per_frame * 1e-9 / cores
            }
            Kind::Rare(s) => {
                let n = s.params.samples / s.shard.count;
                RARE_SETUP_S + n as f64 * RARE_SAMPLE_NS * 1e-9 / cores
            }
            Kind::RareBurst(_) => f64::NAN,
        }
    }

    /// Runs the job's shard in `ctx` (threads, progress, team): at member 0
    /// its result file and, for a whole run, its document (the exact values
    /// beside the estimates unless asked not to, watched by `ctx`'s
    /// progress).
    pub fn run_shard(&self, ctx: &Ctx) -> Result<Finished> {
        let (file, whole) = match &self.kind {
            Kind::Run(s) => {
                let opts = RunOptions {
                    engine: self.engine,
                    threads: ctx.threads(),
                    progress: ctx.progress(),
                    checkpoint_every: self.checkpoint_every,
                    team: ctx.team(),
                    ..Default::default()
                };
                (ResultFile::Run(s.result_file(s.run(opts)?)), s.shard)
            }
            Kind::Rare(s) => (ResultFile::Rare(s.run(&self.drive(ctx))?.1), s.shard),
            Kind::RareBurst(s) => (ResultFile::RareBurst(s.run(&self.drive(ctx))?.1), s.shard),
        };
        if !ctx.is_root() {
            return Ok(Finished {
                file: None,
                doc: None,
            });
        }
        let doc = if whole.count == 1 {
            Some(self.document(&file, ctx)?)
        } else {
            None
        };
        Ok(Finished {
            file: Some(file),
            doc,
        })
    }

    /// How a rare-event run is driven: `ctx`'s threads, progress and team,
    /// this job's checkpoint interval (the session writes its checkpoints).
    fn drive<'a, T>(&self, ctx: &Ctx<'a>) -> Drive<'a, T> {
        Drive {
            threads: ctx.threads(),
            progress: ctx.progress(),
            on_checkpoint: None,
            checkpoint_every: self.checkpoint_every,
            team: ctx.team(),
        }
    }

    /// The document of a whole run's result file.
    fn document(&self, file: &ResultFile, ctx: &Ctx) -> Result<SimulateDoc> {
        let no_exact = self.no_exact;
        Ok(match (&self.kind, file) {
            (Kind::Run(s), ResultFile::Run(f)) => {
                SimulateDoc::Run(s.report(&f.progress.counts, no_exact, ctx))
            }
            (Kind::Rare(s), ResultFile::Rare(f)) => {
                let r = s.result(&f.progress.counts, no_exact, ctx)?;
                SimulateDoc::Rare(RareReport::new(
                    s.params.params.clone(),
                    s.params.samples,
                    r,
                ))
            }
            (Kind::RareBurst(s), ResultFile::RareBurst(f)) => {
                let r = s.result(&f.progress.counts, no_exact, ctx)?;
                SimulateDoc::RareBurst(BurstRareReport::new(s.params.params.clone(), r))
            }
            _ => unreachable!("a job's file is of its own kind"),
        })
    }

    /// The kinds of result file [`SimulateJob::merge`] adds.
    pub const KINDS: [&'static str; 3] = [session::FORMAT, RARE_FORMAT, RARE_BURST_FORMAT];

    /// Reads the shard files at `paths` of one run of kind `kind` (one of
    /// [`SimulateJob::KINDS`]) and merges them: the whole run's result file
    /// and document, as the single run gives them, bit for bit (the exact
    /// values unless `no_exact`).
    pub fn merge(kind: &str, paths: &[PathBuf], no_exact: bool, ctx: &Ctx) -> Result<Finished> {
        let (kind, file) = match kind {
            session::FORMAT => {
                let (s, counts) = session::merge_paths(paths)?;
                let f = s.result_file(counts);
                (Kind::Run(s), ResultFile::Run(f))
            }
            RARE_FORMAT => {
                let (s, f) = session::merge_rare_paths(paths)?;
                (Kind::Rare(s), ResultFile::Rare(f))
            }
            RARE_BURST_FORMAT => {
                let (s, f) = session::merge_rare_burst_paths(paths)?;
                (Kind::RareBurst(s), ResultFile::RareBurst(f))
            }
            other => {
                return Err(Error::Invalid(format!(
                    "`{other}` is not a kind of simulate result file"
                )));
            }
        };
        let job = SimulateJob {
            kind,
            engine: Engine::Sparse,
            checkpoint_every: Duration::ZERO,
            no_exact,
            resumed: false,
        };
        let doc = job.document(&file, ctx)?;
        Ok(Finished {
            file: Some(file),
            doc: Some(doc),
        })
    }
}

impl Job for SimulateJob {
    type Output = SimulateDoc;

    /// Runs the job and returns its document; a shard's run (or a team
    /// member other than 0) has none and is refused here: run it with
    /// [`SimulateJob::run_shard`].
    fn run(&self, ctx: &Ctx) -> Result<SimulateDoc> {
        self.run_shard(ctx)?.doc.ok_or_else(|| {
            Error::Invalid("a shard's run has no document: merge the shards' result files".into())
        })
    }
}
