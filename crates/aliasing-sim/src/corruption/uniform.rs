//! The models over uniformly random data: closed forms and exact counts.

use super::*;

/// `num / den` for exact integers, with at most two roundings.
#[doc(hidden)]
pub fn ratio(num: u128, den: u128) -> f64 {
    num as f64 / den as f64
}

/// `(q - 1) / (2^B - 1)` and `1 / (2^B - 1)` for `B >= 16`, where
/// `q = floor(2^B / 65535)`: a `B`-bit window with residue `r` has
/// `q - 1 + [r < t]` other values with its residue, `t = 2^(B mod 16)`.
pub(super) fn burst_terms(b: u32) -> (f64, f64) {
    debug_assert!(b >= 16);
    let t = 1u128 << (b % 16);
    if b <= 100 {
        let two_b = 1u128 << b;
        let q = two_b / M as u128;
        debug_assert_eq!(two_b - q * M as u128, t);
        (ratio(q - 1, two_b - 1), ratio(1, two_b - 1))
    } else {
        // (2^B - t - M) / (M (2^B - 1)) with x = 2^-B; no cancellation: x < 2^-100
        let x = (-(b as f64)).exp2();
        let m = M as f64;
        ((1.0 - (t as f64 + m) * x) / (m * (1.0 - x)), x / (1.0 - x))
    }
}

/// `t = 2^(B mod 16)`: residues below it have one more `B`-bit value.
pub(super) fn burst_t(b: u32) -> u64 {
    1u64 << (b % 16)
}

/// Exact `P(miss)` of a splice region over uniform data: `m` bytes starting
/// at an odd offset (`odd`), old and new bytes independent and uniform:
/// `P(equal sums mod 65535) - P(equal bytes)`.
#[doc(hidden)]
pub fn splice_uniform_region(m: u64, odd: bool) -> f64 {
    // lone bytes: a leading low byte (odd start), a trailing high byte
    let lead = (odd && m > 0) as u64;
    let words = (m - lead) / 2;
    let trail = (m - lead) % 2;
    let lone = lead + trail;
    // Z: the lone bytes' sum. S_Z = P(Z_old == Z_new mod M), I_Z = P(equal lone bytes).
    // Both lone bytes: Z = low + 256 high covers 0..=65535 once, 65535 == 0.
    // All values in units of 2^-32 (S_Z) / 2^-16 (I_Z) below.
    if words == 0 {
        return match lone {
            // a single byte changes the sum by a non-zero multiple < 65535
            0 | 1 => 0.0,
            // like one word: only {0x0000, 0xFFFF}
            _ => 2.0 / 65536.0 / 65536.0,
        };
    }
    // (S_Z, I_Z) as exact dyadic numerators over 2^32 and 2^16
    let (s_num, i_num): (u128, u128) = match lone {
        0 => (1 << 32, 1 << 16),
        1 => (1 << 24, 1 << 8),
        _ => (65538, 1),
    };
    if words <= 2 {
        // p = [(1 - a^2) + M (a^2 S_Z - a I_Z)] / M with a = 2^-16n, the
        // bracket exact (signed: it is positive, its parts are not)
        // a = 2^-a_exp; every term in units of 2^-100 (2^100 stands for 1):
        // a^2 = 2^(100 - 2 a_exp), a^2 S_Z = s_num 2^(100 - 2 a_exp - 32),
        // a I_Z = i_num 2^(100 - a_exp - 16)
        let a_exp = 16 * words as i32;
        let one = 1i128 << 100;
        let sh = |e: i32| -> i128 { 1i128 << e };
        let a2 = sh(100 - 2 * a_exp);
        let a2s = s_num as i128 * sh(100 - 2 * a_exp - 32);
        let ai = i_num as i128 * sh(100 - a_exp - 16);
        let bracket = one - a2 + M as i128 * (a2s - ai);
        debug_assert!(bracket > 0);
        return bracket as f64 / one as f64 / M as f64;
    }
    // a <= 2^-48: every correction is below 2^-32 of the leading 1
    let a = (-(16.0 * words as f64)).exp2();
    let s = s_num as f64 / 4294967296.0;
    let i = i_num as f64 / 65536.0;
    let m = M as f64;
    ((1.0 - a * a) + m * (a * a * s - a * i)) / m
}

/// Exact `p_miss` of `model` for one segment of `segment_bytes` uniformly
/// random data bytes (for `splice`, the next segment too).
///
/// ```
/// use aliasing_sim::corruption::{Model, uniform};
/// assert_eq!(uniform(&Model::Burst { bits: 15 }, 1460).unwrap().p_miss, 0.0);
/// let w = uniform(&Model::Word, 1460).unwrap().p_miss;
/// assert_eq!(uniform(&Model::Burst { bits: 16 }, 1460).unwrap().p_miss, w);
/// ```
pub fn uniform(model: &Model, segment_bytes: u64) -> Result<Miss> {
    model.check(segment_bytes)?;
    let len = segment_bytes;
    let mut p_hit = None;
    let mut p_undetected = None;
    let (p, method) = match *model {
        Model::Word => {
            let full = len / 2;
            let words = len.div_ceil(2);
            // P(word in {0, 0xFFFF}) = 2/65536, then 1 of 65535 values
            let p = ratio(2 * full as u128, words as u128 * 65536) / M as f64;
            (p, "exact: uniform data, closed form".to_string())
        }
        Model::Burst { bits } => {
            let p = if bits < 16 {
                0.0
            } else if bits == 16 {
                2.0 / 65536.0 / 65535.0
            } else {
                // a uniform B-bit window has residue < t with probability (q+1) t / 2^B
                let (a, b) = burst_terms(bits);
                let t = burst_t(bits) as f64;
                let q1 = if bits <= 100 {
                    let two_b = 1u128 << bits;
                    ratio((two_b / M as u128 + 1) * burst_t(bits) as u128, two_b)
                } else {
                    t / M as f64 * (1.0 + (M as f64 - t) * (-(bits as f64)).exp2())
                };
                a + q1 * b
            };
            (p, "exact: uniform data, closed form".to_string())
        }
        Model::Splice { cell } => {
            let cells = len.div_ceil(cell);
            let mut sum = 0.0;
            for k in 0..cells {
                let a = k * cell;
                sum += splice_uniform_region(len - a, a % 2 == 1);
            }
            (
                sum / cells as f64,
                "exact: uniform data, closed form per cell boundary".to_string(),
            )
        }
        Model::Bits { p } => {
            let pud = aliasing_core::__private::internet::p_undetected_coins(len, p)?;
            let hit = bsc::p_error(8 * len, p);
            p_hit = Some(hit);
            p_undetected = Some(pud);
            (
                if hit > 0.0 { pud / hit } else { 0.0 },
                "exact: uniform data, Internet checksum carry chain / characteristic function"
                    .to_string(),
            )
        }
    };
    Ok(Miss {
        model: model.to_string(),
        p_miss: p,
        segments: 1,
        p_hit,
        p_undetected,
        method,
    })
}
