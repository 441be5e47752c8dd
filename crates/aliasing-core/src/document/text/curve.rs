//! The text of `curve` and `bracket` documents.

use super::{Format, num, prob, table};
use crate::bracket::Bracket;
use crate::bsc::CurvePoint;
use crate::crc::CrcAlgorithm;
use crate::document::{BracketDoc, BracketPoint, Curve, to_json_sorted};
use rayon::prelude::*;

impl Curve {
    /// The document in `format`; `lengths_note` says in the table's header
    /// where the lengths came from (e.g. `--bits 512,1024`).
    pub fn render(&self, format: Format, lengths_note: &str) -> serde_json::Result<String> {
        Ok(match format {
            Format::Json => to_json_sorted(self)?,
            Format::Csv => super::csv(&self.rows(true)),
            Format::Table => self.table(lengths_note),
        })
    }

    /// The points' rows, header first (numbers in full for CSV).
    fn rows(&self, full: bool) -> Vec<Vec<String>> {
        let width = self.check.width;
        let head = [
            "ber",
            "bits",
            "data_bits",
            "P(error)",
            "P(undetected)",
            "P(alias|error)",
        ];
        let mut rows = vec![head.map(String::from).to_vec()];
        rows[0].push(format!("P(alias|error)/2^-{width}"));
        // Shortest round-trip formatting of 60,000 points is a visible share
        // of a width-16 run: rows are formatted in parallel.
        let num = num(full);
        rows.par_extend(self.points.par_iter().map(|pt: &CurvePoint| {
            vec![
                format!("{:e}", pt.ber),
                pt.bits.to_string(),
                pt.data_bits.to_string(),
                num(pt.p_error),
                num(pt.p_undetected),
                num(pt.p_alias_given_error),
                num(pt.p_alias_given_error * 2f64.powi(width as i32)),
            ]
        }));
        rows
    }

    /// The table form: the check, channel, method and lengths, then the rows.
    fn table(&self, lengths_note: &str) -> String {
        let c = &self.check;
        let head = match (&c.full, &c.koopman) {
            (Some(f), Some(k)) => {
                format!("CRC: {} (width {}, full {f}, Koopman {k})", c.name, c.width)
            }
            _ => format!("check: {} ({} check bits)", c.name, c.width),
        };
        let head = match &self.channel {
            Some(ge) => format!(
                "{head}\nchannel: Gilbert-Elliott bursts, good-state BER {:e}, \
                 bad-state BER {:e}, P(good->bad) {:e}, P(bad->good) {:e} per bit \
                 (bad {:.4e} of the time, mean BER {:.4e}; first bit stationary); \
                 ber column = mean BER, P(error) exact for this channel",
                ge.p_good, ge.p_bad, ge.good_to_bad, ge.bad_to_good, ge.bad_fraction, ge.mean_ber
            ),
            None => head,
        };
        // the frame note of a CRC not of whole bytes rides on the method
        let (method, lengths_note) = match self.method.split_once("; frame:") {
            Some((m, note)) => (m, format!("{lengths_note}\nframe:{note}")),
            None => (self.method.as_str(), lengths_note.to_string()),
        };
        format!(
            "{head}\n\
             method: {method} (exact)\n\
             lengths: codeword bits, check bits included; {lengths_note}\n\
             P(alias|error) = P(undetected) / P(error); \
             2^-{w} is an ideal {w}-bit check on random data\n\n{}",
            table(&self.rows(false)),
            w = c.width,
        )
    }
}

/// The method's sentence in a bracket table's header.
const METHOD: &str = "bracket (certified bounds: enumerated low weights + proven tail bound)";

impl BracketDoc {
    /// The document of the brackets `b` of `crc`, each point with its
    /// minimum distance (the lightest non-zero count, else `>=W`: none up
    /// to the weight enumerated, one more for an even-weight code at odd W).
    pub fn of(crc: &CrcAlgorithm, b: &[Bracket]) -> BracketDoc {
        let g = crc.generator();
        let hd = |x: &Bracket| match x.counts.iter().skip(1).position(|&a| a > 0) {
            Some(i) => (i as u64 + 1).to_string(),
            None => format!(
                ">={}",
                x.counts.len() + usize::from(g.divisible_by_x_plus_1() && x.counts.len() % 2 == 1)
            ),
        };
        let pts = b.iter().map(|x| BracketPoint::new(x, hd(x))).collect();
        BracketDoc::new(crc.into(), pts)
    }

    /// The document in `format`; `lengths_note` as for [`Curve::render`].
    pub fn render(&self, format: Format, lengths_note: &str) -> serde_json::Result<String> {
        let c = &self.crc;
        Ok(match format {
            Format::Json => to_json_sorted(self)?,
            Format::Csv => super::csv(&self.rows()),
            Format::Table => format!(
                "CRC: {} (width {}, full {}, Koopman {})\nmethod: {METHOD}\nlengths: codeword bits, check bits included; {lengths_note}\nthe exact methods need 2^{} dual codewords; see `aliasing_core::bracket` for the bound and its proof\n\n{}",
                c.name,
                c.width,
                c.full.as_deref().unwrap_or(""),
                c.koopman.as_deref().unwrap_or(""),
                c.width,
                table(&self.rows())
            ),
        })
    }

    /// The rows, the header first.
    fn rows(&self) -> Vec<Vec<String>> {
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
        for x in &self.points {
            let counts: Vec<String> = x.low_weights.iter().map(|c| c.to_string()).collect();
            rows.push(vec![
                format!("{:e}", x.ber),
                x.bits.to_string(),
                x.hd.clone(),
                counts.join(" "),
                prob(x.p_undetected_lower),
                prob(x.p_undetected_upper),
                format!("{:.3e}", x.relative_width),
            ]);
        }
        rows
    }
}
