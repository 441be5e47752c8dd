//! Weight distributions of a shortened CRC code and of its dual, and the
//! MacWilliams identity between them in exact integers.
//!
//! For a CRC of width `r` and codeword length `n`, the dual code has `2^r`
//! words (counted with multiplicity when `n < r`); `B_w` counts those of
//! weight `w`. The code itself has `2^(n-r)` words and `A_w` counts those of
//! weight `w`. MacWilliams:
//!
//! `A_w = 2^-r * sum_j B_j K_w(j; n)`, with the Krawtchouk polynomial
//! `K_w(j; n) = sum_k (-1)^k C(j, k) C(n - j, w - k)`.
//!
//! Every step here is exact integer arithmetic; the MacWilliams transform checks that
//! each `A_w` is a non-negative integer and that `A_0 = 1`.
//!
//! ```
//! use aliasing_core::__private::weights::macwilliams; // internal: not a stable API
//! use aliasing_core::weights::DualWeights;
//! // The dual of the [3,1] repetition code x^2+x+1 (r = 2, n = 3) is the
//! // even-weight code: B_0 = 1, B_2 = 3.
//! let b = DualWeights::new(3, 2, vec![1, 0, 3, 0]).unwrap();
//! let a = macwilliams(&b, 3).unwrap();
//! assert_eq!(a.iter().map(|x| x.to_string()).collect::<Vec<_>>(), ["1", "0", "0", "1"]);
//! ```

use crate::ctx::Ctx;
use crate::document::{Count, WeightCount};
pub use crate::dual::DualWeights;
use crate::error::{Error, Result};
use crate::poly::Generator;
use crate::{dual, lowweight};
use dashu_int::{IBig, UBig};

/// How [`distribution`] counts codewords.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[cfg_attr(feature = "clap", derive(clap::ValueEnum))]
#[non_exhaustive]
pub enum WeightMethod {
    /// [`WeightMethod::Syndromes`] when only weights up to 4 are asked for
    /// and that is less work than the `2^r` dual words, else
    /// [`WeightMethod::Dual`] when the width allows.
    #[default]
    #[cfg_attr(
        feature = "clap",
        value(
            help = "`syndromes` for weights up to 4 when cheaper, else `dual` if the \
                      width is at most 32 (syndromes up to weight 6 otherwise)"
        )
    )]
    Auto,
    /// Dual-code weights and the MacWilliams identity (widths up to
    /// [`dual::MAX_WIDTH`], every weight).
    #[cfg_attr(
        feature = "clap",
        value(help = "Dual-code weights and the MacWilliams identity")
    )]
    Dual,
    /// Meet-in-the-middle on the syndromes `x^i mod g` (weights up to 6).
    #[cfg_attr(
        feature = "clap",
        value(help = "Meet-in-the-middle on the syndromes x^i mod g (weights up to 6)")
    )]
    Syndromes,
}

/// The low part of a CRC code's weight distribution at one length.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct WeightDistribution {
    /// Codeword length `n` in bits, check bits included.
    pub bits: u64,
    /// `counts[w] = A_w` for `w = 0..=max_weight`.
    pub counts: Vec<UBig>,
    /// The dual code's whole distribution, when the dual method was used.
    pub dual: Option<DualWeights>,
}

/// In JSON: `bits`, `weights` as the `weights` document lists them
/// (`[{"w": 0, "count": 1}, ...]`, every weight from 0, each count exact:
/// a number up to 2^53, a decimal string above, as in the `weights`
/// document), and `dual`, the dual code's
/// [`DualWeights`] (`null` unless the dual method was used).
///
/// ```
/// use aliasing_core::{ctx::Ctx, poly::Generator, weights::{distribution, WeightMethod}};
/// let g = Generator::new(8, 0x07).unwrap();
/// let d = distribution(&g, 12, 3, WeightMethod::Syndromes, false, &Ctx::default()).unwrap();
/// assert_eq!(
///     serde_json::to_string(&d).unwrap(),
///     r#"{"bits":12,"weights":[{"w":0,"count":1},{"w":1,"count":0},{"w":2,"count":0},{"w":3,"count":0}],"dual":null}"#
/// );
/// ```
impl serde::Serialize for WeightDistribution {
    fn serialize<S: serde::Serializer>(&self, s: S) -> std::result::Result<S::Ok, S::Error> {
        use serde::ser::SerializeStruct;
        let weights: Vec<WeightCount> = self
            .counts
            .iter()
            .enumerate()
            .map(|(w, c)| WeightCount {
                w,
                count: Count(c.clone()),
            })
            .collect();
        let mut st = s.serialize_struct("WeightDistribution", 3)?;
        st.serialize_field("bits", &self.bits)?;
        st.serialize_field("weights", &weights)?;
        st.serialize_field("dual", &self.dual)?;
        st.end()
    }
}

/// Whether [`distribution`] counts with the dual code for these arguments.
#[doc(hidden)] // internal: reached through `crate::__private`
pub fn uses_dual(
    g: &Generator,
    bits: u64,
    max_weight: u64,
    method: WeightMethod,
    want_dual: bool,
) -> bool {
    let max_w = max_weight.min(bits);
    match method {
        WeightMethod::Dual => true,
        WeightMethod::Syndromes => false,
        // low weights only: meet-in-the-middle (bits^2/2 probes) when that
        // is less work than the 2^r dual words
        WeightMethod::Auto => {
            g.width() <= dual::MAX_WIDTH
                && (want_dual
                    || max_w > 4
                    || (bits as f64).powi(2) / 2.0 > (g.width() as f64).exp2())
        }
    }
}

/// Seconds per probe of the meet-in-the-middle counts (one core; measured
/// on the reference machine, 9 to 15 ns).
const SECONDS_PER_PROBE: f64 = 12e-9;

/// An estimate of [`distribution`]'s time in seconds, for announcing a long
/// count before it starts: the meet-in-the-middle probes of each weight
/// (`n^2 / 2` for weights 4 and 5, `n^3 / 6` for weight 6, as
/// [`lowweight`] refuses them beyond its limit) at a measured cost per
/// probe. `NaN` with the dual method (at most `2^32` dual words, well
/// under a minute) or arguments [`distribution`] refuses.
#[doc(hidden)] // internal: reached through `crate::__private`
pub fn estimated_seconds(
    g: &Generator,
    bits: u64,
    max_weight: u64,
    method: WeightMethod,
    want_dual: bool,
) -> f64 {
    if uses_dual(g, bits, max_weight, method, want_dual) {
        return f64::NAN;
    }
    let n = (bits + 1) as f64;
    let probes: f64 = (4..=max_weight.min(bits).min(6))
        .map(|w| match w {
            6 => n.powi(3) / 6.0,
            _ => n.powi(2) / 2.0,
        })
        .sum();
    probes * SECONDS_PER_PROBE
}

/// The distribution [`distribution`] gives by the dual method, from the
/// dual weights `d` (of one length, however they were counted: in one pass
/// or merged from [`dual::DualPass`] shards).
#[doc(hidden)] // internal: reached through `crate::__private`
pub fn from_dual(d: DualWeights, max_weight: u64) -> Result<WeightDistribution> {
    let counts = macwilliams(&d, max_weight.min(d.bits) as usize)?;
    Ok(WeightDistribution {
        bits: d.bits,
        counts,
        dual: Some(d),
    })
}

/// The weights `A_0..=A_max_weight` of the code of `g` shortened to `bits`
/// bits (check bits included); `max_weight` is capped at `bits`. With
/// `want_dual`, the dual method is required and its `B_w` are returned too.
///
/// In `ctx`: its memory budget (the dual method) and its progress (the
/// stage `"dual-code windows"` with the dual method, else one stage
/// `"weight-w spans"` per weight).
///
/// ```
/// use aliasing_core::{ctx::Ctx, poly::Generator, weights::{distribution, WeightMethod}};
/// let g = Generator::new(32, 0x04C11DB7).unwrap();
/// let d = distribution(&g, 12144, 4, WeightMethod::Auto, false, &Ctx::default()).unwrap();
/// assert_eq!(d.counts[4].to_string(), "223059"); // A_4 of CRC-32 on 1518 bytes
/// ```
pub fn distribution(
    g: &Generator,
    bits: u64,
    max_weight: u64,
    method: WeightMethod,
    want_dual: bool,
    ctx: &Ctx,
) -> Result<WeightDistribution> {
    let progress = ctx.progress();
    if bits <= g.width() as u64 {
        return Err(Error::BadLength(format!(
            "a length of {bits} bits leaves no data bits beside the {} check bits",
            g.width()
        )));
    }
    let max_w = max_weight.min(bits) as usize;
    if uses_dual(g, bits, max_weight, method, want_dual) {
        let d = dual::dual_weights_with(g, &[bits], ctx.budget(), progress)?.remove(0);
        return from_dual(d, max_weight);
    }
    if want_dual {
        return Err(Error::Limit(crate::error::Limit::DualWeightsWidth {
            width: g.width(),
            max: dual::MAX_WIDTH,
        }));
    }
    if max_w > 6 {
        return Err(Error::Limit(crate::error::Limit::SyndromesWeight {
            weight: max_w as u64,
            max: 6,
            dual_max_width: (g.width() > dual::MAX_WIDTH).then_some(dual::MAX_WIDTH),
        }));
    }
    // every refusal (work, memory) before any counting starts
    for w in 2..=max_w as u32 {
        lowweight::check_span(g, w, bits + 1, ctx.budget())?;
    }
    let mut counts = vec![UBig::ONE, UBig::ZERO];
    for w in 2..=max_w as u32 {
        let c = lowweight::weight_counts(g, w, bits + 1, ctx)?;
        counts.push(UBig::from(c[bits as usize]));
    }
    counts.truncate(max_w + 1);
    Ok(WeightDistribution {
        bits,
        counts,
        dual: None,
    })
}

/// `K_w(j; n)` for `w = 0..=max_w` by the three-term recurrence
/// `(w+1) K_{w+1} = (n - 2j) K_w - (n - w + 1) K_{w-1}` (exact division).
pub(crate) fn krawtchouk_column(n: u64, j: u64, max_w: usize) -> Vec<IBig> {
    let mut out = Vec::with_capacity(max_w + 1);
    out.push(IBig::ONE);
    if max_w == 0 {
        return out;
    }
    let a = IBig::from(n as i128 - 2 * j as i128);
    out.push(a.clone());
    for w in 1..max_w {
        let next = (&a * &out[w] - IBig::from(n as i128 - w as i128 + 1) * &out[w - 1])
            / IBig::from(w as i128 + 1);
        out.push(next);
    }
    out
}

/// `K_w(j; n)` from its defining sum (slow; for tests and documentation).
#[cfg(feature = "unit-tests")] // an independent method, the tests' reference
pub(crate) fn krawtchouk(n: u64, w: u64, j: u64) -> IBig {
    let mut s = IBig::ZERO;
    for k in 0..=w.min(j) {
        if w - k > n - j {
            continue;
        }
        let t = IBig::from(binomial(j, k)) * IBig::from(binomial(n - j, w - k));
        if k % 2 == 0 {
            s += t;
        } else {
            s -= t;
        }
    }
    s
}

/// The binomial coefficient `C(n, k)` as an exact integer.
#[doc(hidden)] // internal: reached through `crate::__private`
pub fn binomial(n: u64, k: u64) -> UBig {
    if k > n {
        return UBig::ZERO;
    }
    let k = k.min(n - k);
    let mut r = UBig::ONE;
    for i in 0..k {
        r = r * UBig::from(n - i) / UBig::from(i + 1);
    }
    r
}

/// `A_0 ..= A_max_w` of the code whose dual has the distribution `dual`, by
/// the MacWilliams identity in exact integers.
///
/// Fails (with [`Error::Invalid`]) if some `A_w` is not a non-negative
/// integer or `A_0 != 1`, which can only mean `dual` is not the dual
/// distribution of a linear code with `2^width` dual words.
#[doc(hidden)] // internal: reached through `crate::__private`
pub fn macwilliams(dual: &DualWeights, max_w: usize) -> Result<Vec<UBig>> {
    let n = dual.bits;
    let max_w = max_w.min(n as usize);
    let mut sums = vec![IBig::ZERO; max_w + 1];
    for (j, &b) in dual.counts.iter().enumerate() {
        if b == 0 {
            continue;
        }
        let bj = IBig::from(b);
        for (w, k) in krawtchouk_column(n, j as u64, max_w)
            .into_iter()
            .enumerate()
        {
            sums[w] += &bj * k;
        }
    }
    let r = dual.width as usize;
    let mut out = Vec::with_capacity(max_w + 1);
    for (w, s) in sums.into_iter().enumerate() {
        if s < IBig::ZERO {
            return Err(Error::Invalid(format!(
                "MacWilliams gave a negative A_{w} at n = {n}: the dual weights are inconsistent"
            )));
        }
        let u: UBig = s.try_into().expect("non-negative");
        let q = &u >> r;
        if (&q << r) != u {
            return Err(Error::Invalid(format!(
                "MacWilliams gave a non-integer A_{w} at n = {n}: the dual weights are inconsistent"
            )));
        }
        out.push(q);
    }
    if out.first() != Some(&UBig::ONE) {
        return Err(Error::Invalid(format!(
            "MacWilliams gave A_0 != 1 at n = {n}: the dual weights are inconsistent"
        )));
    }
    Ok(out)
}

#[cfg(feature = "unit-tests")]
#[doc(hidden)]
pub mod tests {
    pub fn estimated_seconds_grow_with_the_syndrome_work_and_skip_the_dual_pass() {
        let g = crate::poly::Generator::new(64, 0x1B).unwrap();
        let est = |bits, w| estimated_seconds(&g, bits, w, WeightMethod::Syndromes, false);
        assert!(est(1000, 6) > est(1000, 5) && est(1000, 5) > 0.0);
        // n^3/6 probes: 10 times the length, about 1000 times the time
        let ratio = est(10_000, 6) / est(1000, 6);
        assert!((900.0..1100.0).contains(&ratio), "{ratio}");
        assert_eq!(est(1000, 3), 0.0);
        let crc32 = crate::poly::Generator::new(32, 0x04C11DB7).unwrap();
        assert!(estimated_seconds(&crc32, 12144, 8, WeightMethod::Dual, false).is_nan());
    }

    use super::*;

    pub fn krawtchouk_recurrence_matches_definition() {
        for n in [1u64, 2, 7, 20, 33] {
            for j in 0..=n {
                let col = krawtchouk_column(n, j, n as usize);
                for w in 0..=n {
                    assert_eq!(col[w as usize], krawtchouk(n, w, j), "n={n} j={j} w={w}");
                }
            }
        }
    }

    pub fn rejects_inconsistent_distribution() {
        // 4 dual words all of weight 1 at n = 3 is no linear code's dual.
        let b = DualWeights {
            bits: 3,
            width: 2,
            counts: vec![0, 4, 0, 0],
        };
        assert!(macwilliams(&b, 3).is_err());
    }

    pub fn binomials() {
        assert_eq!(binomial(12144, 0), UBig::ONE);
        assert_eq!(binomial(10, 3), UBig::from(120u32));
        assert_eq!(binomial(3, 5), UBig::ZERO);
    }
}

#[cfg(feature = "unit-tests")]
#[doc(hidden)]
pub mod published {
    use super::*;
    use crate::{dual, poly::Generator};

    /// `data/published-32bit.txt`: CRC-32/ISO-HDLC has 89,622 undetectable
    /// 5-bit errors at 2096 data bits. One 2^32-window pass of the dual code
    /// (a few seconds), then MacWilliams in exact integers.
    pub fn crc32_weight5_count_at_2096_data_bits() {
        if !crate::tier::full() {
            eprintln!("full tier only (ALIAS_TESTS=full): a 2^32 dual pass");
            return;
        }
        let rows = crate::lowweight::tests::published_32bit("count");
        assert!(!rows.is_empty());
        for f in rows {
            let k = u64::from_str_radix(f[1].trim_start_matches("0x"), 16).unwrap();
            let w: usize = f[2].parse().unwrap();
            let data_bits: u64 = f[3].parse().unwrap();
            let want: u64 = f[4].parse().unwrap();
            let g = Generator::guess_koopman(k).unwrap();
            let n = data_bits + g.width() as u64;
            let d = dual::dual_weights(&g, &[n], &crate::ctx::Ctx::default())
                .unwrap()
                .remove(0);
            let a = macwilliams(&d, w).unwrap();
            assert_eq!(a[w], UBig::from(want), "{} A_{w} at {n} bits", f[5]);
        }
    }
}
