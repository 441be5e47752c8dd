//! `alias stack`: the exact joint escape of a stack of checks (one CRC plus
//! Internet checksums, e.g. Ethernet FCS + IPv4 + TCP) on a binary symmetric
//! channel, beside each check on its own and the study's independence
//! product. Rendering of `aliasing_sim::joint::report`, the one library
//! call that computes it.

use crate::args::parse_bers;
use crate::args::parse_shard;
use crate::lengths::parse_lengths;
use crate::output::{self, Format};
use crate::output::{OutPath, PlotPath};
use crate::progress::Bar;
use aliasing_core::document::{self, StackPoint};
use aliasing_core::shard::Shard;
use aliasing_sim::joint::{self, STACK_FORMAT, StackFile, StackParams, StackWork};
use aliasing_sim::shard::{self, Drive};
use anyhow::{Context, Result, bail};
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
    #[arg(long, default_value_t = 5, value_parser = crate::lengths::count::<u32>, allow_negative_numbers = true)]
    max_weight: u32,
    /// Random subsets drawn to estimate the next weight where the certified
    /// bracket is wider than 0.1% at some BER (0: exact terms and the
    /// bracket only). As in `alias simulate --rare --samples`, the number
    /// of random draws behind the estimate (`5e4` form accepted).
    #[arg(long, default_value_t = 50_000, value_parser = crate::lengths::count::<u64>, allow_negative_numbers = true)]
    samples: u64,
    /// Seed of those draws.
    #[arg(long, default_value_t = 1, value_parser = crate::lengths::count::<u64>, allow_negative_numbers = true)]
    seed: u64,
    /// Run only shard I of N (1-based) of the enumeration and the draws;
    /// needs --out. Combine the shard files with `alias merge` or
    /// `alias stack --merge`.
    #[arg(long, conflicts_with = "merge")]
    shard: Option<String>,
    /// Write the result file (parameters and exact integer tallies) here.
    #[arg(long, conflicts_with = "merge", value_parser = OutPath::parse)]
    out: Option<OutPath>,
    /// Report from these shard files instead of computing (every shard of
    /// one run, once each).
    #[arg(long, num_args = 1.., value_name = "FILES")]
    merge: Option<Vec<PathBuf>>,
    /// Output format.
    #[arg(long, value_enum, default_value_t = Format::Table)]
    format: Format,
    /// Write to this file (atomically) instead of standard output.
    #[arg(long, short, value_parser = OutPath::parse)]
    output: Option<OutPath>,
    /// Also draw joint P(escape | error) and the independence product against
    /// BER to FILE.svg or FILE.png.
    #[arg(long, value_parser = PlotPath::parse)]
    plot: Option<PlotPath>,
}

/// Runs `alias stack`.
pub fn run(a: Args) -> Result<()> {
    crate::output::distinct(&[
        ("--output", a.output.as_ref()),
        ("--plot", a.plot.as_ref().map(PlotPath::out)),
        ("--out", a.out.as_ref()),
    ])?;
    if let Some(files) = &a.merge {
        return merge_report(files, a.format, a.output.as_deref(), a.plot.as_deref());
    }
    let bers = parse_bers(a.ber.as_deref().unwrap_or_default())?;
    if let Some(&p) = bers.iter().find(|&&p| p > 0.5) {
        bail!("bit error rate {p} is over 0.5, the limit of the dual-code bracket");
    }
    let bytes = parse_lengths(a.bytes.as_deref().unwrap_or_default())?;
    if !(2..=5).contains(&a.max_weight) {
        bail!("--max-weight must be 2 to 5, not {}", a.max_weight);
    }
    let shard = a.shard.as_deref().map(parse_shard).transpose()?;
    if shard.is_some_and(|s| s.count > 1) && a.out.is_none() {
        bail!("--shard needs --out FILE for its result file");
    }
    let params = StackParams {
        stack: a.stack.trim().to_string(),
        bytes,
        bers,
        max_weight: a.max_weight,
        samples: a.samples,
        seed: a.seed,
    };
    params.validate()?;
    let sharded = shard.is_some() || a.out.is_some();
    // every layout and plan first, so a bad length stops before any long
    // work; then a timed sample of the enumeration says how long it takes
    let work = if sharded || params.bers.iter().any(|&p| p > 0.0) {
        let work = StackWork::new(&params)?;
        let share = shard.map_or(1, |s| s.count) as f64;
        crate::output::long_run(work.estimate_seconds()? / share, "this stack computation")?;
        Some(work)
    } else {
        None
    };
    let bar = Bar::stderr();
    let doc = if sharded {
        let work = work.expect("built above");
        let opts = Drive {
            progress: &bar,
            ..Drive::default()
        };
        // every item of the shard, draws included, into a result file
        let sh = shard.unwrap_or(Shard::WHOLE);
        aliasing_core::progress::Progress::stage(&bar, "work items", work.items());
        let start = shard::Checkpoint::start(work.empty_tally());
        let tally = shard::drive(work.items(), sh, start, &opts, |i| work.run(i))?;
        let out = a.out.as_ref().expect("checked above");
        StackFile::finished(
            STACK_FORMAT,
            params.clone(),
            sh,
            work.items(),
            tally.clone(),
        )
        .write(out)?;
        if sh.count > 1 {
            bar.finish();
            // a shard's tally alone is no result: merge the shards
            return Ok(());
        }
        joint::report_from_tally(&params, &work, &tally, &bar)?
    } else {
        match &work {
            Some(w) => joint::report_with(&params, w, &bar)?,
            None => joint::report(&params, &bar)?,
        }
    };
    bar.finish();
    emit(&doc, a.format, a.output.as_deref(), a.plot.as_deref())
}

/// Reads shard files of one `alias stack` run, adds their tallies and
/// reports as the single run does, bit for bit.
pub fn merge_report(
    files: &[PathBuf],
    format: Format,
    output: Option<&Path>,
    plot: Option<&Path>,
) -> Result<()> {
    let mut read = Vec::new();
    for p in files {
        read.push((p.display().to_string(), StackFile::read(p, STACK_FORMAT)?));
    }
    let (params, tally) = shard::merge(&read)?;
    let work = StackWork::new(&params)?;
    // the dual code of each length (about 19 s of CPU at 1518 bytes for
    // CRC-32) on the bar, as the computing path shows it
    let bar = Bar::stderr();
    let doc = joint::report_from_tally(&params, &work, &tally, &bar);
    bar.finish();
    emit(&doc?, format, output, plot)
}

fn emit(
    doc: &document::Stack,
    format: Format,
    output: Option<&Path>,
    plot_to: Option<&Path>,
) -> Result<()> {
    if let Some(path) = plot_to {
        plot(doc, path)?;
    }
    let text = match format {
        Format::Json => document::to_json_sorted(doc)?,
        Format::Csv => output::csv(&rows(doc, true)),
        Format::Table => {
            let mut s = String::from(
                "# P(escape | error): a frame with at least one bit error passes every check\n\
                 # joint: exact low-weight CRC codewords through the checksums; [low, high] certified\n\
                 # (or the 95% interval when a weight is sampled; exact at BER 0 and 0.5; - : the bracket alone)\n\
                 # product: the study's, the CRC's P(alias | error) x the end-to-end checksum's\n",
            );
            s.push_str(&output::table(&rows(doc, false)));
            s
        }
    };
    output::emit(output, &text)
}

fn rows(doc: &document::Stack, full: bool) -> Vec<Vec<String>> {
    let fmt = |x: f64| {
        if full {
            format!("{x:e}")
        } else {
            output::prob(x)
        }
    };
    let mut rows = vec![
        [
            "bytes",
            "ber",
            "p_error",
            "joint",
            "low",
            "high",
            "joint|error",
            "product",
            "ratio",
        ]
        .iter()
        .map(|s| s.to_string())
        .collect::<Vec<_>>(),
    ];
    let or_dash = |x: Option<f64>| x.map_or_else(|| "-".to_string(), fmt);
    for pt in &doc.points {
        let j = &pt.joint;
        rows.push(vec![
            pt.bytes.to_string(),
            fmt(pt.ber),
            fmt(pt.p_error),
            or_dash(j.estimate),
            fmt(j.low),
            fmt(j.high),
            or_dash(pt.joint_given_error()),
            or_dash(pt.independence_product),
            or_dash(pt.ratio),
        ]);
    }
    rows
}

/// The legend of one length's joint line, by how its points were obtained
/// (the terms behind `joint.method`): exact terms and the certified bracket,
/// or an estimate with a sampled weight.
fn joint_label(at: &[&StackPoint]) -> String {
    let sampled: Vec<u32> = at
        .iter()
        .flat_map(|p| p.terms.iter().filter(|t| !t.exact).map(|t| t.weight))
        .collect();
    match sampled.iter().max() {
        None => "joint (exact terms + bracket)".into(),
        Some(w) => format!("joint (estimate, sampled weight {w})"),
    }
}

/// Joint P(escape | error) (with its interval) and the independence product
/// against BER, one pair of series per frame length.
fn plot(doc: &document::Stack, path: &Path) -> Result<()> {
    use aliasing_plot::figure::{Interval, Series, Shape, XAxis, colour};
    let mut lengths: Vec<u64> = doc.points.iter().map(|p| p.bytes).collect();
    lengths.dedup();
    let mut series = Vec::new();
    for (k, &b) in lengths.iter().enumerate() {
        // BER 0 has no place on a log axis
        let at: Vec<&StackPoint> = doc
            .points
            .iter()
            .filter(|p| p.bytes == b && p.p_error > 0.0)
            .collect();
        let joint: Vec<Interval> = at
            .iter()
            .map(|p| Interval {
                x: p.ber,
                y: p.joint_given_error(),
                low: p.joint.low / p.p_error,
                high: p.joint.high / p.p_error,
            })
            .collect();
        let line: Vec<(f64, f64)> = joint.iter().filter_map(|i| i.y.map(|y| (i.x, y))).collect();
        let product: Vec<(f64, f64)> = at
            .iter()
            .filter_map(|p| p.independence_product.map(|x| (p.ber, x)))
            .collect();
        series.push(Series {
            label: format!("{b} bytes: {}", joint_label(&at)),
            colour: colour(k),
            shape: Shape::Line(line),
        });
        series.push(Series {
            label: format!("{b} bytes: joint interval"),
            colour: colour(k),
            shape: Shape::Estimates(joint),
        });
        series.push(Series {
            label: format!("{b} bytes: independence product (study's)"),
            colour: colour(k),
            shape: Shape::Exact(product),
        });
    }
    let fig = aliasing_plot::Figure {
        title: format!("Joint escape of {} vs the independence product", doc.stack),
        subtitle: Some("P(every check passes | at least one bit error), BSC".into()),
        x_label: "bit error rate".into(),
        y_label: "P(escape | error)".into(),
        x_axis: XAxis::Log,
        series,
    };
    let format = aliasing_plot::Format::from_path(path)?;
    aliasing_plot::write_figure(&fig, path, format, aliasing_plot::figure::SIZE)
        .with_context(|| format!("cannot plot {}", path.display()))
}
