//! `alias hd`: the Hamming-distance profile of a CRC in Koopman's notation.

use crate::output::{self, Format};
use crate::output::{OutPath, PlotPath};
use aliasing_core::{burst, catalogue, document, lowweight};
use anyhow::{Result, bail};

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
    /// it. Over 32 bits the profile then stops at HD 6 instead of 4 unless
    /// --max-hd says otherwise.
    #[arg(long, value_parser = crate::lengths::count::<u64>, allow_negative_numbers = true)]
    pub max_bits: Option<u64>,
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

/// Patterns per burst length counted one by one for the burst rows (the
/// rest rests on the theorem, [`burst`]).
const BURST_PATTERNS: u64 = 1 << 22;

fn positions(v: &[u64]) -> String {
    v.iter().map(u64::to_string).collect::<Vec<_>>().join(" ")
}

/// Runs `alias hd`.
pub fn run(args: Args) -> Result<()> {
    output::distinct(&[
        ("--output", args.output.as_ref()),
        ("--plot", args.plot.as_ref().map(PlotPath::out)),
    ])?;
    let crc = catalogue::resolve(&args.crc)?;
    if let Some(h) = args.max_hd
        && h < 3
    {
        bail!("--max-hd must be at least 3, not {h}");
    }
    let g = crc.generator;
    let r = g.width() as u64;
    if let Some(n) = args.max_bits
        && n <= r
    {
        bail!("--max-bits {n} is not longer than the {r} check bits");
    }
    // Over 32 bits stop at HD 4 (the weight-4 search would span the period),
    // or at HD 6 under --max-bits (weight 6 costs about L^3/6 probes at span L).
    let wide_stop = if args.max_bits.is_some() { 6 } else { 4 };
    let max_hd = args.max_hd.or((g.width() > 32).then_some(wide_stop));
    let bar = crate::progress::Bar::stderr();
    let (prof, open) = lowweight::hd_profile_up_to(&g, max_hd, args.max_bits, &bar)?;
    bar.finish();
    if let Some(p) = &args.plot {
        let rows: Vec<(u32, u64)> = prof
            .entries
            .iter()
            .map(|e| (e.hd, e.max_data_bits))
            .collect();
        let name = format!("{} {}", crc.name, g.full_string());
        let fig = aliasing_plot::structure::hd_figure(&name, &rows)?;
        aliasing_plot::plot_figure(&fig, p, aliasing_plot::figure::SIZE)?;
    }
    let bound_text = match (args.max_bits, open) {
        (Some(n), Some(h)) => format!(
            "# searched up to {n} bits ({} data bits): HD >= {h} at every length up to there; \
             the profile below lists the HDs that end earlier\n",
            n - r
        ),
        (Some(n), None) => format!("# searched up to {n} bits ({} data bits)\n", n - r),
        _ => String::new(),
    };
    let bursts = burst::profile(&g, BURST_PATTERNS)?;
    let burst_lengths = |row: &burst::BurstRow| match row.max_length {
        Some(hi) if hi == row.min_length => hi.to_string(),
        Some(hi) => format!("{}-{hi}", row.min_length),
        None => format!("{}+", row.min_length),
    };
    let text = match args.format {
        Format::Json => {
            let mut doc = document::Hd::new((&crc).into(), &prof, bursts.clone());
            if let Some(n) = args.max_bits {
                doc = doc.searched_to(n, open);
            }
            document::to_json_sorted(&doc)?
        }
        Format::Table | Format::Csv => {
            let mut rows = vec![vec![
                "hd".to_string(),
                "max_data_bits".into(),
                "pattern_bits".into(),
                "pattern_weight".into(),
                "pattern_positions".into(),
            ]];
            for e in &prof.entries {
                rows.push(vec![
                    e.hd.to_string(),
                    e.max_data_bits.to_string(),
                    (e.max_data_bits + 1 + r).to_string(),
                    e.example.len().to_string(),
                    positions(&e.example),
                ]);
            }
            if args.format == Format::Csv {
                output::csv(&rows)
            } else {
                let mut brows = vec![vec![
                    "burst_length".to_string(),
                    "undetected_fraction".into(),
                    "enumerated".into(),
                ]];
                for row in &bursts {
                    brows.push(vec![
                        burst_lengths(row),
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
                format!(
                    "# {} {} (Koopman {})\n{bound_text}# HD profile, data bits: {}\n# pattern: an undetectable error at the first length where the HD drops (bit positions x^i)\n{}\n\
                     # bursts (first and last bit in error, any pattern between), at any position: \
                     share undetected; counted pattern by pattern at start 0 up to {} patterns per length, \
                     every count equal to the theorem (g(0) = 1)\n{}",
                    crc.name,
                    g.full_string(),
                    g.koopman_string(),
                    prof.koopman_notation(),
                    output::table(&rows),
                    BURST_PATTERNS,
                    output::table(&brows)
                )
            }
        }
    };
    output::emit(args.output.as_deref(), &text)
}
