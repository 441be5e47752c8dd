//! `alias stack`: the exact joint escape of a stack of checks (one CRC plus
//! Internet checksums, e.g. Ethernet FCS + IPv4 + TCP) on a binary symmetric
//! channel, beside each check on its own and the study's independence
//! product. Parses the arguments into an [`aliasing_sim::joint::StackJob`],
//! runs it and renders its document.

use crate::args::parse_bers;
use crate::output::{OutPath, PlotPath, Print};
use crate::progress::Bar;
use aliasing_core::ctx::Job;
use aliasing_core::document;
use aliasing_core::shard::Shard;
use aliasing_sim::joint::{StackJob, StackParams, StackSession};
use anyhow::{Result, bail};
use std::path::{Path, PathBuf};

/// Arguments of `alias stack`.
#[derive(clap::Args)]
pub struct Args {
    /// The stack (frame layout): `ethernet-tcp`, or a description
    /// `INNER+CRC` with INNER one of random, internet, tcp, ipv4-tcp,
    /// ethernet-tcp (e.g. `tcp+crc32c`, `ipv4-tcp+CRC-16/ARC`): one CRC over
    /// the whole frame and Internet checksums.
    #[arg(long, default_value = "ethernet-tcp")]
    stack: String,
    /// Frame lengths in bytes, FCS included: `64,594,1518,9018`, `64:1518:64`
    /// or `log:64:9018:8`. [required unless --merge]
    #[arg(long, required_unless_present = "merge", allow_hyphen_values = true)]
    bytes: Option<String>,
    /// Bit error rates, comma separated (at most 0.5). [required unless --merge]
    #[arg(long, required_unless_present = "merge", value_parser = crate::args::ber_list, allow_hyphen_values = true)]
    ber: Option<String>,
    /// Highest CRC codeword weight enumerated exactly (2 to 5; weight 5 is
    /// listed up to about 7,900 bytes, above that the highest is 3 or 4).
    #[arg(long, default_value_t = 5, value_parser = aliasing_core::parse::count::<u32>, allow_negative_numbers = true)]
    max_weight: u32,
    /// Random subsets drawn to estimate the next weight where the certified
    /// bracket is wider than 0.1% at some BER (0: exact terms and the
    /// bracket only). As in `alias simulate --rare --samples`, the number
    /// of random draws behind the estimate (`5e4` form accepted).
    #[arg(long, default_value_t = 50_000, value_parser = aliasing_core::parse::count::<u64>, allow_negative_numbers = true)]
    samples: u64,
    /// Seed of those draws.
    #[arg(long, default_value_t = 1, value_parser = aliasing_core::parse::count::<u64>, allow_negative_numbers = true)]
    seed: u64,
    /// Run only shard I of N (1-based) of the enumeration and the draws;
    /// needs --out. Combine the shard files with `alias merge` or
    /// `alias stack --merge`.
    #[arg(long, conflicts_with = "merge")]
    shard: Option<Shard>,
    /// Write the result file (parameters and exact integer tallies) here.
    #[arg(long, conflicts_with = "merge", value_parser = OutPath::parse)]
    out: Option<OutPath>,
    /// Rewrite this checkpoint file during the run and at its end; a
    /// checkpoint already there (of the same parameters and shard) is
    /// continued.
    #[arg(long, conflicts_with = "merge", value_parser = OutPath::parse)]
    checkpoint: Option<OutPath>,
    /// Report from these shard files instead of computing (every shard of
    /// one run, once each).
    #[arg(long, num_args = 1.., value_name = "FILES")]
    merge: Option<Vec<PathBuf>>,
    #[command(flatten)]
    pub print: crate::output::Print,
    /// Also draw joint P(escape | error) and the independence product against
    /// BER to FILE.svg or FILE.png.
    #[arg(long, value_parser = PlotPath::parse)]
    plot: Option<PlotPath>,
}

/// Runs `alias stack`: the arguments into a [`StackJob`], its run (whole,
/// or one shard of its [`aliasing_sim::joint::StackSession`] into its
/// result file), the document rendered.
pub fn run(a: Args) -> Result<()> {
    let outs = [
        ("--out", a.out.as_ref()),
        ("--checkpoint", a.checkpoint.as_ref()),
    ];
    a.print.check(a.plot.as_ref(), &outs)?;
    if let Some(files) = &a.merge {
        let bar = Bar::stderr();
        let doc = StackJob::merge(files, &crate::args::context(None)?.with_progress(&bar));
        bar.finish();
        return emit(&doc?, &a.print, a.plot.as_deref());
    }
    let shard = a.shard;
    if shard.is_some_and(|s| s.count > 1) && a.out.is_none() {
        bail!("--shard needs --out FILE for its result file");
    }
    let job = StackJob::new(StackParams {
        stack: a.stack.trim().to_string(),
        bytes: aliasing_core::parse::lengths(a.bytes.as_deref().unwrap_or_default())?,
        bers: parse_bers(a.ber.as_deref().unwrap_or_default())?,
        max_weight: a.max_weight,
        samples: a.samples,
        seed: a.seed,
    })?;
    let share = shard.map_or(1, |s| s.count);
    crate::output::long_run(job.estimate_seconds(share)?, "this stack computation")?;
    let bar = Bar::stderr();
    let ctx = crate::args::context(None)?.with_progress(&bar);
    let shard = shard.unwrap_or(Shard::WHOLE);
    let session = match a.checkpoint.as_deref() {
        Some(c) if c.exists() => StackSession::resume(c, Some(job.params()), Some(shard))?,
        Some(c) => job.session(shard)?.checkpoint_to(c.to_path_buf())?,
        None if a.out.is_none() => {
            let doc = job.run(&ctx);
            bar.finish();
            return emit(&doc?, &a.print, a.plot.as_deref());
        }
        None => job.session(shard)?,
    };
    let (file, doc) = session.run(&ctx)?;
    if let Some(out) = &a.out {
        file.write(out)?;
    }
    bar.finish();
    // a shard's tally alone is no result
    doc.map_or(Ok(()), |d| emit(&d, &a.print, a.plot.as_deref()))
}

/// Plots (with `--plot`) and prints the document.
pub(crate) fn emit(doc: &document::Stack, print: &Print, plot_to: Option<&Path>) -> Result<()> {
    crate::args::plot(plot_to, doc)?;
    print.emit(&doc.render(print.format())?)
}
