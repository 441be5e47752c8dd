//! `alias merge`: adds the shard result files of one `simulate` run (plain,
//! `--rare` or `--rare --burst`), of one split dual-code pass of `alias weights`, or of one
//! `stack` run; the result equals the single run's, bit for bit.

use super::simulate::Sink;
use crate::output::OutPath;
use aliasing_sim::session;
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

/// The kinds of result file `alias merge` adds (shards of simulate,
/// `--rare`, `--rare --burst`, weights and stack runs): one table.
const KINDS: [&str; 5] = [
    SimulateJob::KINDS[0],
    SimulateJob::KINDS[1],
    SimulateJob::KINDS[2],
    super::weights::FORMAT,
    aliasing_sim::joint::STACK_FORMAT,
];

/// The one kind of all `files`, or a one-line refusal naming the kind a
/// file is instead (a search shard, a result document, another run's kind).
fn kind_of(files: &[PathBuf]) -> Result<Option<String>> {
    let known = |k: &str| KINDS.contains(&k);
    let mut first: Option<(String, &PathBuf)> = None;
    for p in files {
        if !p.is_file() {
            // the readers below say what is wrong (missing, a folder, ...)
            return Ok(session::file_kind(&files[0]));
        }
        let kind = session::file_kind(p);
        let k = match kind.as_deref() {
            Some(k) if known(k) => k.to_string(),
            Some("alias-search") => anyhow::bail!(
                "{} is a shard file of `alias search`: combine search shards with \
                 `alias search --merge FILES`",
                p.display()
            ),
            Some(other) => anyhow::bail!(
                "{} is a file of kind `{other}`; merge adds shard files of simulate, \
                 weights and stack runs",
                p.display()
            ),
            None => {
                let json = std::fs::read_to_string(p)
                    .ok()
                    .and_then(|t| serde_json::from_str::<serde_json::Value>(&t).ok());
                if json.is_some() {
                    anyhow::bail!(
                        "{} is not a shard file: JSON without the kind of a result file \
                         (a `--format json` report?); merge the files that `--out` wrote",
                        p.display()
                    )
                }
                anyhow::bail!("{} is not a shard file: not JSON", p.display())
            }
        };
        match &first {
            None => first = Some((k, p)),
            Some((k0, p0)) if *k0 != k => anyhow::bail!(
                "{} is a `{k0}` file and {} a `{k}` file: merge adds the shards of one run",
                p0.display(),
                p.display()
            ),
            Some(_) => {}
        }
    }
    Ok(first.map(|(k, _)| k))
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
