//! The binary symmetric channel: each bit flips independently with probability `p`.
//!
//! Helpers here are written to avoid cancellation: `P_err = 1 - (1-p)^n` is
//! computed as `-expm1(n * ln_1p(-p))`, which is accurate for `n p` far below
//! machine epsilon.

use crate::error::Result;

/// `p` if it is a probability in [0, 1]: [`crate::units::Ber::new`] (the
/// one home of the rule), for the functions here that take a bare `f64`.
pub(crate) fn check_ber(p: f64) -> Result<f64> {
    crate::units::Ber::new(p).map(crate::units::Ber::get)
}

/// Probability that at least one of `n` bits flips: `1 - (1-p)^n` without cancellation.
///
/// ```
/// let pe = aliasing_core::bsc::p_error(12144, 1e-12);
/// assert!((pe / 1.2144e-8 - 1.0).abs() < 1e-6);
/// ```
pub fn p_error(n: u64, p: f64) -> f64 {
    if p >= 1.0 {
        return if n == 0 { 0.0 } else { 1.0 };
    }
    -f64::exp_m1(n as f64 * f64::ln_1p(-p))
}

/// `(1-p)^n`, the probability that no bit flips.
pub fn p_clean(n: u64, p: f64) -> f64 {
    if p >= 1.0 {
        return if n == 0 { 1.0 } else { 0.0 };
    }
    f64::exp(n as f64 * f64::ln_1p(-p))
}

/// `p^w (1-p)^(n-w)`: the probability of one given error pattern of weight `w`.
pub(crate) fn pattern_probability(n: u64, w: u64, p: f64) -> f64 {
    debug_assert!(w <= n);
    if p == 0.0 {
        return if w == 0 { 1.0 } else { 0.0 };
    }
    if p >= 1.0 {
        return if w == n { 1.0 } else { 0.0 };
    }
    f64::exp(w as f64 * p.ln() + (n - w) as f64 * f64::ln_1p(-p))
}

/// One point of an aliasing curve: a codeword length and a BER with the
/// probabilities of an error, an undetected error, and of aliasing given an error.
#[derive(Debug, Clone, Copy, PartialEq, serde::Serialize, serde::Deserialize)]
#[non_exhaustive]
pub struct CurvePoint {
    /// Bit error rate of the channel.
    pub ber: f64,
    /// Codeword length in bits (data plus check bits).
    pub bits: u64,
    /// Data bits: `bits - width`.
    pub data_bits: u64,
    /// Probability that at least one bit flips.
    pub p_error: f64,
    /// Probability that at least one bit flips and every check passes.
    pub p_undetected: f64,
    /// `p_undetected / p_error`.
    pub p_alias_given_error: f64,
}

impl CurvePoint {
    /// Builds a point from `P_ud`, filling in `P_err` and the ratio.
    pub fn new(ber: f64, bits: u64, check_bits: u64, p_undetected: f64) -> Self {
        let p_error = p_error(bits, ber);
        let p_alias_given_error = if p_error > 0.0 {
            p_undetected / p_error
        } else {
            // Limit p -> 0: P_ud/P_err -> A_wmin p^wmin / (n p) -> 0 for wmin >= 2.
            0.0
        };
        CurvePoint {
            ber,
            bits,
            data_bits: bits.saturating_sub(check_bits),
            p_error,
            p_undetected,
            p_alias_given_error,
        }
    }
}
