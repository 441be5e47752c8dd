//! `alias merge`: adds the shard result files of one `simulate` run (plain,
//! `--rare` or `--rare --burst`), of one split dual-code pass of `alias weights`, or of one
//! `stack` run; the result equals the single run's, bit for bit.

use super::simulate::Sink;
use aliasing_sim::session::{self, RARE_BURST_FORMAT, RARE_FORMAT};
use anyhow::Result;
use std::path::PathBuf;

/// Arguments of `alias merge`.
#[derive(clap::Args)]
pub struct Args {
    /// Result files written by `alias simulate --shard I/N --out FILE` (or
    /// `alias weights --shard I/N --out FILE`, or `alias stack --shard I/N
    /// --out FILE`).
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
    a.report.check()?;
    if let Some(out) = &a.out {
        super::simulate::check_output("--out", out)?;
    }
    let kind = session::file_kind(&a.files[0]);
    if kind.as_deref() == Some(super::weights::FORMAT) {
        if a.report.plot.is_some() || a.report.no_exact {
            anyhow::bail!(
                "--plot and --no-exact are for simulations; dual-weight shards merge into exact counts"
            );
        }
        let text = super::weights::merge(&a.files, a.report.format, a.out.as_deref())?;
        return crate::output::emit(a.report.output.as_deref(), &text);
    }
    if kind.as_deref() == Some(aliasing_sim::joint::STACK_FORMAT) {
        if a.out.is_some() || a.report.no_exact {
            anyhow::bail!("stack shard files take neither --out nor --no-exact");
        }
        return super::stack::merge_report(
            &a.files,
            a.report.format,
            a.report.output.as_deref(),
            a.report.plot.as_deref(),
        );
    }
    let rare = [Some(RARE_BURST_FORMAT), Some(RARE_FORMAT)].contains(&kind.as_deref());
    if rare && a.report.plot.is_some() {
        anyhow::bail!(super::simulate::RARE_NO_PLOT);
    }
    if kind.as_deref() == Some(RARE_BURST_FORMAT) {
        let (s, file) = session::merge_rare_burst_paths(&a.files)?;
        if let Some(out) = &a.out {
            file.write(out)?;
        }
        return a.report.report_rare_burst(&s, &file.progress.counts);
    }
    if kind.as_deref() == Some(RARE_FORMAT) {
        let (s, file) = session::merge_rare_paths(&a.files)?;
        if let Some(out) = &a.out {
            file.write(out)?;
        }
        let bar = crate::progress::Bar::stderr();
        let r = s.result_with(&file.progress.counts, a.report.no_exact, &bar)?;
        bar.finish();
        return a.report.report_rare(&s, &r);
    }
    let (s, counts) = session::merge_paths(&a.files)?;
    if let Some(out) = &a.out {
        s.result_file(counts.clone()).write(out)?;
    }
    a.report.report(&s, &counts)
}
