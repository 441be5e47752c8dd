//! The minimum distance of a shortened CRC code at several lengths at once,
//! by the smallest span of a codeword of each weight: the cheap filter stage
//! of [`super`]'s generator search.
//!
//! A codeword of weight `w` and span `L` (lowest position 0, highest `L`)
//! fits in every length `n > L`, so the distance at `n` is the least `w`
//! whose smallest span `L_w` is below `n`. `L_2` is the period of `g`
//! ([`gf2::period`]); for `w >= 3` the positions strictly between 0 and `L`
//! are split into `h1 = ceil((w-2)/2)` and `h2 = w-2-h1`: a set holds the
//! syndrome XOR of every `h1`-subset of `[1, L)`, and every `h2`-subset of
//! `[1, L)` is probed for `1 ^ s_L ^ xor`. When the two halves share a
//! position the hit is a codeword of weight `w - 2k` and span `L`; weights
//! are tried in increasing order and each search stops below the smallest
//! span found so far, so such lighter codewords never exist there and every
//! hit is a genuine weight-`w` codeword. Generators divisible by `x + 1`
//! have only even-weight codewords and skip odd `w`.
//!
//! For widths up to `BITSET_WIDTH` the set is a bitset of `2^r` bits, which
//! fills after a few hundred positions: the search for weight 4, 5, 6 then
//! ends at the first probe. Wider generators use a hash set.
//!
//! ```
//! use aliasing_core::__private::search::distance;
//! use aliasing_core::poly::Generator;
//! // CRC-16/CCITT (0x11021): HD 4 up to 32751 data bits, HD 2 beyond its period.
//! let g: Generator = "0x11021".parse().unwrap();
//! let d = distance::min_distances(&g, &[16 + 32751, 16 + 32752, 16 + 40000]).unwrap();
//! assert_eq!(d, vec![4, 2, 2]);
//! ```

use crate::error::{Error, Result};
use crate::gf2;
use crate::lowweight::syndromes;
use crate::poly::Generator;
use std::collections::HashSet;
use std::hash::{BuildHasherDefault, Hasher};

/// Widest generator whose searches use a `2^r`-bit set (32 MiB at 28).
pub(crate) const BITSET_WIDTH: u32 = 26;

/// Largest number of set probes and inserts one generator may take.
pub(crate) const WORK_LIMIT: f64 = 4e9;

/// Longest codeword length accepted, in bits.
pub(crate) const MAX_LENGTH: u64 = 1 << 26;

/// Multiplicative hash for syndromes (already well mixed by the LFSR).
#[derive(Default)]
struct SynHasher(u64);

impl Hasher for SynHasher {
    fn finish(&self) -> u64 {
        self.0.wrapping_mul(0x9E37_79B9_7F4A_7C15)
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0 << 8) ^ b as u64;
        }
    }
    fn write_u64(&mut self, v: u64) {
        self.0 = v;
    }
}

enum SynSet {
    Bits(Vec<u64>),
    Hash(HashSet<u64, BuildHasherDefault<SynHasher>>),
}

impl SynSet {
    fn new(width: u32) -> Self {
        if width <= BITSET_WIDTH {
            SynSet::Bits(vec![0; ((1usize << width) / 64).max(1)])
        } else {
            SynSet::Hash(HashSet::default())
        }
    }
    fn clear(&mut self) {
        match self {
            SynSet::Bits(b) => b.fill(0),
            SynSet::Hash(h) => h.clear(),
        }
    }
    #[inline]
    fn insert(&mut self, s: u64) {
        match self {
            SynSet::Bits(b) => b[(s >> 6) as usize] |= 1 << (s & 63),
            SynSet::Hash(h) => {
                h.insert(s);
            }
        }
    }
    #[inline]
    fn contains(&self, s: u64) -> bool {
        match self {
            SynSet::Bits(b) => b[(s >> 6) as usize] >> (s & 63) & 1 == 1,
            SynSet::Hash(h) => h.contains(&s),
        }
    }
}

/// Calls `f(xor)` for every `k`-subset of positions `[1, hi)` (syndrome
/// XOR, seeded with `acc`) until `f` returns `true`; returns whether it did.
fn each_subset(
    syn: &[u64],
    hi: usize,
    k: usize,
    acc: u64,
    f: &mut impl FnMut(u64) -> bool,
) -> bool {
    if k == 0 {
        return f(acc);
    }
    for i in k..hi {
        if each_subset(syn, i, k - 1, acc ^ syn[i], f) {
            return true;
        }
    }
    false
}

/// `C(m, k)` as a float (work estimates).
fn choose(m: f64, k: usize) -> f64 {
    (0..k).fold(1.0, |a, i| a * (m - i as f64) / (i as f64 + 1.0))
}

/// Smallest span `L < bound` of a weight-`w` codeword (`w >= 3`), given that
/// no codeword of weight `w - 2k` (k >= 1) has a span below `bound`.
fn min_span(
    syn: &[u64],
    w: u32,
    bound: usize,
    set: &mut SynSet,
    work: &mut f64,
) -> Result<Option<u64>> {
    let inner = (w - 2) as usize;
    let h1 = inner.div_ceil(2);
    let h2 = inner - h1;
    set.clear();
    for l in 1..bound {
        *work += choose((l - 1) as f64, h2) + choose((l - 1) as f64, h1 - 1);
        if *work > WORK_LIMIT {
            return Err(Error::Limit(crate::error::Limit::DistanceWork {
                weight: w,
                span: l,
                max: WORK_LIMIT,
            }));
        }
        let t = 1 ^ syn[l];
        if l > h2 && each_subset(syn, l, h2, t, &mut |x| set.contains(x)) {
            return Ok(Some(l as u64));
        }
        let sl = syn[l];
        each_subset(syn, l, h1 - 1, sl, &mut |x| {
            set.insert(x);
            false
        });
    }
    Ok(None)
}

/// The minimum distance of the code of `g` shortened to each length in
/// `lengths` (codeword bits, check bits included, each above the width):
/// the least weight of an undetectable error pattern.
///
/// Refuses lengths not above the width or above `MAX_LENGTH`, and searches
/// over `WORK_LIMIT` (high distances at long lengths of wide generators).
pub fn min_distances(g: &Generator, lengths: &[u64]) -> Result<Vec<u32>> {
    let r = g.width() as u64;
    for &n in lengths {
        if n <= r {
            return Err(Error::BadLength(format!(
                "{n} bits is not longer than the {r} check bits"
            )));
        }
        if n > MAX_LENGTH {
            return Err(Error::BadLength(format!(
                "{n} bits is over the search's limit of {MAX_LENGTH}"
            )));
        }
    }
    let mut d = vec![0u32; lengths.len()];
    // the unsettled length furthest out: spans below it still matter
    let bound = |d: &[u32]| {
        lengths
            .iter()
            .zip(d)
            .filter(|&(_, &x)| x == 0)
            .map(|(&n, _)| n)
            .max()
    };
    let settle = |d: &mut [u32], w: u32, span: u64| {
        for (x, &n) in d.iter_mut().zip(lengths) {
            if *x == 0 && span < n {
                *x = w;
            }
        }
    };
    let Some(far) = bound(&d) else {
        return Ok(d);
    };
    let p = gf2::period(g);
    if p < far as u128 {
        settle(&mut d, 2, p as u64);
    }
    let Some(far) = bound(&d) else {
        return Ok(d);
    };
    let syn = syndromes(g, far as usize);
    let mut set = SynSet::new(g.width());
    let even = g.divisible_by_x_plus_1();
    let mut work = 0.0;
    for w in 3..=g.term_count() {
        let Some(far) = bound(&d) else {
            break;
        };
        if even && w % 2 == 1 {
            continue;
        }
        if let Some(l) = min_span(&syn, w, far as usize, &mut set, &mut work)? {
            settle(&mut d, w, l);
        }
    }
    // g itself (weight term_count, span r) fits in every length
    debug_assert!(d.iter().all(|&x| x > 0));
    Ok(d)
}

#[cfg(feature = "unit-tests")]
#[doc(hidden)]
pub mod tests {
    use super::*;

    /// Minimum distance by listing all `2^(n-r)` codewords.
    fn brute(g: &Generator, n: u64) -> u32 {
        let k = n - g.width() as u64;
        let mut c = 0u128;
        let mut best = u32::MAX;
        for i in 1u64..(1u64 << k) {
            c ^= g.full() << i.trailing_zeros();
            best = best.min(c.count_ones());
        }
        best
    }

    pub fn matches_brute_force_for_every_small_generator() {
        for r in 3..=8u32 {
            for i in 0..1u64 << (r - 1) {
                let g = Generator::new(r, 2 * i + 1).unwrap();
                let lengths: Vec<u64> = (r as u64 + 1..=r as u64 + 14).collect();
                let d = min_distances(&g, &lengths).unwrap();
                for (&n, &dn) in lengths.iter().zip(&d) {
                    assert_eq!(dn, brute(&g, n), "{} n={n}", g.full_string());
                }
            }
        }
    }

    pub fn matches_brute_force_for_wider_generators_and_the_hash_set() {
        // the hash set (wider than BITSET_WIDTH) on a 32-bit generator of
        // distance 7 and 6 at these lengths; CRC-32's (11 to 15) take
        // seconds (the full tier)
        let wide = crate::tier::pick(&["0x1000000AF"][..], &["0x1000000AF", "0x104C11DB7"]);
        let narrow = ["0x11021", "0x18005", "0x13D65", "0x1A2EB"];
        for &spec in narrow.iter().chain(wide) {
            let g: Generator = spec.parse().unwrap();
            let r = g.width() as u64;
            let lengths: Vec<u64> = (r + 1..=r + 18).collect();
            let d = min_distances(&g, &lengths).unwrap();
            for (&n, &dn) in lengths.iter().zip(&d) {
                assert_eq!(dn, brute(&g, n), "{spec} n={n}");
            }
        }
    }

    pub fn agrees_with_the_hd_profile() {
        for spec in [
            "0x104C11DB7",
            "0x11EDC6F41",
            "0x1D5",
            "0x15D6DCB",
            "0x13D65",
        ] {
            let g: Generator = spec.parse().unwrap();
            let prof = crate::lowweight::hd_profile(&g, Some(7)).unwrap();
            let r = g.width() as u64;
            for e in &prof.entries {
                let n = e.max_data_bits + r;
                if n > 20_000 {
                    continue;
                }
                let d = min_distances(&g, &[n, n + 1]).unwrap();
                assert!(d[0] >= e.hd, "{spec} hd {}", e.hd);
                assert!(d[1] < e.hd, "{spec} hd {}", e.hd);
            }
        }
    }

    pub fn refuses_short_lengths() {
        let g: Generator = "0x11021".parse().unwrap();
        assert!(matches!(min_distances(&g, &[16]), Err(Error::BadLength(_))));
    }
}
