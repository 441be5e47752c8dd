//! [`Ctx`]: the one context every library job runs in, and [`Job`], a
//! command as a library call.
//!
//! A context carries what is the caller's business rather than the
//! request's: the memory budget (read once, by whoever builds the context),
//! the progress watcher, the number of worker threads and, under MPI, the
//! team of processes sharing the work. A job (a validated request, such as
//! a curve or a search) takes it in [`Job::run`] and returns its result
//! document; the same job gives the same numbers to a library user and to
//! the `alias` command.
//!
//! ```
//! use aliasing_core::ctx::{Ctx, Job};
//! use aliasing_core::progress::Record;
//! use aliasing_core::units::MemoryBudget;
//!
//! /// A toy job: the sum of `0..n`, on the context's threads.
//! struct Sum(u64);
//! impl Job for Sum {
//!     type Output = u64;
//!     fn run(&self, ctx: &Ctx) -> aliasing_core::Result<u64> {
//!         use rayon::prelude::*;
//!         ctx.progress().stage("numbers", self.0);
//!         let s = ctx.install(|| (0..self.0).into_par_iter().sum::<u64>())?;
//!         ctx.progress().advance(self.0);
//!         Ok(s)
//!     }
//! }
//!
//! // a library user: silent, the environment's budget, every core
//! assert_eq!(Sum(1000).run(&Ctx::default()).unwrap(), 499_500);
//!
//! // a caller that watches, bounds memory and threads
//! let watch = Record::default();
//! let ctx = Ctx::new(MemoryBudget::bytes(1e9).unwrap())
//!     .with_progress(&watch)
//!     .with_threads(2)
//!     .unwrap();
//! assert_eq!(Sum(10).run(&ctx).unwrap(), 45);
//! assert!(watch.complete());
//! assert!(Ctx::default().with_threads(100_000).is_err());
//! ```

use crate::error::{Error, Result};
use crate::progress::{Progress, Silent};
use crate::shard::Team;
use crate::units::MemoryBudget;

/// The most worker threads a context (and a run) accepts.
#[doc(hidden)] // internal: reached through `crate::__private`
pub const MAX_THREADS: usize = 1024;

/// A rayon pool of `threads` threads (0 = all cores), refusing more than
/// [`MAX_THREADS`].
#[doc(hidden)] // internal: reached through `crate::__private`
pub fn pool(threads: usize) -> Result<rayon::ThreadPool> {
    if threads > MAX_THREADS {
        return Err(Error::Invalid(format!(
            "{threads} threads: at most {MAX_THREADS} (0 uses every core)"
        )));
    }
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .map_err(|e| Error::Invalid(format!("cannot start threads: {e}")))
}

/// The context a job runs in: memory budget, progress watcher, threads and
/// MPI team. Build one with [`Ctx::new`] (or [`Ctx::from_env`],
/// [`Ctx::default`]) and the `with_` methods; it borrows its watcher and
/// team for `'a`.
#[derive(Clone, Copy)]
pub struct Ctx<'a> {
    budget: MemoryBudget,
    progress: &'a dyn Progress,
    threads: usize,
    team: Option<&'a dyn Team>,
}

impl std::fmt::Debug for Ctx<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Ctx")
            .field("budget", &self.budget)
            .field("threads", &self.threads)
            .field("team", &self.team.map(|t| (t.rank(), t.size())))
            .finish_non_exhaustive()
    }
}

impl Ctx<'static> {
    /// A silent context with memory budget `budget`, every core, no team.
    pub fn new(budget: MemoryBudget) -> Ctx<'static> {
        Ctx {
            budget,
            progress: &Silent,
            threads: 0,
            team: None,
        }
    }

    /// [`Ctx::new`] with the budget of the environment
    /// ([`MemoryBudget::from_env`]; a malformed `ALIAS_MEMORY_LIMIT` is an
    /// error).
    pub fn from_env() -> Result<Ctx<'static>> {
        Ok(Ctx::new(MemoryBudget::from_env()?))
    }
}

/// Silent, every core, no team, and the environment's memory budget
/// ([`MemoryBudget::from_env`]); where `ALIAS_MEMORY_LIMIT` is malformed,
/// [`MemoryBudget::available`] instead (use [`Ctx::from_env`] to have it
/// refused).
impl Default for Ctx<'static> {
    fn default() -> Self {
        Ctx::new(MemoryBudget::from_env().unwrap_or_else(|_| MemoryBudget::available()))
    }
}

impl<'a> Ctx<'a> {
    /// This context with memory budget `budget`.
    pub fn with_budget(mut self, budget: MemoryBudget) -> Ctx<'a> {
        self.budget = budget;
        self
    }

    /// This context reporting progress to `progress`.
    pub fn with_progress(mut self, progress: &'a dyn Progress) -> Ctx<'a> {
        self.progress = progress;
        self
    }

    /// This context running its parallel work on `threads` threads (0:
    /// every core); more than 1024 is refused.
    pub fn with_threads(mut self, threads: usize) -> Result<Ctx<'a>> {
        if threads > MAX_THREADS {
            return Err(Error::Invalid(format!(
                "{threads} threads: at most {MAX_THREADS} (0 uses every core)"
            )));
        }
        self.threads = threads;
        Ok(self)
    }

    /// This context sharing its work with `team` (MPI ranks), or with none.
    pub fn with_team(mut self, team: Option<&'a dyn Team>) -> Ctx<'a> {
        self.team = team;
        self
    }

    /// The memory budget.
    pub fn budget(&self) -> MemoryBudget {
        self.budget
    }

    /// The progress watcher.
    pub fn progress(&self) -> &'a dyn Progress {
        self.progress
    }

    /// The number of worker threads asked for (0: every core).
    pub fn threads(&self) -> usize {
        self.threads
    }

    /// The team sharing the work, if any.
    pub fn team(&self) -> Option<&'a dyn Team> {
        self.team
    }

    /// `true` unless this process is a team member other than member 0
    /// (the process that prints, writes files and reports progress).
    pub fn is_root(&self) -> bool {
        self.team.is_none_or(|t| t.rank() == 0)
    }

    /// Runs `f` with rayon's parallel work on this context's threads: in a
    /// pool of that many threads when a count is set, else in the global
    /// pool (every core).
    pub fn install<R: Send>(&self, f: impl FnOnce() -> R + Send) -> Result<R> {
        if self.threads == 0 {
            return Ok(f());
        }
        Ok(pool(self.threads)?.install(f))
    }

    /// [`Ctx::install`] for work that takes a context: `f` gets this one
    /// without its team (a team's calls belong to the thread that holds
    /// it, and a context with a team cannot cross threads).
    pub fn install_with<R: Send>(&self, f: impl FnOnce(&Ctx<'a>) -> R + Send) -> Result<R> {
        let (budget, progress, threads) = (self.budget, self.progress, self.threads);
        self.install(move || {
            f(&Ctx {
                budget,
                progress,
                threads,
                team: None,
            })
        })
    }
}

/// A command as a library call: a request validated when it was built (its
/// fields cannot be wrong), run in a [`Ctx`], returning its result (a
/// [`crate::document::Document`] for every command's job).
pub trait Job {
    /// What a run returns.
    type Output: serde::Serialize;

    /// Runs the job in `ctx`.
    fn run(&self, ctx: &Ctx) -> Result<Self::Output>;
}

#[cfg(feature = "unit-tests")]
#[doc(hidden)]
pub mod tests {
    use super::*;

    struct Two;
    impl Team for Two {
        fn rank(&self) -> usize {
            1
        }
        fn size(&self) -> usize {
            2
        }
        fn broadcast(&self, v: u64) -> u64 {
            v
        }
        fn gather(&self, _: Vec<u8>) -> Vec<Vec<u8>> {
            Vec::new()
        }
    }

    pub fn a_context_keeps_what_it_was_given() {
        let b = MemoryBudget::bytes(123.0).unwrap();
        let ctx = Ctx::new(b).with_threads(3).unwrap();
        assert_eq!(ctx.budget(), b);
        assert_eq!(ctx.threads(), 3);
        assert!(ctx.is_root());
        assert_eq!(ctx.install(rayon::current_num_threads).unwrap(), 3);
        let inner = ctx.install_with(|c| (c.threads(), c.budget())).unwrap();
        assert_eq!(inner, (3, b));
        let t = Two;
        let ctx = ctx.with_team(Some(&t));
        assert!(!ctx.is_root());
        assert_eq!(ctx.team().unwrap().size(), 2);
        let e = Ctx::default().with_threads(MAX_THREADS + 1).unwrap_err();
        assert!(e.to_string().contains("at most 1024"), "{e}");
        assert!(pool(MAX_THREADS + 1).is_err());
    }

    /// The one budget: a budget set on the context (not in the environment)
    /// is the one every exact path honours: a tiny one refuses each of
    /// them before any work, a roomy one lets the same request through,
    /// and `auto` chooses the method that fits it.
    pub fn every_exact_path_honours_the_context_budget() {
        use crate::check::CheckSpec;
        use crate::layout::{Frame, Payload};
        use crate::units::{Ber, Bits};
        use crate::{catalogue, compare, curve, dual, markov, registry, search};
        let tiny = Ctx::new(MemoryBudget::bytes(1024.0).unwrap());
        let roomy = Ctx::new(MemoryBudget::bytes(1e9).unwrap());
        fn too_big<T>(r: Result<T>, what: &str) {
            match r {
                Err(e) => assert!(matches!(e.root(), Error::TooBig { .. }), "{what}: {e}"),
                Ok(_) => panic!("{what}: a 1 KiB budget let the run through"),
            }
        }
        let crc = catalogue::resolve("CRC-16/ARC").unwrap();
        let g = crc.generator();
        let bers = Ber::list(&[1e-5]).unwrap();
        // curve::exact, every method
        let req = curve::Request::for_crc(&crc, &[Bits(512)], &bers).unwrap();
        for m in [
            curve::Method::Auto,
            curve::Method::Markov,
            curve::Method::Dual,
        ] {
            too_big(curve::exact(&req, m, &tiny), "curve::exact");
            assert!(curve::exact(&req, m, &roomy).is_ok(), "{m}");
        }
        // compare's CRC column (and its cost estimate)
        let check = CheckSpec::Crc(Box::new(crc.clone()));
        too_big(
            compare::curve(&check, &[64], &[1e-5], None, &tiny),
            "compare",
        );
        assert!(compare::curve(&check, &[64], &[1e-5], None, &roomy).is_ok());
        assert!(compare::estimated_seconds(&check, &[64], &[1e-5], tiny.budget()).is_nan());
        assert!(compare::estimated_seconds(&check, &[64], &[1e-5], roomy.budget()).is_finite());
        // the dual code, the chain, the Gilbert-Elliott chain
        too_big(dual::curve(&g, &[512], &[1e-5], &tiny), "dual::curve");
        too_big(dual::dual_weights(&g, &[512], &tiny), "dual_weights");
        too_big(markov::p_undetected(&g, &[512], &[1e-5], &tiny), "markov");
        let ge: crate::channel::GilbertElliott = "1e-7,0.3,1e-4,0.05".parse().unwrap();
        too_big(markov::gilbert::curve(&g, &[512], &ge, &tiny), "gilbert");
        assert!(markov::gilbert::curve(&g, &[512], &ge, &roomy).is_ok());
        // the search's dual step (and the pilot of its estimate)
        let q = search::Query {
            width: 8,
            lengths: vec![64],
            bers: vec![1e-5],
            min_hd: 0,
            top: 2,
            objective: search::Objective::Hd,
        };
        let (all, whole) = (search::Space::All, crate::shard::Shard::WHOLE);
        too_big(search::run(&q, &all, whole, &tiny), "search::run");
        assert_eq!(
            search::run(&q, &all, whole, &roomy).unwrap().results.len(),
            2
        );
        too_big(search::evaluate(&g, &q, &tiny), "search::evaluate");
        // the stack's per-check column: a 24-bit CRC over 30 bytes, past
        // the placed chain's work limit, goes to the dual code
        let frame = Frame::new("CRC-24/OPENPGP", 30, Payload::Random).unwrap();
        let placed = registry::placed_p_undetected(&frame, 0, None, 1e-3, tiny.budget());
        too_big(placed, "placed_p_undetected");
        let ok = registry::placed_p_undetected(&frame, 0, None, 1e-3, roomy.budget());
        assert!(ok.is_ok(), "{ok:?}");
        // auto chooses what fits: at 100,000 bits one BER, the dual code
        // (65,536 windows) beats the chain (100,000 steps of 65,536 states)
        // when both fit; a budget of 4 MB holds the chain's two vectors
        // (about 2 MB) but not the dual code's histograms (over 12 MB)
        let long = [Bits(100_000)];
        let four = MemoryBudget::bytes(4e6).unwrap();
        assert_eq!(
            curve::choose(&g, &long, &bers, roomy.budget()).unwrap(),
            curve::Method::Dual
        );
        assert_eq!(
            curve::choose(&g, &long, &bers, four).unwrap(),
            curve::Method::Markov
        );
        assert!(curve::choose(&g, &long, &bers, tiny.budget()).is_err());
        // the low-weight enumeration's pair table (weight 5), the bracket
        // and the syndromes method that use it
        too_big(
            crate::lowweight::weight_counts(&g, 5, 200, &tiny),
            "weight_counts",
        );
        assert!(crate::lowweight::weight_counts(&g, 5, 200, &roomy).is_ok());
        // CRC-32 (no factor x + 1, so weight 5 is enumerated)
        let g32 = catalogue::resolve("crc32").unwrap().generator();
        too_big(
            crate::bracket::brackets(&g32, &[200], &[1e-5], Some(5), &tiny),
            "brackets",
        );
        assert!(crate::bracket::brackets(&g32, &[200], &[1e-5], Some(5), &roomy).is_ok());
        use crate::weights::{WeightMethod, distribution};
        let syndromes = WeightMethod::Syndromes;
        too_big(
            distribution(&g32, 200, 5, syndromes, false, &tiny),
            "distribution",
        );
        assert!(distribution(&g32, 200, 5, syndromes, false, &roomy).is_ok());
        // the joint stack: its dual code, refused before the enumeration
        // (no work item is reported), and from a tally
        use crate::joint::{JointOptions, JointPlan, JointStack};
        let f = Frame::new("ipv4-tcp+CRC-16/ARC", 60, Payload::Random).unwrap();
        let opts = JointOptions {
            max_weight: 3,
            samples: 0,
            seed: 1,
        };
        let watch = crate::progress::Record::default();
        too_big(
            JointStack::new(&f, &opts, &tiny.with_progress(&watch)),
            "JointStack::new",
        );
        assert!(watch.stages().is_empty(), "{:?}", watch.stages());
        let st = JointStack::new(&f, &opts, &roomy).unwrap();
        let plan = JointPlan::new(&f, &opts).unwrap();
        let mut t = plan.empty_tally();
        for i in 0..plan.items() {
            t.add(&plan.run(i));
        }
        too_big(JointStack::from_tally(&plan, &t, &tiny), "from_tally");
        let again = JointStack::from_tally(&plan, &t, &roomy).unwrap();
        assert_eq!(again.terms, st.terms);
    }
}
