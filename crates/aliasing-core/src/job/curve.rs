//! [`CurveJob`]: the exact curve of one check, a CRC or a checksum
//! (`alias curve`, CRCs up to 32 bits; wider ones take a bracket,
//! [`crate::bracket`]).

use crate::bsc::CurvePoint;
use crate::channel::GilbertElliott;
use crate::check::CheckSpec;
use crate::compare::{self, Given};
use crate::crc::CrcAlgorithm;
use crate::ctx::{Ctx, Job};
use crate::curve::{self, Method, Request};
use crate::document::{ChannelInfo, CheckInfo, Curve};
use crate::error::{Error, Result};
use crate::markov::gilbert;
use crate::units::{Ber, Bits};

/// Known bytes of a curve, owned: the data a sender puts before the check
/// field, or a whole captured frame ([`Given`] borrows them).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum GivenBytes {
    /// The data before the field ([`Given::Data`]).
    Data(Vec<u8>),
    /// A captured frame, its field in place ([`Given::Frame`]).
    Frame(Vec<u8>),
}

impl GivenBytes {
    /// The bytes as a [`Given`].
    pub fn borrow(&self) -> Given<'_> {
        match self {
            GivenBytes::Data(d) => Given::Data(d),
            GivenBytes::Frame(f) => Given::Frame(f),
        }
    }
}

/// What a [`CurveJob`] computes, fixed when it was built.
#[derive(Debug, Clone)]
enum Plan {
    /// A CRC on the binary symmetric channel.
    Crc(Request),
    /// A CRC on a Gilbert-Elliott channel (the product chain).
    Burst(Box<CrcAlgorithm>, Vec<u64>, GilbertElliott),
    /// A checksum, at byte lengths (empty: the given bytes' length).
    Checksum(Vec<u64>, Vec<f64>),
}

/// The exact curve of one check at every length and BER: the [`Curve`]
/// document. Built by [`CurveJob::builder`].
///
/// ```
/// use aliasing_core::ctx::{Ctx, Job};
/// use aliasing_core::job::CurveJob;
/// let crc = "crc16".parse().unwrap();
/// let job = CurveJob::builder(crc).bits(vec![12144]).bers(vec![1e-5]).build().unwrap();
/// let doc = job.run(&Ctx::default()).unwrap();
/// assert_eq!(doc.points.len(), 1);
/// assert!(doc.points[0].p_undetected > 0.0);
/// ```
#[derive(Debug, Clone)]
pub struct CurveJob {
    check: CheckSpec,
    plan: Plan,
    method: Method,
    given: Option<GivenBytes>,
}

/// The parts of a [`CurveJob`], checked together by [`CurveBuilder::build`].
#[derive(Debug, Clone)]
pub struct CurveBuilder {
    check: CheckSpec,
    bits: Option<Vec<u64>>,
    bers: Vec<f64>,
    given: Option<GivenBytes>,
    channel: Option<GilbertElliott>,
    method: Method,
}

impl CurveBuilder {
    /// Codeword lengths in bits, check bits included (default: none, for
    /// given bytes, whose length is then the only one).
    pub fn bits(mut self, bits: Vec<u64>) -> Self {
        self.bits = Some(bits);
        self
    }

    /// Bit error rates.
    pub fn bers(mut self, bers: Vec<f64>) -> Self {
        self.bers = bers;
        self
    }

    /// Given data or a captured frame.
    pub fn given(mut self, given: Option<GivenBytes>) -> Self {
        self.given = given;
        self
    }

    /// A Gilbert-Elliott burst channel instead of the BERs (CRCs only).
    pub fn burst(mut self, channel: Option<GilbertElliott>) -> Self {
        self.channel = channel;
        self
    }

    /// The exact method (CRCs only; default [`Method::Auto`]).
    pub fn method(mut self, method: Method) -> Self {
        self.method = method;
        self
    }

    /// The job, or why the request cannot run: a bad BER or length, a
    /// frame that does not verify, a method or channel the check does not
    /// take.
    pub fn build(self) -> Result<CurveJob> {
        let CurveBuilder {
            check,
            bits,
            bers,
            given,
            channel,
            method,
        } = self;
        let no_lengths = bits.is_none();
        let bits = bits.unwrap_or_default();
        let plan = match &check {
            CheckSpec::Crc(crc) => {
                // A CRC's escapes do not depend on the data: given bytes only
                // set the length (the data and the CRC's field, or the
                // verified frame).
                let field = u64::from(crc.width()).div_ceil(8);
                let bits = match &given {
                    Some(GivenBytes::Data(d)) if no_lengths => vec![8 * (d.len() as u64 + field)],
                    Some(GivenBytes::Frame(f)) => {
                        compare::verify_frame(&check, f)?;
                        if !no_lengths && bits.iter().any(|&b| b != 8 * f.len() as u64) {
                            return Err(Error::Param {
                                param: crate::error::Param::Lengths,
                                reason: format!(
                                    "a captured frame has one length, its own ({} bytes): \
                                     give no length",
                                    f.len()
                                ),
                            });
                        }
                        vec![8 * f.len() as u64]
                    }
                    _ => bits,
                };
                match channel {
                    Some(ge) => burst_plan(crc, bits, ge, method)?,
                    None => {
                        let bers = Ber::list(&bers)?;
                        let lengths: Vec<Bits> = bits.iter().map(|&n| Bits(n)).collect();
                        Plan::Crc(Request::for_crc(crc, &lengths, &bers)?)
                    }
                }
            }
            _ => {
                if method != Method::Auto {
                    return Err(Error::Param {
                        param: crate::error::Param::Method,
                        reason: format!(
                            "the method applies to CRCs; {} has its own exact method",
                            check.name()
                        ),
                    });
                }
                let bytes = if given.is_some() && no_lengths {
                    Vec::new() // the data and the field, or the frame
                } else {
                    whole_bytes(&check, &bits)?
                };
                compare::preflight(
                    &check,
                    &bytes,
                    &bers,
                    given.as_ref().map(GivenBytes::borrow),
                )?;
                Plan::Checksum(bytes, bers)
            }
        };
        Ok(CurveJob {
            check,
            plan,
            method,
            given,
        })
    }
}

/// `bits` as whole bytes, refusing a length that is not.
fn whole_bytes(check: &CheckSpec, bits: &[u64]) -> Result<Vec<u64>> {
    bits.iter()
        .map(|&b| {
            if b % 8 == 0 {
                Ok(b / 8)
            } else {
                Err(Error::BadLength(format!(
                    "{b} bits is not a whole number of bytes for {}",
                    check.name()
                )))
            }
        })
        .collect()
}

/// The Gilbert-Elliott plan of `crc`, or why not.
fn burst_plan(
    crc: &CrcAlgorithm,
    bits: Vec<u64>,
    ge: GilbertElliott,
    method: Method,
) -> Result<Plan> {
    let g = crc.generator();
    if method == Method::Dual {
        return Err(Error::Param {
            param: crate::error::Param::Method,
            reason: "the dual-code method does not take a burst channel: the exact \
                     burst-channel method is the Markov product chain (markov or auto)"
                .into(),
        });
    }
    if g.width() > gilbert::MAX_WIDTH {
        return Err(Error::Limit(crate::error::Limit::BurstCurveWidth {
            check: crc.name().to_string(),
            width: g.width(),
            max: gilbert::MAX_WIDTH,
        }));
    }
    curve::validate(g.width(), &bits, &[ge.mean_ber()])?;
    Ok(Plan::Burst(Box::new(crc.clone()), bits, ge))
}

impl CurveJob {
    /// The parts of the curve of `check`, to be set and built.
    pub fn builder(check: CheckSpec) -> CurveBuilder {
        CurveBuilder {
            check,
            bits: None,
            bers: Vec::new(),
            given: None,
            channel: None,
            method: Method::Auto,
        }
    }

    /// The check.
    pub fn check(&self) -> &CheckSpec {
        &self.check
    }

    /// The estimated time of the run in `ctx`, in seconds, for a CRC on the
    /// binary symmetric channel (the cost model of the method chosen);
    /// `NaN` otherwise.
    pub fn estimated_seconds(&self, ctx: &Ctx) -> f64 {
        match &self.plan {
            Plan::Crc(req) => curve::estimated_seconds(req, self.method, ctx.budget()),
            _ => f64::NAN,
        }
    }
}

impl Job for CurveJob {
    type Output = Curve;

    fn run(&self, ctx: &Ctx) -> Result<Curve> {
        let p = ctx.progress();
        let (check, method, points, channel): (CheckInfo, String, Vec<CurvePoint>, _) =
            match &self.plan {
                Plan::Crc(req) => {
                    let res = curve::exact(req, self.method, ctx)?;
                    let g = res.generator;
                    let info = CheckInfo {
                        name: res.name,
                        width: g.width(),
                        full: Some(g.full_string()),
                        koopman: Some(g.koopman_string()),
                    };
                    (info, res.method.name().into(), res.points, None)
                }
                Plan::Burst(crc, bits, ge) => {
                    let points = gilbert::curve(&crc.generator(), bits, ge, ctx)?;
                    let info = CheckInfo::from(crc.as_ref());
                    (
                        info,
                        Method::Markov.name().into(),
                        points,
                        Some(ChannelInfo::from(ge)),
                    )
                }
                Plan::Checksum(bytes, bers) => {
                    let given = self.given.as_ref().map(GivenBytes::borrow);
                    let points = compare::curve(&self.check, bytes, bers, given, ctx)?;
                    let method = match given {
                        Some(Given::Data(_)) => "exact, given data, field computed from them",
                        Some(Given::Frame(_)) => "exact, given frame, field verified",
                        None => "exact, random data",
                    };
                    let info = CheckInfo::named(self.check.name(), self.check.check_bits());
                    (info, method.into(), points, None)
                }
            };
        p.finish();
        let method = match frame_note(&check) {
            Some(n) => format!("{method}; {n}"),
            None => method,
        };
        Ok(Curve::new(check, method, points, channel))
    }
}

/// One frame, one meaning: a CRC whose width is not whole bytes is a
/// codeword of exactly the length asked, its check bits packed after the
/// data; the simulator stores the same CRC in whole bytes.
fn frame_note(check: &CheckInfo) -> Option<String> {
    let w = check.width;
    (check.full.is_some() && !w.is_multiple_of(8)).then(|| {
        let pad = 8 * w.div_ceil(8) - w;
        format!(
            "frame: each length is one codeword, its {w} check bits right after the data (no \
             padding); `alias simulate` stores this CRC in {} bytes with {pad} pad bits that \
             an error must leave alone, so its frame of L bytes has (1-p)^{pad} x P(undetected) \
             at 8L-{pad} bits",
            w.div_ceil(8)
        )
    })
}
