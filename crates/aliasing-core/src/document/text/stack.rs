//! The text of `stack` documents.

use super::{Format, num, or_dash, table};
use crate::document::{Stack, to_json_sorted};

impl Stack {
    /// The document in `format`.
    pub fn render(&self, format: Format) -> serde_json::Result<String> {
        Ok(match format {
            Format::Json => to_json_sorted(self)?,
            Format::Csv => super::csv(&self.rows(true)),
            Format::Table => {
                let mut s = String::from(
                    "# P(escape | error): a frame with at least one bit error passes every check\n\
                     # joint: exact low-weight CRC codewords through the checksums; [low, high] certified\n\
                     # (or the 95% interval when a weight is sampled; exact at BER 0 and 0.5; - : the bracket alone)\n\
                     # product: the study's, the CRC's P(alias | error) x the end-to-end checksum's\n",
                );
                s.push_str(&table(&self.rows(false)));
                s
            }
        })
    }

    fn rows(&self, full: bool) -> Vec<Vec<String>> {
        let fmt = num(full);
        let head = [
            "bytes",
            "ber",
            "p_error",
            "joint",
            "low",
            "high",
            "joint|error",
            "product",
            "ratio",
        ];
        let mut rows = vec![head.map(String::from).to_vec()];
        let dash = |x: Option<f64>| or_dash(x.map(&fmt));
        for pt in &self.points {
            let j = &pt.joint;
            rows.push(vec![
                pt.bytes.to_string(),
                fmt(pt.ber),
                fmt(pt.p_error),
                dash(j.estimate),
                fmt(j.low),
                fmt(j.high),
                dash(pt.joint_given_error()),
                dash(pt.independence_product),
                dash(pt.ratio),
            ]);
        }
        rows
    }
}
