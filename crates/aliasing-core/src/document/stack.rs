//! The `stack` document: the exact joint escape of a stack of checks (one
//! CRC plus Internet checksums) beside each check alone, the study's
//! independence product (the CRC's `P(alias | error)` times the end-to-end
//! checksum's) and the product over all checks.

use super::{Count, Document};
use serde::{Deserialize, Serialize};

/// The joint escape of a [`StackPoint`]: an estimate inside an interval,
/// or the interval alone (`estimate` null) where no method valid at that BER
/// gives an estimate (`method` says which case).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[non_exhaustive]
pub struct JointEstimate {
    /// The joint `P(escape)` per frame, inside `[low, high]`; `null` where
    /// the bracket alone is reported.
    pub estimate: Option<f64>,
    /// Lower end: certified, or of the 95% interval when a weight is sampled.
    pub low: f64,
    /// Upper end, as `low`.
    pub high: f64,
    /// How the value was computed, in words.
    pub method: String,
}

impl JointEstimate {
    /// A joint estimate (`None`: the bracket alone).
    pub fn new(estimate: Option<f64>, low: f64, high: f64, method: String) -> Self {
        JointEstimate {
            estimate,
            low,
            high,
            method,
        }
    }
}

/// One check of a [`StackPoint`] on its own (`null` values with a `note`
/// where its exact value cannot be certified).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[non_exhaustive]
pub struct StackCheck {
    /// Name of the check.
    pub name: String,
    /// Bits the check covers.
    pub covered_bits: Option<u64>,
    /// Its exact `P_ud` over those bits.
    pub p_undetected: Option<f64>,
    /// Its `P(alias | error)` over those bits.
    pub p_alias_given_error: Option<f64>,
    /// Why the values are missing.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
}

impl StackCheck {
    /// A check with its exact values.
    pub fn exact(
        name: impl Into<String>,
        covered_bits: u64,
        p_undetected: f64,
        p_alias: f64,
    ) -> Self {
        StackCheck {
            name: name.into(),
            covered_bits: Some(covered_bits),
            p_undetected: Some(p_undetected),
            p_alias_given_error: Some(p_alias),
            note: None,
        }
    }

    /// A check whose values cannot be certified, and why.
    pub fn missing(name: impl Into<String>, note: String) -> Self {
        StackCheck {
            name: name.into(),
            covered_bits: None,
            p_undetected: None,
            p_alias_given_error: None,
            note: Some(note),
        }
    }
}

/// The contribution of the CRC codewords of one weight to the joint escape.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[non_exhaustive]
pub struct StackTerm {
    /// The weight.
    pub weight: u32,
    /// CRC codewords of that weight.
    pub codewords: Count,
    /// Of those, the number (or estimate) that every checksum passes.
    pub pass_sum: f64,
    /// Its contribution to `P(escape)` at the point's length and BER.
    pub contribution: f64,
    /// Whether `pass_sum` was counted exactly (else estimated by sampling).
    pub exact: bool,
}

impl StackTerm {
    /// The term of `t` at `n` bits and BER `p`.
    pub fn new(t: &crate::joint::Term, n: u64, p: f64) -> Self {
        StackTerm {
            weight: t.weight,
            codewords: Count::from(t.codewords),
            pass_sum: t.pass_sum,
            contribution: t.contribution(n, p),
            exact: t.exact,
        }
    }
}

/// One (length, BER) point of a [`Stack`].
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[non_exhaustive]
pub struct StackPoint {
    /// Frame length in bytes.
    pub bytes: u64,
    /// Frame length in bits.
    pub bits: u64,
    /// Bit error rate.
    pub ber: f64,
    /// P(at least one bit flips in the frame).
    pub p_error: f64,
    /// The joint escape.
    pub joint: JointEstimate,
    /// The study's independence product: the CRC's `P(alias | error)` times
    /// the end-to-end checksum's (the Internet checksum over the payload,
    /// TCP's in `ethernet-tcp`), each over the bits it covers; the CRC's
    /// alone where the stack has no checksum (`null` if one is missing).
    pub independence_product: Option<f64>,
    /// Every check's `P(alias | error)` multiplied (the IPv4 header checksum
    /// too): a different assumption from the study's (absent if one is
    /// missing, and in documents written before it was reported).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub all_checks_product: Option<f64>,
    /// Joint `P(escape | error)` over `independence_product` (`null` if
    /// there is no joint estimate, no error can occur, or the product is
    /// not positive).
    pub ratio: Option<f64>,
    /// Each check on its own.
    pub checks: Vec<StackCheck>,
    /// The joint escape weight by weight.
    pub terms: Vec<StackTerm>,
}

impl StackPoint {
    /// A point; the ratio is computed from the joint estimate and the
    /// study's product.
    #[allow(clippy::too_many_arguments)] // one per field of the document
    pub fn new(
        bytes: u64,
        bits: u64,
        ber: f64,
        p_error: f64,
        joint: JointEstimate,
        independence_product: Option<f64>,
        all_checks_product: Option<f64>,
        checks: Vec<StackCheck>,
        terms: Vec<StackTerm>,
    ) -> Self {
        let ratio = match (joint.estimate, independence_product) {
            (Some(j), Some(x)) if x > 0.0 && p_error > 0.0 => Some(j / p_error / x),
            _ => None,
        };
        StackPoint {
            bytes,
            bits,
            ber,
            p_error,
            joint,
            independence_product,
            all_checks_product,
            ratio,
            checks,
            terms,
        }
    }

    /// Joint `P(escape | error)` (`None` without a joint estimate; 0 at BER
    /// 0, its limit, since every escape needs at least two flips).
    pub fn joint_given_error(&self) -> Option<f64> {
        let j = self.joint.estimate?;
        Some(if self.p_error > 0.0 {
            j / self.p_error
        } else {
            0.0
        })
    }
}

/// `alias stack` (kind `stack`): `{"stack", "points": [...]}`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[non_exhaustive]
pub struct Stack {
    /// The stack's name as given, e.g. `"ethernet-tcp"`.
    pub stack: String,
    /// One point per length and BER, length-major.
    pub points: Vec<StackPoint>,
}

impl Stack {
    /// A stack document.
    pub fn new(stack: impl Into<String>, points: Vec<StackPoint>) -> Self {
        Stack {
            stack: stack.into(),
            points,
        }
    }
}

impl Document for Stack {
    const KIND: &'static str = "stack";
}

/// A [`crate::joint::JointPoint`] in JSON, as the library computed it:
/// `ber`, the certified `low` and `high`, the `estimate` (`null` where only
/// the bracket is given), its 95% `interval` as `[low, high]`, `exact`, and
/// the `method` as a snake_case tag (`no_error`, `enumerated`, `sampled`,
/// `crc_alone`, `uniform`, `bracket_only`). The `stack` document's
/// joint estimate is the same value as the command reports it.
impl Serialize for crate::joint::JointPoint {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeStruct;
        let mut st = s.serialize_struct("JointPoint", 7)?;
        st.serialize_field("ber", &self.ber)?;
        st.serialize_field("low", &self.low)?;
        st.serialize_field("high", &self.high)?;
        st.serialize_field("estimate", &self.estimate)?;
        st.serialize_field("interval", &self.interval)?;
        st.serialize_field("exact", &self.exact)?;
        st.serialize_field("method", &self.method)?;
        st.end()
    }
}

/// A [`crate::joint::JointMethod`] in JSON: its snake_case tag.
impl Serialize for crate::joint::JointMethod {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use crate::joint::JointMethod as M;
        s.serialize_str(match self {
            M::NoError => "no_error",
            M::Enumerated => "enumerated",
            M::Sampled => "sampled",
            M::CrcAlone => "crc_alone",
            M::Uniform => "uniform",
            M::BracketOnly => "bracket_only",
        })
    }
}
