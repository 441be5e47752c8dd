//! The text of `compare` documents.

use super::{Format, num, table};
use crate::document::{Compare, to_json_sorted};
use crate::job::CompareJob;
use std::collections::HashMap;

impl CompareJob {
    /// `doc`, this job's document, in `format`: the table's rows follow
    /// the job's BERs and lengths, and its header says what data it ran on.
    pub fn render(&self, doc: &Compare, format: Format) -> serde_json::Result<String> {
        Ok(match format {
            Format::Json => to_json_sorted(doc)?,
            Format::Csv => super::csv(&self.rows(doc, true)),
            Format::Table => self.table(doc),
        })
    }

    /// One row per BER and length, header first: each check's P(alias |
    /// error) or `n/a` (numbers in full for CSV).
    fn rows(&self, doc: &Compare, full: bool) -> Vec<Vec<String>> {
        let fmt = num(full);
        let mut head: Vec<String> = ["bytes", "bits", "ber", "p_error"]
            .map(String::from)
            .to_vec();
        head.extend(doc.checks.iter().map(|c| c.name.clone()));
        let value: HashMap<(&str, u64, u64), f64> = doc
            .points
            .iter()
            .map(|pt| {
                (
                    (pt.check.as_str(), pt.bytes.unwrap_or(0), pt.ber.to_bits()),
                    pt.p_alias_given_error,
                )
            })
            .collect();
        let mut rows = vec![head];
        for &p in self.bers() {
            for &b in self.bytes() {
                let mut r = vec![
                    b.to_string(),
                    (8 * b).to_string(),
                    fmt(p),
                    fmt(crate::bsc::p_error(8 * b, p)),
                ];
                for c in &doc.checks {
                    r.push(match value.get(&(c.name.as_str(), b, p.to_bits())) {
                        Some(&x) => fmt(x),
                        None => "n/a".into(),
                    });
                }
                rows.push(r);
            }
        }
        rows
    }

    /// The table form: what the values are, the rows, the notes of n/a columns.
    fn table(&self, doc: &Compare) -> String {
        let mut s = String::from(
            "# P(alias | error): probability that a frame with at least one bit error passes the check\n",
        );
        s.push_str(match self.given() {
            Some(crate::compare::Given::Data(_)) => {
                "# given data, each frame the data then the check field computed from them; Internet checksum over its actual bits\n"
            }
            Some(crate::compare::Given::Frame(_)) => {
                "# given frame as captured, check field verified; Internet checksum over its actual bits\n"
            }
            None => "# random data; lengths are whole frames in bytes, check field included\n",
        });
        s.push_str(&table(&self.rows(doc, false)));
        for c in &doc.checks {
            if let Some(why) = &c.note {
                s.push_str(&format!("# n/a {}: {why}\n", c.name));
            }
        }
        s
    }
}
