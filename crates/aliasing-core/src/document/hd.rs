//! The `hd` document: a CRC's Hamming-distance profile and burst guarantees.

use super::{CheckInfo, Document};
use crate::burst::BurstRow;
use serde::{Deserialize, Serialize};

/// One row of an [`Hd`] document: the longest data length with a distance,
/// and a codeword of the next weight that ends it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[non_exhaustive]
pub struct HdExample {
    /// Hamming distance.
    pub hd: u32,
    /// Longest data length (bits) with this distance.
    pub max_data_bits: u64,
    /// Codeword bits of the example pattern (`max_data_bits + 1 + r`):
    /// 2^64 for a primitive generator of width 64, hence a `u128`
    /// (in JSON a number up to `u64::MAX`, a decimal string above).
    #[serde(with = "super::wide")]
    pub pattern_bits: u128,
    /// Weight of the example pattern.
    pub pattern_weight: usize,
    /// Bit positions of the example pattern.
    pub positions: Vec<u64>,
}

impl HdExample {
    /// The row of an HD profile entry of a CRC of width `r`.
    pub fn new(e: &crate::lowweight::HdEntry, r: u32) -> Self {
        HdExample {
            hd: e.hd,
            max_data_bits: e.max_data_bits,
            pattern_bits: u128::from(e.max_data_bits) + 1 + u128::from(r),
            pattern_weight: e.example.len(),
            positions: e.example.clone(),
        }
    }
}

/// `alias hd` (kind `hd`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[non_exhaustive]
pub struct Hd {
    /// The CRC.
    pub crc: CheckInfo,
    /// Longest data length per distance, distance 3 first (Koopman's profile).
    pub profile: Vec<u64>,
    /// One example codeword per distance.
    pub examples: Vec<HdExample>,
    /// The burst profile.
    pub bursts: Vec<BurstRow>,
    /// Codeword bits the profile was searched to (`alias hd --max-bits`);
    /// absent for a complete profile.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub searched_to_bits: Option<u64>,
    /// With [`Hd::searched_to_bits`]: the distance known to hold up to that
    /// length but not searched past it (`null` when every HD ended inside).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub hd_at_least: Option<Option<u32>>,
    /// Where a search within a budget of hash probes stopped: the HDs below
    /// `searched_hd` are the profile (exact), HD `>= hd_at_least` holds at
    /// every length up to `clear_to_bits` codeword bits, higher HDs were not
    /// searched. Absent for a complete profile.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub stopped: Option<crate::lowweight::HdStop>,
}

impl Hd {
    /// The document of an HD profile and a burst profile.
    pub fn new(crc: CheckInfo, prof: &crate::lowweight::HdProfile, bursts: Vec<BurstRow>) -> Self {
        let r = crc.width;
        Hd {
            crc,
            profile: prof.entries.iter().map(|e| e.max_data_bits).collect(),
            examples: prof.entries.iter().map(|e| HdExample::new(e, r)).collect(),
            bursts,
            searched_to_bits: None,
            hd_at_least: None,
            stopped: None,
        }
    }

    /// The profile was searched only up to `bits` codeword bits; `open` is
    /// the distance that holds up to there and was not searched further.
    pub fn searched_to(mut self, bits: u64, open: Option<u32>) -> Self {
        self.searched_to_bits = Some(bits);
        self.hd_at_least = Some(open);
        self
    }

    /// The search stopped where `stop` says (the field `stopped`).
    pub fn with_stop(mut self, stop: Option<crate::lowweight::HdStop>) -> Self {
        self.stopped = stop;
        self
    }
}

impl Document for Hd {
    const KIND: &'static str = "hd";
}
