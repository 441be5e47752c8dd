//! `alias merge`: adds the shard result files of one `simulate` run.

use super::simulate::{Sink, plan_of};
use crate::output::Format;
use aliasing_sim::shard::{RunFile, merge};
use aliasing_sim::stack::Payload;
use anyhow::Result;
use std::path::PathBuf;

/// Arguments of `alias merge`.
#[derive(clap::Args)]
pub struct Args {
    /// Result files written by `alias simulate --shard I/N --out FILE`.
    #[arg(required = true)]
    files: Vec<PathBuf>,
    /// Output format.
    #[arg(long, value_enum, default_value = "table")]
    format: Format,
    /// Write the report here instead of stdout.
    #[arg(long, short)]
    output: Option<PathBuf>,
    /// Also draw the estimates with their 95% intervals beside the exact
    /// values to FILE.svg or FILE.png.
    #[arg(long)]
    plot: Option<PathBuf>,
    /// Skip the exact values (a 32-bit CRC's takes a few seconds).
    #[arg(long)]
    no_exact: bool,
    /// Also write the merged result file here.
    #[arg(long)]
    out: Option<PathBuf>,
}

/// Runs `alias merge`.
pub fn run(a: Args) -> Result<()> {
    let mut files = Vec::new();
    for p in &a.files {
        files.push((p.display().to_string(), RunFile::read(p)?));
    }
    let (params, counts) = merge(&files)?;
    // The layout (names of checks, exact values) does not depend on the payload bytes.
    let payload = if params.payload == "random" {
        Payload::Random
    } else {
        Payload::Fixed(vec![0])
    };
    let plan = plan_of(&params, payload)?;
    if let Some(out) = &a.out {
        let p = aliasing_sim::run::Progress {
            chunks_done: plan.chunks(),
            counts: counts.clone(),
        };
        RunFile::new(params.clone(), (1, 1), true, p).write(out)?;
    }
    let sink = Sink {
        no_exact: a.no_exact,
        plot: a.plot.as_deref(),
        format: a.format,
        output: a.output.as_deref(),
    };
    sink.report(&plan, params, &counts)
}
