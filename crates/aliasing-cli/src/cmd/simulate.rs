//! `alias simulate`: Monte Carlo through a stack of checks.

use crate::output::{self, Format};
use aliasing_sim::channel::{Channel, GilbertElliott};
use aliasing_sim::report::{Estimate, Report};
use aliasing_sim::run::{Engine, Plan, Progress, RunOptions, simulate};
use aliasing_sim::shard::{Params, RunFile, parse_payload};
use aliasing_sim::stack::Frame;
use anyhow::{Context, Result, bail};
use std::io::IsTerminal;
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
    /// Number of frames (e.g. 1e9).
    #[arg(long, default_value = "1e6")]
    frames: String,
    /// Frame length in bytes, every check field included.
    #[arg(long, default_value_t = 1518)]
    bytes: usize,
    /// ethernet, ethernet-tcp, tcp, internet, fletcher16, fletcher32, adler32, or a CRC spec.
    #[arg(long, default_value = "ethernet")]
    stack: String,
    /// Binary symmetric channel with this bit error rate.
    #[arg(long)]
    ber: Option<f64>,
    /// Gilbert-Elliott bursts: good BER, bad BER, P(good->bad), P(bad->good).
    #[arg(long, value_name = "PG,PB,G2B,B2G")]
    burst: Option<String>,
    /// Exactly k random bit errors per frame.
    #[arg(long, value_name = "K")]
    errors: Option<u32>,
    /// Payload: random, pattern:HEX or file:PATH.
    #[arg(long, default_value = "random")]
    payload: String,
    /// Seed of every random stream.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Worker threads (0 = all cores).
    #[arg(long, default_value_t = 0)]
    threads: usize,
    /// Engine (both give identical results on the same seed).
    #[arg(long, value_enum, default_value = "sparse")]
    engine: EngineArg,
    /// Run only shard I of N (1-based); needs --out.
    #[arg(long, value_name = "I/N")]
    shard: Option<String>,
    /// Write the result file (for `alias merge`) here.
    #[arg(long)]
    out: Option<PathBuf>,
    /// Rewrite this checkpoint file atomically every few seconds.
    #[arg(long)]
    checkpoint: Option<PathBuf>,
    /// Continue the run saved in this checkpoint file.
    #[arg(long)]
    resume: Option<PathBuf>,
    /// Seconds between checkpoints.
    #[arg(long, default_value_t = 5.0)]
    checkpoint_every: f64,
    #[command(flatten)]
    report: Sink,
    /// Rare-event estimation: stratified conditional sampling (BSC, a CRC in the stack).
    #[arg(long)]
    rare: bool,
    /// Conditional samples in all for --rare (e.g. 1e8).
    #[arg(long, default_value = "1e8")]
    samples: String,
    /// Frames per chunk (changes the random streams).
    #[arg(long, hide = true)]
    chunk_frames: Option<u64>,
}

fn parse_count(s: &str) -> Result<u64> {
    let v: f64 = s
        .trim()
        .parse()
        .with_context(|| format!("--frames `{s}` is not a number"))?;
    if !((1.0..=9.0e18).contains(&v) && v.fract() == 0.0) {
        bail!("--frames and --samples must be whole numbers from 1 to 9e18, got {s}");
    }
    Ok(v as u64)
}

fn channel(a: &Args) -> Result<Channel> {
    let given = a.ber.is_some() as u8 + a.burst.is_some() as u8 + a.errors.is_some() as u8;
    if given > 1 {
        bail!("give one error model: --ber, --burst or --errors");
    }
    if let Some(b) = &a.burst {
        let v: Vec<f64> = b
            .split(',')
            .map(|x| x.trim().parse::<f64>())
            .collect::<Result<_, _>>()
            .with_context(|| format!("--burst `{b}`: expected four numbers PG,PB,G2B,B2G"))?;
        if v.len() != 4 {
            bail!("--burst `{b}`: expected four numbers PG,PB,G2B,B2G");
        }
        return Ok(Channel::Burst(GilbertElliott {
            p_good: v[0],
            p_bad: v[1],
            good_to_bad: v[2],
            bad_to_good: v[3],
        }));
    }
    if let Some(k) = a.errors {
        return Ok(Channel::Exactly { k });
    }
    Ok(Channel::Bsc {
        ber: a.ber.unwrap_or(1e-5),
    })
}

fn parse_shard(s: &str) -> Result<(u64, u64)> {
    let err = || anyhow::anyhow!("--shard `{s}`: expected I/N with 1 <= I <= N");
    let (i, n) = s.split_once('/').ok_or_else(err)?;
    let (i, n): (u64, u64) = (
        i.trim().parse().map_err(|_| err())?,
        n.trim().parse().map_err(|_| err())?,
    );
    if i == 0 || n == 0 || i > n {
        return Err(err());
    }
    Ok((i, n))
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
        ]
    };
    match format {
        Format::Json => serde_json::to_string_pretty(r).expect("serializable") + "\n",
        Format::Table | Format::Csv => {
            let mut rows = vec![vec![
                "check".to_string(),
                "escapes".into(),
                "rate".into(),
                "ci95_low".into(),
                "ci95_high".into(),
                "per_errored_frame".into(),
                "exact".into(),
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
                    "stack {} | {} bytes | {} | seed {}\nframes {} | frames with error {} | bit errors {}\n{}",
                    p.stack,
                    p.bytes,
                    serde_json::to_string(&p.channel).unwrap_or_default(),
                    p.seed,
                    r.frames,
                    r.frames_with_error,
                    r.bit_errors,
                    output::table(&rows)
                )
            }
        }
    }
}

/// The plan of a parameter set.
pub fn plan_of(params: &Params, payload: aliasing_sim::stack::Payload) -> Result<Plan> {
    let frame = Frame::new(&params.stack, params.bytes, payload)?;
    let mut plan = Plan::new(frame, params.channel, params.seed, params.frames);
    plan.chunk_frames = params.chunk_frames;
    plan.validate()?;
    Ok(plan)
}

/// Names of the checks of a parameter set (for reports).
pub fn check_names(plan: &Plan) -> Vec<String> {
    plan.frame.checks.iter().map(|c| c.name.clone()).collect()
}

/// Runs `alias simulate`.
pub fn run(a: Args) -> Result<()> {
    if let Some(p) = &a.report.plot {
        if a.rare {
            bail!(
                "--plot draws Monte Carlo runs; a --rare estimate has one value per check \
                 (use --format json)"
            );
        }
        // refuse a bad picture name before a long run, not after
        aliasing_plot::Format::from_path(p)?;
    }
    if a.rare {
        return run_rare(&a);
    }
    let frames = parse_count(&a.frames)?;
    let ch = channel(&a)?;
    let (payload, payload_desc) = parse_payload(&a.payload)?;
    let shard = match &a.shard {
        Some(s) => parse_shard(s)?,
        None => (1, 1),
    };
    if shard.1 > 1 && a.out.is_none() {
        bail!("--shard needs --out FILE for its result file");
    }
    if !(a.checkpoint_every.is_finite() && a.checkpoint_every >= 0.0) {
        bail!("--checkpoint-every must be a number of seconds");
    }
    let params = Params {
        stack: a.stack.trim().to_string(),
        bytes: a.bytes,
        channel: ch,
        payload: payload_desc,
        frames,
        seed: a.seed,
        chunk_frames: a
            .chunk_frames
            .unwrap_or(aliasing_sim::run::DEFAULT_CHUNK_FRAMES),
    };
    let plan = plan_of(&params, payload)?;
    let mut resume: Option<Progress> = None;
    if let Some(path) = &a.resume {
        let f = RunFile::read(path)?;
        if f.params_hash != params.hash() {
            bail!(
                "checkpoint {} comes from other parameters or another seed ({} there, {} here)",
                path.display(),
                serde_json::to_string(&f.params).unwrap_or_default(),
                serde_json::to_string(&params).unwrap_or_default()
            );
        }
        if f.shard != shard {
            bail!(
                "checkpoint {} is for shard {}/{}, not {}/{}",
                path.display(),
                f.shard.0,
                f.shard.1,
                shard.0,
                shard.1
            );
        }
        resume = Some(f.progress);
    }
    let cp_path = a.checkpoint.clone().or_else(|| a.resume.clone());
    if let Some(cp) = &a.checkpoint
        && a.resume.as_deref() != Some(cp.as_path())
        && cp.exists()
    {
        bail!(
            "checkpoint {} already exists; continue it with --resume {} or remove it",
            cp.display(),
            cp.display()
        );
    }
    let bar = if std::io::stderr().is_terminal() {
        let b = indicatif::ProgressBar::new(0);
        b.set_style(
            indicatif::ProgressStyle::with_template(
                "{bar:40} {pos}/{len} frames  {per_sec}  ETA {eta}",
            )
            .expect("template"),
        );
        Some(b)
    } else {
        None
    };
    let progress = |done: u64, total: u64| {
        if let Some(b) = &bar {
            b.set_length(total);
            b.set_position(done);
        }
    };
    let write_cp = |p: &Progress| -> aliasing_core::Result<()> {
        let path = cp_path.as_ref().expect("checkpoint path");
        RunFile::new(params.clone(), shard, false, p.clone()).write(path)
    };
    let opts = RunOptions {
        engine: match a.engine {
            EngineArg::Sparse => Engine::Sparse,
            EngineArg::Dense => Engine::Dense,
        },
        threads: a.threads,
        shard,
        on_progress: Some(&progress),
        on_checkpoint: cp_path.as_ref().map(|_| &write_cp as _),
        checkpoint_every: Duration::from_secs_f64(a.checkpoint_every),
    };
    let counts = simulate(&plan, &opts, resume)?;
    if let Some(b) = &bar {
        b.finish_and_clear();
    }
    let done = Progress {
        chunks_done: plan.shard_chunks(shard),
        counts: counts.clone(),
    };
    let file = RunFile::new(params.clone(), shard, true, done);
    if let Some(cp) = &cp_path {
        file.write(cp)?;
    }
    if let Some(out) = &a.out {
        file.write(out)?;
    }
    a.report.report(&plan, params, &counts)
}

/// Where a finished run's report goes: exact values or not, picture, format,
/// file (the report flags of `alias simulate` and `alias merge`).
#[derive(clap::Args)]
pub struct Sink {
    /// Output format.
    #[arg(long, value_enum, default_value = "table")]
    pub format: Format,
    /// Write the report here instead of stdout.
    #[arg(long, short)]
    pub output: Option<PathBuf>,
    /// Also draw the estimates with their 95% intervals beside the exact
    /// values to FILE.svg or FILE.png.
    #[arg(long)]
    pub plot: Option<PathBuf>,
    /// Skip the exact values (a 32-bit CRC's takes a few seconds).
    #[arg(long)]
    pub no_exact: bool,
}

impl Sink {
    /// Adds the exact values where available, then plots and prints the report.
    pub fn report(
        &self,
        plan: &Plan,
        params: Params,
        counts: &aliasing_sim::run::Counts,
    ) -> Result<()> {
        let exact = if self.no_exact {
            Default::default()
        } else {
            aliasing_sim::exact::exact_values(plan)
        };
        let report = Report::new(
            params,
            &check_names(plan),
            counts,
            &exact.checks,
            exact.stack,
        );
        crate::args::plot(self.plot.as_deref(), &serde_json::to_value(&report)?)?;
        output::emit(self.output.as_deref(), &render(&report, self.format))
    }
}

fn run_rare(a: &Args) -> Result<()> {
    if a.shard.is_some() || a.checkpoint.is_some() || a.resume.is_some() || a.out.is_some() {
        bail!("--rare runs in one process: no --shard, --checkpoint, --resume or --out");
    }
    let samples = parse_count(&a.samples)?;
    let (payload, payload_desc) = parse_payload(&a.payload)?;
    let params = Params {
        stack: a.stack.trim().to_string(),
        bytes: a.bytes,
        channel: channel(a)?,
        payload: payload_desc,
        frames: 1,
        seed: a.seed,
        chunk_frames: aliasing_sim::run::DEFAULT_CHUNK_FRAMES,
    };
    let plan = plan_of(&params, payload)?;
    let mut r = aliasing_sim::rare::estimate(&plan, samples, a.threads)?;
    let exact = if a.report.no_exact {
        Default::default()
    } else {
        aliasing_sim::exact::exact_values(&plan)
    };
    r.stack.exact = exact.stack;
    if let Some(i) = plan.frame.checks.iter().position(|c| c.name == r.crc_name) {
        r.crc.exact = exact.checks.get(i).copied().flatten();
    }
    let text = match a.report.format {
        Format::Json => {
            let v = serde_json::json!({ "params": params, "method": "rare", "samples": samples, "result": r });
            serde_json::to_string_pretty(&v).expect("serializable") + "\n"
        }
        f => {
            let opt = |x: Option<f64>| x.map(output::prob).unwrap_or_else(|| "-".into());
            let mut rows = vec![vec![
                "check".to_string(),
                "p_undetected".into(),
                "rel_std_err".into(),
                "ci95_low".into(),
                "ci95_high".into(),
                "exact".into(),
            ]];
            for (name, e) in [(r.crc_name.as_str(), &r.crc), ("stack", &r.stack)] {
                rows.push(vec![
                    name.to_string(),
                    output::prob(e.rate),
                    format!("{:.3}", e.rel_std_err),
                    output::prob(e.ci_low),
                    output::prob(e.ci_high),
                    opt(e.exact),
                ]);
            }
            if f == Format::Csv {
                output::csv(&rows)
            } else {
                format!(
                    "rare-event estimate (stratified conditional sampling) | stack {} | {} bytes | BER {} | seed {} | {} samples | strata 1..={} | left-out tail {}\n{}",
                    params.stack,
                    params.bytes,
                    a.ber.unwrap_or(1e-5),
                    params.seed,
                    samples,
                    r.strata.len(),
                    output::prob(r.truncation),
                    output::table(&rows)
                )
            }
        }
    };
    output::emit(a.report.output.as_deref(), &text)
}
