//! `alias transfer`: how many frames reach the application corrupted (every
//! check passed) in a transfer of a given size, for each MTU, bit error rate
//! and number of hops, from the exact joint escape of the stack
//! ([`crate::joint`], the numbers of `alias stack`). One library call,
//! [`report`] (or [`report_with`], keeping the BER-independent part in
//! [`Tallies`] for the next call).
//!
//! # The model
//!
//! The transfer is `size` bytes of TCP payload cut into
//! `frames = ceil(size / (MTU - 40))` segments, each sent in a frame of
//! `frame_bytes` bytes (the MTU plus the link header and the CRC field:
//! MTU + 18 on Ethernet), `n = 8 frame_bytes` bits. The frame crosses `H`
//! links, each a binary symmetric channel of BER `p`, joined by
//! store-and-forward switches that check the CRC and regenerate it (a frame
//! that passes is forwarded as received, so an error that passed stays in
//! it); the receiving host checks the CRC and the Internet checksums (IPv4
//! header, TCP). A frame dropped by any check is sent again from the source.
//!
//! Per attempt, with `c = (1-p)^n` (no flip on one link), `J` the joint
//! escape of one link (`alias stack`'s per-frame value: a non-zero CRC
//! codeword that every checksum passes) and `u` the CRC's own `P_ud` over
//! the frame:
//!
//! - `e`, the probability that the attempt is delivered corrupted, lies in
//!   `[H J c^(H-1), H J c^(H-1) + B]`: exactly one link passing a CRC
//!   codeword and the others clean is `H J c^(H-1)` exactly (no
//!   independence assumed between the checks of one link: `J` is the joint
//!   value); `B = sum_{j>=2} C(H,j) u^j c^(H-j)` is the probability that two
//!   or more links each pass a non-zero codeword, the only other way to be
//!   delivered corrupted. At `H = 1`, `e = J` with `J`'s bracket and method.
//! - `1 - d = c^H + e` (clean on every link, or delivered corrupted), plus
//!   at most `B` (codewords of two links cancelling: the frame arrives
//!   intact), with no subtraction;
//! - frames sent `= frames / (1 - d)`; expected escapes `= frames sent x e`
//!   (the per-frame value printed is `e`, per frame *sent*);
//! - each segment ends corrupted with `q = e / (1 - d)`, so
//!   `P(at least one) = -expm1(frames ln_1p(-q))`.
//!
//! Every bracket end is computed from the same end of `J` (both formulas
//! increase with `e`), the lower one with `1 - d` at its largest. The CRC codeword tallies and the CRC's dual weights
//! of a frame length do not depend on the BER, the size or the hops: they
//! are computed once per length and can be kept ([`Tallies`]).

use crate::corruption::{self, Corruption, Digest, Miss};
use crate::joint::{self, StackParams, StackWork};
use aliasing_core::__private::joint::{FrameTally, JointPlan};
use aliasing_core::bsc;
use aliasing_core::ctx::{Ctx, Job};
use aliasing_core::document::{Bracketed, JointEstimate, StackPoint, Transfer, TransferPoint};
use aliasing_core::joint::JointStack;
use aliasing_core::layout::{Inner, StackSpec};
use aliasing_core::progress::Progress;
use aliasing_core::weights::DualWeights;
use aliasing_core::{Error, Result};
use serde::{Deserialize, Serialize};

mod counts;
mod job;
mod tallies;
pub use counts::*;
pub use job::*;
pub use tallies::*;

/// The smallest MTU (IPv4's minimum, RFC 791).
pub const MIN_MTU: u64 = 68;
/// The largest MTU: the usual jumbo-frame limit.
pub const MAX_MTU: u64 = 9216;
/// The most links a frame may cross (IPv4's largest TTL).
pub const MAX_HOPS: u32 = 255;
/// The largest transfer, in bytes: 2^64.
pub const MAX_SIZE: u128 = 1 << 64;
/// IPv4 and TCP headers in each packet: `payload = MTU - 40`.
pub const HEADERS: u64 = 40;
/// Kind of a tallies file.
pub const TALLIES_FORMAT: &str = "alias-transfer-tallies";

/// Everything that fixes an `alias transfer` result.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct TransferParams {
    /// The stack: `ethernet-tcp`, or `ethernet-tcp+CRC` / `ipv4-tcp+CRC`.
    pub stack: String,
    /// Bytes transferred (TCP payload), 1 to 2^64.
    pub size: u128,
    /// The file the size was read from, if any; read (as the segments'
    /// data) only where corruption models are given.
    pub payload_file: Option<String>,
    /// Corruption inside hosts and routers (`--corruption MODEL:RATE`), one
    /// entry per model; none: the links alone. Over the payload file's data
    /// where there is one ([`corruption::files()`]: one pass, every segment size),
    /// else over uniform data ([`corruption::uniform`]).
    #[serde(default, with = "specs")]
    pub corruption: Vec<Corruption>,
    /// An end-to-end CRC over each segment's data on top of TCP
    /// (`--digest`: `crc32c` for an iSCSI data digest, `crc64-nvme`, any
    /// name or generator [`Digest::resolve`] takes); every corruption entry
    /// is then missed only when both checks pass ([`corruption::with_digest`]:
    /// exact where the CRC detects every error the model can make, else a
    /// certified upper bound). The links' escapes are computed without it.
    /// Needs at least one corruption model.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub digest: Option<String>,
    /// IP packet lengths (MTUs), 68 to 9216 bytes.
    pub mtus: Vec<u64>,
    /// Bit error rate of every link, in `[0, 0.5]`.
    pub bers: Vec<f64>,
    /// Links crossed, 1 to 255 each.
    pub hops: Vec<u32>,
    /// Highest CRC codeword weight enumerated (2 to 5), as `alias stack`.
    pub max_weight: u32,
    /// Draws of the next weight where the bracket is wide, as `alias stack`.
    pub samples: u64,
    /// Seed of the draws.
    pub seed: u64,
}

impl TransferParams {
    /// A request with `alias stack`'s defaults (weights up to 5, 50,000
    /// draws, seed 1) and no payload file.
    pub fn new(stack: &str, size: u128, mtus: Vec<u64>, bers: Vec<f64>, hops: Vec<u32>) -> Self {
        TransferParams {
            stack: stack.into(),
            size,
            payload_file: None,
            corruption: Vec::new(),
            digest: None,
            mtus,
            bers,
            hops,
            max_weight: 5,
            samples: 50_000,
            seed: 1,
        }
    }

    /// Refuses, before any work, a size of 0 or over 2^64 bytes, an MTU
    /// outside 68 to 9216, hops outside 1 to 255, a stack without IPv4 and
    /// TCP under one CRC, and whatever [`StackParams::validate`] refuses (a
    /// BER outside `[0, 0.5]`, a highest weight outside 2 to 5).
    pub fn validate(&self) -> Result<()> {
        if self.size == 0 {
            return Err(Error::Invalid("a transfer of 0 bytes".into()));
        }
        if self.size > MAX_SIZE {
            return Err(Error::Invalid(format!(
                "a transfer of {} bytes is over the limit of 2^64 bytes",
                self.size
            )));
        }
        if self.mtus.is_empty() {
            return Err(Error::Invalid("no MTU given".into()));
        }
        if let Some(m) = self.mtus.iter().find(|m| !(MIN_MTU..=MAX_MTU).contains(*m)) {
            return Err(Error::Invalid(format!(
                "MTU {m} is outside {MIN_MTU} to {MAX_MTU} bytes (IPv4's minimum to jumbo frames)"
            )));
        }
        if self.hops.is_empty() {
            return Err(Error::Invalid("no hop count given".into()));
        }
        if let Some(h) = self.hops.iter().find(|h| !(1..=MAX_HOPS).contains(*h)) {
            return Err(Error::Invalid(format!(
                "{h} hops: a frame crosses 1 to {MAX_HOPS} links"
            )));
        }
        self.overhead()?;
        self.stack_params().validate()?;
        for c in &self.corruption {
            for &mtu in &self.mtus {
                c.model.check(mtu - HEADERS).map_err(|e| match e {
                    Error::Invalid(m) => Error::Invalid(format!("MTU {mtu}: {m}")),
                    e => e,
                })?;
            }
        }
        self.resolve_digest()?;
        if let (Some(f), false) = (&self.payload_file, self.corruption.is_empty()) {
            corruption::open_payload(std::path::Path::new(f))?;
        }
        Ok(())
    }

    /// The end-to-end CRC of [`TransferParams::digest`], resolved; refused
    /// (a one-line [`Error::Invalid`]) where it names no CRC, or where no
    /// corruption model is given (the digest applies to those only).
    pub fn resolve_digest(&self) -> Result<Option<Digest>> {
        let Some(spec) = &self.digest else {
            return Ok(None);
        };
        let d = Digest::resolve(spec.trim()).map_err(|e| match e {
            Error::Invalid(m) => Error::Invalid(format!("--digest {}: {m}", spec.trim())),
            e => e,
        })?;
        if self.corruption.is_empty() {
            return Err(Error::Invalid(format!(
                "--digest {}: the end-to-end CRC applies to corruption inside hosts and routers: \
                 give --corruption MODEL:RATE (the links' escapes do not model it)",
                spec.trim()
            )));
        }
        Ok(Some(d))
    }

    /// Bytes of a frame beyond its IP packet: the link header (14 on
    /// Ethernet, 0 for `ipv4-tcp+CRC`) and the CRC field.
    pub fn overhead(&self) -> Result<u64> {
        let refuse = || {
            Error::Invalid(format!(
                "stack `{}`: a transfer needs IPv4 and TCP under one CRC \
                 (ethernet-tcp, ethernet-tcp+CRC or ipv4-tcp+CRC)",
                self.stack
            ))
        };
        match self.stack.parse::<StackSpec>()? {
            StackSpec::Stacked { inner, crc } => {
                let header = match inner {
                    Inner::EthernetTcp => 14,
                    Inner::Ipv4Tcp => 0,
                    _ => return Err(refuse()),
                };
                Ok(header + u64::from(crc.width()).div_ceil(8))
            }
            _ => Err(refuse()),
        }
    }

    /// The frame length of an MTU, CRC field included.
    pub fn frame_bytes(&self, mtu: u64) -> Result<u64> {
        Ok(mtu + self.overhead()?)
    }

    /// The `alias stack` request of the same frames and BERs.
    pub fn stack_params(&self) -> StackParams {
        let over = self.overhead().unwrap_or(0);
        StackParams {
            stack: self.stack.clone(),
            bytes: self.mtus.iter().map(|m| m + over).collect(),
            bers: self.bers.clone(),
            max_weight: self.max_weight,
            samples: self.samples,
            seed: self.seed,
        }
    }
}

/// The whole computation of a request in one call, keeping nothing, in
/// `ctx` (see [`report_with`]).
pub fn report(params: &TransferParams, ctx: &Ctx) -> Result<Transfer> {
    let mut kept = Tallies::new(params);
    report_with(params, &mut kept, ctx).map(|(doc, _)| doc)
}

/// [`report`] with `kept`: the lengths found there (same stack and options,
/// else refused before any work) are not computed again; the ones computed
/// are added. Returns the document and whether `kept` changed. In `ctx`:
/// the dual code and each check's column are held to its memory budget,
/// and its progress sees the stages `"work items"`, `"dual-code windows"`,
/// `"draws"`.
///
/// ```
/// use aliasing_sim::transfer::{report_with, Tallies, TransferParams};
/// let mut params =
///     TransferParams::new("ipv4-tcp+CRC-16/ARC", 1000, vec![68], vec![1e-4], vec![1, 3]);
/// params.samples = 0;
/// let mut kept = Tallies::new(&params);
/// let ctx = aliasing_core::ctx::Ctx::default();
/// let (doc, changed) = report_with(&params, &mut kept, &ctx).unwrap();
/// assert!(changed);
/// let one = &doc.points[0];
/// // 1000 bytes in 28-byte payloads: 36 segments, 70-byte frames
/// assert_eq!((one.frames, one.frame_bytes, one.hops), (36, 70, 1));
/// // expected escapes = frames sent x joint per frame
/// let e = one.frames_sent.unwrap() * one.joint_per_frame.estimate.unwrap();
/// assert_eq!(one.escapes.estimate, Some(e));
/// // a second call at another BER computes no tally
/// params.bers = vec![1e-5];
/// let (_, changed) = report_with(&params, &mut kept, &ctx).unwrap();
/// assert!(!changed);
/// ```
pub fn report_with(
    params: &TransferParams,
    kept: &mut Tallies,
    ctx: &Ctx,
) -> Result<(Transfer, bool)> {
    let progress = ctx.progress();
    params.validate()?;
    kept.check(params)?;
    let sp = params.stack_params();
    let work = StackWork::new(&sp)?;
    // The file part (the corruption models over the payload file) and the
    // link part (the stack's tallies) share nothing: they run at once, each
    // filling the cores the other leaves idle (the file part while it
    // reads, the link part in its serial stages). Progress shows the file
    // part while it runs, then the link part ([`Gate`]). A team's calls
    // belong to the thread that holds it: with one, one after the other.
    let (misses, linked) = if params.corruption.is_empty() || ctx.team().is_some() {
        let misses = corruption_misses(params, progress)?;
        (Ok(misses), link_stacks(&sp, &work, kept, ctx))
    } else {
        let gate = Gate::new(progress);
        let (budget, threads) = (ctx.budget(), ctx.threads());
        rayon::join(
            || {
                let m = corruption_misses(params, progress);
                gate.open();
                m
            },
            || {
                let link = Ctx::new(budget)
                    .with_progress(&gate)
                    .with_threads(threads)?;
                link_stacks(&sp, &work, kept, &link)
            },
        )
    };
    let misses = misses?;
    let (stack, changed) = linked?;
    let mut points = Vec::new();
    for (k, &mtu) in params.mtus.iter().enumerate() {
        let frame = &work.frames[k];
        let crc = (0..frame.checks.len()).find(|&i| frame.checks[i].crc().is_some());
        for (b, _) in params.bers.iter().enumerate() {
            let sp_point = &stack.points[k * params.bers.len() + b];
            for &h in &params.hops {
                let pt = point(params, mtu, sp_point, crc, h)?;
                points.push(with_corruption(params, &misses[k], pt));
            }
        }
    }
    let doc = Transfer::new(
        &params.stack,
        params.size,
        params.payload_file.clone(),
        model_text_for(params)?,
        points,
    )
    .with_digest(params.resolve_digest()?.map(|d| d.name));
    Ok((doc, changed))
}

/// The stack's points at every MTU and BER of `sp` ([`report_with`]'s link
/// part), with the tallies of `kept` where it has them; and whether `kept`
/// changed.
fn link_stacks(
    sp: &StackParams,
    work: &StackWork,
    kept: &mut Tallies,
    ctx: &Ctx,
) -> Result<(joint::StackReport, bool)> {
    let mut changed = false;
    if sp.bers.iter().all(|&p| p == 0.0) {
        let stacks = vec![None; work.frames.len()];
        return Ok((
            joint::stack_report(sp, &work.frames, &stacks, ctx)?,
            changed,
        ));
    }
    // every kept length checked first, so a stale file is refused before
    // any length is computed
    for (k, plan) in work.plans.iter().enumerate() {
        if let Some(f) = kept.get(sp.bytes[k]) {
            let mut enumerated = f.tally.clone();
            enumerated.sample = Default::default();
            JointStack::from_tally_and_dual(plan, &enumerated, f.dual.clone())
                .map_err(stale)
                .map_err(|e| with_bytes(e, sp.bytes[k]))?;
        }
    }
    let mut duals = missing_duals(sp, &work.plans, kept, ctx)?;
    let mut stacks = Vec::new();
    for (k, plan) in work.plans.iter().enumerate() {
        let bytes = sp.bytes[k];
        let dual = duals.remove(&u64::from(plan.model.n));
        let st = frame_stack(sp, plan, bytes, kept, &mut changed, dual, ctx)
            .map_err(|e| with_bytes(e, bytes))?;
        stacks.push(Some(st));
    }
    Ok((
        joint::stack_report(sp, &work.frames, &stacks, ctx)?,
        changed,
    ))
}

/// A watcher for the link part while the file part runs at the same time
/// ([`report_with`]): its calls are held back (a terminal shows one stage
/// at a time) until [`Gate::open`], which replays the current stage and
/// the units done in it, then passes every call on.
struct Gate<'a> {
    inner: &'a dyn Progress,
    open: std::sync::atomic::AtomicBool,
    held: std::sync::Mutex<Held>,
}

/// What a closed [`Gate`] holds: the last part and stage begun, the units
/// done in that stage, and whether the computation finished.
#[derive(Default)]
struct Held {
    part: Option<String>,
    stage: Option<(String, u64)>,
    done: u64,
    finished: bool,
}

impl<'a> Gate<'a> {
    fn new(inner: &'a dyn Progress) -> Self {
        Gate {
            inner,
            open: false.into(),
            held: Default::default(),
        }
    }

    /// Replays what was held, then passes every call on.
    fn open(&self) {
        let mut h = self.held.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(p) = h.part.take() {
            self.inner.part(&p);
        }
        if let Some((name, total)) = h.stage.take() {
            self.inner.stage(&name, total);
        }
        if h.done > 0 {
            self.inner.advance(h.done);
        }
        if h.finished {
            self.inner.finish();
        }
        self.open.store(true, std::sync::atomic::Ordering::Release);
    }

    /// `f` on the held state while closed; `false` (and nothing done)
    /// once open.
    fn hold(&self, f: impl FnOnce(&mut Held)) -> bool {
        if self.open.load(std::sync::atomic::Ordering::Acquire) {
            return false;
        }
        let mut h = self.held.lock().unwrap_or_else(|e| e.into_inner());
        // opened while this thread waited: pass the call on
        if self.open.load(std::sync::atomic::Ordering::Acquire) {
            return false;
        }
        f(&mut h);
        true
    }
}

impl Progress for Gate<'_> {
    fn advance(&self, n: u64) {
        if !self.hold(|h| h.done += n) {
            self.inner.advance(n);
        }
    }
    fn stage(&self, name: &str, total: u64) {
        if !self.hold(|h| {
            h.stage = Some((name.to_string(), total));
            h.done = 0;
        }) {
            self.inner.stage(name, total);
        }
    }
    fn part(&self, name: &str) {
        if !self.hold(|h| {
            h.part = Some(name.to_string());
            h.stage = None;
            h.done = 0;
        }) {
            self.inner.part(name);
        }
    }
    fn finish(&self) {
        if !self.hold(|h| h.finished = true) {
            self.inner.finish();
        }
    }
}

/// `pt` with one corruption entry per model of `params`, from its misses at
/// the point's MTU (as [`corruption_misses`] gives them).
pub(crate) fn with_corruption(
    params: &TransferParams,
    misses: &[Miss],
    pt: TransferPoint,
) -> TransferPoint {
    let entries = params
        .corruption
        .iter()
        .zip(misses)
        .map(|(c, m)| c.point(m, pt.frames))
        .collect();
    pt.with_corruption(entries)
}

/// Per MTU, per corruption model: its miss over the payload file's data
/// (one pass per segment size) or over uniform data, with the end-to-end
/// CRC of `--digest` where there is one ([`corruption::with_digest`]).
pub(crate) fn corruption_misses(
    params: &TransferParams,
    progress: &dyn Progress,
) -> Result<Vec<Vec<Miss>>> {
    if params.corruption.is_empty() {
        return Ok(vec![Vec::new(); params.mtus.len()]);
    }
    let digest = params.resolve_digest()?;
    let models: Vec<_> = params.corruption.iter().map(|c| c.model).collect();
    let segs: Vec<u64> = params.mtus.iter().map(|&mtu| mtu - HEADERS).collect();
    // over the file: one pass, every segment size at once
    let given = match &params.payload_file {
        Some(f) => Some(corruption::files(
            std::path::Path::new(f),
            &segs,
            &models,
            &Unfinished(progress),
        )?),
        None => None,
    };
    let mut out = Vec::new();
    for (k, &seg) in segs.iter().enumerate() {
        let m = match &given {
            Some(g) => g[k].clone(),
            None => models
                .iter()
                .map(|m| corruption::uniform(m, seg))
                .collect::<Result<_>>()?,
        };
        let m = match &digest {
            Some(d) => models
                .iter()
                .zip(&m)
                .map(|(model, tcp)| {
                    corruption::with_digest(model, tcp, d, seg, params.payload_file.is_none())
                })
                .collect::<Result<_>>()?,
            None => m,
        };
        out.push(m);
    }
    Ok(out)
}

/// A watcher passed on without its `finish` (more stages follow).
struct Unfinished<'a>(&'a dyn Progress);

impl Progress for Unfinished<'_> {
    fn advance(&self, n: u64) {
        self.0.advance(n);
    }
    fn stage(&self, name: &str, total: u64) {
        self.0.stage(name, total);
    }
}

/// `--corruption` specs as their text (`word:1e-6`) in a request's JSON.
mod specs {
    use super::Corruption;
    use serde::{Deserialize, Deserializer, Serializer};

    pub fn serialize<S: Serializer>(v: &[Corruption], s: S) -> Result<S::Ok, S::Error> {
        s.collect_seq(v.iter().map(|c| c.to_string()))
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Vec<Corruption>, D::Error> {
        Vec::<String>::deserialize(d)?
            .iter()
            .map(|t| t.parse().map_err(serde::de::Error::custom))
            .collect()
    }
}

/// The model in words for `params`: [`model_text`], and with `--digest`
/// what the end-to-end CRC applies to.
pub fn model_text_for(params: &TransferParams) -> Result<String> {
    let mut s = model_text();
    if let Some(d) = params.resolve_digest()? {
        s.push_str(&digest_text(&d));
    }
    Ok(s)
}

/// The sentence a document's model gains with an end-to-end CRC.
pub(crate) fn digest_text(d: &Digest) -> String {
    format!(
        ". End-to-end CRC {} over each segment's data on top of TCP: a corruption inside a \
         host or router escapes when the TCP checksum and it both pass (each entry's method \
         says exact or bound); the links' figures are those of the other checks alone (the \
         CRC is not modelled on the links, where it could only lower them)",
        d.name
    )
}

/// The model in words, as the document states it.
pub fn model_text() -> String {
    "binary symmetric channel of BER p on each of H links; every link checks and regenerates \
     the CRC (store-and-forward), the receiving host checks the CRC and the Internet checksums; \
     a frame dropped by any check is sent again. Per frame sent: joint = H J c^(H-1) exactly for \
     one link passing a CRC codeword and the others clean (J the single-link joint escape, \
     c = (1-p)^n), plus at most the probability that two or more links each pass a CRC codeword; \
     1 - d = c^H + joint; frames sent = frames / (1 - d); escapes = frames sent x joint; \
     P(at least one) = 1 - (1 - q)^frames with q = joint / (1 - d)"
        .into()
}

/// The CRC's dual weights of every frame length that `kept` lacks, by
/// length in bits, from one pass over the register's states for all of
/// them (the pass steps the register once for every length; the weights
/// are those of a pass per length, integer for integer), held to the
/// memory budget of `ctx`. Empty where the lengths do not share one
/// generator (each is then computed on its own).
fn missing_duals(
    sp: &StackParams,
    plans: &[JointPlan],
    kept: &Tallies,
    ctx: &Ctx,
) -> Result<std::collections::HashMap<u64, DualWeights>> {
    let missing: Vec<&JointPlan> = plans
        .iter()
        .zip(&sp.bytes)
        .filter(|(_, b)| kept.get(**b).is_none())
        .map(|(p, _)| p)
        .collect();
    let Some(first) = missing.first() else {
        return Ok(Default::default());
    };
    let g = &first.model.generator;
    if missing.iter().any(|p| p.model.generator != *g) {
        return Ok(Default::default());
    }
    let mut ns: Vec<u64> = missing.iter().map(|p| u64::from(p.model.n)).collect();
    ns.sort_unstable();
    ns.dedup();
    let duals = aliasing_core::dual::dual_weights(g, &ns, ctx)?;
    Ok(ns.into_iter().zip(duals).collect())
}

/// The stack of one length: from `kept` when it holds the length, else
/// computed (enumeration, and the dual code unless given in `dual`) and
/// added; the draws of the next weight are run (and kept) when some BER
/// needs them, exactly as [`joint::report`] runs them, so the result is
/// `alias stack`'s. The dual code is held to the memory budget of `ctx`.
fn frame_stack(
    sp: &StackParams,
    plan: &JointPlan,
    bytes: u64,
    kept: &mut Tallies,
    changed: &mut bool,
    dual: Option<DualWeights>,
    ctx: &Ctx,
) -> Result<JointStack> {
    let progress = ctx.progress();
    if kept.get(bytes).is_none() {
        let tally = run_items(plan, 0..plan.enumeration_items(), "work items", progress);
        let n = plan.model.n as u64;
        let dual = match dual {
            Some(d) => d,
            None => aliasing_core::dual::dual_weights(&plan.model.generator, &[n], ctx)?.remove(0),
        };
        kept.frames.push(KeptFrame { bytes, tally, dual });
        *changed = true;
    }
    let i = kept
        .frames
        .iter()
        .position(|f| f.bytes == bytes)
        .expect("kept above");
    let mut enumerated = kept.frames[i].tally.clone();
    enumerated.sample = Default::default();
    let mut st = JointStack::from_tally_and_dual(plan, &enumerated, kept.frames[i].dual.clone())
        .map_err(stale)?;
    if joint::wide(&st, &sp.bers)? && sp.samples > 0 {
        if kept.frames[i].tally.sample.draws == 0 {
            let t = run_items(
                plan,
                plan.enumeration_items()..plan.items(),
                "draws",
                progress,
            );
            kept.frames[i].tally.sample = t.sample;
            *changed = true;
        }
        st.set_sample(&kept.frames[i].tally.sample, sp.samples)
            .map_err(stale)?;
    }
    Ok(st)
}

/// A kept tally or dual code that does not fit the frame.
fn stale(e: Error) -> Error {
    Error::Invalid(format!(
        "the kept tallies do not match this frame ({e}): a stale or altered tallies file"
    ))
}

/// The tally of `items` of `plan` ([`JointPlan::tally`]), on the progress
/// bar as the stage `stage`.
fn run_items(
    plan: &JointPlan,
    items: std::ops::Range<u64>,
    stage: &str,
    progress: &dyn Progress,
) -> FrameTally {
    progress.stage(stage, items.end - items.start);
    plan.tally(items, progress)
}

fn with_bytes(e: Error, bytes: u64) -> Error {
    match e {
        e @ Error::Limit(_) => e.within(format!("{bytes}-byte frame")),
        Error::Invalid(m) => Error::Invalid(format!("{bytes}-byte frame: {m}")),
        e => e,
    }
}

pub mod burst;
pub mod cost;
