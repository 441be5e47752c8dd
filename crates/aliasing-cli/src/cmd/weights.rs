//! `alias weights`: the weight distribution A_w of a CRC code, and of its dual.
//!
//! The dual method's `2^r` pass can be split: `--shard I/N --out FILE` runs
//! shard `I` of the pass's work items ([`DualPass`], state ranges fixed by
//! the generator) and writes their integer tallies; `alias merge` adds the
//! shards and prints what the single run prints, bit for bit. Under
//! `mpirun` (the `mpi` feature) the ranks share the items and rank 0 prints.

use crate::output::{self, Format};
use crate::output::{OutPath, PlotPath};
use aliasing_core::crc::CrcAlgorithm;
use aliasing_core::dual::DualPass;
use aliasing_core::progress::Progress as _;
use aliasing_core::shard::Shard;
use aliasing_core::units::MemoryBudget;
use aliasing_core::weights::{self, WeightDistribution};
use aliasing_core::{catalogue, document};
use aliasing_sim::shard::{Checkpoint, Drive, ShardFile, Team, drive};
use anyhow::{Result, bail};
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};

/// Counting method of `alias weights`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Method {
    /// `syndromes` for weights up to 4 when cheaper, else `dual` if the
    /// width is at most 32 (syndromes up to weight 6 otherwise).
    Auto,
    /// Dual-code weights and the MacWilliams identity.
    Dual,
    /// Meet-in-the-middle on the syndromes x^i mod g (weights up to 6).
    Syndromes,
}

/// Arguments of `alias weights`.
#[derive(clap::Args)]
pub struct Args {
    /// CRC: catalogue name (crc32, CRC-32/ISCSI, ...), bare width, or polynomial. [required]
    #[arg(long)]
    pub crc: String,
    /// Codeword length in bits, check bits included (one length; digits or
    /// `1e3` form). [required]
    #[arg(long, value_parser = crate::lengths::count::<u64>, allow_negative_numbers = true)]
    pub bits: u64,
    /// Highest weight to report (default 8, capped at the length).
    #[arg(long, default_value_t = 8, value_parser = crate::lengths::count::<u64>, allow_negative_numbers = true)]
    pub max_weight: u64,
    /// How to count: `dual` (2^r dual words + MacWilliams, widths up to 32,
    /// every weight), `syndromes` (meet-in-the-middle, weights up to 6), or
    /// `auto` (syndromes when only weights up to 4 are asked for and that is
    /// less work, else dual when the width allows).
    #[arg(long, value_enum, default_value_t = Method::Auto)]
    pub method: Method,
    /// Also print the dual code's weights B_w (non-zero ones).
    #[arg(long)]
    pub dual: bool,
    /// Output format.
    #[arg(long, value_enum, default_value_t = Format::Table)]
    pub format: Format,
    /// Write to this file (atomically) instead of stdout.
    #[arg(long, short, value_parser = OutPath::parse)]
    pub output: Option<OutPath>,
    /// Also draw the weight distribution (A_w against w, log scale; with
    /// --dual the dual code's B_w too) to FILE.svg or FILE.png.
    #[arg(long, value_parser = PlotPath::parse, conflicts_with_all = ["shard", "out"])]
    pub plot: Option<PlotPath>,
    /// Run shard I of N of the dual-code pass (state ranges fixed by the
    /// generator) and write its tallies to --out; `alias merge` adds the shards.
    #[arg(long, requires = "out")]
    pub shard: Option<String>,
    /// Result file of the dual-code pass (of the shard, or of the whole pass).
    #[arg(long, value_parser = OutPath::parse)]
    pub out: Option<OutPath>,
}

/// The kind of the result files of a split dual-code pass of `alias weights`.
pub const FORMAT: &str = "alias-weights";

/// What the output of a split `alias weights` depends on (the report flags
/// `--format` and `--output` come from `alias merge`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Params {
    /// The `--crc` given.
    pub crc: String,
    /// The generator it names, in full notation.
    pub generator: String,
    /// Codeword length in bits.
    pub bits: u64,
    /// `--max-weight`.
    pub max_weight: u64,
    /// `--dual`: print the dual code's weights too.
    pub dual: bool,
}

/// A shard's (or the whole pass's) result file: dual-weight histograms per length.
pub type PassFile = ShardFile<Params, Vec<Vec<u64>>>;

/// Runs `alias weights`. Under MPI, a rank that fails prints its error and
/// ends the whole job.
pub fn run(args: Args) -> Result<()> {
    crate::team::run_ranked(|team| run_in(args, team))
}

fn run_in(args: Args, team: Option<&dyn Team>) -> Result<()> {
    output::distinct(&[
        ("--output", args.output.as_ref()),
        ("--out", args.out.as_ref()),
        ("--plot", args.plot.as_ref().map(PlotPath::out)),
    ])?;
    let crc = catalogue::resolve(&args.crc)?;
    let g = crc.generator();
    let method = match args.method {
        Method::Auto => weights::WeightMethod::Auto,
        Method::Dual => weights::WeightMethod::Dual,
        Method::Syndromes => weights::WeightMethod::Syndromes,
    };
    let split = args.shard.is_some() || args.out.is_some() || team.is_some();
    if split && args.plot.is_some() {
        bail!("--plot draws a whole distribution: run without --shard, --out or MPI ranks");
    }
    if !split {
        output::long_run(
            weights::estimated_seconds(&g, args.bits, args.max_weight, method, args.dual),
            "this count",
        )?;
        let dist = {
            let bar = crate::progress::Bar::stderr();
            let d = weights::distribution_with(
                &g,
                args.bits,
                args.max_weight,
                method,
                args.dual,
                &bar,
            )?;
            bar.finish();
            d
        };
        if let Some(p) = &args.plot {
            draw(&crc, args.bits, &dist, args.dual, p)?;
        }
        let text = render(&crc, args.bits, &dist, args.dual, args.format)?;
        return output::emit(args.output.as_deref(), &text);
    }
    let shard = args
        .shard
        .as_deref()
        .map(crate::args::parse_shard)
        .transpose()?
        .unwrap_or(Shard::WHOLE);
    if args.bits <= g.width() as u64 {
        // the refusal `distribution` gives, before the pass
        weights::distribution(&g, args.bits, 0, weights::WeightMethod::Dual, false)?;
    }
    if !weights::uses_dual(&g, args.bits, args.max_weight, method, args.dual) {
        bail!("--shard, --out and MPI ranks split the dual-code pass: use --method dual");
    }
    let params = Params {
        crc: args.crc.clone(),
        generator: g.full_string(),
        bits: args.bits,
        max_weight: args.max_weight,
        dual: args.dual,
    };
    let pass = DualPass::new(&g, &[args.bits], MemoryBudget::from_env()?)?;
    let root = team.is_none_or(|t| t.rank() == 0);
    let bar = crate::progress::Bar::when(root);
    bar.stage("dual-code state ranges", shard.strided_len(pass.items()));
    let opts = Drive {
        progress: &bar,
        team,
        ..Default::default()
    };
    let tally = drive(
        pass.items(),
        shard,
        Checkpoint::start(pass.zero()),
        &opts,
        |i| pass.item(i),
    )?;
    bar.finish();
    if !root {
        return Ok(());
    }
    if let Some(out) = &args.out {
        PassFile::finished(FORMAT, params.clone(), shard, pass.items(), tally.clone())
            .write(out)?;
    }
    if shard.count > 1 {
        // a shard's tally alone is no distribution: merge the shards
        return Ok(());
    }
    let text = report(&params, &pass, &tally, args.format)?;
    output::emit(args.output.as_deref(), &text)
}

/// The output of `alias weights` for `params` from the whole pass's tally
/// (single run, MPI, or merged shards).
fn report(params: &Params, pass: &DualPass, tally: &[Vec<u64>], format: Format) -> Result<String> {
    let crc = catalogue::resolve(&params.crc)?;
    let d = pass.finish(tally)?.remove(0);
    let dist = weights::from_dual(d, params.max_weight)?;
    render(&crc, params.bits, &dist, params.dual, format)
}

/// Reads result files of a split dual-code pass, adds them (each shard once,
/// same parameters) and renders what the single run prints.
pub fn merge(paths: &[PathBuf], format: Format, out: Option<&Path>) -> Result<String> {
    let mut files = Vec::new();
    for p in paths {
        files.push((p.display().to_string(), PassFile::read(p, FORMAT)?));
    }
    let (params, tally) = aliasing_sim::shard::merge(&files)?;
    let crc = catalogue::resolve(&params.crc)?;
    if crc.generator().full_string() != params.generator {
        bail!(
            "{} names {}, not the file's generator {}",
            params.crc,
            crc.generator().full_string(),
            params.generator
        );
    }
    let pass = DualPass::new(&crc.generator(), &[params.bits], MemoryBudget::from_env()?)?;
    let text = report(&params, &pass, &tally, format)?;
    if let Some(out) = out {
        PassFile::finished(FORMAT, params, Shard::WHOLE, pass.items(), tally).write(out)?;
    }
    Ok(text)
}

/// Draws a distribution (`--plot`): A_w, and B_w with `--dual`. The
/// counts are exact integers; the picture takes each as the nearest `f64`
/// (the decimal string parsed, correctly rounded).
fn draw(
    crc: &CrcAlgorithm,
    bits: u64,
    dist: &WeightDistribution,
    want_dual: bool,
    path: &Path,
) -> Result<()> {
    let a: Vec<f64> = dist
        .counts
        .iter()
        .map(|c| c.to_string().parse::<f64>())
        .collect::<std::result::Result<_, _>>()?;
    let b: Vec<(usize, f64)> = match (&dist.dual, want_dual) {
        (Some(d), true) => d
            .counts
            .iter()
            .enumerate()
            .filter(|(_, c)| **c > 0)
            .map(|(w, &c)| (w, c as f64))
            .collect(),
        _ => Vec::new(),
    };
    let name = format!("{} {}", crc.name(), crc.generator().full_string());
    let fig = aliasing_plot::structure::weights_figure(&name, bits, &a, &b)?;
    aliasing_plot::plot_figure(&fig, path, aliasing_plot::figure::SIZE)?;
    Ok(())
}

/// The table, CSV or JSON of a distribution.
fn render(
    crc: &CrcAlgorithm,
    bits: u64,
    dist: &WeightDistribution,
    want_dual: bool,
    format: Format,
) -> Result<String> {
    let g = crc.generator();
    let (a, b) = (&dist.counts, &dist.dual);
    let dual_list: Vec<(usize, u64)> = match (b, want_dual) {
        (Some(d), true) => d
            .counts
            .iter()
            .enumerate()
            .filter(|(_, c)| **c > 0)
            .map(|(w, c)| (w, *c))
            .collect(),
        _ => Vec::new(),
    };
    let text = match format {
        Format::Json => {
            let ws = a
                .iter()
                .enumerate()
                .map(|(w, c)| document::WeightCount {
                    w,
                    count: c.clone().into(),
                })
                .collect();
            let ds = dual_list
                .iter()
                .map(|&(w, count)| document::DualWeightCount { w, count })
                .collect();
            document::to_json_sorted(&document::Weights::new(crc.into(), bits, ws, ds))?
        }
        Format::Table | Format::Csv => {
            let mut rows = vec![vec!["code".to_string(), "w".into(), "count".into()]];
            for (w, c) in a.iter().enumerate() {
                rows.push(vec!["A".into(), w.to_string(), c.to_string()]);
            }
            for (w, c) in &dual_list {
                rows.push(vec!["B".into(), w.to_string(), c.to_string()]);
            }
            if format == Format::Csv {
                output::csv(&rows)
            } else {
                format!(
                    "# {} {} at {} bits ({} data bits); A = code, B = dual code\n{}",
                    crc.name(),
                    g.full_string(),
                    bits,
                    bits.saturating_sub(g.width() as u64),
                    output::table(&rows)
                )
            }
        }
    };
    Ok(text)
}
