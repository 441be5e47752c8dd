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
//! Logarithms by baby steps and giant steps: a table of `x^j` for
//! `j < M = min(2^20, P)` and at most `ceil(P / M)` (2^12 at `r = 32`)
//! multiplications by the constant `x^-M`, each four table look-ups (the
//! multiplication by a constant is linear over GF(2)). One table per
//! generator, kept for the process.

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
    /// Baby steps `M`.
    m: u64,
    /// `x^j -> j` for `j < M`.
    baby: Table,
    /// Multiplication by `x^-M`: `giant[k][b] = x^-M (b << 8k) mod g`.
    giant: Vec<[u32; 256]>,
    /// The longest Zech table computed so far (`Z(d)` does not depend on the
    /// length asked for, so a longer table serves a shorter request).
    zech: Mutex<Arc<Vec<u32>>>,
}

impl Logs {
    /// The tables of `g`, built once per generator and kept; `None` unless
    /// `g` is primitive (the period of `x` is `2^r - 1`) with `2 <= r <= 32`.
    pub(crate) fn of(g: &Generator) -> Option<Arc<Logs>> {
        static KEPT: OnceLock<Mutex<HashMap<(u32, u64), Option<Arc<Logs>>>>> = OnceLock::new();
        let key = (g.width(), g.normal());
        let kept = KEPT.get_or_init(|| Mutex::new(HashMap::new()));
        if let Some(l) = kept.lock().expect("not poisoned").get(&key) {
            return l.clone();
        }
        // built outside the lock (a second thread may build it too: the
        // same tables, one is kept)
        let l = Logs::new(g).map(Arc::new);
        kept.lock()
            .expect("not poisoned")
            .entry(key)
            .or_insert(l)
            .clone()
    }

    fn new(g: &Generator) -> Option<Logs> {
        let r = g.width();
        if !(2..=32).contains(&r) || g.normal() & 1 == 0 {
            return None;
        }
        let order = (1u64 << r) - 1;
        if gf2::period(g) != order as u128 {
            return None;
        }
        let m = BABY.min(order);
        let mut baby = Table::with_filter(m as usize);
        for (j, &s) in syndromes(g, m as usize).iter().enumerate() {
            baby.insert(s, j as u64);
        }
        // x^-M = x^(P - M mod P)
        let c = gf2::x_pow_mod(((order - m % order) % order) as u128, g);
        let giant = (0..4)
            .map(|k| {
                std::array::from_fn(|b| {
                    let y = (b as u64) << (8 * k);
                    if y >> r != 0 {
                        0
                    } else {
                        gf2::mul_residues(c, y, g) as u32
                    }
                })
            })
            .collect();
        Some(Logs {
            order,
            m,
            baby,
            giant,
            zech: Mutex::new(Arc::new(Vec::new())),
        })
    }

    /// `P = 2^r - 1`.
    pub(crate) fn order(&self) -> u64 {
        self.order
    }

    #[inline]
    fn times_giant(&self, y: u64) -> u64 {
        let g = &self.giant;
        (g[0][(y & 255) as usize]
            ^ g[1][((y >> 8) & 255) as usize]
            ^ g[2][((y >> 16) & 255) as usize]
            ^ g[3][((y >> 24) & 255) as usize]) as u64
    }

    /// The exponent `e < P` with `x^e = y`; `None` for `y = 0` (or a value
    /// of `r` bits or more, which is no residue).
    pub(crate) fn log(&self, y: u64) -> Option<u64> {
        if y == 0 || y > self.order {
            return None;
        }
        let mut z = y;
        let mut i = 0u64;
        while i * self.m < self.order {
            if let Some(j) = self.baby.get(z) {
                return Some((i * self.m + j) % self.order);
            }
            z = self.times_giant(z);
            i += 1;
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
        a_of(zd).wrapping_sub(lo) < end.wrapping_sub(d).wrapping_sub(lo)
            && d + lo < end
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn logs_invert_powers_and_refuse_non_primitive_generators() {
        for spec in ["0x11D", "0x104C11DB7", "0x1000000AF"] {
            let g: Generator = spec.parse().unwrap();
            let l = Logs::of(&g).unwrap_or_else(|| panic!("{spec} is primitive"));
            assert_eq!(l.order(), (1u64 << g.width()) - 1);
            for e in [0u64, 1, 2, 255, 1 << 20, (1 << 20) + 1, 3_000_000_001, l.order() - 1] {
                let e = e % l.order();
                let y = gf2::x_pow_mod(e as u128, &g);
                assert_eq!(l.log(y), Some(e), "{spec} x^{e}");
            }
            assert_eq!(l.log(0), None);
        }
        // CRC-16/CCITT and CRC-32C have the factor x + 1: not primitive
        for spec in ["0x11021", "0x11EDC6F41"] {
            assert!(Logs::of(&spec.parse().unwrap()).is_none(), "{spec}");
        }
    }

    #[test]
    fn pairs_are_those_of_a_brute_force_search() {
        for spec in ["0x11D", "0x104C11DB7"] {
            let g: Generator = spec.parse().unwrap();
            let l = Logs::of(&g).unwrap();
            let n = 250usize;
            let syn = syndromes(&g, n);
            let z = l.zech(&syn);
            for (lo, end) in [(0u32, 250u32), (1, 250), (1, 117), (0, 2)] {
                for t in [1u64, 2, 0x1234 & l.order(), syn[7] ^ syn[249], syn[3] ^ syn[4]] {
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
