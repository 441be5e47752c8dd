//! `alias weights`: the weight distribution A_w of a CRC code, and of its dual.
//!
//! The dual method's `2^r` pass can be split: `--shard I/N --out FILE` runs
//! shard `I` of the pass's work items ([`DualPass`], state ranges fixed by
//! the generator) and writes their integer tallies; `alias merge` adds the
//! shards and prints what the single run prints, bit for bit. Under
//! `mpirun` (the `mpi` feature) the ranks share the items and rank 0 prints.

use crate::output;
use crate::output::{OutPath, PlotPath};
use aliasing_core::ctx::Job;
use aliasing_core::shard::Shard;
use aliasing_core::weights::WeightMethod;
use aliasing_sim::shard::Team;
use aliasing_sim::weights::WeightsJob;
use anyhow::{Result, bail};

/// Arguments of `alias weights`.
#[derive(clap::Args)]
pub struct Args {
    /// CRC: catalogue name (crc32, CRC-32/ISCSI, ...), bare width, or polynomial. [required]
    #[arg(long)]
    pub crc: String,
    /// Codeword length in bits, check bits included (one length; digits or
    /// `1e3` form). [required]
    #[arg(long, value_parser = aliasing_core::parse::count::<u64>, allow_negative_numbers = true)]
    pub bits: u64,
    /// Highest weight to report (default 8, capped at the length).
    #[arg(long, default_value_t = 8, value_parser = aliasing_core::parse::count::<u64>, allow_negative_numbers = true)]
    pub max_weight: u64,
    /// How to count: `dual` (2^r dual words + MacWilliams, widths up to 32,
    /// every weight), `syndromes` (meet-in-the-middle, weights up to 6), or
    /// `auto` (syndromes when only weights up to 4 are asked for and that is
    /// less work, else dual when the width allows).
    #[arg(long, value_enum, default_value_t = WeightMethod::Auto)]
    pub method: WeightMethod,
    /// Also print the dual code's weights B_w (non-zero ones).
    #[arg(long)]
    pub dual: bool,
    #[command(flatten)]
    pub print: crate::output::Print,
    /// Also draw the weight distribution (A_w against w, log scale; with
    /// --dual the dual code's B_w too) to FILE.svg or FILE.png.
    #[arg(long, value_parser = PlotPath::parse, conflicts_with_all = ["shard", "out"])]
    pub plot: Option<PlotPath>,
    /// Run shard I of N of the dual-code pass (state ranges fixed by the
    /// generator) and write its tallies to --out; `alias merge` adds the shards.
    #[arg(long, requires = "out")]
    pub shard: Option<Shard>,
    /// Result file of the dual-code pass (of the shard, or of the whole pass).
    #[arg(long, value_parser = OutPath::parse)]
    pub out: Option<OutPath>,
}

/// Runs `alias weights`. Under MPI, a rank that fails prints its error and
/// ends the whole job.
pub fn run(args: Args) -> Result<()> {
    crate::team::run_ranked(|team| run_in(args, team))
}

fn run_in(args: Args, team: Option<&dyn Team>) -> Result<()> {
    args.print
        .check(args.plot.as_ref(), &[("--out", args.out.as_ref())])?;
    let job = WeightsJob::new(
        &args.crc,
        args.bits,
        args.max_weight,
        args.method,
        args.dual,
    )?;
    let split = args.shard.is_some() || args.out.is_some() || team.is_some();
    if split && args.plot.is_some() {
        bail!("--plot draws a whole distribution: run without --shard, --out or MPI ranks");
    }
    let ctx = crate::args::context(None)?.with_team(team);
    let doc = if split {
        let pass = job.pass(args.shard.unwrap_or(Shard::WHOLE))?;
        let bar = crate::progress::Bar::when(ctx.is_root());
        let done = pass.run(&ctx.with_progress(&bar))?;
        if !ctx.is_root() {
            return Ok(());
        }
        if let Some(out) = &args.out {
            done.file.write(out)?;
        }
        match done.document {
            Some(doc) => doc,
            None => return Ok(()), // a shard's tally alone is no distribution: merge the shards
        }
    } else {
        output::long_run(job.estimated_seconds(), "this count")?;
        let bar = crate::progress::Bar::stderr();
        job.run(&ctx.with_progress(&bar))?
    };
    crate::args::plot(args.plot.as_deref(), &doc)?;
    args.print.emit(&doc.render(args.print.format())?)
}
