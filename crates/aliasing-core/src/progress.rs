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
}

#[cfg(test)]
mod tests {
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

    #[test]
    fn references_forward_every_call() {
        let log = Log::default();
        let r: &dyn Progress = &log;
        let rr = &r;
        rr.stage("shapes", 2);
        rr.advance(2);
        rr.finish();
        assert_eq!(*log.0.lock().unwrap(), ["shapes/2", "+2", "end"]);
    }
}
