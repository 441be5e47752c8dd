//! `alias curve`: exact P(undetected) and P(alias | error) against frame
//! length for one check (a CRC or a checksum), at one or more bit error rates.

use crate::args::{parse_bers, plot, read_frame, read_payload};
use crate::lengths::parse_lengths;
use crate::output::{self, Format};
use crate::output::{OutPath, PlotPath};
use crate::progress::Bar;
use aliasing_core::bsc::CurvePoint;
use aliasing_core::channel::GilbertElliott;
use aliasing_core::check::CheckSpec;
use aliasing_core::compare;
use aliasing_core::crc::CrcAlgorithm;
use aliasing_core::markov::gilbert;
use aliasing_core::units::{Ber, Bits, MemoryBudget};
use aliasing_core::{catalogue, curve, document};
use anyhow::{Context, Result, bail};
use rayon::prelude::*;
use std::path::PathBuf;

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

/// Exact methods on the command line.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum MethodArg {
    /// The best exact method that applies (dual for wide CRCs and few
    /// lengths, markov otherwise; the output says which).
    Auto,
    /// Markov chain over register states: time O(n 2^r), memory O(2^r).
    Markov,
    /// Dual-code weights and MacWilliams: O(2^r) per length, widths <= 32.
    Dual,
}

impl From<MethodArg> for curve::Method {
    fn from(m: MethodArg) -> Self {
        match m {
            MethodArg::Auto => curve::Method::Auto,
            MethodArg::Markov => curve::Method::Markov,
            MethodArg::Dual => curve::Method::Dual,
        }
    }
}

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
    /// Given data from FILE: the bytes a sender puts before the check field,
    /// which is computed from them (the frame of `alias simulate --payload
    /// pattern:HEX`); each length is a whole frame, the data repeated or cut
    /// to fill it, default the data plus the field.
    #[arg(long, conflicts_with_all = ["payload_hex", "frame", "frame_hex"])]
    pub payload: Option<PathBuf>,
    /// The data as hex digits instead of --payload.
    #[arg(long, conflicts_with_all = ["frame", "frame_hex"])]
    pub payload_hex: Option<String>,
    /// A whole frame from FILE as captured from a wire, its check field in
    /// place (verified; a frame that does not verify is refused).
    #[arg(long, conflicts_with = "frame_hex")]
    pub frame: Option<PathBuf>,
    /// The captured frame as hex digits instead of --frame.
    #[arg(long)]
    pub frame_hex: Option<String>,
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
    #[arg(long, value_name = "PG,PB,G2B,B2G", conflicts_with_all = ["ber", "check"], value_parser = crate::args::burst_spec)]
    pub burst: Option<String>,
    /// Exact method.
    #[arg(long, value_enum, default_value_t = MethodArg::Auto)]
    pub method: MethodArg,
    /// Output format.
    #[arg(long, value_enum, default_value_t = Format::Table)]
    pub format: Format,
    /// Write to FILE (atomically) instead of stdout.
    #[arg(long, short, value_parser = OutPath::parse)]
    pub output: Option<OutPath>,
    /// Also draw the curve to FILE.svg or FILE.png (log-log, one line per BER).
    #[arg(long, value_parser = PlotPath::parse)]
    pub plot: Option<PlotPath>,
    /// Memory budget of the exact method, e.g. 8G or 512M (default: the
    /// ALIAS_MEMORY_LIMIT environment variable, else 80% of available memory).
    #[arg(long)]
    pub memory: Option<String>,
}

fn lengths(args: &Args) -> Result<(Vec<u64>, String)> {
    if let Some(b) = &args.bits {
        return Ok((parse_lengths(b)?, format!("--bits {b}")));
    }
    if let Some(b) = &args.bytes {
        let bits = parse_lengths(b)?
            .into_iter()
            .map(|v| {
                v.checked_mul(8)
                    .with_context(|| format!("invalid length: {v} bytes is too large"))
            })
            .collect::<Result<Vec<u64>>>()?;
        return Ok((bits, format!("--bytes {b} (x 8 bits)")));
    }
    if args.payload.is_some() || args.payload_hex.is_some() {
        // `compute` takes the data's length plus the field
        return Ok((
            Vec::new(),
            "the given data and the check field computed from them".to_string(),
        ));
    }
    if args.frame.is_some() || args.frame_hex.is_some() {
        return Ok((Vec::new(), "the captured frame's length".to_string()));
    }
    Ok((DEFAULT_BITS.to_vec(), DEFAULT_LENGTHS_NOTE.to_string()))
}

/// What was computed: the check, its identity in JSON, the method and points.
struct Computed {
    name: String,
    width: u32,
    /// Full and Koopman forms, for CRCs.
    forms: Option<(String, String)>,
    method: String,
    points: Vec<CurvePoint>,
    /// The burst channel, for `--burst`.
    channel: Option<GilbertElliott>,
}

fn compute(args: &Args, bers: &[f64], bits: &[u64], budget: MemoryBudget) -> Result<Computed> {
    let data = read_payload(args.payload.as_deref(), args.payload_hex.as_deref())?;
    let frame = read_frame(args.frame.as_deref(), args.frame_hex.as_deref())?;
    let given = match (&data, &frame) {
        (Some(d), _) => Some(compare::Given::Data(d)),
        (None, Some(f)) => Some(compare::Given::Frame(f)),
        (None, None) => None,
    };
    let kind = match (&args.crc, &args.check) {
        (Some(c), _) => CheckSpec::Crc(Box::new(catalogue::resolve(c)?)),
        (None, Some(c)) => c.parse::<CheckSpec>()?,
        (None, None) => bail!("give --crc or --check"),
    };
    let no_lengths = args.bits.is_none() && args.bytes.is_none();
    if let CheckSpec::Crc(crc) = &kind {
        // A CRC's escapes do not depend on the data: given bytes only set the
        // length (the data and the CRC's field, or the verified frame).
        let field = (crc.width() as u64).div_ceil(8);
        let bits = match given {
            Some(compare::Given::Data(d)) if no_lengths => vec![8 * (d.len() as u64 + field)],
            Some(compare::Given::Frame(f)) => {
                compare::verify_frame(&kind, f)?;
                if !no_lengths && bits.iter().any(|&b| b != 8 * f.len() as u64) {
                    bail!(
                        "a captured frame has one length, its own ({} bytes): drop --bits/--bytes",
                        f.len()
                    );
                }
                vec![8 * f.len() as u64]
            }
            _ => bits.to_vec(),
        };
        if let Some(spec) = &args.burst {
            return burst(args, crc, spec, &bits, budget);
        }
        let bers = Ber::list(bers)?;
        let lengths: Vec<Bits> = bits.iter().map(|&n| Bits(n)).collect();
        let req = curve::Request::for_crc(crc, &lengths, &bers)?;
        crate::output::long_run(
            curve::estimated_seconds(&req, args.method.into(), budget),
            "this curve",
        )?;
        let bar = Bar::stderr();
        let res = curve::exact_with(&req, args.method.into(), budget, &bar)?;
        bar.finish();
        let g = res.generator;
        return Ok(Computed {
            name: res.name,
            width: g.width(),
            forms: Some((g.full_string(), g.koopman_string())),
            method: res.method.name().into(),
            points: res.points,
            channel: None,
        });
    }
    if args.method != MethodArg::Auto {
        bail!(
            "--method applies to CRCs; {} has its own exact method",
            kind.name()
        );
    }
    let bytes: Vec<u64> = if given.is_some() && no_lengths {
        Vec::new() // the data and the field, or the frame
    } else {
        bits.iter()
            .map(|&b| {
                if b % 8 == 0 {
                    Ok(b / 8)
                } else {
                    bail!(
                        "invalid length: {b} bits is not a whole number of bytes for {}",
                        kind.name()
                    )
                }
            })
            .collect::<Result<_>>()?
    };
    let bar = Bar::stderr();
    let points = compare::curve_with(&kind, &bytes, bers, given, &bar)?;
    bar.finish();
    Ok(Computed {
        name: kind.name(),
        width: kind.check_bits(),
        forms: None,
        method: match given {
            Some(compare::Given::Data(_)) => "exact, given data, field computed from them",
            Some(compare::Given::Frame(_)) => "exact, given frame, field verified",
            None => "exact, random data",
        }
        .into(),
        points,
        channel: None,
    })
}

/// `--burst`: the exact Gilbert-Elliott product chain ([`gilbert`]).
fn burst(
    args: &Args,
    crc: &CrcAlgorithm,
    spec: &str,
    bits: &[u64],
    budget: MemoryBudget,
) -> Result<Computed> {
    let ge: GilbertElliott = spec.parse()?;
    let g = crc.generator();
    if args.method == MethodArg::Dual {
        bail!(
            "--method dual does not take --burst: the exact burst-channel method is the \
             Markov product chain (--method markov or auto)"
        );
    }
    if g.width() > gilbert::MAX_WIDTH {
        bail!(
            "--burst: exact burst-channel curves take CRCs up to {} bits and {} has {}; \
             estimate it with `alias simulate --stack {} --burst {spec}`",
            gilbert::MAX_WIDTH,
            crc.name(),
            g.width(),
            args.crc.as_deref().unwrap_or("CRC")
        );
    }
    curve::validate(g.width(), bits, &[ge.mean_ber()])?;
    let bar = Bar::stderr();
    let points = gilbert::curve_with(&g, bits, &ge, budget, &bar)?;
    bar.finish();
    Ok(Computed {
        name: crc.name().to_string(),
        width: g.width(),
        forms: Some((g.full_string(), g.koopman_string())),
        method: curve::Method::Markov.name().into(),
        points,
        channel: Some(ge),
    })
}

/// Runs `alias curve`.
pub fn run(args: Args) -> Result<()> {
    output::distinct(&[
        ("--output", args.output.as_ref()),
        ("--plot", args.plot.as_ref().map(PlotPath::out)),
    ])?;
    let bers = parse_bers(&args.ber)?;
    let (bits, lengths_note) = lengths(&args)?;
    if let Some(c) = &args.crc {
        let crc = catalogue::resolve(c)?;
        if crc.generator().width() > aliasing_core::dual::MAX_WIDTH
            && args.method == MethodArg::Auto
        {
            return super::bracket::run(
                &crc,
                &bits,
                &bers,
                &lengths_note,
                args.format,
                args.output.as_deref(),
            );
        }
    }
    let budget = match &args.memory {
        Some(m) => MemoryBudget::parse(m).with_context(|| {
            format!("--memory `{m}` is not a byte count (e.g. 8G, 512M, 1000000)")
        })?,
        None => MemoryBudget::from_env()?,
    };
    let mut res = compute(&args, &bers, &bits, budget)?;
    // One frame, one meaning: a CRC whose width is not whole bytes is a
    // codeword of exactly the length asked, its check bits packed after the
    // data; the simulator stores the same CRC in whole bytes.
    let frame_note = (res.forms.is_some() && res.width % 8 != 0).then(|| {
        let w = res.width;
        let pad = 8 * w.div_ceil(8) - w;
        format!(
            "frame: each length is one codeword, its {w} check bits right after the data (no \
             padding); `alias simulate` stores this CRC in {} bytes with {pad} pad bits that \
             an error must leave alone, so its frame of L bytes has (1-p)^{pad} x P(undetected) \
             at 8L-{pad} bits",
            w.div_ceil(8)
        )
    });
    if let Some(n) = &frame_note {
        res.method = format!("{}; {n}", res.method);
    }
    let ratio = |pt: &CurvePoint| pt.p_alias_given_error * 2f64.powi(res.width as i32);
    // The JSON document is built only where it is used (60,000 points take
    // a noticeable share of a width-16 run otherwise).
    let doc = || {
        let (full, koopman) = match &res.forms {
            Some((f, k)) => (Some(f.clone()), Some(k.clone())),
            None => (None, None),
        };
        let check = document::CheckInfo {
            name: res.name.clone(),
            width: res.width,
            full,
            koopman,
        };
        let channel = res.channel.as_ref().map(document::ChannelInfo::from);
        document::Curve::new(check, res.method.clone(), res.points.clone(), channel)
    };
    if args.plot.is_some() {
        plot(args.plot.as_deref(), &doc())?;
    }
    let text = match args.format {
        Format::Json => document::to_json_sorted(&doc())?,
        Format::Csv | Format::Table => {
            let ratio_head = format!("P(alias|error)/2^-{}", res.width);
            let mut rows = vec![vec![
                "ber".to_string(),
                "bits".into(),
                "data_bits".into(),
                "P(error)".into(),
                "P(undetected)".into(),
                "P(alias|error)".into(),
                ratio_head,
            ]];
            // Shortest round-trip formatting of 60,000 points is a visible
            // share of a width-16 run: rows are formatted in parallel.
            let num = |x: f64| {
                if args.format == Format::Csv {
                    format!("{x:e}")
                } else {
                    output::prob(x)
                }
            };
            rows.par_extend(res.points.par_iter().map(|pt| {
                vec![
                    format!("{:e}", pt.ber),
                    pt.bits.to_string(),
                    pt.data_bits.to_string(),
                    num(pt.p_error),
                    num(pt.p_undetected),
                    num(pt.p_alias_given_error),
                    num(ratio(pt)),
                ]
            }));
            if args.format == Format::Csv {
                output::csv(&rows)
            } else {
                let head = match &res.forms {
                    Some((f, k)) => format!(
                        "CRC: {} (width {}, full {f}, Koopman {k})",
                        res.name, res.width
                    ),
                    None => format!("check: {} ({} check bits)", res.name, res.width),
                };
                let head = match &res.channel {
                    Some(ge) => format!(
                        "{head}\nchannel: Gilbert-Elliott bursts, good-state BER {:e}, \
                         bad-state BER {:e}, P(good->bad) {:e}, P(bad->good) {:e} per bit \
                         (bad {:.4e} of the time, mean BER {:.4e}; first bit stationary); \
                         ber column = mean BER, P(error) exact for this channel",
                        ge.p_good,
                        ge.p_bad,
                        ge.good_to_bad,
                        ge.bad_to_good,
                        ge.bad_fraction(),
                        ge.mean_ber()
                    ),
                    None => head,
                };
                let lengths_note = match &frame_note {
                    Some(_) => format!("{lengths_note}\n{}", frame_note.as_deref().unwrap_or("")),
                    None => lengths_note.clone(),
                };
                let method = res.method.split("; frame:").next().unwrap_or(&res.method);
                format!(
                    "{head}\n\
                     method: {method} (exact)\n\
                     lengths: codeword bits, check bits included; {}\n\
                     P(alias|error) = P(undetected) / P(error); \
                     2^-{} is an ideal {}-bit check on random data\n\n{}",
                    lengths_note,
                    res.width,
                    res.width,
                    output::table(&rows)
                )
            }
        }
    };
    output::emit(args.output.as_deref(), &text)
}
