//! `alias hd`: the Hamming-distance profile of a CRC in Koopman's notation.

use crate::output::PlotPath;
use aliasing_core::catalogue;
use aliasing_core::ctx::Job;
use aliasing_core::job::HdJob;
use anyhow::Result;

/// Arguments of `alias hd`.
#[derive(clap::Args)]
pub struct Args {
    /// CRC: catalogue name (crc32, CRC-32/ISCSI, ...), bare width, or polynomial. [required]
    #[arg(long)]
    pub crc: String,
    /// Highest Hamming distance to report (default: the weight of the
    /// generator, the HD at one data bit).
    #[arg(long, value_parser = aliasing_core::parse::count::<u32>, allow_negative_numbers = true)]
    pub max_hd: Option<u32>,
    /// Search the profile only up to this codeword length in bits (check
    /// bits included): HDs that end beyond it are reported as holding up to
    /// it.
    #[arg(long, value_parser = aliasing_core::parse::count::<u64>, allow_negative_numbers = true)]
    pub max_bits: Option<u64>,
    /// Hash probes the meet-in-the-middle searches may spend in all (about
    /// 1e8 a second on one core). Where they run out, the output says which
    /// HDs were settled and up to which length the next one was searched.
    #[arg(long, default_value_t = aliasing_core::__private::lowweight::DEFAULT_BUDGET)]
    pub budget: f64,
    #[command(flatten)]
    pub print: crate::output::Print,
    /// Also draw the HD profile (longest data length against HD, log
    /// scale) to FILE.svg or FILE.png.
    #[arg(long, value_parser = PlotPath::parse)]
    pub plot: Option<PlotPath>,
}

/// The job `args` ask for.
fn job(args: &Args) -> Result<HdJob> {
    let mut job = HdJob::new(catalogue::resolve(&args.crc)?);
    if let Some(h) = args.max_hd {
        job = job.max_hd(h)?;
    }
    if let Some(n) = args.max_bits {
        job = job.max_bits(n)?;
    }
    Ok(job.budget(args.budget)?)
}

/// Runs `alias hd`.
pub fn run(args: Args) -> Result<()> {
    args.print.check(args.plot.as_ref(), &[])?;
    let job = job(&args)?;
    let bar = crate::progress::Bar::stderr();
    let doc = job.run(&crate::args::context(None)?.with_progress(&bar))?;
    crate::args::plot(args.plot.as_deref(), &doc)?;
    args.print.emit(&doc.render(args.print.format())?)
}
