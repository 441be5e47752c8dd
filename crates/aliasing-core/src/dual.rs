//! Exact undetected-error probability from the weight distribution of the
//! dual code (MacWilliams), for CRCs up to 32 bits wide.
//!
//! The dual of the shortened CRC code of length `n` is the set of length-`n`
//! windows of the output sequences of the LFSR whose characteristic
//! polynomial is `g`: one window per register state, `2^r` in all. Here the
//! register is in Galois form (`a -> x a mod g`) and the output is its top
//! bit, so the window of state `a` is `msb(a x^i mod g)` for `i < n`; the map
//! from states to these sequences is a bijection onto the dual code.
//!
//! - For a primitive `g` every non-zero state lies on one cycle of length
//!   `2^r - 1`: the windows are those of one m-sequence, plus the zero word.
//! - For `g = (x+1) p` with `p` primitive the cycles are known in closed form.
//! - Otherwise every cycle of the state graph is walked once. Up to 24 bits
//!   a visited bitmap of `2^r` bits marks the states; above that, short
//!   cycles come from the subspaces `{a : x^L a = a}` and long ones from
//!   their distinguished states (a `2^24`-bit bitmap), with the full bitmap
//!   (512 MiB at `r = 32`, slow: random access) only as a fallback when
//!   the lengths found do not cover all `2^r` states.
//!
//! Sequence bits come 64 at a time from byte tables (output block and the
//! jump `x^64`); each cycle is cut into segments that start at `a x^j mod g`
//! (jump-ahead) and run on rayon threads; every requested length is counted
//! in the same pass. The per-thread histograms are added at the end.
//!
//! [`curve`] turns `B_w` into `P_ud` with [`crate::highprec`], which proves
//! 12+ significant digits for every BER in (0, 0.5].
//!
//! ```
//! use aliasing_core::{dual, poly::Generator};
//! let g: Generator = "0x11021".parse().unwrap(); // CRC-16/CCITT
//! let b = dual::dual_weights(&g, &[100]).unwrap();
//! assert_eq!(b[0].total(), 1 << 16);
//! let pts = dual::curve(&g, &[100], &[1e-6]).unwrap();
//! assert!(pts[0].p_undetected > 0.0 && pts[0].p_undetected < 1e-20);
//! ```

use crate::bsc::{CurvePoint, check_ber};
use crate::error::{Error, Result};
use crate::gf2;
use crate::highprec;
use crate::poly::Generator;
use crate::progress::{Batch, Progress, Silent};
use crate::units::MemoryBudget;
use crate::weights::DualWeights;
use rayon::prelude::*;

/// Widest generator this module accepts.
pub const MAX_WIDTH: u32 = 32;

/// The LFSR in Galois form with byte tables for 64 output bits and the
/// 64-step jump at once.
#[derive(Debug, Clone)]
pub(crate) struct Lfsr {
    width: u32,
    normal: u64,
    out: Vec<[u64; 256]>,
    jump: Vec<[u64; 256]>,
}

impl Lfsr {
    /// Builds the tables for `g` (width at most 32).
    pub fn new(g: &Generator) -> Result<Self> {
        let width = g.width();
        if width > MAX_WIDTH {
            return Err(Error::Unsupported(format!(
                "the dual-code method handles widths up to {MAX_WIDTH}, not {width}"
            )));
        }
        let nbytes = width.div_ceil(8) as usize;
        let mut l = Lfsr {
            width,
            normal: g.normal(),
            out: vec![[0; 256]; nbytes],
            jump: vec![[0; 256]; nbytes],
        };
        let mask = g.mask();
        for k in 0..nbytes {
            for b in 0..256u64 {
                let a = (b << (8 * k)) & mask;
                let (blk, next) = l.serial_block(a);
                l.out[k][b as usize] = blk;
                l.jump[k][b as usize] = next;
            }
        }
        Ok(l)
    }

    /// One step: `x a mod g`.
    #[inline]
    pub fn step(&self, a: u64) -> u64 {
        let top = (a >> (self.width - 1)) & 1;
        ((a << 1) & mask_of(self.width)) ^ (self.normal & top.wrapping_neg())
    }

    fn serial_block(&self, mut a: u64) -> (u64, u64) {
        let mut blk = 0u64;
        for i in 0..64 {
            blk |= ((a >> (self.width - 1)) & 1) << i;
            a = self.step(a);
        }
        (blk, a)
    }

    /// The next 64 output bits from state `a`, bit `i` = output at step `i`.
    #[inline]
    pub fn block(&self, a: u64) -> u64 {
        let mut r = 0;
        for (k, t) in self.out.iter().enumerate() {
            r ^= t[((a >> (8 * k)) & 0xff) as usize];
        }
        r
    }

    /// The state 64 steps after `a`: `a x^64 mod g`.
    #[inline]
    pub fn jump64(&self, a: u64) -> u64 {
        let mut r = 0;
        for (k, t) in self.jump.iter().enumerate() {
            r ^= t[((a >> (8 * k)) & 0xff) as usize];
        }
        r
    }

    fn generator(&self) -> Generator {
        Generator::new(self.width, self.normal).expect("valid")
    }

    /// The state `k` steps after `a`: `a x^k mod g` (jump-ahead).
    pub fn advance(&self, a: u64, k: u128) -> u64 {
        let g = self.generator();
        gf2::mul_residues(a, gf2::x_pow_mod(k, &g), &g)
    }
}

fn mask_of(width: u32) -> u64 {
    if width >= 64 {
        u64::MAX
    } else {
        (1u64 << width) - 1
    }
}

/// One cycle of the register's state graph: a state on it and its length.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub struct Cycle {
    /// A state on the cycle.
    pub rep: u64,
    /// Number of states on the cycle.
    pub len: u64,
}

/// How the cycles of the state graph were found.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum CycleMethod {
    /// `g` primitive: one cycle of length `2^r - 1` and the zero state.
    Primitive,
    /// `g = (x+1) p`, `p` primitive: four cycles in closed form.
    XPlusOneTimesPrimitive,
    /// Every cycle walked with a visited bitmap.
    Walk,
}

/// The cycle method [`cycles`] will use for `g`, without running it.
pub fn cycle_method(g: &Generator) -> CycleMethod {
    if gf2::is_primitive(g) {
        CycleMethod::Primitive
    } else if let Some(_p) = primitive_cofactor(g) {
        CycleMethod::XPlusOneTimesPrimitive
    } else {
        CycleMethod::Walk
    }
}

/// `p = g / (x+1)` when that is primitive of degree at least 2.
fn primitive_cofactor(g: &Generator) -> Option<Generator> {
    if g.width() < 3 || !g.divisible_by_x_plus_1() {
        return None;
    }
    let (q, rem) = gf2::divmod(g.full(), 0b11);
    if rem != 0 {
        return None;
    }
    let p = Generator::from_full(q).ok()?;
    gf2::is_primitive(&p).then_some(p)
}

/// Widths above this find cycles with distinguished points (cache-friendly)
/// before falling back to the full bitmap.
const DP_MIN_WIDTH: u32 = 24;

/// Every non-zero cycle by walking with a visited bitmap of `2^r` bits.
fn walk_bitmap(lf: &Lfsr, r: u32) -> Vec<Cycle> {
    let states = 1u64 << r;
    let mut out = Vec::new();
    let mut seen = vec![0u64; (states as usize).div_ceil(64)];
    seen[0] |= 1;
    for s in 1..states {
        if seen[(s >> 6) as usize] >> (s & 63) & 1 == 1 {
            continue;
        }
        let mut t = s;
        let mut len = 0u64;
        loop {
            seen[(t >> 6) as usize] |= 1 << (t & 63);
            len += 1;
            t = lf.step(t);
            if t == s {
                break;
            }
        }
        out.push(Cycle { rep: s, len });
    }
    out
}

/// Every non-zero cycle without a `2^r`-bit bitmap (whose random accesses
/// dominate at `r = 32`):
///
/// - cycles of length at most `SHORT` lie in the subspaces
///   `V_L = {a : x^L a = a} = (g / gcd(g, x^L + 1))` for the divisors `L` of
///   the period; their elements are listed directly (if there are few);
/// - every longer cycle is found from its *distinguished* states (low
///   `r - 24` bits zero) with a bitmap of `2^24` bits.
///
/// A long cycle without any distinguished state would be missed, so the
/// lengths are checked to cover all `2^r` states; `None` (use the bitmap
/// walk) if they do not or the short-cycle subspaces are too large.
fn walk_distinguished(g: &Generator, lf: &Lfsr) -> Option<Vec<Cycle>> {
    const SHORT: u64 = 1 << 12;
    let r = g.width();
    let period = u64::try_from(gf2::period(g)).ok()?;
    let full = g.full();
    // short cycles: all states with x^L a = a for some L | period, L <= SHORT
    let mut short = std::collections::HashSet::new();
    for l in (1..=SHORT.min(period)).filter(|l| period % l == 0) {
        let xl1 = gf2::x_pow_mod(l as u128, g) as u128 ^ 1;
        let d = gf2::gcd(full, xl1);
        let k = gf2::deg(d) as u32;
        if k > 20 {
            return None;
        }
        let h = gf2::divmod(full, d).0;
        for b in 0..(1u128 << k) {
            short.insert(gf2::clmul(h, b) as u64);
        }
        if short.len() > 1 << 22 {
            return None;
        }
    }
    let mut out = Vec::new();
    let mut done = std::collections::HashSet::new();
    let mut reps: Vec<u64> = short.iter().copied().filter(|&a| a != 0).collect();
    reps.sort_unstable();
    for a in reps {
        if done.contains(&a) {
            continue;
        }
        let (mut t, mut len) = (a, 0u64);
        loop {
            done.insert(t);
            len += 1;
            t = lf.step(t);
            if t == a {
                break;
            }
        }
        out.push(Cycle { rep: a, len });
    }
    let k = r - 24;
    let low = (1u64 << k) - 1;
    let mut seen = vec![0u64; 1 << 18]; // 2^24 bits
    for hi in 1u64..(1 << 24) {
        let s = hi << k;
        if seen[(hi >> 6) as usize] >> (hi & 63) & 1 == 1 || short.contains(&s) {
            continue;
        }
        let (mut t, mut len) = (s, 0u64);
        loop {
            if t & low == 0 {
                let i = t >> k;
                seen[(i >> 6) as usize] |= 1 << (i & 63);
            }
            len += 1;
            t = lf.step(t);
            if t == s {
                break;
            }
        }
        out.push(Cycle { rep: s, len });
    }
    let total: u128 = out.iter().map(|c| c.len as u128).sum::<u128>() + 1;
    (total == 1u128 << r).then_some(out)
}

/// Every cycle of the state graph of `a -> x a mod g`; lengths add up to `2^r`.
pub fn cycles(g: &Generator) -> Result<Vec<Cycle>> {
    let r = g.width();
    if r > MAX_WIDTH {
        return Err(Error::Unsupported(format!(
            "the dual-code method handles widths up to {MAX_WIDTH}, not {r}"
        )));
    }
    let mut out = vec![Cycle { rep: 0, len: 1 }];
    match cycle_method(g) {
        CycleMethod::Primitive => out.push(Cycle {
            rep: 1,
            len: (1u64 << r) - 1,
        }),
        CycleMethod::XPlusOneTimesPrimitive => {
            let p = primitive_cofactor(g).expect("checked");
            let l = (1u64 << (r - 1)) - 1;
            // Units: orbit of 1; multiples of x+1: orbit of x+1 (length
            // ord(x mod p)); multiples of p: p itself (x p = p mod g).
            out.push(Cycle { rep: 1, len: l });
            out.push(Cycle { rep: 0b11, len: l });
            out.push(Cycle {
                rep: p.full() as u64,
                len: 1,
            });
        }
        CycleMethod::Walk => {
            let lf = Lfsr::new(g)?;
            let fast = if r > DP_MIN_WIDTH {
                walk_distinguished(g, &lf)
            } else {
                None
            };
            match fast {
                Some(c) => out.extend(c),
                None => out.extend(walk_bitmap(&lf, r)),
            }
        }
    }
    let total: u128 = out.iter().map(|c| c.len as u128).sum();
    debug_assert_eq!(total, 1u128 << r);
    if total != 1u128 << r {
        return Err(Error::Invalid(format!(
            "internal error: cycles of {} cover {total} states, not 2^{r}",
            g.full_string()
        )));
    }
    Ok(out)
}

/// Rough work of [`dual_weights`] in sequence-bit steps: `2^r` per length,
/// plus about `4 2^r` for the cycle walk when `g` needs one. Compare with the Markov
/// chain's `n 2^r`.
pub(crate) fn work_estimate(g: &Generator, lengths: &[u64]) -> f64 {
    let states = (g.width() as f64).exp2();
    let walk = if cycle_method(g) == CycleMethod::Walk {
        4.0 * states
    } else {
        0.0
    };
    states * lengths.len() as f64 + walk
}

/// Peak memory of [`dual_weights`] in bytes (bitmap of the walk, if any,
/// and the per-thread histograms). The walk above 24 bits is counted with
/// its fallback bitmap, an upper bound.
pub(crate) fn memory_estimate(g: &Generator, lengths: &[u64]) -> f64 {
    let walk = if cycle_method(g) == CycleMethod::Walk {
        (g.width() as f64).exp2() / 8.0
    } else {
        0.0
    };
    let hist: f64 = lengths.iter().map(|&n| (n as f64 + 1.0) * 32.0).sum();
    walk + hist * (2.0 * rayon::current_num_threads() as f64 + 2.0)
}

#[derive(Clone, Copy)]
struct Task {
    rep: u64,
    start: u64,
    count: u64,
}

const LANES: usize = 4;

/// Histograms (4 interleaved lanes, so that consecutive increments of the
/// same weight do not wait on each other) for every length.
struct Hists {
    h: Vec<Vec<u64>>,
}

impl Hists {
    fn new(lengths: &[u64]) -> Self {
        Hists {
            h: lengths
                .iter()
                .map(|&n| vec![0u64; (n as usize + 1) * LANES])
                .collect(),
        }
    }
    /// The lanes added up: one histogram per length.
    fn counts(&self) -> Vec<Vec<u64>> {
        self.h
            .iter()
            .map(|h| h.chunks(LANES).map(|c| c.iter().sum()).collect())
            .collect()
    }

    fn add(mut self, o: Hists) -> Hists {
        for (a, b) in self.h.iter_mut().zip(o.h) {
            for (x, y) in a.iter_mut().zip(b) {
                *x += y;
            }
        }
        self
    }
}

fn popcount_window(lf: &Lfsr, mut a: u64, n: u64) -> u64 {
    let mut w = 0u64;
    let mut left = n;
    while left >= 64 {
        w += lf.block(a).count_ones() as u64;
        a = lf.jump64(a);
        left -= 64;
    }
    if left > 0 {
        w += (lf.block(a) & ((1u64 << left) - 1)).count_ones() as u64;
    }
    w
}

fn run_task(lf: &Lfsr, t: &Task, lengths: &[u64], hists: &mut Hists, progress: &dyn Progress) {
    let mut windows = Batch::new(progress, 1 << 22);
    let mut front = lf.advance(t.rep, t.start as u128);
    let mut backs: Vec<u64> = lengths
        .iter()
        .map(|&n| lf.advance(front, n as u128))
        .collect();
    let mut ws: Vec<usize> = lengths
        .iter()
        .map(|&n| popcount_window(lf, front, n) as usize)
        .collect();
    let mut left = t.count;
    while left > 0 {
        let take = left.min(64) as usize;
        let old = lf.block(front);
        front = lf.jump64(front);
        for li in 0..lengths.len() {
            let new = lf.block(backs[li]);
            backs[li] = lf.jump64(backs[li]);
            let h = &mut hists.h[li];
            let mut w = ws[li];
            // Runs: the weight only changes where the bit leaving the window
            // differs from the bit entering it.
            let live = if take == 64 {
                u64::MAX
            } else {
                (1u64 << take) - 1
            };
            let mut d = (old ^ new) & live;
            let mut pos = 0u32;
            let mut lane = 0usize;
            while d != 0 {
                let t = d.trailing_zeros();
                h[w * LANES + lane] += (t + 1 - pos) as u64;
                lane = (lane + 1) & (LANES - 1);
                // branch-free: +1 if the entering bit is 1, else -1
                w = (w + 2 * ((new >> t) & 1) as usize).wrapping_sub(1);
                pos = t + 1;
                d &= d - 1;
            }
            h[w * LANES + lane] += take as u64 - pos as u64;
            ws[li] = w;
        }
        left -= take as u64;
        windows.add(take as u64 * lengths.len() as u64);
    }
}

/// `B_w` of the dual of the shortened code of `g` for every length in
/// `lengths` (codeword bits, check bits included), in one pass over the
/// register's state graph. Each result sums to `2^r`.
///
/// Cost `O(2^r)` per length (about 2^32 steps for a 32-bit CRC), memory
/// `O(n)` per thread, plus the cycle walk (see the module documentation) for
/// generators that are neither primitive nor `(x+1)` times a primitive.
///
/// Refused with [`Error::TooBig`] when `memory_estimate` exceeds the memory
/// budget of [`MemoryBudget::from_env`]; [`dual_weights_within`] takes the
/// budget as an argument. [`DualPass`] runs the same pass in pieces (shards,
/// MPI ranks).
pub fn dual_weights(g: &Generator, lengths: &[u64]) -> Result<Vec<DualWeights>> {
    dual_weights_within(g, lengths, MemoryBudget::from_env()?)
}

/// [`dual_weights`] held to `budget`.
pub fn dual_weights_within(
    g: &Generator,
    lengths: &[u64],
    budget: MemoryBudget,
) -> Result<Vec<DualWeights>> {
    dual_weights_with(g, lengths, budget, &Silent)
}

/// [`dual_weights_within`] watched by `progress`: one stage, `"dual-code
/// windows"`, of one unit per register state and length (`2^r` per length).
pub fn dual_weights_with(
    g: &Generator,
    lengths: &[u64],
    budget: MemoryBudget,
    progress: &dyn Progress,
) -> Result<Vec<DualWeights>> {
    let pass = DualPass::new(g, lengths, budget)?;
    let threads = rayon::current_num_threads().max(1);
    let tasks = pass.tasks(0..pass.items());
    // At most 2 accumulators per thread, so memory stays bounded (see
    // [`memory_estimate`]) while threads can still balance.
    let chunk = tasks.len().div_ceil(2 * threads).max(1);
    let windows: u64 = tasks.iter().map(|t| t.count).sum();
    progress.stage("dual-code windows", windows * lengths.len() as u64);
    let hists = tasks
        .par_chunks(chunk)
        .map(|ts| {
            let mut h = Hists::new(lengths);
            for t in joined(ts) {
                run_task(&pass.lf, &t, lengths, &mut h, progress);
            }
            h
        })
        .reduce(|| Hists::new(lengths), Hists::add);
    pass.finish(&hists.counts())
}

/// `tasks` with each run of consecutive pieces of one cycle joined into one
/// task: the same states, so the same histogram, but one window set-up (an
/// `O(n)` popcount and jump per length) per run instead of per item.
fn joined(tasks: &[Task]) -> Vec<Task> {
    let mut out: Vec<Task> = Vec::with_capacity(tasks.len());
    for t in tasks {
        match out.last_mut() {
            Some(l) if l.rep == t.rep && l.start + l.count == t.start => l.count += t.count,
            _ => out.push(*t),
        }
    }
    out
}

/// The dual-code pass of one generator cut into work items fixed by the
/// generator alone: the register states, cycle after cycle in the order of
/// [`cycles`], cut into consecutive ranges of [`DualPass::segment`] states.
///
/// Each item's tally ([`DualPass::item`]) is a histogram of window weights
/// per length, integers; the tallies of all items add up to the `B_w` of
/// [`dual_weights`], whatever the grouping, so shards of the items (or MPI
/// ranks) merge into the single run bit for bit.
///
/// ```
/// use aliasing_core::{dual::{self, DualPass}, poly::Generator, units::MemoryBudget};
/// let g: Generator = "0x11021".parse().unwrap();
/// let pass = DualPass::new(&g, &[100], MemoryBudget::bytes(1e9).unwrap()).unwrap();
/// let mut total = pass.zero();
/// for i in 0..pass.items() {
///     for (t, c) in total.iter_mut().zip(pass.item(i)) {
///         for (a, b) in t.iter_mut().zip(c) {
///             *a += b;
///         }
///     }
/// }
/// assert_eq!(pass.finish(&total).unwrap(), dual::dual_weights(&g, &[100]).unwrap());
/// ```
#[derive(Debug, Clone)]
pub struct DualPass {
    lf: Lfsr,
    lengths: Vec<u64>,
    cycles: Vec<Cycle>,
    /// `starts[k]`: index of the first state of cycle `k` in the cycle order.
    starts: Vec<u64>,
    segment: u64,
}

impl DualPass {
    /// Finds the cycles of `g` (the walk, if `g` needs one, costs about
    /// `4 2^r` steps; see `work_estimate`) and cuts the states into items.
    /// Refuses a zero length, a width over [`MAX_WIDTH`] and a pass whose
    /// `memory_estimate` exceeds `budget`.
    pub fn new(g: &Generator, lengths: &[u64], budget: MemoryBudget) -> Result<Self> {
        if let Some(&n) = lengths.iter().find(|&&n| n == 0) {
            return Err(Error::BadLength(format!("{n} bits")));
        }
        let lf = Lfsr::new(g)?;
        budget.admit(
            || {
                format!(
                    "the dual-code weights of {} at these lengths",
                    g.full_string()
                )
            },
            memory_estimate(g, lengths),
        )?;
        let cycles = cycles(g)?;
        let mut starts = Vec::with_capacity(cycles.len());
        let mut at = 0u64;
        for c in &cycles {
            starts.push(at);
            at += c.len;
        }
        Ok(DualPass {
            lf,
            lengths: lengths.to_vec(),
            cycles,
            starts,
            segment: Self::segment(g.width()),
        })
    }

    /// States per item for width `r`: all `2^r` up to 12 bits, `2^12` up to
    /// 22 bits, then `2^(r-10)` (1024 items).
    pub fn segment(width: u32) -> u64 {
        1u64 << width.min(12).max(width.saturating_sub(10))
    }

    /// Number of work items.
    pub fn items(&self) -> u64 {
        (1u64 << self.lf.width).div_ceil(self.segment)
    }

    /// The lengths counted, in the order given.
    pub fn lengths(&self) -> &[u64] {
        &self.lengths
    }

    /// The empty tally: one histogram of `n + 1` zeros per length `n`.
    pub fn zero(&self) -> Vec<Vec<u64>> {
        self.lengths
            .iter()
            .map(|&n| vec![0; n as usize + 1])
            .collect()
    }

    /// The pieces of cycles that make up items `range`.
    fn tasks(&self, range: std::ops::Range<u64>) -> Vec<Task> {
        let total = 1u64 << self.lf.width;
        let lo = (range.start * self.segment).min(total);
        let hi = (range.end.saturating_mul(self.segment)).min(total);
        let mut out = Vec::new();
        // every item boundary cuts a cycle, so that an item's tasks do
        // not depend on the range asked for
        let mut k = self.starts.partition_point(|&s| s <= lo) - 1;
        let mut at = lo;
        while at < hi {
            let c = self.cycles[k];
            let end = (self.starts[k] + c.len).min(hi);
            let mut s = at;
            while s < end {
                let cut = ((s / self.segment + 1) * self.segment).min(end);
                out.push(Task {
                    rep: c.rep,
                    start: s - self.starts[k],
                    count: cut - s,
                });
                s = cut;
            }
            at = end;
            k += 1;
        }
        out
    }

    /// The tally of item `i` (`i < items()`): for every length, how many of
    /// the item's states have windows of each weight.
    pub fn item(&self, i: u64) -> Vec<Vec<u64>> {
        let mut h = Hists::new(&self.lengths);
        for t in self.tasks(i..i + 1) {
            run_task(&self.lf, &t, &self.lengths, &mut h, &Silent);
        }
        h.counts()
    }

    /// The dual weights from the tallies of all items added up; refuses a
    /// tally of the wrong shape or one that does not count every state once.
    pub fn finish(&self, counts: &[Vec<u64>]) -> Result<Vec<DualWeights>> {
        let r = self.lf.width;
        if counts.len() != self.lengths.len()
            || counts
                .iter()
                .zip(&self.lengths)
                .any(|(c, &n)| c.len() as u64 != n + 1)
        {
            return Err(Error::Invalid(
                "dual-weight tallies of the wrong shape for these lengths".into(),
            ));
        }
        let out: Vec<DualWeights> = self
            .lengths
            .iter()
            .zip(counts)
            .map(|(&n, c)| DualWeights {
                bits: n,
                width: r,
                counts: c.clone(),
            })
            .collect();
        for d in &out {
            if d.total() != 1u128 << r {
                return Err(Error::Invalid(format!(
                    "dual weights at n = {} sum to {}, not 2^{r} (a missing or repeated part)",
                    d.bits,
                    d.total(),
                )));
            }
        }
        Ok(out)
    }
}

/// `P_ud` for one length and BER from its dual weights, with at least 12
/// correct significant digits (see [`highprec::p_undetected`]).
pub fn p_undetected(dual: &DualWeights, p: f64) -> Result<f64> {
    highprec::p_undetected(dual, p)
}

/// Exact aliasing curve by the dual-code method: one point per (length, BER),
/// lengths in the outer loop, BERs in the inner, in the order given.
///
/// Lengths are codeword bits (check bits included); BERs must lie in
/// [0, 0.5]. Widths up to 32.
pub fn curve(g: &Generator, lengths: &[u64], bers: &[f64]) -> Result<Vec<CurvePoint>> {
    curve_within(g, lengths, bers, MemoryBudget::from_env()?)
}

/// [`curve`] held to `budget`.
pub fn curve_within(
    g: &Generator,
    lengths: &[u64],
    bers: &[f64],
    budget: MemoryBudget,
) -> Result<Vec<CurvePoint>> {
    curve_with(g, lengths, bers, budget, &Silent)
}

/// [`curve_within`] watched by `progress`: the stage of
/// [`dual_weights_with`], then `"P_ud terms"`, one unit per (length, BER).
pub fn curve_with(
    g: &Generator,
    lengths: &[u64],
    bers: &[f64],
    budget: MemoryBudget,
    progress: &dyn Progress,
) -> Result<Vec<CurvePoint>> {
    for &p in bers {
        check_ber(p)?;
        if p > 0.5 {
            return Err(Error::Unsupported(format!(
                "the dual-code method handles bit error rates up to 0.5, not {p}"
            )));
        }
    }
    if lengths.is_empty() {
        return Err(Error::BadLength("no lengths given".into()));
    }
    let mut uniq: Vec<u64> = lengths.to_vec();
    uniq.sort_unstable();
    uniq.dedup();
    let duals = dual_weights_with(g, &uniq, budget, progress)?;
    let r = g.width() as u64;
    let jobs: Vec<(u64, f64)> = lengths
        .iter()
        .flat_map(|&n| bers.iter().map(move |&p| (n, p)))
        .collect();
    progress.stage("P_ud terms", jobs.len() as u64);
    jobs.par_iter()
        .map(|&(n, p)| {
            let d = &duals[uniq.binary_search(&n).expect("present")];
            let ud = highprec::p_undetected(d, p)?;
            progress.advance(1);
            Ok(CurvePoint::new(p, n, r, ud))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn naive_dual(g: &Generator, n: u64) -> Vec<u64> {
        // B_w straight from the definition: for every linear functional u on
        // the syndromes x^i mod g, the weight of (u . (x^i mod g))_{i<n}.
        let r = g.width();
        let syn: Vec<u64> = (0..n).map(|i| gf2::x_pow_mod(i as u128, g)).collect();
        let mut b = vec![0u64; n as usize + 1];
        for u in 0..(1u64 << r) {
            let w = syn
                .iter()
                .filter(|&&s| (s & u).count_ones() & 1 == 1)
                .count();
            b[w] += 1;
        }
        b
    }

    #[test]
    fn lengths_in_one_pass_weigh_as_one_pass_each() {
        // what `alias transfer` does for the frame lengths it lacks
        for spec in ["0x11021", "0x18005", "0x1864CFB"] {
            let g: Generator = spec.parse().unwrap();
            let lengths = [40u64, 300, 1000, 12144];
            let all = dual_weights(&g, &lengths).unwrap();
            for (d, &n) in all.iter().zip(&lengths) {
                assert_eq!(*d, dual_weights(&g, &[n]).unwrap().remove(0), "{spec} {n}");
            }
        }
    }

    #[test]
    fn lfsr_tables_match_serial_steps() {
        let g: Generator = "0x104C11DB7".parse().unwrap();
        let lf = Lfsr::new(&g).unwrap();
        for a in [1u64, 0xDEADBEEF, 0x80000000, 0x12345] {
            let (blk, next) = lf.serial_block(a);
            assert_eq!(lf.block(a), blk);
            assert_eq!(lf.jump64(a), next);
            assert_eq!(lf.advance(a, 64), next);
        }
    }

    #[test]
    fn cycles_cover_all_states() {
        for (spec, method) in [
            ("0x11021", CycleMethod::XPlusOneTimesPrimitive),
            ("0x1100B", CycleMethod::Primitive),
            ("0x18005", CycleMethod::XPlusOneTimesPrimitive),
            ("0x1F", CycleMethod::Walk),
            ("0x11", CycleMethod::Walk),
        ] {
            let g: Generator = spec.parse().unwrap();
            assert_eq!(cycle_method(&g), method, "{spec}");
            let c = cycles(&g).unwrap();
            let total: u64 = c.iter().map(|c| c.len).sum();
            assert_eq!(total, 1 << g.width(), "{spec}");
        }
    }

    #[test]
    fn dual_weights_match_definition_for_all_small_generators() {
        for width in 1..=7u32 {
            for normal in (1..(1u64 << width)).step_by(2) {
                let g = Generator::new(width, normal).unwrap();
                let lens = [1u64, 3, 8, 13, 64, 65, 130];
                let d = dual_weights(&g, &lens).unwrap();
                for (k, &n) in lens.iter().enumerate() {
                    assert_eq!(d[k].counts, naive_dual(&g, n), "{} n={n}", g.full_string());
                }
            }
        }
    }

    #[test]
    fn dual_weights_match_definition_for_16_bit_crcs_and_long_cycles() {
        // Segments and jump-ahead (cycles over 2^22 only happen at r >= 23)
        // are covered by the 23-bit case below; here the three cycle methods.
        for spec in ["0x11021", "0x18005", "0x1100B", "0x18BB7", "0x13D65"] {
            let g: Generator = spec.parse().unwrap();
            let lens = [17u64, 200, 1000];
            let d = dual_weights(&g, &lens).unwrap();
            for (k, &n) in lens.iter().enumerate() {
                assert_eq!(d[k].counts, naive_dual(&g, n), "{spec} n={n}");
            }
        }
    }

    #[test]
    fn segmented_cycles_agree_with_one_segment() {
        // x^23 + x^5 + 1 is primitive: one cycle of 2^23 - 1, cut into segments.
        let g = Generator::new(23, (1 << 5) | 1).unwrap();
        assert!(gf2::is_primitive(&g));
        let lens = [30u64, 333];
        let d = dual_weights(&g, &lens).unwrap();
        let lf = Lfsr::new(&g).unwrap();
        let mut h = Hists::new(&lens);
        run_task(
            &lf,
            &Task {
                rep: 1,
                start: 0,
                count: (1 << 23) - 1,
            },
            &lens,
            &mut h,
            &Silent,
        );
        for (k, hk) in h.h.iter().enumerate() {
            let mut counts: Vec<u64> = hk.chunks(LANES).map(|c| c.iter().sum()).collect();
            counts[0] += 1; // the zero state
            assert_eq!(d[k].counts, counts);
            assert_eq!(d[k].total(), 1 << 23);
        }
    }

    fn add_into(total: &mut [Vec<u64>], part: &[Vec<u64>]) {
        for (t, c) in total.iter_mut().zip(part) {
            for (a, b) in t.iter_mut().zip(c) {
                *a += b;
            }
        }
    }

    #[test]
    fn pass_items_add_up_to_the_definition_whatever_the_split() {
        let budget = MemoryBudget::bytes(1e9).unwrap();
        // every cycle method; 0x1F and 0x11 have many short cycles that
        // share an item; 0x1100B (16 bits) has 16 items of 2^12 states
        for spec in ["0x11021", "0x1100B", "0x1F", "0x11", "0x18BB7"] {
            let g: Generator = spec.parse().unwrap();
            let lens = [5u64, 70, 300];
            let pass = DualPass::new(&g, &lens, budget).unwrap();
            assert_eq!(
                pass.items(),
                (1u64 << g.width()).div_ceil(DualPass::segment(g.width()))
            );
            for shards in [1u64, 2, 3, 7] {
                let mut total = pass.zero();
                for s in 0..shards {
                    let mut part = pass.zero();
                    for i in (s..pass.items()).step_by(shards as usize) {
                        add_into(&mut part, &pass.item(i));
                    }
                    add_into(&mut total, &part);
                }
                let d = pass.finish(&total).unwrap();
                for (k, &n) in lens.iter().enumerate() {
                    assert_eq!(
                        d[k].counts,
                        naive_dual(&g, n),
                        "{spec} n={n} {shards} shards"
                    );
                }
            }
            // a missing item or one counted twice is caught by the state count
            if pass.items() > 1 {
                let mut short = pass.zero();
                for i in 1..pass.items() {
                    add_into(&mut short, &pass.item(i));
                }
                assert!(matches!(pass.finish(&short), Err(Error::Invalid(_))));
                add_into(&mut short, &pass.item(1));
                add_into(&mut short, &pass.item(0));
                assert!(pass.finish(&short).is_err());
            }
            assert!(pass.finish(&[vec![0; 3]]).is_err());
        }
    }

    #[test]
    fn pass_items_of_a_long_cycle_match_one_task() {
        // 2^23 - 1 states in one cycle: 2^13 states per item, 1024 items
        let g = Generator::new(23, (1 << 5) | 1).unwrap();
        let pass = DualPass::new(&g, &[40], MemoryBudget::bytes(1e9).unwrap()).unwrap();
        assert_eq!(pass.items(), 1024);
        let mut total = pass.zero();
        for i in (0..pass.items()).rev() {
            add_into(&mut total, &pass.item(i));
        }
        assert_eq!(
            pass.finish(&total).unwrap(),
            dual_weights(&g, &[40]).unwrap()
        );
    }

    #[test]
    fn rejects_bad_input() {
        let g: Generator = "0x104C11DB7".parse().unwrap();
        assert!(matches!(dual_weights(&g, &[0]), Err(Error::BadLength(_))));
        assert!(curve(&g, &[100], &[0.7]).is_err());
        assert!(curve(&g, &[100], &[-1.0]).is_err());
        let wide = Generator::new(40, 0x11).unwrap();
        assert!(matches!(
            dual_weights(&wide, &[100]),
            Err(Error::Unsupported(_))
        ));
    }

    /// A_w of the length-n code by enumerating its 2^(n-r) codewords q g.
    fn codeword_weights(g: &Generator, n: u64) -> Vec<u64> {
        let k = n - g.width() as u64;
        let mut a = vec![0u64; n as usize + 1];
        let mut c: u128 = 0;
        a[0] += 1;
        for i in 1u64..(1u64 << k) {
            let bit = i.trailing_zeros();
            c ^= g.full() << bit;
            a[c.count_ones() as usize] += 1;
        }
        a
    }

    /// Exact P_ud = sum A_w p^w (1-p)^(n-w) as a dyadic rational, rounded to f64.
    fn exact_pud(a: &[u64], n: u64, p: f64) -> f64 {
        let a: Vec<dashu_int::UBig> = a.iter().map(|&x| x.into()).collect();
        exact_pud_big(&a, n, p)
    }

    fn exact_pud_big(a: &[dashu_int::UBig], n: u64, p: f64) -> f64 {
        use dashu_int::UBig;
        // p = m 2^-q exactly
        let (m, q) = {
            let mut q = 0usize;
            let mut x = p;
            while x.fract() != 0.0 {
                x *= 2.0;
                q += 1;
            }
            (x as u64, q)
        };
        let mm = UBig::from(m);
        let cm = (UBig::ONE << q) - &mm;
        let mut num = UBig::ZERO;
        for (w, aw) in a.iter().enumerate().skip(1) {
            if *aw > UBig::ZERO {
                num += aw * mm.pow(w) * cm.pow(n as usize - w);
            }
        }
        highprec::fixed_to_f64(&num, q * n as usize)
    }

    fn bers() -> Vec<f64> {
        let mut v: Vec<f64> = (0..=29)
            .map(|i| 10f64.powf(-15.0 + i as f64 * 0.5))
            .collect();
        v.extend([0.3, 0.4999, 0.5, 1.2345e-3]);
        v.retain(|&p| p <= 0.5);
        v
    }

    #[test]
    fn curve_matches_exact_codeword_enumeration_over_the_whole_ber_range() {
        // Independent oracle: A_w by enumerating codewords, P_ud summed
        // exactly in rationals. 1e-12 relative at every BER in [1e-15, 0.5].
        for (spec, lens) in [
            ("0x107", vec![9u64, 12, 20, 24]),
            ("0x11021", vec![17u64, 20, 30, 32]),
            ("0x18005", vec![18u64, 25, 31]),
            ("0x1D", vec![5u64, 9, 17]),
            ("0x3", vec![2u64, 7, 16]),
            ("0x100001B", vec![25u64, 32, 40]),
        ] {
            let g: Generator = spec.parse().unwrap();
            let bers = bers();
            let pts = curve(&g, &lens, &bers).unwrap();
            for (i, &n) in lens.iter().enumerate() {
                let a = codeword_weights(&g, n);
                for (j, &p) in bers.iter().enumerate() {
                    let got = pts[i * bers.len() + j].p_undetected;
                    let want = exact_pud(&a, n, p);
                    assert!(want > 0.0);
                    let rel = (got / want - 1.0).abs();
                    assert!(
                        rel < 1e-12,
                        "{spec} n={n} p={p}: {got} vs {want} (rel {rel:e})"
                    );
                }
            }
        }
    }

    #[test]
    fn curve_matches_markov_state_vector_at_longer_lengths() {
        // Independent oracle: the register as a Markov chain, carrying only the
        // mass of paths that have already seen an error (all terms positive).
        fn markov(g: &Generator, n: u64, p: f64) -> f64 {
            let r = g.width();
            let size = 1usize << r;
            let mut q = vec![0f64; size];
            let mut clean = 1f64; // (1-p)^t
            for _ in 0..n {
                let mut next = vec![0f64; size];
                for (s, &v) in q.iter().enumerate() {
                    if v == 0.0 {
                        continue;
                    }
                    for (b, pb) in [(0u64, 1.0 - p), (1u64, p)] {
                        let s = s as u64;
                        let fb = ((s >> (r - 1)) & 1) ^ b;
                        let t = ((s << 1) & g.mask()) ^ if fb == 1 { g.normal() } else { 0 };
                        next[t as usize] += v * pb;
                    }
                }
                // clean path hit by its first error: state 0 -> g.normal()
                next[g.normal() as usize] += clean * p;
                clean *= 1.0 - p;
                q = next;
            }
            q[0]
        }
        for (spec, lens) in [
            ("0x107", vec![40u64, 300]),
            ("12:0x80F", vec![216u64]),
            ("0x11021", vec![17u64, 1000]),
            ("20:0x9", vec![21u64, 64]),
        ] {
            let g: Generator = spec.parse().unwrap();
            let bers = [1e-12, 1e-6, 1e-3, 0.05, 0.5];
            let pts = curve(&g, &lens, &bers).unwrap();
            for (i, &n) in lens.iter().enumerate() {
                for (j, &p) in bers.iter().enumerate() {
                    let got = pts[i * bers.len() + j].p_undetected;
                    let want = markov(&g, n, p);
                    let rel = (got / want - 1.0).abs();
                    // the f64 chain itself carries about n * eps
                    assert!(rel < 1e-12, "{spec} n={n} p={p}: {got} vs {want} ({rel:e})");
                }
            }
        }
    }

    #[test]
    fn short_lengths_have_no_codewords() {
        let g: Generator = "0x11021".parse().unwrap();
        let pts = curve(&g, &[1, 16], &[0.1, 0.5]).unwrap();
        assert!(pts.iter().all(|p| p.p_undetected == 0.0));
        let pts = curve(&g, &[17], &[0.0]).unwrap();
        assert_eq!(pts[0].p_undetected, 0.0);
    }

    #[test]
    fn macwilliams_matches_codeword_enumeration_and_sums_to_2_pow_k() {
        use crate::weights::macwilliams;
        use dashu_int::UBig;
        for (spec, lens) in [
            ("0x11021", vec![17u64, 25, 34]),
            ("0x18005", vec![20u64, 33]),
            ("0x1F", vec![5u64, 12, 20]),
        ] {
            let g: Generator = spec.parse().unwrap();
            let d = dual_weights(&g, &lens).unwrap();
            for (k, &n) in lens.iter().enumerate() {
                let a = macwilliams(&d[k], n as usize).unwrap();
                let want = codeword_weights(&g, n);
                let want: Vec<UBig> = want.into_iter().map(UBig::from).collect();
                assert_eq!(a, want, "{spec} n={n}");
                let total: UBig = a.iter().sum();
                assert_eq!(total, UBig::ONE << (n as usize - g.width() as usize));
            }
        }
    }

    #[test]
    fn macwilliams_matches_syndrome_counts_at_long_lengths() {
        use crate::lowweight::weight_counts;
        use crate::weights::macwilliams;
        use dashu_int::UBig;
        // 20-bit primitive (x^20 + x^3 + 1) and two 16-bit CRCs, to 5000 bits
        let g20 = Generator::new(20, (1 << 3) | 1).unwrap();
        for g in [g20, "0x11021".parse().unwrap(), "0x18BB7".parse().unwrap()] {
            let lens = [60u64, 700, 5000];
            let d = dual_weights(&g, &lens).unwrap();
            let counts: Vec<Vec<u128>> = (2..=4)
                .map(|w| weight_counts(&g, w, 5001).unwrap())
                .collect();
            // weight 5 by meet in the middle, to 701 bits (a 245,000-pair table)
            let a5 = weight_counts(&g, 5, 701).unwrap();
            for (k, &n) in lens.iter().enumerate() {
                let a = macwilliams(&d[k], 5).unwrap();
                assert_eq!(a[1], UBig::ZERO);
                if n <= 700 {
                    assert_eq!(
                        a[5],
                        UBig::from(a5[n as usize]),
                        "{} n={n} w=5",
                        g.full_string()
                    );
                }
                for w in 2..=4usize {
                    assert_eq!(
                        a[w],
                        UBig::from(counts[w - 2][n as usize]),
                        "{} n={n} w={w}",
                        g.full_string()
                    );
                }
            }
        }
    }

    #[test]
    fn distinguished_point_walk_finds_the_same_cycles_as_the_bitmap() {
        // (x^3+x+1)(x^23+x^5+1): width 26, neither primitive nor (x+1) p
        let f = gf2::clmul(0b1011, (1 << 23) | (1 << 5) | 1);
        let g = Generator::from_full(f).unwrap();
        assert_eq!(cycle_method(&g), CycleMethod::Walk);
        let lf = Lfsr::new(&g).unwrap();
        let mut a: Vec<u64> = walk_distinguished(&g, &lf)
            .expect("covers all states")
            .iter()
            .map(|c| c.len)
            .collect();
        let mut b: Vec<u64> = walk_bitmap(&lf, 26).iter().map(|c| c.len).collect();
        a.sort_unstable();
        b.sort_unstable();
        assert_eq!(a, b);
    }

    #[test]
    fn curve_matches_exact_rationals_at_longer_lengths() {
        // A_w for every weight by MacWilliams (itself checked against
        // enumeration and syndrome counts above), then P_ud summed exactly
        // in rationals: checks the fixed-point evaluation where n p spans
        // 1e-13 .. 150 and the cancellation is deepest.
        use crate::weights::macwilliams;
        for (spec, n) in [("0x180F", 300u64), ("0x11021", 200), ("0x107", 500)] {
            let g: Generator = spec.parse().unwrap();
            let d = dual_weights(&g, &[n]).unwrap().remove(0);
            let a = macwilliams(&d, n as usize).unwrap();
            assert!(
                a.iter().any(|x| u64::try_from(x).is_err()),
                "big counts exercised"
            );
            for p in [1e-15, 3e-11, 1e-7, 1e-4, 0.01, 0.3, 0.5] {
                let got = curve(&g, &[n], &[p]).unwrap()[0].p_undetected;
                let want = exact_pud_big(&a, n, p);
                let rel = (got / want - 1.0).abs();
                assert!(rel < 1e-12, "{spec} n={n} p={p}: {got} vs {want} ({rel:e})");
            }
        }
    }
}
