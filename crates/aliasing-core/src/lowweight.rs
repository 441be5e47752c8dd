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
//! use aliasing_core::{ctx::Ctx, lowweight, poly::Generator};
//! let g: Generator = "0x104C11DB7".parse().unwrap(); // CRC-32
//! let a4 = lowweight::weight_counts(&g, 4, 2975 + 32 + 1, &Ctx::default()).unwrap(); // n < 3008
//! assert_eq!(a4[2974 + 32], 0); // HD 5 up to 2974 data bits
//! assert_eq!(a4[2975 + 32], 1); // one weight-4 codeword at 2975
//! ```

use crate::error::{Error, Limit, Result};
use crate::gf2;
use crate::poly::Generator;
use crate::progress::{Batch, Progress, Silent};
use rayon::prelude::*;

pub(crate) mod hd;
pub(crate) mod shapes;
pub(crate) mod span;
mod table;
pub mod trinomial;
pub(crate) mod zech;

pub use hd::{
    HdEntry, HdProfile, HdSearch, HdStop, hd_profile, hd_profile_up_to, hd_profile_within,
};
pub use shapes::shapes;
pub use span::weight_counts;
// the rest of the submodules, for the crate (the benches and siblings reach
// some through `crate::__private`)
pub(crate) use table::*;
pub(crate) use {hd::*, shapes::*, span::*};

/// Widest generator this module accepts.
pub(crate) const MAX_WIDTH: u32 = 64;

/// Largest number of hash probes a search may take before it is refused.
pub(crate) const WORK_LIMIT: f64 = 2e10;

/// Longest length [`span_counts`] accepts (its tables take at least 40 bytes
/// a bit; the work limit stops weight 4 far below this).
pub(crate) const MAX_SPAN_LEN: u64 = 1 << 24;

/// Largest meet-in-the-middle table, in entries (with its slots at load 1/4
/// to 1/2 and its presence filter, at most about 2.5 GiB).
pub(crate) const TABLE_LIMIT: usize = 1 << 25;

fn check_width(g: &Generator) -> Result<()> {
    if g.width() > MAX_WIDTH {
        return Err(Error::Limit(Limit::EnumerationWidth {
            width: g.width(),
            max: MAX_WIDTH,
        }));
    }
    Ok(())
}

/// `x^i mod g` for `i < count`.
pub(crate) fn syndromes(g: &Generator, count: usize) -> Vec<u64> {
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

#[cfg(feature = "unit-tests")]
#[doc(hidden)]
pub mod tests;
