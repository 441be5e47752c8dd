//! Exact aliasing curves: `P_undetected` and `P(alias | error)` against
//! codeword length for several BERs, choosing the exact method.
//!
//! This is the driver behind `alias curve`. It validates the request (BERs
//! in [0, 1], lengths at least `width + 1`), picks a method and returns the
//! points with the method used.
//!
//! ```
//! use aliasing_core::{catalogue, ctx::Ctx, curve, units::{Ber, Bits}};
//! let crc = catalogue::resolve("CRC-16/IBM-3740").unwrap();
//! let req = curve::Request::for_crc(&crc, &[Bits(512), Bits(12144)], &[Ber::new(1e-5).unwrap()]).unwrap();
//! let res = curve::exact(&req, curve::Method::Auto, &Ctx::default()).unwrap();
//! // two lengths of a 16-bit CRC: the dual code is cheaper than the chain
//! assert_eq!(res.method, curve::Method::Dual);
//! let pt = &res.points[1];
//! assert_eq!((pt.bits, pt.data_bits), (12144, 12128));
//! // Far better than an ideal 16-bit check at this low BER:
//! assert!(res.ratio_to_ideal(pt) < 1e-2);
//! ```

use crate::bsc::CurvePoint;
use crate::crc::CrcAlgorithm;
use crate::ctx::Ctx;
use crate::error::{Error, Result};
use crate::poly::Generator;
use crate::progress::Progress;
use crate::registry::{self, Ask, Channel, Check, Entry};
use crate::units::{Ber, Bits, MemoryBudget};
use crate::{dual, markov};
use std::fmt;
use std::str::FromStr;

/// An exact method for the curve. New methods (dual code, checksums) are
/// added as variants; [`Method::Auto`] picks the best one that applies.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[cfg_attr(feature = "clap", derive(clap::ValueEnum))]
#[serde(rename_all = "lowercase")]
#[non_exhaustive]
pub enum Method {
    /// Choose, among the methods that apply to the request and fit the
    /// memory budget, the one with the smallest estimated time (see
    /// [`ExactMethod::assess`]).
    #[cfg_attr(
        feature = "clap",
        value(help = "The best exact method that applies \
        (dual for wide CRCs and few lengths, markov otherwise; the output says which)")
    )]
    Auto,
    /// The Markov chain over register states ([`crate::markov`]):
    /// `O(n 2^r)` time, `O(2^r)` memory per BER in flight.
    #[cfg_attr(
        feature = "clap",
        value(help = "Markov chain over register states: \
        time O(n 2^r), memory O(2^r)")
    )]
    Markov,
    /// The dual code's weight distribution and MacWilliams ([`crate::dual`]):
    /// `O(2^r)` per length, widths up to 32.
    #[cfg_attr(
        feature = "clap",
        value(help = "Dual-code weights and MacWilliams: \
        O(2^r) per length, widths <= 32")
    )]
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
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
#[non_exhaustive]
pub struct CurveResult {
    /// The CRC's name as resolved.
    pub name: String,
    /// Its generator polynomial.
    pub generator: Generator,
    /// The method actually used (never [`Method::Auto`]).
    pub method: Method,
    /// One point per BER and length, BER-major, lengths ascending.
    pub points: Vec<CurvePoint>,
}

impl CurveResult {
    /// `P(alias | error) / 2^-r`: aliasing relative to the `2^-r` of an ideal
    /// `r`-bit check (1 means "as good as random").
    pub fn ratio_to_ideal(&self, pt: &CurvePoint) -> f64 {
        pt.p_alias_given_error * 2f64.powi(self.generator.width() as i32)
    }
}

/// A validated request for a CRC's exact curve: the CRC (its name and
/// generator, stated once: the result is computed on and labelled by the
/// same CRC), lengths in bits (ascending, without repeats) and BERs (in the
/// order given).
///
/// Results come back in one order for every method: BER-major (every length
/// of the first BER, then the next), lengths ascending.
#[derive(Debug, Clone, PartialEq)]
pub struct Request {
    name: String,
    generator: Generator,
    lengths: Vec<Bits>,
    bers: Vec<Ber>,
}

impl Request {
    /// A request for the curve of `crc` (named as `crc` is; see
    /// [`Request::new`] for the checks).
    ///
    /// ```
    /// use aliasing_core::{catalogue, curve::{self, Method, Request}, units::{Ber, Bits}};
    /// use aliasing_core::ctx::Ctx;
    /// let crc = catalogue::resolve("crc16-ccitt")?;
    /// let req = Request::for_crc(&crc, &[Bits(12144)], &[Ber::new(1e-6)?])?;
    /// let res = curve::exact(&req, Method::Auto, &Ctx::from_env()?)?;
    /// assert_eq!(res.name, "CRC-16/KERMIT");
    /// assert_eq!(res.generator, crc.generator());
    /// # Ok::<(), aliasing_core::Error>(())
    /// ```
    pub fn for_crc(crc: &CrcAlgorithm, lengths: &[Bits], bers: &[Ber]) -> Result<Request> {
        let mut req = Request::new(&crc.generator(), lengths, bers)?;
        req.name = crc.name().to_string();
        Ok(req)
    }

    /// Checks a curve request: at least one BER and one length, every length
    /// at least `width + 1` bits (one data bit). Lengths are sorted and
    /// repeats dropped. The curve is named `custom <full form>`, as
    /// [`CrcAlgorithm::plain`] names a bare generator.
    pub fn new(generator: &Generator, lengths: &[Bits], bers: &[Ber]) -> Result<Request> {
        if bers.is_empty() {
            return Err(Error::BadBer("list is empty".into()));
        }
        if lengths.is_empty() {
            return Err(Error::BadLength("the length list is empty".into()));
        }
        let width = generator.width();
        if let Some(n) = lengths.iter().find(|n| n.0 <= width as u64) {
            return Err(Error::BadLength(format!(
                "{} bits is too short for a {width}-bit check (a codeword has the \
                 {width} check bits plus at least one data bit)",
                n.0
            )));
        }
        let mut lengths = lengths.to_vec();
        lengths.sort_unstable();
        lengths.dedup();
        Ok(Request {
            name: format!("custom {}", generator.full_string()),
            generator: *generator,
            lengths,
            bers: bers.to_vec(),
        })
    }

    /// The name the result carries.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The generator.
    pub fn generator(&self) -> &Generator {
        &self.generator
    }

    /// Codeword lengths in bits, ascending.
    pub fn lengths(&self) -> &[Bits] {
        &self.lengths
    }

    /// Bit error rates, in the order given.
    pub fn bers(&self) -> &[Ber] {
        &self.bers
    }

    fn raw_lengths(&self) -> Vec<u64> {
        self.lengths.iter().map(|n| n.0).collect()
    }

    fn raw_bers(&self) -> Vec<f64> {
        self.bers.iter().map(|p| p.get()).collect()
    }
}

pub use crate::registry::{Cost, Domain, domains};

/// The registry's ask for a curve request on the binary symmetric channel.
fn ask(req: &Request) -> Ask<'_> {
    Ask::Codeword {
        check: Check::Crc(req.generator),
        lengths: &req.lengths,
        channel: Channel::Bsc(&req.bers),
        given: None,
    }
}

/// An exact method for a CRC's curve. A new method is an entry of the
/// registry ([`registry::Entry`], whose assessment and domain it returns),
/// a type implementing this trait, listed in [`methods`] and given a
/// [`Method`] variant; [`Method::Auto`] asks the registry.
pub trait ExactMethod: Sync {
    /// Its name.
    fn method(&self) -> Method;

    /// Whether the method applies to `req` (an error saying why not, e.g. a
    /// width or BER outside its range) and at what cost. It refuses every
    /// request outside [`ExactMethod::domain`].
    fn assess(&self, req: &Request) -> Result<Cost>;

    /// Where the method's value is exact: the checks, channel, data model,
    /// BERs, widths and lengths that [`ExactMethod::assess`] accepts.
    fn domain(&self) -> Domain;

    /// The points, BER-major with lengths ascending, reporting to
    /// `progress` (see [`crate::progress`]); only called after
    /// [`ExactMethod::admit`] accepted the request.
    fn compute(
        &self,
        req: &Request,
        budget: MemoryBudget,
        progress: &dyn Progress,
    ) -> Result<Vec<CurvePoint>>;

    /// [`ExactMethod::assess`], then [`Error::TooBig`] if the memory does
    /// not fit `budget`.
    fn admit(&self, req: &Request, budget: MemoryBudget) -> Result<Cost> {
        let cost = self.assess(req)?;
        budget.admit(|| self.describe(req), cost.bytes)?;
        Ok(cost)
    }

    /// What a refusal names: `the exact Markov solver for a 16-bit CRC`.
    fn describe(&self, req: &Request) -> String {
        format!(
            "the {} method for {}",
            self.method(),
            req.generator().full_string()
        )
    }
}

/// The Markov chain over register states ([`crate::markov`]).
struct MarkovMethod;

impl ExactMethod for MarkovMethod {
    fn method(&self) -> Method {
        Method::Markov
    }
    fn domain(&self) -> Domain {
        Entry::Markov.domain()
    }
    fn assess(&self, req: &Request) -> Result<Cost> {
        Entry::Markov.assess(&ask(req))
    }
    fn compute(
        &self,
        req: &Request,
        _budget: MemoryBudget,
        progress: &dyn Progress,
    ) -> Result<Vec<CurvePoint>> {
        let (lengths, bers) = (req.raw_lengths(), req.raw_bers());
        // BER-major: one chain pass per BER gives every length.
        let pud = markov::solve_watched(req.generator(), &lengths, &bers, progress);
        Ok(markov::points(req.generator(), &lengths, &bers, &pud))
    }
    fn describe(&self, req: &Request) -> String {
        Entry::Markov.describe(&ask(req))
    }
}

/// The dual code's weights and MacWilliams ([`crate::dual`]).
struct DualMethod;

impl ExactMethod for DualMethod {
    fn method(&self) -> Method {
        Method::Dual
    }
    fn domain(&self) -> Domain {
        Entry::Dual.domain()
    }
    fn assess(&self, req: &Request) -> Result<Cost> {
        Entry::Dual.assess(&ask(req))
    }
    fn compute(
        &self,
        req: &Request,
        budget: MemoryBudget,
        progress: &dyn Progress,
    ) -> Result<Vec<CurvePoint>> {
        let (lengths, bers) = (req.raw_lengths(), req.raw_bers());
        // dual::curve is length-major: point (l, b) sits at l * |bers| + b.
        let by_length = dual::curve_in(req.generator(), &lengths, &bers, budget, progress)?;
        let nb = bers.len();
        Ok((0..nb)
            .flat_map(|b| (0..lengths.len()).map(move |l| (l, b)))
            .map(|(l, b)| by_length[l * nb + b])
            .collect())
    }
    fn describe(&self, req: &Request) -> String {
        Entry::Dual.describe(&ask(req))
    }
}

/// Every exact method for CRCs, in the order [`Method::Auto`] prefers them
/// on equal cost (its error, when none applies, is the first one's).
pub fn methods() -> &'static [&'static dyn ExactMethod] {
    &[&MarkovMethod, &DualMethod]
}

/// The estimated time, in seconds, of `req` by `method`: the cost model
/// the methods give ([`ExactMethod::assess`]); for [`Method::Auto`] that
/// of the method it picks, the fastest that fits `budget`. `NaN` when none
/// applies (the run then says why). For announcing a long run before it
/// starts.
pub(crate) fn estimated_seconds(req: &Request, method: Method, budget: MemoryBudget) -> f64 {
    methods()
        .iter()
        .filter(|m| method == Method::Auto || m.method() == method)
        .filter_map(|m| m.admit(req, budget).ok())
        .map(|c| c.seconds)
        .min_by(f64::total_cmp)
        .unwrap_or(f64::NAN)
}

fn method_of(m: Method) -> Option<&'static dyn ExactMethod> {
    methods().iter().copied().find(|x| x.method() == m)
}

/// Checks a curve request: at least one BER and one length, every BER in
/// [0, 1], every length at least `width + 1` bits (one data bit).
pub(crate) fn validate(width: u32, lengths: &[u64], bers: &[f64]) -> Result<()> {
    let bers = Ber::list(bers)?;
    let g = Generator::new(width, 1)?;
    let lengths: Vec<Bits> = lengths.iter().map(|&n| Bits(n)).collect();
    Request::new(&g, &lengths, &bers).map(|_| ())
}

/// The exact curve of a validated request (the CRC, its lengths in bits,
/// check bits included, and its BERs: see [`Request::for_crc`]) with
/// `method` ([`Method::Auto`] picks one), in `ctx`: held to its memory
/// budget and watched by its progress (the stages of the method chosen:
/// `"chain steps"` of the Markov chain, or the dual code's `"dual-code
/// windows"` and `"P_ud terms"`). Points are BER-major, lengths ascending
/// (repeats dropped).
///
/// Fails with [`Error::TooBig`] when the method would not fit the budget
/// (checked before allocating), or with the method's refusal.
pub fn exact(req: &Request, method: Method, ctx: &Ctx) -> Result<CurveResult> {
    let (budget, progress) = (ctx.budget(), ctx.progress());
    let chosen: &dyn ExactMethod = match method {
        Method::Auto => choose_within(req, budget)?,
        m => {
            let x = method_of(m).expect("every method but auto is listed");
            x.admit(req, budget)?;
            x
        }
    };
    let points = chosen.compute(req, budget, progress)?;
    Ok(CurveResult {
        name: req.name.clone(),
        generator: *req.generator(),
        method: chosen.method(),
        points,
    })
}

/// The exact escape probability of `crc` at one length and BER, in one
/// call (the method chosen as by [`Method::Auto`]).
///
/// ```
/// use aliasing_core::{catalogue::CRC_16_IBM_3740, ctx::Ctx, curve::escape, units::{Ber, Bytes}};
/// let ctx = Ctx::default();
/// let pt = escape(&CRC_16_IBM_3740.algorithm(), Bytes(1518), Ber::new(1e-9)?, &ctx)?;
/// assert_eq!((pt.bits, pt.data_bits), (12144, 12128));
/// assert!(pt.p_undetected > 0.0 && pt.p_undetected < 1e-20);
/// # Ok::<(), aliasing_core::Error>(())
/// ```
pub fn escape(
    crc: &CrcAlgorithm,
    length: impl Into<Bits>,
    ber: Ber,
    ctx: &Ctx,
) -> Result<CurvePoint> {
    let req = Request::for_crc(crc, &[length.into()], &[ber])?;
    let res = exact(&req, Method::Auto, ctx)?;
    Ok(res.points[0])
}

/// `auto` for a CRC's curve: the registry's choice ([`registry::choose`])
/// among the value methods of [`methods`].
fn choose_within(req: &Request, budget: MemoryBudget) -> Result<&'static dyn ExactMethod> {
    let entry = registry::choose(&ask(req), budget)?;
    let m = match entry {
        Entry::Markov => Method::Markov,
        Entry::Dual => Method::Dual,
        e => {
            return Err(Error::Invalid(format!(
                "internal error: the registry chose {e} for a CRC's curve"
            )));
        }
    };
    Ok(method_of(m).expect("every method but auto is listed"))
}

/// The method [`Method::Auto`] picks for `g` at `lengths` with `bers`
/// (validated BERs), under the memory budget `budget` (a context's
/// [`Ctx::budget`]): among the methods that apply and fit, the one with the
/// smallest estimated time.
///
/// Fails when no method applies (the registry's typed refusal).
pub fn choose(
    g: &Generator,
    lengths: &[Bits],
    bers: &[Ber],
    budget: MemoryBudget,
) -> Result<Method> {
    let req = Request::new(g, lengths, bers)?;
    Ok(choose_within(&req, budget)?.method())
}

#[cfg(feature = "unit-tests")]
#[doc(hidden)]
pub mod tests {
    /// The request states the CRC once: the result is named after the CRC
    /// whose generator it was computed on (a result of CRC-32C's generator
    /// labelled CRC-32/ISO-HDLC cannot be asked for).
    pub fn results_are_named_after_the_crc_they_are_computed_on() {
        let bers = Ber::list(&[1e-6]).unwrap();
        // 16-bit CRCs: the name is what is tested, and a 32-bit CRC's dual
        // pass (2^32 states, seconds) would say nothing more about it
        for name in ["CRC-16/ARC", "CRC-16/KERMIT", "CRC-8/SMBUS"] {
            let crc = catalogue::resolve(name).unwrap();
            let req = Request::for_crc(&crc, &[Bits(1000)], &bers).unwrap();
            let res = exact(&req, Method::Auto, &Ctx::default()).unwrap();
            assert_eq!(
                (res.name.as_str(), res.generator),
                (crc.name(), crc.generator())
            );
            let bare = Request::new(&crc.generator(), &[Bits(1000)], &bers).unwrap();
            let plain = exact(&bare, Method::Auto, &Ctx::default()).unwrap();
            assert_eq!(plain.name, CrcAlgorithm::plain(crc.generator()).name());
            assert_eq!(plain.points, res.points);
        }
        let a = ex(
            &catalogue::resolve("CRC-16/ARC").unwrap(),
            &[1000],
            &[1e-6],
            Method::Auto,
        )
        .unwrap();
        let b = ex(
            &catalogue::resolve("CRC-16/KERMIT").unwrap(),
            &[1000],
            &[1e-6],
            Method::Auto,
        )
        .unwrap();
        assert_ne!(a.points[0].p_undetected, b.points[0].p_undetected);
    }

    use super::*;
    use crate::catalogue;

    /// [`exact`] on raw lengths (bits) and BERs, validated as a caller
    /// would, in a default context.
    fn ex(crc: &CrcAlgorithm, lengths: &[u64], bers: &[f64], m: Method) -> Result<CurveResult> {
        ex_in(crc, lengths, bers, m, &Ctx::default())
    }

    fn ex_in(
        crc: &CrcAlgorithm,
        lengths: &[u64],
        bers: &[f64],
        m: Method,
        ctx: &Ctx,
    ) -> Result<CurveResult> {
        let lengths: Vec<Bits> = lengths.iter().map(|&n| Bits(n)).collect();
        let req = Request::for_crc(crc, &lengths, &Ber::list(bers)?)?;
        exact(&req, m, ctx)
    }

    pub fn validation() {
        let crc = catalogue::resolve("crc16-ccitt").unwrap();
        for (l, b) in [
            (vec![], vec![1e-5]),
            (vec![16], vec![1e-5]),
            (vec![100], vec![]),
            (vec![100], vec![-0.1]),
            (vec![100], vec![f64::NAN]),
        ] {
            assert!(ex(&crc, &l, &b, Method::Auto).is_err(), "{l:?} {b:?}");
        }
        let res = ex(&crc, &[17], &[0.5], Method::Markov).unwrap();
        // 2^-16 - 2^-17 = 2^-17 at n = 17.
        assert_eq!(res.points[0].p_undetected, 2f64.powi(-17));
        assert_eq!(res.method, Method::Markov);
    }

    pub fn every_method_states_its_domain() {
        assert_eq!(
            crate::joint::MAX_CHECKS,
            4,
            "update the joint terms' domain"
        );
        let d = domains();
        assert_eq!(d.len(), registry::Entry::ALL.len() + 1);
        let t = crate::registry::domain::domain_table();
        assert_eq!(t.lines().count(), d.len() + 2);
        // the dual code's stated BER range is the one it enforces
        let crc = catalogue::resolve("crc16-ccitt").unwrap();
        let max = registry::DUAL_MAX_BER;
        assert!(ex(&crc, &[40], &[max], Method::Dual).is_ok());
        let above = f64::from_bits(max.to_bits() + 1);
        let e = ex(&crc, &[40], &[above], Method::Dual).unwrap_err();
        assert!(
            matches!(e, Error::Refused(registry::Refusal::Ber { ber, max: 0.5, .. }) if ber == above),
            "{e}"
        );
        assert_eq!(
            e.to_string(),
            format!("the dual-code method handles bit error rates up to 0.5, not {above}")
        );
        assert!(t.contains(&format!("widths 1 to {}", dual::MAX_WIDTH)));
        assert!(t.contains(&format!("widths 1 to {}", markov::gilbert::MAX_WIDTH)));
    }

    pub fn method_names() {
        for m in Method::ALL {
            assert_eq!(m.name().parse::<Method>().unwrap(), *m);
        }
        assert!("dual?".parse::<Method>().is_err());
    }

    pub fn auto_and_dual_agree_with_markov() {
        // Independent methods on the same request: the chain and the dual code.
        let crc = catalogue::resolve("crc16-ccitt").unwrap();
        let lengths = [40, 512, 1000];
        let bers = [0.5, 1e-3, 1e-9];
        let m = ex(&crc, &lengths, &bers, Method::Markov).unwrap();
        let d = ex(&crc, &lengths, &bers, Method::Dual).unwrap();
        assert_eq!(d.method, Method::Dual);
        for (a, b) in m.points.iter().zip(&d.points) {
            let rel = (a.p_undetected - b.p_undetected).abs() / a.p_undetected;
            assert!(rel < 1e-12, "{a:?} vs {b:?}");
        }
        // A 32-bit CRC at one length goes to the dual code.
        let crc32 = catalogue::resolve("crc32").unwrap();
        let b1 = Ber::list(&[1e-5]).unwrap();
        let b5 = Ber::list(&[1e-4, 1e-5, 1e-6, 1e-7, 1e-8]).unwrap();
        assert_eq!(
            choose(
                &crc32.generator(),
                &[Bits(12144)],
                &b1,
                MemoryBudget::bytes(8e9).unwrap()
            )
            .unwrap(),
            Method::Dual
        );
        // Every length of a 16-bit CRC goes to the chain (one pass for all),
        // a handful of lengths to the dual code.
        let all: Vec<Bits> = (17..=12144).map(Bits).collect();
        let crc16 = catalogue::resolve("16").unwrap();
        assert_eq!(
            choose(
                &crc16.generator(),
                &all,
                &b5,
                MemoryBudget::bytes(8e9).unwrap()
            )
            .unwrap(),
            Method::Markov
        );
        assert_eq!(
            choose(
                &crc16.generator(),
                &[Bits(512), Bits(12144)],
                &b5,
                MemoryBudget::bytes(8e9).unwrap()
            )
            .unwrap(),
            Method::Dual
        );
        // A BER above 1/2 is outside the dual code's range: auto takes the
        // chain (`alias curve --crc 16 --ber 0.7 --bits 12144`).
        let high = Ber::list(&[0.7]).unwrap();
        assert_eq!(
            choose(
                &crc16.generator(),
                &[Bits(12144)],
                &high,
                MemoryBudget::bytes(8e9).unwrap()
            )
            .unwrap(),
            Method::Markov
        );
        let res = ex(&crc16, &[12144], &[0.7], Method::Auto).unwrap();
        // At BER > 1/2 long codewords alias at almost exactly 2^-16.
        let pt = res.points[0];
        assert!((res.ratio_to_ideal(&pt) - 1.0).abs() < 1e-6, "{pt:?}");
        assert!(ex(&crc16, &[12144], &[0.7], Method::Dual).is_err());
    }

    pub fn one_order_whatever_the_method() {
        // BER-major, lengths ascending, repeats dropped, for both methods.
        let crc = catalogue::resolve("crc16-ccitt").unwrap();
        let lengths = [1000, 40, 512, 40];
        let bers = [1e-3, 0.5, 1e-9];
        let m = ex(&crc, &lengths, &bers, Method::Markov).unwrap();
        let d = ex(&crc, &lengths, &bers, Method::Dual).unwrap();
        let key = |r: &CurveResult| -> Vec<(f64, u64)> {
            r.points.iter().map(|p| (p.ber, p.bits)).collect()
        };
        let want: Vec<(f64, u64)> = bers
            .iter()
            .flat_map(|&p| [40, 512, 1000].map(|n| (p, n)))
            .collect();
        assert_eq!(key(&m), want);
        assert_eq!(key(&d), want);
    }

    pub fn a_budget_refuses_before_computing() {
        let crc = catalogue::resolve("16").unwrap();
        let req = Request::for_crc(&crc, &[Bits(12144)], &Ber::list(&[1e-5]).unwrap()).unwrap();
        let tiny = MemoryBudget::bytes(1024.0).unwrap();
        for m in [Method::Auto, Method::Markov, Method::Dual] {
            let e = exact(&req, m, &Ctx::new(tiny)).unwrap_err();
            assert!(matches!(e, Error::TooBig { .. }), "{m}: {e}");
        }
        let ok = MemoryBudget::bytes(1e9).unwrap();
        assert!(exact(&req, Method::Auto, &Ctx::new(ok)).is_ok());
    }

    pub fn too_big_is_refused() {
        // CRC-32 needs 32 GiB: refused wherever the limit is below that
        // (only then is it safe to ask: above, the run would go ahead).
        let crc = catalogue::resolve("crc32").unwrap();
        let gib = Ctx::new(MemoryBudget::bytes(1024.0 * 1024.0 * 1024.0).unwrap());
        let e = ex_in(&crc, &[12144], &[1e-5], Method::Markov, &gib);
        assert!(matches!(e, Err(Error::TooBig { .. })));
        let crc = catalogue::resolve("crc64-xz").unwrap();
        let e = ex(&crc, &[12144], &[1e-5], Method::Auto).unwrap_err();
        assert!(matches!(e, Error::TooBig { .. }), "{e}");
    }
}
