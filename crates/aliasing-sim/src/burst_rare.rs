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
//! few errors), and turned into codewords in three ways:
//!
//! 1. **Window completion**, anchored at each error `a` of `x`. `W_a` is the
//!    first `r` positions after `a` whose syndromes are independent (for a
//!    CRC read in transmission order, `a+1 ..= a+r`; in general a greedy
//!    basis, a function of `a` alone). The bits of `x` outside `W_a` (the
//!    *head*) have a syndrome; if it lies in the span of `W_a`, exactly one
//!    choice of the bits in `W_a` completes a codeword `e`. `e` is produced
//!    from anchor `a` by exactly the draws that agree with it outside
//!    `W_a`, so the expected number of times a draw produces `e` this way is
//!    `Q1(e) = sum over a in e of Q(e outside W_a, W_a anything)`. This
//!    finds the codewords a burst makes: errors dense after `a`, the
//!    completion a typical burst pattern.
//! 2. **Syndrome lookup.** Every position `m` not in `x` whose syndrome
//!    equals `x`'s completes the codeword `e = x + m`:
//!    `Q2(e) = sum over j in e of Q(e - j)`. This finds codewords of a few
//!    scattered errors, as the BSC's conditional sampler ([`crate::rare`])
//!    does.
//! 3. **Short-burst lookup.** Every short burst `B` (an error at `s` and at
//!    most two more in `s+1 .. s+L`, `L` up to 64) with the syndrome of
//!    `x`, where `x` has no error in `s .. s+L`, completes `e = x + B`:
//!    `Q3(e) = sum over s in e with at most 3 errors of e in s .. s+L of
//!    Q(e minus its errors in s .. s+L)`. This finds codewords made of a
//!    burst of a few errors plus scattered ones, which carry most of the
//!    mass on sparse-burst channels (a bad state whose BER is well below
//!    1/2: a burst holds one to three errors, and a codeword's cluster is
//!    rarely drawn, but its scattered errors often are). For a CRC over
//!    the frame (`table[p] = B table[p+1]` for one linear map `B`, checked
//!    at every position) the bursts with a syndrome `t` are found by one
//!    pass over the starts in strides of 64, looking `B^(64 j) t` up among
//!    the bursts at the first 64 starts (`ShortBursts`): any span up to 64
//!    at `O(n / 64)` a draw, no big table. Other layouts use a table of every burst at every start
//!    (at most 2^21 entries). The span is the widest whose bursts, at every
//!    start, number at most `2^r / 16` (so a draw meets about 1/16 of a
//!    chance match at most).
//!
//! Each codeword found counts `P(e) / D(e)`, `D = Q1 + Q2 + Q3` (the
//! balance heuristic of multiple importance sampling), so a draw scores
//! `Z = sum over found e of P(e) / D(e)` and
//! `E_Q[Z] = sum_e P(e) D(e) / D(e) = P_ud` exactly:
//! the estimator is unbiased for any proposal whose four parameters lie
//! strictly inside (0, 1) (then `Q2(e) > 0` for every codeword). `P`,
//! `Q1`, `Q2` and `Q3` are exact forward (and backward) products of 2x2 matrices
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
//! # The joint escape of a stack
//!
//! For a stack of one CRC over the whole frame and Internet checksums
//! (`ethernet-tcp`, `ipv4-tcp+CRC`; [`BurstRareWork::joint`]) the same
//! draws, over the stack's frame, find the same codewords (the CRC's
//! syndrome table depends on its length and bit order only, so the CRC's
//! estimate is the lone CRC's, digit for digit), and each codeword `e`
//! also counts `P(e) pass(e) / D(e)`, where `pass(e)` is the exact
//! probability over the random payload that every checksum passes
//! ([`JointModel::pass_probability_any`]: any number of flipped bits,
//! the conventions and field model of the binary symmetric joint). Then
//! `E_Q[Z_joint] = sum over codewords e of P(e) pass(e)`, the joint escape:
//! unbiased for any pass function (tested over every draw of small frames),
//! with its own hits, variance and normal interval, widened by the field
//! model's bound (the same weighted sum of
//! [`JointModel::field_model_bound`] over the codewords that flip a field
//! computed from random data; negligible beyond tiny frames). The draws are
//! shaped for CRC codewords, most of which fail a checksum, so the joint's
//! relative error is several times the CRC's.
//!
//! Streams: work item `i` draws `min(CHUNK, rest)` patterns from
//! `chunk_rng(seed, i, 3000)`; the sums of the scores and of their squares
//! are exact ([`crate::exact_sum`]), so they add up to the same bits in any
//! order, and the result depends on the seed and the parameters only (not
//! on threads, shards, MPI ranks or where a run was resumed).

use crate::channel::{Channel, GilbertElliott, geometric};
use crate::exact_sum::ExactSum;
use crate::rare::{Lookup, RareEstimate, widest_crc};
use crate::run::Plan;
use crate::stream::{chunk_rng, unit_f64};
use aliasing_core::joint::JointModel;
use aliasing_core::markov::gilbert;
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
    /// `free^d` (the channel's own moves) for `d <= 64`.
    free_pow: Vec<M2>,
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
        let mut free_pow = vec![id];
        for d in 1..=64 {
            free_pow.push(mm(&free_pow[d - 1], &t));
        }
        Ok(PatternLaw {
            n,
            free_pow,
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
        let (mut a, mut ln) = (self.pi, 0.0);
        let mut pos = 0u64;
        for &p in errors {
            self.gap_row(&mut a, &mut ln, p as u64 - pos);
            a = vm(a, &self.err);
            renorm(&mut a, &mut ln);
            if ln == f64::NEG_INFINITY {
                return ln;
            }
            pos = p as u64 + 1;
        }
        self.gap_row(&mut a, &mut ln, self.n - pos);
        ln + (a[0] + a[1]).ln()
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
    let c = if mean > 0.0 {
        (3.0 / mean).max(1.0)
    } else {
        1.0
    };
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

impl Default for Window {
    fn default() -> Self {
        Window {
            pos: Vec::with_capacity(64),
            basis: [(0, 0); 64],
        }
    }
}

impl Window {
    /// Rebuilds the window of first error `f` from `table`, stopping at `r`
    /// positions or at the frame's end.
    fn build(&mut self, table: &[u64], f: u32, r: usize) {
        self.pos.clear();
        self.basis = [(0, 0); 64];
        for (p, &t) in table.iter().enumerate().skip(f as usize + 1) {
            if self.pos.len() == r {
                break;
            }
            let (v, m) = self.reduce(t, 1u64 << self.pos.len());
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

/// Buffers reused from draw to draw.
#[derive(Default)]
struct Scratch {
    win: Window,
    wpos: Vec<u32>,
    fwd: Vec<([f64; 2], f64)>,
    bwd: Vec<([f64; 2], f64)>,
    e: Vec<u32>,
    head: Vec<u32>,
    found: Vec<u32>,
    bursts: Vec<(u64, u64)>,
}

/// Entries of the short-burst table at most (about 60 MB of lookup).
const BURST_ENTRIES: u64 = 1 << 21;

/// Errors in a short burst at most: a burst looked up is an error at its
/// start and at most this many fewer in the rest of its span.
pub const BURST_ERRORS: u32 = 3;
const _: () = assert!(
    BURST_ERRORS == 3,
    "ShortBursts::new lists up to two extra errors"
);

/// The short bursts the lookup knows (route 3 of the module notes): every
/// pattern of span `span` that starts with an error and has at most
/// [`BURST_ERRORS`] errors, and the
/// way the ones with a given syndrome are found.
struct ShortBursts {
    /// Span `L` (bits from the first error).
    span: u64,
    /// Each pattern's errors after the first, as a mask over the next
    /// `L - 1` bits (pattern 0 is the lone error).
    patterns: Vec<u64>,
    finder: Finder,
}

/// How [`ShortBursts::each`] finds the bursts with a syndrome.
enum Finder {
    /// A table of every pattern at every start: index `s * patterns + k`.
    Table(Lookup),
    /// The syndromes of the patterns at the first `step` starts, and the
    /// map `B` with `table[p] = B table[p + 1]` for every position (a CRC's
    /// shift structure): a burst at `s = j step + s0` has syndrome `t` only
    /// if the same burst at `s0` has syndrome `B^(j step) t`, so one pass
    /// over `n / step` strides with a small lookup finds them all (any
    /// span up to 64, no big table); each is then checked directly.
    Scan {
        /// `B^step` applied a byte at a time: `bytes[i][v]` is `B^step (v << 8i)`.
        bytes: Vec<[u64; 256]>,
        /// Starts per stride.
        step: u64,
        /// Index `s0 * patterns + k`: pattern `k`'s syndrome at start `s0`.
        first: Lookup,
        /// A bit per value of the low bits (`mask`) of those syndromes.
        filter: Vec<u64>,
        /// The bits the filter looks at.
        mask: u64,
    },
}

/// Starts per stride of the scan (`ShortBursts`).
const STEP: usize = 64;

/// Number of patterns of span `span`: `1 + C(L-1, 1) + C(L-1, 2)`.
fn pattern_count(span: u64) -> u64 {
    let m = span - 1;
    1 + m + m * m.saturating_sub(1) / 2
}

/// The widest span `L <= 64` whose patterns at `n` starts fit in `cap`
/// entries (at least 1).
fn widest_span(n: u64, cap: u64) -> u64 {
    let mut span = 1u64;
    while span < 64 && n.saturating_mul(pattern_count(span + 1)) <= cap {
        span += 1;
    }
    span
}

/// The map `B` with `table[p] = B table[p + 1]` for every `p`, as its
/// images of the unit vectors, if the table has that shift structure.
fn back_map(table: &[u64], r: usize) -> Option<Vec<u64>> {
    if table.len() < r + 2 || r > 64 {
        return None;
    }
    let mut win = Window::default();
    win.build(table, 0, r);
    if win.pos.len() != r {
        return None;
    }
    let image = |mask: u64| {
        (0..r)
            .filter(|i| mask >> i & 1 == 1)
            .fold(0u64, |a, i| a ^ table[win.pos[i] as usize - 1])
    };
    let cols: Vec<u64> = (0..r)
        .map(|j| win.solve(1u64 << j).map(image))
        .collect::<Option<_>>()?;
    let apply = |v: u64| {
        (0..r)
            .filter(|j| v >> j & 1 == 1)
            .fold(0u64, |a, j| a ^ cols[j])
    };
    (0..table.len() - 1)
        .all(|p| apply(table[p + 1]) == table[p])
        .then_some(cols)
}

impl ShortBursts {
    /// The lookup for a frame's `table` and an `r`-bit CRC: the widest span
    /// whose patterns, at every start, stay below `2^r / 16` (so a draw
    /// meets about 1/16 of a match at most), found by a scan where the
    /// table has the shift structure, else from a table of at most `2^21`
    /// entries.
    fn new(table: &[u64], r: u32) -> Self {
        let n = table.len() as u64;
        let cap = 1u64 << r.saturating_sub(4).min(62);
        let (scan, tab) = (widest_span(n, cap), widest_span(n, cap.min(BURST_ENTRIES)));
        Self::with(table, r, if scan > tab { scan } else { tab }, scan > tab)
    }

    /// The patterns of span `span`, found by a scan (if `scan` and the
    /// table allows it) or from a table.
    fn with(table: &[u64], r: u32, span: u64, scan: bool) -> Self {
        let mut patterns = vec![0u64];
        let m = span - 1;
        for a in 0..m {
            patterns.push(1 << a);
        }
        // (BURST_ERRORS is 3: the pairs of extra errors)
        for a in 0..m {
            for b in a + 1..m {
                patterns.push(1 << a | 1 << b);
            }
        }
        debug_assert_eq!(patterns.len() as u64, pattern_count(span));
        let syndrome = |s: usize, pat: u64| -> u64 {
            let last = s as u64 + 64 - pat.leading_zeros() as u64;
            if pat != 0 && last >= table.len() as u64 {
                return 0; // runs off the frame: skipped when found
            }
            (0..m)
                .filter(|j| pat >> j & 1 == 1)
                .fold(table[s], |a, j| a ^ table[s + 1 + j as usize])
        };
        let back = if scan {
            back_map(table, r as usize)
        } else {
            None
        };
        let finder = match back {
            Some(cols) => {
                // the bursts at starts 0..STEP, then strides of STEP starts
                let step = STEP.min(table.len());
                let first: Vec<u64> = (0..step)
                    .flat_map(|st| patterns.iter().map(move |&p| (st, p)))
                    .map(|(st, p)| syndrome(st, p))
                    .collect();
                let bits = r.min(20);
                let mut filter = vec![0u64; (1usize << bits).div_ceil(64)];
                let mask = (1u64 << bits) - 1;
                for &f in &first {
                    let i = f & mask;
                    filter[(i >> 6) as usize] |= 1 << (i & 63);
                }
                // B^step, column by column
                let apply = |c: &[u64], v: u64| {
                    (0..r as usize)
                        .filter(|j| v >> j & 1 == 1)
                        .fold(0u64, |a, j| a ^ c[j])
                };
                let mut stride = cols.clone();
                for _ in 1..step {
                    stride = stride.iter().map(|&v| apply(&cols, v)).collect();
                }
                let bytes = (0..r.div_ceil(8) as usize)
                    .map(|i| {
                        let mut t = [0u64; 256];
                        for (v, out) in t.iter_mut().enumerate() {
                            *out = (0..8)
                                .filter(|b| v >> b & 1 == 1)
                                .fold(0, |a, b| a ^ stride.get(8 * i + b).copied().unwrap_or(0));
                        }
                        t
                    })
                    .collect();
                Finder::Scan {
                    bytes,
                    step: step as u64,
                    first: Lookup::new(&first),
                    filter,
                    mask,
                }
            }
            None => {
                let per = patterns.len();
                let mut out = vec![0u64; table.len() * per];
                for s in 0..table.len() {
                    for (k, &pat) in patterns.iter().enumerate() {
                        out[s * per + k] = syndrome(s, pat);
                    }
                }
                Finder::Table(Lookup::new(&out))
            }
        };
        ShortBursts {
            span,
            patterns,
            finder,
        }
    }

    /// Calls `f(start, pattern)` for every short burst inside the frame of
    /// `table` with syndrome `t`.
    fn each(&self, table: &[u64], t: u64, mut f: impl FnMut(u64, u64)) {
        let n = table.len() as u64;
        let mut emit = |st: u64, k: u32| {
            let pat = self.patterns[k as usize];
            if pat == 0 || st + 1 + (63 - pat.leading_zeros() as u64) < n {
                f(st, pat);
            }
        };
        match &self.finder {
            Finder::Table(l) => {
                let per = self.patterns.len() as u64;
                l.each(t, |idx| emit(idx as u64 / per, (idx as u64 % per) as u32));
            }
            Finder::Scan {
                bytes,
                step,
                first,
                filter,
                mask,
            } => {
                let per = self.patterns.len() as u64;
                let mut y = t;
                let mut base = 0u64;
                while base < n {
                    let i = y & mask;
                    if filter[(i >> 6) as usize] >> (i & 63) & 1 == 1 {
                        first.each(y, |idx| {
                            let (s0, k) = (idx as u64 / per, idx as u64 % per);
                            let st = base + s0;
                            // only if: check the burst's syndrome itself
                            if st < n && self.syndrome(table, st, self.patterns[k as usize]) == t {
                                emit(st, k as u32);
                            }
                        });
                    }
                    let mut z = 0u64;
                    for (i, b) in bytes.iter().enumerate() {
                        z ^= b[(y >> (8 * i) & 0xff) as usize];
                    }
                    y = z;
                    base += step;
                }
            }
        }
    }

    /// The syndrome of pattern `pat` at start `st` (0 if it runs off the frame).
    fn syndrome(&self, table: &[u64], st: u64, pat: u64) -> u64 {
        let last = st + 64 - pat.leading_zeros() as u64;
        if pat != 0 && last >= table.len() as u64 {
            return 0;
        }
        (0..self.span - 1)
            .filter(|j| pat >> j & 1 == 1)
            .fold(table[st as usize], |a, j| a ^ table[(st + 1 + j) as usize])
    }
}

/// Whether the window of every anchor `a` is the run `a+1 ..= a+r` (cut at
/// the frame's end): then the windows need no basis to be summed out.
/// Checked for frames up to 2^20 bits; longer ones build each window.
fn contiguous_windows(table: &[u64], r: usize) -> bool {
    if table.len() > 1 << 20 {
        return false;
    }
    let mut win = Window::default();
    (0..table.len() as u32).all(|a| {
        win.build(table, a, r);
        win.pos
            .iter()
            .enumerate()
            .all(|(i, &p)| p == a + 1 + i as u32)
            && win.pos.len() == r.min(table.len() - 1 - a as usize)
    })
}

/// One draw's score, split by the route that found its codewords.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct Score {
    /// From the window completion.
    pub window: f64,
    /// From the single-position syndrome lookup.
    pub position: f64,
    /// From the short-burst syndrome lookup.
    pub burst: f64,
    /// Where the stack has Internet checksums beside its CRC
    /// ([`BurstRareWork::joint`]): each codeword found counted with
    /// `P(e) / D(e)` times the probability over the random payload that
    /// every checksum passes too; 0 otherwise.
    pub joint: f64,
    /// Each codeword found that flips a checksum field computed from random
    /// data, counted with `P(e) / D(e)` times the field model's bound
    /// ([`JointModel::field_model_bound`]); 0 otherwise.
    pub model: f64,
}

impl Score {
    /// The draw's score `Z`, the sum over the routes.
    pub fn total(&self) -> f64 {
        self.window + self.position + self.burst
    }
}

/// The tally of a run or of part of it: exact sums of the draws' scores
/// ([`ExactSum`]), so that any split into items, shards, ranks or resumed
/// pieces adds up to the same bits.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct BurstTally {
    /// Draws.
    pub n: u64,
    /// Draws that found a codeword with a nonzero score.
    pub hits: u64,
    /// Sum of the scores.
    pub sum: ExactSum,
    /// Sum of the squared scores.
    pub sum2: ExactSum,
    /// Sums of the scores' parts by route: window completion,
    /// single-position lookup, short-burst lookup.
    pub routes: [ExactSum; 3],
}

impl BurstTally {
    /// Adds one draw's score.
    fn push(&mut self, sc: &Score) {
        let z = sc.total();
        self.n += 1;
        if z > 0.0 {
            self.hits += 1;
            self.sum.add(z);
            self.sum2.add_square(z);
            for (r, v) in self
                .routes
                .iter_mut()
                .zip([sc.window, sc.position, sc.burst])
            {
                r.add(v);
            }
        }
    }
}

impl crate::shard::Tally for BurstTally {
    fn empty_like(&self) -> Self {
        BurstTally::default()
    }
    fn add(&mut self, o: &Self) {
        self.n += o.n;
        self.hits += o.hits;
        self.sum.merge(&o.sum);
        self.sum2.merge(&o.sum2);
        for (a, b) in self.routes.iter_mut().zip(&o.routes) {
            a.merge(b);
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
    /// Share of the estimate found by the window completion.
    pub window_share: f64,
    /// Share of the estimate found by the single-position lookup.
    pub position_share: f64,
    /// Share of the estimate found by the short-burst lookup.
    pub burst_share: f64,
    /// `P(at least one error and the CRC passes)`, with its interval.
    pub crc: RareEstimate,
}

/// The report of a burst-channel rare-event run (kind
/// `simulate-rare-burst`): the run's parameters, the draws and the result.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[non_exhaustive]
pub struct BurstRareReport {
    /// Parameters of the run.
    pub params: crate::spec::Params,
    /// `"rare-burst"`.
    pub method: String,
    /// Draws.
    pub samples: u64,
    /// The estimate.
    pub result: BurstRareResult,
}

impl BurstRareReport {
    /// The report of `result` for the run `params`.
    pub fn new(params: crate::spec::Params, result: BurstRareResult) -> Self {
        BurstRareReport {
            params,
            method: "rare-burst".into(),
            samples: result.samples,
            result,
        }
    }
}

impl aliasing_core::document::Document for BurstRareReport {
    const KIND: &'static str = "simulate-rare-burst";
}

/// The tally of a joint run ([`BurstRareWork::joint_item`]): the CRC's
/// tally and exact sums of the draws' joint scores, so that any split into
/// items adds up to the same bits.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct JointBurstTally {
    /// The CRC's tally of the same draws.
    pub crc: BurstTally,
    /// Draws whose joint score is positive.
    pub hits: u64,
    /// Sum of the joint scores.
    pub sum: ExactSum,
    /// Sum of their squares.
    pub sum2: ExactSum,
    /// Sum of the field model's bound scores.
    pub model: ExactSum,
}

impl JointBurstTally {
    fn push(&mut self, sc: &Score) {
        self.crc.push(sc);
        if sc.joint > 0.0 {
            self.hits += 1;
            self.sum.add(sc.joint);
            self.sum2.add_square(sc.joint);
        }
        if sc.model > 0.0 {
            self.model.add(sc.model);
        }
    }
}

impl crate::shard::Tally for JointBurstTally {
    fn empty_like(&self) -> Self {
        JointBurstTally::default()
    }
    fn add(&mut self, o: &Self) {
        self.crc.add(&o.crc);
        self.hits += o.hits;
        self.sum.merge(&o.sum);
        self.sum2.merge(&o.sum2);
        self.model.merge(&o.model);
    }
}

/// The result of a joint run on a burst channel: the CRC's escape and the
/// joint escape (every check passes), each an estimate with its interval,
/// from the same draws.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct BurstJointResult {
    /// How it was obtained (an estimate, never exact).
    pub method: String,
    /// The Internet checksums beside the CRC.
    pub checks: Vec<String>,
    /// Draws whose joint score is positive.
    pub hits: u64,
    /// The field model's bound, summed over the codewords as the estimate
    /// is (0 where no codeword found flips a field computed from random
    /// data); the interval is widened by it.
    pub model_error: f64,
    /// `P(at least one error and every check passes)`, with its interval.
    pub joint: RareEstimate,
    /// The CRC's escape from the same draws (that of the lone CRC at the
    /// frame length, digit for digit).
    pub crc: BurstRareResult,
}

/// The name of the joint method in outputs.
pub const JOINT_METHOD: &str = "estimate: importance sampling (Gilbert-Elliott proposal; \
    window completions + position and short-burst lookups, balance heuristic), each CRC \
    codeword found weighted by the exact probability over the random payload that every \
    Internet checksum passes";

/// The name of the method in outputs.
pub const METHOD: &str = "estimate: importance sampling (Gilbert-Elliott proposal; \
    window completions + position and short-burst lookups, balance heuristic)";

/// What a codeword found must pass beside the CRC.
enum Checks {
    /// Nothing: a lone CRC.
    Lone,
    /// The stack's Internet checksums, over a random payload.
    Joint(Box<JointModel>),
    /// A given pass probability per pattern (tests of the weighting).
    #[cfg(test)]
    Given(fn(&[u32]) -> f64),
}

/// A burst-channel rare-event run cut into work items fixed by the parameters.
pub struct BurstRareWork {
    checks: Checks,
    seed: u64,
    crc_name: String,
    /// The names of the frame's checks, in its order.
    check_names: Vec<String>,
    table: Vec<u64>,
    lookup: Lookup,
    width: usize,
    /// Every window is the run of the `width` bits after its anchor.
    contiguous: bool,
    /// The short bursts the lookup knows, and how they are found.
    short: ShortBursts,
    channel: GilbertElliott,
    proposal: GilbertElliott,
    p: PatternLaw,
    q: PatternLaw,
    /// Per state of the proposal (good, bad): `ln(1 - leave)` and
    /// `ln(1 - p_error)`, the logs of [`BurstRareWork::draw`]'s geometric
    /// steps, computed once, not per draw.
    ln_leave: [f64; 2],
    ln_clean: [f64; 2],
    samples: u64,
}

impl BurstRareWork {
    /// Plans the run of `plan` (a lone CRC on a Gilbert-Elliott channel)
    /// with `samples` draws from `proposal` ([`default_proposal`] if `None`).
    pub fn new(plan: &Plan, samples: u64, proposal: Option<GilbertElliott>) -> Result<Self> {
        Self::build(plan, samples, proposal, false)
    }

    /// Plans the run of `plan`, a stack of one CRC over the whole frame and
    /// Internet checksums (`ethernet-tcp`, `ipv4-tcp+CRC`, `internet+CRC`;
    /// see [`JointModel::new`]) on a Gilbert-Elliott channel, for the joint
    /// escape: the draws, codewords and weights of [`BurstRareWork::new`]
    /// over the stack's frame (so the CRC's estimate is the one of a lone
    /// CRC at that length), each codeword also counted with the exact
    /// probability over the random payload that every checksum passes
    /// ([`JointModel::pass_probability_any`]). Unbiased for the joint
    /// escape, as the CRC's estimate is for the CRC's: `E_Q[sum over found
    /// e of P(e) pass(e) / D(e)] = sum over codewords e of P(e) pass(e)`.
    pub fn joint(plan: &Plan, samples: u64, proposal: Option<GilbertElliott>) -> Result<Self> {
        Self::build(plan, samples, proposal, true)
    }

    fn build(
        plan: &Plan,
        samples: u64,
        proposal: Option<GilbertElliott>,
        joint: bool,
    ) -> Result<Self> {
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
        let checks = if !joint {
            if f.checks.len() != 1 || f.checks[0].crc().is_none() {
                return Err(Error::Unsupported(
                    "--rare --burst estimates a lone CRC's escape (a CRC stack such as ethernet or \
                     crc32); the other checks of this stack are not modelled"
                        .into(),
                ));
            }
            Checks::Lone
        } else {
            let m = JointModel::new(f)?;
            if m.internet.is_empty() {
                return Err(Error::Unsupported(format!(
                    "stack `{}` has no Internet checksum beside its CRC: its escape is the CRC's",
                    f.stack
                )));
            }
            if !m.random_bits_under_one_check() {
                return Err(Error::Unsupported(format!(
                    "stack `{}`: random bytes under two Internet checksums",
                    f.stack
                )));
            }
            Checks::Joint(Box::new(m))
        };
        let (ci, table) = widest_crc(plan)?;
        let alg = f.checks[ci].crc().expect("a CRC");
        let n = f.n_bits();
        let proposal = proposal.unwrap_or_else(|| default_proposal(&ge, n));
        check_proposal(&proposal)?;
        let width = alg.width() as usize;
        Ok(BurstRareWork {
            checks,
            contiguous: contiguous_windows(&table, width),
            short: ShortBursts::new(&table, alg.width()),
            seed: plan.seed,
            crc_name: f.checks[ci].name.clone(),
            check_names: f.checks.iter().map(|c| c.name.clone()).collect(),
            lookup: Lookup::new(&table),
            width,
            table,
            channel: ge,
            proposal,
            p: PatternLaw::new(&ge, n)?,
            q: PatternLaw::new(&proposal, n)?,
            ln_leave: [
                (-proposal.good_to_bad).ln_1p(),
                (-proposal.bad_to_good).ln_1p(),
            ],
            ln_clean: [(-proposal.p_good).ln_1p(), (-proposal.p_bad).ln_1p()],
            samples,
        })
    }

    /// Number of work items.
    pub fn items(&self) -> u64 {
        self.samples.div_ceil(CHUNK)
    }

    /// The empty tally.
    pub fn zero(&self) -> BurstTally {
        BurstTally::default()
    }

    /// The proposal in use.
    pub fn proposal(&self) -> GilbertElliott {
        self.proposal
    }

    /// Draws one error pattern from the proposal (positions increasing).
    fn draw(&self, rng: &mut Xoshiro256PlusPlus, xs: &mut Vec<u32>) {
        xs.clear();
        let n = self.table.len() as u64;
        let (ln_leave, ln_clean) = (self.ln_leave, self.ln_clean);
        // the proposal's stationary law, kept by its pattern law
        let mut bad = (unit_f64(rng) <= self.q.pi[1]) as usize;
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

    /// The window of anchor `a` (its positions only) into `out`.
    fn window_positions(&self, a: u32, win: &mut Window, out: &mut Vec<u32>) {
        out.clear();
        if self.contiguous {
            let last = (a as u64 + self.width as u64).min(self.table.len() as u64 - 1) as u32;
            out.extend(a + 1..=last);
        } else {
            win.build(&self.table, a, self.width);
            out.extend_from_slice(&win.pos);
        }
    }

    /// `ln D(e) = ln (Q1(e) + Q2(e) + Q3(e))` for a codeword `e` (positions increasing): the
    /// expected number of times one draw produces `e`, by a window anchored
    /// at one of its errors (`Q1`) or by the lookup (`Q2`). One forward and
    /// one backward pass over `e`, then `O(r)` per anchor (`O(1)` when the
    /// windows are runs of consecutive bits).
    fn ln_denominator(&self, e: &[u32], sc: &mut Scratch) -> f64 {
        let q = &self.q;
        let k = e.len();
        let n = q.n;
        sc.fwd.clear();
        let (mut a, mut la) = (q.pi, 0.0);
        let mut pos = 0u64;
        for &p in e {
            q.gap_row(&mut a, &mut la, p as u64 - pos);
            sc.fwd.push((a, la));
            a = vm(a, &q.err);
            renorm(&mut a, &mut la);
            pos = p as u64 + 1;
        }
        // bwd[j]: the column vector of bits e_j.. (bit e_j flipped, the rest as in e)
        sc.bwd.clear();
        sc.bwd.resize(k + 1, ([1.0, 1.0], 0.0));
        let mut total = f64::NEG_INFINITY;
        let mut end = n;
        for j in (0..k).rev() {
            let (mut b, mut lb) = sc.bwd[j + 1];
            q.gap_col(&mut b, &mut lb, end - e[j] as u64 - 1);
            // leave e_j out (Q2's term)
            let (fa, fl) = sc.fwd[j];
            let c = vm(fa, &q.clean);
            let v = c[0] * b[0] + c[1] * b[1];
            if v > 0.0 {
                total = ln_add(total, fl + lb + v.ln());
            }
            b = mv(&q.err, b);
            renorm(&mut b, &mut lb);
            sc.bwd[j] = (b, lb);
            end = e[j] as u64;
        }
        // Q1: a window after each error of e
        for i in 0..k {
            let (mut a, mut la) = sc.fwd[i];
            a = vm(a, &q.err);
            renorm(&mut a, &mut la);
            let mut pos = e[i] as u64 + 1;
            let mut j = i + 1;
            if self.contiguous {
                let last = (e[i] as u64 + self.width as u64).min(n - 1);
                if last >= pos {
                    a = vm(a, &q.free_pow[(last + 1 - pos) as usize]);
                    renorm(&mut a, &mut la);
                    pos = last + 1;
                }
                while j < k && (e[j] as u64) < pos {
                    j += 1;
                }
            } else {
                let mut wpos = std::mem::take(&mut sc.wpos);
                self.window_positions(e[i], &mut sc.win, &mut wpos);
                for &w in &wpos {
                    while j < k && e[j] < w {
                        q.gap_row(&mut a, &mut la, e[j] as u64 - pos);
                        a = vm(a, &q.err);
                        renorm(&mut a, &mut la);
                        pos = e[j] as u64 + 1;
                        j += 1;
                    }
                    if j < k && e[j] == w {
                        j += 1; // summed out with the window
                    }
                    q.gap_row(&mut a, &mut la, w as u64 - pos);
                    a = vm(a, &q.free);
                    renorm(&mut a, &mut la);
                    pos = w as u64 + 1;
                }
                sc.wpos = wpos;
            }
            let term = if j < k {
                q.gap_row(&mut a, &mut la, e[j] as u64 - pos);
                let (b, lb) = sc.bwd[j];
                la + lb + (a[0] * b[0] + a[1] * b[1]).ln()
            } else {
                q.gap_row(&mut a, &mut la, n - pos);
                la + (a[0] + a[1]).ln()
            };
            if la > f64::NEG_INFINITY {
                total = ln_add(total, term);
            }
        }
        // Q3: the short burst e ∩ [s, s+L) for each error s of e, the rest drawn
        for i in 0..k {
            let s0 = e[i] as u64;
            let mut j = i;
            while j < k && (e[j] as u64) < s0 + self.short.span {
                j += 1;
            }
            if j - i > BURST_ERRORS as usize {
                continue; // not a short burst the lookup knows
            }
            let (mut a, mut la) = sc.fwd[i];
            let term = if j < k {
                q.gap_row(&mut a, &mut la, e[j] as u64 - s0);
                let (b, lb) = sc.bwd[j];
                la + lb + (a[0] * b[0] + a[1] * b[1]).ln()
            } else {
                q.gap_row(&mut a, &mut la, n - s0);
                la + (a[0] + a[1]).ln()
            };
            if la > f64::NEG_INFINITY {
                total = ln_add(total, term);
            }
        }
        total
    }

    /// `P(e) / D(e)` for a codeword `e` (positions increasing).
    fn weight(&self, e: &[u32], sc: &mut Scratch) -> f64 {
        let lp = self.p.ln_prob(e);
        if lp == f64::NEG_INFINITY {
            return 0.0;
        }
        (lp - self.ln_denominator(e, sc)).exp()
    }

    /// A codeword `e` found: `(P(e) / D(e), that times the probability
    /// that every other check passes, that times the field model's bound
    /// where `e` flips a field computed from random data)`.
    fn found(&self, e: &[u32], sc: &mut Scratch) -> (f64, f64, f64) {
        let w = self.weight(e, sc);
        if w == 0.0 {
            return (0.0, 0.0, 0.0);
        }
        match &self.checks {
            Checks::Lone => (w, 0.0, 0.0),
            Checks::Joint(m) => {
                // every pattern answers: random bits under one check (build)
                let pass = m.pass_probability_any(e).unwrap_or(1.0);
                let model = if m.flips_random_field(e) {
                    w * m.field_model_bound(e.len() as u32)
                } else {
                    0.0
                };
                (w, w * pass, model)
            }
            #[cfg(test)]
            Checks::Given(f) => (w, w * f(e), 0.0),
        }
    }

    /// The score of the draw `xs` (error positions, increasing).
    pub fn score(&self, xs: &[u32]) -> Score {
        self.score_with(xs, &mut Scratch::default())
    }

    fn score_with(&self, xs: &[u32], sc: &mut Scratch) -> Score {
        let mut out = Score::default();
        let mut e = std::mem::take(&mut sc.e);
        let mut head = std::mem::take(&mut sc.head);
        // 1. window completion after each error
        for &a in xs {
            sc.win.build(&self.table, a, self.width);
            head.clear();
            head.extend(xs.iter().copied().filter(|p| !sc.win.pos.contains(p)));
            let s = head.iter().fold(0u64, |s, &p| s ^ self.table[p as usize]);
            if let Some(mask) = sc.win.solve(s) {
                e.clear();
                e.extend_from_slice(&head);
                e.extend(
                    (0..sc.win.pos.len())
                        .filter(|i| mask >> i & 1 == 1)
                        .map(|i| sc.win.pos[i]),
                );
                e.sort_unstable();
                let (w, j, m) = self.found(&e, sc);
                out.window += w;
                out.joint += j;
                out.model += m;
            }
        }
        // 2. syndrome lookup: every position completing xs
        let s = xs.iter().fold(0u64, |s, &p| s ^ self.table[p as usize]);
        let mut found = std::mem::take(&mut sc.found);
        found.clear();
        self.lookup.each(s, |m| {
            if xs.binary_search(&m).is_err() {
                found.push(m);
            }
        });
        for &m in &found {
            e.clear();
            e.extend_from_slice(xs);
            let at = e.binary_search(&m).unwrap_err();
            e.insert(at, m);
            let (w, j, md) = self.found(&e, sc);
            out.position += w;
            out.joint += j;
            out.model += md;
        }
        // 3. short-burst lookup: every short burst B completing xs, clear of
        // xs over its span
        let mut bursts = std::mem::take(&mut sc.bursts);
        bursts.clear();
        self.short.each(&self.table, s, |st, pat| {
            let at = xs.partition_point(|&p| (p as u64) < st);
            if at == xs.len() || xs[at] as u64 >= st + self.short.span {
                bursts.push((st, pat));
            }
        });
        for &(st, pat) in &bursts {
            e.clear();
            e.extend_from_slice(xs);
            e.push(st as u32);
            e.extend(
                (0..self.short.span - 1)
                    .filter(|j| pat >> j & 1 == 1)
                    .map(|j| (st + 1 + j) as u32),
            );
            e.sort_unstable();
            let (w, j, m) = self.found(&e, sc);
            out.burst += w;
            out.joint += j;
            out.model += m;
        }
        sc.found = found;
        sc.bursts = bursts;
        sc.e = e;
        sc.head = head;
        out
    }

    /// The tally of item `i`: `min(CHUNK, rest)` draws from its own stream.
    pub fn item(&self, i: u64) -> BurstTally {
        let count = CHUNK.min(self.samples - i * CHUNK);
        let mut rng = chunk_rng(self.seed, i, FAMILY);
        let mut xs = Vec::new();
        let mut scratch = Scratch::default();
        let mut t = BurstTally::default();
        for _ in 0..count {
            self.draw(&mut rng, &mut xs);
            t.push(&self.score_with(&xs, &mut scratch));
        }
        t
    }

    /// The joint tally of item `i`: the draws of [`BurstRareWork::item`]
    /// (the same stream), scored for the CRC and for the whole stack.
    pub fn joint_item(&self, i: u64) -> JointBurstTally {
        let count = CHUNK.min(self.samples - i * CHUNK);
        let mut rng = chunk_rng(self.seed, i, FAMILY);
        let mut xs = Vec::new();
        let mut scratch = Scratch::default();
        let mut t = JointBurstTally::default();
        for _ in 0..count {
            self.draw(&mut rng, &mut xs);
            t.push(&self.score_with(&xs, &mut scratch));
        }
        t
    }

    /// The joint estimate from the tally of a whole run: the CRC's escape
    /// ([`BurstRareWork::finish`] of the same draws) and the joint escape,
    /// the mean of the joint scores with its normal 95% interval, widened
    /// by the field model's bound (the mean of the draws' bound scores)
    /// where it is not 0. With no draw whose joint score is positive, the
    /// estimate is 0 and the upper end the CRC's (every draw's joint score
    /// is at most its CRC score).
    pub fn finish_joint(&self, tally: &JointBurstTally) -> BurstJointResult {
        let crc = self.finish(&tally.crc);
        let n = tally.crc.n.max(1) as f64;
        let mean = tally.sum.to_f64() / n;
        let var = crate::exact_sum::variance(tally.crc.n, &tally.sum, &tally.sum2);
        let se = (var / n).sqrt();
        let model = tally.model.to_f64() / n;
        let joint = RareEstimate {
            rate: mean,
            std_err: se,
            rel_std_err: if mean > 0.0 { se / mean } else { f64::INFINITY },
            ci_low: (mean - 1.959964 * se - model).max(0.0),
            ci_high: if tally.hits > 0 {
                mean + 1.959964 * se + model
            } else {
                crc.crc.ci_high
            },
            exact: None,
        };
        let checks = match &self.checks {
            Checks::Joint(m) => m
                .internet
                .iter()
                .map(|&i| self.check_names[i].clone())
                .collect(),
            _ => Vec::new(),
        };
        BurstJointResult {
            method: JOINT_METHOD.into(),
            checks,
            hits: tally.hits,
            model_error: model,
            joint,
            crc,
        }
    }

    /// The estimate from the tally of a whole run (or of the items done so
    /// far: the draws counted are the draws made).
    pub fn finish(&self, tally: &BurstTally) -> BurstRareResult {
        let n = tally.n.max(1) as f64;
        let sum = tally.sum.to_f64();
        let mean = sum / n;
        let var = crate::exact_sum::variance(tally.n, &tally.sum, &tally.sum2);
        let se = (var / n).sqrt();
        let share = |r: &ExactSum| if sum > 0.0 { r.to_f64() / sum } else { 0.0 };
        let crc = RareEstimate {
            rate: mean,
            std_err: se,
            rel_std_err: if mean > 0.0 { se / mean } else { f64::INFINITY },
            ci_low: (mean - 1.959964 * se).max(0.0),
            ci_high: if tally.hits > 0 {
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
            samples: tally.n,
            hits: tally.hits,
            window_share: share(&tally.routes[0]),
            position_share: share(&tally.routes[1]),
            burst_share: share(&tally.routes[2]),
            crc,
        }
    }
}

/// The exact escape of `plan`'s lone CRC on its Gilbert-Elliott channel,
/// where a cheap exact method applies: the simulator's exact values
/// ([`crate::exact::exact_values`]) if they cover the channel, else the
/// product chain ([`aliasing_core::markov::gilbert`]) for a CRC over the
/// whole frame in transmission order with its field (whole bytes, no
/// padding) at the end, up to
/// `n 2^r <= 4e9`. `None` otherwise (32 bits: no exact method, see the
/// module notes).
pub fn exact_escape(plan: &Plan) -> Option<f64> {
    exact_escape_with(plan, &aliasing_core::progress::Silent)
}

/// [`exact_escape`] watched by `progress`: the stages of
/// [`crate::exact::exact_values_with`], then `"chain steps"` of the product
/// chain when it runs.
pub fn exact_escape_with(
    plan: &Plan,
    progress: &dyn aliasing_core::progress::Progress,
) -> Option<f64> {
    let Channel::Burst(ge) = plan.channel else {
        return None;
    };
    let f = &plan.frame;
    if let Some(v) = crate::exact::exact_values_with(plan, progress)
        .checks
        .first()
        .copied()
        .flatten()
    {
        return Some(v);
    }
    let [c] = &f.checks[..] else { return None };
    let alg = c.crc()?;
    let w = alg.width();
    let n = f.n_bits();
    // (a field with padding bits is not the chain's codeword)
    let whole =
        c.data == (0, c.field) && c.field + c.field_len == f.bytes && 8 * c.field_len as u32 == w;
    if !whole || w > gilbert::MAX_WIDTH || (n as f64) * 2f64.powi(w as i32) > 4e9 {
        return None;
    }
    gilbert::solve_with(&alg.generator(), &[n], &ge, progress)
        .first()
        .map(|pt| pt.p_undetected)
}

/// Estimates the joint escape of `plan`'s stack (one CRC and Internet
/// checksums, [`BurstRareWork::joint`]) on its Gilbert-Elliott channel, and
/// its CRC's escape from the same draws, with `samples` draws from
/// `proposal` ([`default_proposal`] if `None`) on `threads` threads (0 =
/// all cores); the result depends on the seed and parameters only.
pub fn estimate_joint(
    plan: &Plan,
    samples: u64,
    proposal: Option<GilbertElliott>,
    threads: usize,
) -> Result<BurstJointResult> {
    let work = BurstRareWork::joint(plan, samples, proposal)?;
    let tally = crate::shard::drive_all(work.items(), JointBurstTally::default(), threads, |i| {
        work.joint_item(i)
    })?;
    Ok(work.finish_joint(&tally))
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
    let tally = crate::shard::drive_all(work.items(), work.zero(), threads, |i| work.item(i))?;
    Ok(work.finish(&tally))
}

#[cfg(test)]
mod tests;
