//! The text forms of the simulation reports (`simulate`, `simulate-rare`,
//! `simulate-rare-burst`), exactly as `alias simulate` prints them, with
//! the shared column and number format of
//! [`aliasing_core::document::text`].

use crate::burst_rare::BurstRareReport;
use crate::channel::Channel;
use crate::rare::{RareEstimate, RareReport};
use crate::report::{Estimate, Report};
use crate::simulate::SimulateDoc;
use aliasing_core::__private::document::text::{csv, prob, table};
use aliasing_core::document::text::Format;
use aliasing_core::document::{to_json, to_json_sorted};

/// `x` as a probability, or `-`.
fn opt(x: Option<f64>) -> String {
    x.map(prob).unwrap_or_else(|| "-".into())
}

impl SimulateDoc {
    /// The document of any kind in `format`.
    pub fn render(&self, format: Format) -> serde_json::Result<String> {
        match self {
            SimulateDoc::Run(r) => r.render(format),
            SimulateDoc::Rare(r) => r.render(format),
            SimulateDoc::RareBurst(r) => r.render(format),
        }
    }
}

impl Report {
    /// The report in `format` (its JSON keeps the declared field order).
    pub fn render(&self, format: Format) -> serde_json::Result<String> {
        let row = |name: &str, e: &Estimate| {
            let count = |x: Option<u64>| x.map(|x| x.to_string()).unwrap_or_else(|| "-".into());
            vec![
                name.to_string(),
                e.escapes.to_string(),
                prob(e.rate),
                prob(e.ci_low),
                prob(e.ci_high),
                prob(e.per_errored_frame),
                opt(e.exact),
                count(e.errored_in_coverage),
                count(e.escapes_in_coverage),
                opt(e.rate_in_coverage),
            ]
        };
        if format == Format::Json {
            return to_json(self);
        }
        let mut rows = vec![
            [
                "check",
                "escapes",
                "rate",
                "ci95_low",
                "ci95_high",
                "per_errored_frame",
                "exact",
                "errored_in_coverage",
                "escapes_in_coverage",
                "rate_in_coverage",
            ]
            .map(String::from)
            .to_vec(),
        ];
        for c in &self.checks {
            rows.push(row(c.name.as_deref().unwrap_or("?"), c));
        }
        rows.push(row("stack", &self.stack));
        if format == Format::Csv {
            return Ok(csv(&rows));
        }
        let p = &self.params;
        Ok(format!(
            "stack {} | {} bytes | {} | seed {}\n{}frames {} | frames with error {} | bit errors {}\n{}",
            p.stack,
            p.bytes,
            serde_json::to_string(&p.channel).unwrap_or_default(),
            p.seed,
            padded_fields(&p.stack, p.bytes),
            self.frames,
            self.frames_with_error,
            self.bit_errors,
            table(&rows)
        ))
    }
}

/// The table of rare-event estimates, one row per named estimate.
fn rare_rows(estimates: &[(&str, &RareEstimate)]) -> Vec<Vec<String>> {
    let mut rows = vec![
        [
            "check",
            "p_undetected",
            "rel_std_err",
            "ci95_low",
            "ci95_high",
            "exact",
        ]
        .map(String::from)
        .to_vec(),
    ];
    for (name, e) in estimates {
        rows.push(vec![
            name.to_string(),
            prob(e.rate),
            format!("{:.3}", e.rel_std_err),
            prob(e.ci_low),
            prob(e.ci_high),
            opt(e.exact),
        ]);
    }
    rows
}

impl BurstRareReport {
    /// The burst-channel rare-event report in `format`.
    pub fn render(&self, format: Format) -> serde_json::Result<String> {
        let (params, r) = (&self.params, &self.result);
        if format == Format::Json {
            // the report as a run of these parameters makes it
            return to_json_sorted(&BurstRareReport::new(params.clone(), r.clone()));
        }
        let rows = rare_rows(&[(r.crc_name.as_str(), &r.crc)]);
        if format == Format::Csv {
            return Ok(csv(&rows));
        }
        Ok(format!(
            "rare-event {} | stack {} | {} bytes | burst {} | proposal {} | seed {} | {} samples | {} hits | shares: window {:.3}, position {:.3}, burst {:.3}\n{}",
            r.method,
            params.stack,
            params.bytes,
            r.channel,
            r.proposal,
            params.seed,
            r.samples,
            r.hits,
            r.window_share,
            r.position_share,
            r.burst_share,
            table(&rows)
        ))
    }
}

impl RareReport {
    /// The rare-event report in `format`.
    pub fn render(&self, format: Format) -> serde_json::Result<String> {
        let (params, r) = (&self.params, &self.result);
        if format == Format::Json {
            return to_json_sorted(self);
        }
        let rows = rare_rows(&[(r.crc_name.as_str(), &r.crc), ("stack", &r.stack)]);
        if format == Format::Csv {
            return Ok(csv(&rows));
        }
        let ber = match params.channel {
            Channel::Bsc { ber } => ber,
            _ => f64::NAN,
        };
        Ok(format!(
            "rare-event estimate (stratified conditional sampling) | stack {} | {} bytes | BER {} | seed {} | {} samples | strata 1..={} | left-out tail {}\n{}",
            params.stack,
            params.bytes,
            ber,
            params.seed,
            self.samples,
            r.strata.len(),
            prob(r.truncation),
            table(&rows)
        ))
    }
}

/// One line per CRC whose width is not whole bytes: the frame stores it in
/// whole bytes, with pad bits an error must leave alone, so this frame is not
/// the codeword `alias curve --bytes` means (empty when there is none).
fn padded_fields(stack: &str, bytes: usize) -> String {
    let Ok(f) = crate::stack::Frame::new(stack, bytes, crate::stack::Payload::Random) else {
        return String::new();
    };
    let mut s = String::new();
    for c in &f.checks {
        if let Some(alg) = c.crc() {
            let w = alg.width();
            let pad = 8 * c.field_len as u32 - w;
            if pad > 0 {
                let data = 8 * c.field as u64;
                s.push_str(&format!(
                    "frame: {} is stored in {} bytes, {pad} pad bits that an error must leave \
                     alone; its codeword is {data} data bits + {w} (`alias curve --bits {}`: \
                     P here = (1-p)^{pad} x that)\n",
                    c.name,
                    c.field_len,
                    data + w as u64
                ));
            }
        }
    }
    s
}
