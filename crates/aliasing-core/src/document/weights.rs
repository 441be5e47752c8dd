//! The `weights` document: a CRC code's weight distribution at one length.

use super::{CheckInfo, Count, Document};
use serde::{Deserialize, Serialize};

/// `A_w`: codewords of weight `w`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[non_exhaustive]
pub struct WeightCount {
    /// The weight.
    pub w: usize,
    /// Codewords of that weight.
    pub count: Count,
}

/// `B_w`: dual-code words of weight `w`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[non_exhaustive]
pub struct DualWeightCount {
    /// The weight.
    pub w: usize,
    /// Dual-code words of that weight.
    pub count: u64,
}

impl WeightCount {
    /// `A_w = count`.
    pub fn new(w: usize, count: Count) -> Self {
        WeightCount { w, count }
    }
}

impl DualWeightCount {
    /// `B_w = count`.
    pub fn new(w: usize, count: u64) -> Self {
        DualWeightCount { w, count }
    }
}

/// `alias weights` (kind `weights`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[non_exhaustive]
pub struct Weights {
    /// The CRC.
    pub crc: CheckInfo,
    /// Codeword length in bits.
    pub bits: u64,
    /// Data bits (`bits - width`).
    pub data_bits: u64,
    /// `A_w` for `w = 0..` (every weight listed, zeros included).
    pub weights: Vec<WeightCount>,
    /// The non-zero `B_w` (empty unless asked for).
    pub dual: Vec<DualWeightCount>,
}

impl Weights {
    /// A weights document.
    pub fn new(
        crc: CheckInfo,
        bits: u64,
        weights: Vec<WeightCount>,
        dual: Vec<DualWeightCount>,
    ) -> Self {
        Weights {
            data_bits: bits.saturating_sub(u64::from(crc.width)),
            crc,
            bits,
            weights,
            dual,
        }
    }
}

impl Document for Weights {
    const KIND: &'static str = "weights";
}
