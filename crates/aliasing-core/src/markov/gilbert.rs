//! The exact escape of a CRC on a Gilbert-Elliott burst channel: the product
//! chain (register state x channel state), in error-mass form.
//!
//! The channel ([`GilbertElliott`], design.md "Burst channels") sends bit `t`
//! in state `c_t`, flips it with `e_{c_t}`, then moves; `c_0` is stationary.
//! The product chain keeps one vector of `2^r` per channel state: `Q_c[s]`,
//! the mass of the paths that have seen at least one error and sit in
//! register state `s` and channel state `c`, and a pair `C_c` for the
//! error-free paths. One bit is
//!
//! ```text
//! Q'_c = M(e_c) Q_c + e_c C_c e_g        (the CRC step inside each state)
//! C'_c = (1 - e_c) C_c
//! Q''_G = (1-g2b) Q'_G + b2g Q'_B        (the 2x2 mix between them)
//! Q''_B = g2b Q'_G + (1-b2g) Q'_B        (and the same for C')
//! ```
//!
//! where `M(e)` is the register chain of a binary symmetric channel with BER
//! `e` (a butterfly step) and `e_g` the state `normal(g)` that a
//! first error reaches from 0. `P_undetected(t) = Q_G[0] + Q_B[0]` and
//! `P_error(t) = sum_{u<t} (e_G C_G(u) + e_B C_B(u))`: every term of both is
//! a sum of products of non-negative numbers, so nothing cancels and both
//! stay accurate to about `t * eps` relative, down to 1e-40 and below.
//!
//! Bit order on the wire does not change the result: a stationary two-state
//! chain is reversible, so an error pattern and its reverse have the same
//! probability, and `g` and its reciprocal have the same escapes (tested).
//!
//! Cost: `O(n 2^r)` per channel: the `fused` kernel runs a block of bits per
//! pass over the two vectors, in place; memory one vector of `2^r` f64 per
//! channel state (`estimate_bytes`); widths up to [`MAX_WIDTH`].
//!
//! ```
//! use aliasing_core::{channel::GilbertElliott, markov::gilbert, poly::Generator};
//! use aliasing_core::units::MemoryBudget;
//! let g: Generator = "0x11021".parse().unwrap();
//! let ge: GilbertElliott = "1e-7,0.3,1e-4,0.05".parse().unwrap();
//! let ctx = aliasing_core::ctx::Ctx::new(MemoryBudget::bytes(1e9).unwrap());
//! let pts = gilbert::curve(&g, &[512, 1500], &ge, &ctx).unwrap();
//! assert!(pts[1].p_undetected > 0.0 && pts[1].p_undetected < pts[1].p_error);
//! ```

use super::butterfly;
#[cfg(feature = "unit-tests")]
use super::sparse::ErrorChain;
use crate::bsc::CurvePoint;
use crate::channel::GilbertElliott;
use crate::ctx::Ctx;
use crate::error::{Error, Result};
use crate::poly::Generator;
use crate::progress::{Batch, Progress};
use crate::registry::{Entry, Refusal};
use crate::units::MemoryBudget;

/// The widest CRC this solver takes (two vectors of `2^24` f64 are 256 MiB;
/// the time, `O(n 2^r)`, is what limits it).
pub const MAX_WIDTH: u32 = 24;

/// Estimated peak memory in bytes for a `width`-bit CRC: one vector of
/// `2^width` f64 per channel state ([`fused`], in place), two below
/// [`FUSED_WIDTH`] ([`solve_stepwise`]).
pub(crate) fn estimate_bytes(width: u32) -> f64 {
    let vectors = if width >= FUSED_WIDTH { 2.0 } else { 4.0 };
    vectors * 8.0 * 2f64.powi(width as i32) + (1 << 20) as f64
}

/// Checks a request: the channel's parameters, the width (at most
/// [`MAX_WIDTH`]) and the memory (`estimate_bytes` against `budget`);
/// one-line errors.
pub(crate) fn check(g: &Generator, ge: &GilbertElliott, budget: MemoryBudget) -> Result<()> {
    ge.validate()?;
    if g.width() > MAX_WIDTH {
        return Err(Error::Refused(Refusal::Width {
            entry: Entry::GilbertChain,
            width: g.width(),
            min: 1,
            max: MAX_WIDTH,
        }));
    }
    budget.admit(
        || format!("the burst-channel chain for a {}-bit CRC", g.width()),
        estimate_bytes(g.width()),
    )
}

/// The aliasing curve of `g` on the channel `ge`, one [`CurvePoint`] per
/// length in the order given, after `check` against the context's memory
/// budget, watched by its progress (see [`solve`]). Each point's `ber`
/// is the channel's mean BER ([`GilbertElliott::mean_ber`]); `p_error` is
/// the channel's exact probability of at least one error in `bits` bits
/// (not the binary symmetric channel's).
pub fn curve(
    g: &Generator,
    lengths: &[u64],
    ge: &GilbertElliott,
    ctx: &Ctx,
) -> Result<Vec<CurvePoint>> {
    check(g, ge, ctx.budget())?;
    Ok(solve(g, lengths, ge, ctx))
}

/// [`curve`] without the checks: `ge` must be valid and the vectors must
/// fit. The `fused` kernel from width 8, else
/// `solve_stepwise` (a test reference). The result does not depend on the thread count.
///
/// Watched by the progress of `ctx`: one stage, `"chain steps"`, of
/// `max(lengths)` steps. (Unchecked, the run does not consult the
/// context's memory budget: [`curve`] does.)
pub fn solve(g: &Generator, lengths: &[u64], ge: &GilbertElliott, ctx: &Ctx) -> Vec<CurvePoint> {
    let progress = ctx.progress();
    progress.stage("chain steps", lengths.iter().copied().max().unwrap_or(0));
    if g.width() < FUSED_WIDTH {
        return stepwise(g, lengths, ge, progress);
    }
    let mut it = fused::run(g, ge, lengths, g.width() >= 14, progress).into_iter();
    points(g, lengths, ge, |_| it.next().expect("one per length"))
}

/// The smallest width [`solve`] runs on [`fused`].
pub(crate) const FUSED_WIDTH: u32 = 8;

/// The product chain one bit at a time: two [`butterfly::step`]s and a
/// mix per bit, two vectors per channel state. The reference for
/// [`fused`] (they agree to 1e-13, tested) and the solver below
/// [`FUSED_WIDTH`]. Same contract as [`solve`].
#[cfg(feature = "unit-tests")] // an independent method, the tests' reference
pub(crate) fn solve_stepwise(
    g: &Generator,
    lengths: &[u64],
    ge: &GilbertElliott,
) -> Vec<CurvePoint> {
    stepwise(g, lengths, ge, &crate::progress::Silent)
}

/// [`solve_stepwise`] reporting each bit to `progress` (no stage).
fn stepwise(
    g: &Generator,
    lengths: &[u64],
    ge: &GilbertElliott,
    progress: &dyn Progress,
) -> Vec<CurvePoint> {
    let mut steps = Batch::new(progress, crate::markov::report_every(g.width() + 1));
    let n = 1usize << g.width();
    let parallel = g.width() >= butterfly::PARALLEL_WIDTH;
    let inject = g.normal() as usize;
    let e = [ge.p_good, ge.p_bad];
    let (g2b, b2g) = (ge.good_to_bad, ge.bad_to_good);
    let (stay_g, stay_b) = (1.0 - g2b, 1.0 - b2g);
    let mut order: Vec<usize> = (0..lengths.len()).collect();
    order.sort_by_key(|&i| lengths[i]);
    let mut out = vec![(0.0, 0.0); lengths.len()];
    let [mut qg, mut qb, mut wg, mut wb] = std::array::from_fn(|_| vec![0.0f64; n]);
    let mut clean = ge.stationary();
    let mut p_err = 0.0f64;
    let mut k = 0;
    let mut t = 0u64;
    loop {
        while k < order.len() && lengths[order[k]] == t {
            out[order[k]] = (p_err, qg[0] + qb[0]);
            k += 1;
        }
        if k == order.len() {
            break;
        }
        if n >= 1 << 12 {
            rayon::join(
                || butterfly::step(g, e[0], &qg, &mut wg, parallel),
                || butterfly::step(g, e[1], &qb, &mut wb, parallel),
            );
        } else {
            butterfly::step(g, e[0], &qg, &mut wg, parallel);
            butterfly::step(g, e[1], &qb, &mut wb, parallel);
        }
        // Paths whose first error is this bit, in either channel state.
        wg[inject] += e[0] * clean[0];
        wb[inject] += e[1] * clean[1];
        p_err += e[0] * clean[0] + e[1] * clean[1];
        let c = [clean[0] * (1.0 - e[0]), clean[1] * (1.0 - e[1])];
        clean = [stay_g * c[0] + b2g * c[1], g2b * c[0] + stay_b * c[1]];
        mix(&mut wg, &mut wb, [stay_g, b2g, g2b, stay_b]);
        std::mem::swap(&mut qg, &mut wg);
        std::mem::swap(&mut qb, &mut wb);
        t += 1;
        steps.add(1);
    }
    let mut it = out.into_iter();
    points(g, lengths, ge, |_| it.next().expect("one per length"))
}

/// Largest `n * 2^width` that [`escape_of_translations`] takes (a few
/// seconds on one core).
pub(crate) const TRANSLATION_WORK_LIMIT: f64 = 1e9;

/// The probability that at least one of `translations.len()` bits, sent in
/// that order over the channel `ge`, flips and the XOR of the flipped bits'
/// `translations` (values below `2^width`) is 0: the escape of any linear
/// check whose syndrome is that XOR, including bits it does not cover
/// (translation 0), so a check over part of a frame "escapes" errors that
/// miss it. The same product chain as `solve_stepwise` (one vector per
/// channel state, error-mass form: every term non-negative), with a
/// butterfly on the pairs `{s, s ^ T_t}` in place of the CRC step; the
/// Gilbert-Elliott analogue of [`super::walk::escape_of_translations`].
/// `O(n 2^width)`; refused above [`TRANSLATION_WORK_LIMIT`] or width 24.
///
/// ```
/// use aliasing_core::{channel::GilbertElliott, markov::gilbert};
/// let ge: GilbertElliott = "1e-3,0.3,1e-2,0.2".parse().unwrap();
/// // two bits with equal translations: only both flipping escapes
/// let p = gilbert::escape_of_translations(1, &[1, 1], &ge).unwrap();
/// let both = {
///     let [g, b] = ge.stationary();
///     let (eg, eb) = (ge.p_good, ge.p_bad);
///     g * eg * ((1.0 - ge.good_to_bad) * eg + ge.good_to_bad * eb)
///         + b * eb * (ge.bad_to_good * eg + (1.0 - ge.bad_to_good) * eb)
/// };
/// assert!((p - both).abs() <= 1e-15 * both);
/// ```
#[doc(hidden)] // internal: reached through `crate::__private`
pub fn escape_of_translations(
    width: u32,
    translations: &[u64],
    ge: &GilbertElliott,
) -> Result<f64> {
    ge.validate()?;
    let work = translations.len() as f64 * 2f64.powi(width as i32);
    if width > MAX_WIDTH {
        return Err(Error::Refused(Refusal::Width {
            entry: Entry::GilbertChain,
            width,
            min: 1,
            max: MAX_WIDTH,
        }));
    }
    if work > TRANSLATION_WORK_LIMIT {
        return Err(Error::Refused(Refusal::Work {
            entry: Entry::GilbertChain,
            bits: translations.len() as u64,
            width,
            work,
            max: TRANSLATION_WORK_LIMIT,
        }));
    }
    let size = 1usize << width;
    if let Some(&t) = translations.iter().find(|&&t| t >= size as u64) {
        return Err(Error::Invalid(format!(
            "translation {t:#x} is wider than {width} bits"
        )));
    }
    let e = [ge.p_good, ge.p_bad];
    let (g2b, b2g) = (ge.good_to_bad, ge.bad_to_good);
    let m = [1.0 - g2b, b2g, g2b, 1.0 - b2g];
    let mut q = [vec![0.0f64; size], vec![0.0f64; size]];
    let mut clean = ge.stationary();
    for &t in translations {
        let t = t as usize;
        for (c, v) in q.iter_mut().enumerate() {
            let (stay, flip) = (1.0 - e[c], e[c]);
            if t != 0 {
                let hi = 1usize << (usize::BITS - 1 - t.leading_zeros());
                for s in 0..size {
                    if s & hi == 0 {
                        let (a, b) = (v[s], v[s ^ t]);
                        v[s] = stay * a + flip * b;
                        v[s ^ t] = stay * b + flip * a;
                    }
                }
            }
            // paths whose first error is this bit
            v[t] += flip * clean[c];
        }
        let c = [clean[0] * (1.0 - e[0]), clean[1] * (1.0 - e[1])];
        clean = [m[0] * c[0] + m[1] * c[1], m[2] * c[0] + m[3] * c[1]];
        let [qg, qb] = &mut q;
        mix(qg, qb, m);
    }
    Ok(q[0][0] + q[1][0])
}

/// The curve points from `(P_error, P_undetected)` per length.
fn points(
    g: &Generator,
    lengths: &[u64],
    ge: &GilbertElliott,
    mut at: impl FnMut(u64) -> (f64, f64),
) -> Vec<CurvePoint> {
    let r = g.width() as u64;
    let ber = ge.mean_ber();
    lengths
        .iter()
        .map(|&bits| {
            let (p_error, p_undetected) = at(bits);
            CurvePoint {
                ber,
                bits,
                data_bits: bits.saturating_sub(r),
                p_error,
                p_undetected,
                p_alias_given_error: if p_error > 0.0 {
                    p_undetected / p_error
                } else {
                    0.0
                },
            }
        })
        .collect()
}

/// The channel's move after a bit, in place on every register state:
/// `(g, b) -> (m[0] g + m[1] b, m[2] g + m[3] b)`.
fn mix(vg: &mut [f64], vb: &mut [f64], m: [f64; 4]) {
    for (a, b) in vg.iter_mut().zip(vb.iter_mut()) {
        let (x, y) = (*a, *b);
        *a = m[0] * x + m[1] * y;
        *b = m[2] * x + m[3] * y;
    }
}

/// The same product chain as a general [`ErrorChain`] over `2 * 2^r` states
/// (state `2 s + c`: register state `s`, channel state `c`, 0 good), built
/// transition by transition from the register rule: an independent
/// implementation for tests and small widths. Fails on an invalid channel.
#[cfg(feature = "unit-tests")] // an independent method, the tests' reference
pub(crate) fn sparse_chain(g: &Generator, ge: &GilbertElliott) -> Result<ErrorChain> {
    use sprs::TriMat;
    ge.validate()?;
    let r = g.width();
    let pe = [ge.p_good, ge.p_bad];
    // t[c][c2]: the channel moves from c to c2 after each bit.
    let t = [
        [1.0 - ge.good_to_bad, ge.good_to_bad],
        [ge.bad_to_good, 1.0 - ge.bad_to_good],
    ];
    let ns = 2usize << r;
    let mut clean = TriMat::new((ns, ns));
    let mut error = TriMat::new((ns, ns));
    for s in 0..(1u64 << r) {
        let top = (s >> (r - 1)) & 1;
        let s0 = ((s << 1) & g.mask()) ^ if top == 1 { g.normal() } else { 0 };
        let s1 = s0 ^ g.normal();
        for (c, (&e, row)) in pe.iter().zip(&t).enumerate() {
            for (c2, &move_p) in row.iter().enumerate() {
                let from = 2 * s as usize + c;
                clean.add_triplet(2 * s0 as usize + c2, from, (1.0 - e) * move_p);
                error.add_triplet(2 * s1 as usize + c2, from, e * move_p);
            }
        }
    }
    let mut start = vec![0.0; ns];
    start[..2].copy_from_slice(&ge.stationary());
    ErrorChain::new(clean.to_csr(), error.to_csr(), start, vec![0, 1])
}

#[doc(hidden)] // kernel: public for the benches only
pub mod fused;

#[cfg(feature = "unit-tests")]
#[doc(hidden)]
pub mod tests;
