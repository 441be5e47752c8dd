//! The joint stack computation (`alias stack`): one library call,
//! [`report`], from a typed request ([`StackParams`]) to its result
//! ([`StackReport`]: per check its exact `P_ud` and `P(alias | error)`, the
//! joint escape with its bracket and method, the study's independence
//! product, the all-checks product and the ratio); and the same work as
//! shard work: the work items of every frame length in one list, the tally,
//! and its shard files ([`report_from_tally`] turns a merged tally into the
//! same result).
//!
//! The items are those of the joint computation's sampling plan for each
//! length in turn (codeword shape parts, then sample chunks), so the list is
//! fixed by the parameters; shard `i` of `n` takes every `n`-th item
//! ([`crate::shard`]). Tallies are integer sums, so any split, merged, gives
//! the single run's numbers bit for bit.
//!
//! ```
//! use aliasing_sim::joint::{StackParams, StackWork};
//! use aliasing_core::shard::Shard;
//! use aliasing_sim::shard::{drive, Checkpoint, Drive};
//! let params = StackParams {
//!     stack: "ethernet-tcp".into(),
//!     bytes: vec![100],
//!     bers: vec![1e-5],
//!     max_weight: 4,
//!     samples: 0,
//!     seed: 1,
//! };
//! let work = StackWork::new(&params).unwrap();
//! let run = |i, n| {
//!     let start = Checkpoint::start(work.empty_tally());
//!     let shard = Shard::new(i, n).unwrap();
//!     drive(work.items(), shard, start, &Drive::default(), |i| work.run(i)).unwrap()
//! };
//! let mut two = run(1, 2);
//! aliasing_sim::shard::Tally::add(&mut two, &run(2, 2));
//! assert_eq!(two, run(1, 1));
//! ```

use crate::session::{RunKind, Session, first_difference};
use crate::shard::{self, Checkpoint, Drive, ShardFile, Tally};
use aliasing_core::__private::joint::{FrameTally, JointModel, JointPlan};
use aliasing_core::bsc;
use aliasing_core::ctx::{Ctx, Job};
use aliasing_core::document::{self, JointEstimate, StackCheck, StackPoint, StackTerm};
use aliasing_core::joint::{JointMethod, JointOptions, JointStack};
use aliasing_core::layout::{Frame, Payload};
use aliasing_core::shard::Shard;
use aliasing_core::{Error, Result};
use serde::{Deserialize, Serialize};
use std::path::Path;

/// The result of one stack request: the `stack` document (its `points`:
/// one per length and BER).
pub type StackReport = document::Stack;

/// Kind of an `alias stack` shard file.
pub const STACK_FORMAT: &str = "alias-stack";

/// Everything that fixes an `alias stack` run's result.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct StackParams {
    /// The stack (frame layout).
    pub stack: String,
    /// Frame lengths in bytes.
    pub bytes: Vec<u64>,
    /// Bit error rates reported.
    pub bers: Vec<f64>,
    /// Highest weight enumerated (before each length's pair limits).
    pub max_weight: u32,
    /// Draws of the next weight per length (0 for none).
    pub samples: u64,
    /// Seed of the draws.
    pub seed: u64,
}

impl StackParams {
    /// Refuses a request the computation cannot answer, before any work: no
    /// length, no BER, a BER outside `[0, 0.5]` (the dual-code bracket's
    /// range), a highest weight outside 2 to 5.
    pub fn validate(&self) -> Result<()> {
        if self.bytes.is_empty() {
            return Err(Error::Invalid("no frame length given".into()));
        }
        if self.bers.is_empty() {
            return Err(Error::Invalid("no bit error rate given".into()));
        }
        if let Some(&p) = self.bers.iter().find(|&&p| !(0.0..=0.5).contains(&p)) {
            return Err(Error::BadBer(format!(
                "bit error rate {p} is outside [0, 0.5], the range of the dual-code bracket"
            )));
        }
        if !(2..=5).contains(&self.max_weight) {
            return Err(Error::Param {
                param: aliasing_core::Param::MaxWeight,
                reason: format!(
                    "the largest weight enumerated (max-weight) must be 2 to 5, not {}",
                    self.max_weight
                ),
            });
        }
        Ok(())
    }

    /// The options of the joint computation (refused as
    /// [`JointOptions::new`] refuses).
    pub fn options(&self) -> Result<JointOptions> {
        JointOptions::new(self.max_weight, self.samples, self.seed)
    }
}

/// The tallies of every frame length, in the order of [`StackParams::bytes`].
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct StackTally(pub Vec<FrameTally>);

impl Tally for StackTally {
    fn empty_like(&self) -> Self {
        StackTally(
            self.0
                .iter()
                .map(|t| {
                    let mut e = t.clone();
                    e.terms.iter_mut().for_each(|w| {
                        (w.codewords, w.pass_count, w.touching) = (0, 0, 0);
                    });
                    e.sample = Default::default();
                    e
                })
                .collect(),
        )
    }
    fn add(&mut self, other: &Self) {
        for (a, b) in self.0.iter_mut().zip(&other.0) {
            a.add(b);
        }
    }
}

/// A shard file of `alias stack`.
pub type StackFile = ShardFile<StackParams, StackTally>;

/// Which items of the list are run.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Items {
    /// Every item.
    All,
    /// The enumeration's items only (no sample chunks).
    Enumeration,
    /// The sample chunks of the lengths marked `true` only.
    Samples,
}

/// The frames and plans of a run, and its list of items.
pub struct StackWork {
    /// The frames, one per length.
    pub frames: Vec<Frame>,
    /// Their plans.
    pub plans: Vec<JointPlan>,
    /// The global item list: `(length index, item of its plan)`.
    items: Vec<(usize, u64)>,
}

impl StackWork {
    /// Builds every frame's layout and plan (refusing a bad length or stack
    /// before any long work); the item list is every length's items in order.
    pub fn new(params: &StackParams) -> Result<Self> {
        let opts = params.options()?;
        let mut frames = Vec::new();
        let mut plans = Vec::new();
        let mut items = Vec::new();
        for (k, &b) in params.bytes.iter().enumerate() {
            let b = usize::try_from(b)
                .map_err(|_| Error::Invalid(format!("{b} bytes: too long a frame")))?;
            let f = Frame::new(&params.stack, b, Payload::Random)?;
            let plan = JointPlan::new(&f, &opts).map_err(|e| with_bytes(e, b))?;
            items.extend((0..plan.items()).map(|i| (k, i)));
            frames.push(f);
            plans.push(plan);
        }
        Ok(StackWork {
            frames,
            plans,
            items,
        })
    }

    /// Items in the list.
    pub fn items(&self) -> u64 {
        self.items.len() as u64
    }

    /// The indices of the items of a kind: the enumeration's, or the sample
    /// chunks of the lengths where `want[k]` (for the sampling pass of a
    /// single run).
    pub fn select(&self, which: Items, want: &[bool]) -> Vec<u64> {
        (0..self.items())
            .filter(|&i| {
                let (k, j) = self.items[i as usize];
                let e = j < self.plans[k].enumeration_items();
                match which {
                    Items::All => true,
                    Items::Enumeration => e,
                    Items::Samples => !e && want.get(k).copied().unwrap_or(false),
                }
            })
            .collect()
    }

    /// An estimate of the enumeration's wall-clock time on every core, in
    /// seconds: a strided sample of its items is run and timed
    /// ([`shard::pilot_seconds`], at most a sixteenth of the work, 64
    /// items at most); `NaN` where there are too few items to sample
    /// (a short run). For announcing a long run before it starts.
    pub fn estimate_seconds(&self) -> Result<f64> {
        let items = self.select(Items::Enumeration, &[]);
        shard::pilot_seconds(&items, 64, 0, |i| self.run(i))
    }

    /// The tally of no work.
    pub fn empty_tally(&self) -> StackTally {
        StackTally(self.plans.iter().map(|p| p.empty_tally()).collect())
    }

    /// The tally of item `i` of the list.
    pub fn run(&self, i: u64) -> StackTally {
        let mut t = self.empty_tally();
        if let Some(&(k, j)) = self.items.get(i as usize) {
            t.0[k] = self.plans[k].run(j);
        }
        t
    }

    /// Each length's stack from the total tally (see
    /// [`JointStack::from_tally`]: the dual code of each length, a few
    /// seconds for a 32-bit CRC), in `ctx` (its memory budget, and one
    /// progress stage `"dual-code windows"` per length).
    pub fn stacks(&self, tally: &StackTally, ctx: &Ctx) -> Result<Vec<JointStack>> {
        if tally.0.len() != self.plans.len() {
            return Err(Error::Invalid(format!(
                "a tally of {} lengths for {} lengths",
                tally.0.len(),
                self.plans.len()
            )));
        }
        self.plans
            .iter()
            .zip(&tally.0)
            .zip(&self.frames)
            .map(|((p, t), f)| {
                JointStack::from_tally(p, t, ctx).map_err(|e| with_bytes(e, f.bytes))
            })
            .collect()
    }
}

/// `alias stack` as a library job: a request ([`StackParams`]) validated
/// once, when the job is built, with every frame's layout and plan built
/// then too (a bad stack or length is refused before any long work). Its
/// [`Job::run`] is the whole computation ([`report`]'s numbers, bit for
/// bit); [`StackJob::session`] runs one shard into its result file, and
/// [`StackJob::merge`] reports from the shard files of one run. The
/// sampling policy (the next weight drawn only where the certified bracket
/// is wider than 0.1% at some BER, [`wide`]) and the independence product
/// are the library's: the `alias stack` command prints this job's document.
///
/// ```
/// use aliasing_core::ctx::{Ctx, Job};
/// use aliasing_sim::joint::{StackJob, StackParams, report};
/// let params = StackParams {
///     stack: "internet+CRC-8/SAE-J1850".into(),
///     bytes: vec![21],
///     bers: vec![1e-6, 0.5],
///     max_weight: 5,
///     samples: 0,
///     seed: 1,
/// };
/// let job = StackJob::new(params.clone()).unwrap();
/// let doc = job.run(&Ctx::default()).unwrap();
/// assert_eq!(doc, report(&params, &Ctx::default()).unwrap());
/// // refused when built: a BER past the bracket's range
/// let bad = StackParams { bers: vec![0.6], ..params };
/// assert!(StackJob::new(bad).is_err());
/// ```
pub struct StackJob {
    params: StackParams,
    /// Every length's layout and plan; `None` where every BER is 0 (nothing
    /// to enumerate).
    work: Option<StackWork>,
}

impl StackJob {
    /// Validates `params` ([`StackParams::validate`]) and builds every
    /// layout and plan (or, with only BER 0, checks every layout).
    pub fn new(params: StackParams) -> Result<StackJob> {
        params.validate()?;
        let work = if params.bers.iter().any(|&p| p > 0.0) {
            Some(StackWork::new(&params)?)
        } else {
            for &b in &params.bytes {
                let b = usize::try_from(b)
                    .map_err(|_| Error::Invalid(format!("{b} bytes: too long a frame")))?;
                let f = Frame::new(&params.stack, b, Payload::Random)?;
                JointModel::new(&f).map_err(|e| with_bytes(e, b))?;
            }
            None
        };
        Ok(StackJob { params, work })
    }

    /// The request.
    pub fn params(&self) -> &StackParams {
        &self.params
    }

    /// An estimate of the enumeration's wall-clock seconds for one shard of
    /// `shards` ([`StackWork::estimate_seconds`]; `NaN` for a short run, 0
    /// where nothing is enumerated).
    pub fn estimate_seconds(&self, shards: u64) -> Result<f64> {
        match &self.work {
            Some(w) => Ok(w.estimate_seconds()? / shards.max(1) as f64),
            None => Ok(0.0),
        }
    }

    /// The session of shard `shard` of this job (the layouts and plans
    /// built by [`StackJob::new`] moved into it): its run gives the shard's
    /// result file, and for the whole run the report.
    pub fn session(self, shard: Shard) -> Result<StackSession> {
        match self.work {
            Some(w) => Session::planned(self.params, w, shard),
            None => Session::new(self.params, shard),
        }
    }

    /// Reads the shard files of one run at `paths`, adds their tallies and
    /// reports as the single run does, bit for bit (the dual code of each
    /// length on `ctx`'s progress).
    pub fn merge(paths: &[std::path::PathBuf], ctx: &Ctx) -> Result<StackReport> {
        let (s, file) = crate::session::merge_kind::<StackParams>(paths)?;
        report_from_tally(&s.params, &s.plan, &file.progress.counts, ctx)
    }
}

impl RunKind for StackParams {
    type Tally = StackTally;
    type Plan = StackWork;
    const FORMAT: &'static str = STACK_FORMAT;
    fn plan(&self) -> Result<StackWork> {
        self.validate()?;
        StackWork::new(self)
    }
}

/// A stack run (or one shard of it) over its work items, with the rules
/// every run kind shares ([`Session`]: checkpoints, resume, result files,
/// merge).
pub type StackSession = Session<StackParams>;

impl Session<StackParams> {
    /// Continues the stack run saved at `path`; the parameters `given` (if
    /// any) and the shard must match the file's.
    pub fn resume(path: &Path, given: Option<&StackParams>, shard: Option<Shard>) -> Result<Self> {
        let differs = |saved: &StackParams| given.and_then(|g| first_difference(saved, g));
        Self::resume_with(path, differs, shard)
    }

    /// Runs the shard's work items (the draws included) in `ctx` (one
    /// stage, `"work items"`) and returns its result file; with the whole
    /// run ([`Shard::WHOLE`]) the report too, equal to [`Job::run`]'s bit
    /// for bit. A shard's tally alone is no result: merge the files
    /// ([`StackJob::merge`]).
    pub fn run(&self, ctx: &Ctx) -> Result<(StackFile, Option<StackReport>)> {
        let work = &self.plan;
        let opts = Drive {
            progress: ctx.progress(),
            threads: ctx.threads(),
            team: ctx.team(),
            ..Drive::default()
        };
        let (tally, file) =
            self.drive_items(work.items(), work.empty_tally(), "work items", &opts, |i| {
                work.run(i)
            })?;
        if self.shard.count > 1 {
            return Ok((file, None));
        }
        let doc = report_from_tally(&self.params, work, &tally, ctx)?;
        Ok((file, Some(doc)))
    }
}

impl Job for StackJob {
    type Output = StackReport;

    /// The whole computation ([`report`]'s numbers), watched by `ctx`'s
    /// progress, on its threads, each check's column held to its memory
    /// budget.
    fn run(&self, ctx: &Ctx) -> Result<StackReport> {
        match &self.work {
            Some(w) => report_on(&self.params, w, ctx),
            None => report(&self.params, ctx),
        }
    }
}

/// The whole computation of a request, in one call: validates it
/// ([`StackParams::validate`]) and builds every layout and plan (refusing a
/// bad length or stack) before any long work; runs the enumeration of every
/// length, then the draws of the next weight only for the lengths whose
/// certified bracket is wider than 0.1% at some BER; reports every (length,
/// BER), in `ctx`: watched by its progress (stages `"work items"` and
/// `"dual-code windows"`), on its threads, each check's column held to its
/// memory budget. With only BER 0 nothing is computed: every value is 0 at
/// once.
///
/// ```
/// use aliasing_sim::joint::{report, StackParams};
/// let params = StackParams {
///     stack: "internet+CRC-8/SAE-J1850".into(),
///     bytes: vec![21],
///     bers: vec![0.0, 1e-6, 0.5],
///     max_weight: 5,
///     samples: 0,
///     seed: 1,
/// };
/// let r = report(&params, &aliasing_core::ctx::Ctx::default()).unwrap();
/// // BER 0: zeros; BER 0.5: exact, 2^-8 of the words passing the checksum
/// assert_eq!(r.points[0].joint.estimate, Some(0.0));
/// let half = r.points[2].joint.estimate.unwrap();
/// assert!((half * 256.0 * 65535.0 - 1.0).abs() < 1e-9);
/// ```
pub fn report(params: &StackParams, ctx: &Ctx) -> Result<StackReport> {
    params.validate()?;
    if params.bers.iter().all(|&p| p == 0.0) {
        let mut frames = Vec::new();
        for &b in &params.bytes {
            let b = usize::try_from(b)
                .map_err(|_| Error::Invalid(format!("{b} bytes: too long a frame")))?;
            let f = Frame::new(&params.stack, b, Payload::Random)?;
            JointModel::new(&f).map_err(|e| with_bytes(e, b))?;
            frames.push(f);
        }
        let stacks = vec![None; frames.len()];
        return stack_report(params, &frames, &stacks, ctx);
    }
    let work = StackWork::new(params)?;
    report_on(params, &work, ctx)
}

/// [`report`] on `work`, the plans of `params` already built (as for a
/// duration estimate before the run), in `ctx`: the same result, bit for
/// bit, without building the layouts and plans a second time.
fn report_on(params: &StackParams, work: &StackWork, ctx: &Ctx) -> Result<StackReport> {
    let (progress, threads) = (ctx.progress(), ctx.threads());
    let opts = Drive {
        progress,
        threads,
        ..Drive::default()
    };
    let run_items = |items: &[u64]| {
        progress.stage("work items", items.len() as u64);
        let start = Checkpoint::start(work.empty_tally());
        shard::drive(items.len() as u64, Shard::WHOLE, start, &opts, |j| {
            work.run(items[j as usize])
        })
    };
    let tally = run_items(&work.select(Items::Enumeration, &[]))?;
    let mut stacks = work.stacks(&tally, ctx)?;
    let mut want = Vec::new();
    for st in &stacks {
        want.push(wide(st, &params.bers)?);
    }
    let draws = work.select(Items::Samples, &want);
    if !draws.is_empty() {
        let t = run_items(&draws)?;
        for (k, st) in stacks.iter_mut().enumerate() {
            if want[k] {
                st.set_sample(&t.0[k].sample, params.samples)?;
            }
        }
    }
    let stacks: Vec<Option<JointStack>> = stacks.into_iter().map(Some).collect();
    stack_report(params, &work.frames, &stacks, ctx)
}

/// The result from the total tally of every item of `work` (the merged
/// shards of a run, or a single run's result file): each length's stack
/// ([`StackWork::stacks`]), its sampled weight kept only where the
/// certified bracket is wider than 0.1% at some BER (as [`report`] draws
/// only there), then every point. Equals [`report`] bit for bit.
pub fn report_from_tally(
    params: &StackParams,
    work: &StackWork,
    tally: &StackTally,
    ctx: &Ctx,
) -> Result<StackReport> {
    params.validate()?;
    let mut stacks = Vec::new();
    for mut st in work.stacks(tally, ctx)? {
        if !wide(&st, &params.bers)? {
            st.sampled = None;
        }
        stacks.push(Some(st));
    }
    stack_report(params, &work.frames, &stacks, ctx)
}

/// `true` when the certified bracket from the exact terms alone is wider
/// than 0.1% at some BER: the sampled next weight is then reported.
pub fn wide(st: &JointStack, bers: &[f64]) -> Result<bool> {
    let mut exact = st.clone();
    exact.sampled = None;
    for &p in bers {
        let jp = exact.at(p)?;
        if jp.high > jp.low * 1.001 {
            return Ok(true);
        }
    }
    Ok(false)
}

/// The report of a run: one point per (length, BER); `stacks[k]` may be
/// `None` only where every BER is 0. [`report`] and [`report_from_tally`]
/// end here, and so does a caller that built each length's stack itself
/// (`alias transfer`, from kept tallies), so the digits are the same.
/// Each check's column (its exact `P_ud` over the bits it covers) is held
/// to the memory budget of `ctx`.
pub fn stack_report(
    params: &StackParams,
    frames: &[Frame],
    stacks: &[Option<JointStack>],
    ctx: &Ctx,
) -> Result<StackReport> {
    let budget = ctx.budget();
    let opts = params.options()?;
    let mut points = Vec::new();
    for (f, st) in frames.iter().zip(stacks) {
        for &p in &params.bers {
            points.push(point(f, st.as_ref(), p, &opts, budget)?);
        }
    }
    Ok(document::Stack::new(&params.stack, points))
}

/// The index of the stack's end-to-end checksum: the last Internet checksum
/// that reads the payload (TCP's in `ethernet-tcp`), else the last one.
pub fn end_to_end_check(f: &Frame) -> Option<usize> {
    let inet: Vec<usize> = (0..f.checks.len())
        .filter(|&i| f.checks[i].is_internet())
        .collect();
    let reads_payload = |&i: &usize| {
        f.random.0 < f.random.1
            && f.checks[i]
                .ranges
                .iter()
                .any(|&(a, b)| a <= f.random.0 && f.random.0 < b)
    };
    inet.iter()
        .copied()
        .rfind(reads_payload)
        .or(inet.last().copied())
}

/// Bits check `i` covers (its field included), as
/// [`aliasing_core::registry::placed_p_undetected`] counts them.
fn covered_bits(f: &Frame, i: usize) -> u64 {
    let c = &f.checks[i];
    if c.is_internet() {
        8 * c.ranges.iter().map(|&(a, b)| (b - a) as u64).sum::<u64>()
    } else {
        f.n_bits()
    }
}

/// One (length, BER) point.
fn point(
    f: &Frame,
    st: Option<&JointStack>,
    p: f64,
    opts: &JointOptions,
    budget: aliasing_core::units::MemoryBudget,
) -> Result<StackPoint> {
    let n = f.n_bits();
    let pe = bsc::p_error(n, p);
    let crc = (0..f.checks.len()).find(|&i| f.checks[i].crc().is_some());
    let e2e = end_to_end_check(f);
    let mut checks = Vec::new();
    let mut alias = Vec::new();
    for i in 0..f.checks.len() {
        // a check whose exact value cannot be certified here shows null (and
        // so do the products it enters), with the reason in its `note`
        let value = if p == 0.0 {
            Ok((covered_bits(f, i), 0.0))
        } else {
            let dual = st.map(|s| &s.dual);
            aliasing_core::__private::registry::placed_p_undetected(f, i, dual, p, budget)
        };
        match value {
            Ok((bits, pud)) => {
                // at BER 0, P(alias | error) is its limit 0: every check
                // here detects a single flip
                let pa = if p == 0.0 {
                    0.0
                } else {
                    pud / bsc::p_error(bits, p)
                };
                alias.push(Some(pa));
                checks.push(StackCheck::exact(&f.checks[i].name, bits, pud, pa));
            }
            Err(e) => {
                alias.push(None);
                checks.push(StackCheck::missing(&f.checks[i].name, e.to_string()));
            }
        }
    }
    let all_checks_product = alias.iter().copied().product::<Option<f64>>();
    let independence_product = match (crc, e2e) {
        (Some(c), Some(t)) => alias[c].zip(alias[t]).map(|(a, b)| a * b),
        (Some(c), None) => alias[c],
        _ => None,
    };
    let (joint, terms) = match st {
        Some(st) => joint_of(st, n, p, opts)?,
        None if p == 0.0 => (
            JointEstimate::new(Some(0.0), 0.0, 0.0, no_error_method()),
            Vec::new(),
        ),
        None => {
            return Err(Error::Invalid(format!(
                "internal error: no joint computation for BER {p}"
            )));
        }
    };
    Ok(StackPoint::new(
        f.bytes as u64,
        n,
        p,
        pe,
        joint,
        independence_product,
        all_checks_product,
        checks,
        terms,
    ))
}

fn no_error_method() -> String {
    "BER 0: no bit flips, nothing escapes".into()
}

/// The joint escape of `st` at BER `p`, with its method in words, and its
/// terms.
fn joint_of(
    st: &JointStack,
    n: u64,
    p: f64,
    opts: &JointOptions,
) -> Result<(JointEstimate, Vec<StackTerm>)> {
    let jp = st.at(p)?;
    let mut terms: Vec<StackTerm> = st.terms.iter().map(|t| StackTerm::new(t, n, p)).collect();
    let exact_ws: Vec<String> = st.terms.iter().map(|t| t.weight.to_string()).collect();
    let exact_ws = if exact_ws.is_empty() {
        "none".to_string()
    } else {
        exact_ws.join(",")
    };
    let enumerated = format!(
        "exact weights {exact_ws} of {}, remainder bounded by the CRC's P_ud (dual code)",
        st.max_weight
    );
    let (method, low, high) = match jp.method {
        JointMethod::NoError => (no_error_method(), jp.low, jp.high),
        JointMethod::CrcAlone => (
            "exact: no checksum beside the CRC, so the CRC's P_ud (dual code)".into(),
            jp.low,
            jp.high,
        ),
        JointMethod::Uniform => (
            format!(
                "exact at BER 0.5: every error pattern equally likely, so P(a uniformly random \
                 {n}-bit word passes every check) - 2^-{n}"
            ),
            jp.low,
            jp.high,
        ),
        JointMethod::Enumerated => (enumerated, jp.low, jp.high),
        JointMethod::Sampled => {
            let s = st.sampled.as_ref().expect("a sampled point has its term");
            terms.push(StackTerm::new(s, n, p));
            (
                format!(
                    "{enumerated}; weight {} estimated from {} draws (seed {}), 95% interval; certified [{:e}, {:e}]",
                    s.weight, opts.samples, opts.seed, jp.low, jp.high
                ),
                jp.interval.0,
                jp.interval.1,
            )
        }
        JointMethod::BracketOnly => (
            format!(
                "bracket only: {enumerated}; the remainder exceeds the exact terms at this BER, \
                 so no estimate is given"
            ),
            jp.low,
            jp.high,
        ),
    };
    Ok((JointEstimate::new(jp.estimate, low, high, method), terms))
}

fn with_bytes(e: Error, bytes: usize) -> Error {
    match e {
        e @ Error::Limit(_) => e.within(format!("{bytes} bytes")),
        Error::Invalid(m) => Error::Invalid(format!("{bytes} bytes: {m}")),
        e => e,
    }
}
