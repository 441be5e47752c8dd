//! The text of `search` documents.

use super::{Format, prob, table};
use crate::document::{HdAt, PudAt, Search, SearchPerLength, to_json_sorted};

impl Search {
    /// The report in `format`.
    pub fn render(&self, format: Format) -> serde_json::Result<String> {
        Ok(match format {
            Format::Json => to_json_sorted(self)?,
            Format::Csv => super::csv(&self.csv_rows()),
            Format::Table => self.table(),
        })
    }

    /// The CSV rows: one per result, length and BER.
    fn csv_rows(&self) -> Vec<Vec<String>> {
        let head = [
            "rank",
            "koopman",
            "full",
            "reciprocal_of",
            "min_hd",
            "bits",
            "hd",
            "ber",
            "p_undetected",
        ];
        let mut rows = vec![head.map(String::from).to_vec()];
        let per = self.bers.len();
        for r in &self.results {
            for (li, h) in r.hd.iter().enumerate() {
                for pt in &r.points[li * per..(li + 1) * per] {
                    rows.push(vec![
                        r.rank.to_string(),
                        r.koopman.clone(),
                        r.full.clone(),
                        r.reciprocal_of.clone().unwrap_or_default(),
                        r.min_hd.to_string(),
                        h.bits.to_string(),
                        h.hd.to_string(),
                        format!("{:e}", pt.ber),
                        format!("{:e}", pt.p_undetected),
                    ]);
                }
            }
        }
        rows
    }

    /// The table form.
    fn table(&self) -> String {
        let shard = match self.shard.count {
            1 => String::new(),
            _ => format!("; shard {}/{}", self.shard.index, self.shard.count),
        };
        let mut s = format!(
            "# search: {}; objective {}{shard}\n",
            self.candidates, self.objective
        );
        s += "# lengths: codeword bits, check bits included; P_ud exact (dual-code weights); score = worst case over the lengths, BER by BER in the order given\n";
        let hist: Vec<String> = self
            .hd_histogram
            .iter()
            .rev()
            .map(|(h, c)| format!("HD {h}: {c}"))
            .collect();
        s += &format!("# minimum distance over the lengths: {}\n", hist.join(", "));
        let (d, u) = (&self.stages.distance, &self.stages.p_undetected);
        s += &format!(
            "# stages: distance {} generators in {:.2} s ({:.0}/s); P_ud {} in {:.2} s ({:.1}/s)\n",
            d.generators, d.seconds, d.per_second, u.generators, u.seconds, u.per_second
        );
        let mut head = ["rank", "koopman", "full", "mirror", "hd"]
            .map(String::from)
            .to_vec();
        for &n in &self.lengths {
            for &p in &self.bers {
                head.push(format!("P_ud@{n},{p:e}"));
            }
        }
        let mut rows = vec![head.clone()];
        for r in &self.results {
            let mirror = r
                .reciprocal_of
                .as_ref()
                .and_then(|k| self.results.iter().position(|x| &x.koopman == k))
                .map(|j| format!("=#{} reversed", j + 1))
                .unwrap_or_default();
            let rank = r.rank.to_string();
            rows.push(row(rank, &r.koopman, &r.full, mirror, &r.hd, &r.points));
        }
        s += &table(&rows);
        s += &self.catalogue_table(head);
        for n in &self.notes {
            s += &format!("# note: {n}\n");
        }
        s
    }

    /// The catalogue's CRCs of the width, as rows under `head` (nothing
    /// when the catalogue has none).
    fn catalogue_table(&self, head: Vec<String>) -> String {
        if self.catalogue.is_empty() {
            return String::new();
        }
        let mut s = format!("\n# the catalogue's CRCs of width {}\n", self.width);
        let mut rows = vec![head];
        rows[0][3] = "names".into();
        for k in &self.catalogue {
            let rank = match k.rank {
                Some(st) if st.best == st.worst => st.best.to_string(),
                Some(st) => format!("{}..{}", st.best, st.worst),
                None => "-".into(),
            };
            rows.push(row(
                rank,
                &k.koopman,
                &k.full,
                k.names.clone(),
                &k.hd,
                &k.points,
            ));
        }
        s += &table(&rows);
        s
    }
}

/// A table row: rank, Koopman and full forms, mirror or names, the HDs and
/// every P_ud.
fn row(
    rank: String,
    koopman: &str,
    full: &str,
    mirror: String,
    hd: &[HdAt],
    points: &[PudAt],
) -> Vec<String> {
    let hd: Vec<String> = hd.iter().map(|h| h.hd.to_string()).collect();
    let mut v = vec![rank, koopman.into(), full.into(), mirror, hd.join(",")];
    v.extend(points.iter().map(|p| prob(p.p_undetected)));
    v
}

impl SearchPerLength {
    /// The per-length reports in `format`: the tables one after the other,
    /// each under a `## ranked at N bits alone` line; one CSV (one header,
    /// the `bits` column tells the reports apart); or one JSON document.
    pub fn render(&self, format: Format) -> serde_json::Result<String> {
        Ok(match format {
            Format::Json => to_json_sorted(self)?,
            Format::Csv => {
                let mut out = String::new();
                for (i, d) in self.per_length.iter().enumerate() {
                    let t = d.render(Format::Csv)?;
                    // one header: the later reports' first line is the same
                    out += if i == 0 {
                        &t
                    } else {
                        t.split_once('\n').map_or("", |x| x.1)
                    };
                }
                out
            }
            Format::Table => self
                .lengths
                .iter()
                .zip(&self.per_length)
                .map(|(n, d)| format!("## ranked at {n} bits alone\n{}", d.table()))
                .collect::<Vec<_>>()
                .join("\n"),
        })
    }
}
