//! Discrete logarithms and Zech logarithms to the base `x` modulo a
//! *primitive* generator of width 32 or less, for the weight-4 shape search
//! and the joint sampler's pair completions.
//!
//! Where `g` is primitive of degree `r`, the residues mod `g` are the field
//! `GF(2^r)` and every non-zero syndrome is `x^e` for exactly one exponent
//! `e` mod `P = 2^r - 1`. The Zech logarithm `Z(d) = log(1 + x^d)` turns the
//! pair equation `x^a + x^b = t` (`a < b`, `d = b - a`) into
//! `a = log t - Z(d) mod P`: for each difference `d` one candidate `a`, found
//! by a subtraction and a comparison instead of a hash probe. The shape
//! search and the sampler then scan a sequential array of `Z(d)` (the loops
//! vectorise), where the hash search made one random memory access per
//! candidate. Both find exactly the same pairs as the hash search (tested
//! against it), so every tally is unchanged.
//!
//! Logarithms: for an even width from 22 to 32 (CRC-32) by the split of the
//! group order `2^r - 1 = (2^(r/2) - 1)(2^(r/2) + 1)` into two subgroups of
//! at most 65,537 elements, each with a table of its powers (two products
//! and two look-ups a logarithm, see [`How::Split`]); otherwise by baby
//! steps and giant steps (a table of `x^j` for `j < M = min(2^20, P)`, at
//! most `ceil(P / M)` multiplications by the constant `x^-M`, four table
//! look-ups each: the multiplication by a constant is linear over GF(2)).
//! The tables are built once per generator and kept for the process.

use super::{Table, syndromes};
use crate::gf2;
use crate::poly::Generator;
use rayon::prelude::*;
use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock};

/// Baby steps: at most 2^20 entries (about 40 MiB with the table's filter).
const BABY: u64 = 1 << 20;

/// Logarithms to the base `x` modulo a primitive generator.
pub(crate) struct Logs {
    /// `P = 2^r - 1`, the order of `x`.
    order: u64,
    how: How,
    /// The longest Zech table computed so far (`Z(d)` does not depend on the
    /// length asked for, so a longer table serves a shorter request).
    zech: Mutex<Arc<Vec<u32>>>,
}

/// Multiplication of a residue by a constant, a linear map over GF(2): the
/// images of each byte of the residue, XORed.
struct Linear(Vec<[u32; 256]>);

impl Linear {
    /// The map `y -> f(y)` for a GF(2)-linear `f` on residues of `r <= 32`
    /// bits (evaluated on the 4 x 256 byte values).
    fn new(r: u32, f: impl Fn(u64) -> u64) -> Self {
        Linear(
            (0..4)
                .map(|k| {
                    std::array::from_fn(|b| {
                        let y = (b as u64) << (8 * k);
                        if y >> r != 0 { 0 } else { f(y) as u32 }
                    })
                })
                .collect(),
        )
    }

    #[inline]
    fn apply(&self, y: u64) -> u64 {
        let t = &self.0;
        (t[0][(y & 255) as usize]
            ^ t[1][((y >> 8) & 255) as usize]
            ^ t[2][((y >> 16) & 255) as usize]
            ^ t[3][((y >> 24) & 255) as usize]) as u64
    }
}

/// How a logarithm is found.
enum How {
    /// Baby steps and giant steps: `x^j -> j` for `j < M = min(2^20, P)`,
    /// and the multiplication by `x^-M` (at most `ceil(P / M)` giant steps:
    /// one or two up to `r = 21`, slow for odd `r` above).
    Steps { m: u64, baby: Table, giant: Linear },
    /// For even `r = 2h` (22 to 32): `P = A B` with `A = 2^h - 1` and
    /// `B = 2^h + 1` coprime. For `y = x^e`, `y^B = (x^B)^(e mod A)` gives
    /// `i = e mod A` from a table of the `A` powers of `x^B`; then
    /// `y x^-i = (x^A)^((e - i) / A)` gives `j = (e - i) / A` from a table of
    /// the `B` powers of `x^A`: `e = i + A j`. Two products and two look-ups
    /// a logarithm (`y^(2^h)` is linear over GF(2): a table map).
    Split {
        g: Generator,
        a: u64,
        /// `(x^B)^i -> i`, `i < A`.
        ta: Table,
        /// `(x^A)^j -> j`, `j < B`.
        tb: Table,
        /// `x^-i`, `i < A`.
        inv: Vec<u32>,
        /// `y -> y^(2^h)`.
        frob: Linear,
    },
}

/// The table `(x^step)^i -> i` for `i < count`.
fn power_table(g: &Generator, step: u64, count: u64) -> Table {
    let c = gf2::x_pow_mod(step as u128, g);
    let times = Linear::new(g.width(), |y| gf2::mul_residues(c, y, g));
    let mut t = Table::with_filter(count as usize);
    let mut s = 1u64;
    for i in 0..count {
        t.insert(s, i);
        s = times.apply(s);
    }
    t
}

impl Logs {
    /// The tables of `g`, built once per generator and kept; `None` unless
    /// `g` is primitive (the period of `x` is `2^r - 1`) with `2 <= r <= 32`.
    pub(crate) fn of(g: &Generator) -> Option<Arc<Logs>> {
        Self::of_with(g, true)
    }

    /// [`Logs::of`], with the split method for even widths only if `split`
    /// (the tests compare both methods).
    fn of_with(g: &Generator, split: bool) -> Option<Arc<Logs>> {
        type Kept = Mutex<HashMap<(u32, u64, bool), Option<Arc<Logs>>>>;
        static KEPT: OnceLock<Kept> = OnceLock::new();
        let key = (g.width(), g.normal(), split);
        let kept = KEPT.get_or_init(|| Mutex::new(HashMap::new()));
        if let Some(l) = kept.lock().expect("not poisoned").get(&key) {
            return l.clone();
        }
        // built outside the lock (a second thread may build it too: the
        // same tables, one is kept)
        let l = Logs::new(g, split).map(Arc::new);
        kept.lock()
            .expect("not poisoned")
            .entry(key)
            .or_insert(l)
            .clone()
    }

    fn new(g: &Generator, split: bool) -> Option<Logs> {
        let r = g.width();
        if !(2..=32).contains(&r) || g.normal() & 1 == 0 {
            return None;
        }
        let order = (1u64 << r) - 1;
        if gf2::period(g) != order as u128 {
            return None;
        }
        let how = if split && r.is_multiple_of(2) && r >= 22 {
            let h = r / 2;
            let (a, b) = ((1u64 << h) - 1, (1u64 << h) + 1);
            let back = Linear::new(r, |y| {
                gf2::mul_residues(gf2::x_pow_mod((order - 1) as u128, g), y, g)
            });
            let mut inv = Vec::with_capacity(a as usize);
            let mut s = 1u64;
            for _ in 0..a {
                inv.push(s as u32);
                s = back.apply(s);
            }
            let frob = Linear::new(r, |y| {
                let mut z = y;
                for _ in 0..h {
                    z = gf2::mul_residues(z, z, g);
                }
                z
            });
            How::Split {
                g: *g,
                a,
                ta: power_table(g, b, a),
                tb: power_table(g, a, b),
                inv,
                frob,
            }
        } else {
            let m = BABY.min(order);
            let mut baby = Table::with_filter(m as usize);
            for (j, &s) in syndromes(g, m as usize).iter().enumerate() {
                baby.insert(s, j as u64);
            }
            // x^-M = x^(P - M mod P)
            let c = gf2::x_pow_mod(((order - m % order) % order) as u128, g);
            let giant = Linear::new(r, |y| gf2::mul_residues(c, y, g));
            How::Steps { m, baby, giant }
        };
        Some(Logs {
            order,
            how,
            zech: Mutex::new(Arc::new(Vec::new())),
        })
    }

    /// `P = 2^r - 1`.
    pub(crate) fn order(&self) -> u64 {
        self.order
    }

    /// The exponent `e < P` with `x^e = y`; `None` for `y = 0` (or a value
    /// of `r` bits or more, which is no residue).
    pub(crate) fn log(&self, y: u64) -> Option<u64> {
        if y == 0 || y > self.order {
            return None;
        }
        match &self.how {
            How::Steps { m, baby, giant } => {
                let mut z = y;
                let mut i = 0u64;
                while i * m < self.order {
                    if let Some(j) = baby.get(z) {
                        return Some((i * m + j) % self.order);
                    }
                    z = giant.apply(z);
                    i += 1;
                }
            }
            How::Split {
                g,
                a,
                ta,
                tb,
                inv,
                frob,
            } => {
                let yb = gf2::mul_residues(frob.apply(y), y, g);
                let i = ta.get(yb).expect("y^B is a power of x^B");
                let j = tb
                    .get(gf2::mul_residues(y, inv[i as usize] as u64, g))
                    .expect("y x^-i is a power of x^A");
                return Some(i + a * j);
            }
        }
        unreachable!("x is primitive: every non-zero residue is a power of x")
    }

    /// `Z(d) = log(1 + x^d)` for `d < syn.len()` at least (`syn[d] = x^d
    /// mod g`, as [`syndromes`]; the table may be longer: the longest one
    /// computed so far is kept and shared); `Z(0)` (of 0, no logarithm) is
    /// given as 0. Computed in parallel.
    pub(crate) fn zech(&self, syn: &[u64]) -> Arc<Vec<u32>> {
        let kept = self.zech.lock().expect("not poisoned").clone();
        if kept.len() >= syn.len() {
            return kept;
        }
        let z = Arc::new(self.zech_of(syn));
        let mut k = self.zech.lock().expect("not poisoned");
        if k.len() < z.len() {
            *k = z.clone();
        }
        z
    }

    fn zech_of(&self, syn: &[u64]) -> Vec<u32> {
        syn.par_iter()
            .enumerate()
            .map(|(d, &s)| {
                if d == 0 {
                    0
                } else {
                    self.log(1 ^ s).expect("1 + x^d is not 0 below the period") as u32
                }
            })
            .collect()
    }
}

/// Calls `f(a, d)` for every `d` in `1..ds.len()` (with `ds[d] = Z(d)`) such
/// that `a = lt - Z(d) mod P` satisfies `lo <= a` and `a + d < end`: the
/// pairs `{a, a + d}` of exponents with `x^a + x^(a+d) = x^lt`, `lo <= a`,
/// `a + d < end`. `lo` is 0 or 1. In chunks, with a vectorisable test per
/// chunk (a hit is rare) and the chunk scanned again where it has one.
#[inline]
pub(crate) fn pairs(
    ds: &[u32],
    order: u64,
    lt: u32,
    lo: u32,
    end: u32,
    mut f: impl FnMut(u32, u32),
) {
    const CHUNK: usize = 64;
    let p = order as u32;
    let a_of = |zd: u32| -> u32 {
        let diff = lt.wrapping_sub(zd);
        if lt >= zd { diff } else { diff.wrapping_add(p) }
    };
    // a in [lo, end - d)  <=>  a - lo < end - d - lo  (unsigned, wrapping)
    let hit = |zd: u32, d: u32| -> bool {
        a_of(zd).wrapping_sub(lo) < end.wrapping_sub(d).wrapping_sub(lo) && d + lo < end
    };
    let n = ds.len().min(end as usize);
    if n < 2 {
        return;
    }
    let mut start = 1usize;
    while start < n {
        let stop = (start + CHUNK).min(n);
        let mut any = false;
        for (j, &zd) in ds[start..stop].iter().enumerate() {
            any |= hit(zd, (start + j) as u32);
        }
        if any {
            for (j, &zd) in ds[start..stop].iter().enumerate() {
                let d = (start + j) as u32;
                if hit(zd, d) {
                    f(a_of(zd), d);
                }
            }
        }
        start = stop;
    }
}

#[cfg(feature = "unit-tests")]
#[doc(hidden)]
pub mod tests {
    use super::*;

    pub fn logs_invert_powers_and_refuse_non_primitive_generators() {
        // 8 bits, 24 bits (both methods), 32 bits (both methods)
        for spec in ["0x11D", "0x100001B", "0x104C11DB7", "0x1000000AF"] {
            let g: Generator = spec.parse().unwrap();
            for split in [true, false] {
                let l = Logs::of_with(&g, split).unwrap_or_else(|| panic!("{spec} is primitive"));
                let is_split = matches!(l.how, How::Split { .. });
                assert_eq!(is_split, split && g.width() >= 22, "{spec}");
                assert_eq!(l.order(), (1u64 << g.width()) - 1);
                let mut r = 0x1234_5678u64;
                let mut es = vec![0u64, 1, 2, 255, 65535, 65536, 65537, 1 << 20, (1 << 20) + 1];
                es.extend([3_000_000_001, l.order() - 1]);
                for _ in 0..200 {
                    r = r
                        .wrapping_mul(6364136223846793005)
                        .wrapping_add(1442695040888963407);
                    es.push(r >> 20);
                }
                for &e in &es {
                    let e = e % l.order();
                    let y = gf2::x_pow_mod(e as u128, &g);
                    assert_eq!(l.log(y), Some(e), "{spec} x^{e}");
                }
                assert_eq!(l.log(0), None);
            }
        }
        // CRC-16/CCITT and CRC-32C have the factor x + 1: not primitive
        for spec in ["0x11021", "0x11EDC6F41"] {
            assert!(Logs::of(&spec.parse().unwrap()).is_none(), "{spec}");
        }
    }

    pub fn pairs_are_those_of_a_brute_force_search() {
        for spec in ["0x11D", "0x104C11DB7"] {
            let g: Generator = spec.parse().unwrap();
            let l = Logs::of(&g).unwrap();
            let n = 250usize;
            let syn = syndromes(&g, n);
            let z = l.zech(&syn);
            for (lo, end) in [(0u32, 250u32), (1, 250), (1, 117), (0, 2)] {
                for t in [
                    1u64,
                    2,
                    0x1234 & l.order(),
                    syn[7] ^ syn[249],
                    syn[3] ^ syn[4],
                ] {
                    let lt = l.log(t).unwrap() as u32;
                    let mut got = Vec::new();
                    pairs(&z, l.order(), lt, lo, end, |a, d| got.push((a, a + d)));
                    got.sort_unstable();
                    let mut want = Vec::new();
                    for a in lo..end {
                        for b in a + 1..end {
                            if syn[a as usize] ^ syn[b as usize] == t {
                                want.push((a, b));
                            }
                        }
                    }
                    assert_eq!(got, want, "{spec} t={t:#x} lo={lo} end={end}");
                }
            }
        }
    }
}
