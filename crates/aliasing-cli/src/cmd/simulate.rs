//! `alias simulate`: Monte Carlo through a stack of checks.

use crate::output::{OutPath, PlotPath};
use crate::progress::Bar;
use aliasing_core::parse::count;
use aliasing_core::shard::Shard;
use aliasing_sim::channel::{Channel, GilbertElliott};
use aliasing_sim::run::{Engine, MAX_FRAMES};
use aliasing_sim::session::Given;
use aliasing_sim::shard::{MAX_THREADS, Team};
use aliasing_sim::simulate::{Finished, SimulateDoc, SimulateJob, SimulateRequest};
use aliasing_sim::spec::PayloadSpec;
use anyhow::{Result, bail};
use std::path::PathBuf;
use std::time::Duration;

/// Arguments of `alias simulate`.
#[derive(clap::Args)]
pub struct Args {
    /// Number of frames (e.g. 1e9) [default: 1e6].
    #[arg(long, value_parser = count::<u64>, allow_negative_numbers = true)]
    frames: Option<u64>,
    /// Frame length in bytes, every check field included [default: 1518]
    /// (one length: a simulation runs one frame size; digits or `1.5e3`).
    #[arg(long, value_parser = count::<usize>, allow_negative_numbers = true)]
    bytes: Option<usize>,
    /// ethernet, ethernet-tcp, tcp, internet, fletcher16, fletcher32, adler32,
    /// a CRC spec, or a described stack INNER+CRC (e.g. tcp+crc32c,
    /// ipv4-tcp+CRC-16/ARC; see `alias stack`) [default: ethernet].
    #[arg(long)]
    stack: Option<String>,
    /// Binary symmetric channel with this bit error rate [default: 1e-5 when
    /// no error model is given].
    #[arg(long, value_parser = crate::args::one_ber, allow_negative_numbers = true)]
    ber: Option<aliasing_core::units::Ber>,
    /// Gilbert-Elliott bursts: good BER, bad BER, P(good->bad), P(bad->good).
    #[arg(long, value_name = "PG,PB,G2B,B2G", value_parser = crate::args::burst)]
    burst: Option<GilbertElliott>,
    /// Exactly k random bit errors per frame.
    #[arg(long, value_name = "K", value_parser = count::<u32>, allow_negative_numbers = true)]
    errors: Option<u32>,
    /// Payload: random, pattern:HEX or file:PATH [default: random].
    #[arg(long)]
    payload: Option<String>,
    /// Seed of every random stream [default: 1].
    #[arg(long, value_parser = count::<u64>, allow_negative_numbers = true)]
    seed: Option<u64>,
    /// Worker threads (0 = all cores; at most 1024).
    #[arg(long, default_value_t = 0, value_parser = count::<usize>, allow_negative_numbers = true)]
    threads: usize,
    /// Engine (both give identical results on the same seed).
    #[arg(long, value_enum, default_value = "sparse")]
    engine: Engine,
    /// Run only shard I of N (1-based); needs --out.
    #[arg(long, value_name = "I/N")]
    shard: Option<Shard>,
    /// Write the result file (for `alias merge`) here.
    #[arg(long, value_parser = OutPath::parse)]
    out: Option<OutPath>,
    /// Rewrite this checkpoint file atomically every few seconds.
    #[arg(long, value_parser = OutPath::parse)]
    checkpoint: Option<OutPath>,
    /// Continue the run saved in this checkpoint file (its parameters are
    /// used; any also given must match).
    #[arg(long)]
    resume: Option<PathBuf>,
    /// Seconds between checkpoints.
    #[arg(long, default_value_t = 5.0, allow_negative_numbers = true)]
    checkpoint_every: f64,
    #[command(flatten)]
    report: Sink,
    /// Rare-event estimation: stratified conditional sampling on a BSC (a CRC
    /// in the stack); with --burst, importance sampling of a lone CRC's escape
    /// (any width; an estimate with its interval).
    #[arg(long)]
    rare: bool,
    /// Proposal channel of --rare --burst (default: bursts and good-state
    /// errors scaled up to about three errors a frame).
    #[arg(long, value_name = "PG,PB,G2B,B2G", value_parser = crate::args::burst)]
    proposal: Option<GilbertElliott>,
    /// Random draws in all for --rare (e.g. 1e8): conditional samples
    /// [default: 1e8]; with --burst, draws from the proposal [default: 1e6].
    /// As in `alias stack --samples`, the number of random draws behind the
    /// estimate.
    #[arg(long, value_parser = count::<u64>, allow_negative_numbers = true)]
    samples: Option<u64>,
    /// Frames per chunk (changes the random streams).
    #[arg(long, hide = true, value_parser = count::<u64>, allow_negative_numbers = true)]
    chunk_frames: Option<u64>,
}

/// `v` if it is from 1 to `max`, else one line naming `flag`.
fn in_range(flag: &str, v: u64, max: u64) -> Result<u64> {
    if v == 0 {
        bail!("{flag} must be at least 1, not 0");
    }
    if v > max {
        bail!(
            "{flag} {v}: at most {max:e} per run (split a larger study into runs with \
             different seeds)"
        );
    }
    Ok(v)
}

/// The error model given, if any.
fn channel(a: &Args) -> Result<Option<Channel>> {
    let given = a.ber.is_some() as u8 + a.burst.is_some() as u8 + a.errors.is_some() as u8;
    if given > 1 {
        bail!("give one error model: --ber, --burst or --errors");
    }
    if let Some(b) = a.burst {
        return Ok(Some(Channel::Burst(b)));
    }
    if let Some(k) = a.errors {
        return Ok(Some(Channel::Exactly { k }));
    }
    Ok(a.ber.map(|ber| Channel::Bsc { ber: ber.get() }))
}

/// The parameters given on the command line (absent ones are defaults, or
/// a resumed checkpoint's).
fn given(a: &Args) -> Result<Given> {
    Ok(Given {
        stack: a.stack.clone(),
        bytes: a.bytes,
        channel: channel(a)?,
        payload: a.payload.as_deref().map(PayloadSpec::parse).transpose()?,
        frames: a
            .frames
            .map(|f| in_range("--frames", f, MAX_FRAMES))
            .transpose()?,
        seed: a.seed,
        chunk_frames: a.chunk_frames,
    })
}

/// Why `--plot` is refused for `--rare` runs and their merges.
pub(crate) const RARE_NO_PLOT: &str =
    "--plot draws Monte Carlo runs; a --rare estimate has one value per check (use --format json)";

/// The up-front checks of the output paths and the thread count.
fn check_flags(a: &Args) -> Result<()> {
    if a.threads > MAX_THREADS {
        bail!(
            "--threads {}: at most {MAX_THREADS} (0 uses every core)",
            a.threads
        );
    }
    a.report.check(&[
        ("--out", a.out.as_ref()),
        ("--checkpoint", a.checkpoint.as_ref()),
    ])?;
    if a.report.plot.is_some() && a.rare {
        bail!(RARE_NO_PLOT);
    }
    if a.proposal.is_some() && (!a.rare || (a.burst.is_none() && a.resume.is_none())) {
        bail!("--proposal is for --rare --burst");
    }
    if a.rare && a.engine != Engine::Sparse {
        bail!("--rare has its own sampler: no --engine");
    }
    if a.rare && a.frames.is_some() {
        bail!("--rare draws --samples, not --frames");
    }
    if !(a.checkpoint_every.is_finite() && a.checkpoint_every >= 0.0) {
        bail!("--checkpoint-every must be a number of seconds");
    }
    Ok(())
}

/// Runs `alias simulate`. Under MPI, a rank that fails prints its error
/// and ends the whole job (the others would wait for it forever).
pub fn run(a: Args) -> Result<()> {
    crate::team::run_ranked(|team| run_in(&a, team))
}

/// The request of the arguments (`shard`: the parsed `--shard`).
fn request(a: &Args, shard: Option<Shard>) -> Result<SimulateRequest> {
    Ok(SimulateRequest {
        given: given(a)?,
        rare: a.rare,
        samples: a
            .samples
            .map(|s| in_range("--samples", s, u64::MAX))
            .transpose()?,
        proposal: a.proposal,
        engine: a.engine,
        shard,
        resume: a.resume.clone(),
        checkpoint: a.checkpoint.as_ref().map(|c| c.path().to_path_buf()),
        checkpoint_every: Duration::from_secs_f64(a.checkpoint_every),
        no_exact: a.report.no_exact,
    })
}

fn run_in(a: &Args, team: Option<&dyn Team>) -> Result<()> {
    check_flags(a)?;
    let shard = a.shard;
    if shard.is_some_and(|s| s.count > 1) && a.out.is_none() {
        bail!("--shard needs --out FILE for its result file");
    }
    let job = SimulateJob::new(request(a, shard)?)?;
    let what = match job.is_rare() {
        true => "this rare-event run",
        false => "this simulation",
    };
    crate::output::long_run(job.estimate_seconds(a.threads), what)?;
    let bar = Bar::when(team.is_none_or(|t| t.rank() == 0));
    let ctx = crate::args::context(None)?
        .with_progress(&bar)
        .with_threads(a.threads)?
        .with_team(team);
    let done = job.run_shard(&ctx)?;
    bar.finish();
    a.report.finish(done, a.out.as_ref())
}

/// Where a finished run's report goes: exact values or not, picture, format,
/// file (the report flags of `alias simulate` and `alias merge`).
#[derive(clap::Args)]
pub struct Sink {
    #[command(flatten)]
    pub print: crate::output::Print,
    /// Also draw the estimates with their 95% intervals beside the exact
    /// values to FILE.svg or FILE.png.
    #[arg(long, value_parser = PlotPath::parse)]
    pub plot: Option<PlotPath>,
    /// Skip the exact values (a 32-bit CRC's takes a few seconds).
    #[arg(long)]
    pub no_exact: bool,
}

impl Sink {
    /// Refuses, before any work, two output options naming the same file:
    /// this sink's and `others` (the paths themselves were checked when the
    /// arguments were parsed, [`OutPath`]).
    pub fn check(&self, others: &[(&str, Option<&OutPath>)]) -> Result<()> {
        self.print.check(self.plot.as_ref(), others)
    }

    /// Writes the result file to `out` (when given), then plots and prints
    /// the document of a whole run (a shard's run prints nothing).
    pub fn finish(&self, done: Finished, out: Option<&OutPath>) -> Result<()> {
        if let (Some(out), Some(file)) = (out, &done.file) {
            file.write(out)?;
        }
        let Some(doc) = done.doc else {
            return Ok(());
        };
        if let SimulateDoc::Run(r) = &doc {
            crate::args::plot(self.plot.as_deref(), r)?;
        }
        self.print.emit(&doc.render(self.print.format())?)
    }
}
