//! The dual code's weight distribution `B_w`: what the dual pass counts,
//! what [`crate::highprec`] and the MacWilliams identity
//! ([`crate::weights::macwilliams`]) read. A leaf module: it imports no
//! other module of the crate but its error type.

use crate::error::{Error, Result};

/// The weight distribution `B_w` of the dual of a shortened CRC code:
/// counted by the dual pass, or given to [`DualWeights::new`] (validated).
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[non_exhaustive]
pub struct DualWeights {
    /// Codeword length `n` in bits, check bits included.
    pub bits: u64,
    /// CRC width `r`: the counts add up to `2^r`.
    pub width: u32,
    /// `counts[w] = B_w` for `w = 0..=n`.
    pub counts: Vec<u64>,
}

impl DualWeights {
    /// The distribution `counts[w] = B_w`, `w = 0..=bits`, of the dual of
    /// a code of `bits` bits with `width` check bits: refused unless there
    /// are `bits + 1` counts, `B_0 = 1` (the zero word) and the counts add
    /// up to `2^width` (the dual code's words), `width` from 1 to 64.
    ///
    /// ```
    /// use aliasing_core::weights::DualWeights;
    /// // x^2+x+1 at n = 3: the dual is the even-weight code, B_0 = 1, B_2 = 3
    /// let b = DualWeights::new(3, 2, vec![1, 0, 3, 0]).unwrap();
    /// assert_eq!(b.total(), 4);
    /// assert!(DualWeights::new(3, 2, vec![1, 0, 2, 0]).is_err()); // adds up to 3
    /// assert!(DualWeights::new(3, 2, vec![1, 0, 3]).is_err()); // 3 counts for 3 bits
    /// ```
    pub fn new(bits: u64, width: u32, counts: Vec<u64>) -> Result<DualWeights> {
        let bad = |why: String| Err(Error::Invalid(format!("dual weight distribution: {why}")));
        if !(1..=64).contains(&width) {
            return bad(format!("width {width} is outside 1 to 64"));
        }
        if counts.len() as u128 != u128::from(bits) + 1 {
            return bad(format!(
                "{} counts for {bits} bits (B_0 to B_{bits}: {} of them)",
                counts.len(),
                u128::from(bits) + 1
            ));
        }
        if counts[0] != 1 {
            return bad(format!("B_0 is {}, not 1 (the zero word)", counts[0]));
        }
        let b = DualWeights {
            bits,
            width,
            counts,
        };
        if b.total() != 1u128 << width {
            return bad(format!("the counts add up to {}, not 2^{width}", b.total()));
        }
        Ok(b)
    }

    /// Sum of all counts; `2^r` for a complete distribution.
    pub fn total(&self) -> u128 {
        self.counts.iter().map(|&c| c as u128).sum()
    }

    /// Smallest and largest weight with a non-zero count other than `w = 0`.
    pub fn support(&self) -> Option<(usize, usize)> {
        let lo = self
            .counts
            .iter()
            .enumerate()
            .skip(1)
            .find(|(_, c)| **c > 0)?
            .0;
        let hi = self.counts.iter().rposition(|&c| c > 0)?;
        Some((lo, hi))
    }
}
