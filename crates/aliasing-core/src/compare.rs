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
//! | `fletcher16` | [`crate::fletcher`] (the simulator's frame: random data, then the sum computed from it) | random data; BER 0, 1/2, 1 and where certified (refused in mid range on short frames) |
//! | `fletcher32`, `adler32` | none: see below | use `alias simulate` |
//!
//! Fletcher-32 and Adler-32 keep two sums modulo 65535 (65521), a joint state
//! space of about 4.3e9 residues: a characteristic-function sum over it costs
//! `4.3e9 x` (columns) per point, and a transition-matrix method is out of
//! reach; [`curve`] returns [`Error::Refused`] for them, and
//! `alias compare` shows `n/a` with that note.
//!
//! ```
//! use aliasing_core::{check::CheckSpec, compare::curve};
//! let inet: CheckSpec = "internet".parse().unwrap();
//! assert_eq!(inet.name(), "Internet");
//! let ctx = aliasing_core::ctx::Ctx::default();
//! let pts = curve(&inet, &[1500], &[1.5e-5], None, &ctx).unwrap();
//! assert_eq!(pts[0].bits, 12000);
//! assert!("crc32".parse::<CheckSpec>().is_ok());
//! assert!("no-such-check".parse::<CheckSpec>().is_err());
//! ```

use crate::bsc::{self, CurvePoint};
use crate::check::CheckSpec;
use crate::crc::CrcAlgorithm;
use crate::ctx::Ctx;
use crate::error::{Error, Result};
use crate::registry::{self, Ask, Channel, Entry};
use crate::units::{Ber, Bits, MemoryBudget};
use crate::{fletcher, internet};
use rayon::prelude::*;

/// The default set of `alias compare` (its `--checks` default): CRC-32,
/// CRC-32C, CRC-16-CCITT, Internet, Fletcher-32, Adler-32; the tests check
/// that each name resolves.
#[cfg(feature = "unit-tests")]
const DEFAULT_CHECKS: &[&str] = &[
    "crc32",
    "crc32c",
    "crc16-ccitt",
    "internet",
    "fletcher32",
    "adler32",
];

pub use crate::registry::Given;

/// Bytes of the stored field of `check` (the CRC's field is `ceil(width / 8)`
/// bytes, as the simulator stores it).
fn field_bytes(check: &CheckSpec) -> u64 {
    (check.check_bits() as u64).div_ceil(8)
}

/// The frame of `len` bytes that a sender builds from `data` for the
/// Internet checksum: the data repeated or cut to `len - 2` bytes, then the
/// field (big-endian) that makes the ones'-complement sum `0xFFFF`; `len`
/// must be even and at least 4 (the field starts a 16-bit word, as in
/// `alias simulate --stack internet`).
pub(crate) fn internet_frame(data: &[u8], len: u64) -> Result<Vec<u8>> {
    if data.is_empty() {
        return Err(Error::Invalid("the data are empty".into()));
    }
    internet_frame_length(len)?;
    let mut f: Vec<u8> = data
        .iter()
        .copied()
        .cycle()
        .take(len as usize - 2)
        .collect();
    let sum = crate::checksum::ones_complement_sum(&f, 0);
    f.extend_from_slice(&(!sum).to_be_bytes());
    Ok(f)
}

/// Refuses a length [`internet_frame`] cannot build: odd, or below 4 bytes.
fn internet_frame_length(len: u64) -> Result<()> {
    if len < 4 || len % 2 == 1 {
        return Err(Error::BadLength(format!(
            "{len} bytes: an Internet-checksum frame of data and its 2-byte field needs an even \
             number of bytes, at least 4 (give an even number of data bytes)"
        )));
    }
    Ok(())
}

/// Verifies a captured frame's check field: the Internet checksum's
/// ones'-complement sum over the frame is `0xFFFF`; a CRC's last
/// `ceil(width / 8)` bytes hold the CRC of the bytes before them
/// (little-endian when the CRC is reflected out, as the simulator stores it);
/// a Fletcher or Adler sum's last 2 or 4 bytes hold it, big-endian.
pub(crate) fn verify_frame(check: &CheckSpec, frame: &[u8]) -> Result<()> {
    let bad = |what: String| {
        Err(Error::Invalid(format!(
            "the {}-byte frame does not verify under {}: {what} (give the data alone with \
             to have the field computed)",
            frame.len(),
            check.name()
        )))
    };
    match check {
        CheckSpec::Internet => {
            let s = crate::checksum::ones_complement_sum(frame, 0);
            if s != 0xFFFF {
                return bad(format!("its ones'-complement sum is 0x{s:04X}, not 0xFFFF"));
            }
        }
        CheckSpec::Crc(alg) => {
            let l = field_bytes(check) as usize;
            if frame.len() <= l {
                return bad(format!("it has no data before the {l}-byte CRC field"));
            }
            let (data, field) = frame.split_at(frame.len() - l);
            let want = crate::layout::crc_value(alg, data);
            let got = field.iter().enumerate().fold(0u64, |v, (j, &b)| {
                let sh = if alg.refout() { j } else { l - 1 - j };
                v | (b as u64) << (8 * sh)
            });
            if got != want {
                return bad(format!(
                    "its last {l} bytes hold 0x{got:X}, the CRC of the bytes before is 0x{want:X}"
                ));
            }
        }
        sum => {
            // Fletcher and Adler sums: the last 2 or 4 bytes, big-endian
            use crate::check::Check;
            let l = field_bytes(check) as usize;
            if frame.len() <= l {
                return bad(format!("it has no data before the {l}-byte field"));
            }
            let (data, field) = frame.split_at(frame.len() - l);
            let want = match sum {
                CheckSpec::Fletcher16 => crate::checksum::Fletcher16.compute(data),
                CheckSpec::Fletcher32 => crate::checksum::Fletcher32.compute(data),
                _ => crate::checksum::Adler32.compute(data),
            };
            let got = field.iter().fold(0u64, |v, &b| v << 8 | b as u64);
            if got != want {
                return bad(format!(
                    "its last {l} bytes hold 0x{got:X}, the sum of the bytes before is 0x{want:X}"
                ));
            }
        }
    }
    Ok(())
}

/// The exact aliasing curve of `check` at every length in `bytes` (whole
/// frames, check field included) and BER, BER-major (every length for the
/// first BER, then the next). With `given`, the given-data computation
/// ([`Given`]): the Internet checksum over the frame's actual bits
/// ([`internet::p_undetected_payload`] on the frame a sender builds from
/// [`Given::Data`], or on a verified [`Given::Frame`]); a CRC does not
/// depend on the data, so only the lengths matter (a frame is still verified).
///
/// Returns [`Error::Refused`] (one line, the typed reason) where no exact
/// method of the registry applies: Fletcher-32 and Adler-32
/// ([`registry::Refusal::TwoSums`]), Fletcher-16 with given data
/// ([`registry::Refusal::Data`]), and Fletcher-16 where its value cannot be
/// certified ([`registry::Refusal::Uncertified`]).
///
/// Runs in `ctx`: a CRC's curve is held to its memory budget and watched
/// by its progress (the stages of [`crate::curve::exact`]); a checksum's
/// has one stage, `"points"`, of one unit per (BER, length).
pub fn curve(
    check: &CheckSpec,
    bytes: &[u64],
    bers: &[f64],
    given: Option<Given<'_>>,
    ctx: &Ctx,
) -> Result<Vec<CurvePoint>> {
    let progress = ctx.progress();
    let whole = preflight(check, bytes, bers, given)?;
    let bytes: &[u64] = whole.as_deref().unwrap_or(bytes);
    if let CheckSpec::Crc(crc) = check {
        return crc_curve(crc, bytes, bers, ctx);
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
            let pt = checksum_curve(check, &[b], &[p], given)?;
            progress.advance(1);
            Ok(pt)
        })
        .collect::<Result<_>>()?;
    Ok(per.into_iter().flatten().collect())
}

/// Refuses, without computing, what [`curve`] would refuse for the
/// request itself (an empty or bad BER list, lengths too short or long for
/// `check`, a captured frame that does not verify, given data that make no
/// frame of a length asked for); `Ok` carries the lengths of a request that
/// takes them from the given data or frame. A method's own refusal (no exact
/// method, too big) is not decided here. For refusing a comparison before
/// any of its columns is computed.
pub(crate) fn preflight(
    check: &CheckSpec,
    bytes: &[u64],
    bers: &[f64],
    given: Option<Given<'_>>,
) -> Result<Option<Vec<u64>>> {
    if bers.is_empty() {
        return Err(Error::BadBer("list is empty".into()));
    }
    for &p in bers {
        bsc::check_ber(p)?;
    }
    let whole = match given {
        Some(Given::Data([])) => {
            return Err(Error::Invalid("the data are empty".into()));
        }
        Some(Given::Data(d)) => Some([d.len() as u64 + field_bytes(check)]),
        Some(Given::Frame(f)) => {
            verify_frame(check, f)?;
            Some([f.len() as u64])
        }
        None => None,
    };
    let from_given = bytes.is_empty() && whole.is_some();
    let bytes: &[u64] = match (&whole, from_given) {
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
    if let Some(Given::Frame(f)) = given
        && let Some(&b) = bytes.iter().find(|&&b| b != f.len() as u64)
    {
        return Err(Error::BadLength(format!(
            "{b} bytes: a captured frame has one length, its own ({} bytes)",
            f.len()
        )));
    }
    // (empty data were refused above)
    if let (CheckSpec::Internet, Some(Given::Data(_))) = (check, given) {
        for &b in bytes {
            internet_frame_length(b)?;
        }
    }
    Ok(from_given.then(|| bytes.to_vec()))
}

/// The exact curve of a checksum (not a CRC), BER-major, after validation:
/// by the entry the registry chooses ([`registry::choose`]), or its typed
/// refusal.
fn checksum_curve(
    check: &CheckSpec,
    bytes: &[u64],
    bers: &[f64],
    given: Option<Given<'_>>,
) -> Result<Vec<CurvePoint>> {
    let bits: Vec<Bits> = bytes.iter().map(|&b| Bits(8 * b)).collect();
    let ber_list = Ber::list(bers)?;
    let ask = Ask::Codeword {
        check: check.into(),
        lengths: &bits,
        channel: Channel::Bsc(&ber_list),
        given,
    };
    // (a checksum's entries need no memory to speak of: no budget is read)
    let budget = MemoryBudget::bytes(f64::MAX)?;
    match (registry::choose(&ask, budget)?, given) {
        (Entry::InternetRandom, _) => internet::curve(bytes, bers),
        (Entry::InternetGiven, Some(Given::Frame(f))) => internet::curve_payload(f, bytes, bers),
        (Entry::InternetGiven, Some(Given::Data(d))) => {
            let mut pts = Vec::new();
            for &p in bers {
                for &b in bytes {
                    let frame = internet_frame(d, b)?;
                    pts.extend(internet::curve_payload(&frame, &[], &[p])?);
                }
            }
            Ok(pts)
        }
        (Entry::Fletcher16, _) => fletcher::curve16(bytes, bers),
        _ => unreachable_entry(check),
    }
}

fn unreachable_entry<T>(check: &CheckSpec) -> Result<T> {
    Err(Error::Invalid(format!(
        "internal error: the registry chose a method that does not compute {}",
        check.name()
    )))
}

/// The estimated time, in seconds, of [`curve`] for `check` at these
/// lengths (bytes) and BERs: for a CRC the cost model of
/// [`crate::curve::estimated_seconds`] (the method [`curve`] picks), for a
/// checksum `NaN` (no cost model: its points take well under a minute at
/// the lengths accepted), under the memory budget `budget`. For announcing
/// a long comparison before it starts.
pub(crate) fn estimated_seconds(
    check: &CheckSpec,
    bytes: &[u64],
    bers: &[f64],
    budget: MemoryBudget,
) -> f64 {
    use crate::curve::{Method, Request};
    let CheckSpec::Crc(crc) = check else {
        return f64::NAN;
    };
    let bits: Vec<Bits> = bytes.iter().map(|&b| Bits(b.saturating_mul(8))).collect();
    let Ok(bers) = Ber::list(bers) else {
        return f64::NAN;
    };
    Request::for_crc(crc, &bits, &bers)
        .map(|req| crate::curve::estimated_seconds(&req, Method::Auto, budget))
        .unwrap_or(f64::NAN)
}

/// Exact CRC curve over byte lengths, BER-major, by [`crate::curve::exact`]
/// (which picks the Markov chain or the dual code). The points are put in
/// BER-major order by their (BER, length) here, whatever order the method
/// returns them in.
fn crc_curve(
    crc: &CrcAlgorithm,
    bytes: &[u64],
    bers: &[f64],
    ctx: &Ctx,
) -> Result<Vec<CurvePoint>> {
    use crate::curve::{Method, Request, exact};
    let bits: Vec<Bits> = bytes.iter().map(|&b| Bits(8 * b)).collect();
    let req = Request::for_crc(crc, &bits, &Ber::list(bers)?)?;
    // exact returns its points BER-major, whatever method it picked.
    Ok(exact(&req, Method::Auto, ctx)?.points)
}

#[cfg(feature = "unit-tests")]
#[doc(hidden)]
pub mod tests {
    pub fn estimated_seconds_come_from_the_crc_cost_model() {
        let crc: CheckSpec = "crc32".parse().unwrap();
        let b = MemoryBudget::bytes(8e9).unwrap();
        let one = estimated_seconds(&crc, &[9000], &[1e-5], b);
        let many = estimated_seconds(
            &crc,
            &(1..=20).map(|k| 450 * k).collect::<Vec<_>>(),
            &[1e-5],
            b,
        );
        assert!(one > 0.0 && many > one, "{one} {many}");
        assert!(estimated_seconds(&"internet".parse().unwrap(), &[9000], &[1e-5], b).is_nan());
    }

    use super::*;

    /// [`super::curve`] in a default context.
    fn curve(
        check: &CheckSpec,
        bytes: &[u64],
        bers: &[f64],
        given: Option<Given<'_>>,
    ) -> Result<Vec<CurvePoint>> {
        super::curve(check, bytes, bers, given, &Ctx::default())
    }

    pub fn names() {
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

    pub fn internet_curve_and_errors() {
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
        assert!(curve(&c, &[10], &[0.1], Some(Given::Frame(&[1, 2, 3]))).is_err());
        assert!(curve(&c, &[u64::MAX / 4], &[0.1], None).is_err());
        // very long frames still come out (the plain characteristic function)
        let long = curve(&c, &[1u64 << 40], &[1e-9], None).unwrap()[0];
        assert!(
            (long.p_alias_given_error * 65535.0 - 1.0).abs() < 1e-3,
            "{long:?}"
        );
        // given data: the field computed from them, 2 bytes longer
        let pl = curve(&c, &[], &[0.01], Some(Given::Data(&[1, 2, 3, 4]))).unwrap();
        assert_eq!(pl[0].bits, 48);
        // a CRC through the curve driver, lengths in bytes, BER-major whichever
        // method the driver picks; both methods agree
        let crc: CheckSpec = "crc16-ccitt".parse().unwrap();
        let pts = curve(&crc, &[64, 1518], &[1e-3, 1e-5], None).unwrap();
        let CheckSpec::Crc(alg) = &crc else { panic!() };
        for m in [crate::curve::Method::Markov, crate::curve::Method::Dual] {
            let bers = Ber::list(&[1e-3, 1e-5]).unwrap();
            let req = crate::curve::Request::for_crc(alg, &[Bits(512), Bits(12144)], &bers);
            let direct = crate::curve::exact(&req.unwrap(), m, &Ctx::default())
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
        for (k, m) in [(CheckSpec::Fletcher32, 65535), (CheckSpec::Adler32, 65521)] {
            assert!(matches!(
                curve(&k, &[100], &[1e-5], None),
                Err(Error::Refused(registry::Refusal::TwoSums { modulus, .. })) if modulus == m
            ));
        }
        assert!(matches!(
            curve(
                &CheckSpec::Fletcher16,
                &[100],
                &[1e-5],
                Some(Given::Data(&[1, 2]))
            ),
            Err(Error::Refused(registry::Refusal::Data { given: true, .. }))
        ));
    }

    pub fn captured_frames_verify_under_their_own_check_only() {
        use crate::layout::{Frame, Payload};
        // the simulator's frames, built by a sender, verify under their check
        for (stack, spec) in [
            ("internet", "internet"),
            ("fletcher16", "fletcher16"),
            ("fletcher32", "fletcher32"),
            ("adler32", "adler32"),
            ("CRC-16/ARC", "CRC-16/ARC"),
            ("crc32", "crc32"),
            ("CRC-12/DECT", "CRC-12/DECT"),
        ] {
            let f = Frame::new(stack, 24, Payload::Fixed(b"frame data".to_vec())).unwrap();
            let sent = f.sent(&[]);
            let check: CheckSpec = spec.parse().unwrap();
            verify_frame(&check, &sent).unwrap_or_else(|e| panic!("{stack}: {e}"));
            let mut bad = sent.clone();
            bad[3] ^= 0x10;
            assert!(
                matches!(verify_frame(&check, &bad), Err(Error::Invalid(_))),
                "{stack}"
            );
        }
        // the data and the frame built from them mean the same
        let data = [0x45u8, 0, 0, 0x73, 0, 0, 0x40, 0];
        let frame = internet_frame(&data, 10).unwrap();
        assert_eq!(&frame[8..], &[0x7a, 0x8c]);
        let c = CheckSpec::Internet;
        let a = curve(&c, &[], &[1e-3, 1.0], Some(Given::Data(&data))).unwrap();
        let b = curve(&c, &[], &[1e-3, 1.0], Some(Given::Frame(&frame))).unwrap();
        assert_eq!(a, b);
        assert_eq!(a[1].p_undetected, 1.0);
        assert!(curve(&c, &[], &[1e-3], Some(Given::Frame(&data))).is_err());
        assert!(internet_frame(&data, 9).is_err());
    }
}
