//! Exact escape probability of the Internet checksum (RFC 1071) on the binary
//! symmetric channel: for uniformly random data, and for a given payload.
//!
//! # Model and conventions
//!
//! - **The codeword** is every byte the checksum covers *and that is
//!   transmitted*: the TCP/UDP/IP header and data, the checksum field
//!   included. `bytes` counts those bytes; `bits = 8 * bytes`. A TCP/UDP
//!   pseudo-header is summed but never transmitted, so it is never flipped and
//!   does not change the answer. An odd trailing byte is padded with a zero byte
//!   (RFC 1071); the pad is not transmitted, so it is never flipped.
//! - Words are big-endian 16-bit: byte `2i` holds bit columns 8..15 of word `i`,
//!   byte `2i+1` columns 0..7.
//! - A flip of bit column `k` changes the ones'-complement sum by `+2^k` if the
//!   bit was 0 and `-2^k` if it was 1 (mod `M = 65535`). The receiver's sum is
//!   `0 mod M` before the errors, so **an error pattern escapes iff at least one
//!   bit flipped and the total change is `0 mod 65535`**. This includes a word
//!   going `0x0000 <-> 0xFFFF` (ones' complement's two zeros). The one
//!   convention to state: a received total of exactly `+0` (every covered word
//!   received as zero, pseudo-header included) is counted as an escape; it
//!   cannot happen under a pseudo-header, whose protocol field is non-zero.
//! - **Random data**: every transmitted bit, the checksum field included, is an
//!   independent fair coin, so each flip goes up or down with probability 1/2.
//!   (A real checksum field is a function of the other words: uniform on its
//!   65535 values `0x0000..=0xFFFE`, and nearly independent of the few data
//!   bits an error touches. `p_undetected_real_field` (a test reference) computes that model.
//!   A weight-2 escape through the field's word has the same probability 1/2
//!   either way, so the two models differ only through heavier patterns: by
//!   7e-12 relative at 64 bytes and 3e-13 at 1500 bytes, BER 1.5e-5.)
//! - **Given payload**: the flip direction of every bit is fixed by its value.
//!
//! # Methods (both exact; each tested against the other and against brute force)
//!
//! Write `D_k` for the net change (up flips minus down flips) in bit column
//! `k`. The total change is `V = sum_k 2^k D_k`.
//!
//! 1. **Column carry chain** (`carry_random`, `carry_payload`).
//!    `V = t M` for an integer `t` iff `V + t = t 2^w`; with carry `c_0 = t`,
//!    `c_{k+1} = (c_k + D_k) / 2` (which must be whole) and `c_w = t`. A sum
//!    over `t`, carries and column changes, every term a product of
//!    probabilities: no subtraction anywhere, so the relative error stays near
//!    the number of operations times `f64::EPSILON` at every BER. The column
//!    distributions are cut at `F` flips per column; the neglected mass is
//!    bounded (binomial tails) and the answer is accepted only when that bound
//!    is below `1e-13` of it. Cost `O(w (2F+1)^3)`, small at low BER.
//! 2. **Characteristic function over `Z_M`** (`fourier_random`):
//!    `P(V = 0 mod M) = (1/M) sum_j prod_k (1 - p + p cos(2 pi j 2^k / M))^{W_k}`.
//!    At small `n p` the `- (1-p)^n` cancels catastrophically; we factor
//!    `(1-p)^n` out (`q = p/(1-p)`) and remove the first-order terms
//!    analytically (they sum to zero over `j`: multiplication by `2^k` permutes
//!    `Z_M`): with `L_j = sum_k W_k cos_k` and
//!    `R_j = sum_k W_k (ln(1 + q cos_k) - q cos_k)`,
//!    `P = (1-p)^n / M * sum_j [ (exp(z) - 1 - z) + R_j ]`, `z = q L_j + R_j`,
//!    where both brackets are evaluated by series near zero. The result is
//!    dominated by the second-order term `q^2 sum_k W_k (W_k - 1) / 4`, and
//!    the rounding error is a few `EPSILON * (W+1)/(W-1)` relative for any
//!    codeword of at least two words. At large `n p` (where `(1-p)^n < e^-20`)
//!    the plain sum is used: every term is non-negative for `p <= 1/2`.
//!    Cost `O(16 M)` per length and BER.
//!
//! [`p_undetected`] and [`p_undetected_payload`] pick the method: the carry
//! chain where its truncation bound is met (low and moderate BER), otherwise
//! the characteristic function.
//!
//! # The study's TCP figure
//!
//! The study simulated 1500-byte packets at a BER of about 1.5e-5 and saw 45
//! escapes among 16,743 errored packets (0.0027). The exact random-data value
//! is `P(alias | error) = 2.5787e-3` at BER 1.5e-5 (`2.6210e-3` at 1.5270e-5,
//! the BER that makes 16,743 of 100,001 packets errored); the 95%
//! Clopper-Pearson interval of 45/16743 is [1.961e-3, 3.595e-3], so the
//! study's number is within its sampling error (43.2 escapes expected).
//! Figure 8 (aliasing against packet size):
//! `alias compare --checks internet --bytes 64:9000:64 --ber 1.5e-5`, or
//! `cargo run --release -p aliasing-examples --example figure8` (with
//! all-zero and text payloads beside random data).
//!
//! ```
//! use aliasing_core::internet;
//! // The study's TCP case: 1500-byte packets at BER 1.5e-5.
//! let pt = &internet::curve(&[1500], &[1.5e-5]).unwrap()[0];
//! assert!(pt.p_alias_given_error > 1e-3 && pt.p_alias_given_error < 1e-2);
//! ```

use crate::bsc::{self, CurvePoint};
use crate::error::{Error, Result};
use crate::series::{Sum, expm1_minus, ln1p_minus};
use rayon::prelude::*;

/// Word width of the Internet checksum in bits.
pub(crate) const WIDTH: usize = 16;
/// Modulus of the ones'-complement sum: `2^16 - 1`.
pub(crate) const MODULUS: u64 = 65535;
/// Check bits of the Internet checksum.
pub(crate) const CHECK_BITS: u64 = 16;

/// Largest cut (flips per column) the carry chain tries before falling back.
const MAX_CUT: usize = 64;
/// Relative bound on the neglected mass for the carry chain to be accepted.
const CUT_TOLERANCE: f64 = 1e-13;

/// Number of transmitted bits in each bit column `k = 0..15` of a codeword
/// of `bytes` bytes: the word count, less one in columns 0..7 for an odd length
/// (the pad byte is not transmitted).
///
/// ```
/// let w = aliasing_core::internet::column_counts(3);
/// assert_eq!((w[0], w[8]), (1, 2));
/// ```
#[doc(hidden)] // internal: public for the benches only
pub fn column_counts(bytes: u64) -> [u64; WIDTH] {
    let words = bytes.div_ceil(2);
    let mut w = [words; WIDTH];
    if bytes % 2 == 1 {
        for c in w.iter_mut().take(8) {
            *c -= 1;
        }
    }
    w
}

/// The first bit column of the byte at offset `i`: words are big-endian, so
/// an even byte holds columns 8..15 and an odd one 0..7.
fn byte_columns(i: usize) -> usize {
    if i.is_multiple_of(2) { 8 } else { 0 }
}

/// Flip directions fixed by a payload: per bit column, how many transmitted
/// bits are 0 (a flip adds `2^k`) and how many are 1 (a flip subtracts `2^k`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Directions {
    /// Bits equal to 0 in column `k`: flips there go up.
    pub up: [u64; WIDTH],
    /// Bits equal to 1 in column `k`: flips there go down.
    pub down: [u64; WIDTH],
}

impl Directions {
    /// Counts the bits of `payload` (big-endian words; an odd last byte is the
    /// high byte of a word whose pad byte is not transmitted).
    pub fn from_payload(payload: &[u8]) -> Self {
        let mut d = Directions {
            up: [0; WIDTH],
            down: [0; WIDTH],
        };
        for (i, &b) in payload.iter().enumerate() {
            d.add_byte(i, b);
        }
        d
    }

    /// Counts the bits of `byte` at byte offset `i` of the codeword.
    fn add_byte(&mut self, i: usize, byte: u8) {
        let base = byte_columns(i);
        for bit in 0..8 {
            if (byte >> bit) & 1 == 1 {
                self.down[base + bit] += 1;
            } else {
                self.up[base + bit] += 1;
            }
        }
    }

    /// Total transmitted bits.
    pub fn bits(&self) -> u64 {
        self.up.iter().chain(self.down.iter()).sum()
    }

    /// The change `sum_k 2^k (up_k - down_k) mod M` when every bit flips.
    pub fn change_when_all_flip(&self) -> u64 {
        let m = MODULUS as i128;
        let v: i128 = (0..WIDTH)
            .map(|k| (1i128 << k) * (self.up[k] as i128 - self.down[k] as i128))
            .sum();
        v.rem_euclid(m) as u64
    }

    /// Number of weight-2 error patterns that escape: `sum_k up_k * down_k`
    /// (both flips in one column, opposite original values).
    #[cfg(feature = "unit-tests")] // an independent method, the tests' reference
    pub fn escaping_pairs(&self) -> u64 {
        self.up.iter().zip(&self.down).map(|(u, d)| u * d).sum()
    }
}

/// Exact `P_ud` over `bytes` transmitted bytes when every bit, the checksum
/// field's included, is an independent fair coin: a building block of the
/// real model [`p_undetected`], where the field is computed from the data.
///
/// ```
/// let p = aliasing_core::internet::p_undetected_coins(1500, 1.5e-5).unwrap();
/// assert!(p > 0.0 && p < 1e-3);
/// ```
#[doc(hidden)] // internal: reached through `crate::__private`
pub fn p_undetected_coins(bytes: u64, p: f64) -> Result<f64> {
    bsc::check_ber(p)?;
    if bytes == 0 {
        return Err(Error::BadLength("a codeword of 0 bytes".into()));
    }
    let counts = column_counts(bytes);
    if p == 0.0 {
        return Ok(0.0);
    }
    if (p <= 0.5 || counts[8] <= MAX_CUT as u64)
        && let Some(v) = carry_random(&counts, p)
    {
        return Ok(v);
    }
    Ok(Spectrum::new(WIDTH, p).random(&counts))
}

/// Exact `P_ud` of the Internet checksum when the transmitted bytes are
/// `payload` (checksum field included, as sent): the flip directions are
/// fixed by the payload's bits.
///
/// ```
/// use aliasing_core::internet::p_undetected_payload;
/// // All-zero data: every flip adds, so at least 16 flips are needed.
/// let zero = p_undetected_payload(&[0u8; 64], 1e-3).unwrap();
/// let text = p_undetected_payload(&b"The quick brown fox jumps over the lazy dog. ".repeat(2)[..64], 1e-3).unwrap();
/// let random = aliasing_core::internet::p_undetected(64, 1e-3).unwrap();
/// assert!(zero < 1e-20 && zero > 0.0);
/// assert!(text > random / 10.0 && text < random * 10.0);
/// ```
pub fn p_undetected_payload(payload: &[u8], p: f64) -> Result<f64> {
    bsc::check_ber(p)?;
    if payload.is_empty() {
        return Err(Error::BadLength("an empty payload".into()));
    }
    if p == 0.0 {
        return Ok(0.0);
    }
    let d = Directions::from_payload(payload);
    if p == 1.0 {
        // every bit flips: the change is fixed
        return Ok((d.change_when_all_flip() == 0) as u8 as f64);
    }
    if let Some(v) = carry_payload(&d.up, &d.down, p) {
        return Ok(v);
    }
    let n = d.bits();
    if -(n as f64) * f64::ln_1p(-p) > 20.0 {
        return Ok(Spectrum::new(WIDTH, p).mixed(&[0; WIDTH], &d.up, &d.down, 0));
    }
    Err(Error::Limit(crate::error::Limit::Accuracy {
        what: "payload",
        ber: p,
    }))
}

/// An aliasing curve for random data: one point per (BER, length in bytes),
/// BER-major (every length for the first BER, then the next), as in
/// `curve::exact`. `bits = 8 * bytes`, `data_bits = bits - 16`.
pub fn curve(bytes: &[u64], bers: &[f64]) -> Result<Vec<CurvePoint>> {
    for &p in bers {
        bsc::check_ber(p)?;
    }
    if let Some(&b) = bytes.iter().find(|&&b| b == 0) {
        return Err(Error::BadLength(format!("a codeword of {b} bytes")));
    }
    let jobs: Vec<(u64, f64)> = bers
        .iter()
        .flat_map(|&p| bytes.iter().map(move |&b| (b, p)))
        .collect();
    jobs.par_iter()
        .map(|&(b, p)| Ok(CurvePoint::new(p, 8 * b, CHECK_BITS, p_undetected(b, p)?)))
        .collect()
}

/// An aliasing curve for a given payload: for each length `l` the codeword is
/// the first `l` bytes of `payload` (the whole payload when `lengths` is
/// empty). BER-major, like [`curve`].
pub fn curve_payload(payload: &[u8], lengths: &[u64], bers: &[f64]) -> Result<Vec<CurvePoint>> {
    for &p in bers {
        bsc::check_ber(p)?;
    }
    let all = [payload.len() as u64];
    let lengths = if lengths.is_empty() {
        &all[..]
    } else {
        lengths
    };
    for &l in lengths {
        if l == 0 || l > payload.len() as u64 {
            return Err(Error::BadLength(format!(
                "{l} bytes of a {}-byte payload",
                payload.len()
            )));
        }
    }
    let jobs: Vec<(u64, f64)> = bers
        .iter()
        .flat_map(|&p| lengths.iter().map(move |&b| (b, p)))
        .collect();
    jobs.par_iter()
        .map(|&(l, p)| {
            let v = p_undetected_payload(&payload[..l as usize], p)?;
            Ok(CurvePoint::new(p, 8 * l, CHECK_BITS, v))
        })
        .collect()
}

// ---------------------------------------------------------------------------
// Column carry chain.

/// The distribution of the net change `D` of one column, cut at `F` flips.
#[derive(Debug, Clone)]
pub(crate) struct ColumnLaw<T> {
    /// Probability that no bit of the column flips.
    pub clean: T,
    /// `flip[d + F]`: probability of at least one flip and net change `d`.
    pub flip: Vec<T>,
    /// Upper bound on the mass left out by the cut.
    pub tail: f64,
}

/// Arithmetic the carry chain needs: `f64`, or exact rationals in tests.
pub(crate) trait Semiring: Clone {
    /// Additive identity.
    fn zero() -> Self;
    /// Multiplicative identity.
    fn one() -> Self;
    /// `self + other`.
    fn add(&self, other: &Self) -> Self;
    /// `self * other`.
    fn mul(&self, other: &Self) -> Self;
    /// `true` if exactly zero (lets the chain skip work).
    fn is_zero(&self) -> bool;
}

impl Semiring for f64 {
    fn zero() -> Self {
        0.0
    }
    fn one() -> Self {
        1.0
    }
    fn add(&self, o: &Self) -> Self {
        self + o
    }
    fn mul(&self, o: &Self) -> Self {
        self * o
    }
    fn is_zero(&self) -> bool {
        *self == 0.0
    }
}

/// `P(at least one flip and sum_k 2^k D_k = 0 mod 2^w - 1)` for independent
/// column changes `D_k` (`w = laws.len()`), each cut at `cut` flips, by the
/// cyclic carry chain. Every operation is an addition or multiplication of
/// non-negative numbers.
pub(crate) fn carry_chain<T: Semiring>(laws: &[ColumnLaw<T>], cut: usize) -> T {
    let f = cut as i64;
    let size = 2 * cut + 1;
    let mut total = T::zero();
    let ranges: Vec<(i64, i64)> = laws
        .iter()
        .map(|l| {
            let nz: Vec<i64> = (0..size)
                .filter(|&i| !l.flip[i].is_zero())
                .map(|i| i as i64 - f)
                .collect();
            (
                nz.first().copied().unwrap_or(0).min(0),
                nz.last().copied().unwrap_or(0).max(0),
            )
        })
        .collect();
    // a0: no flip yet (a single carry path), a1: at least one flip; b0 and
    // b1 the next column's, swapped in after each column (allocated once)
    let mut a0 = vec![T::zero(); size];
    let mut a1 = vec![T::zero(); size];
    let mut b0 = vec![T::zero(); size];
    let mut b1 = vec![T::zero(); size];
    for t in -f..=f {
        a0.fill(T::zero());
        a1.fill(T::zero());
        a0[(t + f) as usize] = T::one();
        for (law, &(dlo, dhi)) in laws.iter().zip(&ranges) {
            b0.fill(T::zero());
            b1.fill(T::zero());
            for c in -f..=f {
                let ci = (c + f) as usize;
                let (x0, x1) = (&a0[ci], &a1[ci]);
                if x0.is_zero() && x1.is_zero() {
                    continue;
                }
                // d with c + d even
                let mut d = dlo;
                if (c + d).rem_euclid(2) != 0 {
                    d += 1;
                }
                while d <= dhi {
                    let nc = ((c + d) / 2 + f) as usize;
                    let fl = &law.flip[(d + f) as usize];
                    if d == 0 {
                        if !x0.is_zero() {
                            b0[nc] = b0[nc].add(&x0.mul(&law.clean));
                            b1[nc] = b1[nc].add(&x0.mul(fl));
                        }
                        if !x1.is_zero() {
                            b1[nc] = b1[nc].add(&x1.mul(&law.clean.add(fl)));
                        }
                    } else if !fl.is_zero() {
                        if !x0.is_zero() {
                            b1[nc] = b1[nc].add(&x0.mul(fl));
                        }
                        if !x1.is_zero() {
                            b1[nc] = b1[nc].add(&x1.mul(fl));
                        }
                    }
                    d += 2;
                }
            }
            std::mem::swap(&mut a0, &mut b0);
            std::mem::swap(&mut a1, &mut b1);
        }
        total = total.add(&a1[(t + f) as usize]);
    }
    total
}

/// Binomial(n, p) probabilities for 0..=cut (cut at n) and a bound on the mass
/// above `cut`; `None` if `(1-p)^n` underflows.
fn binomial_head(n: u64, p: f64, cut: usize) -> Option<(Vec<f64>, f64)> {
    let p0 = f64::exp(n as f64 * f64::ln_1p(-p));
    if p0 < 1e-290 {
        return None;
    }
    let q = p / (1.0 - p);
    let top = (cut as u64).min(n) as usize;
    let mut pm = Vec::with_capacity(top + 1);
    let mut x = p0;
    pm.push(x);
    for k in 0..top as u64 {
        x *= (n - k) as f64 / (k + 1) as f64 * q;
        pm.push(x);
    }
    // tail: sum of the terms above the cut, summed until they no longer matter
    let mut tail = 0.0;
    let mut k = top as u64;
    while k < n {
        x *= (n - k) as f64 / (k + 1) as f64 * q;
        k += 1;
        tail += x;
        if (k as f64) > (n as f64) * p + 1.0 && x <= tail * 1e-18 {
            // past the mode the terms fall at least geometrically; bound the rest
            let r = (n - k) as f64 / (k + 1) as f64 * q;
            if r < 0.5 {
                tail += x * r / (1.0 - r);
                break;
            }
        }
        if x == 0.0 {
            break;
        }
    }
    Some((pm, tail))
}

/// `C(f, u) / 2^f` for `u = 0..=f`.
fn half_binomial_row(f: usize) -> Vec<f64> {
    let mut row = vec![1.0f64];
    for _ in 0..f {
        let mut next = vec![0.0; row.len() + 1];
        for (i, &v) in row.iter().enumerate() {
            next[i] += v * 0.5;
            next[i + 1] += v * 0.5;
        }
        row = next;
    }
    row
}

/// Column law for random data: `n` bits, each flipping with probability `p`,
/// each flip `+1` or `-1` with probability 1/2.
fn random_law(n: u64, p: f64, cut: usize) -> Option<ColumnLaw<f64>> {
    let (pm, tail) = binomial_head(n, p, cut)?;
    let mut flip = vec![0.0; 2 * cut + 1];
    for (fl, &pf) in pm.iter().enumerate().skip(1) {
        for (u, h) in half_binomial_row(fl).into_iter().enumerate() {
            let d = 2 * u as i64 - fl as i64;
            flip[(d + cut as i64) as usize] += pf * h;
        }
    }
    Some(ColumnLaw {
        clean: pm[0],
        flip,
        tail,
    })
}

/// Column law for fixed directions: `up` bits flip to `+1`, `down` to `-1`.
fn payload_law(up: u64, down: u64, p: f64, cut: usize) -> Option<ColumnLaw<f64>> {
    let (pu, tu) = binomial_head(up, p, cut)?;
    let (pd, td) = binomial_head(down, p, cut)?;
    let mut flip = vec![0.0; 2 * cut + 1];
    for (u, &a) in pu.iter().enumerate() {
        for (l, &b) in pd.iter().enumerate() {
            if u + l > 0 {
                flip[(u as i64 - l as i64 + cut as i64) as usize] += a * b;
            }
        }
    }
    Some(ColumnLaw {
        clean: pu[0] * pd[0],
        flip,
        tail: tu + td,
    })
}

/// The law of the sum of two independent column changes, cut at `cut`.
fn convolve(a: &ColumnLaw<f64>, b: &ColumnLaw<f64>, cut: usize) -> ColumnLaw<f64> {
    let size = 2 * cut + 1;
    let f = cut as i64;
    let mut flip = vec![0.0; size];
    let mut dropped = 0.0;
    let mut put = |d: i64, v: f64| {
        if d.abs() <= f {
            flip[(d + f) as usize] += v;
        } else {
            dropped += v;
        }
    };
    for (x, &fa) in a.flip.iter().enumerate() {
        let x = x as i64 - f;
        if fa == 0.0 {
            continue;
        }
        put(x, fa * b.clean);
        for (y, &fb) in b.flip.iter().enumerate() {
            if fb != 0.0 {
                put(x + y as i64 - f, fa * fb);
            }
        }
    }
    for (y, &fb) in b.flip.iter().enumerate() {
        put(y as i64 - f, a.clean * fb);
    }
    ColumnLaw {
        clean: a.clean * b.clean,
        flip,
        tail: a.tail + b.tail + dropped,
    }
}

/// Runs the carry chain with growing cuts until the neglected mass is below
/// `1e-13` of the result.
fn carry_adaptive(
    max_count: u64,
    law: impl Fn(usize) -> Option<Vec<ColumnLaw<f64>>>,
) -> Option<f64> {
    let mut cuts: Vec<usize> = [8usize, 16, 32, MAX_CUT]
        .iter()
        .map(|&c| c.min(max_count.max(1) as usize))
        .collect();
    cuts.dedup();
    for cut in cuts {
        let laws = law(cut)?;
        let tail: f64 = laws.iter().map(|l| l.tail).sum();
        if tail > CUT_TOLERANCE {
            continue; // P <= 1, so the bound cannot be met
        }
        let v = carry_chain(&laws, cut);
        if tail == 0.0 || tail <= CUT_TOLERANCE * v {
            return Some(v);
        }
    }
    None
}

/// `P_ud` for random data with `counts[k]` transmitted bits in column `k`
/// (word width `counts.len()`, modulus `2^w - 1`) by the carry chain, or
/// `None` where its cut would need more than 64 flips per column.
pub(crate) fn carry_random(counts: &[u64], p: f64) -> Option<f64> {
    let max = counts.iter().copied().max().unwrap_or(0);
    carry_adaptive(max, |cut| {
        counts.iter().map(|&n| random_law(n, p, cut)).collect()
    })
}

/// `P_ud` for fixed directions (`up[k]`, `down[k]` bits in column `k`) by the
/// carry chain, or `None` where its cut would need more than 64 flips per column.
pub(crate) fn carry_payload(up: &[u64], down: &[u64], p: f64) -> Option<f64> {
    let max = up.iter().chain(down).copied().max().unwrap_or(0);
    carry_adaptive(max, |cut| {
        up.iter()
            .zip(down)
            .map(|(&u, &d)| payload_law(u, d, p, cut))
            .collect()
    })
}

/// `P_ud` with `random[k]` random bits and `up[k]`, `down[k]` fixed bits in
/// column `k`, by the carry chain (`None` where its cut would need more than
/// 64 flips per column).
#[cfg(feature = "unit-tests")] // an independent method, the tests' reference
pub(crate) fn carry_mixed(random: &[u64], up: &[u64], down: &[u64], p: f64) -> Option<f64> {
    carry_target(random, up, down, 0, p)
}

/// Like [`carry_mixed`], with the change required to be `target mod M`
/// instead of 0: for `target != 0`, `P(change = target mod M)` (no flip
/// never qualifies). `V = target + t M` is the chain of `V - target`: every
/// column's change shifted by minus the target's bit there.
pub(crate) fn carry_target(
    random: &[u64],
    up: &[u64],
    down: &[u64],
    target: u64,
    p: f64,
) -> Option<f64> {
    let max = (0..random.len())
        .map(|k| random[k] + up[k] + down[k])
        .max()
        .unwrap_or(0);
    carry_adaptive(max + (target != 0) as u64, |cut| {
        (0..random.len())
            .map(|k| {
                let law = convolve(
                    &random_law(random[k], p, cut)?,
                    &payload_law(up[k], down[k], p, cut)?,
                    cut,
                );
                Some(if target == 0 {
                    law
                } else {
                    aim(&law, (target >> k) & 1, cut)
                })
            })
            .collect()
    })
}

/// A column law shifted by `-bit`, its clean outcome folded in as a change
/// of `-bit` (for a non-zero target the clean pattern is no exception).
fn aim(law: &ColumnLaw<f64>, bit: u64, cut: usize) -> ColumnLaw<f64> {
    let f = cut as i64;
    let b = bit as i64;
    let mut flip = vec![0.0; 2 * cut + 1];
    let mut tail = law.tail;
    for (i, &v) in law.flip.iter().enumerate() {
        let d = i as i64 - f - b;
        if d < -f {
            tail += v;
        } else {
            flip[(d + f) as usize] += v;
        }
    }
    flip[(f - b) as usize] += law.clean;
    ColumnLaw {
        clean: 0.0,
        flip,
        tail,
    }
}

// ---------------------------------------------------------------------------
// Characteristic functions over Z_M.

/// Tables of the characteristic function over `Z_M`, `M = 2^w - 1`, for one BER.
struct Spectrum {
    w: usize,
    m: usize,
    p: f64,
    cos: Vec<f64>,
    sin: Vec<f64>,
    /// cos^2(pi i / M)
    ch2: Vec<f64>,
}

impl Spectrum {
    fn new(w: usize, p: f64) -> Self {
        let m = (1usize << w) - 1;
        let mut cos = Vec::with_capacity(m);
        let mut sin = Vec::with_capacity(m);
        let mut ch2 = Vec::with_capacity(m);
        for i in 0..m {
            let a = 2.0 * std::f64::consts::PI * i as f64 / m as f64;
            cos.push(a.cos());
            sin.push(a.sin());
            let h = (std::f64::consts::PI * i as f64 / m as f64).cos();
            ch2.push(h * h);
        }
        Spectrum {
            w,
            m,
            p,
            cos,
            sin,
            ch2,
        }
    }

    /// `1 - p + p cos(2 pi i / M)` as a sum of non-negative terms for p <= 1/2.
    fn factor(&self, i: usize) -> f64 {
        let p = self.p;
        if p <= 0.5 {
            (1.0 - 2.0 * p) + 2.0 * p * self.ch2[i]
        } else {
            (1.0 - p) + p * self.cos[i]
        }
    }

    /// Random data, `counts[k]` bits in column `k`.
    fn random(&self, counts: &[u64]) -> f64 {
        assert_eq!(counts.len(), self.w);
        let p = self.p;
        let n: u64 = counts.iter().sum();
        if p == 0.0 || n == 0 {
            return 0.0;
        }
        let wk: Vec<f64> = counts.iter().map(|&c| c as f64).collect();
        let s = if p < 1.0 {
            -(n as f64) * f64::ln_1p(-p)
        } else {
            f64::INFINITY
        };
        let mut acc = Sum::default();
        if s <= 20.0 && p <= 0.5 {
            let q = p / (1.0 - p);
            let u: Vec<f64> = self.cos.iter().map(|&c| ln1p_minus(q * c)).collect();
            for j in 0..self.m {
                let (mut l, mut r) = (0.0, 0.0);
                let mut idx = j;
                for &w in &wk {
                    l += w * self.cos[idx];
                    r += w * u[idx];
                    idx *= 2;
                    if idx >= self.m {
                        idx -= self.m;
                    }
                }
                let z = q * l + r;
                acc.add(expm1_minus(z) + r);
            }
            f64::exp(-s) * acc.value() / self.m as f64
        } else {
            let lf: Vec<(f64, bool)> = (0..self.m)
                .map(|i| {
                    let a = self.factor(i);
                    (a.abs().ln(), a < 0.0)
                })
                .collect();
            for j in 0..self.m {
                let mut lsum = 0.0;
                let mut neg = false;
                let mut idx = j;
                for &c in counts {
                    let (l, sg) = lf[idx];
                    if c > 0 {
                        lsum += c as f64 * l;
                        neg ^= sg && c % 2 == 1;
                    }
                    idx *= 2;
                    if idx >= self.m {
                        idx -= self.m;
                    }
                }
                let v = lsum.exp();
                acc.add(if neg { -v } else { v });
            }
            (acc.value() / self.m as f64 - f64::exp(-s)).max(0.0)
        }
    }

    /// Fixed directions; the plain sum (used where `(1-p)^n < e^-20`).
    /// `random[k]` random bits plus `up[k]`, `down[k]` fixed ones in column `k`.
    /// With `target != 0` it is `P(change = target mod M)` (no clean term).
    fn mixed(&self, random: &[u64], up: &[u64], down: &[u64], target: u64) -> f64 {
        let p = self.p;
        let n: u64 = up.iter().chain(down).chain(random).sum();
        // ln|1 - p + p cos| and pi where it is negative (p > 1/2)
        let rnd: Vec<(f64, f64)> = (0..self.m)
            .map(|i| {
                let a = self.factor(i);
                (
                    a.abs().ln(),
                    if a < 0.0 { std::f64::consts::PI } else { 0.0 },
                )
            })
            .collect();
        // ln|1 - p + p e^{i theta}| and its argument
        let tab: Vec<(f64, f64)> = (0..self.m)
            .map(|i| {
                let mag2 = (1.0 - 2.0 * p).powi(2) + 4.0 * p * (1.0 - p) * self.ch2[i];
                let arg = f64::atan2(p * self.sin[i], (1.0 - p) + p * self.cos[i]);
                (0.5 * mag2.ln(), arg)
            })
            .collect();
        let mut acc = Sum::default();
        for j in 0..self.m {
            let (mut lm, mut ar) = (0.0, 0.0);
            let mut idx = j;
            for k in 0..self.w {
                let (l, a) = tab[idx];
                lm += (up[k] + down[k]) as f64 * l;
                ar += (up[k] as f64 - down[k] as f64) * a;
                if random[k] > 0 {
                    let (rl, ra) = rnd[idx];
                    lm += random[k] as f64 * rl;
                    ar += random[k] as f64 * ra;
                }
                idx *= 2;
                if idx >= self.m {
                    idx -= self.m;
                }
            }
            // times e^{-2 pi i j target / M}: cos(ar - theta)
            let t = ((j as u64 * target) % self.m as u64) as usize;
            acc.add(lm.exp() * (ar.cos() * self.cos[t] + ar.sin() * self.sin[t]));
        }
        let clean = if target != 0 {
            0.0
        } else if p < 1.0 {
            f64::exp(n as f64 * f64::ln_1p(-p))
        } else {
            0.0
        };
        (acc.value() / self.m as f64 - clean).max(0.0)
    }
}

/// `P_ud` for random data with `counts[k]` bits in column `k` (word width
/// `w = counts.len()` up to 16, modulus `2^w - 1`) by the characteristic
/// function over `Z_M`, first-order terms removed analytically.
#[doc(hidden)] // internal: public for the benches only
pub fn fourier_random(counts: &[u64], p: f64) -> f64 {
    Spectrum::new(counts.len(), p).random(counts)
}

/// `P_ud` for fixed directions by the plain characteristic-function sum: exact
/// in exact arithmetic, accurate in `f64` only where `(1-p)^n` is far below
/// `1/M` (large `n p`); used there as the fallback of the carry chain.
#[cfg(feature = "unit-tests")] // an independent method, the tests' reference
pub(crate) fn fourier_payload(up: &[u64], down: &[u64], p: f64) -> f64 {
    Spectrum::new(up.len(), p).mixed(&vec![0; up.len()], up, down, 0)
}

pub(crate) mod field;
pub use field::p_undetected;
pub(crate) use field::p_undetected_mixed;

#[cfg(feature = "unit-tests")]
#[doc(hidden)]
pub mod tests;
