//! `alias hd`: the Hamming-distance profile of a CRC in Koopman's notation.

use crate::output::{self, Format};
use crate::output::{OutPath, PlotPath};
use aliasing_core::crc::CrcAlgorithm;
use aliasing_core::ctx::Job;
use aliasing_core::document::{self, Hd};
use aliasing_core::job::HdJob;
use aliasing_core::{catalogue, lowweight};
use anyhow::Result;

/// Arguments of `alias hd`.
#[derive(clap::Args)]
pub struct Args {
    /// CRC: catalogue name (crc32, CRC-32/ISCSI, ...), bare width, or polynomial. [required]
    #[arg(long)]
    pub crc: String,
    /// Highest Hamming distance to report (default: the weight of the
    /// generator, the HD at one data bit).
    #[arg(long, value_parser = crate::lengths::count::<u32>, allow_negative_numbers = true)]
    pub max_hd: Option<u32>,
    /// Search the profile only up to this codeword length in bits (check
    /// bits included): HDs that end beyond it are reported as holding up to
    /// it.
    #[arg(long, value_parser = crate::lengths::count::<u64>, allow_negative_numbers = true)]
    pub max_bits: Option<u64>,
    /// Hash probes the meet-in-the-middle searches may spend in all (about
    /// 1e8 a second on one core). Where they run out, the output says which
    /// HDs were settled and up to which length the next one was searched.
    #[arg(long, default_value_t = lowweight::DEFAULT_BUDGET)]
    pub budget: f64,
    /// Output format.
    #[arg(long, value_enum, default_value_t = Format::Table)]
    pub format: Format,
    /// Write to this file (atomically) instead of stdout.
    #[arg(long, short, value_parser = OutPath::parse)]
    pub output: Option<OutPath>,
    /// Also draw the HD profile (longest data length against HD, log
    /// scale) to FILE.svg or FILE.png.
    #[arg(long, value_parser = PlotPath::parse)]
    pub plot: Option<PlotPath>,
}

fn positions(v: &[u64]) -> String {
    v.iter().map(u64::to_string).collect::<Vec<_>>().join(" ")
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
    output::distinct(&[
        ("--output", args.output.as_ref()),
        ("--plot", args.plot.as_ref().map(PlotPath::out)),
    ])?;
    let job = job(&args)?;
    let bar = crate::progress::Bar::stderr();
    let doc = job.run(&crate::args::context(None)?.with_progress(&bar))?;
    if let Some(p) = &args.plot {
        let rows: Vec<(u32, u64)> = doc
            .examples
            .iter()
            .map(|e| (e.hd, e.max_data_bits))
            .collect();
        let name = format!("{} {}", doc.crc.name, job.crc().generator().full_string());
        let fig = aliasing_plot::structure::hd_figure(&name, &rows)?;
        aliasing_plot::plot_figure(&fig, p, aliasing_plot::figure::SIZE)?;
    }
    let text = match args.format {
        Format::Json => document::to_json_sorted(&doc)?,
        Format::Csv => output::csv(&profile_rows(&doc)),
        Format::Table => table(&doc, job.crc()),
    };
    output::emit(args.output.as_deref(), &text)
}

/// The profile's rows, header first.
fn profile_rows(doc: &Hd) -> Vec<Vec<String>> {
    let head = [
        "hd",
        "max_data_bits",
        "pattern_bits",
        "pattern_weight",
        "pattern_positions",
    ];
    let mut rows = vec![head.map(String::from).to_vec()];
    for e in &doc.examples {
        rows.push(vec![
            e.hd.to_string(),
            e.max_data_bits.to_string(),
            e.pattern_bits.to_string(),
            e.pattern_weight.to_string(),
            positions(&e.positions),
        ]);
    }
    rows
}

/// The comment lines on a bounded or stopped search, and the tail of the
/// profile line for a stopped one.
fn bounds(doc: &Hd) -> (String, String) {
    let r = u64::from(doc.crc.width);
    let mut text = match (doc.searched_to_bits, doc.hd_at_least) {
        (Some(n), Some(Some(h))) => format!(
            "# searched up to {n} bits ({} data bits): HD >= {h} at every length up to there; \
             the profile below lists the HDs that end earlier\n",
            n - r
        ),
        (Some(n), _) => format!("# searched up to {n} bits ({} data bits)\n", n - r),
        _ => String::new(),
    };
    let Some(st) = &doc.stopped else {
        return (text, String::new());
    };
    let settled = match doc.examples.first().zip(doc.examples.last()) {
        Some((a, b)) if a.hd == b.hd => format!("HD {} settled", a.hd),
        Some((a, b)) => format!("HD {} to {} settled", a.hd, b.hd),
        None => "no HD settled".into(),
    };
    let data = st.clear_to_bits.saturating_sub(r);
    text.push_str(&format!(
        "# incomplete: {settled}; the search for HD {} stopped ({}; --budget {:e} hash probes): \
         HD >= {} at every length up to {} bits ({data} data bits); higher HDs not searched\n",
        st.searched_hd, st.reason, st.budget, st.hd_at_least, st.clear_to_bits
    ));
    let tail = format!(
        ", then HD >= {} up to {data} (searched no further)",
        st.hd_at_least
    );
    (text, tail)
}

/// The burst rows, header first.
fn burst_rows(doc: &Hd) -> Vec<Vec<String>> {
    let head = ["burst_length", "undetected_fraction", "enumerated"];
    let mut rows = vec![head.map(String::from).to_vec()];
    for row in &doc.bursts {
        rows.push(vec![
            match row.max_length {
                Some(hi) if hi == row.min_length => hi.to_string(),
                Some(hi) => format!("{}-{hi}", row.min_length),
                None => format!("{}+", row.min_length),
            },
            if row.undetected_fraction == 0.0 {
                "0".into()
            } else {
                format!("2^{}", row.undetected_fraction.log2())
            },
            match row.enumerated_to {
                Some(b) if Some(b) == row.max_length => "all patterns".into(),
                Some(b) => format!("lengths to {b}; theorem beyond"),
                None => "theorem (too many patterns)".into(),
            },
        ]);
    }
    rows
}

/// The table form.
fn table(doc: &Hd, crc: &CrcAlgorithm) -> String {
    let g = crc.generator();
    let (bound_text, profile_tail) = bounds(doc);
    let koopman: Vec<String> = doc.profile.iter().map(u64::to_string).collect();
    format!(
        "# {} {} (Koopman {})\n{bound_text}# HD profile, data bits: {{{}}}{profile_tail}\n# pattern: an undetectable error at the first length where the HD drops (bit positions x^i)\n{}\n\
         # bursts (first and last bit in error, any pattern between), at any position: \
         share undetected; counted pattern by pattern at start 0 up to {} patterns per length, \
         every count equal to the theorem (g(0) = 1)\n{}",
        crc.name(),
        g.full_string(),
        g.koopman_string(),
        koopman.join(","),
        output::table(&profile_rows(doc)),
        HdJob::BURST_PATTERNS,
        output::table(&burst_rows(doc))
    )
}
