//! `alias compare`: several checks side by side at the same frame lengths
//! (bytes, check field included) and BERs. Thin glue over
//! `aliasing_core::compare`.

use crate::args::{parse_bers, plot};
use crate::output;
use crate::output::PlotPath;
use crate::progress::Bar;
use aliasing_core::check::CheckSpec;
use aliasing_core::ctx::Job;
use aliasing_core::job::CompareJob;
use anyhow::Result;

/// Arguments of `alias compare`.
#[derive(clap::Args)]
pub struct Args {
    /// Frame lengths in bytes, everything the checks cover including the check
    /// field: `64,576,1500`, `64:1500:64` or `log:64:9000:20`. With given
    /// data, each frame is the data repeated or cut to fill it, then the
    /// field (default: the data plus the Internet checksum's 2 bytes); with a
    /// captured frame, its length only.
    #[arg(long, allow_hyphen_values = true)]
    bytes: Option<String>,
    /// Bit error rates, comma separated: `1.5e-5` or `1e-4,1e-6`. [required]
    #[arg(long, required = true, value_parser = crate::args::ber_list, allow_hyphen_values = true)]
    ber: String,
    /// Checks to compare, comma separated: `internet`, `fletcher16`,
    /// `fletcher32`, `adler32`, or any CRC name, alias or polynomial.
    #[arg(
        long,
        default_value = "crc32,crc32c,crc16-ccitt,internet,fletcher32,adler32"
    )]
    checks: String,
    #[command(flatten)]
    pub given: crate::args::Given,
    #[command(flatten)]
    pub print: crate::output::Print,
    /// Also draw the comparison to FILE.svg or FILE.png.
    #[arg(long, value_parser = PlotPath::parse)]
    plot: Option<PlotPath>,
}

/// The job `args` ask for.
fn job(args: &Args) -> Result<CompareJob> {
    let bers = parse_bers(&args.ber)?;
    let given = args.given.read()?;
    let bytes = args
        .bytes
        .as_deref()
        .map(aliasing_core::parse::lengths)
        .transpose()?;
    let checks: Vec<CheckSpec> = args
        .checks
        .split(',')
        .map(|s| s.parse::<CheckSpec>())
        .collect::<std::result::Result<_, _>>()?;
    Ok(CompareJob::new(checks, bytes, bers, given)?)
}

/// Runs `alias compare`.
pub fn run(args: Args) -> Result<()> {
    args.print.check(args.plot.as_ref(), &[])?;
    let job = job(&args)?;
    let ctx = crate::args::context(None)?;
    output::long_run(job.estimated_seconds(&ctx), "this comparison")?;
    let bar = Bar::stderr();
    let doc = job.run(&ctx.with_progress(&bar))?;
    plot(args.plot.as_deref(), &doc)?;
    args.print.emit(&job.render(&doc, args.print.format())?)
}
