//! Long runs: what to do before a job whose cost model estimates a long run
//! (every job's `estimated_seconds`). Runs over a minute say so; runs over a
//! day are refused unless the caller allows them.

use crate::document::text::duration;

/// Runs estimated to take longer than this (seconds: a day) are refused
/// unless allowed.
pub const LONG_RUN_LIMIT_S: f64 = 86_400.0;

/// Runs estimated to take longer than this (seconds) are announced.
pub const ANNOUNCE_S: f64 = 60.0;

/// What to do before a run, by its estimated duration ([`before_run`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum LongRun {
    /// Short, or no estimate: start.
    Start,
    /// Start, after saying how long it is expected to take (the message).
    Announce(String),
    /// Over `LONG_RUN_LIMIT_S` and not allowed: the reason, one line.
    Refuse(String),
}

/// The policy before a run estimated to take `seconds` (a cost model's
/// estimate; NaN for none): refused beyond `LONG_RUN_LIMIT_S` unless
/// `allowed`, announced beyond `ANNOUNCE_S`. `what` names the run
/// (`this curve`).
///
/// ```
/// use aliasing_core::__private::job::{LongRun, before_run};
/// assert_eq!(before_run(30.0, "this run", false), LongRun::Start);
/// assert!(matches!(before_run(2e5, "this run", false), LongRun::Refuse(_)));
/// assert!(matches!(before_run(2e5, "this run", true), LongRun::Announce(_)));
/// ```
pub fn before_run(seconds: f64, what: &str, allowed: bool) -> LongRun {
    if seconds.is_nan() || seconds <= ANNOUNCE_S {
        return LongRun::Start;
    }
    let d = duration(seconds);
    if seconds > LONG_RUN_LIMIT_S && !allowed {
        return LongRun::Refuse(format!(
            "{what} is estimated to take {d}, over the limit of a day: ask for less"
        ));
    }
    LongRun::Announce(format!(
        "{what}: estimated to take {d} (a cost model's estimate; Ctrl-C stops it)"
    ))
}

#[cfg(feature = "unit-tests")]
#[doc(hidden)]
pub mod tests {
    use super::*;

    pub fn long_runs_say_so_and_beyond_a_day_need_leave() {
        assert_eq!(before_run(30.0, "this run", false), LongRun::Start);
        assert_eq!(before_run(f64::NAN, "this run", false), LongRun::Start);
        assert_eq!(
            before_run(7200.0, "this run", false),
            LongRun::Announce(
                "this run: estimated to take about 2.0 h (a cost model's estimate; Ctrl-C stops it)"
                    .into()
            )
        );
        let LongRun::Refuse(e) = before_run(2.0 * LONG_RUN_LIMIT_S, "this run", false) else {
            panic!("two days without leave")
        };
        assert!(e.contains("about 2.0 days, over the limit of a day"), "{e}");
        assert!(!e.contains('\n') && !e.contains("--"), "{e}");
        assert!(matches!(
            before_run(2.0 * LONG_RUN_LIMIT_S, "this run", true),
            LongRun::Announce(_)
        ));
    }
}
