//! `alias curve`: exact P(undetected) and P(alias | error) against frame
//! length for one CRC, at one or more bit error rates.

use crate::lengths::parse_lengths;
use crate::output::{self, Format};
use aliasing_core::{catalogue, curve};
use anyhow::{Context, Result, bail};
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
    /// The best exact method that applies (today: markov).
    Auto,
    /// Markov chain over register states: time O(n 2^r), memory O(2^r).
    Markov,
}

impl From<MethodArg> for curve::Method {
    fn from(m: MethodArg) -> Self {
        match m {
            MethodArg::Auto => curve::Method::Auto,
            MethodArg::Markov => curve::Method::Markov,
        }
    }
}

/// Arguments of `alias curve`.
#[derive(clap::Args)]
pub struct Args {
    /// CRC: RevEng name (CRC-32/ISO-HDLC), alias (crc32, crc16-ccitt), bare
    /// width (16 = default primitive polynomial), or polynomial in full
    /// (0x18005), normal (16:0x8005), Koopman (k:0xC002) or reversed
    /// (r16:0xA001) notation.
    #[arg(long)]
    pub crc: String,
    /// Bit error rates, comma-separated, each in [0, 1].
    #[arg(long, default_value = DEFAULT_BERS, allow_hyphen_values = true)]
    pub ber: String,
    /// Codeword lengths in bits, check bits included: values, START:STOP:STEP
    /// ranges, or log:START:STOP:N. Default: 512..16384 bits and 12144.
    #[arg(long, conflicts_with = "bytes", allow_hyphen_values = true)]
    pub bits: Option<String>,
    /// Codeword lengths in bytes (x 8 bits), check bytes included; same forms
    /// as --bits.
    #[arg(long, allow_hyphen_values = true)]
    pub bytes: Option<String>,
    /// Exact method.
    #[arg(long, value_enum, default_value_t = MethodArg::Auto)]
    pub method: MethodArg,
    /// Output format.
    #[arg(long, value_enum, default_value_t = Format::Table)]
    pub format: Format,
    /// Write to FILE (atomically) instead of stdout.
    #[arg(long, short)]
    pub output: Option<PathBuf>,
}

fn parse_bers(spec: &str) -> Result<Vec<f64>> {
    let mut out = Vec::new();
    for item in spec.split(',').map(str::trim) {
        if item.is_empty() {
            bail!("invalid bit error rate list `{spec}`: empty item");
        }
        let p: f64 = item
            .parse()
            .with_context(|| format!("bit error rate `{item}` is not a number"))?;
        out.push(aliasing_core::bsc::check_ber(p)?);
    }
    Ok(out)
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
    Ok((DEFAULT_BITS.to_vec(), DEFAULT_LENGTHS_NOTE.to_string()))
}

/// Runs `alias curve`.
pub fn run(args: Args) -> Result<()> {
    let crc = catalogue::resolve(&args.crc)?;
    let bers = parse_bers(&args.ber)?;
    let (bits, lengths_note) = lengths(&args)?;
    let res = curve::exact(&crc, &bits, &bers, args.method.into())?;
    let g = &res.generator;
    let text = match args.format {
        Format::Json => {
            let doc = serde_json::json!({
                "crc": {
                    "name": res.name,
                    "width": g.width(),
                    "full": g.full_string(),
                    "koopman": g.koopman_string(),
                },
                "method": res.method.name(),
                "points": res.points,
            });
            serde_json::to_string_pretty(&doc)? + "\n"
        }
        Format::Csv | Format::Table => {
            let ratio_head = format!("P(alias|error)/2^-{}", g.width());
            let mut rows = vec![vec![
                "ber".to_string(),
                "bits".into(),
                "data_bits".into(),
                "P(error)".into(),
                "P(undetected)".into(),
                "P(alias|error)".into(),
                ratio_head,
            ]];
            for pt in &res.points {
                let num = |x: f64| {
                    if args.format == Format::Csv {
                        format!("{x:e}")
                    } else {
                        output::prob(x)
                    }
                };
                rows.push(vec![
                    format!("{:e}", pt.ber),
                    pt.bits.to_string(),
                    pt.data_bits.to_string(),
                    num(pt.p_error),
                    num(pt.p_undetected),
                    num(pt.p_alias_given_error),
                    num(res.ratio_to_ideal(pt)),
                ]);
            }
            if args.format == Format::Csv {
                output::csv(&rows)
            } else {
                format!(
                    "CRC: {} (width {}, full {}, Koopman {})\n\
                     method: {} (exact)\n\
                     lengths: codeword bits, check bits included; {}\n\
                     P(alias|error) = P(undetected) / P(error); \
                     2^-{} is an ideal {}-bit check on random data\n\n{}",
                    res.name,
                    g.width(),
                    g.full_string(),
                    g.koopman_string(),
                    res.method.name(),
                    lengths_note,
                    g.width(),
                    g.width(),
                    output::table(&rows)
                )
            }
        }
    };
    output::emit(args.output.as_deref(), &text)
}
