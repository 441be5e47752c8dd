//! `alias weights`: the weight distribution A_w of a CRC code, and of its dual.

use crate::output::{self, Format};
use aliasing_core::{catalogue, document, weights};
use anyhow::Result;
use std::path::PathBuf;

/// Counting method of `alias weights`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Method {
    /// `syndromes` for weights up to 4 when cheaper, else `dual` if the
    /// width is at most 32 (syndromes up to weight 6 otherwise).
    Auto,
    /// Dual-code weights and the MacWilliams identity.
    Dual,
    /// Meet-in-the-middle on the syndromes x^i mod g (weights up to 6).
    Syndromes,
}

/// Arguments of `alias weights`.
#[derive(clap::Args)]
pub struct Args {
    /// CRC: catalogue name (crc32, CRC-32/ISCSI, ...), bare width, or polynomial.
    #[arg(long)]
    pub crc: String,
    /// Codeword length in bits, check bits included (`1e3` form accepted).
    #[arg(long, value_parser = crate::lengths::parse_count)]
    pub bits: u64,
    /// Highest weight to report (default 8, capped at the length).
    #[arg(long, default_value_t = 8, value_parser = crate::lengths::parse_count)]
    pub max_weight: u64,
    /// How to count: `dual` (2^r dual words + MacWilliams, widths up to 32,
    /// every weight), `syndromes` (meet-in-the-middle, weights up to 6), or
    /// `auto` (syndromes when only weights up to 4 are asked for and that is
    /// less work, else dual when the width allows).
    #[arg(long, value_enum, default_value_t = Method::Auto)]
    pub method: Method,
    /// Also print the dual code's weights B_w (non-zero ones).
    #[arg(long)]
    pub dual: bool,
    /// Output format.
    #[arg(long, value_enum, default_value_t = Format::Table)]
    pub format: Format,
    /// Write to this file (atomically) instead of stdout.
    #[arg(long, short)]
    pub output: Option<PathBuf>,
}

/// Runs `alias weights`.
pub fn run(args: Args) -> Result<()> {
    crate::args::check_outputs(&[args.output.as_deref()])?;
    let crc = catalogue::resolve(&args.crc)?;
    let g = crc.generator;
    let method = match args.method {
        Method::Auto => weights::WeightMethod::Auto,
        Method::Dual => weights::WeightMethod::Dual,
        Method::Syndromes => weights::WeightMethod::Syndromes,
    };
    let weights::WeightDistribution {
        counts: a, dual: b, ..
    } = {
        let bar = crate::progress::Bar::stderr();
        let d =
            weights::distribution_with(&g, args.bits, args.max_weight, method, args.dual, &bar)?;
        bar.finish();
        d
    };
    let dual_list: Vec<(usize, u64)> = match (&b, args.dual) {
        (Some(d), true) => d
            .counts
            .iter()
            .enumerate()
            .filter(|(_, c)| **c > 0)
            .map(|(w, c)| (w, *c))
            .collect(),
        _ => Vec::new(),
    };
    let text = match args.format {
        Format::Json => {
            let ws = a
                .iter()
                .enumerate()
                .map(|(w, c)| document::WeightCount {
                    w,
                    count: c.clone().into(),
                })
                .collect();
            let ds = dual_list
                .iter()
                .map(|&(w, count)| document::DualWeightCount { w, count })
                .collect();
            document::to_json_sorted(&document::Weights::new((&crc).into(), args.bits, ws, ds))?
        }
        Format::Table | Format::Csv => {
            let mut rows = vec![vec!["code".to_string(), "w".into(), "count".into()]];
            for (w, c) in a.iter().enumerate() {
                rows.push(vec!["A".into(), w.to_string(), c.to_string()]);
            }
            for (w, c) in &dual_list {
                rows.push(vec!["B".into(), w.to_string(), c.to_string()]);
            }
            if args.format == Format::Csv {
                output::csv(&rows)
            } else {
                format!(
                    "# {} {} at {} bits ({} data bits); A = code, B = dual code\n{}",
                    crc.name,
                    g.full_string(),
                    args.bits,
                    args.bits.saturating_sub(g.width() as u64),
                    output::table(&rows)
                )
            }
        }
    };
    output::emit(args.output.as_deref(), &text)
}
