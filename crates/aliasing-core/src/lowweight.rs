//! Low-weight codewords of a shortened CRC code by meet-in-the-middle on the
//! syndromes `s_i = x^i mod g`, and the Hamming-distance profile in the
//! notation of Koopman's CRC tables.
//!
//! A set of error positions is undetectable iff the XOR of its syndromes is
//! 0. The code is shift invariant, so every codeword is a *shape* with its
//! lowest position at 0 and highest at its span `L`, placed at any of the
//! `n - L` offsets that fit in `n` bits. Counting shapes by span once gives
//! `A_w(n)` for every `n` up to the limit at once:
//! `A_w(n) = sum_{L < n} c_w(L) (n - L)`.
//!
//! ```
//! use aliasing_core::{lowweight, poly::Generator};
//! let g: Generator = "0x104C11DB7".parse().unwrap(); // CRC-32
//! let a4 = lowweight::weight_counts(&g, 4, 2975 + 32 + 1).unwrap(); // n < 3008
//! assert_eq!(a4[2974 + 32], 0); // HD 5 up to 2974 data bits
//! assert_eq!(a4[2975 + 32], 1); // one weight-4 codeword at 2975
//! ```

use crate::error::{Error, Result};
use crate::gf2;
use crate::poly::Generator;
use crate::progress::{Batch, Progress, Silent};
use rayon::prelude::*;

pub mod trinomial;
pub(crate) mod zech;

/// Widest generator this module accepts.
pub const MAX_WIDTH: u32 = 64;

/// Largest number of hash probes a search may take before it is refused.
pub const WORK_LIMIT: f64 = 2e10;

/// Longest length [`span_counts`] accepts (its tables take at least 40 bytes
/// a bit; the work limit stops weight 4 far below this).
pub const MAX_SPAN_LEN: u64 = 1 << 24;

/// Largest meet-in-the-middle table, in entries (with its slots at load 1/4
/// to 1/2 and its presence filter, at most about 2.5 GiB).
pub const TABLE_LIMIT: usize = 1 << 25;

fn check_width(g: &Generator) -> Result<()> {
    if g.width() > MAX_WIDTH {
        return Err(Error::Unsupported(format!(
            "low-weight enumeration handles widths up to {MAX_WIDTH}, not {}",
            g.width()
        )));
    }
    Ok(())
}

/// `x^i mod g` for `i < count`.
pub fn syndromes(g: &Generator, count: usize) -> Vec<u64> {
    let mut out = Vec::with_capacity(count);
    let mut s = 1u64 & g.mask();
    if g.width() == 0 {
        s = 0;
    }
    let top = g.width() - 1;
    for _ in 0..count {
        out.push(s);
        let fb = (s >> top) & 1;
        s = ((s << 1) & g.mask()) ^ (g.normal() & fb.wrapping_neg());
    }
    out
}

/// The next `count` syndromes after `last` (which sits at position `at - 1`).
fn syndromes_from(g: &Generator, last: u64, at: usize) -> Vec<u64> {
    let count = at.max(1024);
    let top = g.width() - 1;
    let mut s = last;
    let mut out = Vec::with_capacity(count);
    for _ in 0..count {
        let fb = (s >> top) & 1;
        s = ((s << 1) & g.mask()) ^ (g.normal() & fb.wrapping_neg());
        out.push(s);
    }
    out
}

/// Open-addressing hash map from syndromes to a `u64`. `u64::MAX` marks an
/// empty slot; that syndrome (possible at width 64) is kept aside in `max`.
///
/// A table built [`Table::with_filter`] also keeps a [`Presence`] filter of
/// its keys, which answers most lookups of absent keys without touching the
/// slots: for the searches that probe far more syndromes than they find.
pub(crate) struct Table {
    keys: Vec<u64>,
    vals: Vec<u64>,
    len: usize,
    max: Option<u64>,
    filter: Option<Presence>,
}

const EMPTY: u64 = u64::MAX;

/// Bits of a table's [`Presence`] filter per slot: at load 1/2 or less, at
/// least 64 bits a key (a quarter more memory than the slots' own 16 bytes).
/// Half of that made the weight-4 count 13% slower (more false positives).
const FILTER_BITS_PER_SLOT: usize = 32;

impl Table {
    pub(crate) fn with_capacity(n: usize) -> Self {
        let cap = (n.max(16) * 2).next_power_of_two();
        Table {
            keys: vec![EMPTY; cap],
            vals: vec![0; cap],
            len: 0,
            max: None,
            filter: None,
        }
    }
    /// [`Table::with_capacity`], with a [`Presence`] filter kept beside the
    /// slots (a quarter more memory).
    pub(crate) fn with_filter(n: usize) -> Self {
        let mut t = Table::with_capacity(n);
        t.filter = Some(Presence::with_bits(t.keys.len() * FILTER_BITS_PER_SLOT));
        t
    }
    #[inline]
    fn slot(&self, k: u64) -> usize {
        (k.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 20) as usize & (self.keys.len() - 1)
    }
    /// The slot of `k`: where it is, or the empty slot where it goes
    /// (inserted with value `v`). `true` when it was there already.
    #[inline(always)]
    fn entry(&mut self, k: u64, v: u64) -> (usize, bool) {
        if (self.len + 1) * 2 > self.keys.len() {
            self.grow();
        }
        let mask = self.keys.len() - 1;
        let mut i = self.slot(k);
        loop {
            if self.keys[i] == EMPTY {
                self.keys[i] = k;
                self.vals[i] = v;
                self.len += 1;
                if let Some(f) = &mut self.filter {
                    f.set(k);
                }
                return (i, false);
            }
            if self.keys[i] == k {
                return (i, true);
            }
            i = (i + 1) & mask;
        }
    }
    /// Inserts unless present (the first value is kept).
    #[inline(always)]
    pub(crate) fn insert(&mut self, k: u64, v: u64) {
        if k == EMPTY {
            self.max.get_or_insert(v);
            if let Some(f) = &mut self.filter {
                f.set(k);
            }
            return;
        }
        self.entry(k, v);
    }
    /// Adds 1 to the value of `k` (inserting it with 1).
    fn increment(&mut self, k: u64) {
        if k == EMPTY {
            *self.max.get_or_insert(0) += 1;
            if let Some(f) = &mut self.filter {
                f.set(k);
            }
            return;
        }
        if let (i, true) = self.entry(k, 1) {
            self.vals[i] += 1;
        }
    }
    #[inline(always)]
    pub(crate) fn get(&self, k: u64) -> Option<u64> {
        if let Some(f) = &self.filter
            && !f.may_hold(k)
        {
            return None;
        }
        let mask = self.keys.len() - 1;
        let mut i = self.slot(k);
        loop {
            let key = self.keys[i];
            if key == k {
                // `k == EMPTY` (kept aside in `max`) ends here too, at the
                // first empty slot: tested only on this path, not per probe
                return if k == EMPTY {
                    self.max
                } else {
                    Some(self.vals[i])
                };
            }
            if key == EMPTY {
                return None;
            }
            i = (i + 1) & mask;
        }
    }
    #[cold]
    #[inline(never)]
    fn grow(&mut self) {
        let old_k = std::mem::take(&mut self.keys);
        let old_v = std::mem::take(&mut self.vals);
        let cap = old_k.len() * 2;
        self.keys = vec![EMPTY; cap];
        self.vals = vec![0; cap];
        self.len = 0;
        if let Some(f) = &mut self.filter {
            *f = Presence::with_bits(cap * FILTER_BITS_PER_SLOT);
            if self.max.is_some() {
                f.set(EMPTY);
            }
        }
        for (k, v) in old_k.into_iter().zip(old_v) {
            // (`max` is kept as it is)
            if k != EMPTY {
                self.insert(k, v);
            }
        }
    }
}

/// A bit array summarising a set of syndromes, one bit a key set
/// ([`FILTER_BITS_PER_SLOT`] bits a table slot: 64 or more a key), sparse
/// enough that a syndrome not in the set almost always finds its bit clear.
/// No false negatives: a clear bit proves absence, a set bit says "look in
/// the [`Table`]". The weight-4 searches (span counts, shapes), `min_span`
/// and the joint sampler probe far more syndromes than are present; the
/// table alone (load up to 1/2) ends a miss at its first slot only about two
/// times in three, an unpredictable branch per probe, where this filter's
/// bit is clear about 98 times in 100.
struct Presence {
    bits: Vec<u64>,
    shift: u32,
}

impl Presence {
    /// An empty filter of `bits` bits (a power of two, at least 64).
    fn with_bits(bits: usize) -> Self {
        debug_assert!(bits.is_power_of_two() && bits >= 64);
        Presence {
            bits: vec![0; bits / 64],
            shift: 64 - bits.trailing_zeros(),
        }
    }
    #[inline(always)]
    fn bit(&self, k: u64) -> usize {
        // Fibonacci hashing on the top bits (the table uses bits 20 and up
        // of another product, so a key's slot and its bit are unrelated)
        (k.wrapping_mul(0xD6E8_FEB8_6659_FD93) >> self.shift) as usize
    }
    #[inline(always)]
    fn set(&mut self, k: u64) {
        let h = self.bit(k);
        self.bits[h >> 6] |= 1 << (h & 63);
    }
    /// `false` only if `k` is not in the set.
    #[inline(always)]
    fn may_hold(&self, k: u64) -> bool {
        let h = self.bit(k);
        self.bits[h >> 6] >> (h & 63) & 1 == 1
    }
}

/// Refuses, before any work, what [`span_counts`] would refuse: a weight
/// outside 2..=6, a length over the limits of work or memory.
pub(crate) fn check_span(g: &Generator, w: u32, max_len: u64) -> Result<()> {
    check_width(g)?;
    if !(2..=6).contains(&w) {
        return Err(Error::Unsupported(format!(
            "counts for every length are available for weights 2 to 6, not {w}; \
             use the dual-code weights for higher weights"
        )));
    }
    if max_len > MAX_SPAN_LEN {
        return Err(Error::TooBig {
            what: format!("weight-{w} counts up to {max_len} bits"),
            need: crate::error::human_bytes(max_len as f64 * 40.0),
            limit: crate::error::human_bytes(MAX_SPAN_LEN as f64 * 40.0),
        });
    }
    let n = max_len as usize;
    if w == 4 && (n as f64).powi(2) / 2.0 > WORK_LIMIT {
        return Err(Error::Unsupported(format!(
            "weight-4 counts up to {n} bits need about {:.1e} probes, over the limit of {WORK_LIMIT:.0e}",
            (n as f64).powi(2) / 2.0
        )));
    }
    if w == 6 && (n as f64).powi(3) / 6.0 > WORK_LIMIT {
        return Err(Error::Unsupported(format!(
            "weight-6 counts up to {n} bits need about {:.1e} probes, over the limit of {WORK_LIMIT:.0e}",
            (n as f64).powi(3) / 6.0
        )));
    }
    if w >= 5 {
        let pairs = (n as f64) * (n as f64) / 2.0;
        // open addressing at load <= 1/2: 16 bytes a slot, 2-4 slots a pair
        let need = 64.0 * pairs.max(16.0);
        let limit = crate::units::MemoryBudget::from_env()?.get();
        if need > limit {
            return Err(Error::TooBig {
                what: format!("weight-5 counts up to {n} bits (pair table)"),
                need: crate::error::human_bytes(need),
                limit: crate::error::human_bytes(limit),
            });
        }
    }
    Ok(())
}

/// `c_w(L)` for `L = 0..max_len`: the number of weight-`w` codewords whose
/// lowest position is 0 and highest is `L` (`w` = 2 to 6).
///
/// Cost `O(max_len)` for `w <= 3`, `O(max_len^2 / 2)` hash probes for
/// `w = 4` (parallel over `L`), and for `w = 5` a table of the
/// `max_len^2 / 2` pair syndromes (meet in the middle: `{0, a, b, c, L}` is
/// a codeword iff `s_a ^ s_b = 1 ^ s_L ^ s_c`), `max_len^2 / 2` probes and as
/// many inserts; about 4 GiB and some seconds at Ethernet lengths. For
/// `w = 6` the same pair table is probed for every `(c, d, L)`:
/// `max_len^3 / 6` probes, refused above [`WORK_LIMIT`] (lengths up to about
/// 4,900 bits).
pub fn span_counts(g: &Generator, w: u32, max_len: u64) -> Result<Vec<u64>> {
    span_counts_with(g, w, max_len, &Silent)
}

/// [`span_counts`] watched by `progress`: one stage, `"weight-w spans"`,
/// of one unit per span `L` (weights 2 to 4) or per third position `c`
/// of the meet in the middle (weights 5 and 6).
pub fn span_counts_with(
    g: &Generator,
    w: u32,
    max_len: u64,
    progress: &dyn Progress,
) -> Result<Vec<u64>> {
    check_span(g, w, max_len)?;
    let n = max_len as usize;
    if w >= 5 {
        progress.stage(&format!("weight-{w} spans"), n.saturating_sub(1) as u64);
        return Ok(span_counts56(&syndromes(g, n.max(1)), n, w, progress));
    }
    progress.stage(&format!("weight-{w} spans"), n as u64);
    let period = gf2::period(g);
    let distinct = (n as u128).min(period) as usize;
    let syn = syndromes(g, n.max(1));
    let mut first = if w == 4 {
        // n^2 / 2 probes, nearly all of absent syndromes
        Table::with_filter(distinct)
    } else {
        Table::with_capacity(distinct)
    };
    for (j, &s) in syn.iter().enumerate().take(distinct) {
        first.insert(s, j as u64);
    }
    let count_in = |s: u64, l: u64| count_in(&first, period, s, l);
    let out: Vec<u64> = (0..n as u64)
        .into_par_iter()
        .map(|l| {
            if l == 0 {
                return 0;
            }
            let t = 1 ^ syn[l as usize];
            match w {
                2 => (t == 0) as u64,
                3 => count_in(t, l),
                _ => {
                    let mut ordered = 0u64;
                    for &sb in &syn[1..l as usize] {
                        ordered += count_in(t ^ sb, l);
                    }
                    if t == 0 {
                        ordered -= l - 1;
                    }
                    // O(l) probes per span: worth one report each
                    progress.advance(1);
                    ordered / 2
                }
            }
        })
        .collect();
    if w < 4 {
        progress.advance(n as u64);
    } else if n > 0 {
        progress.advance(1); // L = 0
    }
    Ok(out)
}

/// Positions `i` in `(0, l)` with syndrome `s`, from `first` (the first
/// position of each syndrome) and the `period` of the generator. Forced
/// inline: it is the probe of the weight-4 count's inner loop, and as a
/// closure called from two places it became a call per probe (the
/// `a4_all_lengths_to_12144` bench: 277 ms before, 338 ms).
#[inline(always)]
fn count_in(first: &Table, period: u128, s: u64, l: u64) -> u64 {
    match first.get(s) {
        None => 0,
        Some(j) => {
            let (j, l) = (j as u128, l as u128);
            let c = if j == 0 {
                l.saturating_sub(1) / period
            } else if j < l {
                (l - 1 - j) / period + 1
            } else {
                0
            };
            c as u64
        }
    }
}

/// `c_5(L)` and `c_6(L)` by meet in the middle over the third position `c`:
/// before `c` is processed the table holds the syndromes of every pair
/// `1 <= a < b < c`; a codeword `{0, a, b, c, L}` needs the pair syndrome
/// `1 ^ s_L ^ s_c`, and `{0, a, b, c, d, L}` needs `1 ^ s_L ^ s_c ^ s_d`.
fn span_counts56(syn: &[u64], n: usize, w: u32, progress: &dyn Progress) -> Vec<u64> {
    let mut out = vec![0u64; n];
    let mut pairs = Table::with_capacity(n * n.saturating_sub(1) / 2);
    for c in 1..n {
        progress.advance(1);
        if c >= 3 && c + 1 < n {
            let sc = syn[c];
            let table = &pairs;
            if w == 5 {
                out[c + 1..]
                    .par_iter_mut()
                    .zip(&syn[c + 1..n])
                    .for_each(|(o, &sl)| *o += table.get(1 ^ sl ^ sc).unwrap_or(0));
            } else {
                // L > d > c: for each L, sum over d in (c, L)
                out[c + 2..].par_iter_mut().enumerate().for_each(|(i, o)| {
                    let l = c + 2 + i;
                    let t = 1 ^ syn[l] ^ sc;
                    *o += syn[c + 1..l]
                        .iter()
                        .map(|&sd| table.get(t ^ sd).unwrap_or(0))
                        .sum::<u64>();
                });
            }
        }
        for &sa in &syn[1..c] {
            pairs.increment(sa ^ syn[c]);
        }
    }
    out
}

/// `A_w(n)` for every `n` in `0..max_len` (index `n`), `w` = 2 to 6.
pub fn weight_counts(g: &Generator, w: u32, max_len: u64) -> Result<Vec<u128>> {
    weight_counts_with(g, w, max_len, &Silent)
}

/// [`weight_counts`] watched by `progress` (the stage of
/// [`span_counts_with`]).
pub fn weight_counts_with(
    g: &Generator,
    w: u32,
    max_len: u64,
    progress: &dyn Progress,
) -> Result<Vec<u128>> {
    let c = span_counts_with(g, w, max_len, progress)?;
    let mut out = Vec::with_capacity(c.len());
    let (mut a, mut cum) = (0u128, 0u128);
    for (l, &cl) in c.iter().enumerate() {
        if l > 0 {
            a += cum;
        }
        out.push(a);
        cum += cl as u128;
    }
    Ok(out)
}

/// Largest number of pair probes [`shapes`] makes for weight 4
/// (`max_len^2 / 2`; lengths up to about 77,000 bits).
pub const SHAPE_PAIR_LIMIT: f64 = 3e9;

/// Largest number of position pairs [`shapes`] joins for weight 5
/// (`max_len^2 / 2`; lengths up to 20,000 bits: the join gathers each
/// slice's pairs from the positions grouped by slice bits, so every pair is
/// formed once, and the work grows with this number).
pub const SHAPE5_PAIR_LIMIT: f64 = 2e8;

/// Every weight-`w` codeword *shape* of span below `max_len` (`w` = 2 to 5):
/// exponent sets `{0, .., L}` with the XOR of their syndromes 0, lowest
/// first, listed once each. Placed at offset `o` (exponents `+ o`), a shape
/// is a codeword of every length `n > L + o`; so the weight-`w` codewords at
/// length `n` are the shapes of span `L < n` at the `n - L` offsets, and
/// `sum (n - L)` over the list is `A_w(n)` of [`weight_counts`].
///
/// Weights 2 and 3 look up one syndrome table, weight 4 probes it for every
/// pair `(b, L)` (`max_len^2 / 2` probes, in parallel; for a primitive
/// generator of width 32 or less, such as CRC-32, the same pairs are found
/// by Zech logarithms: one subtraction and comparison per pair `(d, L)`, a
/// sequential scan, see `zech`), weight 5 joins the
/// position pairs `(a, b)` and `(c, L)` on `s_a ^ s_b = 1 ^ s_c ^ s_L`,
/// `b < c`, by sorting the pairs one slice of the syndrome space at a time
/// (a few tens of MiB at Ethernet lengths; [`SHAPE_PAIR_LIMIT`] and
/// [`SHAPE5_PAIR_LIMIT`] bound the work).
/// Lengths beyond the period of `g` are refused.
///
/// ```
/// use aliasing_core::{lowweight, poly::Generator};
/// let g: Generator = "0x104C11DB7".parse().unwrap(); // CRC-32
/// let s = lowweight::shapes(&g, 4, 3008).unwrap();
/// assert_eq!(s, vec![vec![0, 2215, 2866, 2975 + 31]]);
/// ```
pub fn shapes(g: &Generator, w: u32, max_len: u64) -> Result<Vec<Vec<u32>>> {
    shapes_with(g, w, max_len, &Silent)
}

/// [`shapes`] watched by `progress`: one stage, `"weight-w shape search"`,
/// of one unit per part of [`ShapeParts`] (a block of spans `L` for weight
/// 4, a slice of the pair join for weight 5, one part for weights 2 and 3).
pub fn shapes_with(
    g: &Generator,
    w: u32,
    max_len: u64,
    progress: &dyn Progress,
) -> Result<Vec<Vec<u32>>> {
    let parts = ShapeParts::new(g, w, max_len)?;
    progress.stage(&format!("weight-{w} shape search"), parts.parts());
    let mut out: Vec<Vec<u32>> = (0..parts.parts())
        .into_par_iter()
        .flat_map_iter(|i| {
            let v = parts.part(i);
            progress.advance(1);
            v
        })
        .collect();
    if w == 5 {
        out.sort_unstable();
    }
    Ok(out)
}

/// Spans per part of the weight-4 shapes in [`ShapeParts`].
const SPANS_PER_PART: usize = 64;

/// The shapes of [`shapes`] cut into parts fixed by `(g, w, max_len)` alone,
/// so that a long enumeration can be spread over threads, shards or
/// machines and its sums combined exactly: weights 2 and 3 are one part,
/// weight 4 one part per block of 64 spans `L`, weight 5 one part per slice
/// of the syndrome space of its join. Every shape lies in exactly one part.
///
/// ```
/// use aliasing_core::{lowweight, poly::Generator};
/// let g: Generator = "0x104C11DB7".parse().unwrap(); // CRC-32
/// let p = lowweight::ShapeParts::new(&g, 4, 3008).unwrap();
/// let all: Vec<Vec<u32>> = (0..p.parts()).flat_map(|i| p.part(i)).collect();
/// assert_eq!(all, lowweight::shapes(&g, 4, 3008).unwrap());
/// ```
pub struct ShapeParts {
    w: u32,
    syn: Vec<u64>,
    /// Position of each syndrome (weight 3, and weight 4 without `zech`).
    at: Option<Table>,
    /// Weight 4 where `g` is primitive (width 32 or less): the order of `x`
    /// and the Zech logarithms `Z(d)`, `d < max_len` (see [`zech`]).
    zech: Option<(u64, std::sync::Arc<Vec<u32>>)>,
    /// With `zech`: the pairs `(Z(d), d)`, `1 <= d < max_len`, sorted.
    by_zech: Vec<(u32, u32)>,
    parts: u64,
}

impl ShapeParts {
    /// The parts of the weight-`w` shapes (2 to 5) of span below `max_len`,
    /// with the limits of [`shapes`]; computes the `max_len` syndromes.
    pub fn new(g: &Generator, w: u32, max_len: u64) -> Result<Self> {
        Self::new_with(g, w, max_len, true)
    }

    /// [`ShapeParts::new`], with the Zech logarithms for weight 4 where `g`
    /// allows them only if `fast` (the tests compare both searches).
    fn new_with(g: &Generator, w: u32, max_len: u64, fast: bool) -> Result<Self> {
        check_width(g)?;
        if !(2..=5).contains(&w) {
            return Err(Error::Unsupported(format!(
                "codeword shapes are listed for weights 2 to 5, not {w}"
            )));
        }
        if max_len as u128 > gf2::period(g) || max_len > u32::MAX as u64 {
            return Err(Error::Unsupported(format!(
                "codeword shapes are listed for lengths up to the period of the generator, not {max_len} bits"
            )));
        }
        let n = max_len as usize;
        let pairs = (n as f64) * (n as f64) / 2.0;
        let limit = if w == 5 {
            SHAPE5_PAIR_LIMIT
        } else {
            SHAPE_PAIR_LIMIT
        };
        if w >= 4 && pairs > limit {
            return Err(Error::Unsupported(format!(
                "weight-{w} shapes up to {n} bits need about {pairs:.1e} pair probes, over the limit of {limit:.0e}"
            )));
        }
        let syn = if n < 2 { Vec::new() } else { syndromes(g, n) };
        let zech = if n >= 2 && w == 4 && fast {
            zech::Logs::of(g).map(|l| (l.order(), l.zech(&syn)))
        } else {
            None
        };
        let mut by_zech: Vec<(u32, u32)> = match &zech {
            Some((_, z)) => (1..n).map(|d| (z[d], d as u32)).collect(),
            None => Vec::new(),
        };
        by_zech.sort_unstable();
        let at = (n >= 2 && (w == 3 || (w == 4 && zech.is_none()))).then(|| {
            // distinct syndromes below the period: position of each (weight
            // 4 probes it n^2 / 2 times, nearly always for an absent one)
            let mut at = if w == 4 {
                Table::with_filter(n)
            } else {
                Table::with_capacity(n)
            };
            for (j, &s) in syn.iter().enumerate().skip(1) {
                at.insert(s, j as u64);
            }
            at
        });
        let parts = match (n < 2, w) {
            (true, _) => 0,
            (false, 4) => (n - 1).div_ceil(SPANS_PER_PART) as u64,
            (false, 5) => slices5(n),
            _ => 1,
        };
        Ok(ShapeParts {
            w,
            syn,
            at,
            zech,
            by_zech,
            parts,
        })
    }

    /// Number of parts.
    pub fn parts(&self) -> u64 {
        self.parts
    }

    /// The shapes of part `i` (below [`ShapeParts::parts`]; none otherwise).
    pub fn part(&self, i: u64) -> Vec<Vec<u32>> {
        if i >= self.parts {
            return Vec::new();
        }
        let syn = &self.syn;
        let n = syn.len();
        if self.w == 5 {
            return shapes5_slice(syn, i, self.parts);
        }
        let spans = if self.w == 4 {
            let lo = 1 + i as usize * SPANS_PER_PART;
            lo..(lo + SPANS_PER_PART).min(n)
        } else {
            1..n
        };
        let mut v: Vec<Vec<u32>> = Vec::new();
        if let (4, Some((order, z))) = (self.w, &self.zech) {
            // x^a + x^b = 1 + x^L = x^Z(L): per difference d = b - a one
            // candidate a = Z(L) - Z(d) mod P, wanted in 1..L-d, so Z(d)
            // lies in the window Z(L) - (L - 2) ..= Z(L) - 1 (mod P): found
            // in the sorted Z(d) (about n L / P candidates a span, instead
            // of a scan of every d); listed by b, as the probes list them
            let mut found: Vec<(u32, u32)> = Vec::new();
            let p = *order;
            for l in spans {
                found.clear();
                if l >= 3 {
                    let lt = u64::from(z[l]);
                    let width = l as u64 - 2;
                    // the window as one or two ranges of [0, P)
                    let ranges = if lt >= width {
                        [(lt - width, lt), (0, 0)]
                    } else {
                        [(0, lt), (p + lt - width, p)]
                    };
                    for (from, to) in ranges {
                        let i = self.by_zech.partition_point(|e| u64::from(e.0) < from);
                        for &(zd, d) in self.by_zech[i..].iter() {
                            if u64::from(zd) >= to {
                                break;
                            }
                            let a = (lt + p - u64::from(zd)) % p;
                            if (d as usize) < l && a >= 1 && a + u64::from(d) < l as u64 {
                                found.push((a as u32 + d, a as u32));
                            }
                        }
                    }
                }
                found.sort_unstable();
                v.extend(found.iter().map(|&(b, a)| vec![0, a, b, l as u32]));
            }
            return v;
        }
        for l in spans {
            let t = 1 ^ syn[l];
            match (self.w, &self.at) {
                (2, _) => {
                    if t == 0 {
                        v.push(vec![0, l as u32]);
                    }
                }
                (3, Some(at)) => {
                    if let Some(a) = at.get(t)
                        && (a as usize) < l
                    {
                        v.push(vec![0, a as u32, l as u32]);
                    }
                }
                (_, Some(at)) => shapes4_span(at, &syn[..l], t, &mut v),
                _ => unreachable!("a table for weights 3 and 4"),
            }
        }
        v
    }
}

/// The weight-4 shapes `{0, a, b, L}` of span `L = syn.len()`, where
/// `t = 1 ^ s_L`, pushed onto `v`: the `L - 2` probes of one span, a function
/// of its own so that the loop keeps its state in registers (inlined into
/// [`ShapeParts::part`] it spilled them: the `joint/weight4_1518B` bench took
/// 79 ms, against 57 ms).
#[inline(never)]
fn shapes4_span(at: &Table, syn: &[u64], t: u64, v: &mut Vec<Vec<u32>>) {
    let l = syn.len() as u32;
    for (b, &sb) in syn.iter().enumerate().skip(2) {
        if let Some(a) = at.get(t ^ sb)
            && (a as usize) < b
        {
            v.push(vec![0, a as u32, b as u32, l]);
        }
    }
}

/// Slices of the weight-5 join at `n` positions: a power of two, about one
/// per 4 Mi position pairs.
fn slices5(n: usize) -> u64 {
    let pairs = n * (n - 1) / 2;
    (pairs / (1 << 22)).max(1).next_power_of_two() as u64
}

/// `v` sorted by its first field (equal keys in any order): least
/// significant digit first, 8 bits a pass, over the bytes where the keys
/// differ (a slice's keys share their slice bits), each pass a stable
/// counting sort; a short `v` by comparisons.
fn sort_by_key_radix(v: &mut Vec<(u64, u32, u32)>) {
    if v.len() < 1024 {
        v.sort_unstable_by_key(|e| e.0);
        return;
    }
    let first = v[0].0;
    let differ = v.iter().fold(0u64, |m, e| m | (e.0 ^ first));
    let mut tmp = vec![(0u64, 0u32, 0u32); v.len()];
    for shift in (0..64).step_by(8) {
        if (differ >> shift) & 0xFF == 0 {
            continue;
        }
        let digit = |e: &(u64, u32, u32)| ((e.0 >> shift) & 0xFF) as usize;
        let mut at = [0usize; 257];
        for e in v.iter() {
            at[digit(e) + 1] += 1;
        }
        for d in 0..256 {
            at[d + 1] += at[d];
        }
        for e in v.iter() {
            let d = digit(e);
            tmp[at[d]] = *e;
            at[d] += 1;
        }
        std::mem::swap(v, &mut tmp);
    }
}

/// Weight-5 shapes `{0, a, b, c, L}` of one slice: pairs `(x, y)`,
/// `1 <= x < y < n`, keyed by `s_x ^ s_y`; a left pair `(a, b)` with key `k`
/// and a right pair `(c, L)` with key `k ^ 1` and `b < c` make a shape. The
/// key space is cut into `slices` slices by `(k >> 1)` (so `k` and `k ^ 1`
/// share one), each gathered, sorted and joined on its own.
///
/// The pairs of a slice are gathered without scanning the others: with
/// `h(y) = (s_y >> 1) & (slices - 1)`, the key of `(x, y)` is in the slice
/// iff `h(y) = slice ^ h(x)`, so the positions are grouped by `h` (in
/// increasing order within a group) and each `x` meets only its group's
/// `y > x` (about `n^2 / (2 slices)` pairs a slice instead of `n^2 / 2`).
fn shapes5_slice(syn: &[u64], slice: u64, slices: u64) -> Vec<Vec<u32>> {
    shapes5_slice_in(syn, slice, slices, SUB_SLICE_PAIRS)
}

/// About how many pairs a sub-slice of the weight-5 join holds.
const SUB_SLICE_PAIRS: u64 = 1 << 17;

/// [`shapes5_slice`] with sub-slices of about `sub_pairs` pairs (the tests
/// take other sizes: the shapes do not depend on it).
fn shapes5_slice_in(syn: &[u64], slice: u64, slices: u64, sub_pairs: u64) -> Vec<Vec<u32>> {
    let n = syn.len();
    // the slice is joined in sub-slices of about 2^17 pairs (2 MiB, so
    // that the radix passes stay in the cache), cut by the key bits above
    // the slice's: sub-slice `s` holds the keys with
    // `(k >> 1) & (total - 1) = slice + s slices`; k and k ^ 1 share one
    let pairs = (n * n.saturating_sub(1) / 2) as u64 / slices;
    let subs = (pairs / sub_pairs).max(1).next_power_of_two();
    let total = slices * subs;
    let h = |y: usize| ((syn[y] >> 1) & (total - 1)) as usize;
    // counting sort of the positions 1..n by h: group g is
    // by_h[start[g]..start[g + 1]], increasing
    let mut start = vec![0usize; total as usize + 1];
    for y in 1..n {
        start[h(y) + 1] += 1;
    }
    for g in 0..total as usize {
        start[g + 1] += start[g];
    }
    let mut fill = start.clone();
    let mut by_h = vec![0u32; n.saturating_sub(1)];
    for y in 1..n {
        by_h[fill[h(y)]] = y as u32;
        fill[h(y)] += 1;
    }
    let mut found = Vec::new();
    let mut v: Vec<(u64, u32, u32)> = Vec::new();
    for sub in 0..subs {
        let target = (slice + sub * slices) as usize;
        v.clear();
        for x in 1..n {
            let sx = syn[x];
            let g = target ^ h(x);
            let group = &by_h[start[g]..start[g + 1]];
            let from = group.partition_point(|&y| y as usize <= x);
            for &y in &group[from..] {
                v.push((sx ^ syn[y as usize], x as u32, y));
            }
        }
        join5(&mut v, &mut found);
    }
    found
}

/// The weight-5 shapes of the pairs `v` (keys `s_x ^ s_y`, a slice's or a
/// sub-slice's, holding `k ^ 1` with every `k`): sorted by key, each left
/// pair `(a, b)` of key `k` with each right pair `(c, L)` of key `k ^ 1`
/// and `b < c`, pushed onto `found`.
fn join5(v: &mut Vec<(u64, u32, u32)>, found: &mut Vec<Vec<u32>>) {
    // by key only: the join takes every pair of a run, in any order
    sort_by_key_radix(v);
    // keys k and k ^ 1 differ in the lowest bit only: sorted, their runs
    // are neighbours (the even key first), found by a linear scan
    let run_end = |i: usize| {
        let k = v[i].0;
        i + v[i..].iter().take_while(|e| e.0 == k).count()
    };
    let mut i = 0;
    while i < v.len() {
        let j = run_end(i);
        if v[i].0 & 1 == 1 || j == v.len() || v[j].0 != v[i].0 ^ 1 {
            // no partner run (an odd key's partner would have come first)
            i = j;
            continue;
        }
        let e = j;
        let o = run_end(e);
        // left pairs of one key, right pairs of the other, both ways
        for (left, right) in [(i..e, e..o), (e..o, i..e)] {
            for &(_, a, b) in &v[left] {
                for &(_, c, l) in &v[right.clone()] {
                    if b < c {
                        found.push(vec![0, a, b, c, l]);
                    }
                }
            }
        }
        i = o;
    }
}

/// One entry of a Hamming-distance profile.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[non_exhaustive]
pub struct HdEntry {
    /// The Hamming distance.
    pub hd: u32,
    /// Largest data-word length (bits, check bits excluded) at which every
    /// error of fewer than `hd` bits is detected.
    pub max_data_bits: u64,
    /// An undetectable error pattern of weight below `hd` at the next
    /// length (`max_data_bits + 1` data bits): bit positions, `x^i`
    /// counted from the end of the codeword, lowest first.
    pub example: Vec<u64>,
}

/// The Hamming-distance profile of a CRC, as in Koopman's tables:
/// entries for HD 3, 4, ... up to the weight of `g` (the HD at one data bit)
/// or `max_hd`.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[non_exhaustive]
pub struct HdProfile {
    /// The generator.
    pub generator: Generator,
    /// Entries in order of increasing HD.
    pub entries: Vec<HdEntry>,
}

impl HdProfile {
    /// Koopman's notation: `{4294967263,91607,2974,...}`.
    pub fn koopman_notation(&self) -> String {
        let v: Vec<String> = self
            .entries
            .iter()
            .map(|e| e.max_data_bits.to_string())
            .collect();
        format!("{{{}}}", v.join(","))
    }

    /// The Hamming distance at `data_bits` data bits (check bits excluded):
    /// the fewest bit errors that can go undetected in a codeword of that
    /// length.
    ///
    /// Fails on `data_bits == 0`, and where the profile was cut short by a
    /// `max_hd` below the weight of the generator so that only a lower bound
    /// is known.
    ///
    /// ```
    /// use aliasing_core::{lowweight::hd_profile, poly::Generator};
    /// let p = hd_profile(&Generator::from_koopman(32, 0x82608EDB).unwrap(), Some(6)).unwrap();
    /// assert_eq!(p.hd_at(12112).unwrap(), 4); // CRC-32 on an Ethernet frame
    /// assert_eq!(p.hd_at(2974).unwrap(), 5);
    /// assert_eq!(p.hd_at(269).unwrap(), 5);
    /// assert!(p.hd_at(268).is_err()); // HD >= 6: the profile stops there
    /// ```
    pub fn hd_at(&self, data_bits: u64) -> Result<u32> {
        if data_bits == 0 {
            return Err(Error::BadLength(
                "a codeword needs at least 1 data bit".into(),
            ));
        }
        let covering = self
            .entries
            .iter()
            .rev()
            .find(|e| e.max_data_bits >= data_bits);
        match covering {
            // Beyond the HD-3 length (the period): a weight-2 codeword exists.
            None => Ok(2),
            Some(e) if e.hd == self.entries.last().map_or(0, |l| l.hd) => {
                // The top entry: exact only if it is the weight of g, an
                // upper bound at every length (g is itself a codeword).
                let wt = self.generator.full().count_ones();
                if e.hd == wt {
                    Ok(wt)
                } else {
                    Err(Error::Unsupported(format!(
                        "the profile stops at HD {}; the HD at {data_bits} data bits is at least {}",
                        e.hd, e.hd
                    )))
                }
            }
            Some(e) => Ok(e.hd),
        }
    }
}

/// Data lengths up to this many bits are settled by listing every codeword.
const ENUM_BITS: u32 = 22;

/// Minimum weight of `q g` over non-zero `q` of each degree `< k`, with an
/// example codeword: `best[d] = (weight, codeword)` for `deg q = d`.
fn small_codewords(g: &Generator, k: u32) -> Vec<(u32, u128)> {
    let mut best = vec![(u32::MAX, 0u128); k as usize];
    let mut c = 0u128;
    for i in 1u64..(1u64 << k) {
        c ^= g.full() << i.trailing_zeros();
        let gray = i ^ (i >> 1);
        let d = 63 - gray.leading_zeros() as usize;
        let wt = c.count_ones();
        if wt < best[d].0 {
            best[d] = (wt, c);
        }
    }
    best
}

fn positions(c: u128) -> Vec<u64> {
    (0..128).filter(|&i| (c >> i) & 1 == 1).collect()
}

/// Enumerates subsets of `lo..limit` of size `1..=k` (with their syndrome
/// XOR and positions packed `bits` bits each) and calls `f`.
fn subsets(
    syn: &[u64],
    lo: usize,
    limit: usize,
    k: usize,
    bits: u32,
    f: &mut impl FnMut(u64, u64, usize),
) {
    struct Walk<'a, F> {
        syn: &'a [u64],
        limit: usize,
        bits: u32,
        f: &'a mut F,
    }
    impl<F: FnMut(u64, u64, usize)> Walk<'_, F> {
        fn rec(&mut self, start: usize, left: usize, x: u64, packed: u64, depth: usize) {
            for i in start..self.limit {
                let nx = x ^ self.syn[i];
                let np = packed | ((i as u64) << (depth as u32 * self.bits));
                (self.f)(nx, np, depth + 1);
                if left > 1 {
                    self.rec(i + 1, left - 1, nx, np, depth + 1);
                }
            }
        }
    }
    if k == 0 {
        return;
    }
    let mut w = Walk {
        syn,
        limit,
        bits,
        f,
    };
    w.rec(lo, k, 0, 0, 0);
}

fn unpack(packed: u64, bits: u32) -> Vec<u64> {
    let mut v = Vec::new();
    let mut p = packed;
    let mask = if bits >= 64 {
        u64::MAX
    } else {
        (1u64 << bits) - 1
    };
    while p != 0 {
        v.push(p & mask);
        p = if bits >= 64 { 0 } else { p >> bits };
    }
    v
}

fn choose(n: f64, k: usize) -> f64 {
    (0..k).fold(1.0, |a, i| a * (n - i as f64) / (i as f64 + 1.0))
}

/// What [`min_span`] found.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Span {
    /// The smallest span and a codeword of that span (positions).
    Found(u64, Vec<u64>),
    /// No codeword of weight at most `w` with a span below `until`.
    Clear,
    /// The search stopped before span `at` (budget, table or position
    /// limits: the reason): every span below `at` is clear, `at` and up
    /// are unknown.
    Stopped { at: u64, reason: String },
}

/// Smallest span `L` in `[from, until)` of a codeword of weight at most `w`
/// (all shapes with position 0 and `L`), by meet-in-the-middle, spending at
/// most `budget` hash probes (decremented by the probes spent).
fn min_span(
    g: &Generator,
    w: u32,
    from: u64,
    until: u64,
    budget: &mut f64,
    progress: &dyn Progress,
) -> Result<Span> {
    let inner = (w - 2) as usize;
    let h1 = inner.div_ceil(2);
    let h2 = inner - h1;
    let bits = 64 / h1.max(h2).max(1) as u32;
    let mut work = 0f64;
    let from = from.max(1);
    let total = until.saturating_sub(from);
    progress.stage(&format!("weight-{w} spans"), total);
    let mut spans = Batch::new(progress, 64);
    let mut syn = syndromes(g, from as usize + 1);
    // every span probes it for each subset of the other half, and all but
    // the last span find nothing
    let mut table = Table::with_filter(1024);
    table.insert(0, 0); // empty subset
    subsets(&syn, 1, from as usize, h1, bits, &mut |x, p, _| {
        table.insert(x, p)
    });
    for l in from..until {
        spans.add(1);
        if syn.len() <= l as usize {
            let more = syndromes_from(g, *syn.last().expect("non-empty"), syn.len());
            syn.extend(more);
        }
        if bits < 64 && l >= 1u64 << bits {
            spans.add(until - l);
            return Ok(Span::Stopped {
                at: l,
                reason: format!("positions over {bits} bits"),
            });
        }
        let probes = (0..=h2).map(|i| choose(l as f64, i)).sum::<f64>();
        if work + probes > *budget || table.len > TABLE_LIMIT {
            *budget -= work;
            spans.add(until - l);
            return Ok(Span::Stopped {
                at: l,
                reason: if table.len > TABLE_LIMIT {
                    format!("over {TABLE_LIMIT} table entries")
                } else {
                    format!("the budget of hash probes ran out after {work:.2e}")
                },
            });
        }
        work += probes;
        let t = 1 ^ syn[l as usize];
        let mut hit: Option<(u64, u64)> = table.get(t).map(|p1| (p1, 0));
        if hit.is_none() {
            let mut found = None;
            subsets(&syn, 1, l as usize, h2, bits, &mut |x, p2, _| {
                if found.is_none()
                    && let Some(p1) = table.get(t ^ x)
                {
                    found = Some((p1, p2));
                }
            });
            hit = found;
        }
        if let Some((p1, p2)) = hit {
            let mut set = std::collections::BTreeSet::new();
            set.insert(0u64);
            set.insert(l);
            for i in unpack(p1, bits).into_iter().chain(unpack(p2, bits)) {
                if !set.remove(&i) {
                    set.insert(i);
                }
            }
            // the longer spans are settled by this one
            spans.add(until - l - 1);
            *budget -= work;
            return Ok(Span::Found(l, set.into_iter().collect()));
        }
        // add subsets containing l (so the table covers (0, l+1))
        let sl = syn[l as usize];
        let shift = bits;
        table.insert(sl, l);
        if h1 > 1 {
            subsets(&syn, 1, l as usize, h1 - 1, bits, &mut |x, p, _| {
                table.insert(x ^ sl, (p << shift) | l)
            });
        }
    }
    *budget -= work;
    Ok(Span::Clear)
}

/// The Hamming-distance profile of `g` for HD 3 up to `max_hd` (default and
/// cap: the weight of `g`, which is the HD at one data bit).
///
/// HD 3 comes from the period of `g`; lengths up to 22 data bits from
/// listing every codeword; HD 4 (weight 3) from discrete logarithms
/// ([`crate::trinomial`]) where the factors of `g` allow; the rest from
/// `min_span`'s meet-in-the-middle
/// search (refused with an error if it would exceed [`WORK_LIMIT`] or
/// [`TABLE_LIMIT`]).
pub fn hd_profile(g: &Generator, max_hd: Option<u32>) -> Result<HdProfile> {
    hd_profile_with(g, max_hd, &Silent)
}

/// [`hd_profile`] watched by `progress`: a stage `"weight-w spans"` for
/// each weight searched by meet in the middle (one unit per span tried;
/// the spans beyond the first codeword found are reported at once).
pub fn hd_profile_with(
    g: &Generator,
    max_hd: Option<u32>,
    progress: &dyn Progress,
) -> Result<HdProfile> {
    Ok(hd_profile_up_to(g, max_hd, None, progress)?.0)
}

/// The Hamming-distance profile of `g` searched only up to codeword length
/// `max_bits` (check bits included; `None`: no limit, as [`hd_profile`]),
/// watched by `progress` as [`hd_profile_with`].
///
/// HD limits fall as the HD rises, so the low HDs may end beyond the bound:
/// their entries are left out and `Some(h)`, the highest of them, says HD
/// `>= h` holds at every length up to `max_bits` (nothing more is known of
/// them). The entries returned, those ending below the bound, are exact.
/// This is how far profiles of wide generators reach: the weight-`w`
/// search costs about `L^ceil((w-2)/2)` table entries and more probes at
/// span `L`, so a length bound keeps it finite.
///
/// ```
/// use aliasing_core::{lowweight, poly::Generator, progress::Silent};
/// let g: Generator = "0x104C11DB7".parse().unwrap(); // CRC-32
/// let (p, open) = lowweight::hd_profile_up_to(&g, None, Some(32 + 1000), &Silent).unwrap();
/// // HD 3, 4, 5 end beyond 1000 data bits (at 2^32-33, 91607, 2974)
/// assert_eq!(open, Some(5));
/// assert_eq!(p.entries[0].hd, 6);
/// assert_eq!(p.entries[0].max_data_bits, 268);
/// ```
pub fn hd_profile_up_to(
    g: &Generator,
    max_hd: Option<u32>,
    max_bits: Option<u64>,
    progress: &dyn Progress,
) -> Result<(HdProfile, Option<u32>)> {
    let s = hd_profile_within(g, max_hd, max_bits, WORK_LIMIT, progress)?;
    if let Some(stop) = s.stopped {
        return Err(Error::Unsupported(format!(
            "searching for weight-{} codewords is beyond this tool's limits ({}, at {} bits); \
             use --max-hd to stop earlier",
            stop.searched_hd - 1,
            stop.reason,
            stop.clear_to_bits + 1
        )));
    }
    Ok((s.profile, s.open))
}

/// Hash probes `alias hd` lets [`hd_profile_within`] spend by default
/// (`--budget`): about 4 s of one core (measured: 4.0 s user for
/// CRC-64/XZ, whose weight-4 search it stops at 44,720 bits). Every one of
/// hdlen's 363 gold profiles (widths 4 to 64) completes well within it.
pub const DEFAULT_BUDGET: f64 = 1e9;

/// Where a budgeted profile search stopped ([`HdSearch::stopped`]).
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
#[non_exhaustive]
pub struct HdStop {
    /// The HD whose search (for codewords of weight `searched_hd - 1`)
    /// stopped; every HD below it is in the profile, exact.
    pub searched_hd: u32,
    /// HD at least this at every codeword length up to
    /// [`HdStop::clear_to_bits`] (`searched_hd`, or more where `x + 1`
    /// divides `g` and the next weights are odd).
    pub hd_at_least: u32,
    /// Codeword length (check bits included) up to which every length was
    /// searched and found clear.
    pub clear_to_bits: u64,
    /// Why it stopped (the budget of probes, table or position limits).
    pub reason: String,
    /// The budget of hash probes the search was given.
    pub budget: f64,
}

/// A profile search within a budget ([`hd_profile_within`]).
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct HdSearch {
    /// The exact entries found (all HDs below [`HdStop::searched_hd`] when
    /// the search stopped; under a length bound, those ending below it).
    pub profile: HdProfile,
    /// Under a length bound `max_bits`: the highest HD that holds at every
    /// length up to it (its entry and the lower ones are left out), as
    /// [`hd_profile_up_to`].
    pub open: Option<u32>,
    /// `Some` if the budget (or a table or position limit) ended the search
    /// before every HD up to `max_hd` was settled; the HDs above
    /// [`HdStop::hd_at_least`] were not searched.
    pub stopped: Option<HdStop>,
}

impl HdSearch {
    /// Whether every HD asked for was settled.
    pub fn is_complete(&self) -> bool {
        self.stopped.is_none()
    }
}

/// [`hd_profile_up_to`] spending at most `budget` hash probes in its
/// meet-in-the-middle searches (all weights together; the period, the
/// discrete logarithms and the listing of short codewords are not counted).
/// Where the budget runs out, the search stops with what it has proved
/// ([`HdSearch::stopped`]) instead of failing.
///
/// ```
/// use aliasing_core::{catalogue, lowweight, progress::Silent};
/// let g = catalogue::resolve("crc64-xz").unwrap().generator();
/// let s = lowweight::hd_profile_within(&g, None, None, 1e6, &Silent).unwrap();
/// // HD 3 and 4 end at the period of (x+1) p(x); HD 5 holds at least as far
/// // as 1e6 probes reach (spans below about sqrt(2e6)), HD 6 as well (odd
/// // weights are excluded by x+1), higher HDs not searched
/// assert_eq!(s.profile.koopman_notation(), "{8589606850,8589606850}");
/// let stop = s.stopped.unwrap();
/// assert_eq!((stop.searched_hd, stop.hd_at_least), (5, 6));
/// assert!(stop.clear_to_bits > 1000);
/// ```
pub fn hd_profile_within(
    g: &Generator,
    max_hd: Option<u32>,
    max_bits: Option<u64>,
    budget: f64,
    progress: &dyn Progress,
) -> Result<HdSearch> {
    check_width(g)?;
    let r = g.width() as u64;
    let wt = g.full().count_ones();
    let top = max_hd.unwrap_or(wt).min(wt);
    let k = ENUM_BITS.min(127 - g.width());
    let best = small_codewords(g, k);
    // d[k'] = min distance at k' data bits, k' = 1..=k
    let mut dmin = vec![u32::MAX; k as usize + 1];
    let mut arg = vec![0u128; k as usize + 1];
    for kk in 1..=k as usize {
        let (pw, pc) = if kk > 1 {
            (dmin[kk - 1], arg[kk - 1])
        } else {
            (u32::MAX, 0)
        };
        let (bw, bc) = best[kk - 1];
        (dmin[kk], arg[kk]) = if bw < pw { (bw, bc) } else { (pw, pc) };
    }
    let lim = max_bits.unwrap_or(u64::MAX);
    if lim <= r {
        return Err(Error::BadLength(format!(
            "{lim} bits is not longer than the {r} check bits"
        )));
    }
    let period = gf2::period(g);
    let total_budget = budget;
    let mut budget = budget;
    let mut open = None;
    let mut stopped: Option<HdStop> = None;
    let mut entries: Vec<HdEntry> = Vec::new();
    // shortest length (n) with a codeword of weight < current hd
    let mut prev: Option<(u64, Vec<u64>)> = None;
    for hd in 3..=top {
        let w = hd - 1;
        let odd_impossible = g.divisible_by_x_plus_1() && w % 2 == 1;
        if let Some(st) = stopped.as_mut() {
            // Past a stop only the odd weights that x + 1 excludes follow
            // for free; the first weight that needs a search ends it.
            if odd_impossible && st.hd_at_least + 1 == hd && dmin[k as usize] >= hd {
                st.hd_at_least = hd;
                continue;
            }
            break;
        }
        let from = k as u64 + r;
        let search = |w: u32, from: u64, until: u64, budget: &mut f64| {
            min_span(g, w, from, until, budget, progress)
        };
        let found: std::result::Result<(u64, Vec<u64>), u64> = if dmin[k as usize] < hd {
            // settled by enumeration: first data length with d < hd
            let kk = (1..=k as usize).find(|&kk| dmin[kk] < hd).expect("exists");
            Ok((kk as u64 + r, positions(arg[kk])))
        } else if w == 2 {
            let p =
                u64::try_from(period).map_err(|_| Error::Unsupported("period too long".into()))?;
            // 1 + x^p at length p + 1; a period of 2^64 - 1 (a primitive
            // generator of width 64) puts that length at 2^64, one past
            // the last u64: it is held as u64::MAX, and the entry below
            // reads the exact limit from the pattern's top position
            Ok((p.saturating_add(1), vec![0, p]))
        } else {
            let (cap, cap_ex) = prev.clone().expect("hd 3 handled first");
            let until = (cap - 1).min(lim);
            // the answer when nothing shorter turns up below `until`
            let none_below = |until: u64| {
                if until < cap - 1 {
                    // none up to the length bound: the limit lies beyond it
                    (u64::MAX, Vec::new())
                } else {
                    (cap, cap_ex.clone())
                }
            };
            if odd_impossible {
                Ok((cap, cap_ex.clone()))
            } else if w == 3 {
                // Weight 3: a short scan first (most shortest trinomials lie
                // within a few thousand bits, where the scan is far cheaper
                // than the discrete-log tables), then discrete logarithms
                // where the factors allow, then the scan to the end.
                let quick = until.min(from.max(1) + QUICK_SPANS);
                match search(w, from, quick, &mut budget)? {
                    Span::Clear if quick < until => match crate::trinomial::shortest(g).ok() {
                        Some(Some(t)) if t.b + 1 < cap => Ok((t.b + 1, t.positions())),
                        Some(_) => Ok((cap, cap_ex.clone())),
                        None => settle(
                            search(w, quick, until, &mut budget)?,
                            || none_below(until),
                            hd,
                            total_budget,
                            &mut stopped,
                        ),
                    },
                    span => settle(span, || none_below(until), hd, total_budget, &mut stopped),
                }
            } else {
                settle(
                    search(w, from, until, &mut budget)?,
                    || none_below(until),
                    hd,
                    total_budget,
                    &mut stopped,
                )
            }
        };
        let Ok((n_first, example)) = found else {
            continue;
        };
        if n_first > lim {
            // HD >= hd at every length up to the bound; the next weight is
            // searched up to the bound only
            open = Some(hd);
            prev = Some((lim + 1, Vec::new()));
            continue;
        }
        // the pattern's top position is the first failing length less
        // one, exact even where that length (2^64) does not fit a u64
        let last_good = example.last().copied().unwrap_or(n_first - 1);
        entries.push(HdEntry {
            hd,
            max_data_bits: last_good - r,
            example: example.clone(),
        });
        prev = Some((n_first, example));
    }
    Ok(HdSearch {
        profile: HdProfile {
            generator: *g,
            entries,
        },
        open,
        stopped,
    })
}

/// What one span search of [`hd_profile_within`] settles: the first length
/// with a codeword and that codeword, the answer `clear` gives where none
/// turned up, or the length where it stopped (recorded in `stopped`, with
/// the HD searched and the budget given).
fn settle(
    span: Span,
    clear: impl FnOnce() -> (u64, Vec<u64>),
    hd: u32,
    budget: f64,
    stopped: &mut Option<HdStop>,
) -> std::result::Result<(u64, Vec<u64>), u64> {
    match span {
        Span::Found(l, ex) => Ok((l + 1, ex)),
        Span::Clear => Ok(clear()),
        Span::Stopped { at, reason } => {
            *stopped = Some(HdStop {
                searched_hd: hd,
                hd_at_least: hd,
                clear_to_bits: at,
                reason,
                budget,
            });
            Err(at)
        }
    }
}

/// Spans the weight-3 search scans before it turns to discrete logarithms.
const QUICK_SPANS: u64 = 1 << 16;

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    /// A_w(n) for all w by listing the 2^(n-r) codewords.
    fn brute(g: &Generator, n: u64) -> Vec<u128> {
        let k = n - g.width() as u64;
        let mut a = vec![0u128; n as usize + 1];
        let mut c = 0u128;
        a[0] = 1;
        for i in 1u64..(1u64 << k) {
            c ^= g.full() << i.trailing_zeros();
            a[c.count_ones() as usize] += 1;
        }
        a
    }

    /// HD profile straight from the definition by listing codewords.
    fn brute_profile(g: &Generator, max_k: u64) -> Vec<u64> {
        let r = g.width() as u64;
        let d: Vec<u32> = (1..=max_k)
            .map(|k| {
                let a = brute(g, k + r);
                (1..a.len()).find(|&w| a[w] > 0).unwrap() as u32
            })
            .collect();
        let wt = g.full().count_ones();
        (3..=wt)
            .map(|h| (1..=max_k).rev().find(|&k| d[k as usize - 1] >= h).unwrap())
            .collect()
    }

    #[test]
    fn hd_at_matches_brute_force() {
        // Independent check: the minimum weight of m x^r + (m x^r mod g)
        // over every non-zero data word m of k bits.
        for g in [
            Generator::new(8, 0x07).unwrap(),
            Generator::from_koopman(8, 0x9C).unwrap(),
            Generator::new(5, 0x05).unwrap(),
        ] {
            let p = hd_profile(&g, None).unwrap();
            let r = g.width();
            for k in 1..=14u32 {
                let mut min = u32::MAX;
                for m in 1u128..(1u128 << k) {
                    let shifted = m << r;
                    let (_, rem) = gf2::divmod(shifted, g.full());
                    min = min.min((shifted ^ rem).count_ones());
                }
                assert_eq!(p.hd_at(k as u64).unwrap(), min, "{g} at {k} data bits");
            }
        }
    }

    #[test]
    fn presence_filter_has_no_false_negatives_and_few_false_positives() {
        // xorshift64 keys, with the table's empty marker and 0 among them
        let mut x = 0x1234_5678_9ABC_DEF0u64;
        let mut next = || {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x
        };
        // the empty-slot marker and 0 first, so that every growth has to
        // keep their bits
        let mut keys = vec![u64::MAX, 0];
        keys.extend((0..10_000).map(|_| next()));
        // from 32 slots, so the table and its filter grow 10 times
        let mut t = Table::with_filter(1);
        for (i, &k) in keys.iter().enumerate() {
            t.insert(k, i as u64);
        }
        let f = t.filter.as_ref().unwrap();
        assert!(keys.iter().all(|&k| f.may_hold(k)));
        for (i, &k) in keys.iter().enumerate() {
            assert_eq!(t.get(k), Some(i as u64));
        }
        // 10,002 keys in 2^15 slots, 2^20 filter bits: about 1% of other
        // keys find a set bit
        let others = 100_000;
        let absent: Vec<u64> = (0..others).map(|_| next()).collect();
        let fp = absent.iter().filter(|&&k| f.may_hold(k)).count();
        assert!(fp < others / 50, "{fp} false positives in {others}");
        assert!(fp > 0, "a filter this full must let some through");
        assert!(absent.iter().all(|&k| t.get(k).is_none()));
        let empty = Table::with_filter(1);
        assert!(empty.get(0).is_none() && empty.get(u64::MAX).is_none());
    }

    #[test]
    fn shapes_match_counts_and_brute_force() {
        for (spec, nmax) in [
            ("0x107", 26u64),
            ("0x11021", 60),
            ("0x18005", 60),
            ("0x1F", 24),
            ("0x11D", 60),
        ] {
            let g: Generator = spec.parse().unwrap();
            let period = gf2::period(&g) as u64;
            let nmax = nmax.min(period);
            for w in 2..=5u32 {
                let sh = shapes(&g, w, nmax).unwrap();
                let counts = weight_counts(&g, w, nmax + 1).unwrap();
                for n in 1..=nmax {
                    let a: u128 = sh
                        .iter()
                        .filter(|s| (*s.last().unwrap() as u64) < n)
                        .map(|s| (n - *s.last().unwrap() as u64) as u128)
                        .sum();
                    assert_eq!(a, counts[n as usize], "{spec} w={w} n={n}");
                }
                for s in &sh {
                    assert_eq!(s.len(), w as usize);
                    assert_eq!(s[0], 0);
                    assert!(s.windows(2).all(|p| p[0] < p[1]));
                    let x = s.iter().fold(0, |a, &i| a ^ gf2::x_pow_mod(i as u128, &g));
                    assert_eq!(x, 0, "{spec} {s:?}");
                }
            }
        }
    }

    #[test]
    fn weight4_shapes_by_zech_logarithms_are_the_probes_shapes() {
        // primitive generators (the Zech search) at lengths with shapes,
        // against the hash probes, part by part and in order
        for (spec, n) in [
            ("0x11D", 255u64),
            ("0x1000000AF", 3000),
            ("0x104C11DB7", 9000),
            ("0x104C11DB7", 20000),
        ] {
            let g: Generator = spec.parse().unwrap();
            assert!(zech::Logs::of(&g).is_some(), "{spec} is primitive");
            // the window search against the scan of every difference
            let fast = ShapeParts::new_with(&g, 4, n, true).unwrap();
            let (order, z) = fast.zech.clone().unwrap();
            for l in (1..n as usize).step_by(97).chain([n as usize - 1]) {
                let mut want = Vec::new();
                zech::pairs(&z[..l], order, z[l], 1, l as u32, |a, d| {
                    want.push((a + d, a))
                });
                want.sort_unstable();
                let want: Vec<Vec<u32>> =
                    want.iter().map(|&(b, a)| vec![0, a, b, l as u32]).collect();
                let i = (l - 1) / SPANS_PER_PART;
                let got: Vec<Vec<u32>> = fast
                    .part(i as u64)
                    .into_iter()
                    .filter(|s| s[3] == l as u32)
                    .collect();
                assert_eq!(got, want, "{spec} span {l}");
            }
            let fast = ShapeParts::new_with(&g, 4, n, true).unwrap();
            let slow = ShapeParts::new_with(&g, 4, n, false).unwrap();
            assert!(fast.zech.is_some() && slow.zech.is_none());
            assert_eq!(fast.parts(), slow.parts());
            let mut total = 0;
            for i in 0..fast.parts() {
                let (a, b) = (fast.part(i), slow.part(i));
                assert_eq!(a, b, "{spec} part {i}");
                total += a.len();
            }
            assert!(total > 0, "{spec}: no shape below {n} bits");
        }
    }

    #[test]
    fn weight5_slices_cover_the_pairs_once() {
        // the join cut into 1 to 32 slices (the grouping by slice bits):
        // the same shapes, each once, as every pair joined with every pair
        for spec in ["0x11D", "0x18BB7", "0x104C11DB7"] {
            let g: Generator = spec.parse().unwrap();
            let n = 90usize;
            let syn = syndromes(&g, n);
            let mut want = Vec::new();
            for a in 1..n {
                for b in a + 1..n {
                    for c in b + 1..n {
                        for l in c + 1..n {
                            if 1 ^ syn[a] ^ syn[b] ^ syn[c] ^ syn[l] == 0 {
                                want.push(vec![0, a as u32, b as u32, c as u32, l as u32]);
                            }
                        }
                    }
                }
            }
            assert!(!want.is_empty() || spec == "0x104C11DB7", "{spec}");
            for slices in [1u64, 2, 4, 8, 32] {
                for sub_pairs in [SUB_SLICE_PAIRS, 1, 16, 300] {
                    let mut got: Vec<Vec<u32>> = (0..slices)
                        .flat_map(|i| shapes5_slice_in(&syn, i, slices, sub_pairs))
                        .collect();
                    got.sort_unstable();
                    assert_eq!(got, want, "{spec}, {slices} slices, {sub_pairs}");
                }
            }
        }
        // CRC-32 at 3000 bits: the sub-slices of 2^17 pairs against none
        let g: Generator = "0x104C11DB7".parse().unwrap();
        let syn = syndromes(&g, 3000);
        let slices = slices5(3000);
        let (mut total, mut one) = (0, 0);
        for i in 0..slices {
            let mut a = shapes5_slice(&syn, i, slices);
            let mut b = shapes5_slice_in(&syn, i, slices, u64::MAX);
            a.sort_unstable();
            b.sort_unstable();
            assert_eq!(a, b, "slice {i}");
            total += a.len();
            one += 1;
        }
        assert!(total > 0 && one == slices as usize);
    }

    #[test]
    fn counts_match_brute_force() {
        for (spec, nmax) in [
            ("0x107", 26u64),
            ("0x11021", 34),
            ("0x18005", 34),
            ("0x1F", 24),
            ("0x11", 20),
        ] {
            let g: Generator = spec.parse().unwrap();
            for w in 2..=6u32 {
                let a = weight_counts(&g, w, nmax + 1).unwrap();
                for n in g.width() as u64 + 1..=nmax {
                    // no codeword of weight w above the length n
                    let want = brute(&g, n).get(w as usize).copied().unwrap_or(0);
                    assert_eq!(a[n as usize], want, "{spec} w={w} n={n}");
                }
            }
        }
    }

    #[test]
    fn counts_beyond_the_period_match_brute_force() {
        // x^4+x+1 has period 15: weight-2 codewords and repeated syndromes.
        let g: Generator = "0x13".parse().unwrap();
        for w in 2..=6u32 {
            let a = weight_counts(&g, w, 25).unwrap();
            for n in 5..25u64 {
                let want = brute(&g, n).get(w as usize).copied().unwrap_or(0);
                assert_eq!(a[n as usize], want, "w={w} n={n}");
            }
        }
    }

    #[test]
    fn profiles_match_brute_force_for_8_bit_generators() {
        for normal in (1..256u64).step_by(2) {
            let g = Generator::new(8, normal).unwrap();
            let p = hd_profile(&g, None).unwrap();
            let got: Vec<u64> = p.entries.iter().map(|e| e.max_data_bits).collect();
            let maxk = got.first().copied().unwrap_or(1).min(14) + 1;
            let want = brute_profile(&g, maxk);
            let got: Vec<u64> = got.iter().map(|&v| v.min(maxk)).collect();
            assert_eq!(got, want, "{}", g.full_string());
            for e in &p.entries {
                let syn: u64 = e
                    .example
                    .iter()
                    .fold(0, |a, &i| a ^ gf2::x_pow_mod(i as u128, &g));
                assert!(e.example.len() < e.hd as usize);
                assert_eq!(syn, 0);
                assert_eq!(*e.example.last().unwrap(), e.max_data_bits + 8);
            }
        }
    }

    #[test]
    fn a_length_bound_cuts_the_profile_exactly() {
        // every bound gives the full profile's entries ending below it, and
        // the highest HD ending beyond it as the open one
        for spec in ["0x104C11DB7", "0x11021", "0x1D5", "k:0xa2572962"] {
            let g: Generator = spec.parse().unwrap();
            let r = g.width() as u64;
            let full = hd_profile(&g, Some(8)).unwrap();
            for data in [1u64, 5, 20, 100, 300, 3000, 100_000] {
                let (p, open) = hd_profile_up_to(&g, Some(8), Some(data + r), &Silent).unwrap();
                let want: Vec<&HdEntry> = full
                    .entries
                    .iter()
                    .filter(|e| e.max_data_bits < data)
                    .collect();
                assert_eq!(p.entries.iter().collect::<Vec<_>>(), want, "{spec} {data}");
                let beyond = full.entries.iter().rfind(|e| e.max_data_bits >= data);
                assert_eq!(open, beyond.map(|e| e.hd), "{spec} {data}");
            }
        }
    }

    #[test]
    fn min_span_search_matches_enumeration() {
        // force the meet-in-the-middle path for lengths the enumeration also covers
        for spec in ["0x11021", "0x18005", "0x1A2EB", "0x15D6DCB"] {
            let g: Generator = spec.parse().unwrap();
            let r = g.width() as u64;
            let best = small_codewords(&g, 18);
            for w in 3..=7u32 {
                let want = (0..18).find(|&d| best[d].0 <= w).map(|d| d as u64 + r);
                let mut budget = f64::INFINITY;
                let got = match min_span(&g, w, 1, r + 18, &mut budget, &Silent).unwrap() {
                    Span::Found(l, _) => Some(l),
                    Span::Clear => None,
                    stop => panic!("{stop:?}"),
                };
                assert_eq!(got, want, "{spec} w={w}");
            }
        }
    }

    fn published() -> Vec<(u64, Vec<u64>, String)> {
        include_str!("../data/koopman-hd-profiles.txt")
            .lines()
            .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
            .map(|l| {
                let f: Vec<&str> = l.split_whitespace().collect();
                let k = u64::from_str_radix(f[0].trim_start_matches("0x"), 16).unwrap();
                let prof = f[1]
                    .trim_matches(|c| c == '{' || c == '}')
                    .split(',')
                    .map(|v| v.parse().unwrap())
                    .collect();
                (k, prof, f[2].to_string())
            })
            .collect()
    }

    #[test]
    fn profiles_match_koopmans_published_tables() {
        let list = published();
        assert!(list.len() >= 90);
        // The catalogue CRCs these published lines cover.
        for (name, k) in [
            ("crc16-ccitt", 0x8810u64),
            ("crc16-ibm", 0xc002),
            ("crc8", 0x83),
            ("CRC-16/DNP", 0x9eb2),
            ("crc32", 0x82608edb),
        ] {
            let g = crate::catalogue::resolve(name).unwrap().generator();
            assert_eq!(g.koopman(), k, "{name}");
            assert!(list.iter().any(|(lk, _, _)| *lk == k), "{name}");
        }
        for (k, want, src) in list {
            let g = Generator::guess_koopman(k).unwrap();
            if src == "op" {
                // The premise of the [op] rule: g = (x+1) * a primitive
                // polynomial of degree k-1 (see the data file).
                assert!(g.divisible_by_x_plus_1(), "0x{k:x}");
                let (q, r) = gf2::divmod(g.full(), 0b11);
                assert_eq!(r, 0);
                assert!(
                    gf2::is_primitive(&Generator::from_full(q).unwrap()),
                    "0x{k:x}"
                );
            }
            let p = hd_profile(&g, None).unwrap();
            let got: Vec<u64> = p.entries.iter().map(|e| e.max_data_bits).collect();
            assert_eq!(got, want, "0x{k:x} ({src})");
            let r = g.width() as u64;
            for e in &p.entries {
                // each example: a codeword of weight < hd, exactly one bit too long
                let syn = e
                    .example
                    .iter()
                    .fold(0, |a, &i| a ^ gf2::x_pow_mod(i as u128, &g));
                assert_eq!(syn, 0, "0x{k:x} hd {}", e.hd);
                assert!(e.example.len() < e.hd as usize);
                assert_eq!(e.example[0], 0);
                assert_eq!(*e.example.last().unwrap(), e.max_data_bits + r);
            }
        }
    }

    /// `data/hdlen-gold.txt`: (Koopman generator, profile) for each of the
    /// 363 full profiles of hdlen's test suite.
    pub(crate) fn hdlen_gold() -> Vec<(u64, Vec<u64>)> {
        include_str!("../data/hdlen-gold.txt")
            .lines()
            .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
            .map(|l| {
                let (k, prof) = l.split_once(' ').unwrap();
                let k = u64::from_str_radix(k.trim_start_matches("0x"), 16).unwrap();
                let prof = prof.trim().trim_matches(|c| c == '{' || c == '}');
                let prof = if prof.is_empty() {
                    Vec::new()
                } else {
                    prof.split(',').map(|v| v.parse().unwrap()).collect()
                };
                (k, prof)
            })
            .collect()
    }

    /// Every one of hdlen's 363 gold profiles (widths 4 to 64), computed in
    /// full with no HD cap, with each example checked to be a codeword of
    /// weight below its HD exactly one data bit too long.
    #[test]
    fn every_hdlen_gold_profile() {
        let list = hdlen_gold();
        assert_eq!(list.len(), 363);
        let t = std::time::Instant::now();
        // every 12th profile (all widths) in the test command, all in the full tier
        for (k, want) in list.into_iter().step_by(crate::tier::pick(12, 1)) {
            let g = Generator::guess_koopman(k).unwrap();
            let p = hd_profile(&g, None).unwrap();
            let got: Vec<u64> = p.entries.iter().map(|e| e.max_data_bits).collect();
            assert_eq!(got, want, "0x{k:x}");
            let r = g.width() as u64;
            for e in &p.entries {
                let syn = e
                    .example
                    .iter()
                    .fold(0, |a, &i| a ^ gf2::x_pow_mod(i as u128, &g));
                assert_eq!(syn, 0, "0x{k:x} hd {}", e.hd);
                assert!(e.example.len() < e.hd as usize, "0x{k:x} hd {}", e.hd);
                assert_eq!(e.example[0], 0);
                assert_eq!(*e.example.last().unwrap(), e.max_data_bits + r);
            }
        }
        eprintln!("hdlen profiles in {:.2?}", t.elapsed());
    }

    /// A search cut short by its budget reports a prefix of the full
    /// profile, and the HD it claims up to `clear_to_bits` holds there in
    /// the full profile; budget 0 settles only what needs no probe.
    #[test]
    fn budgeted_profiles_are_prefixes_of_the_full_ones() {
        let mut stops = 0;
        for spec in [
            "0x104C11DB7",
            "0x11EDC6F41",
            "0x11021",
            "0x15D6DCB",
            "0x18005",
        ] {
            let g: Generator = spec.parse().unwrap();
            let r = g.width() as u64;
            let full = hd_profile(&g, None).unwrap();
            for budget in [0.0, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7] {
                let s = hd_profile_within(&g, None, None, budget, &Silent).unwrap();
                let n = s.profile.entries.len();
                assert_eq!(s.profile.entries[..], full.entries[..n], "{spec} {budget}");
                match s.stopped {
                    None => assert_eq!(n, full.entries.len(), "{spec} {budget}"),
                    Some(st) => {
                        stops += 1;
                        assert_eq!(st.searched_hd, full.entries[n].hd, "{spec} {budget}");
                        assert!(st.hd_at_least >= st.searched_hd);
                        for e in &full.entries[n..] {
                            if e.hd <= st.hd_at_least {
                                assert!(e.max_data_bits + r >= st.clear_to_bits, "{spec} {budget}");
                            }
                        }
                    }
                }
            }
        }
        assert!(stops >= 10, "{stops}");
        // budget 0: what the period and the discrete logarithms settle
        let g = crate::catalogue::resolve("crc64-xz").unwrap().generator();
        let s = hd_profile_within(&g, None, None, 0.0, &Silent).unwrap();
        assert_eq!(s.profile.entries.len(), 2);
        assert_eq!(s.stopped.unwrap().clear_to_bits, ENUM_BITS as u64 + 64);
    }

    /// Rows of `data/published-32bit.txt` of one kind, split into fields.
    pub(crate) fn published_32bit(kind: &str) -> Vec<Vec<String>> {
        include_str!("../data/published-32bit.txt")
            .lines()
            .filter(|l| !l.starts_with('#') && l.split_whitespace().next() == Some(kind))
            .map(|l| l.split_whitespace().map(str::to_string).collect())
            .collect()
    }

    #[test]
    fn published_32bit_thresholds() {
        // Koopman 2002: the largest data length at which each HD still holds
        // (HD d holds up to L means the HD-(d) entry of the profile is >= L
        // and the HD-(d+1) entry is below L where listed).
        let rows = published_32bit("hd");
        assert!(rows.len() >= 5);
        for f in rows {
            let k = u64::from_str_radix(f[1].trim_start_matches("0x"), 16).unwrap();
            let hd: u32 = f[2].parse().unwrap();
            let len: u64 = f[3].parse().unwrap();
            let g = Generator::guess_koopman(k).unwrap();
            let p = hd_profile(&g, Some(hd)).unwrap();
            let e = p.entries.iter().find(|e| e.hd == hd).unwrap();
            assert_eq!(e.max_data_bits, len, "{} HD {hd}", f[4]);
        }
    }

    #[test]
    fn crc32_hd5_example_is_koopmans() {
        // [hdlen]: "Len=2975 {0,2215,2866} (0x80000000) (Bits=4)": a 2975-bit
        // data word with bits 0, 2215, 2866 set and a one-bit FCS. Ours is the
        // same codeword: those three positions and the FCS bit at 2975 + 31.
        let g = Generator::from_koopman(32, 0x82608edb).unwrap();
        let p = hd_profile(&g, Some(5)).unwrap();
        let e = &p.entries[2];
        assert_eq!(e.max_data_bits, 2974);
        assert_eq!(e.example, vec![0, 2215, 2866, 2975 + 31]);
    }

    #[test]
    fn crc32_weight4_boundary() {
        // no weight-4 codeword at 2974 data bits, exactly one at 2975
        let g: Generator = "0x104C11DB7".parse().unwrap();
        let a = weight_counts(&g, 4, 3008).unwrap();
        assert_eq!(a[2974 + 32], 0);
        assert_eq!(a[2975 + 32], 1);
        let a3 = weight_counts(&g, 3, 3008).unwrap();
        assert_eq!(a3[3007], 0);
    }

    #[test]
    fn reciprocal_polynomials_have_the_same_profile() {
        for spec in [
            "0x104C11DB7",
            "0x11EDC6F41",
            "0x11021",
            "0x1D5",
            "0x15D6DCB",
        ] {
            let g: Generator = spec.parse().unwrap();
            let a = hd_profile(&g, Some(8)).unwrap();
            let b = hd_profile(&g.reciprocal(), Some(8)).unwrap();
            let pa: Vec<u64> = a.entries.iter().map(|e| e.max_data_bits).collect();
            let pb: Vec<u64> = b.entries.iter().map(|e| e.max_data_bits).collect();
            assert_eq!(pa, pb, "{spec}");
            let n = 600u64.min(pa[1] + g.width() as u64 + 50);
            for w in 2..=4 {
                assert_eq!(
                    weight_counts(&g, w, n).unwrap(),
                    weight_counts(&g.reciprocal(), w, n).unwrap(),
                    "{spec} w={w}"
                );
            }
        }
    }

    /// The radix sort orders the keys as a comparison sort does and keeps
    /// every element, on short and long vectors, full-width keys and keys
    /// sharing bits (as a slice's do), with many equal keys.
    #[test]
    fn radix_sort_orders_like_a_comparison_sort() {
        let mut x = 0x9E37_79B9_7F4A_7C15u64;
        let mut next = move || {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x
        };
        for (len, mask, set) in [
            (0usize, u64::MAX, 0u64),
            (5, u64::MAX, 0),
            (1023, 0xFFFF, 0),
            (1024, 0xFFFF_FFFF, 0),
            (50_000, 0xFFFF_FFFF & !0x7FE, 0x2A4),
            (70_000, u64::MAX, 0),
            (70_000, 0xFF, 0x1_0000_0000),
            (20_000, 0, 7),
        ] {
            let v: Vec<(u64, u32, u32)> = (0..len)
                .map(|i| ((next() & mask) | set, i as u32, next() as u32))
                .collect();
            let mut a = v.clone();
            sort_by_key_radix(&mut a);
            assert!(a.windows(2).all(|w| w[0].0 <= w[1].0), "{len}");
            let mut b = v.clone();
            b.sort_unstable();
            a.sort_unstable();
            assert_eq!(a, b, "{len}");
        }
    }
}
