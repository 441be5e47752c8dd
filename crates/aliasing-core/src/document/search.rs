//! The `search` document: generators ranked by Hamming distance and exact
//! `P_ud`, with the catalogue's CRCs of the width for reference.

use super::Document;
use crate::search::{Query, Ranked, StageStats, Standing};
use crate::shard::Shard;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// The distance of a generator at one length.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[non_exhaustive]
pub struct HdAt {
    /// Codeword length in bits.
    pub bits: u64,
    /// Hamming distance at that length.
    pub hd: u32,
}

/// The exact `P_ud` of a generator at one length and BER.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[non_exhaustive]
pub struct PudAt {
    /// Codeword length in bits.
    pub bits: u64,
    /// Bit error rate.
    pub ber: f64,
    /// `P_ud`.
    pub p_undetected: f64,
}

/// The distances and `P_ud` of `r` at the query's lengths and BERs.
fn hd_and_points(query: &Query, r: &Ranked) -> (Vec<HdAt>, Vec<PudAt>) {
    let hd = query
        .lengths
        .iter()
        .zip(&r.hd)
        .map(|(&bits, &hd)| HdAt { bits, hd })
        .collect();
    let mut points = Vec::new();
    for (li, &bits) in query.lengths.iter().enumerate() {
        for (bi, &ber) in query.bers.iter().enumerate() {
            points.push(PudAt {
                bits,
                ber,
                p_undetected: r.p_undetected[li][bi],
            });
        }
    }
    (hd, points)
}

/// One ranked generator of a [`Search`].
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[non_exhaustive]
pub struct SearchResult {
    /// Rank, from 1.
    pub rank: u64,
    /// Koopman notation.
    pub koopman: String,
    /// Full notation.
    pub full: String,
    /// The Koopman notation of the listed generator this one is the reciprocal of.
    pub reciprocal_of: Option<String>,
    /// Minimum distance over the lengths.
    pub min_hd: u32,
    /// Distance per length.
    pub hd: Vec<HdAt>,
    /// `P_ud` per length and BER, length-major.
    pub points: Vec<PudAt>,
}

impl SearchResult {
    /// The entry of `r` at `rank`.
    pub fn new(query: &Query, rank: u64, r: &Ranked, reciprocal_of: Option<String>) -> Self {
        let (hd, points) = hd_and_points(query, r);
        SearchResult {
            rank,
            koopman: r.generator.koopman_string(),
            full: r.generator.full_string(),
            reciprocal_of,
            min_hd: r.min_hd,
            hd,
            points,
        }
    }
}

/// A catalogue CRC of the searched width, evaluated like the candidates.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[non_exhaustive]
pub struct SearchCatalogueEntry {
    /// Its catalogue names.
    pub names: String,
    /// Koopman notation.
    pub koopman: String,
    /// Full notation.
    pub full: String,
    /// Minimum distance over the lengths.
    pub min_hd: u32,
    /// Distance per length.
    pub hd: Vec<HdAt>,
    /// `P_ud` per length and BER, length-major.
    pub points: Vec<PudAt>,
    /// Where it would rank among all generators (exhaustive searches only).
    pub rank: Option<Standing>,
}

impl SearchCatalogueEntry {
    /// The entry of a catalogue CRC.
    pub fn new(query: &Query, names: String, r: &Ranked, rank: Option<Standing>) -> Self {
        let (hd, points) = hd_and_points(query, r);
        SearchCatalogueEntry {
            names,
            koopman: r.generator.koopman_string(),
            full: r.generator.full_string(),
            min_hd: r.min_hd,
            hd,
            points,
            rank,
        }
    }
}

/// Throughput of one stage of a search.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[non_exhaustive]
pub struct SearchStage {
    /// Candidates that went through the stage.
    pub generators: u64,
    /// Wall-clock seconds.
    pub seconds: f64,
    /// Generators per second.
    pub per_second: f64,
}

impl From<&StageStats> for SearchStage {
    fn from(s: &StageStats) -> Self {
        SearchStage {
            generators: s.generators,
            seconds: s.seconds,
            per_second: s.rate(),
        }
    }
}

/// The two stages of a search.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[non_exhaustive]
pub struct SearchStages {
    /// The distance stage.
    pub distance: SearchStage,
    /// The exact `P_ud` stage.
    pub p_undetected: SearchStage,
}

/// `alias search` (kind `search`): `{"width", "objective", "results": [...], ...}`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[non_exhaustive]
pub struct Search {
    /// CRC width searched.
    pub width: u32,
    /// Ranking objective, `"hd"` or `"pud"`.
    pub objective: String,
    /// The candidates, in words.
    pub candidates: String,
    /// The shard, in files `[index, count]`.
    #[serde(with = "crate::shard::as_pair")]
    pub shard: Shard,
    /// Codeword lengths in bits.
    pub lengths: Vec<u64>,
    /// Bit error rates.
    pub bers: Vec<f64>,
    /// Candidates below this minimum distance were dropped.
    pub min_hd: u32,
    /// Candidates examined.
    pub examined: u64,
    /// Candidates per minimum distance.
    pub hd_histogram: BTreeMap<u32, u64>,
    /// Throughput of the stages.
    pub stages: SearchStages,
    /// The ranked generators, best first.
    pub results: Vec<SearchResult>,
    /// The catalogue's CRCs of the width.
    pub catalogue: Vec<SearchCatalogueEntry>,
    /// Notes (e.g. where a lower distance has the lower `P_ud`).
    pub notes: Vec<String>,
}

impl Search {
    /// A search document; `results`, `catalogue` and `notes` start empty.
    pub fn new(
        query: &Query,
        candidates: String,
        shard: Shard,
        examined: u64,
        hd_histogram: BTreeMap<u32, u64>,
        stages: SearchStages,
    ) -> Self {
        Search {
            width: query.width,
            objective: query.objective.name().into(),
            candidates,
            shard,
            lengths: query.lengths.clone(),
            bers: query.bers.clone(),
            min_hd: query.min_hd,
            examined,
            hd_histogram,
            stages,
            results: Vec::new(),
            catalogue: Vec::new(),
            notes: Vec::new(),
        }
    }
}

impl Document for Search {
    const KIND: &'static str = "search";
}

/// `alias search --rank per-length` (kind `search-per-length`): one
/// [`Search`] per length, each ranked as if it were the only length.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[non_exhaustive]
pub struct SearchPerLength {
    /// CRC width searched.
    pub width: u32,
    /// Ranking objective, `"hd"` or `"pud"`.
    pub objective: String,
    /// `"per-length"`.
    pub rank: String,
    /// Codeword lengths in bits, in the order of `per_length`.
    pub lengths: Vec<u64>,
    /// The single-length searches.
    pub per_length: Vec<Search>,
}

impl SearchPerLength {
    /// The per-length document of `query` from its single-length searches.
    pub fn new(query: &Query, per_length: Vec<Search>) -> Self {
        SearchPerLength {
            width: query.width,
            objective: query.objective.name().into(),
            rank: "per-length".into(),
            lengths: query.lengths.clone(),
            per_length,
        }
    }
}

impl Document for SearchPerLength {
    const KIND: &'static str = "search-per-length";
}
