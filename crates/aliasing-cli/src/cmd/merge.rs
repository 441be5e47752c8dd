//! `alias merge`: adds the shard result files of one `simulate` run.

use super::simulate::{Sink, plan_of};
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
    #[command(flatten)]
    report: Sink,
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
    a.report.report(&plan, params, &counts)
}
