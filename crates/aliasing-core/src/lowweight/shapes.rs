//! Codeword shapes of weights 2 to 5 ([`shapes`], [`ShapeParts`]): the
//! weight-4 search (table probes or Zech logarithms) and the weight-5 join.

use super::*;

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
/// by Zech logarithms: the differences `d` whose `Z(d)` lies in a window of
/// width `L` below `Z(L)`, looked up in the sorted `Z(d)`, see `zech`),
/// weight 5 joins the
/// position pairs `(a, b)` and `(c, L)` on `s_a ^ s_b = 1 ^ s_c ^ s_L`,
/// `b < c`, by sorting the pairs one slice of the syndrome space at a time
/// (a few tens of MiB at Ethernet lengths; `3e9` pairs for weight
/// 4 and `2e8` for weight 5 bound the work).
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
pub(super) const SPANS_PER_PART: usize = 64;

/// The shapes of [`shapes`] cut into parts fixed by `(g, w, max_len)` alone,
/// so that a long enumeration can be spread over threads, shards or
/// machines and its sums combined exactly: weights 2 and 3 are one part,
/// weight 4 one part per block of 64 spans `L`, weight 5 one part per slice
/// of the syndrome space of its join. Every shape lies in exactly one part.
///
/// ```
/// use aliasing_core::{lowweight, poly::Generator};
/// let g: Generator = "0x104C11DB7".parse().unwrap(); // CRC-32
/// let p = aliasing_core::__private::lowweight::ShapeParts::new(&g, 4, 3008).unwrap();
/// let all: Vec<Vec<u32>> = (0..p.parts()).flat_map(|i| p.part(i)).collect();
/// assert_eq!(all, lowweight::shapes(&g, 4, 3008).unwrap());
/// ```
pub struct ShapeParts {
    pub(super) w: u32,
    pub(super) syn: Vec<u64>,
    /// Position of each syndrome (weight 3, and weight 4 without `zech`).
    pub(super) at: Option<Table>,
    /// Weight 4 where `g` is primitive (width 32 or less): the order of `x`
    /// and the Zech logarithms `Z(d)`, `d < max_len` (see [`zech`]).
    pub(super) zech: Option<(u64, std::sync::Arc<Vec<u32>>)>,
    /// With `zech`: the pairs `(Z(d), d)`, `1 <= d < max_len`, sorted.
    pub(super) by_zech: Vec<(u32, u32)>,
    pub(super) parts: u64,
}

impl ShapeParts {
    /// The parts of the weight-`w` shapes (2 to 5) of span below `max_len`,
    /// with the limits of [`shapes`]; computes the `max_len` syndromes.
    pub fn new(g: &Generator, w: u32, max_len: u64) -> Result<Self> {
        Self::new_with(g, w, max_len, true)
    }

    /// [`ShapeParts::new`], with the Zech logarithms for weight 4 where `g`
    /// allows them only if `fast` (the tests compare both searches).
    pub(super) fn new_with(g: &Generator, w: u32, max_len: u64, fast: bool) -> Result<Self> {
        check_width(g)?;
        if !(2..=5).contains(&w) {
            return Err(Error::Limit(Limit::ShapeWeight { weight: w }));
        }
        if max_len as u128 > gf2::period(g) || max_len > u32::MAX as u64 {
            return Err(Error::Limit(Limit::ShapeLength { bits: max_len }));
        }
        let n = max_len as usize;
        let pairs = (n as f64) * (n as f64) / 2.0;
        let limit = if w == 5 {
            SHAPE5_PAIR_LIMIT
        } else {
            SHAPE_PAIR_LIMIT
        };
        if w >= 4 && pairs > limit {
            return Err(Error::Limit(Limit::ShapeWork {
                weight: w,
                bits: max_len,
                probes: pairs,
                max: limit,
            }));
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
pub(super) fn shapes4_span(at: &Table, syn: &[u64], t: u64, v: &mut Vec<Vec<u32>>) {
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
pub(super) fn slices5(n: usize) -> u64 {
    let pairs = n * (n - 1) / 2;
    (pairs / (1 << 22)).max(1).next_power_of_two() as u64
}

/// Shortest list that [`sort_by_key_radix`] sorts by digits.
const RADIX_MIN: usize = 1024;

/// `v` sorted by its first field: least significant digit first, 8 bits a
/// pass, over the bytes where the keys differ (a slice's keys share their
/// slice bits), each pass a stable counting sort (equal keys keep their
/// order); a `v` shorter than [`RADIX_MIN`] by an unstable comparison sort.
pub(super) fn sort_by_key_radix(v: &mut Vec<(u64, u32, u32)>) {
    if v.len() < RADIX_MIN {
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
/// increasing order within a group) and the positions of group `a` meet
/// only those of group `a ^ slice` (about `n^2 / (2 slices)` pairs a slice
/// instead of `n^2 / 2`).
pub(super) fn shapes5_slice(syn: &[u64], slice: u64, slices: u64) -> Vec<Vec<u32>> {
    shapes5_slice_in(syn, slice, slices, SUB_SLICE_PAIRS, FILTER_BITS)
}

/// The positions `1..n` of `syn` grouped by `h(y) = (syn[y] >> 1) &
/// (groups - 1)` (`groups` a power of 2), by a counting sort: group `g` is
/// `by_h[start[g]..start[g + 1]]`, in increasing order. Returns `(start,
/// by_h)`.
pub(super) fn group_positions(syn: &[u64], groups: u64) -> (Vec<usize>, Vec<u32>) {
    let n = syn.len();
    let h = |y: usize| ((syn[y] >> 1) & (groups - 1)) as usize;
    let mut start = vec![0usize; groups as usize + 1];
    for y in 1..n {
        start[h(y) + 1] += 1;
    }
    for g in 0..groups as usize {
        start[g + 1] += start[g];
    }
    let mut fill = start.clone();
    let mut by_h = vec![0u32; n.saturating_sub(1)];
    for y in 1..n {
        by_h[fill[h(y)]] = y as u32;
        fill[h(y)] += 1;
    }
    (start, by_h)
}

/// Buckets (a power of 2: `2^FILTER_BITS`) of the presence filter of the
/// weight-5 join: a chunk of a sub-slice holds about `2^FILTER_BITS / 16`
/// pairs (16 buckets a pair or more; at this size a chunk is a whole
/// sub-slice), and its two bitmaps take `2^FILTER_BITS / 8` bytes each
/// (256 KiB).
pub(super) const FILTER_BITS: u32 = 21;

/// About how many pairs a sub-slice of the weight-5 join holds: the shapes
/// of a part come sub-slice after sub-slice, so this fixes their order.
pub(super) const SUB_SLICE_PAIRS: u64 = 1 << 17;

/// [`shapes5_slice`] with sub-slices of about `sub_pairs` pairs (the tests
/// take other sizes: the shapes do not depend on it, their order does).
///
/// Within a sub-slice the shapes come by key, then as [`join5`] lists
/// them.
///
/// With `filter_bits > 0` each sub-slice is cut into chunks of about
/// `2^filter_bits / 16` pairs by the key bits above the sub-slice's (so
/// that a chunk's pairs, records and bitmaps stay in the cache), and each
/// chunk's pairs are made once: the positions of group `a` with those of
/// group `a ^ target`, stored and counted (once, twice or more) in
/// `2^filter_bits` buckets of `k >> 1`; only the stored pairs whose bucket
/// holds two or more are kept, since a pair alone in its bucket has no pair
/// of key `k` or `k ^ 1` to join (a superset of the pairs that join, so the
/// same shapes; a few percent of the pairs are sorted instead of all). The
/// kept pairs of a sub-slice are put in the order in which the pairs made
/// `x` by `x` would have been kept, and sorted by key as those would have
/// been ([`sort_by_key_radix`]), so that with one chunk a sub-slice (as at
/// [`FILTER_BITS`]) the shapes come in the order of the two-pass filter
/// that made the pairs `x` by `x` twice, first to count them, then to
/// keep them.
///
/// `filter_bits = 0` forms every pair of a sub-slice from each `x` in
/// increasing order and sorts them all by key (the tests' oracle).
pub(super) fn shapes5_slice_in(
    syn: &[u64],
    slice: u64,
    slices: u64,
    sub_pairs: u64,
    filter_bits: u32,
) -> Vec<Vec<u32>> {
    let n = syn.len();
    // the slice is joined in sub-slices of about `sub_pairs` pairs, cut by
    // the key bits above the slice's: sub-slice `s` holds the keys with
    // `(k >> 1) & (total - 1) = slice + s slices`; k and k ^ 1 share one
    let pairs = (n * n.saturating_sub(1) / 2) as u64 / slices;
    let subs = (pairs / sub_pairs).max(1).next_power_of_two();
    let total = slices * subs;
    // chunks of a sub-slice (1 for the oracle): chunk `c` of sub-slice
    // `s` holds the keys with `(k >> 1) & (fine - 1) = slice + s slices +
    // c total`
    let chunks = if filter_bits == 0 {
        1
    } else {
        let chunk_pairs = ((1u64 << filter_bits) / 16).max(1);
        (pairs / subs / chunk_pairs).max(1).next_power_of_two()
    };
    let fine = total * chunks;
    let h = |y: usize| ((syn[y] >> 1) & (fine - 1)) as usize;
    let (start, by_h) = group_positions(syn, fine);
    let mut found = Vec::new();
    let mut v: Vec<(u64, u32, u32)> = Vec::new();
    if filter_bits == 0 {
        // the pairs (x, y) of sub-slice `target`, with their key, in the
        // order x, then y
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
            // stable: equal keys stay in the order x, then y
            sort_by_key_radix(&mut v);
            join5(&v, &mut found);
        }
        return found;
    }
    // the syndromes in the order of `by_h`, so that a group's are contiguous
    let syn_h: Vec<u64> = by_h.iter().map(|&y| syn[y as usize]).collect();
    let words = 1usize << filter_bits.saturating_sub(6);
    let (mut once, mut twice) = (vec![0u64; words], vec![0u64; words]);
    let shift = 64 - filter_bits.max(6);
    let bucket = move |k: u64| {
        let b = (k >> 1).wrapping_mul(0x9E37_79B9_7F4A_7C15) >> shift;
        (b as usize >> 6, 1u64 << (b & 63))
    };
    let group = |g: usize| {
        (
            &by_h[start[g]..start[g + 1]],
            &syn_h[start[g]..start[g + 1]],
        )
    };
    let mut all: Vec<(u64, u32, u32)> = Vec::new();
    for sub in 0..subs {
        v.clear();
        for chunk in 0..chunks {
            let target = (slice + sub * slices + chunk * total) as usize;
            // every pair of the chunk, once: group `a` with group
            // `a ^ target` (a <= a ^ target; within one group when the
            // target is 0)
            let size = |a: usize| start[a + 1] - start[a];
            let count: usize = (0..fine as usize)
                .filter(|&a| a <= a ^ target)
                .map(|a| {
                    let b = a ^ target;
                    if a == b {
                        size(a) * size(a).saturating_sub(1) / 2
                    } else {
                        size(a) * size(b)
                    }
                })
                .sum();
            if all.len() < count {
                all.resize(count, (0, 0, 0));
            }
            once.fill(0);
            twice.fill(0);
            let mut at = 0;
            for a in 0..fine as usize {
                let b = a ^ target;
                if b < a {
                    continue;
                }
                at += chunk_pairs(
                    group(a),
                    group(b),
                    a == b,
                    &mut all[at..],
                    &mut once,
                    &mut twice,
                    &bucket,
                );
            }
            debug_assert_eq!(at, count);
            for e in &all[..count] {
                let (i, m) = bucket(e.0);
                if twice[i] & m != 0 {
                    v.push(*e);
                }
            }
        }
        // by key, as the pairs made x by x and sorted by key would be:
        // a short list by the same comparison sort from the same order,
        // a long one (a stable radix sort) with the runs of one key by x
        // (with the key, x fixes y)
        if v.len() < RADIX_MIN {
            v.sort_unstable_by_key(|e| (e.1, e.2));
            sort_by_key_radix(&mut v);
        } else {
            sort_by_key_radix(&mut v);
            let mut i = 0;
            while i < v.len() {
                let k = v[i].0;
                let j = i + v[i..].iter().take_while(|e| e.0 == k).count();
                if j - i > 1 {
                    v[i..j].sort_unstable_by_key(|e| e.1);
                }
                i = j;
            }
        }
        join5(&v, &mut found);
    }
    found
}

/// The pairs of the positions `pa` (syndromes `sa`) with those of `pb`
/// (`sb`), or within `pa` if `same`, written to the front of `out` as
/// `(key, x, y)`, `x < y`, and counted in the presence filter `once` /
/// `twice` by `bucket(key)`; returns how many. A function of its own so
/// that the loop keeps its state in registers.
#[inline(never)]
fn chunk_pairs(
    (pa, sa): (&[u32], &[u64]),
    (pb, sb): (&[u32], &[u64]),
    same: bool,
    out: &mut [(u64, u32, u32)],
    once: &mut [u64],
    twice: &mut [u64],
    bucket: &impl Fn(u64) -> (usize, u64),
) -> usize {
    let mut at = 0;
    for (i, (&x, &sx)) in pa.iter().zip(sa).enumerate() {
        let from = if same { i + 1 } else { 0 };
        let ys = &pb[from..];
        let sys = &sb[from..];
        let dst = &mut out[at..at + ys.len()];
        for ((&y, &sy), d) in ys.iter().zip(sys).zip(dst.iter_mut()) {
            let k = sx ^ sy;
            let (w, m) = bucket(k);
            twice[w] |= once[w] & m;
            once[w] |= m;
            *d = (k, x.min(y), x.max(y));
        }
        at += ys.len();
    }
    at
}

/// The weight-5 shapes of the pairs `v` (keys `s_x ^ s_y`, a slice's or a
/// sub-slice's, holding `k ^ 1` with every `k`; sorted by key): each left
/// pair `(a, b)` of key `k` with each right pair `(c, L)` of key `k ^ 1`
/// and `b < c`, pushed onto `found` in the order of `v`.
pub(super) fn join5(v: &[(u64, u32, u32)], found: &mut Vec<Vec<u32>>) {
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
