//! Exact joint escape of a stack of one CRC and Internet checksums on a
//! binary symmetric channel: the probability that a frame is corrupted and
//! *every* check passes, from the CRC's low-weight codewords placed in the
//! frame's wire positions.
//!
//! # The sum
//!
//! An error pattern escapes the CRC iff it is a codeword, so
//! `P_joint = sum_w p^w (1-p)^(n-w) S_w`, where `S_w` sums, over the
//! weight-`w` codewords at the frame length, the probability over the random
//! bytes that every Internet checksum passes too. Codewords are named by wire
//! position: the CRC covers the whole frame with its field at the end and
//! processes bits in wire order, so wire bit `j` of an `n`-bit frame is the
//! coefficient of `x^(n-1-j)` (Ethernet: bytes least significant bit first,
//! CRC-32/ISO-HDLC reflected). The joint model checks this on a real
//! frame and refuses a layout where it does not hold.
//!
//! Codeword *shapes* ([`crate::lowweight::shapes`]) slide over the frame.
//! Inside the random payload a bit's role repeats every 16 bits (its column
//! in the checksum's 16-bit word), so for the offsets where a shape lies
//! wholly in that periodic zone only the offset mod 16 matters: 16
//! evaluations, each counted as often as it occurs. The other offsets (those
//! touching headers, check fields or the FCS) are evaluated one by one.
//!
//! # One pattern's pass probability
//!
//! The received ones'-complement sum folds to `0xFFFF` iff the integer sum is
//! `0 mod 65535` and not zero; a valid frame's sum is `0 mod 65535`. The
//! received integer sum is never zero for a pattern of fewer than 16 flips,
//! in any layout: it is zero only if the constant is 0 and every summed
//! word is 0 after the flips, so the pattern flips every 1 bit of the sent
//! words, and those are at least 16 (the sent words fold to `0xFFFF`, and
//! neither adding nor folding raises the count of 1 bits). Flipping bit `c`
//! of a 16-bit word (its column; `2^16 = 1 mod 65535`, so only the column
//! counts) adds `+2^c` if the bit was 0 and `-2^c` if it was 1, so a pattern
//! passes check `i` iff `sum_j s_j 2^(c_j) = 0 mod 65535`. Then:
//! - a flip in a fixed byte has a known sign;
//! - a flip in a random payload bit has a fair-coin sign, independent of the
//!   other bits (the same coin in every check that covers the bit);
//! - a flip in a checksum field computed from random data has the sign of
//!   the field's bit. The field is `F = 0xFFFF - fold(sum of the other
//!   words)`, a function of the data: it takes the 65535 values
//!   `0x0000..=0xFFFE`, never `0xFFFF`. The model: `F` uniform on those
//!   65535 values, independent of the flipped payload bits; a set of `f`
//!   flipped field columns then shows the bit pattern `b` with probability
//!   `(2^(16-f) - [b all ones]) / 65535`.
//!
//! Why the model is (almost) exact. Condition on every payload bit but the
//! `m` random 16-bit words the pattern does not touch. Their sum mod 65535
//! has Fourier coefficients `65536^-m` at every non-zero frequency (one
//! uniform word: `sum_{v<65536} w^(tv) / 65536 = 1/65536`, because `0` and
//! `0xFFFF` are both `0 mod 65535`), so each residue has probability
//! `1/65535` within `65536^-m`, and the total variation distance between
//! `F` (given the touched bits) and the model is at most
//! `65534/2 * 65536^-m < 2^(15 - 16m)`. A pattern that flips no field bit
//! does not depend on `F` at all, so its probability is exact; one that
//! does is within `2^(15-16m)` of the model, with `m` at least the check's
//! random words minus `w - 1`. Each term's model error carries that bound
//! (summed over the patterns that touch a field) into the bracket. For
//! weights up to 5 it is below 1e-160 once the check has 40 random words
//! (frames of 138 bytes or more in `ethernet-tcp`); tiny frames state it.
//!
//! # The bracket
//!
//! Every pass probability is at most 1, so the weights not enumerated add
//! at most `R = P_ud(CRC) - sum_{w<=W} A_w p^w (1-p)^(n-w)`, with `P_ud` and
//! `A_w` exact from the dual code (MacWilliams). `R` is formed in binary
//! fixed point with a proven error bound (`highprec::p_undetected_above`),
//! so it is not lost to cancellation. `[low, high] = [sum_w S_w p^w (1-p)^(n-w),
//! low + R]`, each widened by the field model's bound where that is not 0.
//!
//! ```
//! use aliasing_core::__private::joint::JointModel; // internal: not a stable API
//! use aliasing_core::layout::{Frame, Payload};
//! let f = Frame::new("ethernet-tcp", 600, Payload::Random).unwrap();
//! let m = JointModel::new(&f).unwrap();
//! // two flips in one payload column cancel half the time ...
//! let a = 8 * 100 + 3;
//! assert_eq!(m.pass_probability(&[a, a + 16]), 0.5);
//! // ... and one flip never passes the TCP checksum
//! assert_eq!(m.pass_probability(&[a]), 0.0);
//! ```

use crate::bsc;
use crate::ctx::Ctx;
use crate::error::{Error, Limit, Result, StackRule};
use crate::layout::{Frame, Payload};
use crate::lowweight;
use crate::poly::Generator;
use rayon::prelude::*;

mod coins;
pub(crate) mod model;
mod pass;
pub(crate) mod plan;
pub(crate) mod single;
mod stack;
pub(crate) mod uniform;
use coins::*;
pub(crate) use model::{JointModel, RoleCache};
pub(crate) use plan::{FrameTally, JointPlan, SampleTally, TermTally};
pub(crate) use single::internet_p_undetected;
pub use stack::{JointMethod, JointOptions, JointPoint, JointStack};
pub(crate) use uniform::escape_at_half;

/// Most Internet checksums a stack may have beside its CRC.
pub(crate) const MAX_CHECKS: usize = 4;

/// Most random payload bits one pattern may flip (its coins are enumerated).
pub(crate) const MAX_COINS: usize = 16;

const MODULUS: i64 = 65535;

/// The denominator of [`JointModel::pass_count`]: `65535 * 2^16`.
#[doc(hidden)] // internal: reached through `crate::__private`
pub const PASS_SCALE: u64 = 65535 << MAX_COINS;

/// How a flip of one bit changes one checksum's sum.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
enum Dir {
    /// A fixed 0 bit: `+2^c`.
    Up,
    /// A fixed 1 bit: `-2^c`.
    Down,
    /// A random payload bit: either, with probability 1/2 each.
    Coin,
    /// A bit of this check's own field, computed from random data.
    Field,
}

/// Per wire bit: for each Internet check, `Some((column, direction))` when
/// the check covers the bit.
type BitRole = [Option<(u8, Dir)>; MAX_CHECKS];

/// One weight's share of the joint escape.
#[derive(Debug, Clone, PartialEq)]
#[doc(hidden)] // internal: reached through `crate::__private`
pub struct Term {
    /// Codeword weight `w`.
    pub weight: u32,
    /// Weight-`w` codewords at the frame length (`A_w`; for a sampled term,
    /// the exact `A_w` from the dual code).
    pub codewords: u128,
    /// Sum of the pass probabilities over those codewords (`S_w`; an
    /// estimate for a sampled term).
    pub pass_sum: f64,
    /// Half-width of the 95% confidence interval of `pass_sum` (0 when exact).
    pub pass_sum_ci: f64,
    /// Bound on the field model's error summed over the codewords (see the
    /// module documentation).
    pub model_error: f64,
    /// `false` for a sampled term.
    pub exact: bool,
}

impl Term {
    /// `S_w p^w (1-p)^(n-w)`.
    pub fn contribution(&self, n: u64, p: f64) -> f64 {
        self.pass_sum * bsc::pattern_probability(n, self.weight as u64, p)
    }
}

/// SplitMix64: a small counter-based generator for reproducible draws.
struct SplitMix(u64);

impl SplitMix {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    /// Uniform in `0..m` (Lemire's multiply-shift with rejection).
    fn below(&mut self, m: u64) -> u64 {
        loop {
            let x = self.next();
            let r = (x as u128 * m as u128) >> 64;
            let lo = (x as u128 * m as u128) as u64;
            if lo >= m.wrapping_neg() % m {
                return r as u64;
            }
        }
    }
}

#[cfg(feature = "unit-tests")]
#[doc(hidden)]
pub mod tests;

#[cfg(feature = "unit-tests")]
#[doc(hidden)]
pub mod sampling_tests;
