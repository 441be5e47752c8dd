//! `alias simulate`: Monte Carlo through a stack of checks.

use crate::lengths::count;
use crate::output::{self, Format};
use crate::output::{OutPath, PlotPath};
use crate::progress::Bar;
use aliasing_core::shard::Shard;
use aliasing_sim::channel::{Channel, GilbertElliott};
use aliasing_sim::rare::{MAX_SAMPLES, RareResult};
use aliasing_sim::report::{Estimate, Report};
use aliasing_sim::run::{Counts, Engine, MAX_FRAMES, RunOptions};
use aliasing_sim::session::{Given, RareParams, RareSession, Session};
use aliasing_sim::shard::{Drive, MAX_THREADS, ShardFile, Team};
use aliasing_sim::spec::PayloadSpec;
use anyhow::{Result, bail};
use std::path::PathBuf;
use std::time::Duration;

/// Engine choice on the command line.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum EngineArg {
    /// Cost per error (syndrome tables, checksum deltas).
    Sparse,
    /// Real bytes and real checks for every frame.
    Dense,
}

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
    #[arg(long, value_name = "PG,PB,G2B,B2G", value_parser = crate::args::burst_spec)]
    burst: Option<String>,
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
    engine: EngineArg,
    /// Run only shard I of N (1-based); needs --out.
    #[arg(long, value_name = "I/N")]
    shard: Option<String>,
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
    #[arg(long, value_name = "PG,PB,G2B,B2G")]
    proposal: Option<String>,
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
    if let Some(b) = &a.burst {
        return Ok(Some(Channel::Burst(b.parse::<GilbertElliott>()?)));
    }
    if let Some(k) = a.errors {
        return Ok(Some(Channel::Exactly { k }));
    }
    Ok(a.ber.map(|ber| Channel::Bsc { ber: ber.get() }))
}

// Per-core costs of the cost model behind the duration estimate (release
// build, 2-core development machine, the README's performance section): the
// sparse engine ran 2.2e8 frames/s per core at 0.12 bit errors a frame
// (1518 bytes, BER 1e-5) and about 10 times slower at BER 1e-4, so its cost
// is about 37 ns per bit error plus 1 ns per frame; the dense engine reads
// 2.7 GB/s per core; `--rare` draws 3.8e7 samples/s per core after a set-up
// of about 1.5 s.
const SPARSE_FRAME_NS: f64 = 1.0;
const SPARSE_ERROR_NS: f64 = 37.0;
const DENSE_BYTE_NS: f64 = 1.0 / 2.7;
const RARE_SAMPLE_NS: f64 = 26.0;
const RARE_SETUP_S: f64 = 1.5;

/// Mean bit errors per frame of `p`'s channel.
fn mean_errors(p: &aliasing_sim::spec::Params) -> f64 {
    let bits = 8.0 * p.bytes as f64;
    match p.channel {
        Channel::Bsc { ber } => ber * bits,
        Channel::Burst(g) => g.mean_ber() * bits,
        Channel::Exactly { k } => k as f64,
        _ => 0.0,
    }
}

/// The threads a run uses (`--threads`, 0 = every core).
fn cores(threads: usize) -> f64 {
    match threads {
        0 => std::thread::available_parallelism().map_or(1, |n| n.get()) as f64,
        t => t as f64,
    }
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

/// Renders a report in `format`.
pub fn render(r: &Report, format: Format) -> String {
    let opt = |x: Option<f64>| x.map(output::prob).unwrap_or_else(|| "-".into());
    let row = |name: &str, e: &Estimate| {
        vec![
            name.to_string(),
            e.escapes.to_string(),
            output::prob(e.rate),
            output::prob(e.ci_low),
            output::prob(e.ci_high),
            output::prob(e.per_errored_frame),
            opt(e.exact),
            e.errored_in_coverage
                .map(|x| x.to_string())
                .unwrap_or_else(|| "-".into()),
            e.escapes_in_coverage
                .map(|x| x.to_string())
                .unwrap_or_else(|| "-".into()),
            opt(e.rate_in_coverage),
        ]
    };
    match format {
        Format::Json => aliasing_core::document::to_json(r).expect("serializable"),
        Format::Table | Format::Csv => {
            let mut rows = vec![vec![
                "check".to_string(),
                "escapes".into(),
                "rate".into(),
                "ci95_low".into(),
                "ci95_high".into(),
                "per_errored_frame".into(),
                "exact".into(),
                "errored_in_coverage".into(),
                "escapes_in_coverage".into(),
                "rate_in_coverage".into(),
            ]];
            for c in &r.checks {
                rows.push(row(c.name.as_deref().unwrap_or("?"), c));
            }
            rows.push(row("stack", &r.stack));
            if format == Format::Csv {
                output::csv(&rows)
            } else {
                let p = &r.params;
                format!(
                    "stack {} | {} bytes | {} | seed {}\n{}frames {} | frames with error {} | bit errors {}\n{}",
                    p.stack,
                    p.bytes,
                    serde_json::to_string(&p.channel).unwrap_or_default(),
                    p.seed,
                    padded_fields(&p.stack, p.bytes),
                    r.frames,
                    r.frames_with_error,
                    r.bit_errors,
                    output::table(&rows)
                )
            }
        }
    }
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
    if a.proposal.is_some() && !a.rare {
        bail!("--proposal is for --rare --burst");
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

fn run_in(a: &Args, team: Option<&dyn Team>) -> Result<()> {
    check_flags(a)?;
    let root = team.is_none_or(|t| t.rank() == 0);
    let shard = a
        .shard
        .as_deref()
        .map(crate::args::parse_shard)
        .transpose()?;
    if shard.is_some_and(|s| s.count > 1) && a.out.is_none() {
        bail!("--shard needs --out FILE for its result file");
    }
    if a.rare {
        return run_rare(a, shard, team, root);
    }
    let given = given(a)?;
    let mut session = match &a.resume {
        Some(path) => <Session>::resume(path, &given, shard)?,
        None => {
            let p = given.params();
            let sh = shard.unwrap_or(Shard::WHOLE);
            let s = Session::new(p.clone(), sh)?;
            let frames =
                sh.strided_len(p.frames.div_ceil(p.chunk_frames.max(1))) * p.chunk_frames.max(1);
            let per_frame = match a.engine {
                EngineArg::Sparse => SPARSE_FRAME_NS + SPARSE_ERROR_NS * mean_errors(&p),
                EngineArg::Dense => DENSE_BYTE_NS * p.bytes as f64,
            };
            let secs = frames.min(p.frames) as f64 * per_frame * 1e-9 / cores(a.threads);
            crate::output::long_run(secs, "this simulation")?;
            s
        }
    };
    if let Some(cp) = &a.checkpoint {
        session = session.checkpoint_to(cp.path().to_path_buf())?;
    }
    let bar = Bar::when(root);
    let opts = RunOptions {
        engine: match a.engine {
            EngineArg::Sparse => Engine::Sparse,
            EngineArg::Dense => Engine::Dense,
        },
        threads: a.threads,
        progress: &bar,
        checkpoint_every: Duration::from_secs_f64(a.checkpoint_every),
        team,
        ..Default::default()
    };
    let counts = session.run(opts)?;
    bar.finish();
    if !root {
        return Ok(());
    }
    if let Some(out) = &a.out {
        session.result_file(counts.clone()).write(out)?;
    }
    a.report.report(&session, &counts)
}

/// Where a finished run's report goes: exact values or not, picture, format,
/// file (the report flags of `alias simulate` and `alias merge`).
#[derive(clap::Args)]
pub struct Sink {
    /// Output format.
    #[arg(long, value_enum, default_value = "table")]
    pub format: Format,
    /// Write the report here instead of stdout.
    #[arg(long, short, value_parser = OutPath::parse)]
    pub output: Option<OutPath>,
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
        let mut all = vec![
            ("--output", self.output.as_ref()),
            ("--plot", self.plot.as_ref().map(PlotPath::out)),
        ];
        all.extend_from_slice(others);
        output::distinct(&all)
    }

    /// Adds the exact values where available, then plots and prints the report.
    pub fn report(&self, session: &Session, counts: &Counts) -> Result<()> {
        let bar = Bar::stderr();
        let report = session.report_with(counts, self.no_exact, &bar);
        bar.finish();
        crate::args::plot(self.plot.as_deref(), &report)?;
        output::emit(self.output.as_deref(), &render(&report, self.format))
    }

    /// Prints a burst-channel rare-event result (the exact value beside it
    /// unless `--no-exact`).
    pub fn report_rare_burst(
        &self,
        session: &aliasing_sim::session::BurstRareSession,
        tally: &aliasing_sim::burst_rare::BurstTally,
    ) -> Result<()> {
        // the exact value (the product chain) can take seconds: a bar on a terminal
        let bar = Bar::stderr();
        let r = session.result_with(tally, self.no_exact, &bar)?;
        bar.finish();
        output::emit(
            self.output.as_deref(),
            &render_rare_burst(&session.params.params, &r, self.format),
        )
    }

    /// Prints a rare-event result.
    pub fn report_rare(&self, session: &RareSession, r: &RareResult) -> Result<()> {
        output::emit(
            self.output.as_deref(),
            &render_rare(session, r, self.format),
        )
    }
}

/// `alias simulate --rare` (`shard`: the parsed `--shard`, checked against
/// `--out` by the caller).
fn run_rare(a: &Args, shard: Option<Shard>, team: Option<&dyn Team>, root: bool) -> Result<()> {
    if a.engine != EngineArg::Sparse {
        bail!("--rare has its own sampler: no --engine");
    }
    let samples = a
        .samples
        .map(|s| in_range("--samples", s, MAX_SAMPLES))
        .transpose()?;
    let mut given = given(a)?;
    if given.frames.is_some() {
        bail!("--rare draws --samples, not --frames");
    }
    given.frames = Some(1);
    // a burst channel given, or a burst run's checkpoint resumed
    let resumes_burst = a
        .resume
        .as_deref()
        .and_then(aliasing_sim::session::file_kind)
        == Some(aliasing_sim::session::RARE_BURST_FORMAT.to_string());
    if resumes_burst || matches!(given.channel, Some(Channel::Burst(_))) {
        return run_rare_burst(a, &given, samples, shard, team, root);
    }
    if a.proposal.is_some() {
        bail!("--proposal is for --rare --burst");
    }
    let mut session = match &a.resume {
        Some(path) => RareSession::resume(path, &given, samples, shard)?,
        None => {
            let n = samples.unwrap_or(100_000_000);
            let sh = shard.unwrap_or(Shard::WHOLE);
            let s = RareSession::new(
                RareParams {
                    params: given.params(),
                    samples: n,
                },
                sh,
            )?;
            let secs =
                RARE_SETUP_S + (n / sh.count) as f64 * RARE_SAMPLE_NS * 1e-9 / cores(a.threads);
            crate::output::long_run(secs, "this rare-event run")?;
            s
        }
    };
    if let Some(cp) = &a.checkpoint {
        session = session.checkpoint_to(cp.path().to_path_buf())?;
    }
    let bar = Bar::when(root);
    let (tally, file) = session.run(&drive(a, &bar, team))?;
    bar.finish();
    if !keep_result(a, root, session.shard, &file)? {
        return Ok(());
    }
    let bar = Bar::stderr();
    let r = session.result_with(&tally, a.report.no_exact, &bar)?;
    bar.finish();
    a.report.report_rare(&session, &r)
}

/// How a `--rare` run is driven: `--threads`, the bar, `--checkpoint-every`
/// and the MPI team (the session writes its own checkpoints).
fn drive<'a, T>(a: &Args, bar: &'a Bar, team: Option<&'a dyn Team>) -> Drive<'a, T> {
    Drive {
        threads: a.threads,
        progress: bar,
        on_checkpoint: None,
        checkpoint_every: Duration::from_secs_f64(a.checkpoint_every),
        team,
    }
}

/// After a `--rare` run: the root writes the result file to `--out`. `true`
/// when this process reports an estimate: the root of a whole run (a
/// shard's tally alone is no estimate; the shards are merged).
fn keep_result<P, T>(a: &Args, root: bool, shard: Shard, file: &ShardFile<P, T>) -> Result<bool>
where
    P: serde::Serialize + serde::de::DeserializeOwned,
    T: serde::Serialize + serde::de::DeserializeOwned,
{
    if !root {
        return Ok(false);
    }
    if let Some(out) = &a.out {
        file.write(out)?;
    }
    Ok(shard.count == 1)
}

/// `alias simulate --rare --burst`: the importance-sampling estimate of a
/// lone CRC's escape on a Gilbert-Elliott channel, with shards, checkpoints,
/// resume and MPI ranks (any split, the same answer).
fn run_rare_burst(
    a: &Args,
    given: &Given,
    samples: Option<u64>,
    shard: Option<Shard>,
    team: Option<&dyn Team>,
    root: bool,
) -> Result<()> {
    use aliasing_sim::burst_rare;
    use aliasing_sim::session::{BurstRareParams, BurstRareSession};
    if let Some(s) = samples
        && s > burst_rare::MAX_SAMPLES
    {
        bail!(
            "--samples {s}: at most {:e} for --rare --burst",
            burst_rare::MAX_SAMPLES
        );
    }
    let proposal = a
        .proposal
        .as_deref()
        .map(|s| {
            s.parse::<GilbertElliott>()
                .map_err(|e| anyhow::anyhow!("{}", e.to_string().replace("--burst", "--proposal")))
        })
        .transpose()?;
    let mut session = match &a.resume {
        Some(path) => BurstRareSession::resume(path, given, samples, proposal, shard)?,
        None => BurstRareSession::new(
            BurstRareParams::new(given.params(), samples.unwrap_or(1_000_000), proposal)?,
            shard.unwrap_or(Shard::WHOLE),
        )?,
    };
    if let Some(cp) = &a.checkpoint {
        session = session.checkpoint_to(cp.path().to_path_buf())?;
    }
    let bar = Bar::when(root);
    let (tally, file) = session.run(&drive(a, &bar, team))?;
    bar.finish();
    if !keep_result(a, root, session.shard, &file)? {
        return Ok(());
    }
    a.report.report_rare_burst(&session, &tally)
}

/// The table of rare-event estimates, one row per named estimate.
fn rare_rows(estimates: &[(&str, &aliasing_sim::rare::RareEstimate)]) -> Vec<Vec<String>> {
    let opt = |x: Option<f64>| x.map(output::prob).unwrap_or_else(|| "-".into());
    let mut rows = vec![vec![
        "check".to_string(),
        "p_undetected".into(),
        "rel_std_err".into(),
        "ci95_low".into(),
        "ci95_high".into(),
        "exact".into(),
    ]];
    for (name, e) in estimates {
        rows.push(vec![
            name.to_string(),
            output::prob(e.rate),
            format!("{:.3}", e.rel_std_err),
            output::prob(e.ci_low),
            output::prob(e.ci_high),
            opt(e.exact),
        ]);
    }
    rows
}

/// Renders a burst-channel rare-event result in `format`.
pub fn render_rare_burst(
    params: &aliasing_sim::spec::Params,
    r: &aliasing_sim::burst_rare::BurstRareResult,
    format: Format,
) -> String {
    match format {
        Format::Json => {
            let doc = aliasing_sim::burst_rare::BurstRareReport::new(params.clone(), r.clone());
            aliasing_core::document::to_json_sorted(&doc).expect("serializable")
        }
        f => {
            let rows = rare_rows(&[(r.crc_name.as_str(), &r.crc)]);
            if f == Format::Csv {
                output::csv(&rows)
            } else {
                format!(
                    "rare-event {} | stack {} | {} bytes | burst {} | proposal {} | seed {} | {} samples | {} hits | shares: window {:.3}, position {:.3}, burst {:.3}\n{}",
                    r.method,
                    params.stack,
                    params.bytes,
                    r.channel,
                    r.proposal,
                    params.seed,
                    r.samples,
                    r.hits,
                    r.window_share,
                    r.position_share,
                    r.burst_share,
                    output::table(&rows)
                )
            }
        }
    }
}

/// Renders a rare-event result in `format`.
pub fn render_rare(session: &RareSession, r: &RareResult, format: Format) -> String {
    let params = &session.params.params;
    let samples = session.params.samples;
    match format {
        Format::Json => {
            let doc = aliasing_sim::rare::RareReport::new(params.clone(), samples, r.clone());
            aliasing_core::document::to_json_sorted(&doc).expect("serializable")
        }
        f => {
            let rows = rare_rows(&[(r.crc_name.as_str(), &r.crc), ("stack", &r.stack)]);
            if f == Format::Csv {
                output::csv(&rows)
            } else {
                let ber = match params.channel {
                    Channel::Bsc { ber } => ber,
                    _ => f64::NAN,
                };
                format!(
                    "rare-event estimate (stratified conditional sampling) | stack {} | {} bytes | BER {} | seed {} | {} samples | strata 1..={} | left-out tail {}\n{}",
                    params.stack,
                    params.bytes,
                    ber,
                    params.seed,
                    samples,
                    r.strata.len(),
                    output::prob(r.truncation),
                    output::table(&rows)
                )
            }
        }
    }
}

/// One line per CRC whose width is not whole bytes: the frame stores it in
/// whole bytes, with pad bits an error must leave alone, so this frame is not
/// the codeword `alias curve --bytes` means (empty when there is none).
fn padded_fields(stack: &str, bytes: usize) -> String {
    let Ok(f) = aliasing_sim::stack::Frame::new(stack, bytes, aliasing_sim::stack::Payload::Random)
    else {
        return String::new();
    };
    let mut s = String::new();
    for c in &f.checks {
        if let Some(alg) = c.crc() {
            let w = alg.width();
            let pad = 8 * c.field_len as u32 - w;
            if pad > 0 {
                let data = 8 * c.field as u64;
                s.push_str(&format!(
                    "frame: {} is stored in {} bytes, {pad} pad bits that an error must leave \
                     alone; its codeword is {data} data bits + {w} (`alias curve --bits {}`: \
                     P here = (1-p)^{pad} x that)\n",
                    c.name,
                    c.field_len,
                    data + w as u64
                ));
            }
        }
    }
    s
}
