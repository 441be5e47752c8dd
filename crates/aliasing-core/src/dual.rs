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
//! let ctx = aliasing_core::ctx::Ctx::default();
//! let b = dual::dual_weights(&g, &[100], &ctx).unwrap();
//! assert_eq!(b[0].total(), 1 << 16);
//! let pts = dual::curve(&g, &[100], &[1e-6], &ctx).unwrap();
//! assert!(pts[0].p_undetected > 0.0 && pts[0].p_undetected < 1e-20);
//! ```

pub(crate) mod cycles;
mod lfsr;
pub(crate) mod pass;
mod weights;

pub use lfsr::MAX_WIDTH;
pub use pass::dual_weights;
#[doc(hidden)] // internal: the simulator reaches it here (also in `crate::__private`)
pub use pass::dual_weights_with;
pub(crate) use pass::{memory_estimate, work_estimate};
pub use weights::DualWeights;

use crate::bsc::{CurvePoint, check_ber};
use crate::ctx::Ctx;
use crate::error::{Error, Result};
use crate::highprec;
use crate::poly::Generator;
use crate::progress::Progress;
use crate::units::MemoryBudget;
use rayon::prelude::*;

/// `P_ud` for one length and BER from its dual weights, with at least 12
/// correct significant digits (see [`highprec::p_undetected`]).
pub fn p_undetected(dual: &DualWeights, p: f64) -> Result<f64> {
    highprec::p_undetected(dual, p)
}

/// Exact aliasing curve by the dual-code method: one point per (length, BER),
/// lengths in the outer loop, BERs in the inner, in the order given.
///
/// Lengths are codeword bits (check bits included); BERs must lie in
/// [0, 0.5]. Widths up to 32. Held to the context's memory budget and
/// watched by its progress: the stage of [`dual_weights`], then `"P_ud
/// terms"`, one unit per (length, BER).
pub fn curve(g: &Generator, lengths: &[u64], bers: &[f64], ctx: &Ctx) -> Result<Vec<CurvePoint>> {
    curve_in(g, lengths, bers, ctx.budget(), ctx.progress())
}

/// [`curve`] held to `budget`, watched by `progress`.
pub(crate) fn curve_in(
    g: &Generator,
    lengths: &[u64],
    bers: &[f64],
    budget: MemoryBudget,
    progress: &dyn Progress,
) -> Result<Vec<CurvePoint>> {
    for &p in bers {
        check_ber(p)?;
        if p > 0.5 {
            return Err(dual_ber_refused(p));
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

/// The refusal of a BER outside the dual code's `[0, 0.5]`: the registry's
/// ([`crate::registry::refusal::Refusal::Ber`]), whichever door the request came in by.
pub(crate) fn dual_ber_refused(ber: f64) -> Error {
    Error::Refused(crate::registry::refusal::Refusal::dual_ber(ber))
}

#[cfg(feature = "unit-tests")]
#[doc(hidden)]
pub mod tests;
