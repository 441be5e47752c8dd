//! The `curve` and `bracket` documents: exact `P_ud` of one check per length
//! per BER, and certified bounds for CRCs too wide for an exact method.

use super::Document;
use crate::bsc::CurvePoint;
use crate::channel::GilbertElliott;
use crate::crc::CrcAlgorithm;
use serde::{Deserialize, Serialize};

/// The check a document is about: its name and width, and for a CRC its
/// generator in full and Koopman hex (`null` for checksums).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[non_exhaustive]
pub struct CheckInfo {
    /// Name (RevEng name, alias, or the polynomial as given).
    pub name: String,
    /// Number of check bits.
    #[serde(alias = "check_bits")]
    pub width: u32,
    /// Full generator polynomial, e.g. `"0x104C11DB7"` (CRCs only).
    #[serde(default)]
    pub full: Option<String>,
    /// Koopman notation of the generator (CRCs only).
    #[serde(default)]
    pub koopman: Option<String>,
}

impl CheckInfo {
    /// A check without a generator (a checksum).
    pub fn named(name: impl Into<String>, width: u32) -> Self {
        CheckInfo {
            name: name.into(),
            width,
            full: None,
            koopman: None,
        }
    }
}

impl From<&CrcAlgorithm> for CheckInfo {
    fn from(c: &CrcAlgorithm) -> Self {
        CheckInfo {
            name: c.name().to_string(),
            width: c.generator().width(),
            full: Some(c.generator().full_string()),
            koopman: Some(c.generator().koopman_string()),
        }
    }
}

/// A Gilbert-Elliott burst channel as a curve document records it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[non_exhaustive]
pub struct ChannelInfo {
    /// The channel model, `"gilbert-elliott"`.
    pub model: String,
    /// Bit error rate in the good state.
    pub p_good: f64,
    /// Bit error rate in the bad state.
    pub p_bad: f64,
    /// Probability per bit of moving from good to bad.
    pub good_to_bad: f64,
    /// Probability per bit of moving from bad to good.
    pub bad_to_good: f64,
    /// Long-run fraction of bits in the bad state.
    pub bad_fraction: f64,
    /// Long-run mean bit error rate.
    pub mean_ber: f64,
}

impl From<&GilbertElliott> for ChannelInfo {
    fn from(ge: &GilbertElliott) -> Self {
        ChannelInfo {
            model: "gilbert-elliott".into(),
            p_good: ge.p_good,
            p_bad: ge.p_bad,
            good_to_bad: ge.good_to_bad,
            bad_to_good: ge.bad_to_good,
            bad_fraction: ge.bad_fraction(),
            mean_ber: ge.mean_ber(),
        }
    }
}

/// `alias curve`: the exact curve of one check (kind `curve`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[non_exhaustive]
pub struct Curve {
    /// The check (key `"check"`; documents before schema 1 wrote `"crc"`).
    #[serde(alias = "crc")]
    pub check: CheckInfo,
    /// The exact method used, e.g. `"markov"`.
    pub method: String,
    /// One point per BER and length, BER-major, lengths ascending.
    pub points: Vec<CurvePoint>,
    /// The burst channel, when the curve is for one (`ber` is then its mean BER).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub channel: Option<ChannelInfo>,
}

impl Curve {
    /// A curve document.
    pub fn new(
        check: CheckInfo,
        method: impl Into<String>,
        points: Vec<CurvePoint>,
        channel: Option<ChannelInfo>,
    ) -> Self {
        Curve {
            check,
            method: method.into(),
            points,
            channel,
        }
    }
}

impl Document for Curve {
    const KIND: &'static str = "curve";
}

/// One point of a [`BracketDoc`].
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[non_exhaustive]
pub struct BracketPoint {
    /// Codeword length in bits.
    pub bits: u64,
    /// Bit error rate.
    pub ber: f64,
    /// Minimum distance, or `">=W"` when no codeword of weight up to `W` exists.
    pub hd: String,
    /// Certified lower bound on `P_ud`.
    pub p_undetected_lower: f64,
    /// Certified upper bound on `P_ud`.
    pub p_undetected_upper: f64,
    /// `(upper - lower) / upper`.
    pub relative_width: f64,
    /// Codewords of weight `0..=W`, exact (decimal strings).
    #[serde(with = "super::count::decimal_strings")]
    pub low_weights: Vec<u128>,
}

impl BracketPoint {
    /// The point of a bracket, with its minimum distance as the caller words it.
    pub fn new(x: &crate::bracket::Bracket, hd: String) -> Self {
        BracketPoint {
            bits: x.bits,
            ber: x.ber,
            hd,
            p_undetected_lower: x.lower,
            p_undetected_upper: x.upper,
            relative_width: x.relative_width(),
            low_weights: x.counts.clone(),
        }
    }
}

/// `alias curve` for a CRC over 32 bits: certified bounds (kind `bracket`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[non_exhaustive]
pub struct BracketDoc {
    /// The CRC.
    pub crc: CheckInfo,
    /// `"bracket"`.
    pub method: String,
    /// One point per length and BER.
    pub points: Vec<BracketPoint>,
}

impl BracketDoc {
    /// A bracket document.
    pub fn new(crc: CheckInfo, points: Vec<BracketPoint>) -> Self {
        BracketDoc {
            crc,
            method: "bracket".into(),
            points,
        }
    }
}

impl Document for BracketDoc {
    const KIND: &'static str = "bracket";
}
