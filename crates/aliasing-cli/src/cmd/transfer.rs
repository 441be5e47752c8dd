//! `alias transfer`: how many frames reach the application corrupted in a
//! transfer of a given size, per MTU, BER and hops. Parses the arguments
//! into an [`aliasing_sim::transfer::TransferJob`] (the model is written
//! there), runs it and renders its document.

use crate::args::parse_bers;
use crate::output::{self, OutPath, PlotPath};
use crate::progress::Bar;
use aliasing_core::ctx::Job;
use aliasing_sim::corruption::Corruption;
use aliasing_sim::transfer::{Tallies, TransferJob, TransferParams, payload_size};
use anyhow::{Context, Result, bail};
use std::path::PathBuf;

/// Arguments of `alias transfer`.
#[derive(clap::Args)]
pub struct Args {
    /// Bytes transferred (TCP payload): `10TB` (1e13), `1TiB` (2^40),
    /// `500GB`, `1.5e12` or plain bytes; decimal units B, kB, MB, GB, TB,
    /// PB, EB, binary KiB to EiB; from 1 byte to 2^64. [required unless
    /// --payload]
    #[arg(
        long,
        required_unless_present = "payload",
        conflicts_with = "payload",
        allow_hyphen_values = true
    )]
    size: Option<String>,
    /// The transfer is this file: its size is used, and with
    /// `--corruption` its data (each segment as it is).
    #[arg(long, value_name = "FILE")]
    payload: Option<PathBuf>,
    /// Corruption inside hosts and routers, between link checks:
    /// `MODEL:RATE`, RATE the probability that a segment is corrupted once;
    /// models `word`, `burst:B`, `splice:C`, `bits:P` (`bits:P` alone: the
    /// rate is P(at least one bit flips)). Repeat for several.
    #[arg(long, value_name = "MODEL:RATE")]
    corruption: Vec<String>,
    /// An end-to-end CRC over each segment's data on top of TCP, which a
    /// corruption must pass too: `crc32c` (an iSCSI data digest),
    /// `crc64-nvme` (an application CRC), any catalogue name or generator
    /// as for --crc. Each entry's method says whether its p_miss is exact
    /// or a certified upper bound. Needs --corruption.
    #[arg(long, value_name = "CRC")]
    digest: Option<String>,
    /// IP packet lengths (MTUs) in bytes, 68 to 9216: `1500,9000` or a
    /// range as for `--bytes` elsewhere. [required]
    #[arg(long, required = true, allow_hyphen_values = true)]
    mtu: String,
    /// Bit error rates of every link, comma separated (at most 0.5).
    /// [required unless --burst]
    #[arg(long, required_unless_present = "burst", conflicts_with = "burst", value_parser = crate::args::ber_list, allow_hyphen_values = true)]
    ber: Option<String>,
    /// The stack: `ethernet-tcp` (frame = MTU + 18 bytes), or
    /// `ethernet-tcp+CRC` / `ipv4-tcp+CRC` for another CRC.
    #[arg(long, default_value = "ethernet-tcp")]
    stack: String,
    /// Links crossed, each checking and regenerating the CRC (1 to 255;
    /// a comma list for several).
    #[arg(long, default_value = "1", allow_hyphen_values = true)]
    hops: String,
    /// A Gilbert-Elliott burst channel `PG,PB,G2B,B2G` on every link
    /// instead of --ber: the per-frame escape is a rare-event estimate of
    /// the joint escape (the CRC and every checksum pass) over bursts,
    /// --samples draws, --seed, with its 95% interval.
    #[arg(long, value_name = "PG,PB,G2B,B2G", value_parser = crate::args::burst)]
    burst: Option<aliasing_core::channel::GilbertElliott>,
    /// Keep the BER-independent part (CRC codeword tallies and dual
    /// weights, per frame length) in this file: read if it exists (and
    /// checked against the stack and options), written with any length
    /// computed anew.
    #[arg(long, value_name = "FILE", value_parser = OutPath::parse)]
    tallies: Option<OutPath>,
    /// Highest CRC codeword weight enumerated exactly (2 to 5), as in
    /// `alias stack`.
    #[arg(long, default_value_t = 5, value_parser = aliasing_core::parse::count::<u32>, allow_negative_numbers = true)]
    max_weight: u32,
    /// Draws of the next weight where the bracket is wider than 0.1%, as
    /// in `alias stack` (`5e4` form accepted).
    #[arg(long, default_value_t = 50_000, value_parser = aliasing_core::parse::count::<u64>, allow_negative_numbers = true)]
    samples: u64,
    /// Seed of those draws.
    #[arg(long, default_value_t = 1, value_parser = aliasing_core::parse::count::<u64>, allow_negative_numbers = true)]
    seed: u64,
    #[command(flatten)]
    pub print: crate::output::Print,
    /// Also draw expected escapes per petabyte against BER (one line per
    /// MTU, the bracket as a band) to FILE.svg or FILE.png.
    #[arg(long, value_parser = PlotPath::parse)]
    plot: Option<PlotPath>,
}

/// Runs `alias transfer`: the arguments into a [`TransferJob`], its run
/// (with the kept tallies of `--tallies`), the document rendered.
pub fn run(a: Args) -> Result<()> {
    a.print
        .check(a.plot.as_ref(), &[("--tallies", a.tallies.as_ref())])?;
    let burst = a.burst;
    if burst.is_some() && a.tallies.is_some() {
        bail!("--tallies keeps the binary symmetric channel's tallies: --burst has none to keep");
    }
    let job = TransferJob::new(params(&a)?, burst)?;
    let drawn = burst.map(|_| (job.params().samples, job.params().seed));
    let mut kept = match &a.tallies {
        Some(p) => Tallies::kept_at(p.path(), job.params())
            .with_context(|| format!("--tallies {}", p.path().display()))?,
        None => Tallies::new(job.params()),
    };
    // a cost model of the lengths not kept (no work done): announced beyond
    // a minute on a terminal, refused beyond a day without --allow-long
    let threads = rayon::current_num_threads();
    crate::output::long_run(job.estimate_seconds(&kept, threads), "this transfer")?;
    let bar = Bar::stderr();
    let ctx = crate::args::context(None)?.with_progress(&bar);
    let result = match burst {
        Some(_) => job.run(&ctx).map(|d| (d, false)),
        None => job.run_kept(&mut kept, &ctx),
    };
    bar.finish();
    let (doc, changed) = result?;
    if let Some(p) = &a.tallies
        && (changed || !p.path().exists())
    {
        output::emit(Some(p.path()), &kept.to_text()?)?;
    }
    crate::args::plot(a.plot.as_deref(), &doc)?;
    a.print.emit(&doc.render(a.print.format(), drawn)?)
}

/// The request of the arguments.
fn params(a: &Args) -> Result<TransferParams> {
    let (size, payload_file) = match (&a.size, &a.payload) {
        (Some(s), _) => (
            aliasing_core::parse::size(s).map_err(|e| anyhow::anyhow!("--{e}"))?,
            None,
        ),
        (None, Some(f)) => (
            payload_size(f).context("--payload")?,
            Some(f.display().to_string()),
        ),
        (None, None) => bail!("give --size or --payload"),
    };
    let mtus = aliasing_core::parse::lengths(&a.mtu)
        .map_err(|e| anyhow::anyhow!(format!("--mtu: {e:#}").replace("invalid length: ", "")))?;
    let corruption = a
        .corruption
        .iter()
        .map(|c| c.parse::<Corruption>())
        .collect::<aliasing_core::Result<Vec<_>>>()?;
    Ok(TransferParams {
        corruption,
        digest: a.digest.clone(),
        stack: a.stack.trim().to_string(),
        size,
        payload_file,
        mtus,
        bers: a
            .ber
            .as_deref()
            .map(parse_bers)
            .transpose()?
            .unwrap_or_default(),
        hops: aliasing_core::parse::hops(&a.hops).map_err(|e| anyhow::anyhow!("--{e}"))?,
        max_weight: a.max_weight,
        samples: a.samples,
        seed: a.seed,
    })
}
