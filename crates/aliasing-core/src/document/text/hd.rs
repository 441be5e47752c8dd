//! The text of `hd` documents.

use super::{Format, table};
use crate::document::{Hd, to_json_sorted};
use crate::job::HdJob;

impl Hd {
    /// The document in `format`.
    pub fn render(&self, format: Format) -> serde_json::Result<String> {
        Ok(match format {
            Format::Json => to_json_sorted(self)?,
            Format::Csv => super::csv(&self.profile_rows()),
            Format::Table => self.table(),
        })
    }

    /// The profile's rows, header first.
    fn profile_rows(&self) -> Vec<Vec<String>> {
        let head = [
            "hd",
            "max_data_bits",
            "pattern_bits",
            "pattern_weight",
            "pattern_positions",
        ];
        let mut rows = vec![head.map(String::from).to_vec()];
        for e in &self.examples {
            let positions: Vec<String> = e.positions.iter().map(u64::to_string).collect();
            rows.push(vec![
                e.hd.to_string(),
                e.max_data_bits.to_string(),
                e.pattern_bits.to_string(),
                e.pattern_weight.to_string(),
                positions.join(" "),
            ]);
        }
        rows
    }

    /// The comment lines on a bounded or stopped search, and the tail of
    /// the profile line for a stopped one.
    fn bounds(&self) -> (String, String) {
        let r = u64::from(self.crc.width);
        let mut text = match (self.searched_to_bits, self.hd_at_least) {
            (Some(n), Some(Some(h))) => format!(
                "# searched up to {n} bits ({} data bits): HD >= {h} at every length up to there; \
                 the profile below lists the HDs that end earlier\n",
                n - r
            ),
            (Some(n), _) => format!("# searched up to {n} bits ({} data bits)\n", n - r),
            _ => String::new(),
        };
        let Some(st) = &self.stopped else {
            return (text, String::new());
        };
        let settled = match self.examples.first().zip(self.examples.last()) {
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
    fn burst_rows(&self) -> Vec<Vec<String>> {
        let head = ["burst_length", "undetected_fraction", "enumerated"];
        let mut rows = vec![head.map(String::from).to_vec()];
        for row in &self.bursts {
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
    fn table(&self) -> String {
        let (bound_text, profile_tail) = self.bounds();
        let koopman: Vec<String> = self.profile.iter().map(u64::to_string).collect();
        format!(
            "# {} {} (Koopman {})\n{bound_text}# HD profile, data bits: {{{}}}{profile_tail}\n# pattern: an undetectable error at the first length where the HD drops (bit positions x^i)\n{}\n\
             # bursts (first and last bit in error, any pattern between), at any position: \
             share undetected; counted pattern by pattern at start 0 up to {} patterns per length, \
             every count equal to the theorem (g(0) = 1)\n{}",
            self.crc.name,
            self.crc.full.as_deref().unwrap_or(""),
            self.crc.koopman.as_deref().unwrap_or(""),
            koopman.join(","),
            table(&self.profile_rows()),
            HdJob::BURST_PATTERNS,
            table(&self.burst_rows())
        )
    }
}
