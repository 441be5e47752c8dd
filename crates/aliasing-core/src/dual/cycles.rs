//! The cycles of the register's state graph: closed forms for primitive
//! generators and `(x+1)` times a primitive, else a walk (a visited bitmap
//! up to 24 bits, distinguished points above).

use super::lfsr::{Lfsr, MAX_WIDTH};
use crate::error::{Error, Result};
use crate::gf2;
use crate::poly::Generator;

/// One cycle of the register's state graph: a state on it and its length.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub(crate) struct Cycle {
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

/// The cycle method `cycles` will use for `g`, without running it.
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
pub(super) fn walk_bitmap(lf: &Lfsr, r: u32) -> Vec<Cycle> {
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
pub(super) fn walk_distinguished(g: &Generator, lf: &Lfsr) -> Option<Vec<Cycle>> {
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
pub(crate) fn cycles(g: &Generator) -> Result<Vec<Cycle>> {
    let r = g.width();
    if r > MAX_WIDTH {
        return Err(Error::Refused(crate::registry::refusal::Refusal::Width {
            entry: crate::registry::refusal::Entry::Dual,
            width: r,
            min: 1,
            max: MAX_WIDTH,
        }));
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
