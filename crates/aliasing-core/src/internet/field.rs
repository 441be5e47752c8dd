//! The checksum field computed from the data: the exact model.
//!
//! A sender computes the field so that the ones'-complement sum of the
//! segment (with its pseudo-header constant `c`) is zero. The field's bits are
//! therefore a function of the data, which matters at high BER: flipping every
//! bit of a valid frame changes the sum by `2c` (plus `0xFF00` for an odd
//! length, whose pad byte is not sent), so with `c = 0` and an even length
//! every frame escapes at BER 1, whatever the data.
//!
//! Write `x` for the sent bits, `e` for the error pattern and `F = h(s)` for the
//! field, `s` the sum of everything else mod `M = 65535`. Three certified
//! methods, each with a rigorous bound on what it leaves out; an answer is
//! returned only where that bound is below `1e-13` of it, otherwise the
//! request is refused with the bound ([`crate::Limit::FieldAccuracy`]):
//!
//! 1. **Independent field plus coupling bound** (any BER; certifies where
//!    errors leave many random data bits of every column untouched, so low
//!    and moderate BER on frames with at least five random data words). Given
//!    `e`, the random data bits that did not flip are uniform and do not move
//!    the change; their contribution to `s` has characteristic function
//!    `phi(l) = prod_c cos(pi l 2^c / M)^(f_c)` (up to phase), `f_c` such bits
//!    in column `c`. Since `prod_{c<16} |cos(pi l 2^c / M)| = 2^-16` for every
//!    `l != 0 mod M`, `|phi(l)| <= 2^(-16 m)` with `m = min_c f_c`. So the law
//!    of `s` is within `2^(-16 m)` (L2) of uniform, and by Cauchy-Schwarz the
//!    escape probability given `e` is within `256 * 2^(-16 m)` of the model
//!    where the field is uniform on its 65535 values and independent of the
//!    data ([`p_undetected_real_field`], exact by the carry chain). Only `e`
//!    that flips a field bit can differ (otherwise the escape does not depend
//!    on `F`), and a flip of field bits alone only when all 16 flip. Summed
//!    with binomial tails for `m`.
//! 2. **Uniform received word** (mid BER). Expanding the channel in Walsh
//!    characters, `P(received sum = t) = sum_S z^|S| mu^(S) 1_V^(S)` with
//!    `z = 1 - 2p`; a random data word that `S` misses divides both
//!    coefficients by 65536, and Parseval bounds the rest:
//!    `|P - 1/M| <= sqrt(2) (|z| + 2^-32)^W + 3 * 65536^-W` with `W` full
//!    random data words, whatever the known bytes (condition on their flips).
//!    Then `P_ud = 1/M - (1-p)^n` within that bound.
//! 3. **Mirror** (`p > 1/2`): with `e' = !e` (BER `1 - p`), the change of `e` is
//!    `2c + 0xFF00 [odd] - change(e')`, so
//!    `P_ud(p) = P_{1-p}(change = tau) - (1-p)^n`, `tau = 2c + 0xFF00 [odd]`,
//!    computed by method 1 at BER `1 - p` with a target.
//!
//! Segments with at most 16 random data bits are computed by enumerating the
//! data (each value's field computed as a sender would, then the exact
//! given-payload method); BER 1 is deterministic (`P_ud = [tau = 0]`); BER
//! 1/2 makes the received bits independent of the sent ones, so every model
//! agrees and the independent-field model is exact there.

use super::{
    Directions, MODULUS, Spectrum, WIDTH, byte_columns, carry_target, column_counts,
    p_undetected_payload,
};
use crate::bsc;
use crate::checksum::ones_complement_sum;
use crate::error::{Error, Result};
use crate::series::Sum;
use rayon::prelude::*;

/// Relative accuracy every answer of this model is certified to.
const MODEL_TOLERANCE: f64 = 1e-13;
/// Up to this many random data bits the data are enumerated.
const ENUMERATE_BITS: u64 = 16;

/// Where the random and known bits of a segment lie (the field excluded).
#[derive(Debug, Clone)]
pub(super) struct Layout {
    /// Random data bits per column.
    random: [u64; WIDTH],
    /// Known bytes' bits per column, by flip direction.
    fixed: Directions,
    /// Words whose two bytes are both random data.
    full_words: u64,
    /// Random data bits in all.
    random_bits: u64,
    /// Transmitted bits.
    bits: u64,
    /// The change that every bit flipping produces: `2c + 0xFF00 [odd] mod M`.
    pub(super) tau: u64,
    /// Known bytes all zero and no constant: all-zero data then gives the
    /// field 0xFFFF instead of 0x0000 (probability `2^-random_bits`).
    zero_fold: bool,
}

fn no_field(bytes: u64) -> Error {
    Error::BadLength(format!(
        "{bytes} bytes leave no data beside the 2-byte checksum field (at least 3 needed)"
    ))
}

impl Layout {
    /// Every byte random except the field (at offset 0).
    pub(super) fn random(bytes: u64) -> Self {
        let mut random = column_counts(bytes);
        random.iter_mut().for_each(|r| *r -= 1);
        let odd = bytes % 2 == 1;
        Layout {
            random,
            fixed: Directions {
                up: [0; WIDTH],
                down: [0; WIDTH],
            },
            full_words: bytes / 2 - 1,
            random_bits: 8 * (bytes - 2),
            bits: 8 * bytes,
            tau: if odd { 0xFF00 } else { 0 },
            zero_fold: true,
        }
    }

    pub(super) fn new(bytes: &[Option<u8>], field: usize, constant: u16) -> Result<Self> {
        if field % 2 == 1 || field + 2 > bytes.len() {
            return Err(Error::BadLength(format!(
                "the checksum field at byte {field} must start a 16-bit word of the {} bytes",
                bytes.len()
            )));
        }
        let mut random = [0u64; WIDTH];
        let mut fixed = Directions {
            up: [0; WIDTH],
            down: [0; WIDTH],
        };
        let mut zero_fold = constant == 0;
        for (o, b) in bytes.iter().enumerate() {
            if o == field || o == field + 1 {
                continue;
            }
            match *b {
                Some(v) => {
                    fixed.add_byte(o, v);
                    zero_fold &= v == 0;
                }
                None => random[byte_columns(o)..][..8]
                    .iter_mut()
                    .for_each(|r| *r += 1),
            }
        }
        let full_words = (0..bytes.len() / 2)
            .filter(|&i| 2 * i != field && bytes[2 * i].is_none() && bytes[2 * i + 1].is_none())
            .count() as u64;
        let odd = bytes.len() % 2 == 1;
        let m = MODULUS;
        Ok(Layout {
            random,
            fixed,
            full_words,
            random_bits: random.iter().sum(),
            bits: 8 * bytes.len() as u64,
            tau: (2 * (constant as u64 % m) + if odd { 0xFF00 } else { 0 }) % m,
            zero_fold,
        })
    }

    /// `2^-random_bits` where all-zero data fold differently, else 0.
    fn zero_fold_mass(&self) -> f64 {
        if self.zero_fold {
            (-(self.random_bits as f64)).exp2()
        } else {
            0.0
        }
    }
}

/// Exact `P_ud` of the Internet checksum over `bytes` transmitted bytes of
/// uniformly random data, the 2-byte field computed from them as a sender
/// would (no pseudo-header), at bit error rate `p`; see the module docs of
/// [`super`] for the conventions and of this model for the methods. Refused
/// (with the bound that failed) where no method certifies `1e-13` relative.
///
/// ```
/// use aliasing_core::internet::p_undetected;
/// let p = p_undetected(1500, 1.5e-5).unwrap();
/// assert!(p > 0.0 && p < 1e-3);
/// // Flipping every bit of a valid even-length frame leaves it valid.
/// assert_eq!(p_undetected(100, 1.0).unwrap(), 1.0);
/// ```
pub fn p_undetected(bytes: u64, p: f64) -> Result<f64> {
    bsc::check_ber(p)?;
    if bytes < 3 {
        return Err(no_field(bytes));
    }
    if p == 0.0 {
        return Ok(0.0);
    }
    // every escape flips at least 2 bits (one flip changes the sum by
    // +-2^k): P <= (n p)^2, below half the smallest subnormal it rounds to 0
    let n = 8.0 * bytes as f64;
    if (n * p) * (n * p) == 0.0 {
        return Ok(0.0);
    }
    if 8 * (bytes - 2) <= ENUMERATE_BITS {
        return p_undetected_mixed(&vec![None; bytes as usize], 0, 0, p);
    }
    certified(&Layout::random(bytes), p)
}

/// `P_ud` in the model where the field is uniform on its 65535 values
/// `0x0000..=0xFFFE` and independent of the data (every data bit a fair
/// coin): exact for that model by the carry chain, and within a certified
/// bound of the real model [`p_undetected`] at low and moderate BER (the
/// difference is of order `2^(8 - 16 m)`, `m` untouched random bits per
/// column). Needs at least 3 bytes. (A test's reference; at 1500 bytes and
/// BER 1.5e-5 it agrees with [`p_undetected`] to 1e-13, tested.)
#[cfg(feature = "unit-tests")] // an independent method, the tests' reference
pub(crate) fn p_undetected_real_field(bytes: u64, p: f64) -> Result<f64> {
    bsc::check_ber(p)?;
    if bytes < 3 {
        return Err(no_field(bytes));
    }
    if p == 0.0 {
        return Ok(0.0);
    }
    independent_field(&Layout::random(bytes), 0, p)
}

/// Exact `P_ud` of a codeword whose covered bytes are partly known and partly
/// uniformly random, the checksum field computed from them as a sender would:
/// a TCP segment with a known header and random payload, say. `bytes` lists
/// the transmitted covered bytes in word order (`None` for a random byte; the
/// entries at `field` and `field + 1` are ignored), `field` is the even offset
/// of the 2-byte field and `constant` the folded ones'-complement sum of the
/// words summed but not sent (a pseudo-header's protocol and length; 0 for
/// none). Needs at least one random byte; with none the field is known and
/// [`p_undetected_payload`] applies.
///
/// ```
/// use aliasing_core::__private::internet::p_undetected_mixed;
/// use aliasing_core::internet::p_undetected;
/// // 20 known header bytes, the field at offset 16, 1440 random payload bytes.
/// let mut seg: Vec<Option<u8>> = (0..20u8).map(|b| Some(b * 7)).collect();
/// seg.extend(std::iter::repeat(None).take(1440));
/// let mixed = p_undetected_mixed(&seg, 16, 6, 1.5e-5).unwrap();
/// let random = p_undetected(1460, 1.5e-5).unwrap();
/// assert!(mixed > 0.0 && (mixed / random - 1.0).abs() < 0.05);
/// // with a pseudo-header constant, flipping every bit never escapes
/// assert_eq!(p_undetected_mixed(&seg, 16, 6, 1.0).unwrap(), 0.0);
/// ```
pub fn p_undetected_mixed(
    bytes: &[Option<u8>],
    field: usize,
    constant: u16,
    p: f64,
) -> Result<f64> {
    bsc::check_ber(p)?;
    let layout = Layout::new(bytes, field, constant)?;
    if layout.random_bits == 0 {
        return Err(Error::Invalid(
            "no random byte: the field is known, use the given-payload method".into(),
        ));
    }
    if p == 0.0 {
        return Ok(0.0);
    }
    if layout.random_bits <= ENUMERATE_BITS {
        return enumerate(bytes, field, constant, p);
    }
    certified(&layout, p)
}

/// Averages the exact given-payload probability over every value of the
/// random bytes, the field computed from each.
fn enumerate(bytes: &[Option<u8>], field: usize, constant: u16, p: f64) -> Result<f64> {
    let free: Vec<usize> = (0..bytes.len())
        .filter(|&o| o != field && o != field + 1 && bytes[o].is_none())
        .collect();
    let count = 1u64 << (8 * free.len());
    let values: Vec<f64> = (0..count)
        .into_par_iter()
        .map(|v| {
            let mut frame: Vec<u8> = bytes.iter().map(|b| b.unwrap_or(0)).collect();
            for (i, &o) in free.iter().enumerate() {
                frame[o] = (v >> (8 * i)) as u8;
            }
            frame[field] = 0;
            frame[field + 1] = 0;
            let sum = ones_complement_sum(&frame, constant);
            frame[field..field + 2].copy_from_slice(&(!sum).to_be_bytes());
            p_undetected_payload(&frame, p)
        })
        .collect::<Result<_>>()?;
    let mut acc = Sum::default();
    values.iter().for_each(|&v| acc.add(v));
    Ok(acc.value() / count as f64)
}

/// The first certified method that applies (see the module docs).
fn certified(l: &Layout, p: f64) -> Result<f64> {
    if p == 0.0 {
        return Ok(0.0); // no bit is ever in error
    }
    if p == 1.0 {
        return Ok((l.tau == 0) as u8 as f64);
    }
    if p == 0.5 {
        // received bits independent of the sent ones: every model agrees
        return independent_field(l, 0, p);
    }
    let n = l.bits as f64;
    let clean = f64::exp(n * f64::ln_1p(-p));
    let mut failed = Vec::new();
    // 1. independent field plus coupling bound
    if p < 0.5 {
        let b = coupling_bound(l, p);
        match independent_field(l, 0, p) {
            Ok(v) if b <= MODEL_TOLERANCE * v => return Ok(v),
            Ok(v) => failed.push(format!("coupling bound {b:.1e} against {v:.3e}")),
            Err(e) => failed.push(e.to_string()),
        }
    }
    // 2. uniform received word
    let m = MODULUS as f64;
    let w = l.full_words as f64;
    let z = (1.0 - 2.0 * p).abs();
    let b = std::f64::consts::SQRT_2 * (z + 2f64.powi(-32)).powf(w)
        + 3.0 * (-16.0 * w).exp2()
        + l.zero_fold_mass();
    let base = 1.0 / m - clean;
    if clean < 1e-3 / m && b <= MODEL_TOLERANCE * base {
        return Ok(base);
    }
    failed.push(format!("mid-range bound {b:.1e} against {base:.3e}"));
    // 3. mirror
    if p > 0.5 {
        let q = 1.0 - p; // exact for p in (1/2, 1)
        let b = coupling_bound(l, q);
        let any = independent_field(l, l.tau, q).map(|v| {
            v + if l.tau == 0 {
                f64::exp(n * f64::ln_1p(-q))
            } else {
                0.0
            }
        });
        match any {
            Ok(a) => {
                let v = a - clean;
                if clean <= 1e-3 * a && b <= MODEL_TOLERANCE * v {
                    return Ok(v);
                }
                failed.push(format!("mirrored coupling bound {b:.1e} against {v:.3e}"));
            }
            Err(e) => failed.push(e.to_string()),
        }
    }
    Err(Error::Limit(crate::error::Limit::FieldAccuracy {
        ber: p,
        bits: l.bits,
        words: l.full_words,
        reason: failed.join("; "),
    }))
}

/// `P(change = target mod M, at least one flip)` when the field is uniform on
/// `0x0000..=0xFFFE` and independent of the data: `P_A + (P_A - P_F) / M`,
/// where `P_A` takes the field's bits as fair coins (uniform on all 65536
/// values) and `P_F` fixes the field to 0xFFFF.
pub(super) fn independent_field(l: &Layout, target: u64, p: f64) -> Result<f64> {
    let solve = |random: &[u64; WIDTH], down: &[u64; WIDTH]| -> Result<f64> {
        if let Some(v) = carry_target(random, &l.fixed.up, down, target, p) {
            return Ok(v);
        }
        if -(l.bits as f64) * f64::ln_1p(-p) > 20.0 {
            return Ok(Spectrum::new(WIDTH, p).mixed(random, &l.fixed.up, down, target));
        }
        Err(Error::Limit(crate::error::Limit::Accuracy {
            what: "segment",
            ber: p,
        }))
    };
    let pa = solve(&l.random.map(|r| r + 1), &l.fixed.down)?;
    let pf = solve(&l.random, &l.fixed.down.map(|d| d + 1))?;
    Ok(pa + (pa - pf) / MODULUS as f64)
}

/// Bound on `|P_exact - P_independent_field|` at BER `p` (method 1 of the
/// module docs), the all-zero data fold included.
pub(super) fn coupling_bound(l: &Layout, p: f64) -> f64 {
    let r_min = *l.random.iter().min().expect("16 columns");
    let p_field = -f64::exp_m1(16.0 * f64::ln_1p(-p));
    let p_data = -f64::exp_m1(l.random_bits as f64 * f64::ln_1p(-p));
    // E[2^(-16 m); a data bit flips], m = fewest unflipped random bits in a column
    let mut e = 0.0;
    for j in 0..=r_min {
        let w = (-16.0 * j as f64).exp2();
        if j >= 8 {
            e += p_data * w / (1.0 - (-16f64).exp2());
            break;
        }
        let p_m = if j == r_min {
            p_data
        } else {
            l.random
                .iter()
                .map(|&r| binomial_top(r, p, j))
                .sum::<f64>()
                .min(p_data)
        };
        e += p_m * w;
    }
    let all_field = p.powi(16) * (-16.0 * r_min as f64).exp2();
    256.0 * (p_field * e + all_field) + l.zero_fold_mass()
}

/// `P(Binomial(n, p) >= n - j)` for small `j`.
fn binomial_top(n: u64, p: f64, j: u64) -> f64 {
    let (lp, lq) = (p.ln(), f64::ln_1p(-p));
    let mut ln_c = 0.0;
    let mut total = 0.0;
    for i in 0..=j.min(n) {
        if i > 0 {
            ln_c += ((n - i + 1) as f64).ln() - (i as f64).ln();
        }
        total += f64::exp(ln_c + (n - i) as f64 * lp + i as f64 * lq);
    }
    total
}
