//! Progress of long computations: the one way every exact method, search and
//! enumeration in alias tells a watcher how far it has come.
//!
//! A computation that can run for more than a couple of seconds takes a
//! `&dyn Progress`, announces each stage with its amount of work and reports
//! units as they finish. The library never prints; the command-line tool
//! turns these calls into a bar with an ETA on a terminal (and nothing on a
//! pipe). Implementations must be cheap and callable from many threads at
//! once: report per block of work, not per inner-loop step.
//!
//! Every long computation takes its watcher from its context
//! ([`crate::ctx::Ctx::progress`]: `markov::solve`, `dual::dual_weights`,
//! `bracket::brackets`, ...) or, where it has no context yet, as its last
//! argument (`lowweight::hd_profile_up_to`, ...); a silent context watches
//! with [`Silent`]. A batch turns per-step counts
//! into block-sized reports inside the crate; a record keeps what a computation reported
//! (the tests use it to check that the advances of every stage add up to
//! its announced total).
//!
//! ```
//! use aliasing_core::progress::{Progress, Silent};
//! use std::sync::atomic::{AtomicU64, Ordering};
//!
//! struct Count(AtomicU64);
//! impl Progress for Count {
//!     fn advance(&self, n: u64) {
//!         self.0.fetch_add(n, Ordering::Relaxed);
//!     }
//! }
//!
//! fn work(p: &dyn Progress) {
//!     p.stage("passes", 3);
//!     for _ in 0..3 {
//!         p.advance(1);
//!     }
//! }
//! let c = Count(AtomicU64::new(0));
//! work(&c);
//! work(&Silent);
//! assert_eq!(c.0.load(Ordering::Relaxed), 3);
//! ```

mod watch;
pub use watch::{Cancelled, Snapshot, Watch};

/// A watcher of a long computation. One required method, [`advance`]; the
/// others default to doing nothing.
///
/// [`advance`]: Progress::advance
pub trait Progress: Sync {
    /// `n` more units of the current stage are done.
    fn advance(&self, n: u64);

    /// A stage begins: `name` says what a unit is (for example `"passes"`,
    /// `"shapes"`, `"generators"`), `total` how many units it has. Work done
    /// so far in an earlier stage is not carried over.
    fn stage(&self, name: &str, total: u64) {
        let _ = (name, total);
    }

    /// The computation has ended (successfully or not); no more calls follow.
    fn finish(&self) {}

    /// A part of a computation made of several begins (one check's column
    /// of a comparison): the stages that follow belong to `name`.
    fn part(&self, name: &str) {
        let _ = name;
    }
}

/// Watches nothing: the default for callers that want no progress.
#[derive(Debug, Clone, Copy, Default)]
pub struct Silent;

impl Progress for Silent {
    fn advance(&self, _n: u64) {}
}

impl<P: Progress + ?Sized> Progress for &P {
    fn advance(&self, n: u64) {
        (**self).advance(n)
    }
    fn stage(&self, name: &str, total: u64) {
        (**self).stage(name, total)
    }
    fn finish(&self) {
        (**self).finish()
    }
    fn part(&self, name: &str) {
        (**self).part(name)
    }
}

/// Reports units to a watcher in blocks: [`Batch::add`] counts locally and
/// passes the count on every `every` units; the rest goes on [`Batch::flush`]
/// or when the batch is dropped. For loops whose steps are too short to
/// report one by one.
pub(crate) struct Batch<'a> {
    to: &'a dyn Progress,
    pending: u64,
    every: u64,
}

impl<'a> Batch<'a> {
    /// A batch reporting to `to` every `every` units (at least 1).
    pub fn new(to: &'a dyn Progress, every: u64) -> Self {
        Batch {
            to,
            pending: 0,
            every: every.max(1),
        }
    }

    /// `n` more units are done.
    #[inline]
    pub fn add(&mut self, n: u64) {
        self.pending += n;
        if self.pending >= self.every {
            self.flush();
        }
    }

    /// Passes on the units counted so far.
    pub fn flush(&mut self) {
        if self.pending > 0 {
            self.to.advance(self.pending);
            self.pending = 0;
        }
    }
}

impl Drop for Batch<'_> {
    fn drop(&mut self) {
        self.flush();
    }
}

/// One stage as a [`Record`] saw it.
#[derive(Debug, Clone, PartialEq, Eq)]
#[doc(hidden)] // internal: reached through `crate::__private`
pub struct Stage {
    /// What a unit is.
    pub name: String,
    /// The units announced.
    pub total: u64,
    /// The units reported done.
    pub done: u64,
}

/// Keeps every stage a computation announced and the units reported in
/// each (units reported before any stage go to a stage named `""` with
/// total 0). For tests and logs; every call takes a lock.
///
/// ```
/// use aliasing_core::progress::{Progress, Record};
/// let r = Record::default();
/// r.stage("passes", 2);
/// r.advance(1);
/// r.advance(1);
/// r.finish();
/// assert!(r.complete());
/// assert_eq!(r.names(), ["passes"]);
/// ```
#[derive(Debug, Default)]
#[doc(hidden)] // internal: reached through `crate::__private`
pub struct Record {
    stages: std::sync::Mutex<Vec<Stage>>,
    finished: std::sync::atomic::AtomicBool,
}

impl Record {
    /// The stages, in the order announced.
    pub fn stages(&self) -> Vec<Stage> {
        self.stages
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .clone()
    }

    /// The stage names, in the order announced.
    pub fn names(&self) -> Vec<String> {
        self.stages().into_iter().map(|s| s.name).collect()
    }

    /// `true` when at least one stage was announced and every stage's
    /// units add up to its total.
    pub fn complete(&self) -> bool {
        let s = self.stages();
        !s.is_empty() && s.iter().all(|s| s.done == s.total)
    }

    /// `true` once [`Progress::finish`] was called.
    pub fn finished(&self) -> bool {
        self.finished.load(std::sync::atomic::Ordering::Relaxed)
    }
}

impl Progress for Record {
    fn advance(&self, n: u64) {
        let mut s = self.stages.lock().unwrap_or_else(|e| e.into_inner());
        if s.is_empty() {
            s.push(Stage {
                name: String::new(),
                total: 0,
                done: 0,
            });
        }
        s.last_mut().expect("non-empty").done += n;
    }
    fn stage(&self, name: &str, total: u64) {
        self.stages
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .push(Stage {
                name: name.into(),
                total,
                done: 0,
            });
    }
    fn finish(&self) {
        self.finished
            .store(true, std::sync::atomic::Ordering::Relaxed);
    }
}

#[cfg(feature = "unit-tests")]
#[doc(hidden)]
pub mod tests {
    use super::*;
    use std::sync::Mutex;

    #[derive(Default)]
    struct Log(Mutex<Vec<String>>);
    impl Progress for Log {
        fn advance(&self, n: u64) {
            self.0.lock().unwrap().push(format!("+{n}"));
        }
        fn stage(&self, name: &str, total: u64) {
            self.0.lock().unwrap().push(format!("{name}/{total}"));
        }
        fn finish(&self) {
            self.0.lock().unwrap().push("end".into());
        }
    }

    pub fn references_forward_every_call() {
        let log = Log::default();
        let r: &dyn Progress = &log;
        let rr = &r;
        rr.stage("shapes", 2);
        rr.advance(2);
        rr.finish();
        assert_eq!(*log.0.lock().unwrap(), ["shapes/2", "+2", "end"]);
    }

    pub fn a_batch_reports_in_blocks_and_the_rest_on_drop() {
        let log = Log::default();
        {
            let mut b = Batch::new(&log, 4);
            for _ in 0..10 {
                b.add(1);
            }
        }
        assert_eq!(*log.0.lock().unwrap(), ["+4", "+4", "+2"]);
    }

    pub fn a_record_sees_incomplete_stages() {
        let r = Record::default();
        assert!(!r.complete());
        r.stage("a", 3);
        r.advance(3);
        r.stage("b", 2);
        r.advance(1);
        assert!(!r.complete());
        r.advance(1);
        assert!(r.complete());
        assert!(!r.finished());
        r.finish();
        assert!(r.finished());
        assert_eq!(r.names(), ["a", "b"]);
    }
}
