//! The corruption models and their syntax (`MODEL:RATE`), and what a
//! model's miss is reported as.

use super::*;

/// How a segment's data is corrupted once (see the module docs for each
/// model's exact definition).
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Model {
    /// Every data bit flips independently with probability `p`.
    Bits {
        /// Probability that a bit flips, in `[0, 1]`.
        p: f64,
    },
    /// One aligned data word is replaced by one of the 65,535 other values.
    Word,
    /// `bits` consecutive bits are replaced by a different random value.
    Burst {
        /// Burst length in bits, at least 1.
        bits: u32,
    },
    /// The data from a cell boundary onward comes from the next segment.
    Splice {
        /// Cell size in bytes, at least 1 (48 for ATM cells).
        cell: u64,
    },
}

pub(super) fn bad(s: impl Into<String>) -> Error {
    Error::Invalid(s.into())
}

/// A probability in `[0, 1]` named `what` (`rate`, `bit flip probability`).
pub(super) fn parse_probability(text: &str, what: &str, spec: &str) -> Result<f64> {
    let v: f64 = text.trim().parse().map_err(|_| {
        bad(format!(
            "corruption `{spec}`: {what} `{text}` is not a number"
        ))
    })?;
    if !(0.0..=1.0).contains(&v) {
        return Err(bad(format!(
            "corruption `{spec}`: {what} {text} is outside [0, 1]"
        )));
    }
    Ok(v)
}

pub(super) fn parse_count(text: &str, what: &str, spec: &str) -> Result<u64> {
    let v: u64 = text.trim().parse().map_err(|_| {
        bad(format!(
            "corruption `{spec}`: {what} `{text}` is not a whole number"
        ))
    })?;
    if v == 0 {
        return Err(bad(format!("corruption `{spec}`: {what} is 0")));
    }
    Ok(v)
}

/// Splits `spec` into its model and the fields left after the model's own
/// parameters.
pub(super) fn parse_model<'a>(fields: &[&'a str], spec: &str) -> Result<(Model, Vec<&'a str>)> {
    let name = fields[0].trim().to_ascii_lowercase();
    let (model, used) = match name.as_str() {
        "word" => (Model::Word, 1),
        "bits" | "burst" | "splice" => {
            let Some(arg) = fields.get(1) else {
                let want = match name.as_str() {
                    "bits" => "bits:P",
                    "burst" => "burst:B",
                    _ => "splice:C",
                };
                return Err(bad(format!(
                    "corruption `{spec}`: give the model as {want}"
                )));
            };
            let m = match name.as_str() {
                "bits" => Model::Bits {
                    p: parse_probability(arg, "bit flip probability", spec)?,
                },
                "burst" => {
                    let b = parse_count(arg, "burst length", spec)?;
                    let bits = u32::try_from(b).map_err(|_| {
                        bad(format!(
                            "corruption `{spec}`: burst length {b} is longer than any segment"
                        ))
                    })?;
                    Model::Burst { bits }
                }
                _ => Model::Splice {
                    cell: parse_count(arg, "cell size", spec)?,
                },
            };
            (m, 2)
        }
        _ => {
            return Err(bad(format!(
                "corruption `{spec}`: unknown model `{}` (bits:P, word, burst:B, splice:C)",
                fields[0]
            )));
        }
    };
    Ok((model, fields[used..].to_vec()))
}

impl FromStr for Model {
    type Err = Error;
    /// `bits:P`, `word`, `burst:B` or `splice:C` (no rate).
    fn from_str(s: &str) -> Result<Self> {
        let fields: Vec<&str> = s.split(':').collect();
        let (model, rest) = parse_model(&fields, s)?;
        if !rest.is_empty() {
            return Err(bad(format!(
                "corruption model `{s}`: unexpected `:{}`",
                rest.join(":")
            )));
        }
        Ok(model)
    }
}

impl fmt::Display for Model {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Model::Bits { p } => write!(f, "bits:{p:e}"),
            Model::Word => write!(f, "word"),
            Model::Burst { bits } => write!(f, "burst:{bits}"),
            Model::Splice { cell } => write!(f, "splice:{cell}"),
        }
    }
}

impl Model {
    /// The checks that need the segment size: a burst longer than a segment
    /// of `segment_bytes` data bytes, a cell larger than it, a segment of 0
    /// bytes. Call before any work.
    pub fn check(&self, segment_bytes: u64) -> Result<()> {
        if segment_bytes == 0 {
            return Err(bad("a segment of 0 data bytes"));
        }
        match *self {
            Model::Burst { bits } if bits as u64 > 8 * segment_bytes => Err(bad(format!(
                "corruption burst:{bits}: a burst of {bits} bits is longer than a segment of {segment_bytes} bytes ({} bits)",
                8 * segment_bytes
            ))),
            Model::Splice { cell } if cell > segment_bytes => Err(bad(format!(
                "corruption splice:{cell}: a cell of {cell} bytes is larger than a segment of {segment_bytes} bytes"
            ))),
            _ => Ok(()),
        }
    }
}

/// A corruption model with the probability that a segment is corrupted
/// once inside a host or router: `MODEL:RATE` (see the module docs).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Corruption {
    /// How the segment is corrupted.
    pub model: Model,
    /// Probability that a segment is corrupted, in `[0, 1]`; `None` only for
    /// `bits:P` written without a rate, where it is the probability that at
    /// least one data bit flips.
    pub rate: Option<f64>,
}

impl FromStr for Corruption {
    type Err = Error;
    /// `word:RATE`, `burst:B:RATE`, `splice:C:RATE`, `bits:P:RATE` or `bits:P`.
    fn from_str(s: &str) -> Result<Self> {
        let fields: Vec<&str> = s.split(':').collect();
        let (model, rest) = parse_model(&fields, s)?;
        let rate = match rest.as_slice() {
            [] if matches!(model, Model::Bits { .. }) => None,
            [] => {
                return Err(bad(format!(
                    "corruption `{s}`: give a rate, {model}:RATE (the probability that a segment is corrupted)"
                )));
            }
            [r] => Some(parse_probability(r, "rate", s)?),
            _ => {
                return Err(bad(format!(
                    "corruption `{s}`: too many fields (MODEL:RATE, e.g. word:1e-6, burst:32:1e-6, bits:1e-7)"
                )));
            }
        };
        Ok(Corruption { model, rate })
    }
}

impl fmt::Display for Corruption {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.rate {
            Some(r) => write!(f, "{}:{r:e}", self.model),
            None => write!(f, "{}", self.model),
        }
    }
}

/// The miss probability of one model over uniform data or a file.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Miss {
    /// The model, as `bits:P`, `word`, `burst:B`, `splice:C`.
    pub model: String,
    /// `P(the TCP checksum passes | the segment was hit)`, the mean over the
    /// segments that can be hit.
    pub p_miss: f64,
    /// Segments averaged over (1 for uniform data).
    pub segments: u64,
    /// `bits` only: the mean over segments of `P(at least one data bit
    /// flips)`, the implied rate.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub p_hit: Option<f64>,
    /// `bits` only: the mean over segments of `P(a flip and a pass)`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub p_undetected: Option<f64>,
    /// How it was computed (exact, and over what data).
    pub method: String,
}

/// One entry of a transfer point's `"corruption"` list (defined with the
/// transfer document).
pub use aliasing_core::document::CorruptionPoint;

impl Corruption {
    /// The transfer point's entry for `frames` segments, from the model's
    /// [`Miss`]. With an implied rate (`bits:P`) the rate is `miss.p_hit`
    /// and `p_miss` the ratio `p_undetected / p_hit` of the segment means,
    /// so that `escapes = frames x mean P(flip and pass)` exactly.
    pub fn point(&self, miss: &Miss, frames: u64) -> CorruptionPoint {
        let (rate, p_miss) = match (self.rate, miss.p_hit, miss.p_undetected) {
            (Some(r), _, _) => (r, miss.p_miss),
            (None, Some(h), Some(u)) => (h, if h > 0.0 { u / h } else { 0.0 }),
            (None, _, _) => (0.0, miss.p_miss),
        };
        let escapes = match (self.rate, miss.p_undetected) {
            (None, Some(u)) => frames as f64 * u,
            _ => frames as f64 * rate * p_miss,
        };
        CorruptionPoint {
            model: miss.model.clone(),
            rate,
            p_miss,
            escapes,
            method: miss.method.clone(),
        }
    }
}
