//! `alias stack`: the exact joint escape of a stack of checks (one CRC plus
//! Internet checksums, e.g. Ethernet FCS + IPv4 + TCP) on a binary symmetric
//! channel, beside each check on its own and the independence product.
//! Thin glue over `aliasing_core::joint` and the layouts of
//! `aliasing_core::layout`.

use crate::args::parse_bers;
use crate::lengths::parse_lengths;
use crate::output::{self, Format};
use crate::progress::Bar;
use aliasing_core::bsc;
use aliasing_core::document::{self, JointEstimate, StackCheck, StackPoint, StackTerm};
use aliasing_core::joint::{self, JointModel, JointOptions, JointStack};
use aliasing_core::layout::{Frame, Payload};
use aliasing_core::progress::Progress;
use anyhow::{Context, Result, bail};
use std::path::{Path, PathBuf};

/// Arguments of `alias stack`.
#[derive(clap::Args)]
pub struct Args {
    /// The stack (frame layout): `ethernet-tcp`, or another layout with one
    /// CRC over the whole frame and Internet checksums.
    #[arg(long, default_value = "ethernet-tcp")]
    stack: String,
    /// Frame lengths in bytes, FCS included: `64,594,1518,9018`, `64:1518:64`
    /// or `log:64:9018:8`.
    #[arg(long, required = true)]
    bytes: String,
    /// Bit error rates, comma separated (at most 0.5).
    #[arg(long, required = true)]
    ber: String,
    /// Highest CRC codeword weight enumerated exactly (2 to 5; weight 5 is
    /// listed up to about 7,900 bytes, above that the highest is 3 or 4).
    #[arg(long, default_value_t = 5)]
    max_weight: u32,
    /// Random subsets drawn to estimate the next weight where the certified
    /// bracket is wider than 0.1% at some BER (0: exact terms and the
    /// bracket only).
    #[arg(long, default_value_t = 50_000)]
    samples: u64,
    /// Seed of those draws.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Output format.
    #[arg(long, value_enum, default_value_t = Format::Table)]
    format: Format,
    /// Write to this file (atomically) instead of standard output.
    #[arg(long, short)]
    output: Option<PathBuf>,
    /// Also draw joint P(escape | error) and the independence product against
    /// BER to FILE.svg or FILE.png.
    #[arg(long)]
    plot: Option<PathBuf>,
}

/// Runs `alias stack`.
pub fn run(a: Args) -> Result<()> {
    let bers = parse_bers(&a.ber)?;
    if let Some(&p) = bers.iter().find(|&&p| p > 0.5) {
        bail!("bit error rate {p} is over 0.5, the limit of the dual-code bracket");
    }
    let bytes = parse_lengths(&a.bytes)?;
    if !(2..=5).contains(&a.max_weight) {
        bail!("--max-weight must be 2 to 5, not {}", a.max_weight);
    }
    if let Some(p) = &a.plot {
        aliasing_plot::Format::from_path(p)?;
    }
    // every layout first, so a bad length stops before any long work
    let mut frames = Vec::new();
    for &b in &bytes {
        let f = Frame::new(&a.stack, b as usize, Payload::Random)?;
        JointModel::new(&f)?;
        frames.push(f);
    }
    let opts = JointOptions {
        max_weight: a.max_weight,
        samples: a.samples,
        seed: a.seed,
    };
    let bar = Bar::stderr();
    let mut points = Vec::new();
    for f in &frames {
        bar.set_prefix(&format!("{} bytes", f.bytes));
        let exact_only = JointOptions { samples: 0, ..opts };
        let mut st = JointStack::new_with(f, &exact_only, &bar)
            .with_context(|| format!("{} bytes", f.bytes))?;
        let mut wide = false;
        for &p in &bers {
            let jp = st.at(p)?;
            wide |= jp.high > jp.low * 1.001;
        }
        if wide {
            bar.stage(&format!("sampling weight {}", st.max_weight + 1), 1);
            st.sample_next(opts.samples, opts.seed)?;
            bar.advance(1);
        }
        for &p in &bers {
            points.push(point(f, &st, p, &opts)?);
        }
    }
    bar.finish();
    let doc = document::Stack::new(a.stack.trim(), points);
    if let Some(path) = &a.plot {
        plot(&doc, path)?;
    }
    let text = match a.format {
        Format::Json => document::to_json_sorted(&doc)?,
        Format::Csv => output::csv(&rows(&doc, true)),
        Format::Table => {
            let mut s = String::from(
                "# P(escape | error): a frame with at least one bit error passes every check\n\
                 # joint: exact low-weight CRC codewords through the checksums; [low, high] certified\n\
                 # (or the 95% interval when a weight is sampled); product: the checks' P(alias | error) multiplied\n",
            );
            s.push_str(&output::table(&rows(&doc, false)));
            s
        }
    };
    output::emit(a.output.as_deref(), &text)
}

/// One (length, BER) point of the document.
fn point(f: &Frame, st: &JointStack, p: f64, opts: &JointOptions) -> Result<StackPoint> {
    let n = f.n_bits();
    let pe = bsc::p_error(n, p);
    let jp = st.at(p)?;
    let mut checks = Vec::new();
    let mut product = 1.0;
    for i in 0..f.checks.len() {
        // a check whose exact value cannot be certified here shows null (and
        // so does the product), with the reason in its `note`
        match joint::check_p_undetected(f, i, Some(&st.dual), p) {
            Ok((bits, pud)) => {
                let pa = pud / bsc::p_error(bits, p);
                product *= pa;
                checks.push(StackCheck::exact(&f.checks[i].name, bits, pud, pa));
            }
            Err(e) => {
                product = f64::NAN;
                checks.push(StackCheck::missing(&f.checks[i].name, e.to_string()));
            }
        }
    }
    let mut terms: Vec<StackTerm> = st.terms.iter().map(|t| StackTerm::new(t, n, p)).collect();
    let exact_ws: Vec<String> = st.terms.iter().map(|t| t.weight.to_string()).collect();
    let mut method = format!(
        "exact weights {} of {}, remainder bounded by the CRC's P_ud (dual code)",
        exact_ws.join(","),
        st.max_weight
    );
    let (low, high) = if let Some(s) = &st.sampled {
        terms.push(StackTerm::new(s, n, p));
        method = format!(
            "{method}; weight {} estimated from {} draws (seed {}), 95% interval; certified [{:e}, {:e}]",
            s.weight, opts.samples, opts.seed, jp.low, jp.high
        );
        jp.interval
    } else {
        (jp.low, jp.high)
    };
    let joint = JointEstimate::new(jp.estimate, low, high, method);
    let product = (!product.is_nan()).then_some(product);
    Ok(StackPoint::new(
        f.bytes as u64,
        n,
        p,
        pe,
        joint,
        product,
        checks,
        terms,
    ))
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
    let or_nan = |x: Option<f64>| x.unwrap_or(f64::NAN);
    for pt in &doc.points {
        let j = &pt.joint;
        rows.push(vec![
            pt.bytes.to_string(),
            fmt(pt.ber),
            fmt(pt.p_error),
            fmt(j.estimate),
            fmt(j.low),
            fmt(j.high),
            fmt(pt.joint_given_error()),
            fmt(or_nan(pt.independence_product)),
            fmt(or_nan(pt.ratio)),
        ]);
    }
    rows
}

/// Joint P(escape | error) (with its interval) and the independence product
/// against BER, one pair of series per frame length.
fn plot(doc: &document::Stack, path: &Path) -> Result<()> {
    use aliasing_plot::figure::{Interval, Series, Shape, XAxis, colour};
    let mut lengths: Vec<u64> = doc.points.iter().map(|p| p.bytes).collect();
    lengths.dedup();
    let mut series = Vec::new();
    for (k, &b) in lengths.iter().enumerate() {
        let at: Vec<&StackPoint> = doc.points.iter().filter(|p| p.bytes == b).collect();
        let joint: Vec<Interval> = at
            .iter()
            .map(|p| Interval {
                x: p.ber,
                y: Some(p.joint.estimate / p.p_error),
                low: p.joint.low / p.p_error,
                high: p.joint.high / p.p_error,
            })
            .collect();
        let line: Vec<(f64, f64)> = joint.iter().filter_map(|i| i.y.map(|y| (i.x, y))).collect();
        let product: Vec<(f64, f64)> = at
            .iter()
            .map(|p| (p.ber, p.independence_product.unwrap_or(f64::NAN)))
            .collect();
        series.push(Series {
            label: format!("{b} bytes: joint (exact)"),
            colour: colour(k),
            shape: Shape::Line(line),
        });
        series.push(Series {
            label: format!("{b} bytes: joint interval"),
            colour: colour(k),
            shape: Shape::Estimates(joint),
        });
        series.push(Series {
            label: format!("{b} bytes: independence product"),
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
