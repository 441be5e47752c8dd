//! `alias stack`: the exact joint escape of a stack of checks (one CRC plus
//! Internet checksums, e.g. Ethernet FCS + IPv4 + TCP) on a binary symmetric
//! channel, beside each check on its own and the independence product.
//! Thin glue over `aliasing_core::joint` and the layouts of
//! `aliasing_core::layout`.

use crate::args::parse_bers;
use crate::args::parse_shard;
use crate::lengths::parse_lengths;
use crate::output::{self, Format};
use crate::output::{OutPath, PlotPath};
use crate::progress::Bar;
use aliasing_core::bsc;
use aliasing_core::document::{self, JointEstimate, StackCheck, StackPoint, StackTerm};
use aliasing_core::joint::{self, JointOptions, JointStack};
use aliasing_core::layout::Frame;
use aliasing_core::shard::Shard;
use aliasing_sim::joint::{Items, STACK_FORMAT, StackFile, StackParams, StackWork};
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
    // every layout and plan first, so a bad length stops before any long work
    let work = StackWork::new(&params)?;
    let bar = Bar::stderr();
    let opts = Drive {
        progress: &bar,
        ..Drive::default()
    };
    let run_items = |items: &[u64]| {
        aliasing_core::progress::Progress::stage(&bar, "work items", items.len() as u64);
        let start = shard::Checkpoint::start(work.empty_tally());
        shard::drive(items.len() as u64, Shard::WHOLE, start, &opts, |j| {
            work.run(items[j as usize])
        })
    };
    let stacks = if shard.is_some() || a.out.is_some() {
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
        keep_samples_where_wide(work.stacks_with(&tally, &bar)?, &params.bers)?
    } else {
        // the enumeration, then draws only for the lengths that need them
        let tally = run_items(&work.select(Items::Enumeration, &[]))?;
        let mut stacks = work.stacks_with(&tally, &bar)?;
        let mut want = Vec::new();
        for st in &stacks {
            want.push(wide(st, &params.bers)?);
        }
        let draws = work.select(Items::Samples, &want);
        if !draws.is_empty() {
            let t = run_items(&draws)?;
            for (k, st) in stacks.iter_mut().enumerate() {
                if want[k] {
                    st.set_sample(&t.0[k].sample, params.samples)?;
                }
            }
        }
        stacks
    };
    bar.finish();
    let doc = stack_document(&params, &work.frames, &stacks)?;
    emit(&doc, a.format, a.output.as_deref(), a.plot.as_deref())
}

/// `true` when the certified bracket from the exact terms alone is wider
/// than 0.1% at some BER: the sampled next weight is then reported.
fn wide(st: &JointStack, bers: &[f64]) -> Result<bool> {
    let mut exact = st.clone();
    exact.sampled = None;
    for &p in bers {
        let jp = exact.at(p)?;
        if jp.high > jp.low * 1.001 {
            return Ok(true);
        }
    }
    Ok(false)
}

/// Drops the sampled weight where the exact bracket is narrow (as a single
/// run that never draws there).
fn keep_samples_where_wide(mut stacks: Vec<JointStack>, bers: &[f64]) -> Result<Vec<JointStack>> {
    for st in &mut stacks {
        if !wide(st, bers)? {
            st.sampled = None;
        }
    }
    Ok(stacks)
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
    let stacks = work.stacks_with(&tally, &bar);
    bar.finish();
    let stacks = keep_samples_where_wide(stacks?, &params.bers)?;
    let doc = stack_document(&params, &work.frames, &stacks)?;
    emit(&doc, format, output, plot)
}

/// The document of a run: one point per (length, BER).
fn stack_document(
    params: &StackParams,
    frames: &[Frame],
    stacks: &[JointStack],
) -> Result<document::Stack> {
    let opts = params.options();
    let mut points = Vec::new();
    for (f, st) in frames.iter().zip(stacks) {
        for &p in &params.bers {
            points.push(point(f, st, p, &opts)?);
        }
    }
    Ok(document::Stack::new(&params.stack, points))
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
                 # (or the 95% interval when a weight is sampled); product: the checks' P(alias | error) multiplied\n",
            );
            s.push_str(&output::table(&rows(doc, false)));
            s
        }
    };
    output::emit(output, &text)
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
