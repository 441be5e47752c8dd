//! Checks side by side: the exact aliasing curve of any
//! [`CheckSpec`] (a checksum or a CRC, named through [`crate::check::resolve`])
//! over frame lengths in **bytes**.
//!
//! Lengths are whole codewords in bytes, everything the check covers and that
//! is transmitted, check field included; `bits = 8 * bytes`.
//!
//! | check | exact method | where |
//! |---|---|---|
//! | any CRC | Markov chain or dual code, as `crate::curve::exact` picks | data-independent |
//! | `internet` | [`crate::internet`] (random data or a given payload) | every length and BER |
//! | `fletcher16` | [`crate::fletcher`] (2-D characteristic function over `Z_255^2`) | random data |
//! | `fletcher32`, `adler32` | none: see below | use `alias simulate` |
//!
//! Fletcher-32 and Adler-32 keep two sums modulo 65535 (65521), a joint state
//! space of about 4.3e9 residues: a characteristic-function sum over it costs
//! `4.3e9 x` (columns) per point, and a transition-matrix method is out of
//! reach; [`curve`] returns [`Error::Unsupported`] for them, and
//! `alias compare` shows `n/a` with that note.
//!
//! ```
//! use aliasing_core::{check::CheckSpec, compare::curve};
//! let inet: CheckSpec = "internet".parse().unwrap();
//! assert_eq!(inet.name(), "Internet");
//! let pts = curve(&inet, &[1500], &[1.5e-5], None).unwrap();
//! assert_eq!(pts[0].bits, 12000);
//! assert!("crc32".parse::<CheckSpec>().is_ok());
//! assert!("no-such-check".parse::<CheckSpec>().is_err());
//! ```

use crate::bsc::{self, CurvePoint};
use crate::check::CheckSpec;
use crate::crc::CrcAlgorithm;
use crate::error::{Error, Result};
use crate::progress::{Progress, Silent};
use crate::{fletcher, internet};
use rayon::prelude::*;

/// The default set of `alias compare`: CRC-32, CRC-32C, CRC-16-CCITT,
/// Internet, Fletcher-32, Adler-32.
pub const DEFAULT_CHECKS: &[&str] = &[
    "crc32",
    "crc32c",
    "crc16-ccitt",
    "internet",
    "fletcher32",
    "adler32",
];

/// The exact aliasing curve of `check` at every length in `bytes` (whole
/// codewords) and BER, BER-major (every length for the first BER, then the
/// next). With `payload`, the given-data computation: the Internet checksum
/// uses the payload's bits ([`internet::curve_payload`]; each length is a
/// prefix of the payload, the whole payload when `bytes` is empty); a CRC does
/// not depend on the data, so only the lengths matter.
///
/// Returns [`Error::Unsupported`] (one line, saying why) where no exact method
/// applies: Fletcher-32 and Adler-32, and Fletcher-16 with a payload.
pub fn curve(
    check: &CheckSpec,
    bytes: &[u64],
    bers: &[f64],
    payload: Option<&[u8]>,
) -> Result<Vec<CurvePoint>> {
    curve_with(check, bytes, bers, payload, &Silent)
}

/// [`curve`] watched by `progress`: for a CRC the stages of
/// [`crate::curve::exact_with`], for a checksum one stage, `"points"`, of
/// one unit per (BER, length).
pub fn curve_with(
    check: &CheckSpec,
    bytes: &[u64],
    bers: &[f64],
    payload: Option<&[u8]>,
    progress: &dyn Progress,
) -> Result<Vec<CurvePoint>> {
    if bers.is_empty() {
        return Err(Error::BadBer("list is empty".into()));
    }
    for &p in bers {
        bsc::check_ber(p)?;
    }
    let whole = payload.map(|p| [p.len() as u64]);
    let bytes: &[u64] = match (&whole, bytes.is_empty()) {
        (Some(w), true) => &w[..],
        _ => bytes,
    };
    if bytes.is_empty() {
        return Err(Error::BadLength("the length list is empty".into()));
    }
    if let Some(&b) = bytes.iter().find(|&&b| b > u64::MAX / 8) {
        return Err(Error::BadLength(format!("{b} bytes is too long")));
    }
    if let Some(&b) = bytes.iter().find(|&&b| b < check.min_bytes()) {
        return Err(Error::BadLength(format!(
            "{b} bytes is too short for {} (at least {} bytes)",
            check.name(),
            check.min_bytes()
        )));
    }
    if let Some(p) = payload
        && let Some(&b) = bytes.iter().find(|&&b| b > p.len() as u64)
    {
        return Err(Error::BadLength(format!(
            "{b} bytes is longer than the {}-byte payload",
            p.len()
        )));
    }
    if let CheckSpec::Crc(crc) = check {
        return crc_curve(crc, bytes, bers, progress);
    }
    // one point at a time (each in parallel inside), BER-major
    let jobs: Vec<(u64, f64)> = bers
        .iter()
        .flat_map(|&p| bytes.iter().map(move |&b| (b, p)))
        .collect();
    progress.stage("points", jobs.len() as u64);
    let per: Vec<Vec<CurvePoint>> = jobs
        .par_iter()
        .map(|&(b, p)| {
            let pt = checksum_curve(check, &[b], &[p], payload)?;
            progress.advance(1);
            Ok(pt)
        })
        .collect::<Result<_>>()?;
    Ok(per.into_iter().flatten().collect())
}

/// The exact curve of a checksum (not a CRC), BER-major, after validation.
fn checksum_curve(
    check: &CheckSpec,
    bytes: &[u64],
    bers: &[f64],
    payload: Option<&[u8]>,
) -> Result<Vec<CurvePoint>> {
    match check {
        CheckSpec::Internet => match payload {
            None => internet::curve(bytes, bers),
            Some(p) => internet::curve_payload(p, bytes, bers),
        },
        CheckSpec::Fletcher16 => match payload {
            None => fletcher::curve16(bytes, bers),
            Some(_) => Err(Error::Unsupported(
                "Fletcher-16 for a given payload is not computed exactly (only for random data)"
                    .into(),
            )),
        },
        CheckSpec::Fletcher32 | CheckSpec::Adler32 => Err(Error::Unsupported(format!(
            "no exact method for {}: two sums modulo {} give about 4.3e9 joint states; \
             use `alias simulate`",
            check.name(),
            if *check == CheckSpec::Adler32 {
                65521
            } else {
                65535
            }
        ))),
        CheckSpec::Crc(crc) => crc_curve(crc, bytes, bers, &Silent),
    }
}

/// Exact CRC curve over byte lengths, BER-major, by [`crate::curve::exact`]
/// (which picks the Markov chain or the dual code). The points are put in
/// BER-major order by their (BER, length) here, whatever order the method
/// returns them in.
fn crc_curve(
    crc: &CrcAlgorithm,
    bytes: &[u64],
    bers: &[f64],
    progress: &dyn Progress,
) -> Result<Vec<CurvePoint>> {
    use crate::curve::{Method, Request, exact_with};
    use crate::units::{Ber, Bits, MemoryBudget};
    let bits: Vec<Bits> = bytes.iter().map(|&b| Bits(8 * b)).collect();
    let req = Request::for_crc(crc, &bits, &Ber::list(bers)?)?;
    // exact_with returns its points BER-major, whatever method it picked.
    Ok(exact_with(&req, Method::Auto, MemoryBudget::from_env()?, progress)?.points)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names() {
        for (s, n) in [
            ("internet", "Internet"),
            ("TCP", "Internet"),
            ("Fletcher-16", "Fletcher-16"),
            ("fletcher32", "Fletcher-32"),
            ("ADLER32", "Adler-32"),
            ("crc32", "CRC-32/ISO-HDLC"),
            ("crc32c", "CRC-32/ISCSI"),
        ] {
            assert_eq!(s.parse::<CheckSpec>().unwrap().name(), n, "{s}");
        }
        for s in DEFAULT_CHECKS {
            assert!(s.parse::<CheckSpec>().is_ok(), "{s}");
        }
        assert!("".parse::<CheckSpec>().is_err());
        assert!("fletcher64".parse::<CheckSpec>().is_err());
    }

    #[test]
    fn internet_curve_and_errors() {
        let c = CheckSpec::Internet;
        let pts = curve(&c, &[64, 1500], &[1e-6, 1e-5], None).unwrap();
        assert_eq!(pts.len(), 4);
        // BER-major
        assert_eq!((pts[0].ber, pts[0].bits, pts[1].bits), (1e-6, 512, 12000));
        assert_eq!(pts[2].ber, 1e-5);
        for pt in &pts {
            let v = internet::p_undetected(pt.bits / 8, pt.ber).unwrap();
            assert_eq!(pt.p_undetected, v);
            assert_eq!(pt.data_bits, pt.bits - 16);
        }
        assert!(curve(&c, &[], &[1e-5], None).is_err());
        assert!(curve(&c, &[10], &[], None).is_err());
        assert!(curve(&c, &[10], &[2.0], None).is_err());
        assert!(curve(&c, &[10], &[0.1], Some(&[1, 2, 3])).is_err());
        assert!(curve(&c, &[u64::MAX / 4], &[0.1], None).is_err());
        // very long frames still come out (the plain characteristic function)
        let long = curve(&c, &[1u64 << 40], &[1e-9], None).unwrap()[0];
        assert!(
            (long.p_alias_given_error * 65535.0 - 1.0).abs() < 1e-3,
            "{long:?}"
        );
        let pl = curve(&c, &[], &[0.01], Some(&[1, 2, 3, 4])).unwrap();
        assert_eq!(pl[0].bits, 32);
        // a CRC through the curve driver, lengths in bytes, BER-major whichever
        // method the driver picks; both methods agree
        let crc: CheckSpec = "crc16-ccitt".parse().unwrap();
        let pts = curve(&crc, &[64, 1518], &[1e-3, 1e-5], None).unwrap();
        let CheckSpec::Crc(alg) = &crc else { panic!() };
        for m in [crate::curve::Method::Markov, crate::curve::Method::Dual] {
            let direct = crate::curve::exact(alg, &[512, 12144], &[1e-3, 1e-5], m)
                .unwrap()
                .points;
            assert_eq!(direct.len(), 4);
            for (i, pt) in pts.iter().enumerate() {
                assert_eq!(
                    (pt.ber, pt.bits),
                    ([1e-3, 1e-5][i / 2], [512, 12144][i % 2])
                );
                let d = direct
                    .iter()
                    .find(|q| q.ber == pt.ber && q.bits == pt.bits)
                    .unwrap();
                let rel = (d.p_undetected - pt.p_undetected).abs() / pt.p_undetected;
                assert!(rel < 1e-10, "{m:?} {pt:?} {d:?}");
            }
        }
        for k in [CheckSpec::Fletcher32, CheckSpec::Adler32] {
            assert!(matches!(
                curve(&k, &[100], &[1e-5], None),
                Err(Error::Unsupported(_))
            ));
        }
    }
}
