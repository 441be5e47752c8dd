//! The dual code's weight distribution `B_w`: what the dual pass counts,
//! what [`crate::highprec`] and the MacWilliams identity
//! ([`crate::weights::macwilliams`]) read. A leaf module: it imports no
//! other module of the crate.

/// The weight distribution `B_w` of the dual of a shortened CRC code.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct DualWeights {
    /// Codeword length `n` in bits, check bits included.
    pub bits: u64,
    /// CRC width `r`: the counts add up to `2^r`.
    pub width: u32,
    /// `counts[w] = B_w` for `w = 0..=n`.
    pub counts: Vec<u64>,
}

impl DualWeights {
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
