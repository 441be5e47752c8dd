//! The pass over every register state that counts the dual code's window
//! weights, whole ([`dual_weights`]) or cut into work items (`DualPass`).

use super::cycles::{Cycle, CycleMethod, cycle_method, cycles};
use super::lfsr::Lfsr;
use super::weights::DualWeights;
use crate::ctx::Ctx;
use crate::error::{Error, Result};
use crate::poly::Generator;
use crate::progress::{Batch, Progress, Silent};
use crate::units::MemoryBudget;
use rayon::prelude::*;

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
    // and one task's (weight, class) counts per thread (`run_task`)
    let pairs: f64 = lengths
        .iter()
        .map(|&n| (n as f64 + 1.0) * (4 * CLASSES) as f64)
        .sum();
    let threads = rayon::current_num_threads() as f64;
    walk + hist * (2.0 * threads + 2.0) + pairs * threads
}

#[derive(Clone, Copy)]
pub(super) struct Task {
    pub(super) rep: u64,
    pub(super) start: u64,
    pub(super) count: u64,
}

pub(super) const LANES: usize = 4;

/// Histograms (4 interleaved lanes, so that consecutive increments of the
/// same weight do not wait on each other) for every length.
pub(super) struct Hists {
    pub(super) h: Vec<Vec<u64>>,
}

impl Hists {
    pub(super) fn new(lengths: &[u64]) -> Self {
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

/// Classes of a nibble of steps: the changes `e_j = new_j - old_j` of
/// its first three positions (`27` classes) and the change over all four.
const CLASSES: usize = 27;

/// Per `(old nibble, new nibble)`: its class (the weights its four
/// positions record relative to the first: `0, e_0, e_0 + e_1,
/// e_0 + e_1 + e_2`) and the weight change over the nibble.
const NIBBLE: [(u8, i8); 256] = {
    let mut t = [(0u8, 0i8); 256];
    let mut i = 0;
    while i < 256 {
        let (o, n) = (i >> 4, i & 15);
        let mut cls = 0usize;
        let mut mul = 1usize;
        let mut delta = 0i32;
        let mut j = 0;
        while j < 4 {
            let e = ((n >> j) & 1) as i32 - ((o >> j) & 1) as i32;
            if j < 3 {
                cls += (e + 1) as usize * mul;
                mul *= 3;
            }
            delta += e;
            j += 1;
        }
        t[i] = (cls as u8, delta as i8);
        i += 1;
    }
    t
};

/// The nibble bits of each byte.
const LOW_NIBBLES: u64 = 0x0F0F_0F0F_0F0F_0F0F;

/// [`NIBBLE`] as cells of the `(weight, class)` counts of
/// [`run_task_nibbles`] (index `w CLASSES + class`): the class, and the
/// change of the weight's first cell over the nibble (`delta CLASSES`).
const NIBBLE_CELL: [(u16, i16); 256] = {
    let mut t = [(0u16, 0i16); 256];
    let mut i = 0;
    while i < 256 {
        let (c, d) = NIBBLE[i];
        t[i] = (c as u16, d as i16 * CLASSES as i16);
        i += 1;
    }
    t
};

/// The weights a nibble of class `c` records, relative to its first.
fn class_offsets(c: usize) -> [isize; 4] {
    let e = |j: u32| (c / 3usize.pow(j) % 3) as isize - 1;
    [0, e(0), e(0) + e(1), e(0) + e(1) + e(2)]
}

/// The window weights of task `t` added into `hists`, for every length.
/// A nibble of four positions records four weights fixed by the weight at
/// its first position and its class ([`NIBBLE`]): whole blocks of 64
/// positions count `(weight, class)` pairs, one increment per nibble, and
/// the pairs are spread onto the weights at the end; a last partial block
/// goes position by position. The same histogram as stepping every
/// position ([`run_task_bits`]), which short tasks take (spreading the
/// pairs costs `27 (n + 1)` a length, against one increment per nibble).
pub(super) fn run_task(
    lf: &Lfsr,
    t: &Task,
    lengths: &[u64],
    hists: &mut Hists,
    progress: &dyn Progress,
) {
    if lengths
        .iter()
        .all(|&n| t.count >= 4 * CLASSES as u64 * (n + 1))
    {
        run_task_nibbles(lf, t, lengths, hists, progress)
    } else {
        run_task_bits(lf, t, lengths, hists, progress)
    }
}

/// Where task `t` starts: the register state at its front, the state at the
/// back of each length's window, and each window's weight.
fn task_start(lf: &Lfsr, t: &Task, lengths: &[u64]) -> (u64, Vec<u64>, Vec<usize>) {
    let front = lf.advance(t.rep, t.start as u128);
    let backs = lengths
        .iter()
        .map(|&n| lf.advance(front, n as u128))
        .collect();
    let ws = lengths
        .iter()
        .map(|&n| popcount_window(lf, front, n) as usize)
        .collect();
    (front, backs, ws)
}

/// [`run_task`] by nibble classes, whatever the task's length.
pub(super) fn run_task_nibbles(
    lf: &Lfsr,
    t: &Task,
    lengths: &[u64],
    hists: &mut Hists,
    progress: &dyn Progress,
) {
    let mut windows = Batch::new(progress, 1 << 22);
    let (mut front, mut backs, mut ws) = task_start(lf, t, lengths);
    // (weight, class) counts: at most count / 4 <= 2^30 a cell for r <= 32
    let mut pairs: Vec<Vec<u32>> = lengths
        .iter()
        .map(|&n| vec![0u32; (n as usize + 1) * CLASSES])
        .collect();
    // the (weight, class) cells as one index `w CLASSES + class`, kept as
    // the cell of the nibble's class 0 (`base`) plus its class
    let mut bases: Vec<usize> = ws.iter().map(|&w| w * CLASSES).collect();
    let mut left = t.count;
    while left >= 64 {
        let old = lf.block(front);
        front = lf.jump64(front);
        // the old nibbles shifted up into each byte: even nibbles, odd ones
        let (oe, oo) = ((old & LOW_NIBBLES) << 4, (old >> 4 & LOW_NIBBLES) << 4);
        for li in 0..lengths.len() {
            let new = lf.block(backs[li]);
            backs[li] = lf.jump64(backs[li]);
            let m: &mut [u32] = pairs[li].as_mut_slice();
            // byte k of `e` / `o`: (old nibble, new nibble) of nibble 2k / 2k + 1
            let mut e = oe | (new & LOW_NIBBLES);
            let mut o = oo | (new >> 4 & LOW_NIBBLES);
            let mut base = bases[li];
            for _ in 0..8 {
                let (c, step) = NIBBLE_CELL[(e & 0xFF) as usize];
                m[base + c as usize] += 1;
                base = base.wrapping_add_signed(step as isize);
                let (c, step) = NIBBLE_CELL[(o & 0xFF) as usize];
                m[base + c as usize] += 1;
                base = base.wrapping_add_signed(step as isize);
                e >>= 8;
                o >>= 8;
            }
            bases[li] = base;
        }
        left -= 64;
        windows.add(64 * lengths.len() as u64);
    }
    for (w, &b) in ws.iter_mut().zip(&bases) {
        *w = b / CLASSES;
    }
    for (li, m) in pairs.iter().enumerate() {
        let h = &mut hists.h[li];
        for (k, &x) in m.iter().enumerate() {
            if x > 0 {
                let (w, c) = (k / CLASSES, k % CLASSES);
                for off in class_offsets(c) {
                    h[w.wrapping_add_signed(off) * LANES] += x as u64;
                }
            }
        }
    }
    if left > 0 {
        let take = left as usize;
        let old = lf.block(front);
        for li in 0..lengths.len() {
            let new = lf.block(backs[li]);
            let h = &mut hists.h[li];
            let mut w = ws[li];
            let live = (1u64 << take) - 1;
            let mut d = (old ^ new) & live;
            let mut pos = 0u32;
            while d != 0 {
                let t = d.trailing_zeros();
                h[w * LANES] += (t + 1 - pos) as u64;
                w = (w + 2 * ((new >> t) & 1) as usize).wrapping_sub(1);
                pos = t + 1;
                d &= d - 1;
            }
            h[w * LANES] += take as u64 - pos as u64;
        }
        windows.add(take as u64 * lengths.len() as u64);
    }
}

/// The window weights of task `t` added into `hists`, stepping every
/// position (the weight changes only where the bit leaving the window
/// differs from the bit entering it).
pub(super) fn run_task_bits(
    lf: &Lfsr,
    t: &Task,
    lengths: &[u64],
    hists: &mut Hists,
    progress: &dyn Progress,
) {
    let mut windows = Batch::new(progress, 1 << 22);
    let (mut front, mut backs, mut ws) = task_start(lf, t, lengths);
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
/// Refused with [`Error::TooBig`] when `memory_estimate` exceeds the
/// context's memory budget ([`Ctx::budget`]); watched by the context's
/// progress: one stage, `"dual-code windows"`, of one unit per register
/// state and length (`2^r` per length). The crate runs the same pass in
/// pieces (shards, MPI ranks).
pub fn dual_weights(g: &Generator, lengths: &[u64], ctx: &Ctx) -> Result<Vec<DualWeights>> {
    dual_weights_with(g, lengths, ctx.budget(), ctx.progress())
}

/// [`dual_weights`] with a budget and a watcher instead of a context (kept
/// for callers not yet moved to [`Ctx`]).
#[doc(hidden)]
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
/// `cycles`, cut into consecutive ranges of [`DualPass::segment`] states.
///
/// Each item's tally ([`DualPass::item`]) is a histogram of window weights
/// per length, integers; the tallies of all items add up to the `B_w` of
/// [`dual_weights`], whatever the grouping, so shards of the items (or MPI
/// ranks) merge into the single run bit for bit.
///
/// ```
/// use aliasing_core::__private::dual::DualPass;
/// use aliasing_core::{dual, poly::Generator, units::MemoryBudget};
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
/// assert_eq!(pass.finish(&total).unwrap(), dual::dual_weights(&g, &[100], &aliasing_core::ctx::Ctx::default()).unwrap());
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
    /// Refuses a zero length, a width over [`MAX_WIDTH`](super::MAX_WIDTH) and a pass whose
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
