//! Which generator should I use? A search over CRC generators of one width,
//! ranked by Hamming distance at the user's lengths and then by the exact
//! probability of an undetected error at the user's bit error rates.
//!
//! The candidates are every generator of width `r` with the `+1` term
//! (`2^(r-1)` of them, exhaustive), a list, or a seeded random sample
//! ([`Space`]). The work is split by candidate index only, so a shard
//! ([`Shard`], its contiguous [`Shard::range`]) is a pure function of the query and its index range, and the
//! merged shards ([`Partial::merge`]) equal the unsharded run bit for bit.
//!
//! Stages, cheapest first:
//! 1. **distance**: the minimum distance at every length
//!    (by syndromes); candidates below `min_hd` drop out;
//! 2. **P_ud**: exact `P_ud` at every (length, BER) by the dual code's weights
//!    ([`crate::dual::dual_weights`], `O(2^r)` a length, widths up to 32) and
//!    the high-precision MacWilliams sum ([`crate::highprec::p_undetected`]).
//!    With [`Objective::Hd`] only the best distance classes needed to fill
//!    the top `K` are evaluated, each class in full, so the top `K` is exact.
//!    Of a reciprocal pair only one is evaluated: the reversed code has the
//!    same weight distribution, so the same `P_ud` (tested by evaluating
//!    both independently).
//!
//! Ranking ([`Ranked::cmp_key`]): [`Objective::Hd`] orders by the minimum
//! distance over the lengths (the distance at the longest), then by the
//! score; [`Objective::Pud`] by the score alone. The score is the worst
//! case over the lengths of `P_ud` at each BER, compared BER by BER in the
//! order given (the first BER decides, later ones break ties). Remaining
//! ties (reciprocal pairs tie exactly: the reversed code has the same weight
//! distribution) are ordered by Koopman value.
//!
//! ```
//! use aliasing_core::search::{self, Objective, Query, Space};
//! use aliasing_core::shard::Shard;
//! let q = Query::new(5, vec![5 + 10], vec![1e-3], 0, 3, Objective::Hd).unwrap();
//! let ctx = aliasing_core::ctx::Ctx::default();
//! let part = search::run(&q, &Space::All, Shard::WHOLE, &ctx).unwrap();
//! let best = &part.results[0];
//! assert_eq!(best.min_hd, 4); // HD 4 at 10 data bits needs (x+1) p(x), p primitive
//! ```

pub(crate) mod distance;

use crate::ctx::Ctx;
use crate::error::{Error, Limit, Result};
use crate::poly::Generator;
use crate::progress::{Progress, Silent};
use crate::shard::Shard;
use crate::units::MemoryBudget;
use crate::{bsc, dual, highprec};
use rayon::prelude::*;
use serde::{Deserialize, Serialize};
use std::cmp::Ordering;
use std::collections::BTreeMap;
use std::time::Instant;

/// Widest generator the search ranks (the `P_ud` stage uses the dual code).
pub(crate) const MAX_WIDTH: u32 = 32;

/// What the ranking optimises.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "clap", derive(clap::ValueEnum))]
#[serde(rename_all = "lowercase")]
#[non_exhaustive]
pub enum Objective {
    /// Highest minimum distance first, then lowest `P_ud`.
    Hd,
    /// Lowest `P_ud` (worst case over the lengths), distance ignored.
    Pud,
}

impl Objective {
    /// `hd` or `pud`.
    pub fn name(self) -> &'static str {
        match self {
            Objective::Hd => "hd",
            Objective::Pud => "pud",
        }
    }
}

/// A search request, validated when built ([`Query::new`]; one read from
/// a file is validated where it is used).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[non_exhaustive]
pub struct Query {
    /// CRC width `r` (2 to 32).
    pub width: u32,
    /// Codeword lengths in bits, check bits included, each above `width`,
    /// strictly increasing.
    pub lengths: Vec<u64>,
    /// Bit error rates in `(0, 0.5]`.
    pub bers: Vec<f64>,
    /// Candidates with a lower minimum distance are dropped (0: none).
    pub min_hd: u32,
    /// How many results to keep (0: all survivors).
    pub top: usize,
    /// Ranking.
    pub objective: Objective,
}

impl Query {
    /// The search of width `width` ranked at codeword lengths `lengths` (in
    /// bits, check bits included) and bit error rates `bers`, dropping
    /// candidates of minimum distance below `min_hd`, keeping the `top`
    /// results (0: all), ranked by `objective`; refused as
    /// [`Query::validate`] refuses.
    ///
    /// ```
    /// use aliasing_core::search::{Objective, Query};
    /// let q = Query::new(16, vec![64, 1024], vec![1e-5], 0, 10, Objective::Hd).unwrap();
    /// assert_eq!(q.lengths, [64, 1024]);
    /// // a length not longer than the check bits
    /// assert!(Query::new(16, vec![16], vec![1e-5], 0, 10, Objective::Hd).is_err());
    /// ```
    pub fn new(
        width: u32,
        lengths: Vec<u64>,
        bers: Vec<f64>,
        min_hd: u32,
        top: usize,
        objective: Objective,
    ) -> Result<Query> {
        let q = Query {
            width,
            lengths,
            bers,
            min_hd,
            top,
            objective,
        };
        q.validate()?;
        Ok(q)
    }

    /// Checks the request; every error names the problem.
    pub fn validate(&self) -> Result<()> {
        if !(2..=MAX_WIDTH).contains(&self.width) {
            return Err(Error::Limit(Limit::SearchWidth {
                width: self.width,
                max: MAX_WIDTH,
            }));
        }
        if self.lengths.is_empty() {
            return Err(Error::BadLength("no lengths given".into()));
        }
        if self.lengths.windows(2).any(|w| w[0] >= w[1]) {
            return Err(Error::BadLength(
                "the search's lengths must be strictly increasing".into(),
            ));
        }
        for &n in &self.lengths {
            if n <= self.width as u64 {
                return Err(Error::BadLength(format!(
                    "{n} bits is not longer than the {} check bits",
                    self.width
                )));
            }
            if n > distance::MAX_LENGTH {
                return Err(Error::BadLength(format!(
                    "{n} bits is over the search's limit of {}",
                    distance::MAX_LENGTH
                )));
            }
        }
        if self.bers.is_empty() {
            return Err(Error::BadBer("(none given)".into()));
        }
        for &p in &self.bers {
            bsc::check_ber(p)?;
            if p == 0.0 || p > 0.5 {
                return Err(Error::Limit(Limit::SearchBer { ber: p }));
            }
        }
        Ok(())
    }
}

/// The candidate generators, in a fixed order (index `0..len`). The width
/// is the [`Query`]'s alone: [`Space::All`] states none, and a
/// [`Space::List`] of another width is refused by [`run`].
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub enum Space {
    /// Every generator of the query's width with the `+1` term: index `i`
    /// is the normal form `2i + 1`.
    All,
    /// An explicit list (a candidates file, or [`Space::sample`]).
    List(Vec<Generator>),
}

impl Space {
    /// Number of candidates for a query of `width` bits.
    pub fn len(&self, width: u32) -> u64 {
        match self {
            Space::All => 1u64 << (width - 1),
            Space::List(v) => v.len() as u64,
        }
    }

    /// `true` when there are no candidates for a query of `width` bits.
    pub fn is_empty(&self, width: u32) -> bool {
        self.len(width) == 0
    }

    /// Candidate `i` for a query of `width` bits.
    pub fn get(&self, width: u32, i: u64) -> Generator {
        match self {
            Space::All => Generator::new(width, 2 * i + 1).expect("odd normal form"),
            Space::List(v) => v[i as usize],
        }
    }

    /// `count` distinct generators of `width` drawn uniformly from all
    /// `2^(width-1)` with the `+1` term by xoshiro256++ seeded with `seed`,
    /// sorted by normal form: the same list for the same arguments on
    /// every machine.
    pub fn sample(width: u32, count: u64, seed: u64) -> Result<Space> {
        use rand_xoshiro::rand_core::{Rng, SeedableRng};
        if !(2..=64).contains(&width) {
            return Err(Error::Invalid(format!("width {width} is outside 2 to 64")));
        }
        let all = 1u64 << (width - 1);
        if count == 0 || count > all || count > 1 << 26 {
            return Err(Error::Invalid(format!(
                "a sample of {count} generators of width {width} is outside 1 to {}",
                all.min(1 << 26)
            )));
        }
        let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(seed);
        let mut set = std::collections::BTreeSet::new();
        while (set.len() as u64) < count {
            // `all` is a power of two: masking is uniform
            let i = rng.next_u64() & (all - 1);
            set.insert(2 * i + 1);
        }
        Ok(Space::List(
            set.into_iter()
                .map(|n| Generator::new(width, n).expect("odd normal form"))
                .collect(),
        ))
    }
}

/// One ranked generator.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[non_exhaustive]
pub struct Ranked {
    /// The generator (in files: its full notation, `0x11021`).
    #[serde(with = "full_notation")]
    pub generator: Generator,
    /// Minimum distance at each length of the query, in its order.
    pub hd: Vec<u32>,
    /// The least of `hd` (the distance at the longest length).
    pub min_hd: u32,
    /// `p_undetected[length][ber]`, query order; empty until evaluated.
    pub p_undetected: Vec<Vec<f64>>,
}

impl Ranked {
    /// Worst case over the lengths of `P_ud` at BER index `b`.
    pub fn worst(&self, b: usize) -> f64 {
        self.p_undetected
            .iter()
            .map(|row| row[b])
            .fold(0.0, f64::max)
    }

    /// The distance class: the distances from the longest length to the
    /// shortest (compared lexicographically, higher is better).
    pub fn class(&self) -> Vec<u32> {
        self.hd.iter().rev().copied().collect()
    }

    fn cmp_class(&self, other: &Self) -> Ordering {
        other.hd.iter().rev().cmp(self.hd.iter().rev())
    }

    fn cmp_score(&self, other: &Self) -> Ordering {
        let bers = self.p_undetected.first().map_or(0, Vec::len);
        for b in 0..bers {
            match self.worst(b).total_cmp(&other.worst(b)) {
                Ordering::Equal => continue,
                o => return o,
            }
        }
        Ordering::Equal
    }

    /// The ranking order (best first; see the module documentation).
    pub fn cmp_key(&self, other: &Self, objective: Objective) -> Ordering {
        let hd = self.cmp_class(other);
        let first = match objective {
            Objective::Hd => hd.then_with(|| self.cmp_score(other)),
            Objective::Pud => self.cmp_score(other).then(hd),
        };
        first.then_with(|| self.generator.koopman().cmp(&other.generator.koopman()))
    }
}

/// Time and count of one stage.
#[derive(Debug, Clone, Copy, Default, PartialEq, Serialize, Deserialize)]
#[non_exhaustive]
#[doc(hidden)] // internal: reached through `crate::__private`
pub struct StageStats {
    /// Candidates that went through the stage.
    pub generators: u64,
    /// Wall-clock seconds the stage took.
    pub seconds: f64,
}

impl StageStats {
    /// Generators per second (0 when nothing was timed).
    pub fn rate(&self) -> f64 {
        if self.seconds > 0.0 {
            self.generators as f64 / self.seconds
        } else {
            0.0
        }
    }
}

/// The result of a search over one shard (or, merged, over all of them).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[non_exhaustive]
pub struct Partial {
    /// The top results of the shard, best first, all evaluated.
    pub results: Vec<Ranked>,
    /// How many candidates had each minimum distance (before `min_hd`).
    pub hd_histogram: BTreeMap<u32, u64>,
    /// How many candidates had each distance class ([`Ranked::class`]),
    /// best class first (before `min_hd`).
    pub classes: Vec<(Vec<u32>, u64)>,
    /// Candidates examined.
    pub examined: u64,
    /// The distance stage.
    pub distance_stage: StageStats,
    /// The `P_ud` stage.
    pub pud_stage: StageStats,
}

impl Partial {
    /// Combines shard results of the same query: concatenation, the
    /// ranking's sort, the top `K` (identical to the unsharded run).
    pub fn merge(query: &Query, parts: Vec<Partial>) -> Partial {
        Partial::merge_ranked(query.objective, query.top, parts)
    }

    /// [`Partial::merge`] by what it takes of the query: the ranking
    /// `objective` and the `top` results kept (0: all). No parts give the
    /// empty result. Merging in steps gives the same result as at once
    /// (the top `K` of the top `K` of some parts and the rest is the top
    /// `K` of all), the stage timings aside (sums of seconds).
    pub fn merge_ranked(objective: Objective, top: usize, parts: Vec<Partial>) -> Partial {
        let mut out = Partial {
            results: Vec::new(),
            hd_histogram: BTreeMap::new(),
            classes: Vec::new(),
            examined: 0,
            distance_stage: StageStats::default(),
            pud_stage: StageStats::default(),
        };
        for p in parts {
            out.results.extend(p.results);
            for (h, c) in p.hd_histogram {
                *out.hd_histogram.entry(h).or_default() += c;
            }
            let mut classes: BTreeMap<Vec<u32>, u64> = out.classes.drain(..).collect();
            for (k, c) in p.classes {
                *classes.entry(k).or_default() += c;
            }
            out.classes = classes.into_iter().rev().collect();
            out.examined += p.examined;
            for (a, b) in [
                (&mut out.distance_stage, p.distance_stage),
                (&mut out.pud_stage, p.pud_stage),
            ] {
                a.generators += b.generators;
                a.seconds += b.seconds;
            }
        }
        out.results.sort_by(|a, b| a.cmp_key(b, objective));
        if top > 0 {
            out.results.truncate(top);
        }
        out
    }
}

/// Exact `P_ud[length][ber]` of `g` at the query's lengths and BERs, by the
/// dual code's weight distribution and the high-precision MacWilliams sum,
/// held to the context's memory budget.
#[doc(hidden)] // internal: reached through `crate::__private`
pub fn p_undetected(
    g: &Generator,
    lengths: &[u64],
    bers: &[f64],
    ctx: &Ctx,
) -> Result<Vec<Vec<f64>>> {
    pud_in(g, lengths, bers, ctx.budget())
}

/// [`p_undetected`] held to `budget` (unwatched: a search reports one unit
/// per candidate, not the dual pass's windows).
fn pud_in(
    g: &Generator,
    lengths: &[u64],
    bers: &[f64],
    budget: MemoryBudget,
) -> Result<Vec<Vec<f64>>> {
    let duals = dual::dual_weights_with(g, lengths, budget, &Silent)?;
    duals
        .iter()
        .map(|d| bers.iter().map(|&p| highprec::p_undetected(d, p)).collect())
        .collect()
}

/// Evaluates one candidate completely: distances and `P_ud` (held to the
/// context's memory budget).
pub fn evaluate(g: &Generator, query: &Query, ctx: &Ctx) -> Result<Ranked> {
    let hd = distance::min_distances(g, &query.lengths)?;
    let min_hd = *hd.iter().min().expect("lengths non-empty");
    Ok(Ranked {
        generator: *g,
        hd,
        min_hd,
        p_undetected: p_undetected(g, &query.lengths, &query.bers, ctx)?,
    })
}

/// The distance stage alone over the shard's part of `space`: every
/// candidate with its minimum distances (unevaluated `P_ud`), in index
/// order, and the stage's time.
pub(crate) fn distance_stage(
    query: &Query,
    space: &Space,
    shard: Shard,
    progress: &dyn Progress,
) -> Result<(Vec<Ranked>, StageStats)> {
    query.validate()?;
    if let Space::List(v) = space
        && let Some(g) = v.iter().find(|g| g.width() != query.width)
    {
        return Err(Error::Invalid(format!(
            "candidate {} has width {}, not {}",
            g.full_string(),
            g.width(),
            query.width
        )));
    }
    let range = shard.range(space.len(query.width));
    progress.stage("distance", range.end - range.start);
    let t0 = Instant::now();
    const BLOCK: u64 = 256;
    let blocks: Vec<u64> = (range.start..range.end).step_by(BLOCK as usize).collect();
    let staged: Vec<Result<Vec<Ranked>>> = blocks
        .par_iter()
        .map(|&b| {
            let end = (b + BLOCK).min(range.end);
            let mut out = Vec::new();
            for i in b..end {
                let g = space.get(query.width, i);
                let hd = distance::min_distances(&g, &query.lengths)?;
                let min_hd = *hd.iter().min().expect("lengths non-empty");
                out.push(Ranked {
                    generator: g,
                    hd,
                    min_hd,
                    p_undetected: Vec::new(),
                });
            }
            progress.advance(end - b);
            Ok(out)
        })
        .collect();
    let mut all = Vec::with_capacity((range.end - range.start) as usize);
    for s in staged {
        all.extend(s?);
    }
    let stats = StageStats {
        generators: all.len() as u64,
        seconds: t0.elapsed().as_secs_f64(),
    };
    Ok((all, stats))
}

/// Candidates the estimate of [`estimate_seconds`] times at most.
const PILOT: u64 = 256;

/// Candidates below which [`estimate_seconds`] gives no estimate.
const PILOT_MIN: u64 = 1024;

/// An estimate, in seconds of wall-clock time on every core, of [`run`]
/// over the shard's part of `space`, for announcing a long search before
/// it starts: the distance stage of a strided sample of the candidates (at
/// most 256, never more than a sixteenth of them) is timed and scaled to
/// all of them, and the `P_ud` of the sample's best candidate is timed and
/// scaled to the candidates that need it (every survivor for [`Objective::Pud`] or
/// `top` 0, else `top`). A measured cost model, not a bound; `NaN` where
/// the shard has under 1024 candidates (there the pilot's own `P_ud` would
/// be a tenth or more of the work, done twice).
pub(crate) fn estimate_seconds(
    query: &Query,
    space: &Space,
    shard: Shard,
    budget: MemoryBudget,
) -> Result<f64> {
    query.validate()?;
    let range = shard.range(space.len(query.width));
    let n = range.end - range.start;
    // a smaller space is left unannounced: its pilot's P_ud would be a
    // tenth or more of the search's own P_ud stage, done twice
    if n < PILOT_MIN {
        return Ok(f64::NAN);
    }
    let take = (n / 16).min(PILOT);
    let stride = n / take;
    let picked: Vec<u64> = (0..take).map(|k| range.start + k * stride).collect();
    let t0 = Instant::now();
    let sampled: Vec<(u32, Generator)> = picked
        .par_iter()
        .map(|&i| {
            let g = space.get(query.width, i);
            let hd = distance::min_distances(&g, &query.lengths)?;
            Ok((hd.into_iter().min().unwrap_or(0), g))
        })
        .collect::<Result<_>>()?;
    let distance = t0.elapsed().as_secs_f64() * n as f64 / take as f64;
    // P_ud is timed on a candidate such as the ranking keeps (the best
    // distance of the sample; degenerate ones can be far slower)
    let best = sampled.iter().max_by_key(|(hd, _)| *hd).expect("sampled").1;
    let t1 = Instant::now();
    pud_in(&best, &query.lengths, &query.bers, budget)?;
    let one = t1.elapsed().as_secs_f64();
    let needing = match query.objective {
        Objective::Hd if query.top > 0 => (query.top as u64).min(n),
        _ => n,
    } as f64;
    let threads = rayon::current_num_threads() as f64;
    Ok(distance + one * needing / threads.min(needing))
}

/// How many candidates of the shard have each minimum distance (the
/// distance stage only): the best distance reachable at the lengths.
#[doc(hidden)] // internal: reached through `crate::__private`
pub fn hd_histogram(query: &Query, space: &Space, shard: Shard) -> Result<BTreeMap<u32, u64>> {
    let (all, _) = distance_stage(query, space, shard, &Silent)?;
    let mut h = BTreeMap::new();
    for c in &all {
        *h.entry(c.min_hd).or_default() += 1;
    }
    Ok(h)
}

/// Runs the search over the shard's part of `space` in `ctx`: `P_ud` held
/// to its memory budget, watched by its progress (the stage `"distance"`
/// over every candidate of the shard, then `"P_ud"` over the survivors
/// needed, one unit per candidate). The parallel work runs on the threads
/// of the caller (see [`Ctx::install`]); the context's team is not used
/// here ([`crate::job::SearchJob`] shares a search among a team).
pub fn run(query: &Query, space: &Space, shard: Shard, ctx: &Ctx) -> Result<Partial> {
    let (budget, progress) = (ctx.budget(), ctx.progress());
    let (mut all, distance_stage) = distance_stage(query, space, shard, progress)?;
    let mut hd_histogram = BTreeMap::new();
    let mut classes: BTreeMap<Vec<u32>, u64> = BTreeMap::new();
    for c in &all {
        *hd_histogram.entry(c.min_hd).or_default() += 1;
        *classes.entry(c.class()).or_default() += 1;
    }
    let classes: Vec<(Vec<u32>, u64)> = classes.into_iter().rev().collect();
    let examined = all.len() as u64;
    all.retain(|c| c.min_hd >= query.min_hd);
    // which candidates need P_ud
    let mut todo: Vec<Ranked> = match query.objective {
        Objective::Pud => all,
        Objective::Hd => {
            all.sort_by(|a, b| a.cmp_class(b));
            let mut keep = 0;
            while keep < all.len() {
                if query.top > 0 && keep >= query.top {
                    break;
                }
                let h = all[keep].class();
                while keep < all.len() && all[keep].class() == h {
                    keep += 1;
                }
            }
            all.truncate(keep);
            all
        }
    };
    // A generator and its reciprocal have the same weight distribution at
    // every length (the code read backwards), so the same P_ud: evaluate
    // the smaller of each pair present and copy it to the other.
    let present: std::collections::HashSet<Generator> = todo.iter().map(|c| c.generator).collect();
    let is_copy = |g: &Generator| {
        let rec = g.reciprocal();
        rec < *g && present.contains(&rec)
    };
    let unique = todo.iter().filter(|c| !is_copy(&c.generator)).count();
    progress.stage("P_ud", unique as u64);
    let t1 = Instant::now();
    let evaluated: Vec<Result<()>> = todo
        .par_iter_mut()
        .filter(|c| !is_copy(&c.generator))
        .map(|c| {
            c.p_undetected = pud_in(&c.generator, &query.lengths, &query.bers, budget)?;
            progress.advance(1);
            Ok(())
        })
        .collect();
    for e in evaluated {
        e?;
    }
    let values: std::collections::HashMap<Generator, Vec<Vec<f64>>> = todo
        .iter()
        .filter(|c| !c.p_undetected.is_empty())
        .map(|c| (c.generator, c.p_undetected.clone()))
        .collect();
    for c in todo.iter_mut().filter(|c| c.p_undetected.is_empty()) {
        c.p_undetected = values[&c.generator.reciprocal()].clone();
    }
    let pud_stage = StageStats {
        generators: unique as u64,
        seconds: t1.elapsed().as_secs_f64(),
    };
    todo.sort_by(|a, b| a.cmp_key(b, query.objective));
    if query.top > 0 {
        todo.truncate(query.top);
    }
    Ok(Partial {
        results: todo,
        hd_histogram,
        classes,
        examined,
        distance_stage,
        pud_stage,
    })
}

/// For each result, the index of an earlier result that is its reciprocal
/// (the same code read backwards, so the same distances and `P_ud`).
#[doc(hidden)] // internal: reached through `crate::__private`
pub fn reciprocal_of(results: &[Ranked]) -> Vec<Option<usize>> {
    results
        .iter()
        .enumerate()
        .map(|(i, r)| {
            let rec = r.generator.reciprocal();
            if rec == r.generator {
                return None;
            }
            results[..i].iter().position(|o| o.generator == rec)
        })
        .collect()
}

/// Where a generator stands among all candidates of an exhaustive search:
/// ranks `best..=worst` (1-based), equal when known exactly.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[non_exhaustive]
pub struct Standing {
    /// Best possible rank.
    pub best: u64,
    /// Worst possible rank.
    pub worst: u64,
}

/// The standing of an evaluated candidate `c` against a merged exhaustive
/// search with [`Objective::Hd`]: candidates of a better distance class rank
/// above it; within its class the rank is exact when it is among the
/// results or its class was evaluated in full, else a range.
pub(crate) fn standing(c: &Ranked, part: &Partial) -> Standing {
    if let Some(i) = part.results.iter().position(|r| r.generator == c.generator) {
        let i = i as u64 + 1;
        return Standing { best: i, worst: i };
    }
    let key = c.class();
    let above: u64 = part
        .classes
        .iter()
        .filter(|(k, _)| *k > key)
        .map(|(_, n)| n)
        .sum();
    let class = part
        .classes
        .iter()
        .find(|(k, _)| *k == key)
        .map_or(0, |(_, n)| *n);
    let listed: Vec<&Ranked> = part.results.iter().filter(|r| r.class() == key).collect();
    let better = listed
        .iter()
        .filter(|r| r.cmp_key(c, Objective::Hd) == Ordering::Less)
        .count() as u64;
    let complete = listed.len() as u64 == class;
    Standing {
        best: above + better + 1,
        worst: if complete {
            above + better + 1
        } else {
            above + class.max(1)
        },
    }
}

/// Serde for [`Generator`] as its full notation.
mod full_notation {
    use crate::poly::Generator;
    use serde::{Deserialize, Deserializer, Serializer, de::Error};

    pub fn serialize<S: Serializer>(g: &Generator, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&g.full_string())
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Generator, D::Error> {
        let t = String::deserialize(d)?;
        t.parse().map_err(D::Error::custom)
    }
}

#[cfg(feature = "unit-tests")]
#[doc(hidden)]
pub mod tests;
