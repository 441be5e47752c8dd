//! `alias compare`: several checks side by side at the same frame lengths
//! (bytes, check field included) and BERs. Thin glue over
//! `aliasing_core::compare`.

use crate::args::{parse_bers, plot, read_frame, read_payload};
use crate::lengths::parse_lengths;
use crate::output::{self, Format};
use crate::output::{OutPath, PlotPath};
use aliasing_core::Error as CoreError;
use aliasing_core::bsc::{self, CurvePoint};
use aliasing_core::check::CheckSpec;
use aliasing_core::{compare, document};
use anyhow::{Context, Result, bail};
use std::path::PathBuf;

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
    /// Given data from this file: the bytes a sender puts before the check
    /// field, which is computed from them as in `alias simulate --payload`
    /// (the Internet checksum over the frame's actual bits; CRCs do not
    /// depend on the data).
    #[arg(long, conflicts_with_all = ["payload_hex", "frame", "frame_hex"])]
    payload: Option<PathBuf>,
    /// The data as hex digits (spaces allowed), instead of `--payload`.
    #[arg(long, conflicts_with_all = ["frame", "frame_hex"])]
    payload_hex: Option<String>,
    /// A whole frame from this file as captured from a wire, its check field
    /// in place: verified under every check compared (refused if it does not
    /// verify).
    #[arg(long, conflicts_with = "frame_hex")]
    frame: Option<PathBuf>,
    /// The captured frame as hex digits (spaces allowed), instead of `--frame`.
    #[arg(long)]
    frame_hex: Option<String>,
    /// Output format.
    #[arg(long, value_enum, default_value_t = Format::Table)]
    format: Format,
    /// Write to this file (atomically) instead of standard output.
    #[arg(long, short, value_parser = OutPath::parse)]
    output: Option<OutPath>,
    /// Also draw the comparison to FILE.svg or FILE.png.
    #[arg(long, value_parser = PlotPath::parse)]
    plot: Option<PlotPath>,
}

/// One check's column: its points (BER-major, `None` where no exact value
/// could be given) and why some or all are missing.
struct Column {
    check: CheckSpec,
    points: Vec<Option<CurvePoint>>,
    note: Option<String>,
}

impl Column {
    fn complete(&self) -> bool {
        self.points.iter().all(Option::is_some)
    }
}

/// Runs `alias compare`.
pub fn run(args: Args) -> Result<()> {
    output::distinct(&[
        ("--output", args.output.as_ref()),
        ("--plot", args.plot.as_ref().map(PlotPath::out)),
    ])?;
    let bers = parse_bers(&args.ber)?;
    let data = read_payload(args.payload.as_deref(), args.payload_hex.as_deref())?;
    let frame = read_frame(args.frame.as_deref(), args.frame_hex.as_deref())?;
    let given = match (&data, &frame) {
        (Some(d), _) => Some(compare::Given::Data(d)),
        (None, Some(f)) => Some(compare::Given::Frame(f)),
        (None, None) => None,
    };
    let bytes = match (&args.bytes, given) {
        (Some(s), _) => parse_lengths(s)?,
        (None, Some(compare::Given::Data(d))) => vec![d.len() as u64 + 2],
        (None, Some(compare::Given::Frame(f))) => vec![f.len() as u64],
        (None, None) => bail!("give --bytes (or data with --payload, or a frame with --frame)"),
    };
    let checks: Vec<CheckSpec> = args
        .checks
        .split(',')
        .map(|s| s.parse::<CheckSpec>())
        .collect::<std::result::Result<_, _>>()?;
    if checks.is_empty() {
        bail!("--checks is empty");
    }
    // A captured frame carries one check's field: it must verify under at
    // least one check compared; the others show n/a with the reason.
    let mut unverified: Vec<Option<String>> = vec![None; checks.len()];
    if let Some(f) = &frame {
        for (i, c) in checks.iter().enumerate() {
            if let Err(e) = compare::verify_frame(c, f) {
                unverified[i] = Some(e.to_string());
            }
        }
        if let Some(Some(first)) = unverified
            .iter()
            .find(|_| unverified.iter().all(Option::is_some))
        {
            bail!("{first}");
        }
    }
    // every column's request refused now, before any column is computed; a
    // method's own refusal (no exact method, too big) is an n/a note later
    for (check, unverified) in checks.iter().zip(&unverified) {
        let fit: Vec<u64> = fitting(check, &bytes);
        if unverified.is_some() || fit.is_empty() {
            continue;
        }
        match compare::preflight(check, &fit, &bers, given) {
            Ok(_)
            | Err(CoreError::Unsupported(_) | CoreError::Refused(_) | CoreError::TooBig { .. }) => {
            }
            Err(e) => return Err(e).with_context(|| check.name()),
        }
    }
    // the CRCs' cost models, summed over the columns (a checksum has none)
    let secs: f64 = checks
        .iter()
        .map(|c| compare::estimated_seconds(c, &bytes, &bers))
        .filter(|s| s.is_finite())
        .sum();
    crate::output::long_run(secs, "this comparison")?;
    let mut cols = Vec::new();
    let total = bytes.len() * bers.len();
    let bar = crate::progress::Bar::stderr();
    for (check, unverified) in checks.into_iter().zip(unverified) {
        bar.set_prefix(&check.name());
        if let Some(why) = unverified {
            cols.push(Column {
                check,
                points: vec![None; total],
                note: Some(why),
            });
            continue;
        }
        // lengths too short for this check are n/a in its column only
        let fit = fitting(&check, &bytes);
        let short_note = (fit.len() < bytes.len()).then(|| {
            format!(
                "{} needs frames of at least {} bytes",
                check.name(),
                check.min_bytes()
            )
        });
        let col = match compare::curve_with(&check, &fit, &bers, given, &bar) {
            _ if fit.is_empty() => Column {
                check,
                points: vec![None; total],
                note: short_note,
            },
            Ok(v) => {
                let mut points = vec![None; total];
                for (bi, _) in bers.iter().enumerate() {
                    for (fi, &b) in fit.iter().enumerate() {
                        let li = bytes.iter().position(|&x| x == b).expect("present");
                        points[bi * bytes.len() + li] = Some(v[bi * fit.len() + fi]);
                    }
                }
                Column {
                    check,
                    points,
                    note: short_note,
                }
            }
            Err(
                e @ (CoreError::Unsupported(_) | CoreError::Refused(_) | CoreError::TooBig { .. }),
            ) => {
                let mut note = Some(e.to_string());
                let mut points = vec![None; total];
                let short = short_note;
                // A checksum may be exact at some points and not others (Fletcher-16
                // certifies each point): retry point by point. A CRC's refusal is
                // global, and its points are costly, so it is not retried.
                if matches!(check, CheckSpec::Internet | CheckSpec::Fletcher16) {
                    note = short;
                    for (bi, &p) in bers.iter().enumerate() {
                        for (li, &b) in bytes.iter().enumerate() {
                            if b < check.min_bytes() {
                                continue;
                            }
                            match compare::curve(&check, &[b], &[p], given) {
                                Ok(v) => points[bi * bytes.len() + li] = Some(v[0]),
                                Err(e) => {
                                    note.get_or_insert_with(|| e.to_string());
                                }
                            }
                        }
                    }
                }
                Column {
                    check,
                    points,
                    note,
                }
            }
            Err(e) => return Err(e).with_context(|| check.name()),
        };
        cols.push(col);
    }
    bar.finish();
    let doc = doc_of(&cols, &bytes, given);
    plot(args.plot.as_deref(), &doc)?;
    let text = match args.format {
        Format::Json => document::to_json_sorted(&doc)?,
        Format::Table | Format::Csv => {
            let full = args.format == Format::Csv;
            let fmt = |x: f64| {
                if full {
                    format!("{x:e}")
                } else {
                    output::prob(x)
                }
            };
            let mut rows = vec![{
                let mut h: Vec<String> = ["bytes", "bits", "ber", "p_error"]
                    .iter()
                    .map(|s| s.to_string())
                    .collect();
                h.extend(cols.iter().map(|c| c.check.name()));
                h
            }];
            for (bi, &p) in bers.iter().enumerate() {
                for (li, &b) in bytes.iter().enumerate() {
                    let mut r = vec![
                        b.to_string(),
                        (8 * b).to_string(),
                        fmt(p),
                        fmt(bsc::p_error(8 * b, p)),
                    ];
                    for c in &cols {
                        r.push(match &c.points[bi * bytes.len() + li] {
                            Some(pt) => fmt(pt.p_alias_given_error),
                            None => "n/a".into(),
                        });
                    }
                    rows.push(r);
                }
            }
            if full {
                output::csv(&rows)
            } else {
                let mut s = String::from(
                    "# P(alias | error): probability that a frame with at least one bit error passes the check\n",
                );
                if let Some(g) = given {
                    s.push_str(match g {
                        compare::Given::Data(_) => {
                            "# given data, each frame the data then the check field computed from them; Internet checksum over its actual bits\n"
                        }
                        compare::Given::Frame(_) => {
                            "# given frame as captured, check field verified; Internet checksum over its actual bits\n"
                        }
                    });
                } else {
                    s.push_str(
                        "# random data; lengths are whole frames in bytes, check field included\n",
                    );
                }
                s.push_str(&output::table(&rows));
                for c in &cols {
                    if let Some(why) = &c.note {
                        s.push_str(&format!("# n/a {}: {why}\n", c.check.name()));
                    }
                }
                s
            }
        }
    };
    output::emit(args.output.as_deref(), &text)
}

/// The lengths long enough for `check` (the others are n/a in its column).
fn fitting(check: &CheckSpec, bytes: &[u64]) -> Vec<u64> {
    bytes
        .iter()
        .copied()
        .filter(|&b| b >= check.min_bytes())
        .collect()
}

fn doc_of(cols: &[Column], bytes: &[u64], given: Option<compare::Given<'_>>) -> document::Compare {
    use document::{CompareCheck, ComparePoint};
    let checks = cols
        .iter()
        .map(|c| {
            let mut v = CompareCheck::new(c.check.name(), c.check.check_bits());
            v.exact = Some(c.complete());
            v.note = c.note.clone();
            v
        })
        .collect();
    let mut points = Vec::new();
    for c in cols {
        for (i, pt) in c.points.iter().enumerate() {
            if let Some(pt) = pt {
                points.push(ComparePoint::new(
                    c.check.name(),
                    pt,
                    Some(bytes[i % bytes.len()]),
                ));
            }
        }
    }
    let data = match given {
        Some(compare::Given::Data(_)) => "payload",
        Some(compare::Given::Frame(_)) => "frame",
        None => "random",
    };
    document::Compare::new(Some(data.into()), checks, points)
}
