//! The `compare` document: exact curves of several checks over frame lengths.

use super::Document;
use serde::{Deserialize, Serialize};

/// A check of a [`Compare`] document.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[non_exhaustive]
pub struct CompareCheck {
    /// Name of the check.
    pub name: String,
    /// Number of check bits.
    #[serde(alias = "width")]
    pub check_bits: u32,
    /// Whether every point of the check was computed (absent: not recorded).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub exact: Option<bool>,
    /// Why some points are missing.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
}

impl CompareCheck {
    /// A check with its name and width, `exact` and `note` unset.
    pub fn new(name: impl Into<String>, check_bits: u32) -> Self {
        CompareCheck {
            name: name.into(),
            check_bits,
            exact: None,
            note: None,
        }
    }
}

/// One point of a [`Compare`] document.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[non_exhaustive]
pub struct ComparePoint {
    /// Name of the check this point belongs to.
    pub check: String,
    /// Bit error rate.
    pub ber: f64,
    /// Frame length in bytes (absent where lengths are in bits only).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub bytes: Option<u64>,
    /// Frame length in bits.
    pub bits: u64,
    /// P(at least one bit flips).
    pub p_error: f64,
    /// P(undetected error).
    pub p_undetected: f64,
    /// `p_undetected / p_error`.
    pub p_alias_given_error: f64,
}

impl ComparePoint {
    /// The point of `check` for a curve point, with its length in bytes if known.
    pub fn new(check: impl Into<String>, pt: &crate::bsc::CurvePoint, bytes: Option<u64>) -> Self {
        ComparePoint {
            check: check.into(),
            ber: pt.ber,
            bytes,
            bits: pt.bits,
            p_error: pt.p_error,
            p_undetected: pt.p_undetected,
            p_alias_given_error: pt.p_alias_given_error,
        }
    }
}

/// `alias compare`: one exact curve per check (kind `compare`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[non_exhaustive]
pub struct Compare {
    /// `"random"` or `"payload"` (absent: not recorded).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub data: Option<String>,
    /// The checks compared.
    #[serde(default)]
    pub checks: Vec<CompareCheck>,
    /// The points, one per (check, BER, length).
    pub points: Vec<ComparePoint>,
}

impl Compare {
    /// A comparison document.
    pub fn new(data: Option<String>, checks: Vec<CompareCheck>, points: Vec<ComparePoint>) -> Self {
        Compare {
            data,
            checks,
            points,
        }
    }
}

impl Document for Compare {
    const KIND: &'static str = "compare";
}
