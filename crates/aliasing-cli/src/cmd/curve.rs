//! `alias curve`: exact P(undetected) and P(alias | error) against frame
//! length for one check (a CRC or a checksum), at one or more bit error rates.

use crate::args::{parse_bers, plot};
use crate::output;
use crate::output::PlotPath;
use crate::progress::Bar;
use aliasing_core::check::CheckSpec;
use aliasing_core::ctx::Job;
use aliasing_core::document::BracketDoc;
use aliasing_core::job::CurveJob;
use aliasing_core::{bracket, catalogue, curve};
use anyhow::{Result, bail};

/// BERs used when `--ber` is not given (those of the study).
pub const DEFAULT_BERS: &str = "1e-4,1e-5,1e-6,1e-7,1e-8";

/// Lengths in bits used when neither `--bits` nor `--bytes` is given:
/// 512 bits (64-byte minimum Ethernet frame) to 16384 bits, spaced by
/// sqrt(2), plus 12144 bits (1518-byte maximum Ethernet frame, FCS included).
pub const DEFAULT_BITS: &[u64] = &[
    512, 724, 1024, 1448, 2048, 2896, 4096, 5793, 8192, 11585, 12144, 16384,
];

const DEFAULT_LENGTHS_NOTE: &str = "default set: 512 bits (64-byte minimum Ethernet frame) \
     to 16384 bits, sqrt(2) apart, plus 12144 bits (1518-byte maximum Ethernet frame); \
     set with --bits or --bytes";

/// Arguments of `alias curve`.
#[derive(clap::Args)]
pub struct Args {
    /// CRC: RevEng name (CRC-32/ISO-HDLC), alias (crc32, crc16-ccitt), bare
    /// width (16 = default primitive polynomial), or polynomial in full
    /// (0x18005), normal (16:0x8005), Koopman (k:0xC002) or reversed
    /// (r16:0xA001) notation. [required unless --check]
    #[arg(long, required_unless_present = "check", conflicts_with = "check")]
    pub crc: Option<String>,
    /// Check other than a CRC: internet (RFC 1071), fletcher16, fletcher32,
    /// adler32; any CRC spec is accepted too. Lengths must be whole bytes.
    #[arg(long)]
    pub check: Option<String>,
    #[command(flatten)]
    pub given: crate::args::Given,
    /// Bit error rates, comma-separated, each in [0, 1].
    #[arg(long, default_value = DEFAULT_BERS, allow_hyphen_values = true, value_parser = crate::args::ber_list)]
    pub ber: String,
    /// Codeword lengths in bits, check bits included: values, START:STOP:STEP
    /// ranges, or log:START:STOP:N. Default: 512..16384 bits and 12144.
    #[arg(long, conflicts_with = "bytes", allow_hyphen_values = true)]
    pub bits: Option<String>,
    /// Codeword lengths in bytes (x 8 bits), check bytes included; same forms
    /// as --bits.
    #[arg(long, allow_hyphen_values = true)]
    pub bytes: Option<String>,
    /// Gilbert-Elliott burst channel instead of --ber: good-state BER,
    /// bad-state BER, P(good->bad), P(bad->good) per bit, as `alias simulate
    /// --burst` (exact product chain, CRCs up to 24 bits).
    #[arg(long, value_name = "PG,PB,G2B,B2G", conflicts_with_all = ["ber", "check"], value_parser = crate::args::burst)]
    pub burst: Option<aliasing_core::channel::GilbertElliott>,
    /// Exact method.
    #[arg(long, value_enum, default_value_t = curve::Method::Auto)]
    pub method: curve::Method,
    #[command(flatten)]
    pub print: crate::output::Print,
    /// Also draw the curve to FILE.svg or FILE.png (log-log, one line per BER).
    #[arg(long, value_parser = PlotPath::parse)]
    pub plot: Option<PlotPath>,
    /// Memory budget of the exact method, e.g. 8G or 512M (default: the
    /// ALIAS_MEMORY_LIMIT environment variable, else 80% of available memory).
    #[arg(long)]
    pub memory: Option<String>,
}

fn lengths(args: &Args) -> Result<(Vec<u64>, String)> {
    let bits = crate::args::bits_or_bytes(args.bits.as_deref(), args.bytes.as_deref());
    match (&args.bits, &args.bytes) {
        (Some(b), _) => return Ok((bits?, format!("--bits {b}"))),
        (None, Some(b)) => return Ok((bits?, format!("--bytes {b} (x 8 bits)"))),
        (None, None) => {}
    }
    if args.given.payload.is_some() || args.given.payload_hex.is_some() {
        // `compute` takes the data's length plus the field
        return Ok((
            Vec::new(),
            "the given data and the check field computed from them".to_string(),
        ));
    }
    if args.given.frame.is_some() || args.given.frame_hex.is_some() {
        return Ok((Vec::new(), "the captured frame's length".to_string()));
    }
    Ok((DEFAULT_BITS.to_vec(), DEFAULT_LENGTHS_NOTE.to_string()))
}

/// The job `args` ask for (after the routing of wide CRCs to a bracket).
fn job(args: &Args, bers: Vec<f64>, bits: Vec<u64>) -> Result<CurveJob> {
    let given = args.given.read()?;
    let check = match (&args.crc, &args.check) {
        (Some(c), _) => CheckSpec::Crc(Box::new(catalogue::resolve(c)?)),
        (None, Some(c)) => c.parse::<CheckSpec>()?,
        (None, None) => bail!("give --crc or --check"),
    };
    // without lengths, given bytes set the only one
    let lengths_given = args.bits.is_some() || args.bytes.is_some() || given.is_none();
    let mut job = CurveJob::builder(check)
        .bers(bers)
        .given(given)
        .burst(args.burst)
        .method(args.method);
    if lengths_given {
        job = job.bits(bits);
    }
    Ok(job.build()?)
}

/// Runs `alias curve`.
pub fn run(args: Args) -> Result<()> {
    args.print.check(args.plot.as_ref(), &[])?;
    let bers = parse_bers(&args.ber)?;
    let (bits, lengths_note) = lengths(&args)?;
    let ctx = crate::args::context(args.memory.as_deref())?;
    if let Some(c) = &args.crc {
        let crc = catalogue::resolve(c)?;
        if crc.generator().width() > aliasing_core::dual::MAX_WIDTH
            && args.method == curve::Method::Auto
        {
            // the certified bracket from the enumerated low weights
            let bar = Bar::stderr();
            let b = bracket::brackets(
                &crc.generator(),
                &bits,
                &bers,
                None,
                &ctx.with_progress(&bar),
            )?;
            bar.finish();
            let doc = BracketDoc::of(&crc, &b);
            return args
                .print
                .emit(&doc.render(args.print.format(), &lengths_note)?);
        }
    }
    let job = job(&args, bers, bits)?;
    output::long_run(job.estimated_seconds(&ctx), "this curve")?;
    let bar = Bar::stderr();
    let doc = job.run(&ctx.with_progress(&bar))?;
    plot(args.plot.as_deref(), &doc)?;
    args.print
        .emit(&doc.render(args.print.format(), &lengths_note)?)
}
