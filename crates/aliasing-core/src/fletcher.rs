//! Exact escape probability of Fletcher-16 on the frame the simulator sends,
//! at every BER where it can be certified; why Fletcher-32 and Adler-32 are
//! left to the simulator.
//!
//! # Model
//!
//! The frame of `L` bytes is `m = L - 2` uniformly random data bytes
//! `d_0 .. d_{m-1}`, then the sum computed from them as a sender would,
//! big-endian: `B = sum_i (m - i) d_i mod 255` and `A = sum_i d_i mod 255`
//! (each in `0..=254`), exactly the frame of `alias simulate --stack
//! fletcher16 --bytes L`. The receiver recomputes both sums over the
//! received data and compares them with the received field bytes; **an error
//! escapes iff at least one bit flipped and both received field bytes equal
//! the received data's sums** (a received field byte `0xFF` never matches).
//! The field is a function of the data, which decides everything near BER 1:
//! every data byte complemented is `255 - d = -d mod 255` and every field
//! byte `x` becomes `255 - x`, the right sum unless the sent sum was 0, so at
//! BER 1 a frame escapes iff neither sum is 0 (probability about 0.992).
//!
//! # Methods
//!
//! Write `S` for the sent sums (a pair in `Z_255^2`) and `D` for the change
//! the errors make to the data's sums. Given the data errors and the field
//! errors, a frame passes iff the field error is the unique one that turns
//! `S` into `S + D`.
//!
//! 1. **BER 0, 1/2 and 1, and 3-byte frames: closed forms.** At BER 1/2 the
//!    received frame is uniform: `P = 2^-16 - 2^-8L`. At BER 1,
//!    `P = P(S1 != 0, S2 != 0)` for uniform data, by the characteristic
//!    function of one uniform byte (1 at frequency 0 and exactly 1/256
//!    elsewhere; every term positive). A 3-byte frame (one data byte) is
//!    summed over every sent and received data byte (65536 non-negative terms).
//! 2. **Independent field plus coupling bound** (`p < 1/2`). If `S` were
//!    uniform and independent of `D`, `P = (1-p)^16 P_data + sum_{D != 0}
//!    P(D) k(D1) k(D2)`, with `P_data` the data-only escape (`fourier16`:
//!    no field flip, `D = 0`) and `k(d)` the probability over a uniform sum
//!    `x` that the field byte's error turns `x` into `x + d`; the sum is a
//!    characteristic function over `Z_255^2` whose one-flip terms are summed
//!    directly and removed from the transform, so nothing cancels at low BER.
//!    The real `S` is uniform up to the untouched data bytes: given the
//!    errors, each untouched byte multiplies every non-zero frequency of `S`
//!    by exactly 1/256, so `|P(S = x | errors) - 1/255^2| <= E(j) / 255^2`
//!    with `E(j) = sum_{(s,t) != 0} min(1, 256^-(c(s,t) - j))`, `c(s,t)` the
//!    data bytes with `s + t w != 0` and `j` the bytes the errors touch. Only
//!    a field error makes passing depend on `S`, and then a data byte must
//!    change too (two bits if one field byte changes and `m < 255`): the
//!    difference is at most `sum_j P(j) E(j)` weighted by those events.
//! 3. **Mirror** (`p > 1/2`): complementing the whole frame maps the
//!    errors at BER `p` to errors at BER `1 - p` on a frame whose data are
//!    `-d` and whose field bytes are `255 - x`; the same sum with that
//!    kernel, and the same bound with the bytes every bit of which flipped
//!    in place of the untouched ones (here passing always depends on `S`).
//!
//! 4. **Whole frame** (where 2 and 3 are not certified: short frames in mid
//!    range and near BER 1): one character sum over the sent and the
//!    received sums, `Z_255^4`, with no independence assumed (the `fourier4`
//!    submodule documents it). Exact up to rounding, which is bounded term
//!    by term; the sum cancels down to the no-error term at low BER, where
//!    its bound is wide. It is not run where that term's rounding alone
//!    (`(1-p)^n n eps`) exceeds the tolerance of every value the coupling
//!    bound allows. Cost about `2.6e8` products (less in mid range on long
//!    frames, where whole line directions are negligible and skipped with
//!    their bound).
//!
//! A value is returned only when the bound (coupling plus rounding, or the
//! whole-frame sum's rounding) is below `TOLERANCE` (`1e-9`) of it;
//! otherwise [`p_undetected16`] returns [`Error::Refused`] with both
//! bounds: short frames at low BER. `domain16` probes where it answers.
//! Cost `O(255^2 x classes)` for methods 1 to 3.
//!
//! # The data-only sum
//!
//! `fourier16` is the escape probability of `len` data bytes alone, their
//! weights `len - i`, every bit a fair coin (true of random data):
//! `P = (1/255^2) sum_{s,t} prod_i prod_k (1 - p + p cos(2 pi 2^k (s + t w_i) / 255)) - (1-p)^n`.
//! Bytes are grouped by weight class (at most 255 classes); multiplying
//! `(s, t)` by 2 permutes the bit columns (`2^8 = 1 mod 255`), so only one
//! pair per orbit is evaluated. `(1-p)^n` is factored out and the first- and
//! second-order terms are removed analytically: the second-order sum is
//! exactly `2 q^2 sum_w N_w (N_w - 1)` (pairs in one bit column of two bytes
//! of one weight class, i.e. 255 apart, with opposite values); the rest is
//! third order and evaluated by series. Every evaluation carries a
//! rounding-error bound.
//!
//! Fletcher-32 (mod 65535) and Adler-32 (mod 65521) have about `4.3e9` joint
//! states; the same sums would cost `4.3e9 x classes` per point, and the
//! whole-frame sum `65535^4 / 32`, about `5.8e17` products, so they are not
//! computed exactly.
//!
//! ```
//! let p = aliasing_core::fletcher::p_undetected16(600, 1e-4).unwrap();
//! assert!(p > 0.0 && p < 1e-3);
//! // complementing every byte keeps both sums unless one was 0
//! let one = aliasing_core::fletcher::p_undetected16(64, 1.0).unwrap();
//! assert!((one - (254.0f64 / 255.0).powi(2)).abs() < 1e-4);
//! ```

use crate::bsc::{self, CurvePoint};
use crate::error::{Error, Result};
use crate::series::{Sum, expm1_minus, expm1_minus2, ln1p_minus};

use rayon::prelude::*;

pub(crate) mod fourier4;

const M: usize = 255;

/// `ln(1+x) - x + x^2/2`, accurate near 0.
fn ln1p_minus2(x: f64) -> f64 {
    if x.abs() < 0.1 {
        // x^3/3 - x^4/4 + ...
        let mut s = 0.0;
        for m in (3..=21).rev() {
            let c = if m % 2 == 0 { -1.0 } else { 1.0 } / m as f64;
            s = s * x + c;
        }
        s * x * x * x
    } else {
        f64::ln_1p(x) - x + 0.5 * x * x
    }
}

/// Number of bytes in each weight class `w = (L - i) mod 255`.
fn classes(len: u64) -> Vec<u64> {
    let mut n = vec![len / M as u64; M];
    for c in n.iter_mut().skip(1).take((len % M as u64) as usize) {
        *c += 1;
    }
    n
}

/// Relative accuracy every Fletcher-16 answer is certified to.
pub(crate) const TOLERANCE: f64 = 1e-9;

/// Exact `P_ud` of Fletcher-16 on the frame `alias simulate --stack
/// fletcher16` sends: `len - 2` uniformly random data bytes, then the sum
/// `sum2 << 8 | sum1` big-endian, computed from the data as a sender would
/// (model and methods in the module docs). Certified to `TOLERANCE`
/// relative, or refused with [`Error::Refused`] naming the bound that
/// failed; `domain16` says where it answers.
pub fn p_undetected16(len: u64, p: f64) -> Result<f64> {
    bsc::check_ber(p)?;
    if len < 3 {
        return Err(Error::BadLength(format!(
            "{len} bytes is too short for Fletcher-16 (at least 3: a data byte and the 2-byte sum)"
        )));
    }
    if len > MAX_LEN {
        return Err(Error::BadLength(format!(
            "{len} bytes is over the exact Fletcher-16 method's limit of {MAX_LEN} bytes"
        )));
    }
    let n = 8.0 * len as f64;
    if p == 0.0 {
        return Ok(0.0);
    }
    if len == 3 {
        return Ok(enumerate3(p));
    }
    // every escape flips at least 2 bits: P <= (n p)^2, below half the
    // smallest subnormal it rounds to 0
    if (n * p) * (n * p) == 0.0 {
        return Ok(0.0);
    }
    if p == 0.5 {
        // the received frame is uniform: it is valid with probability 2^-16
        return Ok(2f64.powi(-16) - (-n).exp2());
    }
    let m = len - 2;
    let t = Tables::new(m);
    if p == 1.0 {
        return Ok(t.all_flip());
    }
    let (v, bound, what) = if p < 0.5 {
        // no field flip: the data bytes alone must escape
        let (data, data_err) = fourier16(m, p);
        let (tv, terr) = t.coupled(p, false);
        let clean16 = (16.0 * f64::ln_1p(-p)).exp();
        let v = clean16 * data + tv;

        (
            v,
            t.coupling_bound(p, false) + clean16 * data_err + terr,
            "coupling",
        )
    } else {
        let q = 1.0 - p; // exact for p in (1/2, 1)
        let (tv, terr) = t.coupled(q, true);
        let clean = (n * f64::ln_1p(-p)).exp();
        (
            tv - clean,
            t.coupling_bound(q, true) + terr,
            "mirrored coupling",
        )
    };
    if bound <= TOLERANCE * v && v > 0.0 {
        return Ok(v);
    }
    // the whole frame by one character sum: exact wherever its rounding bound
    // is small against the value (everywhere but low BER and BER near 1 on
    // long frames, where the sum cancels down to the no-error term)
    // Its bound holds the no-error term's rounding, at least `clean n eps`;
    // where that exceeds the tolerance of every value the coupling bound
    // allows, it cannot certify and is not run.
    let clean = (n * f64::ln_1p(-p)).exp();
    let p_upper = v + bound;
    if p_upper.is_finite() && clean * n * f64::EPSILON > 2.0 * TOLERANCE * p_upper {
        return Err(refusal(len, p, what, bound, v, None));
    }
    let (v4, bound4) = fourier4::escape(8, m, p);
    if bound4 <= TOLERANCE * v4 && v4 > 0.0 {
        return Ok(v4);
    }
    Err(refusal(len, p, what, bound, v, Some((bound4, v4))))
}

/// The typed refusal of a point neither method certifies.
fn refusal(
    len: u64,
    p: f64,
    what: &'static str,
    bound: f64,
    v: f64,
    whole: Option<(f64, f64)>,
) -> Error {
    Error::Refused(crate::registry::refusal::Refusal::Uncertified {
        bytes: len,
        ber: p,
        method: what,
        bound,
        value: v,
        whole,
    })
}

/// Longest frame the exact Fletcher-16 method takes (the coupling bound
/// walks the number of flipped bytes one by one).
pub(crate) const MAX_LEN: u64 = 1 << 24;

#[cfg(feature = "unit-tests")]
/// Where [`p_undetected16`] answers for frames of `len` bytes, probed on
/// `bers`: each BER with `true` where it returns a value. The same
/// function answers, so the table cannot drift from the code.
pub(crate) fn domain16(len: u64, bers: &[f64]) -> Vec<(f64, bool)> {
    bers.iter()
        .map(|&p| (p, p_undetected16(len, p).is_ok()))
        .collect()
}

/// Fletcher-16 curve for random data, BER-major (see `compare::curve`).
pub fn curve16(bytes: &[u64], bers: &[f64]) -> Result<Vec<CurvePoint>> {
    let jobs: Vec<(u64, f64)> = bers
        .iter()
        .flat_map(|&p| bytes.iter().map(move |&b| (b, p)))
        .collect();
    jobs.par_iter()
        .map(|&(b, p)| Ok(CurvePoint::new(p, 8 * b, 16, p_undetected16(b, p)?)))
        .collect()
}

/// Probability of the 8-bit error mask `z` at BER `p`.
fn mask_prob(z: u32, p: f64) -> f64 {
    let w = z.count_ones() as i32;
    p.powi(w) * (1.0 - p).powi(8 - w)
}

/// The 3-byte frame (one data byte `d`, both sums equal to `d mod 255`):
/// every sent byte and every received data byte; the passing field error
/// is then the unique one that turns the sent sums into the received ones.
/// All terms non-negative.
fn enumerate3(p: f64) -> f64 {
    let mut acc = Sum::default();
    for d in 0u32..256 {
        let a = d % 255;
        for r in 0u32..256 {
            if r == d {
                continue; // no data flip: the field must stay, no escape
            }
            let b = r % 255;
            let f = mask_prob(a ^ b, p);
            acc.add(mask_prob(d ^ r, p) * f * f);
        }
    }
    acc.value() / 256.0
}

/// Per frame length: the weight classes of the data bytes and, per pair
/// `(s, t)` of frequencies, how many data bytes have `s + t w != 0`.
struct Tables {
    m: u64,
    /// (weight, count) of the non-empty weight classes of the data bytes.
    nz: Vec<(usize, f64)>,
    /// `count[s * M + t]`: data bytes with `s + t w != 0 mod 255`.
    count: Vec<u64>,
}

impl Tables {
    fn new(m: u64) -> Self {
        let nz: Vec<(usize, f64)> = classes(m)
            .iter()
            .enumerate()
            .filter(|(_, c)| **c > 0)
            .map(|(w, &c)| (w, c as f64))
            .collect();
        let mut count = vec![0u64; M * M];
        for s in 0..M {
            for t in 0..M {
                count[s * M + t] = nz
                    .iter()
                    .filter(|&&(w, _)| (s + t * w) % M != 0)
                    .map(|&(_, c)| c as u64)
                    .sum();
            }
        }
        Tables { m, nz, count }
    }

    /// BER 1: every bit flips, each data byte `d` becomes `255 - d = -d`,
    /// each field byte `x` becomes `255 - x`, which is the sum of the received
    /// data unless the sent sum was 0. `P = P(S1 != 0 and S2 != 0)` for
    /// the sums of uniform data, by the characteristic function of one
    /// uniform byte (1 at frequency 0, 1/256 elsewhere): every term positive.
    fn all_flip(&self) -> f64 {
        let mm = M as f64;
        let g = |c: u64| (-8.0 * c as f64).exp2();
        let (mut both, mut s2) = (Sum::default(), Sum::default());
        for s in 0..M {
            for t in 0..M {
                both.add(g(self.count[s * M + t]));
            }
        }
        for t in 0..M {
            s2.add(g(self.count[t]));
        }
        let p1 = (1.0 + (mm - 1.0) * g(self.m)) / mm;
        let p12 = both.value() / (mm * mm);
        let p2 = s2.value() / mm;
        (1.0 - p1) - (p2 - p12)
    }

    /// `E(j)`: the sum over `(s, t) != 0` of `256^-(count - j)`, capped at 1
    /// per pair: with `j` data bytes touched by errors, the bound on how far
    /// the sent sums are from uniform given the errors.
    fn spread(&self, hist: &[(u64, f64)], j: u64) -> f64 {
        hist.iter()
            .map(|&(c, k)| {
                k * if c > j {
                    (-8.0 * (c - j) as f64).exp2()
                } else {
                    1.0
                }
            })
            .sum()
    }

    /// Bound on `|P_exact - P_independent|` at BER `p` (at `1 - p` mirrored):
    /// the sent sums are uniform up to `E(j)` given the errors, `j` the data
    /// bytes they touch; only a field error can make a passing frame depend on
    /// them (mirrored: always), and then at least one data byte must change
    /// (two bits where only one field byte changes, `m < 255`). The smaller
    /// of that and the same bound averaged over the untouched bytes (better
    /// where many bytes are touched).
    fn coupling_bound(&self, p: f64, mirrored: bool) -> f64 {
        let mut h: std::collections::BTreeMap<u64, f64> = Default::default();
        for (i, &c) in self.count.iter().enumerate().skip(1) {
            let _ = i;
            *h.entry(c).or_default() += 1.0;
        }
        let hist: Vec<(u64, f64)> = h.into_iter().collect();
        let m = self.m;
        let lc = 8.0 * f64::ln_1p(-p); // ln c, c = P(byte untouched)
        let a = -f64::exp_m1(lc); // P(byte touched)
        let la = a.ln();
        let two = if m >= 255 {
            1.0
        } else {
            ((a - 8.0 * p * (1.0 - p).powi(7)) / a).max(0.0)
        };
        // sum_j b(j) E(j) over j in `from..`, b(j) = C(m, j) a^j c^(m-j)
        let mut total = [0.0f64; 3]; // j = 0, j = 1, j >= 2
        let mut lb = m as f64 * lc;
        let mut j = 0u64;
        loop {
            if lb > -745.0 {
                let term = lb.exp() * self.spread(&hist, j);
                total[j.min(2) as usize] += term;
            }
            if j == m {
                break;
            }
            lb += ((m - j) as f64 / (j + 1) as f64).ln() + la - lc;
            j += 1;
            // past the mode the terms only fall; stop once negligible
            if j as f64 > m as f64 * a + 1.0 && lb < -745.0 {
                break;
            }
        }
        // averaged instead over which bytes stay untouched (independently,
        // each with probability c): E[prod over untouched bytes with a
        // non-zero frequency of 1/256] = (1 - c 255/256)^count
        let factor = (1.0 - (lc.exp() * 255.0 / 256.0)).ln();
        let mean: f64 = hist
            .iter()
            .map(|&(c, k)| k * (c as f64 * factor).exp())
            .sum();
        if mirrored {
            mean.min(total.iter().sum())
        } else {
            let field = -f64::exp_m1(16.0 * f64::ln_1p(-p));
            (field * mean).min(
                a * a * (total[1] + total[2]) + 2.0 * a * (1.0 - a) * (total[2] + two * total[1]),
            )
        }
    }

    /// The independent-field model: the sent sums uniform on `Z_255^2` and
    /// independent of the data change `D`. Not mirrored, at BER `q < 1/2`:
    /// `sum_{D != 0} P(D) k(D1) k(D2)`, `k(d)` the probability over a
    /// uniform sum `x` that the field error turns `x` into `x + d` (the term
    /// `D = 0` is the data-only sum, which the caller adds). Mirrored (the
    /// frame at BER `1 - q` seen as its complement at BER `q < 1/2`):
    /// `sum_D P(D) k'(D1) k'(D2)` with the kernel of the complemented frame.
    /// By the characteristic function over `Z_255^2`; at low BER the
    /// one-flip terms are summed directly and removed from the transform
    /// (as in [`fourier16`]), so nothing cancels. Returns the value and a
    /// bound on its rounding error.
    fn coupled(&self, q: f64, mirrored: bool) -> (f64, f64) {
        let eps = f64::EPSILON;
        let mm = M as f64;
        let ang = 2.0 * std::f64::consts::PI / mm;
        // kernel k(d) over the 255 uniform values of the sum
        let kern: Vec<f64> = (0..M)
            .map(|d| {
                let mut s = Sum::default();
                for x in 0..M {
                    let y = (x + d) % M;
                    let z = if mirrored && y == 0 {
                        !(x as u32) & 0xFF
                    } else {
                        (x ^ y) as u32
                    };
                    s.add(mask_prob(z, q));
                }
                s.value() / mm
            })
            .collect();
        let k0 = kern[0];
        let hsum: f64 = kern[1..].iter().sum();
        // h(s) = sum_{d != 0} k(d) w^(s d)
        let (mut hr, mut hi) = (vec![0.0; M], vec![0.0; M]);
        for s in 0..M {
            let (mut re, mut im) = (Sum::default(), Sum::default());
            for (d, &k) in kern.iter().enumerate().skip(1) {
                let a = ang * ((s * d) % M) as f64;
                re.add(k * a.cos());
                im.add(k * a.sin());
            }
            hr[s] = re.value();
            hi[s] = im.value();
        }
        // Re of the transform of G(D) = k(D1) k(D2), without G(0) unless mirrored
        let g = |s: usize, t: usize| {
            k0 * (hr[s] + hr[t]) + hr[s] * hr[t] - hi[s] * hi[t]
                + if mirrored { k0 * k0 } else { 0.0 }
        };
        let gerr = 4.0 * mm * eps * hsum * (2.0 * k0 + 2.0 * hsum);
        let cos: Vec<f64> = (0..M).map(|u| (ang * u as f64).cos()).collect();
        let col = |u: usize, f: &dyn Fn(f64) -> f64| -> f64 {
            let mut idx = u;
            let mut s = 0.0;
            for _ in 0..8 {
                s += f(cos[idx]);
                idx = 2 * idx % M;
            }
            s
        };
        let n = 8.0 * self.m as f64;
        let s_clean = -n * f64::ln_1p(-q);
        let c_terms = 16.0 * (self.nz.len() as f64 + 16.0);
        let (mut acc, mut abs, mut err) = (Sum::default(), 0.0f64, 0.0f64);
        if !mirrored && s_clean <= 20.0 {
            // one data flip, directly: bit k of a byte of weight w, either way
            let r = q / (1.0 - q);
            let clean = (-s_clean).exp();
            let mut one = Sum::default();
            for &(w, c) in &self.nz {
                for k in 0..8 {
                    let b = (1usize << k) % M;
                    for d in [(b, (w * b) % M), ((M - b) % M, (M - (w * b) % M) % M)] {
                        one.add(c * 0.5 * kern[d.0] * kern[d.1]);
                    }
                }
            }
            let t1 = clean * r * one.value();
            // two or more: clean * (e^z - 1 - r L), z = r L + R
            let c1: Vec<f64> = (0..M).map(|u| col(u, &|c| c)).collect();
            let u1: Vec<f64> = (0..M).map(|u| col(u, &|c| ln1p_minus(r * c))).collect();
            let a1: Vec<f64> = (0..M).map(|u| col(u, &|c| c.abs())).collect();
            for s in 0..M {
                for t in 0..M {
                    let (mut l, mut rr, mut al) = (0.0, 0.0, 0.0);
                    for &(w, c) in &self.nz {
                        let u = (s + t * w) % M;
                        l += c * c1[u];
                        rr += c * u1[u];
                        al += c * a1[u];
                    }
                    let z = r * l + rr;
                    let f2 = expm1_minus(z) + rr;
                    let gv = g(s, t);
                    let term = f2 * gv;
                    acc.add(term);
                    abs += term.abs();
                    // z is off by about c_terms eps (r al + |rr|); e^z - 1 - z by
                    // (e^z - 1) times that
                    let dz = c_terms * eps * (r * al + rr.abs());
                    err += (f64::exp_m1(z).abs() * dz + c_terms * eps * rr.abs()) * gv.abs()
                        + f2.abs() * gerr;
                }
            }
            let v = t1 + clean * acc.value() / (mm * mm);
            let e = clean * (err + c_terms * eps * abs) / (mm * mm) + 64.0 * eps * t1;
            (v, e)
        } else {
            let lg: Vec<f64> = (0..M)
                .map(|u| col(u, &|c| f64::ln_1p(-q * (1.0 - c))))
                .collect();
            for s in 0..M {
                for t in 0..M {
                    let mut l = 0.0;
                    for &(w, c) in &self.nz {
                        l += c * lg[(s + t * w) % M];
                    }
                    let f = l.exp();
                    let gv = g(s, t);
                    let term = f * gv;
                    acc.add(term);
                    abs += term.abs();
                    err += f * (c_terms * eps * (1.0 + l.abs()) * gv.abs() + gerr);
                }
            }
            let v = acc.value() / (mm * mm);
            (v, (err + c_terms * eps * abs) / (mm * mm))
        }
    }
}

/// The characteristic-function sum and a bound on its rounding error.
pub(crate) fn fourier16(len: u64, p: f64) -> (f64, f64) {
    let n_w = classes(len);
    let nz: Vec<(usize, f64)> = n_w
        .iter()
        .enumerate()
        .filter(|(_, c)| **c > 0)
        .map(|(w, &c)| (w, c as f64))
        .collect();
    let n = 8 * len;
    let eps = f64::EPSILON;
    // per residue u: sum over the 8 columns of cos(2 pi 2^k u / 255) and of the log terms
    let cos: Vec<f64> = (0..M)
        .map(|u| (2.0 * std::f64::consts::PI * u as f64 / M as f64).cos())
        .collect();
    let col = |u: usize, f: &dyn Fn(f64) -> f64| -> f64 {
        let mut idx = u;
        let mut s = 0.0;
        for _ in 0..8 {
            s += f(cos[idx]);
            idx = (2 * idx) % M;
        }
        s
    };
    // orbit representatives of (s, t) under doubling, with orbit sizes
    let mut reps: Vec<(usize, usize, f64)> = Vec::new();
    for s in 0..M {
        for t in 0..M {
            let (mut a, mut b) = (s, t);
            let mut canon = true;
            let mut size = 1;
            for _ in 1..8 {
                a = 2 * a % M;
                b = 2 * b % M;
                if (a, b) == (s, t) {
                    break;
                }
                size += 1;
                if (a, b) < (s, t) {
                    canon = false;
                    break;
                }
            }
            if canon {
                reps.push((s, t, size as f64));
            }
        }
    }
    let s_clean = if p < 1.0 {
        -(n as f64) * f64::ln_1p(-p)
    } else {
        f64::INFINITY
    };
    let (mut sum, mut err) = (0.0f64, 0.0f64);
    let (mut total, mut abs_total) = (Sum::default(), 0.0f64);
    if s_clean <= 20.0 && p <= 0.5 {
        // With z = log prod (1 + q c) = q L + R, L = sum N c, Q = sum N c^2,
        // R = sum N (ln(1+qc) - qc) and R3 = sum N (ln(1+qc) - qc + (qc)^2/2):
        //   f - 1 = q L + (q^2/2)(L^2 - Q) + h,  h = e3(z) + q L R + R^2/2 + R3,
        // e3(z) = e^z - 1 - z - z^2/2. Summed over (s, t), q L gives 0 and
        // (q^2/2)(L^2 - Q) gives 2 q^2 M^2 sum_w N_w (N_w - 1) exactly (only
        // pairs in one column and one weight class survive); h is third order
        // and is evaluated by series, so nothing cancels at low BER.
        let q = p / (1.0 - p);
        let c1: Vec<f64> = (0..M).map(|u| col(u, &|c| c)).collect();
        let u1: Vec<f64> = (0..M).map(|u| col(u, &|c| ln1p_minus(q * c))).collect();
        let v1: Vec<f64> = (0..M).map(|u| col(u, &|c| ln1p_minus2(q * c))).collect();
        let va: Vec<f64> = (0..M)
            .map(|u| col(u, &|c| ln1p_minus2(q * c).abs()))
            .collect();
        let a1: Vec<f64> = (0..M).map(|u| col(u, &|c| c.abs())).collect();
        for &(s, t, size) in &reps {
            // compensated sums: error about 2 eps * sum of |terms|
            let (mut l, mut r, mut r3) = (Sum::default(), Sum::default(), Sum::default());
            let (mut al, mut ar3) = (0.0, 0.0);
            for &(w, c) in &nz {
                let u = (s + t * w) % M;
                l.add(c * c1[u]);
                r.add(c * u1[u]);
                r3.add(c * v1[u]);
                al += c * a1[u];
                ar3 += c * va[u];
            }
            let (l, r, r3) = (l.value(), r.value(), r3.value());
            let ql = q * l;
            let z = ql + r;
            let h = expm1_minus2(z) + ql * r + 0.5 * r * r + r3;
            total.add(size * h);
            abs_total += size * h.abs();
            // rounding: L and R are off by about 12 eps * (al, |R|) (the 8
            // cosines of c1 and the compensated sum; R's terms are all <= 0),
            // R3 by 12 eps * ar3; e3'(z) = e^z - 1 - z.
            let (dl, dr) = (12.0 * eps * al, 12.0 * eps * r.abs());
            let dz = q * dl + dr;
            err += size
                * (expm1_minus(z).abs() * dz
                    + q * dl * r.abs()
                    + ql.abs() * dr
                    + r.abs() * dr
                    + 12.0 * eps * ar3
                    + 8.0 * eps * (h.abs() + (ql * r).abs() + r * r + r3.abs()));
        }
        let pairs: f64 = n_w.iter().map(|&c| (c * c.saturating_sub(1)) as f64).sum();
        let second = 2.0 * q * q * pairs;
        let sum = total.value() / (M * M) as f64;
        let clean = f64::exp(-s_clean);
        let v = clean * (second + sum);
        let bound = clean
            * ((err + 4.0 * eps * abs_total) / (M * M) as f64 + 4.0 * eps * (second + sum.abs()));
        (v, bound)
    } else {
        let lf: Vec<f64> = (0..M)
            .map(|u| {
                col(u, &|c| {
                    let a = (1.0 - p) + p * c;
                    if p <= 0.5 { a.ln() } else { a.abs().ln() }
                })
            })
            .collect();
        let sg: Vec<bool> = (0..M)
            .map(|u| {
                let mut neg = false;
                let mut idx = u;
                for _ in 0..8 {
                    neg ^= (1.0 - p) + p * cos[idx] < 0.0;
                    idx = 2 * idx % M;
                }
                neg
            })
            .collect();
        for &(s, t, size) in &reps {
            let mut l = 0.0;
            let mut neg = false;
            for &(w, c) in &nz {
                let u = (s + t * w) % M;
                l += c * lf[u];
                neg ^= sg[u] && (c as u64) % 2 == 1;
            }
            let v = l.exp();
            sum += size * if neg { -v } else { v };
            err += size * v * eps * (nz.len() as f64 * 8.0 * (1.0 + l.abs()));
        }
        let clean = f64::exp(-s_clean);
        let v = sum / (M * M) as f64 - clean;
        (
            v,
            err / (M * M) as f64 + eps * (sum.abs() / (M * M) as f64 + clean) * 4.0,
        )
    }
}

#[cfg(feature = "unit-tests")]
#[doc(hidden)]
pub mod tests {
    use super::*;

    fn rel(a: f64, b: f64) -> f64 {
        (a - b).abs() / a.abs().max(b.abs())
    }

    /// Independent exact method: dynamic programming over the joint change
    /// (A, B) in Z_255^2, byte by byte, with a flag for "some bit flipped";
    /// every term non-negative. Returns P(change, some flip) for every change
    /// (index `a * 255 + b`) and P(no flip).
    fn dp(len: u64, p: f64) -> (Vec<f64>, f64) {
        // distribution of one byte's change mod 255 given at least one flip
        let clean_byte = (1.0 - p).powi(8);
        let mut dist = vec![0.0f64; M];
        for e in 1u32..256 {
            let f = e.count_ones() as i32;
            let pe = p.powi(f) * (1.0 - p).powi(8 - f);
            for signs in 0u32..256 {
                if signs & !e != 0 {
                    continue;
                }
                let mut d = 0i64;
                for k in 0..8 {
                    if e >> k & 1 == 1 {
                        d += if signs >> k & 1 == 1 {
                            -(1 << k)
                        } else {
                            1 << k
                        };
                    }
                }
                dist[d.rem_euclid(M as i64) as usize] += pe / f64::from(1u32 << f);
            }
        }
        let idx = |a: usize, b: usize| a * M + b;
        let mut none = 1.0; // no flip so far, at (0, 0)
        let mut some = vec![0.0f64; M * M];
        for i in 0..len {
            let w = ((len - i) % M as u64) as usize;
            let mut next = vec![0.0f64; M * M];
            for a in 0..M {
                for b in 0..M {
                    let x = some[idx(a, b)];
                    if x == 0.0 {
                        continue;
                    }
                    next[idx(a, b)] += x * clean_byte;
                    for (d, &pd) in dist.iter().enumerate() {
                        next[idx((a + d) % M, (b + w * d) % M)] += x * pd;
                    }
                }
            }
            for (d, &pd) in dist.iter().enumerate() {
                next[idx(d, w * d % M)] += none * pd;
            }
            none *= clean_byte;
            some = next;
        }
        (some, none)
    }

    pub fn data_only_sum_agrees_with_joint_state_dynamic_programming() {
        for &len in crate::tier::pick(&[3u64, 5][..], &[3, 5, 9]) {
            for p in [1e-12, 1e-3, 0.1, 0.5] {
                let exact = dp(len, p).0[0];
                let (v, bound) = fourier16(len, p);
                // the bound is honest, and small
                assert!(
                    (v - exact).abs() <= bound.max(1e-300) * 1.0001,
                    "{len} {p}: {v} {exact} {bound}"
                );
                assert!(bound <= 1e-10 * v, "{len} {p}: {v} {bound}");
            }
        }
    }

    /// The law of the data's change `D` after `len` bytes, every term
    /// non-negative: (P(D = d, some flip) for every d, P(no flip)).
    fn dp_law(len: u64, p: f64) -> (Vec<f64>, f64) {
        dp(len, p)
    }

    /// The real frame, every pattern: for a data byte `d`, all 2^24 error
    /// patterns of the 3-byte frame, each received frame checked by
    /// recomputing Fletcher-16 as a receiver would. Returns the escape count
    /// by weight.
    fn brute3(d: u8) -> [u64; 25] {
        use crate::check::Check;
        let f = crate::checksum::Fletcher16.compute(&[d]) as u16;
        let sent = [d, (f >> 8) as u8, f as u8];
        let mut by_weight = [0u64; 25];
        for e in 1u32..1 << 24 {
            let r = [
                sent[0] ^ e as u8,
                sent[1] ^ (e >> 8) as u8,
                sent[2] ^ (e >> 16) as u8,
            ];
            let g = crate::checksum::Fletcher16.compute(&r[..1]) as u16;
            if g == u16::from_be_bytes([r[1], r[2]]) {
                by_weight[e.count_ones() as usize] += 1;
            }
        }
        by_weight
    }

    pub fn three_byte_frames_agree_with_every_error_pattern() {
        // every pattern for a few data bytes (0 and 255 both sum to 0)
        let bers = [
            1e-300, 1e-12, 1e-6, 1e-3, 0.1, 0.3, 0.5, 0.7, 0.9, 0.99, 1.0,
        ];
        let sample = [0u8, 1, 0x5A, 254, 255];
        let counts: Vec<[u64; 25]> = sample.iter().map(|&d| brute3(d)).collect();
        for &p in &bers {
            // the enumeration restricted to the sampled data bytes
            let mut by_enum = 0.0;
            let mut by_brute = 0.0;
            for (&d, c) in sample.iter().zip(&counts) {
                let a = d as u32 % 255;
                for r in 0u32..256 {
                    if r != d as u32 {
                        let f = mask_prob(a ^ (r % 255), p);
                        by_enum += mask_prob(d as u32 ^ r, p) * f * f;
                    }
                }
                for (w, &n) in c.iter().enumerate() {
                    by_brute += n as f64 * p.powi(w as i32) * (1.0 - p).powi(24 - w as i32);
                }
            }
            assert!(
                (by_enum - by_brute).abs() <= 1e-12 * by_brute,
                "{p}: {by_enum} {by_brute}"
            );
        }
        // the lightest escape of a 3-byte frame, exactly
        assert_eq!(counts[0][1], 0);
        for &p in &bers {
            let v = p_undetected16(3, p).unwrap();
            assert!((0.0..=1.0).contains(&v), "{p}: {v}");
        }
        assert_eq!(p_undetected16(3, 1.0).unwrap(), 254.0 / 256.0);
        assert_eq!(
            p_undetected16(3, 0.5).unwrap(),
            2f64.powi(-16) - 2f64.powi(-24)
        );
        assert_eq!(p_undetected16(3, 1e-300).unwrap(), 0.0); // below 1e-590
        assert!(p_undetected16(2, 0.1).is_err());
    }

    /// The independent-field model by the non-negative law of `D`
    /// ([`dp_law`]) and the kernel summed directly: an independent method for
    /// [`Tables::coupled`].
    fn independent_by_dp(m: u64, p: f64) -> f64 {
        let mirrored = p > 0.5;
        let q = if mirrored { 1.0 - p } else { p };
        let kern: Vec<f64> = (0..M)
            .map(|d| {
                (0..M)
                    .map(|x| {
                        let y = (x + d) % M;
                        let z = if mirrored && y == 0 {
                            !(x as u32) & 0xFF
                        } else {
                            (x ^ y) as u32
                        };
                        mask_prob(z, q)
                    })
                    .sum::<f64>()
                    / M as f64
            })
            .collect();
        let (some, none) = dp_law(m, q);
        let mut v = 0.0;
        for a in 0..M {
            for b in 0..M {
                let mut x = some[a * M + b];
                if mirrored && a == 0 && b == 0 {
                    x += none;
                }
                v += x * kern[a] * kern[b];
            }
        }
        if mirrored {
            v - (8.0 * (m + 2) as f64 * f64::ln_1p(-p)).exp()
        } else {
            v
        }
    }

    pub fn independent_field_sum_agrees_with_dynamic_programming() {
        for m in [1u64, 4] {
            let t = Tables::new(m);
            let bers = [1e-6, 1e-3, 0.1, 0.3, 0.7, 0.9, 0.999];
            for &p in crate::tier::pick(&[1e-3, 0.3, 0.9][..], &bers) {
                let dp = independent_by_dp(m, p);
                let v = if p < 0.5 {
                    let data = dp_law(m, p).0[0];
                    (16.0 * f64::ln_1p(-p)).exp() * data + t.coupled(p, false).0
                } else {
                    t.coupled(1.0 - p, true).0 - (8.0 * (m + 2) as f64 * f64::ln_1p(-p)).exp()
                };
                assert!(rel(v, dp) < 1e-9, "{m} {p}: {v} vs {dp}");
            }
        }
    }

    pub fn coupling_bound_is_honest_on_the_smallest_frame() {
        // one data byte: the sent sums are far from uniform, the bound large;
        // the real value (every pattern) lies within it of the model
        let t = Tables::new(1);
        for p in [1e-3, 0.1, 0.3, 0.7, 0.9, 0.99] {
            let real = p_undetected16(3, p).unwrap();
            let model = independent_by_dp(1, p);
            let b = if p < 0.5 {
                t.coupling_bound(p, false)
            } else {
                t.coupling_bound(1.0 - p, true)
            };
            assert!((real - model).abs() <= b, "{p}: {real} {model} {b}");
        }
    }

    pub fn edges_and_domain() {
        for len in [4u64, 64, 1500] {
            assert_eq!(p_undetected16(len, 0.0).unwrap(), 0.0);
            let half = p_undetected16(len, 0.5).unwrap();
            assert_eq!(half, 2f64.powi(-16) - (-8.0 * len as f64).exp2());
            // BER 1: P(S1 != 0, S2 != 0), close to (254/255)^2
            let one = p_undetected16(len, 1.0).unwrap();
            assert!(
                (one - (254.0f64 / 255.0).powi(2)).abs() < 1e-3,
                "{len}: {one}"
            );
            // 1e-300: every escape has two flips or more, below 1e-590
            assert_eq!(p_undetected16(len, 1e-300).unwrap(), 0.0);
        }
        // 64 bytes: certified at every BER (the coupling bound at low BER and
        // near 1, the whole-frame sum in mid range)
        let d = domain16(
            64,
            crate::tier::pick(
                &[1e-12, 0.3, 0.99][..],
                &[1e-12, 1e-6, 1e-3, 1e-2, 0.1, 0.3, 0.7, 0.9, 0.99],
            ),
        );
        assert!(d.iter().all(|x| x.1), "{d:?}");
        // short frames at low BER: the coupling bound is too wide and the
        // whole-frame sum cancels to the no-error term
        match p_undetected16(8, 1e-6) {
            Err(e @ Error::Refused(crate::registry::Refusal::Uncertified { .. })) => {
                assert!(e.to_string().contains("not certified"), "{e}")
            }
            other => panic!("{other:?}"),
        }
        // long frames: every BER
        for &p in crate::tier::pick(&[1e-3, 0.3][..], &[1e-3, 0.1, 0.3, 0.7, 0.9, 0.99]) {
            let v = p_undetected16(1500, p).unwrap();
            assert!(rel(v, 2f64.powi(-16)) < 0.2, "{p}: {v}");
        }
    }

    pub fn whole_frame_sum_agrees_with_the_other_exact_methods() {
        // the 3-byte frame: every sent and received data byte (each BER is
        // a sum over Z_255^4: seconds; the test command takes the brute
        // force at one BER; aliasing-sim's differential sweep checks the
        // sums of longer frames against the other exact methods)
        use crate::tier::pick;
        for p in pick(&[0.3][..], &[1e-2, 0.3, 0.99]).iter().copied() {
            let (v, b) = fourier4::escape(8, 1, p);
            let e = enumerate3(p);
            assert!((v - e).abs() <= b.max(1e-13 * e), "{p}: {v} vs {e} ({b:e})");
            // at low BER the sum cancels down to the no-error term
            if p >= 0.1 {
                assert!(b <= 1e-10 * e, "{p}: {b:e} against {e:e}");
            }
        }
        // the closed forms at BER 1/2 and 1 (the full tier)
        for (len, p) in pick(&[][..], &[(4u64, 0.5), (64, 1.0)]).iter().copied() {
            let m = len - 2;
            {
                let (v, b) = fourier4::escape(8, m, p);
                let c = if p == 1.0 {
                    Tables::new(m).all_flip()
                } else {
                    2f64.powi(-16) - (-8.0 * len as f64).exp2()
                };
                assert!(
                    (v - c).abs() <= b + 1e-15 * c,
                    "{len} {p}: {v} vs {c} ({b:e})"
                );
                assert!(b <= 1e-10 * c, "{len} {p}: {b:e}");
            }
        }
        // the coupling method where it certifies: 64 bytes at BER 0.99,
        // 256 bytes at 0.1
        for (len, p) in pick(&[][..], &[(64u64, 0.99), (256, 0.1)]).iter().copied() {
            let (v, b) = fourier4::escape(8, len - 2, p);
            let c = p_undetected16(len, p).unwrap();
            assert!(
                rel(v, c) <= 2e-9 && b <= 1e-10 * v,
                "{len} {p}: {v} vs {c} ({b:e})"
            );
        }
    }

    pub fn long_frames_have_a_second_order_term() {
        // m >= 256 data bytes: pairs in one column of two bytes 255 apart with
        // opposite values; and one flip in a byte of weight 0 with one flip in
        // the same column of the first sum's field byte (127 of its 255 values
        // carry no borrow or carry), either way.
        for len in [258u64, 600, 1500] {
            let n = classes(len - 2);
            let a2: f64 = n
                .iter()
                .map(|&c| 8.0 * (c * c.saturating_sub(1)) as f64 / 4.0)
                .sum::<f64>()
                + 8.0 * n[0] as f64 * 127.0 / 255.0;
            let p = 1e-12;
            let v = p_undetected16(len, p).unwrap();
            let lead = a2 * bsc::pattern_probability(8 * len, 2, p);
            assert!(rel(v, lead) < 1e-6, "{len}: {v} vs {lead}");
        }
    }
}
