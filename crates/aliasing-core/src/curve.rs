//! Exact aliasing curves: `P_undetected` and `P(alias | error)` against
//! codeword length for several BERs, choosing the exact method.
//!
//! This is the driver behind `alias curve`. It validates the request (BERs
//! in [0, 1], lengths at least `width + 1`), picks a method and returns the
//! points with the method used.
//!
//! ```
//! use aliasing_core::{catalogue, curve};
//! let crc = catalogue::resolve("CRC-16/IBM-3740").unwrap();
//! let res = curve::exact(&crc, &[512, 12144], &[1e-5], curve::Method::Auto).unwrap();
//! // two lengths of a 16-bit CRC: the dual code is cheaper than the chain
//! assert_eq!(res.method, curve::Method::Dual);
//! let pt = &res.points[1];
//! assert_eq!((pt.bits, pt.data_bits), (12144, 12128));
//! // Far better than an ideal 16-bit check at this low BER:
//! assert!(res.ratio_to_ideal(pt) < 1e-2);
//! ```

use crate::bsc::{self, CurvePoint};
use crate::crc::CrcAlgorithm;
use crate::error::{Error, Result};
use crate::poly::Generator;
use crate::{dual, markov};
use std::fmt;
use std::str::FromStr;

/// An exact method for the curve. New methods (dual code, checksums) are
/// added as variants; [`Method::Auto`] picks the best one that applies.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
#[non_exhaustive]
pub enum Method {
    /// Choose: [`Method::Dual`] where [`dual::recommended`] says it is
    /// cheaper (few lengths, wide CRCs) or the chain would not fit in memory,
    /// else [`Method::Markov`].
    Auto,
    /// The Markov chain over register states ([`crate::markov`]):
    /// `O(n 2^r)` time, `O(2^r)` memory per BER in flight.
    Markov,
    /// The dual code's weight distribution and MacWilliams ([`crate::dual`]):
    /// `O(2^r)` per length, widths up to 32.
    Dual,
}

impl Method {
    /// Every method, in the order `--help` lists them.
    pub const ALL: &'static [Method] = &[Method::Auto, Method::Markov, Method::Dual];

    /// The lowercase name used on the command line and in JSON.
    pub fn name(self) -> &'static str {
        match self {
            Method::Auto => "auto",
            Method::Markov => "markov",
            Method::Dual => "dual",
        }
    }
}

impl fmt::Display for Method {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Method {
    type Err = Error;
    fn from_str(s: &str) -> Result<Self> {
        Method::ALL
            .iter()
            .copied()
            .find(|m| m.name().eq_ignore_ascii_case(s.trim()))
            .ok_or_else(|| {
                let names: Vec<&str> = Method::ALL.iter().map(|m| m.name()).collect();
                Error::Invalid(format!(
                    "unknown method `{s}` (expected one of {})",
                    names.join(", ")
                ))
            })
    }
}

/// An exact curve with the method that computed it.
#[derive(Debug, Clone, PartialEq)]
pub struct CurveResult {
    /// The CRC's name as resolved.
    pub name: String,
    /// Its generator polynomial.
    pub generator: Generator,
    /// The method actually used (never [`Method::Auto`]).
    pub method: Method,
    /// One point per BER and length, BER-major, lengths in the order given.
    pub points: Vec<CurvePoint>,
}

impl CurveResult {
    /// `P(alias | error) / 2^-r`: aliasing relative to the `2^-r` of an ideal
    /// `r`-bit check (1 means "as good as random").
    pub fn ratio_to_ideal(&self, pt: &CurvePoint) -> f64 {
        pt.p_alias_given_error * 2f64.powi(self.generator.width() as i32)
    }
}

/// Checks a curve request: at least one BER and one length, every BER in
/// [0, 1], every length at least `width + 1` bits (one data bit).
pub fn validate(width: u32, lengths: &[u64], bers: &[f64]) -> Result<()> {
    if bers.is_empty() {
        return Err(Error::BadBer("list is empty".into()));
    }
    for &p in bers {
        bsc::check_ber(p)?;
    }
    if lengths.is_empty() {
        return Err(Error::BadLength("the length list is empty".into()));
    }
    if let Some(&n) = lengths.iter().find(|&&n| n <= width as u64) {
        return Err(Error::BadLength(format!(
            "{n} bits is too short for a {width}-bit check (a codeword has the \
             {width} check bits plus at least one data bit)"
        )));
    }
    Ok(())
}

/// The exact curve of `crc` at every length (bits, check bits included) and
/// BER, with `method` ([`Method::Auto`] picks one).
///
/// Fails with a one-line error on a bad request, or with [`Error::TooBig`]
/// when the method would not fit in memory (checked before allocating).
pub fn exact(
    crc: &CrcAlgorithm,
    lengths: &[u64],
    bers: &[f64],
    method: Method,
) -> Result<CurveResult> {
    let g = crc.generator;
    validate(g.width(), lengths, bers)?;
    let method = match method {
        Method::Auto => choose(&g, lengths, bers.len())?,
        m => m,
    };
    let points = match method {
        Method::Markov => markov::curve(&g, lengths, bers)?,
        Method::Dual => dual::curve(&g, lengths, bers)?,
        Method::Auto => unreachable!("resolved above"),
    };
    let points = ber_major(points, lengths, bers);
    Ok(CurveResult {
        name: crc.name.clone(),
        generator: g,
        method,
        points,
    })
}

/// Orders points BER-major (every length for the first BER, then the next),
/// each in the order given, whatever order the method produced them in.
fn ber_major(mut points: Vec<CurvePoint>, lengths: &[u64], bers: &[f64]) -> Vec<CurvePoint> {
    use std::collections::HashMap;
    let li: HashMap<u64, usize> = lengths.iter().enumerate().map(|(i, &n)| (n, i)).collect();
    let bi: HashMap<u64, usize> = bers
        .iter()
        .enumerate()
        .map(|(i, p)| (p.to_bits(), i))
        .collect();
    points.sort_by_cached_key(|pt| {
        (
            bi.get(&pt.ber.to_bits()).copied(),
            li.get(&pt.bits).copied(),
        )
    });
    points
}

/// The method [`Method::Auto`] picks for `g` at `lengths` with `bers` BERs.
///
/// Whichever of the two fits in memory; if both do, the one with the smaller
/// estimated time. The time model uses per-operation costs measured on the
/// development machine (2 cores): a chain state update about 0.15 ns with
/// the fused kernel of [`markov::walk`] (`alias curve --crc 16 --bits
/// 17:12144:1 --ber 1e-5`: 0.1 s of chain for 8e8 updates), a dual-code
/// window step about 0.8 ns (CRC-32 weights at 12144 bits: 3.3 s for 2^32
/// windows) and a high-precision term of the dual evaluation about 250 ns
/// (3.1 ms for one P_ud at 12144 bits). Only the ratio matters.
///
/// Fails only when the memory limit itself cannot be read (a malformed
/// [`markov::MEMORY_LIMIT_ENV`]).
pub fn choose(g: &Generator, lengths: &[u64], bers: usize) -> Result<Method> {
    const CHAIN_NS: f64 = 0.15;
    const WINDOW_NS: f64 = 0.8;
    const TERM_NS: f64 = 250.0;
    let limit = markov::memory_limit()?;
    let chain_fits = markov::estimate_bytes(g.width(), bers) <= limit;
    let dual_fits = g.width() <= dual::MAX_WIDTH && dual::memory_estimate(g, lengths) <= limit;
    Ok(match (chain_fits, dual_fits) {
        (true, false) | (false, false) => Method::Markov,
        (false, true) => Method::Dual,
        (true, true) => {
            let states = (g.width() as f64).exp2();
            let n_max = lengths.iter().copied().max().unwrap_or(0) as f64;
            let chain = CHAIN_NS * n_max * states * bers as f64;
            let terms: f64 = lengths.iter().map(|&n| n as f64 + 1.0).sum();
            let dual = WINDOW_NS * dual::work_estimate(g, lengths) + TERM_NS * terms * bers as f64;
            if dual < chain {
                Method::Dual
            } else {
                Method::Markov
            }
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::catalogue;

    #[test]
    fn validation() {
        let crc = catalogue::resolve("crc16-ccitt").unwrap();
        for (l, b) in [
            (vec![], vec![1e-5]),
            (vec![16], vec![1e-5]),
            (vec![100], vec![]),
            (vec![100], vec![-0.1]),
            (vec![100], vec![f64::NAN]),
        ] {
            assert!(exact(&crc, &l, &b, Method::Auto).is_err(), "{l:?} {b:?}");
        }
        let res = exact(&crc, &[17], &[0.5], Method::Markov).unwrap();
        // 2^-16 - 2^-17 = 2^-17 at n = 17.
        assert_eq!(res.points[0].p_undetected, 2f64.powi(-17));
        assert_eq!(res.method, Method::Markov);
    }

    #[test]
    fn method_names() {
        for m in Method::ALL {
            assert_eq!(m.name().parse::<Method>().unwrap(), *m);
        }
        assert!("dual?".parse::<Method>().is_err());
    }

    #[test]
    fn auto_and_dual_agree_with_markov() {
        // Independent methods on the same request: the chain and the dual code.
        let crc = catalogue::resolve("crc16-ccitt").unwrap();
        let lengths = [40, 512, 1000];
        let bers = [0.5, 1e-3, 1e-9];
        let m = exact(&crc, &lengths, &bers, Method::Markov).unwrap();
        let d = exact(&crc, &lengths, &bers, Method::Dual).unwrap();
        assert_eq!(d.method, Method::Dual);
        for (a, b) in m.points.iter().zip(&d.points) {
            let rel = (a.p_undetected - b.p_undetected).abs() / a.p_undetected;
            assert!(rel < 1e-12, "{a:?} vs {b:?}");
        }
        // A 32-bit CRC at one length goes to the dual code.
        let crc32 = catalogue::resolve("crc32").unwrap();
        assert_eq!(choose(&crc32.generator, &[12144], 1).unwrap(), Method::Dual);
        // Every length of a 16-bit CRC goes to the chain (one pass for all),
        // a handful of lengths to the dual code.
        let all: Vec<u64> = (17..=12144).collect();
        let crc16 = catalogue::resolve("16").unwrap();
        assert_eq!(choose(&crc16.generator, &all, 5).unwrap(), Method::Markov);
        assert_eq!(
            choose(&crc16.generator, &[512, 12144], 5).unwrap(),
            Method::Dual
        );
    }

    #[test]
    fn too_big_is_refused() {
        // CRC-32 needs 32 GiB: refused wherever the limit is below that
        // (only then is it safe to ask: above, the run would go ahead).
        let crc = catalogue::resolve("crc32").unwrap();
        if markov::memory_limit().unwrap() < markov::estimate_bytes(32, 1) {
            let e = exact(&crc, &[12144], &[1e-5], Method::Markov);
            assert!(matches!(e, Err(Error::TooBig { .. })));
        }
        let crc = catalogue::resolve("crc64-xz").unwrap();
        let e = exact(&crc, &[12144], &[1e-5], Method::Auto).unwrap_err();
        assert!(matches!(e, Error::TooBig { .. }), "{e}");
    }
}
