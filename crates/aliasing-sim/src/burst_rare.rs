//! Rare CRC escapes on a Gilbert-Elliott burst channel, for any width:
//! an unbiased importance-sampling estimate with its interval.
//!
//! # Why an estimate
//!
//! The exact product chain ([`aliasing_core::markov::gilbert`]) costs
//! `O(n 2^r)` and stops at 24 bits. The dual-code route for 32 bits sums
//! `2^32` signed terms, one 2x2 transfer-matrix product per dual word, down
//! to `P_ud`: the terms are of order `P(no error)`, near 1, and `P_ud` is
//! near 1e-15, so about fifteen of the sixteen digits cancel and nothing
//! here proves how many survive. So 32-bit CRCs under bursts get this
//! estimator instead, and it says so in its output.
//!
//! # The estimator
//!
//! `P_ud = sum over nonzero codewords e of P(e)`, with `P(e)` the
//! probability that exactly the bits of `e` flip (an error pattern over the
//! frame in transmission order). An error pattern `x` is drawn from a
//! *proposal* `Q`, another Gilbert-Elliott channel ([`default_proposal`]:
//! bursts and good-state errors more frequent, so that a frame carries a
//! few errors), and turned into codewords in two ways:
//!
//! 1. **Window completion.** Let `f` be `x`'s first error and `W_f` the
//!    first `r` positions after `f` whose syndromes are independent (for a
//!    CRC read in transmission order, `f+1 ..= f+r`; in general a greedy
//!    basis, a function of `f` alone). The bits of `x` outside `W_f` (the
//!    *head*) have a syndrome; if it lies in the span of `W_f`, exactly one
//!    choice of the bits in `W_f` completes a codeword `e`. Every codeword
//!    with first error `f` arises this way from exactly the patterns `x`
//!    that agree with it outside `W_f`, so the chance of producing `e` is
//!    `Q1(e) = Q(e outside W_f, W_f anything)`. This finds the codewords a
//!    burst makes: errors dense from `f` on, the completion a typical burst
//!    pattern.
//! 2. **Syndrome lookup.** Every position `m` not in `x` whose syndrome
//!    equals `x`'s completes the codeword `e = x + m`. The expected number
//!    of times one draw finds `e` is `Q2(e) = sum over j in e of Q(e - j)`.
//!    This finds codewords of a few scattered errors (the low weights that
//!    dominate when bursts are short or sparse), as the BSC's conditional
//!    sampler ([`crate::rare`]) does.
//!
//! Each codeword found counts `P(e) / (Q1(e) + Q2(e))` (the balance
//! heuristic of multiple importance sampling), so a draw scores
//! `Z = sum over found e of P(e) / (Q1(e) + Q2(e))` and
//! `E_Q[Z] = sum_e P(e) (Q1(e) + Q2(e)) / (Q1(e) + Q2(e)) = P_ud` exactly:
//! the estimator is unbiased for any proposal whose four parameters lie
//! strictly inside (0, 1) (then `Q2(e) > 0` for every codeword). `P`,
//! `Q1` and `Q2` are exact forward (and backward) products of 2x2 matrices
//! over the pattern's errors, with the clean runs between them taken from
//! precomputed matrix powers, in scaled form with a log scale (no
//! underflow for any frame). Tests check `E_Q[Z] = P_ud` to 1e-12 by
//! enumerating every pattern of a small frame.
//!
//! The estimate is the mean of `Z` over the draws; its standard error is
//! the sample standard deviation over `sqrt(N)`, and the interval is the
//! normal one, mean +- 1.96 standard errors, reported with the number of
//! draws that found a codeword (*hits*): with few hits, importance weights
//! are heavy-tailed and the interval is not to be trusted (a run with no
//! hit reports 0 and an upper end of infinity: it bounds nothing).
//!
//! Streams: work item `i` draws `min(CHUNK, rest)` patterns from
//! `chunk_rng(seed, i, 3000)`; each item's sums are kept apart and added in
//! item order at the end, so the result depends on the seed and the
//! parameters only (not on threads or shards).

use crate::channel::{Channel, GilbertElliott, geometric};
use crate::rare::{Lookup, RareEstimate, crc_wire_table};
use crate::run::Plan;
use crate::stack::CheckKind;
use crate::stream::{chunk_rng, unit_f64};
use aliasing_core::{Error, Result};
use rand_xoshiro::Xoshiro256PlusPlus;
use serde::{Deserialize, Serialize};

/// Draws per work item.
pub const CHUNK: u64 = 1 << 14;

/// The most draws one run accepts.
pub const MAX_SAMPLES: u64 = 1_000_000_000_000;

/// Stream family of the draws (distinct from the frame and BSC rare streams).
const FAMILY: u64 = 3000;

/// A 2x2 matrix, row-vector convention: `a' = a M`, `M[i][j]` from state `i` to `j`.
type M2 = [[f64; 2]; 2];

fn vm(a: [f64; 2], m: &M2) -> [f64; 2] {
    [
        a[0] * m[0][0] + a[1] * m[1][0],
        a[0] * m[0][1] + a[1] * m[1][1],
    ]
}

fn mv(m: &M2, b: [f64; 2]) -> [f64; 2] {
    [
        m[0][0] * b[0] + m[0][1] * b[1],
        m[1][0] * b[0] + m[1][1] * b[1],
    ]
}

fn mm(a: &M2, b: &M2) -> M2 {
    [vm(a[0], b), vm(a[1], b)]
}

/// Scales `v` so its larger entry is 1, adding the log of the factor to
/// `ln`; an all-zero vector sets `ln` to minus infinity.
fn renorm(v: &mut [f64; 2], ln: &mut f64) {
    let s = v[0].max(v[1]);
    if s > 0.0 {
        v[0] /= s;
        v[1] /= s;
        *ln += s.ln();
    } else {
        *ln = f64::NEG_INFINITY;
    }
}

fn renorm_m(m: &mut M2) -> f64 {
    let s = m[0][0].max(m[0][1]).max(m[1][0]).max(m[1][1]);
    if s > 0.0 {
        for r in m.iter_mut() {
            r[0] /= s;
            r[1] /= s;
        }
        s.ln()
    } else {
        f64::NEG_INFINITY
    }
}

/// `ln(e^a + e^b)`.
fn ln_add(a: f64, b: f64) -> f64 {
    let (hi, lo) = if a >= b { (a, b) } else { (b, a) };
    if lo == f64::NEG_INFINITY {
        hi
    } else {
        hi + (lo - hi).exp().ln_1p()
    }
}

/// Clean runs shorter than this come from one table entry.
const SMALL: usize = 1 << 12;

/// What happens at a marked position of a pattern.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Mark {
    /// The bit flips.
    Error,
    /// Either (the bit is summed out).
    Free,
}

/// Exact probabilities of error patterns on one Gilbert-Elliott channel over
/// frames of `n` bits: bit `t` is sent in state `c_t`, flips with `e_{c_t}`,
/// then the state moves; `c_0` is stationary.
#[derive(Debug, Clone)]
pub struct PatternLaw {
    n: u64,
    pi: [f64; 2],
    err: M2,
    clean: M2,
    free: M2,
    /// `clean^d` for `d < SMALL`, scaled, with its log scale.
    small: Vec<(M2, f64)>,
    /// `clean^(SMALL q)` for `q <= n / SMALL`.
    big: Vec<(M2, f64)>,
}

impl PatternLaw {
    /// The law of `ge` (validated) over frames of `n` bits.
    pub fn new(ge: &GilbertElliott, n: u64) -> Result<Self> {
        ge.validate()?;
        let t: M2 = [
            [1.0 - ge.good_to_bad, ge.good_to_bad],
            [ge.bad_to_good, 1.0 - ge.bad_to_good],
        ];
        let e = [ge.p_good, ge.p_bad];
        let err: M2 = [
            [e[0] * t[0][0], e[0] * t[0][1]],
            [e[1] * t[1][0], e[1] * t[1][1]],
        ];
        let clean: M2 = [
            [(1.0 - e[0]) * t[0][0], (1.0 - e[0]) * t[0][1]],
            [(1.0 - e[1]) * t[1][0], (1.0 - e[1]) * t[1][1]],
        ];
        let id: M2 = [[1.0, 0.0], [0.0, 1.0]];
        let mut small = Vec::with_capacity(SMALL);
        let (mut m, mut ln) = (id, 0.0);
        for _ in 0..SMALL.min(n as usize + 1).max(1) {
            small.push((m, ln));
            m = mm(&m, &clean);
            ln += renorm_m(&mut m);
        }
        // m is now clean^len(small); extend to SMALL if the frame is short
        while small.len() < SMALL {
            small.push((m, ln));
            m = mm(&m, &clean);
            ln += renorm_m(&mut m);
        }
        let step = {
            let (mut s, mut l) = small[SMALL - 1];
            s = mm(&s, &clean);
            l += renorm_m(&mut s);
            (s, l)
        };
        let mut big = vec![(id, 0.0)];
        for q in 1..=(n as usize / SMALL) {
            let (b, l) = big[q - 1];
            let mut c = mm(&b, &step.0);
            let lc = l + step.1 + renorm_m(&mut c);
            big.push((c, lc));
        }
        Ok(PatternLaw {
            n,
            pi: ge.stationary(),
            err,
            clean,
            free: t,
            small,
            big,
        })
    }

    /// Row vector times `clean^d`.
    fn gap_row(&self, a: &mut [f64; 2], ln: &mut f64, d: u64) {
        let (q, r) = ((d / SMALL as u64) as usize, (d % SMALL as u64) as usize);
        if r > 0 {
            let (m, l) = &self.small[r];
            *a = vm(*a, m);
            *ln += l;
            renorm(a, ln);
        }
        if q > 0 {
            let (m, l) = &self.big[q];
            *a = vm(*a, m);
            *ln += l;
            renorm(a, ln);
        }
    }

    /// `clean^d` times column vector.
    fn gap_col(&self, b: &mut [f64; 2], ln: &mut f64, d: u64) {
        let (q, r) = ((d / SMALL as u64) as usize, (d % SMALL as u64) as usize);
        if r > 0 {
            let (m, l) = &self.small[r];
            *b = mv(m, *b);
            *ln += l;
            renorm(b, ln);
        }
        if q > 0 {
            let (m, l) = &self.big[q];
            *b = mv(m, *b);
            *ln += l;
            renorm(b, ln);
        }
    }

    /// `ln P(the marked positions do as marked, every other bit is clean)`,
    /// marks in increasing position.
    fn ln_marked(&self, marks: impl Iterator<Item = (u32, Mark)>) -> f64 {
        let (mut a, mut ln) = (self.pi, 0.0);
        let mut pos = 0u64;
        for (p, k) in marks {
            self.gap_row(&mut a, &mut ln, p as u64 - pos);
            a = vm(
                a,
                match k {
                    Mark::Error => &self.err,
                    Mark::Free => &self.free,
                },
            );
            renorm(&mut a, &mut ln);
            if ln == f64::NEG_INFINITY {
                return ln;
            }
            pos = p as u64 + 1;
        }
        self.gap_row(&mut a, &mut ln, self.n - pos);
        ln + (a[0] + a[1]).ln()
    }

    /// `ln P(exactly the bits at `errors` flip)`, positions increasing and
    /// below `n`.
    ///
    /// ```
    /// use aliasing_sim::burst_rare::PatternLaw;
    /// use aliasing_sim::channel::GilbertElliott;
    /// let ge: GilbertElliott = "0.01,0.5,0.1,0.3".parse().unwrap();
    /// let law = PatternLaw::new(&ge, 2).unwrap();
    /// // the four patterns of two bits add up to 1
    /// let total: f64 = [&[][..], &[0], &[1], &[0, 1]]
    ///     .iter()
    ///     .map(|e| law.ln_prob(e).exp())
    ///     .sum();
    /// assert!((total - 1.0).abs() < 1e-15);
    /// ```
    pub fn ln_prob(&self, errors: &[u32]) -> f64 {
        self.ln_marked(errors.iter().map(|&p| (p, Mark::Error)))
    }

    /// `ln sum over j of P(exactly errors - {errors[j]} flip)`, by one
    /// forward and one backward pass (`-inf` for no errors).
    pub fn ln_leave_one_out(&self, errors: &[u32]) -> f64 {
        let k = errors.len();
        if k == 0 {
            return f64::NEG_INFINITY;
        }
        // forward: the row vector before bit errors[j]
        let mut fwd = Vec::with_capacity(k);
        let (mut a, mut ln) = (self.pi, 0.0);
        let mut pos = 0u64;
        for &p in errors {
            self.gap_row(&mut a, &mut ln, p as u64 - pos);
            fwd.push((a, ln));
            a = vm(a, &self.err);
            renorm(&mut a, &mut ln);
            pos = p as u64 + 1;
        }
        // backward: the column vector after bit errors[j]
        let (mut b, mut lb) = ([1.0, 1.0], 0.0);
        let mut end = self.n;
        let mut total = f64::NEG_INFINITY;
        for j in (0..k).rev() {
            let p = errors[j] as u64;
            self.gap_col(&mut b, &mut lb, end - p - 1);
            let (a, la) = fwd[j];
            let c = vm(a, &self.clean);
            let v = c[0] * b[0] + c[1] * b[1];
            if v > 0.0 && la > f64::NEG_INFINITY && lb > f64::NEG_INFINITY {
                total = ln_add(total, la + lb + v.ln());
            }
            b = mv(&self.err, b);
            renorm(&mut b, &mut lb);
            end = p;
        }
        total
    }
}

/// The proposal [`estimate`] uses unless told otherwise: the channel with
/// its good-to-bad probability and good-state BER scaled up by the same
/// factor `c`, so that a frame of `n` bits carries about three errors
/// (`c = 3 / (n * mean BER)`, at least 1, each scaled probability at most
/// 1/2), then every parameter clamped into `[1e-9, 1 - 1e-9]` so the
/// proposal reaches every pattern. Burst length and the bad-state BER are
/// kept: bursts come more often, and look as they do on the channel.
pub fn default_proposal(ge: &GilbertElliott, n: u64) -> GilbertElliott {
    let mean = n as f64 * ge.mean_ber();
    let c = if mean > 0.0 { (3.0 / mean).max(1.0) } else { 1.0 };
    let clamp = |p: f64| p.clamp(1e-9, 1.0 - 1e-9);
    GilbertElliott {
        p_good: clamp((ge.p_good * c).min(0.5).max(ge.p_good)),
        p_bad: clamp(ge.p_bad),
        good_to_bad: clamp((ge.good_to_bad * c).min(0.5).max(ge.good_to_bad)),
        bad_to_good: clamp(ge.bad_to_good),
    }
}

/// Checks that a proposal reaches every error pattern.
fn check_proposal(q: &GilbertElliott) -> Result<()> {
    q.validate()?;
    let inside = |p: f64| p > 0.0 && p < 1.0;
    if ![q.p_good, q.p_bad, q.good_to_bad, q.bad_to_good]
        .into_iter()
        .all(inside)
    {
        return Err(Error::Invalid(format!(
            "proposal {q}: every parameter must lie strictly between 0 and 1"
        )));
    }
    Ok(())
}

/// The first `r` positions after `f` with independent syndromes, and a basis
/// in echelon form (by leading bit) remembering which of them each vector
/// combines.
struct Window {
    pos: Vec<u32>,
    basis: [(u64, u64); 64],
}

impl Window {
    fn new() -> Self {
        Window {
            pos: Vec::with_capacity(64),
            basis: [(0, 0); 64],
        }
    }

    /// Rebuilds the window of first error `f` from `table`, stopping at `r`
    /// positions or at the frame's end.
    fn build(&mut self, table: &[u64], f: u32, r: usize) {
        self.pos.clear();
        self.basis = [(0, 0); 64];
        for p in f as usize + 1..table.len() {
            if self.pos.len() == r {
                break;
            }
            let (v, m) = self.reduce(table[p], 1u64 << self.pos.len());
            if v != 0 {
                self.basis[63 - v.leading_zeros() as usize] = (v, m);
                self.pos.push(p as u32);
            }
        }
    }

    /// Reduces `v` (carrying mask `m`) by the basis, top bit first.
    fn reduce(&self, mut v: u64, mut m: u64) -> (u64, u64) {
        while v != 0 {
            let b = 63 - v.leading_zeros() as usize;
            let (bv, bm) = self.basis[b];
            if bv == 0 {
                break;
            }
            v ^= bv;
            m ^= bm;
        }
        (v, m)
    }

    /// The subset of the window (a mask over `pos`) whose syndromes add up
    /// to `s`, if `s` is in the span.
    fn solve(&self, s: u64) -> Option<u64> {
        // reduce fully: bits below a missing pivot may still reduce
        let (mut v, mut m) = (s, 0u64);
        for b in (0..64).rev() {
            if v >> b & 1 == 1 {
                let (bv, bm) = self.basis[b];
                if bv == 0 {
                    return None;
                }
                v ^= bv;
                m ^= bm;
            }
        }
        Some(m)
    }
}

/// One draw's score, split by the way its codewords were found.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct Score {
    /// From the window completion.
    pub window: f64,
    /// From the syndrome lookup.
    pub lookup: f64,
}

/// The sums of one work item's draws (mean and sum of squared deviations,
/// Welford's running form, so no large sums of squares cancel).
#[derive(Debug, Clone, Copy, Default, PartialEq, Serialize, Deserialize)]
pub struct ItemSums {
    /// Draws.
    pub n: u64,
    /// Draws that found a codeword with a nonzero score.
    pub hits: u64,
    /// Mean score.
    pub mean: f64,
    /// Sum of squared deviations from the mean.
    pub m2: f64,
    /// Sum of the window completion's part of the scores.
    pub window: f64,
}

impl ItemSums {
    fn push(&mut self, z: f64) {
        self.n += 1;
        let d = z - self.mean;
        self.mean += d / self.n as f64;
        self.m2 += d * (z - self.mean);
    }

    /// The two sets of draws together (Chan et al.'s pairwise update).
    fn merge(&self, o: &ItemSums) -> ItemSums {
        let n = self.n + o.n;
        if n == 0 {
            return *self;
        }
        let (na, nb) = (self.n as f64, o.n as f64);
        let d = o.mean - self.mean;
        ItemSums {
            n,
            hits: self.hits + o.hits,
            mean: self.mean + d * nb / n as f64,
            m2: self.m2 + o.m2 + d * d * na * nb / n as f64,
            window: self.window + o.window,
        }
    }
}

/// The tally of a run: one slot per work item, filled when the item is done.
/// Slots are added in item order at the end, so any split gives the same
/// floating-point sums.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct BurstTally(pub Vec<Option<ItemSums>>);

impl crate::shard::Tally for BurstTally {
    fn empty_like(&self) -> Self {
        BurstTally(vec![None; self.0.len()])
    }
    fn add(&mut self, other: &Self) {
        for (a, b) in self.0.iter_mut().zip(&other.0) {
            if b.is_some() {
                *a = *b;
            }
        }
    }
}

/// The result of a burst-channel rare-event run.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct BurstRareResult {
    /// How it was obtained (an estimate, never exact).
    pub method: String,
    /// The CRC.
    pub crc_name: String,
    /// The channel.
    pub channel: GilbertElliott,
    /// The proposal the patterns were drawn from.
    pub proposal: GilbertElliott,
    /// Draws.
    pub samples: u64,
    /// Draws that found a codeword with a nonzero score.
    pub hits: u64,
    /// Share of the estimate found by the window completion (the rest by
    /// the syndrome lookup).
    pub window_share: f64,
    /// `P(at least one error and the CRC passes)`, with its interval.
    pub crc: RareEstimate,
}

/// The name of the method in outputs.
pub const METHOD: &str = "estimate: importance sampling (Gilbert-Elliott proposal; \
    window completion after the first error + syndrome lookup, balance heuristic)";

/// A burst-channel rare-event run cut into work items fixed by the parameters.
pub struct BurstRareWork {
    seed: u64,
    crc_name: String,
    table: Vec<u64>,
    lookup: Lookup,
    width: usize,
    channel: GilbertElliott,
    proposal: GilbertElliott,
    p: PatternLaw,
    q: PatternLaw,
    samples: u64,
}

impl BurstRareWork {
    /// Plans the run of `plan` (a lone CRC on a Gilbert-Elliott channel)
    /// with `samples` draws from `proposal` ([`default_proposal`] if `None`).
    pub fn new(plan: &Plan, samples: u64, proposal: Option<GilbertElliott>) -> Result<Self> {
        plan.validate()?;
        let Channel::Burst(ge) = plan.channel else {
            return Err(Error::Unsupported(
                "the burst rare-event estimator needs a Gilbert-Elliott channel (--burst)".into(),
            ));
        };
        if samples == 0 || samples > MAX_SAMPLES {
            return Err(Error::Invalid(format!(
                "{samples} samples: expected 1 to {MAX_SAMPLES:e}"
            )));
        }
        let f = &plan.frame;
        if f.checks.len() != 1 || !matches!(f.checks[0].kind, CheckKind::Crc { .. }) {
            return Err(Error::Unsupported(
                "--rare --burst estimates a lone CRC's escape (a CRC stack such as ethernet or \
                 crc32); the other checks of this stack are not modelled"
                    .into(),
            ));
        }
        let (ci, table) = crc_wire_table(plan)?;
        let CheckKind::Crc { alg, .. } = &f.checks[ci].kind else {
            unreachable!()
        };
        let n = f.n_bits();
        let proposal = proposal.unwrap_or_else(|| default_proposal(&ge, n));
        check_proposal(&proposal)?;
        Ok(BurstRareWork {
            seed: plan.seed,
            crc_name: f.checks[ci].name.clone(),
            lookup: Lookup::new(&table),
            width: alg.width() as usize,
            table,
            channel: ge,
            proposal,
            p: PatternLaw::new(&ge, n)?,
            q: PatternLaw::new(&proposal, n)?,
            samples,
        })
    }

    /// Number of work items.
    pub fn items(&self) -> u64 {
        self.samples.div_ceil(CHUNK)
    }

    /// The empty tally.
    pub fn zero(&self) -> BurstTally {
        BurstTally(vec![None; self.items() as usize])
    }

    /// The proposal in use.
    pub fn proposal(&self) -> GilbertElliott {
        self.proposal
    }

    /// Draws one error pattern from the proposal (positions increasing).
    fn draw(&self, rng: &mut Xoshiro256PlusPlus, xs: &mut Vec<u32>) {
        xs.clear();
        let q = &self.proposal;
        let n = self.table.len() as u64;
        let ln_leave = [(-q.good_to_bad).ln_1p(), (-q.bad_to_good).ln_1p()];
        let ln_clean = [(-q.p_good).ln_1p(), (-q.p_bad).ln_1p()];
        let mut bad = (unit_f64(rng) <= q.stationary()[1]) as usize;
        let mut pos = 0u64;
        while pos < n {
            let end = pos.saturating_add(1 + geometric(rng, ln_leave[bad])).min(n);
            let mut t = pos + geometric(rng, ln_clean[bad]);
            while t < end {
                xs.push(t as u32);
                t += 1 + geometric(rng, ln_clean[bad]);
            }
            pos = end;
            bad ^= 1;
        }
    }

    /// `P(e) / (Q1(e) + Q2(e))` for a codeword `e` (positions increasing).
    fn weight(&self, e: &[u32], win: &mut Window) -> f64 {
        let lp = self.p.ln_prob(e);
        if lp == f64::NEG_INFINITY {
            return 0.0;
        }
        win.build(&self.table, e[0], self.width);
        // Q1: e outside the window of its first error, the window summed out
        let mut marks: Vec<(u32, Mark)> = e
            .iter()
            .filter(|p| !win.pos.contains(p))
            .map(|&p| (p, Mark::Error))
            .chain(win.pos.iter().map(|&p| (p, Mark::Free)))
            .collect();
        marks.sort_unstable_by_key(|m| m.0);
        let lq1 = self.q.ln_marked(marks.into_iter());
        let lq2 = self.q.ln_leave_one_out(e);
        (lp - ln_add(lq1, lq2)).exp()
    }

    /// The score of the draw `xs` (error positions, increasing).
    pub fn score(&self, xs: &[u32]) -> Score {
        let mut win = Window::new();
        let mut out = Score::default();
        let mut e = Vec::with_capacity(xs.len() + 64);
        // 1. window completion after the first error
        if let Some(&f) = xs.first() {
            win.build(&self.table, f, self.width);
            let head: Vec<u32> = xs
                .iter()
                .copied()
                .filter(|p| !win.pos.contains(p))
                .collect();
            let s = head.iter().fold(0u64, |s, &p| s ^ self.table[p as usize]);
            if let Some(mask) = win.solve(s) {
                e.clear();
                e.extend_from_slice(&head);
                e.extend(
                    (0..win.pos.len())
                        .filter(|i| mask >> i & 1 == 1)
                        .map(|i| win.pos[i]),
                );
                e.sort_unstable();
                out.window = self.weight(&e, &mut win);
            }
        }
        // 2. syndrome lookup: every position completing xs
        let s = xs.iter().fold(0u64, |s, &p| s ^ self.table[p as usize]);
        let mut found = Vec::new();
        self.lookup.each(s, |m| {
            if xs.binary_search(&m).is_err() {
                found.push(m);
            }
        });
        for m in found {
            e.clear();
            e.extend_from_slice(xs);
            let at = e.binary_search(&m).unwrap_err();
            e.insert(at, m);
            out.lookup += self.weight(&e, &mut win);
        }
        out
    }

    /// The tally of item `i`.
    pub fn item(&self, i: u64) -> BurstTally {
        let mut t = self.zero();
        t.0[i as usize] = Some(self.item_sums(i));
        t
    }

    fn item_sums(&self, i: u64) -> ItemSums {
        let count = CHUNK.min(self.samples - i * CHUNK);
        let mut rng = chunk_rng(self.seed, i, FAMILY);
        let mut xs = Vec::new();
        let mut s = ItemSums::default();
        for _ in 0..count {
            self.draw(&mut rng, &mut xs);
            let sc = self.score(&xs);
            let z = sc.window + sc.lookup;
            s.push(z);
            if z > 0.0 {
                s.hits += 1;
                s.window += sc.window;
            }
        }
        s
    }

    /// The estimate from the tally of every item (missing items count as
    /// not drawn).
    pub fn finish(&self, tally: &BurstTally) -> BurstRareResult {
        let tot = tally
            .0
            .iter()
            .flatten()
            .fold(ItemSums::default(), |a, b| a.merge(b));
        let n = tot.n.max(1) as f64;
        let mean = tot.mean;
        let var = if tot.n > 1 { tot.m2 / (n - 1.0) } else { 0.0 };
        let se = (var / n).sqrt();
        let crc = RareEstimate {
            rate: mean,
            std_err: se,
            rel_std_err: if mean > 0.0 { se / mean } else { f64::INFINITY },
            ci_low: (mean - 1.959964 * se).max(0.0),
            ci_high: if tot.hits > 0 {
                mean + 1.959964 * se
            } else {
                f64::INFINITY
            },
            exact: None,
        };
        BurstRareResult {
            method: METHOD.into(),
            crc_name: self.crc_name.clone(),
            channel: self.channel,
            proposal: self.proposal,
            samples: tot.n,
            hits: tot.hits,
            window_share: if mean > 0.0 {
                tot.window / (mean * n)
            } else {
                0.0
            },
            crc,
        }
    }
}

/// Estimates the escape of `plan`'s CRC on its Gilbert-Elliott channel with
/// `samples` draws from `proposal` ([`default_proposal`] if `None`), on
/// `threads` threads (0 = all cores).
pub fn estimate(
    plan: &Plan,
    samples: u64,
    proposal: Option<GilbertElliott>,
    threads: usize,
) -> Result<BurstRareResult> {
    let work = BurstRareWork::new(plan, samples, proposal)?;
    let opts = crate::shard::Drive {
        threads,
        ..Default::default()
    };
    let tally = crate::shard::drive(
        work.items(),
        (1, 1),
        crate::shard::Progress::start(work.zero()),
        &opts,
        |i| work.item(i),
    )?;
    Ok(work.finish(&tally))
}

#[cfg(test)]
mod tests;
