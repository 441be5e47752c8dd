//! The summary of a run: escapes per check and for the whole stack, each with
//! its rate per frame, an exact 95% Clopper-Pearson interval, the rate per
//! errored frame, and the exact value where one is known.
//!
//! A check "escapes" on a frame when the frame has at least one flipped bit
//! (anywhere in it) and that check passes; the stack escapes when every
//! check passes. Beside that rate, each check has the frames with an error
//! inside its coverage (the bytes it reads and its own field) and its escape
//! rate among them: how often the check misses an error it could see.

use crate::interval::clopper_pearson;
use crate::run::{Counts, Plan};
use crate::spec::Params;
use serde::{Deserialize, Serialize};

mod text;

/// Estimate of one escape probability.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[non_exhaustive]
pub struct Estimate {
    /// Check name (absent for the stack).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// Frames with an error that passed.
    pub escapes: u64,
    /// Escapes per frame.
    pub rate: f64,
    /// Lower end of the 95% interval of the rate.
    pub ci_low: f64,
    /// Upper end of the 95% interval of the rate.
    pub ci_high: f64,
    /// Escapes per frame with an error.
    pub per_errored_frame: f64,
    /// The exact probability per frame, where an exact method applies.
    pub exact: Option<f64>,
    /// Frames with an error inside the check's coverage (checks only).
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub errored_in_coverage: Option<u64>,
    /// Of those, frames the check passed.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub escapes_in_coverage: Option<u64>,
    /// `escapes_in_coverage / errored_in_coverage` (0 when none).
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub rate_in_coverage: Option<f64>,
}

/// A run's summary.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[non_exhaustive]
pub struct Report {
    /// Parameters of the run.
    pub params: Params,
    /// Frames simulated.
    pub frames: u64,
    /// Frames with at least one flipped bit.
    pub frames_with_error: u64,
    /// Flipped bits in all.
    pub bit_errors: u64,
    /// One entry per check.
    pub checks: Vec<Estimate>,
    /// Every check passed.
    pub stack: Estimate,
}

impl aliasing_core::document::Document for Report {
    const KIND: &'static str = "simulate";
}

fn estimate(name: Option<String>, escapes: u64, c: &Counts, exact: Option<f64>) -> Estimate {
    let (lo, hi) = if c.frames == 0 {
        (0.0, 1.0)
    } else {
        clopper_pearson(escapes, c.frames, 0.95)
    };
    Estimate {
        name,
        escapes,
        rate: if c.frames == 0 {
            0.0
        } else {
            escapes as f64 / c.frames as f64
        },
        ci_low: lo,
        ci_high: hi,
        per_errored_frame: if c.frames_with_error == 0 {
            0.0
        } else {
            escapes as f64 / c.frames_with_error as f64
        },
        exact,
        errored_in_coverage: None,
        escapes_in_coverage: None,
        rate_in_coverage: None,
    }
}

impl Report {
    /// Builds the summary; `exact[i]` is check `i`'s exact value, `stack_exact` the stack's.
    pub fn new(
        params: Params,
        names: &[String],
        c: &Counts,
        exact: &[Option<f64>],
        stack_exact: Option<f64>,
    ) -> Self {
        let checks = names
            .iter()
            .enumerate()
            .map(|(i, n)| {
                let mut e = estimate(
                    Some(n.clone()),
                    c.escapes[i],
                    c,
                    exact.get(i).copied().flatten(),
                );
                let (errored, escaped) = (c.errored_in_coverage[i], c.escapes_in_coverage[i]);
                e.errored_in_coverage = Some(errored);
                e.escapes_in_coverage = Some(escaped);
                e.rate_in_coverage = Some(if errored == 0 {
                    0.0
                } else {
                    escaped as f64 / errored as f64
                });
                e
            })
            .collect();
        Report {
            params,
            frames: c.frames,
            frames_with_error: c.frames_with_error,
            bit_errors: c.bit_errors,
            checks,
            stack: estimate(None, c.stack_escapes, c, stack_exact),
        }
    }
}

impl Report {
    /// The report of a run of `plan`: its check names, and the exact values
    /// (computed from the plan itself, its payload included) unless `no_exact`.
    pub fn of(
        plan: &Plan,
        params: Params,
        c: &Counts,
        no_exact: bool,
        ctx: &aliasing_core::ctx::Ctx,
    ) -> Self {
        let exact = if no_exact {
            Default::default()
        } else {
            crate::exact::exact_values(plan, ctx)
        };
        let names: Vec<String> = plan.frame.checks.iter().map(|c| c.name.clone()).collect();
        Report::new(params, &names, c, &exact.checks, exact.stack)
    }
}
