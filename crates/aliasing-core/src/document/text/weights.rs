//! The text of `weights` documents.

use super::{Format, table};
use crate::document::{Weights, to_json_sorted};

impl Weights {
    /// The distribution in `format`: one row per weight, `A` the code's
    /// and `B` the dual code's.
    pub fn render(&self, format: Format) -> serde_json::Result<String> {
        if format == Format::Json {
            return to_json_sorted(self);
        }
        let mut rows = vec![vec!["code".to_string(), "w".into(), "count".into()]];
        for c in &self.weights {
            rows.push(vec!["A".into(), c.w.to_string(), c.count.to_string()]);
        }
        for c in &self.dual {
            rows.push(vec!["B".into(), c.w.to_string(), c.count.to_string()]);
        }
        if format == Format::Csv {
            return Ok(super::csv(&rows));
        }
        Ok(format!(
            "# {} {} at {} bits ({} data bits); A = code, B = dual code\n{}",
            self.crc.name,
            self.crc.full.as_deref().unwrap_or(""),
            self.bits,
            self.data_bits,
            table(&rows)
        ))
    }
}
