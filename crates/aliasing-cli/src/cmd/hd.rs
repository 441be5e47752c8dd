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
    let g = crc.generator();
    let r = g.width() as u64;
    if let Some(n) = args.max_bits
        && n <= r
    {
        bail!("--max-bits {n} is not longer than the {r} check bits");
    }
    if !(args.budget.is_finite() && args.budget >= 0.0) {
        bail!(
            "--budget must be a number of hash probes, 0 or more, not {}",
            args.budget
        );
    }
    let bar = crate::progress::Bar::stderr();
    let search = lowweight::hd_profile_within(&g, args.max_hd, args.max_bits, args.budget, &bar)?;
    bar.finish();
    let (prof, open) = (&search.profile, search.open);
    if let Some(p) = &args.plot {
        let rows: Vec<(u32, u64)> = prof
            .entries
            .iter()
            .map(|e| (e.hd, e.max_data_bits))
            .collect();
        let name = format!("{} {}", crc.name(), g.full_string());
        let fig = aliasing_plot::structure::hd_figure(&name, &rows)?;
        aliasing_plot::plot_figure(&fig, p, aliasing_plot::figure::SIZE)?;
    }
    let mut bound_text = match (args.max_bits, open) {
        (Some(n), Some(h)) => format!(
            "# searched up to {n} bits ({} data bits): HD >= {h} at every length up to there; \
             the profile below lists the HDs that end earlier\n",
            n - r
        ),
        (Some(n), None) => format!("# searched up to {n} bits ({} data bits)\n", n - r),
        _ => String::new(),
    };
    let mut profile_tail = String::new();
    if let Some(st) = &search.stopped {
        let settled = match prof.entries.first().zip(prof.entries.last()) {
            Some((a, b)) if a.hd == b.hd => format!("HD {} settled", a.hd),
            Some((a, b)) => format!("HD {} to {} settled", a.hd, b.hd),
            None => "no HD settled".into(),
        };
        let data = st.clear_to_bits.saturating_sub(r);
        bound_text.push_str(&format!(
            "# incomplete: {settled}; the search for HD {} stopped ({}; --budget {:e} hash probes): \
             HD >= {} at every length up to {} bits ({data} data bits); higher HDs not searched\n",
            st.searched_hd, st.reason, st.budget, st.hd_at_least, st.clear_to_bits
        ));
        profile_tail = format!(
            ", then HD >= {} up to {data} (searched no further)",
            st.hd_at_least
        );
    }
    let bursts = burst::profile(&g, BURST_PATTERNS)?;
    let burst_lengths = |row: &burst::BurstRow| match row.max_length {
        Some(hi) if hi == row.min_length => hi.to_string(),
        Some(hi) => format!("{}-{hi}", row.min_length),
        None => format!("{}+", row.min_length),
    };
    let text = match args.format {
        Format::Json => {
            let mut doc = document::Hd::new((&crc).into(), prof, bursts.clone())
                .with_stop(search.stopped.clone());
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
                    (u128::from(e.max_data_bits) + 1 + u128::from(r)).to_string(),
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
                    "# {} {} (Koopman {})\n{bound_text}# HD profile, data bits: {}{profile_tail}\n# pattern: an undetectable error at the first length where the HD drops (bit positions x^i)\n{}\n\
                     # bursts (first and last bit in error, any pattern between), at any position: \
                     share undetected; counted pattern by pattern at start 0 up to {} patterns per length, \
                     every count equal to the theorem (g(0) = 1)\n{}",
                    crc.name(),
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
