//! [`CompareJob`]: several checks side by side at the same frame lengths
//! and BERs (`alias compare`).

use super::curve::GivenBytes;
use crate::bsc::CurvePoint;
use crate::check::CheckSpec;
use crate::compare;
use crate::ctx::{Ctx, Job};
use crate::document::{Compare, CompareCheck, ComparePoint};
use crate::error::{Error, Result};
use crate::progress::Silent;

/// The exact `P(alias | error)` of several checks at every frame length
/// (bytes, check field included) and BER: the [`Compare`] document. A
/// column a check cannot fill (no exact method, too big, lengths too short
/// for it, a captured frame that is not its) is `n/a` with a note; every
/// other refusal is an error when the job is built, before any column is
/// computed.
///
/// ```
/// use aliasing_core::ctx::{Ctx, Job};
/// use aliasing_core::job::CompareJob;
/// let checks = vec!["crc16".parse().unwrap(), "internet".parse().unwrap()];
/// let job = CompareJob::new(checks, Some(vec![64, 1500]), vec![1e-6], None).unwrap();
/// let doc = job.run(&Ctx::default()).unwrap();
/// assert_eq!(doc.points.len(), 4);
/// assert!(doc.checks.iter().all(|c| c.exact == Some(true)));
/// ```
#[derive(Debug, Clone)]
pub struct CompareJob {
    checks: Vec<CheckSpec>,
    bytes: Vec<u64>,
    bers: Vec<f64>,
    given: Option<GivenBytes>,
    /// Per check: why a captured frame does not verify under it.
    unverified: Vec<Option<String>>,
}

/// One check's column: its points (BER-major, `None` where no exact value
/// could be given) and why some or all are missing.
struct Column {
    points: Vec<Option<CurvePoint>>,
    note: Option<String>,
}

impl CompareJob {
    /// The comparison of `checks` at frame lengths `bytes` (default: the
    /// given data plus the Internet checksum's 2 bytes, or the captured
    /// frame's length) and BERs `bers`, over random data or the `given`
    /// bytes.
    pub fn new(
        checks: Vec<CheckSpec>,
        bytes: Option<Vec<u64>>,
        bers: Vec<f64>,
        given: Option<GivenBytes>,
    ) -> Result<CompareJob> {
        let bytes = match (bytes, &given) {
            (Some(b), _) => b,
            (None, Some(GivenBytes::Data(d))) => vec![d.len() as u64 + 2],
            (None, Some(GivenBytes::Frame(f))) => vec![f.len() as u64],
            (None, None) => {
                return Err(Error::Param {
                    param: crate::error::Param::Lengths,
                    reason: "no frame length: give lengths, data or a captured frame".into(),
                });
            }
        };
        if checks.is_empty() {
            return Err(Error::Param {
                param: crate::error::Param::Checks,
                reason: "the list of checks is empty".into(),
            });
        }
        // A captured frame carries one check's field: it must verify under
        // at least one check compared; the others show n/a with the reason.
        let mut unverified: Vec<Option<String>> = vec![None; checks.len()];
        if let Some(GivenBytes::Frame(f)) = &given {
            for (i, c) in checks.iter().enumerate() {
                if let Err(e) = compare::verify_frame(c, f) {
                    unverified[i] = Some(e.to_string());
                }
            }
            if let Some(Some(first)) = unverified
                .iter()
                .find(|_| unverified.iter().all(Option::is_some))
            {
                return Err(Error::Invalid(first.clone()));
            }
        }
        let job = CompareJob {
            checks,
            bytes,
            bers,
            given,
            unverified,
        };
        // every column's request refused now, before any column is
        // computed; a method's own refusal (no exact method, too big) is an
        // n/a note later
        for (check, unverified) in job.checks.iter().zip(&job.unverified) {
            let fit = job.fitting(check);
            if unverified.is_some() || fit.is_empty() {
                continue;
            }
            match compare::preflight(check, &fit, &job.bers, job.given()) {
                Ok(_) | Err(Error::Refused(_) | Error::Limit(_) | Error::TooBig { .. }) => {}
                Err(e) => return Err(e.within(check.name())),
            }
        }
        Ok(job)
    }

    /// The checks, one column each.
    pub fn checks(&self) -> &[CheckSpec] {
        &self.checks
    }

    /// The frame lengths in bytes.
    pub fn bytes(&self) -> &[u64] {
        &self.bytes
    }

    /// The BERs.
    pub fn bers(&self) -> &[f64] {
        &self.bers
    }

    /// The given bytes, if any.
    pub fn given(&self) -> Option<compare::Given<'_>> {
        self.given.as_ref().map(GivenBytes::borrow)
    }

    /// The estimated time in seconds in `ctx` (its memory budget): the
    /// CRCs' cost models, summed over the columns (a checksum has none).
    pub fn estimated_seconds(&self, ctx: &Ctx) -> f64 {
        self.checks
            .iter()
            .map(|c| compare::estimated_seconds(c, &self.bytes, &self.bers, ctx.budget()))
            .filter(|s| s.is_finite())
            .sum()
    }

    /// The lengths long enough for `check` (the others are n/a in its column).
    fn fitting(&self, check: &CheckSpec) -> Vec<u64> {
        let min = check.min_bytes();
        self.bytes.iter().copied().filter(|&b| b >= min).collect()
    }

    /// Column `i`, watched by `ctx`'s progress.
    fn column(&self, i: usize, ctx: &Ctx) -> Result<Column> {
        let (check, bytes, bers) = (&self.checks[i], &self.bytes, &self.bers);
        let total = bytes.len() * bers.len();
        let na = |note| Column {
            points: vec![None; total],
            note,
        };
        if let Some(why) = &self.unverified[i] {
            return Ok(na(Some(why.clone())));
        }
        // lengths too short for this check are n/a in its column only
        let fit = self.fitting(check);
        let short_note = (fit.len() < bytes.len()).then(|| {
            format!(
                "{} needs frames of at least {} bytes",
                check.name(),
                check.min_bytes()
            )
        });
        if fit.is_empty() {
            return Ok(na(short_note));
        }
        let mut points = vec![None; total];
        match compare::curve(check, &fit, bers, self.given(), ctx) {
            Ok(v) => {
                for bi in 0..bers.len() {
                    for (fi, &b) in fit.iter().enumerate() {
                        let li = bytes.iter().position(|&x| x == b).expect("present");
                        points[bi * bytes.len() + li] = Some(v[bi * fit.len() + fi]);
                    }
                }
                Ok(Column {
                    points,
                    note: short_note,
                })
            }
            Err(e @ (Error::Refused(_) | Error::Limit(_) | Error::TooBig { .. })) => {
                // A checksum may be exact at some points and not others
                // (Fletcher-16 certifies each point): retry point by point.
                // A CRC's refusal is global, and its points are costly, so
                // it is not retried.
                if !matches!(check, CheckSpec::Internet | CheckSpec::Fletcher16) {
                    return Ok(Column {
                        points,
                        note: Some(e.to_string()),
                    });
                }
                let mut note = short_note;
                let quiet = ctx.with_progress(&Silent);
                for (bi, &p) in bers.iter().enumerate() {
                    for (li, &b) in bytes.iter().enumerate() {
                        if b < check.min_bytes() {
                            continue;
                        }
                        match compare::curve(check, &[b], &[p], self.given(), &quiet) {
                            Ok(v) => points[bi * bytes.len() + li] = Some(v[0]),
                            Err(e) => {
                                note.get_or_insert_with(|| e.to_string());
                            }
                        }
                    }
                }
                Ok(Column { points, note })
            }
            Err(e) => Err(e.within(check.name())),
        }
    }
}

impl Job for CompareJob {
    type Output = Compare;

    /// The columns one after the other, each announced to the context's
    /// progress as a part named by its check.
    fn run(&self, ctx: &Ctx) -> Result<Compare> {
        let mut checks = Vec::new();
        let mut points = Vec::new();
        for (i, check) in self.checks.iter().enumerate() {
            ctx.progress().part(&check.name());
            let col = self.column(i, ctx)?;
            let mut info = CompareCheck::new(check.name(), check.check_bits());
            info.exact = Some(col.points.iter().all(Option::is_some));
            info.note = col.note;
            checks.push(info);
            for (j, pt) in col.points.iter().enumerate() {
                if let Some(pt) = pt {
                    let b = self.bytes[j % self.bytes.len()];
                    points.push(ComparePoint::new(check.name(), pt, Some(b)));
                }
            }
        }
        ctx.progress().finish();
        let data = match self.given {
            Some(GivenBytes::Data(_)) => "payload",
            Some(GivenBytes::Frame(_)) => "frame",
            None => "random",
        };
        Ok(Compare::new(Some(data.into()), checks, points))
    }
}
