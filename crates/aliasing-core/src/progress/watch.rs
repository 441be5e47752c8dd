//! A watcher another thread reads and can cancel: what a binding or a
//! service shows while a job runs, and its stop button.

use super::Progress;
use std::panic::resume_unwind;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

/// Progress that other threads can read while a job runs
/// ([`Watch::progress`]), and a cancel flag the job checks each time it
/// reports progress. Cloning gives another handle on the same state.
///
/// A cancelled job stops at its next progress call by unwinding with a
/// [`Cancelled`] payload (no panic hook runs, nothing is printed): run the
/// job inside [`std::panic::catch_unwind`] and test the payload with
/// `payload.is::<Cancelled>()`.
///
/// ```
/// use aliasing_core::progress::{Cancelled, Progress, Watch};
/// let w = Watch::new();
/// w.stage("passes", 10);
/// w.advance(4);
/// let p = w.progress().unwrap();
/// assert_eq!((p.stage.as_str(), p.stages, p.done, p.total), ("passes", 1, 4, 10));
/// w.cancel();
/// let stopped = std::panic::catch_unwind(|| w.advance(1)).unwrap_err();
/// assert!(stopped.is::<Cancelled>());
/// ```
#[derive(Clone, Default)]
pub struct Watch(Arc<Shared>);

#[derive(Default)]
struct Shared {
    cancel: AtomicBool,
    done: AtomicU64,
    total: AtomicU64,
    /// Stages begun so far and the name of the current one.
    stage: Mutex<(u64, String)>,
}

/// Progress as [`Watch::progress`] reads it.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct Snapshot {
    /// What a unit of the current stage is (`"chain steps"`, `"frames"`, ...),
    /// after a `name: ` prefix for commands that run several computations.
    pub stage: String,
    /// How many stages have begun (1 for the first): a change means a new stage.
    pub stages: u64,
    /// Units of the current stage done.
    pub done: u64,
    /// Units the current stage announced.
    pub total: u64,
}

/// The payload of the unwinding that stops a cancelled job ([`Watch`]).
#[derive(Debug)]
pub struct Cancelled;

impl Watch {
    /// A fresh watcher: no progress yet, not cancelled.
    pub fn new() -> Self {
        Self::default()
    }

    /// Asks the job to stop: it does so the next time it reports progress.
    pub fn cancel(&self) {
        self.0.cancel.store(true, Ordering::SeqCst);
    }

    /// Whether [`cancel`](Watch::cancel) was called.
    pub fn is_cancelled(&self) -> bool {
        self.0.cancel.load(Ordering::Relaxed)
    }

    /// The current stage and its units, or `None` before the first stage.
    pub fn progress(&self) -> Option<Snapshot> {
        let st = self.0.stage.lock().unwrap_or_else(|e| e.into_inner());
        (st.0 > 0).then(|| Snapshot {
            stage: st.1.clone(),
            stages: st.0,
            done: self.0.done.load(Ordering::Relaxed),
            total: self.0.total.load(Ordering::Relaxed),
        })
    }

    /// Stops the job (unwinds with [`Cancelled`]) if cancelled.
    fn check(&self) {
        if self.is_cancelled() {
            // resume_unwind: no panic hook runs, nothing is printed
            resume_unwind(Box::new(Cancelled));
        }
    }
}

impl Progress for Watch {
    fn stage(&self, name: &str, total: u64) {
        self.check();
        let mut st = self.0.stage.lock().unwrap_or_else(|e| e.into_inner());
        self.0.done.store(0, Ordering::Relaxed);
        self.0.total.store(total, Ordering::Relaxed);
        st.0 += 1;
        st.1 = name.to_string();
    }

    fn advance(&self, n: u64) {
        self.check();
        self.0.done.fetch_add(n, Ordering::Relaxed);
    }
}
