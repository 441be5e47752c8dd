//! The plot's view of the `alias` result documents, and recognition of
//! which kind a document is.
//!
//! A document tagged with its kind (every `alias` output since schema 1) is
//! read by that tag into its type in [`aliasing_core::document`] (a curve
//! into [`document::Curve`], a comparison into [`document::Compare`]) and
//! then turned into the view here; a simulate run is read into
//! [`aliasing_sim::report::Report`], the type `alias simulate` writes, and
//! turned into [`SimulateDoc`]. A document kind without a plot is refused by
//! name.
//!
//! An untagged document (saved by an `alias` before schema 1, or written by
//! hand) is recognised by its keys, and read leniently where it costs
//! nothing: probabilities may be `null` (skipped on the plot), a curve's
//! check may be under `"crc"` or `"check"`, a simulate run's parameters are
//! searched for `ber`, `bytes` and `seed` by key, and unknown fields are
//! ignored. Only untagged documents take this lenient path.

use aliasing_core::document::{self, Document as _};
use aliasing_sim::channel::Channel;
use aliasing_sim::report::{self, Report};
use serde::Deserialize;
use serde_json::Value;

use crate::error::{PlotError, Result};

/// The check of a curve: `{"name", "width", "full", "koopman"}`.
#[derive(Debug, Clone, PartialEq, Deserialize)]
pub struct CheckInfo {
    /// Name (RevEng name, alias, or the polynomial as given).
    pub name: String,
    /// Number of check bits `r`.
    #[serde(alias = "check_bits")]
    pub width: u32,
    /// Full generator polynomial (hex string like `"0x104C11DB7"`, or a number).
    #[serde(default)]
    pub full: Option<Value>,
    /// Koopman notation of the generator.
    #[serde(default)]
    pub koopman: Option<Value>,
}

/// One point of a curve document.
#[derive(Debug, Clone, PartialEq, Deserialize)]
pub struct CurvePointDoc {
    /// Bit error rate.
    pub ber: f64,
    /// Codeword length in bits, check bits included.
    pub bits: f64,
    /// Data bits (`bits - width`).
    #[serde(default)]
    pub data_bits: Option<f64>,
    /// P(at least one bit flips).
    #[serde(default)]
    pub p_error: Option<f64>,
    /// P(undetected error).
    #[serde(default)]
    pub p_undetected: Option<f64>,
    /// P(alias | error) = p_undetected / p_error.
    #[serde(default)]
    pub p_alias_given_error: Option<f64>,
}

/// The result of `alias curve --format json`.
#[derive(Debug, Clone, PartialEq, Deserialize)]
pub struct CurveDoc {
    /// The check.
    #[serde(alias = "check")]
    pub crc: CheckInfo,
    /// The exact method used.
    #[serde(default)]
    pub method: Option<String>,
    /// The points.
    pub points: Vec<CurvePointDoc>,
}

/// A check of a compare document: `{"name", "check_bits"}`.
#[derive(Debug, Clone, PartialEq, Deserialize)]
pub struct CompareCheck {
    /// Name of the check.
    pub name: String,
    /// Number of check bits.
    #[serde(alias = "width")]
    pub check_bits: u32,
}

/// One point of a compare document.
#[derive(Debug, Clone, PartialEq, Deserialize)]
pub struct ComparePoint {
    /// Name of the check this point belongs to.
    pub check: String,
    /// Bit error rate.
    pub ber: f64,
    /// Frame length in bytes.
    #[serde(default)]
    pub bytes: Option<f64>,
    /// Frame length in bits.
    #[serde(default)]
    pub bits: Option<f64>,
    /// P(at least one bit flips).
    #[serde(default)]
    pub p_error: Option<f64>,
    /// P(undetected error).
    #[serde(default)]
    pub p_undetected: Option<f64>,
    /// P(alias | error).
    #[serde(default)]
    pub p_alias_given_error: Option<f64>,
}

/// The result of `alias compare --format json`.
#[derive(Debug, Clone, PartialEq, Deserialize)]
pub struct CompareDoc {
    /// The checks compared (optional: a document may name its checks only in the points).
    #[serde(default)]
    pub checks: Vec<CompareCheck>,
    /// The points, one per (check, ber, length).
    pub points: Vec<ComparePoint>,
}

/// A Monte Carlo estimate with its confidence interval, as the plot draws it.
#[derive(Debug, Clone, PartialEq, Deserialize)]
pub struct Estimate {
    /// Number of escapes seen.
    pub escapes: f64,
    /// Escapes per frame.
    #[serde(default)]
    pub rate: Option<f64>,
    /// Lower end of the confidence interval of the rate.
    #[serde(default)]
    pub ci_low: Option<f64>,
    /// Upper end of the confidence interval of the rate.
    #[serde(default)]
    pub ci_high: Option<f64>,
    /// Exact value of the rate, where an exact method applies.
    #[serde(default)]
    pub exact: Option<f64>,
}

/// One check of a simulate run.
#[derive(Debug, Clone, PartialEq, Deserialize)]
pub struct SimCheck {
    /// Name of the check.
    pub name: String,
    /// Its estimate.
    #[serde(flatten)]
    pub estimate: Estimate,
}

/// The plot's view of one simulate run: what its figure shows.
///
/// A tagged `simulate` document is read into its one type,
/// [`aliasing_sim::report::Report`] (the type the CLI writes), and turned
/// into this view; an untagged legacy one is read leniently (see the module
/// doc), its BER, length and seed found by key among its parameters.
#[derive(Debug, Clone, PartialEq)]
pub struct SimulateDoc {
    /// Bit error rate of the run's channel (a binary symmetric channel's;
    /// `None` for other channels or when not given).
    pub ber: Option<f64>,
    /// Frame length in bytes, when given.
    pub bytes: Option<f64>,
    /// Seed, when given.
    pub seed: Option<u64>,
    /// Frames simulated.
    pub frames: f64,
    /// Frames with at least one error.
    pub frames_with_error: Option<f64>,
    /// One estimate per check.
    pub checks: Vec<SimCheck>,
    /// The estimate for the whole stack (a frame escapes only if every check passes).
    pub stack: Option<Estimate>,
}

impl From<&report::Estimate> for Estimate {
    fn from(e: &report::Estimate) -> Self {
        Estimate {
            escapes: e.escapes as f64,
            rate: Some(e.rate),
            ci_low: Some(e.ci_low),
            ci_high: Some(e.ci_high),
            exact: e.exact,
        }
    }
}

impl From<&Report> for SimulateDoc {
    fn from(r: &Report) -> Self {
        SimulateDoc {
            ber: match r.params.channel {
                Channel::Bsc { ber } => Some(ber),
                _ => None,
            },
            bytes: Some(r.params.bytes as f64),
            seed: Some(r.params.seed),
            frames: r.frames as f64,
            frames_with_error: Some(r.frames_with_error as f64),
            checks: r
                .checks
                .iter()
                .map(|c| SimCheck {
                    name: c.name.clone().unwrap_or_default(),
                    estimate: c.into(),
                })
                .collect(),
            stack: Some((&r.stack).into()),
        }
    }
}

/// An untagged simulate document, read leniently.
#[derive(Deserialize)]
struct LegacySimulate {
    #[serde(default)]
    params: Value,
    frames: f64,
    #[serde(default)]
    frames_with_error: Option<f64>,
    checks: Vec<SimCheck>,
    #[serde(default)]
    stack: Option<Estimate>,
}

/// The first number under `key` in `v`, searched depth first through
/// objects (a legacy run's BER may sit at the top, or under its channel as
/// `channel.bsc.ber`).
fn find_number(v: &Value, key: &str) -> Option<f64> {
    let o = v.as_object()?;
    if let Some(x) = o.get(key).and_then(Value::as_f64) {
        return Some(x);
    }
    o.values().find_map(|w| find_number(w, key))
}

impl From<LegacySimulate> for SimulateDoc {
    fn from(d: LegacySimulate) -> Self {
        SimulateDoc {
            ber: find_number(&d.params, "ber"),
            bytes: find_number(&d.params, "bytes"),
            seed: d.params.get("seed").and_then(Value::as_u64),
            frames: d.frames,
            frames_with_error: d.frames_with_error,
            checks: d.checks,
            stack: d.stack,
        }
    }
}

/// One simulate run, tagged (read into [`Report`]) or legacy (read leniently).
fn simulate_run(v: &Value) -> Result<SimulateDoc> {
    if document::kind_of(v)?.is_some() {
        let report: Report = document::from_value(v.clone())?;
        Ok((&report).into())
    } else {
        Ok(parse::<LegacySimulate>(v, "simulate")?.into())
    }
}

/// A parsed result document of any plottable kind.
#[derive(Debug, Clone, PartialEq)]
pub enum Document {
    /// `alias curve`.
    Curve(CurveDoc),
    /// `alias compare`.
    Compare(CompareDoc),
    /// One `alias simulate` run.
    Simulate(SimulateDoc),
    /// Several `alias simulate` runs (a JSON array), swept over BER or length.
    SimulateSweep(Vec<SimulateDoc>),
    /// `alias transfer`.
    Transfer(document::Transfer),
    /// `alias stack`.
    Stack(document::Stack),
    /// `alias search`.
    Search(document::Search),
}

fn parse<T: for<'de> Deserialize<'de>>(v: &Value, kind: &'static str) -> Result<T> {
    T::deserialize(v).map_err(|error| PlotError::Malformed { kind, error })
}

fn is_simulate(v: &Value) -> bool {
    match document::kind_of(v) {
        Ok(Some(k)) => k == Report::KIND,
        Ok(None) => v.get("frames").is_some() && v.get("checks").is_some(),
        Err(_) => false,
    }
}

impl From<document::CheckInfo> for CheckInfo {
    fn from(c: document::CheckInfo) -> Self {
        CheckInfo {
            name: c.name,
            width: c.width,
            full: c.full.map(Value::String),
            koopman: c.koopman.map(Value::String),
        }
    }
}

impl From<document::Curve> for CurveDoc {
    fn from(d: document::Curve) -> Self {
        CurveDoc {
            crc: d.check.into(),
            method: Some(d.method),
            points: d
                .points
                .iter()
                .map(|p| CurvePointDoc {
                    ber: p.ber,
                    bits: p.bits as f64,
                    data_bits: Some(p.data_bits as f64),
                    p_error: Some(p.p_error),
                    p_undetected: Some(p.p_undetected),
                    p_alias_given_error: Some(p.p_alias_given_error),
                })
                .collect(),
        }
    }
}

impl From<document::Compare> for CompareDoc {
    fn from(d: document::Compare) -> Self {
        CompareDoc {
            checks: d
                .checks
                .into_iter()
                .map(|c| CompareCheck {
                    name: c.name,
                    check_bits: c.check_bits,
                })
                .collect(),
            points: d
                .points
                .into_iter()
                .map(|p| ComparePoint {
                    check: p.check,
                    ber: p.ber,
                    bytes: p.bytes.map(|b| b as f64),
                    bits: Some(p.bits as f64),
                    p_error: Some(p.p_error),
                    p_undetected: Some(p.p_undetected),
                    p_alias_given_error: Some(p.p_alias_given_error),
                })
                .collect(),
        }
    }
}

/// A document tagged with `kind`, read by its tag.
fn from_tagged(v: &Value, kind: &str) -> Result<Document> {
    match kind {
        document::Curve::KIND => Ok(Document::Curve(
            document::from_value::<document::Curve>(v.clone())?.into(),
        )),
        document::Compare::KIND => Ok(Document::Compare(
            document::from_value::<document::Compare>(v.clone())?.into(),
        )),
        Report::KIND => Ok(Document::Simulate(simulate_run(v)?)),
        document::Transfer::KIND => Ok(Document::Transfer(document::from_value::<
            document::Transfer,
        >(v.clone())?)),
        document::Stack::KIND => Ok(Document::Stack(document::from_value(v.clone())?)),
        document::Search::KIND => Ok(Document::Search(document::from_value(v.clone())?)),
        other => Err(PlotError::UnknownDocument(format!(
            "a `{other}` document has no plot (curve, compare, simulate, transfer, stack and \
             search results have)"
        ))),
    }
}

impl Document {
    /// Recognises and parses a result document.
    ///
    /// ```
    /// use aliasing_plot::doc::Document;
    /// let v = serde_json::json!({"crc": {"name": "CRC-8", "width": 8},
    ///     "points": [{"ber": 1e-3, "bits": 64, "p_alias_given_error": 4e-3}]});
    /// assert!(matches!(Document::from_value(&v), Ok(Document::Curve(_))));
    /// assert!(Document::from_value(&serde_json::json!({"x": 1})).is_err());
    /// ```
    pub fn from_value(v: &Value) -> Result<Self> {
        match v {
            Value::Array(items) => {
                if items.is_empty() {
                    return Err(PlotError::UnknownDocument("an empty JSON array".into()));
                }
                if !items.iter().all(is_simulate) {
                    return Err(PlotError::UnknownDocument(
                        "a JSON array must hold simulate results only".into(),
                    ));
                }
                let docs: Vec<SimulateDoc> =
                    items.iter().map(simulate_run).collect::<Result<_>>()?;
                Ok(if docs.len() == 1 {
                    Document::Simulate(docs.into_iter().next().expect("one element"))
                } else {
                    Document::SimulateSweep(docs)
                })
            }
            Value::Object(o) => {
                if let Some(kind) = document::kind_of(v)? {
                    from_tagged(v, kind)
                } else if is_simulate(v) {
                    Ok(Document::Simulate(simulate_run(v)?))
                } else if v.get("method").and_then(Value::as_str)
                    == Some(document::BracketDoc::KIND)
                {
                    // a curve's keys, but bounds instead of probabilities
                    Err(PlotError::UnknownDocument(format!(
                        "a `{}` document has no plot (curve, compare and simulate results have)",
                        document::BracketDoc::KIND
                    )))
                } else if o.contains_key("points")
                    && (o.contains_key("crc") || o.contains_key("check"))
                {
                    Ok(Document::Curve(parse(v, "curve")?))
                } else if o.contains_key("points")
                    && (o.contains_key("checks")
                        || v["points"].get(0).and_then(|p| p.get("check")).is_some())
                {
                    Ok(Document::Compare(parse(v, "compare")?))
                } else {
                    let mut keys: Vec<&str> = o.keys().map(String::as_str).collect();
                    keys.truncate(8);
                    Err(PlotError::UnknownDocument(format!(
                        "expected a curve, compare or simulate result, found an object with keys [{}]",
                        keys.join(", ")
                    )))
                }
            }
            _ => Err(PlotError::UnknownDocument(
                "expected a JSON object or an array of simulate results".into(),
            )),
        }
    }
}
