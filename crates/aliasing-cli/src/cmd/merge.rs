//! `alias merge`: adds the shard result files of one `simulate` run (plain,
//! `--rare` or `--rare --burst`), of one split dual-code pass of `alias weights`, or of one
//! `stack` run; the result equals the single run's, bit for bit.

use super::simulate::Sink;
use crate::output::OutPath;
use aliasing_sim::session::{self, kinds};
use aliasing_sim::simulate::SimulateJob;
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
    #[arg(long, value_parser = OutPath::parse)]
    out: Option<OutPath>,
}

/// The one kind of all `files` ([`kinds::merge_kind`], the one table of
/// kinds), or a one-line refusal naming the kind a file is instead (a
/// search shard, a result document, another run's kind).
fn kind_of(files: &[PathBuf]) -> Result<Option<String>> {
    use kinds::{Mismatch, Offered};
    // from the first file that is no file on, the readers say what is wrong
    let n = files
        .iter()
        .position(|p| !p.is_file())
        .unwrap_or(files.len());
    let kind = match kinds::merge_kind(&files[..n]) {
        Ok(_) if n < files.len() => Ok(session::file_kind(&files[0])),
        Ok(k) => Ok(k),
        Err(Mismatch::NotShard(p, Offered::Other(k))) if k == "alias-search" => Err(format!(
            "{} is a shard file of `alias search`: combine search shards with \
             `alias search --merge FILES`",
            p.display()
        )),
        Err(Mismatch::NotShard(p, Offered::Other(k))) => Err(format!(
            "{} is a file of kind `{k}`; merge adds shard files of simulate, weights and stack runs",
            p.display()
        )),
        Err(Mismatch::NotShard(p, Offered::Json)) => Err(format!(
            "{} is not a shard file: JSON without the kind of a result file \
             (a `--format json` report?); merge the files that `--out` wrote",
            p.display()
        )),
        Err(Mismatch::NotShard(p, _)) => {
            Err(format!("{} is not a shard file: not JSON", p.display()))
        }
        Err(Mismatch::Mixed((p0, k0), (p, k))) => Err(format!(
            "{} is a `{k0}` file and {} a `{k}` file: merge adds the shards of one run",
            p0.display(),
            p.display()
        )),
    };
    kind.map_err(anyhow::Error::msg)
}

/// Runs `alias merge`.
pub fn run(a: Args) -> Result<()> {
    a.report.check(&[("--out", a.out.as_ref())])?;
    let kind = kind_of(&a.files)?;
    if kind.as_deref() == Some(super::weights::FORMAT) {
        if a.report.plot.is_some() || a.report.no_exact {
            anyhow::bail!(
                "--plot and --no-exact are for simulations; dual-weight shards merge into exact counts"
            );
        }
        let text = super::weights::merge(&a.files, a.report.print.format(), a.out.as_deref())?;
        return a.report.print.emit(&text);
    }
    if kind.as_deref() == Some(aliasing_sim::joint::STACK_FORMAT) {
        if a.out.is_some() || a.report.no_exact {
            anyhow::bail!("stack shard files take neither --out nor --no-exact");
        }
        return super::stack::merge_report(&a.files, &a.report.print, a.report.plot.as_deref());
    }
    let kind = kind.unwrap_or_else(|| SimulateJob::KINDS[0].to_string());
    if kind != SimulateJob::KINDS[0] && a.report.plot.is_some() {
        anyhow::bail!(super::simulate::RARE_NO_PLOT);
    }
    let bar = crate::progress::Bar::stderr();
    let done = SimulateJob::merge(
        &kind,
        &a.files,
        a.report.no_exact,
        &crate::args::context(None)?.with_progress(&bar),
    );
    bar.finish();
    a.report.finish(done?, a.out.as_ref())
}
