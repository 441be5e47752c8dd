//! Finding the CRC codewords of a draw: window completions over positions
//! with independent syndromes, and the lookup of short bursts.

use super::*;

/// The first `r` positions after `f` with independent syndromes, and a basis
/// in echelon form (by leading bit) remembering which of them each vector
/// combines.
pub(super) struct Window {
    pub(super) pos: Vec<u32>,
    pub(super) basis: [(u64, u64); 64],
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
    pub(super) fn build(&mut self, table: &[u64], f: u32, r: usize) {
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
    pub(super) fn reduce(&self, mut v: u64, mut m: u64) -> (u64, u64) {
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
    pub(super) fn solve(&self, s: u64) -> Option<u64> {
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
pub(super) struct Scratch {
    pub(super) win: Window,
    pub(super) wpos: Vec<u32>,
    pub(super) fwd: Vec<([f64; 2], f64)>,
    pub(super) bwd: Vec<([f64; 2], f64)>,
    pub(super) e: Vec<u32>,
    pub(super) head: Vec<u32>,
    pub(super) found: Vec<u32>,
    pub(super) bursts: Vec<(u64, u64)>,
}

/// Entries of the short-burst table at most (about 60 MB of lookup).
pub(super) const BURST_ENTRIES: u64 = 1 << 21;

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
#[doc(hidden)]
pub struct ShortBursts {
    /// Span `L` (bits from the first error).
    #[doc(hidden)]
    pub span: u64,
    /// Each pattern's errors after the first, as a mask over the next
    /// `L - 1` bits (pattern 0 is the lone error).
    #[doc(hidden)]
    pub patterns: Vec<u64>,
    #[doc(hidden)]
    pub finder: Finder,
}

/// How [`ShortBursts::each`] finds the bursts with a syndrome.
#[doc(hidden)]
pub enum Finder {
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
pub(super) const STEP: usize = 64;

/// Number of patterns of span `span`: `1 + C(L-1, 1) + C(L-1, 2)`.
pub(super) fn pattern_count(span: u64) -> u64 {
    let m = span - 1;
    1 + m + m * m.saturating_sub(1) / 2
}

/// The widest span `L <= 64` whose patterns at `n` starts fit in `cap`
/// entries (at least 1).
pub(super) fn widest_span(n: u64, cap: u64) -> u64 {
    let mut span = 1u64;
    while span < 64 && n.saturating_mul(pattern_count(span + 1)) <= cap {
        span += 1;
    }
    span
}

/// The map `B` with `table[p] = B table[p + 1]` for every `p`, as its
/// images of the unit vectors, if the table has that shift structure.
pub(super) fn back_map(table: &[u64], r: usize) -> Option<Vec<u64>> {
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
    pub(super) fn new(table: &[u64], r: u32) -> Self {
        let n = table.len() as u64;
        let cap = 1u64 << r.saturating_sub(4).min(62);
        let (scan, tab) = (widest_span(n, cap), widest_span(n, cap.min(BURST_ENTRIES)));
        Self::with(table, r, if scan > tab { scan } else { tab }, scan > tab)
    }

    /// The patterns of span `span`, found by a scan (if `scan` and the
    /// table allows it) or from a table.
    #[doc(hidden)]
    pub fn with(table: &[u64], r: u32, span: u64, scan: bool) -> Self {
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
    #[doc(hidden)]
    pub fn each(&self, table: &[u64], t: u64, mut f: impl FnMut(u64, u64)) {
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
    pub(super) fn syndrome(&self, table: &[u64], st: u64, pat: u64) -> u64 {
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
pub(super) fn contiguous_windows(table: &[u64], r: usize) -> bool {
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
