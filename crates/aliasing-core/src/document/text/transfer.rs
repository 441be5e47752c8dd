//! The text of `transfer` documents.

use super::{Format, num, or_dash, prob, table};
use crate::document::{Transfer, to_json_sorted};

impl Transfer {
    /// The document in `format`; `burst` is `(draws, seed)` of a
    /// burst-channel estimate (the table's header says how the joint
    /// escape was found).
    pub fn render(&self, format: Format, burst: Option<(u64, u64)>) -> serde_json::Result<String> {
        Ok(match format {
            Format::Json => to_json_sorted(self)?,
            Format::Csv => super::csv(&self.rows(true)),
            Format::Table => self.table(burst),
        })
    }

    /// The table form: what the columns are, any corruption inside hosts
    /// as comment lines, the rows.
    fn table(&self, burst: Option<(u64, u64)>) -> String {
        let what = "delivered corrupted (every check passed)";
        let joint = match burst {
            Some((draws, seed)) => format!(
                "# joint: P(a frame sent is delivered corrupted) on the burst channel: \
                 rare-event estimate of the joint escape (the CRC and the checksums all \
                 pass), {draws} draws per frame length, seed {seed}; [low, high] its 95% \
                 interval"
            ),
            None => "# joint: P(a frame sent is delivered corrupted), alias stack's value at \
                     1 hop; [low, high] its bracket"
                .to_string(),
        };
        let mut s = format!(
            "# {} bytes over {}: expected frames {what}\n\
             {joint}\n\
             # escapes = sent x joint; P(>=1) = 1 - (1 - q)^frames, q = joint x sent / frames; - : the bracket alone\n\
             # independence: frames x hops x P(error) x the study's product (CRC x TCP checksum)\n",
            self.size_bytes, self.stack
        );
        if let Some(c) = self.corruption_rows() {
            s.push_str(
                "# corruption inside hosts and routers (the same at every BER and hops): \
                 escapes = frames x rate x p_miss; total = link escapes + these\n",
            );
            if let Some(d) = &self.digest {
                s.push_str(&format!(
                    "# p_miss: the TCP checksum and the end-to-end CRC {d} over each \
                     segment's data both pass (the links' columns without {d})\n"
                ));
            }
            for line in table(&c).lines() {
                s.push_str("# ");
                s.push_str(line);
                s.push('\n');
            }
        }
        s.push_str(&table(&self.rows(false)));
        s
    }

    fn rows(&self, full: bool) -> Vec<Vec<String>> {
        let fmt = num(full);
        let dash = |x: Option<f64>| or_dash(x.map(&fmt));
        let head = [
            "mtu",
            "frame",
            "ber",
            "hops",
            "frames",
            "sent",
            "p_error",
            "joint",
            "escapes",
            "low",
            "high",
            "p_at_least_one",
            "bytes_per_escape",
            "independence",
        ];
        let mut rows = vec![head.map(String::from).to_vec()];
        for pt in &self.points {
            let mut row = vec![
                pt.mtu.to_string(),
                pt.frame_bytes.to_string(),
                fmt(pt.ber),
                pt.hops.to_string(),
                pt.frames.to_string(),
                dash(pt.frames_sent),
                fmt(pt.p_error),
                dash(pt.joint_per_frame.estimate),
                dash(pt.escapes.estimate),
                fmt(pt.escapes.low),
                fmt(pt.escapes.high),
                dash(pt.p_at_least_one.estimate),
                dash(pt.bytes_per_escape),
                dash(pt.independence_escapes),
            ];
            if let Some(t) = &pt.total_escapes {
                row.extend(pt.corruption.iter().map(|c| fmt(c.escapes)));
                row.extend([dash(t.estimate), fmt(t.low), fmt(t.high)]);
            }
            rows.push(row);
        }
        // corruption columns: one per model (its escapes), then the total
        if let Some(pt) = self.points.iter().find(|p| p.total_escapes.is_some()) {
            rows[0].extend(pt.corruption.iter().map(|c| format!("{}_escapes", c.model)));
            rows[0].extend(["total_escapes", "total_low", "total_high"].map(String::from));
        }
        rows
    }

    /// The table's corruption lines: per MTU and model, rate, p_miss,
    /// escapes and method; `None` without corruption.
    fn corruption_rows(&self) -> Option<Vec<Vec<String>>> {
        let mut rows = vec![
            ["mtu", "model", "rate", "p_miss", "escapes", "method"]
                .map(String::from)
                .to_vec(),
        ];
        let mut seen = Vec::new();
        for pt in &self.points {
            if pt.corruption.is_empty() || seen.contains(&pt.mtu) {
                continue;
            }
            seen.push(pt.mtu);
            for c in &pt.corruption {
                rows.push(vec![
                    pt.mtu.to_string(),
                    c.model.clone(),
                    prob(c.rate),
                    prob(c.p_miss),
                    prob(c.escapes),
                    c.method.clone(),
                ]);
            }
        }
        (rows.len() > 1).then_some(rows)
    }
}
