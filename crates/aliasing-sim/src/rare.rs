//! Rare events: stratified, conditional sampling of CRC escapes on a BSC.
//!
//! `P_ud = sum_k P(K = k) P(escape | k)` with `K ~ Binomial(n, p)` the number
//! of errors in a frame; the weights are exact. Within stratum `k`, a
//! uniformly random `k`-set is a random `(k-1)`-set `A` plus one of the
//! `n - k + 1` remaining positions, so
//! `P(escape | k) = E[#{m not in A : S(A + m) = 0 and the other checks pass} / (n - k + 1)]`.
//! The CRC part is a lookup: `m` must have syndrome `S(A)`. Where the stack
//! is one CRC plus Internet checksums (`ethernet-tcp`), each codeword found
//! counts with the exact probability over the payload that every checksum
//! passes (`aliasing_core::joint::JointModel::pass_count`, in units of
//! `1 / PASS_SCALE`), not with one random payload's verdict
//! (Rao-Blackwellisation: same mean, never more variance, and joint escapes
//! at 1e-20 become visible); otherwise, and for patterns of more than 16
//! random bits, the other checks are evaluated on the whole pattern by the
//! sparse engine with a fresh random payload. With those exact pass
//! probabilities, the strata `k <= 5` are exact too where the codewords can
//! be listed (`JointModel::exact_term`: `P(stack escape | k) = S_k / C(n, k)`),
//! so only the far smaller strata above them are sampled. Samples go first to a pilot of every stratum,
//! then to strata in proportion to weight times standard deviation (Neyman).
//! Strata beyond `k_max` are left out; their whole mass `P(K > k_max)` is
//! reported and added to the upper end of the interval. Intervals are normal
//! (estimate +- 1.96 standard errors), which suits the many-hit regime this
//! method is for; a sampled stratum that saw no hit adds a one-sided bound
//! to the upper end instead (a zero sample variance proves nothing).
//!
//! Streams: sample chunk `c` of stratum `k` draws from `(seed, c, 1000 + k)`,
//! so the result depends on the seed and parameters only.

use crate::channel::Channel;
use crate::interval::{binom_upper_tail, ln_binom_pmf};
use crate::run::Plan;
use crate::sparse::Sparse;
use crate::stream::{below, chunk_rng, mix64};
use aliasing_core::__private::joint::{JointModel, PASS_SCALE};
use aliasing_core::{Error, Limit, Result};
use rand_xoshiro::rand_core::Rng;
use rayon::prelude::*;
use serde::{Deserialize, Serialize};

/// Samples per chunk of a stratum.
const CHUNK: u64 = 1 << 16;

/// One stratum's result.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[non_exhaustive]
pub struct Stratum {
    /// Number of errors in the frame.
    pub k: u64,
    /// `P(K = k)`.
    pub weight: f64,
    /// Conditional samples drawn.
    pub samples: u64,
    /// Estimate of `P(CRC escape | k)`.
    pub crc: f64,
    /// Estimate of `P(stack escape | k)`.
    pub stack: f64,
    /// Standard error of `stack` (of `crc` when `crc_se` is wanted, see below).
    pub stack_se: f64,
    /// Standard error of `crc`.
    pub crc_se: f64,
}

/// An estimate with its standard error and 95% interval.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[non_exhaustive]
pub struct RareEstimate {
    /// Estimate of the probability per frame.
    pub rate: f64,
    /// Standard error.
    pub std_err: f64,
    /// `std_err / rate`.
    pub rel_std_err: f64,
    /// Lower end of the 95% interval.
    pub ci_low: f64,
    /// Upper end of the 95% interval (truncated strata's mass included).
    pub ci_high: f64,
    /// Exact value, where known.
    pub exact: Option<f64>,
}

/// The result of a rare-event run.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[non_exhaustive]
pub struct RareResult {
    /// Name of the CRC the sampling conditions on.
    pub crc_name: String,
    /// `P(CRC escape)`.
    pub crc: RareEstimate,
    /// `P(every check passes and at least one error)`.
    pub stack: RareEstimate,
    /// Mass of the strata left out, `P(K > k_max)`.
    pub truncation: f64,
    /// Per stratum.
    pub strata: Vec<Stratum>,
}

/// Position lookup by syndrome: open addressing over a power-of-two table.
/// The report of a rare-event run (kind `simulate-rare`): the run's
/// parameters, the samples drawn and the result.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[non_exhaustive]
pub struct RareReport {
    /// Parameters of the run.
    pub params: crate::spec::Params,
    /// `"rare"`.
    pub method: String,
    /// Samples drawn.
    pub samples: u64,
    /// The estimates.
    pub result: RareResult,
}

impl RareReport {
    /// The report of `result`, from `samples` draws of the run `params`.
    pub fn new(params: crate::spec::Params, samples: u64, result: RareResult) -> Self {
        RareReport {
            params,
            method: "rare".into(),
            samples,
            result,
        }
    }
}

impl aliasing_core::document::Document for RareReport {
    const KIND: &'static str = "simulate-rare";
}

#[doc(hidden)]
pub struct Lookup {
    keys: Vec<u64>,
    pos: Vec<u32>,
    /// Chained positions sharing a syndrome: next index or u32::MAX.
    next: Vec<u32>,
    shift: u32,
}

impl Lookup {
    pub(crate) fn new(table: &[u64]) -> Self {
        let bits = (64 - (table.len() as u64 * 2).leading_zeros()).max(4);
        let size = 1usize << bits;
        let mut keys = vec![u64::MAX; size];
        let mut pos = vec![u32::MAX; size];
        let mut next = vec![u32::MAX; table.len()];
        let shift = 64 - bits;
        for (m, &s) in table.iter().enumerate() {
            let mut h = (mix64(s) >> shift) as usize;
            loop {
                if pos[h] == u32::MAX {
                    keys[h] = s;
                    pos[h] = m as u32;
                    break;
                }
                if keys[h] == s {
                    // chain behind the head
                    next[m] = next[pos[h] as usize];
                    next[pos[h] as usize] = m as u32;
                    break;
                }
                h = (h + 1) & (size - 1);
            }
        }
        Lookup {
            keys,
            pos,
            next,
            shift,
        }
    }

    /// Calls `f` for every position with syndrome `s`.
    #[inline]
    pub(crate) fn each(&self, s: u64, mut f: impl FnMut(u32)) {
        let size = self.keys.len();
        let mut h = (mix64(s) >> self.shift) as usize;
        loop {
            let p = self.pos[h];
            if p == u32::MAX {
                return;
            }
            if self.keys[h] == s {
                let mut m = p;
                while m != u32::MAX {
                    f(m);
                    m = self.next[m as usize];
                }
                return;
            }
            h = (h + 1) & (size - 1);
        }
    }
}

/// Integer sums of one stratum's samples: each sample is a count of hits
/// (positions completing a codeword) over the stratum's fixed denominator
/// `n - k + 1`, so the sums are exact and add in any order.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Sums {
    /// Samples.
    pub n: u64,
    /// Sum of the CRC's hits.
    pub crc: u64,
    /// Sum of the squares of the CRC's hits.
    #[serde(with = "crate::shard::wide")]
    pub crc2: u128,
    /// Sum of the stack's hits, in units of `1 / PASS_SCALE` of a hit.
    #[serde(with = "crate::shard::wide")]
    pub stack: u128,
    /// Sum of the squares of the stack's hits (same units, squared).
    #[serde(with = "crate::shard::wide")]
    pub stack2: u128,
}

impl Sums {
    /// The sums of both (saturating: a sum at its type's maximum marks a
    /// run whose sums left their exact range, see [`RareTally::in_range`]).
    fn add(mut self, o: Sums) -> Sums {
        self.n = self.n.saturating_add(o.n);
        self.crc = self.crc.saturating_add(o.crc);
        self.crc2 = self.crc2.saturating_add(o.crc2);
        self.stack = self.stack.saturating_add(o.stack);
        self.stack2 = self.stack2.saturating_add(o.stack2);
        self
    }

    /// Whether a sum reached its type's maximum (it may have been cut there).
    fn saturated(&self) -> bool {
        self.n == u64::MAX
            || self.crc == u64::MAX
            || [self.crc2, self.stack, self.stack2].contains(&u128::MAX)
    }
    /// Means and variances of the samples `hits / denom`.
    fn mean_var(&self, denom: f64) -> (f64, f64, f64, f64) {
        let n = self.n.max(1) as f64;
        let d2 = denom * denom;
        let mc = self.crc as f64 / n / denom;
        let u = PASS_SCALE as f64;
        let ms = self.stack as f64 / u / n / denom;
        let vc = (self.crc2 as f64 / n / d2 - mc * mc).max(0.0) * n / (n - 1.0).max(1.0);
        let vs =
            (self.stack2 as f64 / (u * u) / n / d2 - ms * ms).max(0.0) * n / (n - 1.0).max(1.0);
        (mc, vc, ms, vs)
    }
}

/// The tallies of a rare-event run (or of part of it): one [`Sums`] per
/// stratum `k = 1..=k_max`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct RareTally(pub Vec<Sums>);

impl RareTally {
    /// Refuses, in one line, a tally whose sums left their exact range
    /// (`2^64 - 1` for counts, `2^128 - 1` for the sums of squares: only
    /// for runs of about `2^128 / (n 2^32)^2` samples of frames of `n`
    /// bits with many hits each); a result is computed only from exact sums.
    pub fn in_range(&self) -> Result<()> {
        if self.0.iter().any(Sums::saturated) {
            return Err(Error::Invalid(
                "the rare-event sums passed their exact range (2^64 - 1 hits, 2^128 - 1 for the squares): run fewer samples, or split the study into runs with other seeds".into(),
            ));
        }
        Ok(())
    }
}

impl crate::shard::Tally for RareTally {
    fn empty_like(&self) -> Self {
        RareTally(vec![Sums::default(); self.0.len()])
    }
    /// One entry per stratum, as many as the run has.
    fn fits(&self, other: &Self) -> bool {
        self.0.len() == other.0.len()
    }
    fn add(&mut self, other: &Self) {
        for (a, b) in self.0.iter_mut().zip(&other.0) {
            *a = a.add(*b);
        }
    }
}

struct Ctx<'a> {
    plan: &'a Plan,
    table: Vec<u64>,
    lookup: Lookup,
    sparse: Sparse<'a>,
    n: u64,
    single: bool,
    /// Exact checksum pass probabilities, where the stack allows.
    joint: Option<JointModel>,
}

impl Ctx<'_> {
    fn chunk(&self, k: u64, chunk: u64, count: u64) -> Sums {
        let mut rng = chunk_rng(self.plan.seed, chunk, 1000 + k);
        let n = self.n;
        let mut a: Vec<u32> = Vec::with_capacity(k as usize);
        let mut pattern: Vec<u32> = Vec::with_capacity(k as usize);
        let mut buf = Vec::new();
        let mut s = Sums::default();
        for _ in 0..count {
            // Floyd: k-1 distinct positions
            a.clear();
            let mut syn = 0u64;
            for j in (n - (k - 1))..n {
                let t = below(&mut rng, j + 1) as u32;
                let v = if a.contains(&t) { j as u32 } else { t };
                a.push(v);
                syn ^= self.table[v as usize];
            }
            let frame_index = rng.next_u64();
            let (mut hits, mut stack_hits) = (0u32, 0u128);
            self.lookup.each(syn, |m| {
                if a.contains(&m) {
                    return;
                }
                hits += 1;
                if self.single {
                    stack_hits += PASS_SCALE as u128;
                } else {
                    pattern.clear();
                    pattern.extend_from_slice(&a);
                    pattern.push(m);
                    pattern.sort_unstable();
                    match self.joint.as_ref().and_then(|j| j.pass_count(&pattern)) {
                        Some(c) => stack_hits += c as u128,
                        None => {
                            let pass = self.sparse.verdict(frame_index, &pattern, &mut buf);
                            stack_hits +=
                                (pass == self.sparse.all_pass()) as u128 * PASS_SCALE as u128;
                        }
                    }
                }
            });
            s.n += 1;
            s.crc += hits as u64;
            s.crc2 += (hits as u64 * hits as u64) as u128;
            s.stack += stack_hits;
            s.stack2 += stack_hits * stack_hits;
        }
        s
    }

    /// `P(CRC escape | k)` for `k <= 3` by counting codewords exactly
    /// (`None` when too long to enumerate).
    fn exact_crc(&self, k: u64) -> Option<f64> {
        let n = self.n;
        let t = &self.table;
        match k {
            1 => Some(t.iter().filter(|&&x| x == 0).count() as f64 / n as f64),
            2 => {
                let mut v = t.clone();
                v.sort_unstable();
                let mut pairs = 0u64;
                let mut i = 0;
                while i < v.len() {
                    let j = v[i..].iter().take_while(|&&x| x == v[i]).count();
                    pairs += (j * (j - 1) / 2) as u64;
                    i += j;
                }
                Some(pairs as f64 / (n * (n - 1) / 2) as f64)
            }
            3 if n <= 20_000 => {
                let triples: u64 = (0..n as usize)
                    .into_par_iter()
                    .map(|i| {
                        let mut c = 0u64;
                        for j in i + 1..n as usize {
                            self.lookup
                                .each(t[i] ^ t[j], |m| c += (m as usize > j) as u64);
                        }
                        c
                    })
                    .sum();
                let total = n as f64 * (n - 1) as f64 * (n - 2) as f64 / 6.0;
                Some(triples as f64 / total)
            }
            _ => None,
        }
    }
}

/// One stratum of the work: its weight, and either an exact value (no
/// sampling) or the number of samples it gets.
#[derive(Debug, Clone, PartialEq)]
struct StratumPlan {
    weight: f64,
    /// Exact `(P(CRC escape | k), P(stack escape | k))`.
    exact: Option<(f64, f64)>,
    samples: u64,
}

/// A rare-event run cut into work items fixed by the parameters: strata
/// `k = 1..=k_max` from the BER and the CRC, samples per stratum from the
/// sample count alone (a share spread evenly, the rest in proportion to the
/// strata's weights), items of at most 65,536 samples of one stratum. Any
/// split of the items (threads, shards, MPI ranks, resume points) adds up to
/// the same integer tallies, hence the same estimate, bit for bit.
pub struct RareWork<'a> {
    ctx: Ctx<'a>,
    crc_name: String,
    strata: Vec<StratumPlan>,
    /// Per item: (k, chunk within the stratum, samples).
    items: Vec<(u64, u64, u64)>,
    truncation: f64,
}

/// Checks that `plan` suits the rare-event method and returns the BER.
fn rare_ber(plan: &Plan) -> Result<f64> {
    plan.validate()?;
    let Channel::Bsc { ber: p } = plan.channel else {
        return Err(Error::Limit(Limit::RareChannel));
    };
    if !(p > 0.0 && p < 1.0) {
        return Err(Error::Limit(Limit::RareBer { ber: p }));
    }
    Ok(p)
}

/// The CRC covering the most bytes of `plan`'s frame (its index) and its
/// syndrome per frame bit in transmission order
/// ([`crate::sparse::crc_wire_table`]).
pub(crate) fn widest_crc(plan: &Plan) -> Result<(usize, Vec<u64>)> {
    let f = &plan.frame;
    let ci = f
        .checks
        .iter()
        .enumerate()
        .filter(|(_, c)| c.crc().is_some())
        .max_by_key(|(_, c)| c.data.1 - c.data.0)
        .map(|(i, _)| i)
        .ok_or(Error::Limit(Limit::RareCrc))?;
    Ok((ci, crate::sparse::crc_wire_table(f, &f.checks[ci])))
}

/// The most samples one rare-event run accepts.
pub const MAX_SAMPLES: u64 = 1_000_000_000_000_000;

impl<'a> RareWork<'a> {
    /// Plans the rare-event run of `plan` with about `samples` samples,
    /// counting the strata `k <= 3` exactly on `threads` threads.
    pub fn new(plan: &'a Plan, samples: u64, threads: usize) -> Result<Self> {
        let p = rare_ber(plan)?;
        if samples == 0 || samples > MAX_SAMPLES {
            return Err(Error::Invalid(format!(
                "{samples} samples: expected 1 to {MAX_SAMPLES:e}"
            )));
        }
        let f = &plan.frame;
        let (ci, table) = widest_crc(plan)?;
        let crc_name = f.checks[ci].name.clone();
        let alg = f.checks[ci].crc().expect("a CRC");
        let n = f.n_bits();
        let ctx = Ctx {
            plan,
            lookup: Lookup::new(&table),
            table,
            sparse: Sparse::new(f, plan.seed),
            n,
            single: f.checks.len() == 1,
            joint: JointModel::new(f).ok().filter(|_| f.checks.len() > 1),
        };
        // strata: k = 1 ..= k_max, leaving out a tail below 1e-6 * 2^-r of P(K >= 1)
        let p_err = aliasing_core::bsc::p_error(n, p);
        let mut floor = p_err * 1e-6 * (-(alg.width() as f64) * std::f64::consts::LN_2).exp();
        if ctx.joint.is_some() {
            // joint escapes sit near 2^-16 per Internet checksum below the
            // CRC's: go that much deeper before leaving a tail out
            floor *= 2f64.powi(-16 * (f.checks.len() as i32 - 1));
        }
        let mut weights = Vec::new();
        let mut k = 1u64;
        let mut truncation = 0.0;
        while k <= n {
            weights.push(ln_binom_pmf(k, n, p).exp());
            truncation = if k == n {
                0.0
            } else {
                binom_upper_tail(k + 1, n, p)
            };
            if (truncation < floor && k as f64 > n as f64 * p) || k >= 400 {
                break;
            }
            k += 1;
        }
        let kmax = weights.len() as u64;
        let pool = crate::shard::pool(threads)?;
        // Strata k <= 3: count the CRC's codewords exactly. Where there are
        // none, the stratum is exactly zero for the CRC and the stack; a lone
        // CRC is exact.
        let exact_low: Vec<Option<f64>> = (1..=kmax.min(3))
            .map(|k| pool.install(|| ctx.exact_crc(k)))
            .collect();
        // With exact checksum pass probabilities, strata up to weight 5 are
        // also exact where the codewords can be listed (aliasing_core::joint):
        // P(stack escape | k) = S_k / C(n, k), P(CRC escape | k) = A_k / C(n, k).
        let mut exact_joint: Vec<Option<(f64, f64)>> = vec![None; kmax as usize];
        if let Some(j) = &ctx.joint {
            let pairs = (n as f64) * (n as f64) / 2.0;
            for k in 2..=kmax.min(5) {
                let limit = if k == 5 {
                    aliasing_core::__private::lowweight::SHAPE5_PAIR_LIMIT
                } else {
                    aliasing_core::__private::lowweight::SHAPE_PAIR_LIMIT
                };
                if k >= 4 && pairs > limit {
                    break;
                }
                let t = pool.install(|| j.exact_term(k as u32))?;
                let ln_c = ln_binom_pmf(k, n, 0.5) + n as f64 * std::f64::consts::LN_2;
                let inv = (-ln_c).exp();
                exact_joint[k as usize - 1] = Some((t.codewords as f64 * inv, t.pass_sum * inv));
            }
        }
        let mut strata: Vec<StratumPlan> = weights
            .iter()
            .enumerate()
            .map(|(i, &w)| {
                let e = exact_low.get(i).copied().flatten();
                StratumPlan {
                    weight: w,
                    exact: exact_joint[i].or(e.filter(|&e| e == 0.0 || ctx.single).map(|e| (e, e))),
                    samples: 0,
                }
            })
            .collect();
        // Allocation from the parameters alone: a tenth of the samples spread
        // evenly over the sampled strata (at least one each), the rest in
        // proportion to the strata's weights.
        let sampled: Vec<usize> = (0..strata.len())
            .filter(|&i| strata[i].exact.is_none())
            .collect();
        let even = (samples / 10 / (sampled.len() as u64).max(1)).max(1);
        let rest = samples.saturating_sub(even * sampled.len() as u64) as f64;
        let total_w: f64 = sampled.iter().map(|&i| strata[i].weight).sum();
        for &i in &sampled {
            strata[i].samples = even + (rest * strata[i].weight / total_w) as u64;
        }
        let mut items = Vec::new();
        for &i in &sampled {
            let s = strata[i].samples;
            for c in 0..s.div_ceil(CHUNK) {
                items.push((i as u64 + 1, c, CHUNK.min(s - c * CHUNK)));
            }
        }
        Ok(RareWork {
            ctx,
            crc_name,
            strata,
            items,
            truncation,
        })
    }

    /// Number of work items.
    pub fn items(&self) -> u64 {
        self.items.len() as u64
    }

    /// Total samples of the run.
    pub fn samples(&self) -> u64 {
        self.strata.iter().map(|s| s.samples).sum()
    }

    /// The empty tally.
    pub fn zero(&self) -> RareTally {
        RareTally(vec![Sums::default(); self.strata.len()])
    }

    /// The tally of item `i`.
    pub fn item(&self, i: u64) -> RareTally {
        let (k, chunk, count) = self.items[i as usize];
        let mut t = self.zero();
        t.0[k as usize - 1] = self.ctx.chunk(k, chunk, count);
        t
    }

    /// The estimate from the tally of every item.
    pub fn finish(&self, tally: &RareTally) -> RareResult {
        let n = self.ctx.n;
        let sums = &tally.0;
        // A sampled stratum that saw no hit gets a one-sided 95% bound
        // instead of a zero standard error: every sample is at most
        // `mult / (n - k + 1)` (`mult` positions share a syndrome at most), so
        // the mean of N samples that were all zero is below
        // `mult * ln(40) / (N (n - k + 1))` at 97.5%.
        let mult = {
            let mut v = self.ctx.table.clone();
            v.sort_unstable();
            v.chunk_by(|a, b| a == b)
                .map(|g| g.len())
                .max()
                .unwrap_or(1) as f64
        };
        let (mut crc_zero_bound, mut stack_zero_bound) = (0.0, 0.0);
        let mut strata = Vec::new();
        let (mut crc, mut crc_var, mut stack, mut stack_var) = (0.0, 0.0, 0.0, 0.0);
        for (i, (s, plan)) in sums.iter().zip(&self.strata).enumerate() {
            let k = i as u64 + 1;
            let denom = (n - k + 1) as f64;
            let w = plan.weight;
            let (mc, vc, ms, vs) = match plan.exact {
                Some((c, st)) => (c, 0.0, st, 0.0),
                None => {
                    let b = w * mult * 40f64.ln() / (s.n.max(1) as f64 * denom);
                    if s.crc == 0 {
                        crc_zero_bound += b;
                    }
                    if s.stack == 0 {
                        stack_zero_bound += b;
                    }
                    s.mean_var(denom)
                }
            };
            let nn = s.n.max(1) as f64;
            crc += w * mc;
            crc_var += w * w * vc / nn;
            stack += w * ms;
            stack_var += w * w * vs / nn;
            strata.push(Stratum {
                k,
                weight: w,
                samples: s.n,
                crc: mc,
                stack: ms,
                stack_se: (vs / nn).sqrt(),
                crc_se: (vc / nn).sqrt(),
            });
        }
        let truncation = self.truncation;
        let est = |rate: f64, var: f64, zero_bound: f64| {
            let se = var.sqrt();
            RareEstimate {
                rate,
                std_err: se,
                rel_std_err: if rate > 0.0 { se / rate } else { f64::INFINITY },
                ci_low: (rate - 1.959964 * se).max(0.0),
                ci_high: rate + 1.959964 * se + truncation + zero_bound,
                exact: None,
            }
        };
        RareResult {
            crc_name: self.crc_name.clone(),
            crc: est(crc, crc_var, crc_zero_bound),
            stack: est(stack, stack_var, stack_zero_bound),
            truncation,
            strata,
        }
    }
}

/// Estimates the stack's escape probability (and its CRC's) by stratified
/// conditional sampling with about `samples` samples in all, on `threads`
/// threads (0 = all cores).
pub fn estimate(plan: &Plan, samples: u64, threads: usize) -> Result<RareResult> {
    let work = RareWork::new(plan, samples, threads)?;
    let tally = crate::shard::drive_all(work.items(), work.zero(), threads, |i| work.item(i))?;
    tally.in_range()?;
    Ok(work.finish(&tally))
}
