//! `alias merge`: adds the shard result files of one `simulate` run (plain,
//! `--rare` or `--rare --burst`), of one split dual-code pass of `alias weights`, of one
//! `stack` run or of one `search`; the result equals the single run's, bit for bit.

use super::simulate::Sink;
use crate::args::context;
use crate::output::OutPath;
use aliasing_sim::joint::STACK_FORMAT;
use aliasing_sim::search;
use aliasing_sim::session::kinds::{self, Merged};
use aliasing_sim::simulate::SimulateJob;
use aliasing_sim::weights;
use anyhow::{Result, bail};
use std::path::PathBuf;

/// Arguments of `alias merge`.
#[derive(clap::Args)]
pub struct Args {
    /// Result files written by `alias simulate --shard I/N --out FILE` (or
    /// by `alias weights`, `alias stack` or `alias search` with the same
    /// options).
    #[arg(required = true)]
    files: Vec<PathBuf>,
    #[command(flatten)]
    report: Sink,
    /// Also write the merged result file here.
    #[arg(long, value_parser = OutPath::parse)]
    out: Option<OutPath>,
}

/// Runs `alias merge`: the files' one kind ([`kinds::kind_of`]), the
/// options that kind takes, the library's merge of that kind
/// ([`kinds::merge`]), the document.
pub fn run(a: Args) -> Result<()> {
    a.report.check(&[("--out", a.out.as_ref())])?;
    let kind = kinds::kind_of(&a.files)?.unwrap_or_else(|| SimulateJob::KINDS[0].to_string());
    let (plot, no_exact) = (a.report.plot.is_some(), a.report.no_exact);
    match kind.as_str() {
        weights::FORMAT if plot || no_exact => bail!(
            "--plot and --no-exact are for simulations; dual-weight shards merge into exact counts"
        ),
        STACK_FORMAT if a.out.is_some() || no_exact => {
            bail!("stack shard files take neither --out nor --no-exact")
        }
        search::FORMAT if no_exact => bail!("--no-exact is for simulations; a search is exact"),
        k if k != SimulateJob::KINDS[0] && SimulateJob::KINDS.contains(&k) && plot => {
            bail!(super::simulate::RARE_NO_PLOT)
        }
        _ => {}
    }
    let bar = crate::progress::Bar::stderr();
    let merged = kinds::merge(
        &kind,
        &a.files,
        no_exact,
        &context(None)?.with_progress(&bar),
    );
    bar.finish();
    let print = &a.report.print;
    match merged? {
        Merged::Simulate(done) => a.report.finish(*done, a.out.as_ref()),
        Merged::Stack(doc) => super::stack::emit(&doc, print, a.report.plot.as_deref()),
        Merged::Search(done) => {
            let (file, doc) = *done;
            if let Some(out) = &a.out {
                file.write(out)?;
            }
            super::search::emit(&doc, print, a.report.plot.as_deref())
        }
        Merged::Weights(done) => {
            let (file, doc) = *done;
            if let Some(out) = &a.out {
                file.write(out)?;
            }
            print.emit(&doc.render(print.format())?)
        }
        _ => bail!("{kind}: a kind of shard file this program does not report"),
    }
}
