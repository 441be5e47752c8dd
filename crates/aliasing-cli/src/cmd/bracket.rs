//! `alias curve` for CRCs wider than 32 bits: the certified bracket on
//! `P_ud` from the enumerated low weights (`aliasing_core::bracket`), with
//! the minimum distance at each length.

use crate::output::{self, Format};
use aliasing_core::crc::CrcAlgorithm;
use aliasing_core::poly::Generator;
use aliasing_core::{bracket, document};
use anyhow::Result;
use std::path::Path;

/// Prints the bracket at every (length, BER) for `crc`.
pub fn run(
    crc: &CrcAlgorithm,
    bits: &[u64],
    bers: &[f64],
    lengths_note: &str,
    format: Format,
    out: Option<&Path>,
) -> Result<()> {
    let g = crc.generator();
    let bar = crate::progress::Bar::stderr();
    let b = bracket::brackets_with(&g, bits, bers, None, &bar)?;
    bar.finish();
    let text = match format {
        Format::Json => {
            let pts = b
                .iter()
                .map(|x| document::BracketPoint::new(x, hd(x, &g)))
                .collect();
            document::to_json_sorted(&document::BracketDoc::new(crc.into(), pts))?
        }
        Format::Csv => output::csv(&rows(&b, &g)),
        Format::Table => format!(
            "CRC: {} (width {}, full {}, Koopman {})\nmethod: {METHOD}\nlengths: codeword bits, check bits included; {lengths_note}\nthe exact methods need 2^{} dual codewords; see `aliasing_core::bracket` for the bound and its proof\n\n{}",
            crc.name(),
            g.width(),
            g.full_string(),
            g.koopman_string(),
            g.width(),
            output::table(&rows(&b, &g))
        ),
    };
    output::emit(out, &text)
}

/// The method's sentence in the table's header.
const METHOD: &str = "bracket (certified bounds: enumerated low weights + proven tail bound)";

/// The minimum distance: the lightest non-zero count, else above W.
fn hd(x: &bracket::Bracket, g: &Generator) -> String {
    match x.counts.iter().skip(1).position(|&a| a > 0) {
        Some(i) => (i as u64 + 1).to_string(),
        None => format!(
            ">={}",
            x.counts.len() + usize::from(g.divisible_by_x_plus_1() && x.counts.len() % 2 == 1)
        ),
    }
}

/// The table's rows, the header first.
fn rows(b: &[bracket::Bracket], g: &Generator) -> Vec<Vec<String>> {
    let head = [
        "ber",
        "bits",
        "hd",
        "A_w (w=0..W)",
        "P_ud_lower",
        "P_ud_upper",
        "rel_width",
    ];
    let mut rows = vec![head.map(String::from).to_vec()];
    for x in b {
        let counts: Vec<String> = x.counts.iter().map(|c| c.to_string()).collect();
        rows.push(vec![
            format!("{:e}", x.ber),
            x.bits.to_string(),
            hd(x, g),
            counts.join(" "),
            output::prob(x.lower),
            output::prob(x.upper),
            format!("{:.3e}", x.relative_width()),
        ]);
    }
    rows
}
