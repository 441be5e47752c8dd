//! `alias weights` as a library job: a CRC code's weight distribution
//! ([`WeightsJob`]), and its dual-code pass split into shards
//! ([`WeightsPass`]) whose result files ([`PassFile`]) add up, by
//! [`merge`], to what the whole run gives, bit for bit.
//!
//! ```
//! use aliasing_core::ctx::{Ctx, Job};
//! use aliasing_core::shard::Shard;
//! use aliasing_core::weights::WeightMethod;
//! use aliasing_sim::weights::{WeightsJob, merge};
//! let job = WeightsJob::new("crc8", 64, 6, WeightMethod::Dual, false).unwrap();
//! let whole = job.run(&Ctx::default()).unwrap();
//! let files: Vec<_> = (1..=3)
//!     .map(|i| {
//!         let pass = job.pass(Shard::new(i, 3).unwrap()).unwrap();
//!         (format!("shard {i}"), pass.run(&Ctx::default()).unwrap().file)
//!     })
//!     .collect();
//! let (_, merged) = merge(&files, &Ctx::default()).unwrap();
//! assert_eq!(merged, whole);
//! ```

use crate::session::{RunKind, Session};
use crate::shard::{Drive, ShardFile};
use aliasing_core::__private::dual::DualPass;
use aliasing_core::crc::CrcAlgorithm;
use aliasing_core::ctx::{Ctx, Job};
use aliasing_core::document::{DualWeightCount, WeightCount, Weights};
use aliasing_core::shard::Shard;
use aliasing_core::weights::{self, WeightDistribution, WeightMethod};
use aliasing_core::{Error, Result, catalogue};
use serde::{Deserialize, Serialize};

/// The kind of the result files of a split dual-code pass of `alias weights`.
pub const FORMAT: &str = "alias-weights";

/// What the output of a split `alias weights` depends on (the report flags
/// `--format` and `--output` come from `alias merge`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Params {
    /// The CRC as given (`--crc`).
    pub crc: String,
    /// The generator it names, in full notation.
    pub generator: String,
    /// Codeword length in bits.
    pub bits: u64,
    /// Highest weight reported (`--max-weight`).
    pub max_weight: u64,
    /// Whether the dual code's weights are reported too (`--dual`).
    pub dual: bool,
}

/// A shard's (or the whole pass's) result file: dual-weight histograms per length.
pub type PassFile = ShardFile<Params, Vec<Vec<u64>>>;

/// The weight distribution `A_w` of a CRC code at one length (and the dual
/// code's `B_w` if asked): the [`Weights`] document.
#[derive(Debug, Clone)]
pub struct WeightsJob {
    crc: CrcAlgorithm,
    params: Params,
    method: WeightMethod,
}

impl WeightsJob {
    /// The distribution of the CRC `crc` (a name or polynomial, as
    /// [`catalogue::resolve`] reads it) at `bits` codeword bits, weights up
    /// to `max_weight` (capped at the length), counted by `method`, with
    /// the dual code's weights when `dual`. Refuses a length not longer
    /// than the check.
    pub fn new(
        crc: &str,
        bits: u64,
        max_weight: u64,
        method: WeightMethod,
        dual: bool,
    ) -> Result<WeightsJob> {
        let algo = catalogue::resolve(crc)?;
        let g = algo.generator();
        if bits <= u64::from(g.width()) {
            // the refusal `distribution` gives (a length refusal: no
            // memory is asked for)
            let unbounded = Ctx::new(aliasing_core::units::MemoryBudget::bytes(f64::MAX)?);
            weights::distribution(&g, bits, 0, WeightMethod::Dual, false, &unbounded)?;
        }
        let params = Params {
            crc: crc.to_string(),
            generator: g.full_string(),
            bits,
            max_weight,
            dual,
        };
        Ok(WeightsJob {
            crc: algo,
            params,
            method,
        })
    }

    /// The CRC.
    pub fn crc(&self) -> &CrcAlgorithm {
        &self.crc
    }

    /// The parameters a split pass records.
    pub fn params(&self) -> &Params {
        &self.params
    }

    /// The estimated time of the count in seconds (`NaN` for the dual
    /// method, which announces nothing).
    pub fn estimated_seconds(&self) -> f64 {
        let p = &self.params;
        aliasing_core::__private::weights::estimated_seconds(
            &self.crc.generator(),
            p.bits,
            p.max_weight,
            self.method,
            p.dual,
        )
    }

    /// Shard `shard` of the dual-code pass of this count; refused where the
    /// count does not use the dual code.
    pub fn pass(&self, shard: Shard) -> Result<WeightsPass> {
        let p = &self.params;
        if !aliasing_core::__private::weights::uses_dual(
            &self.crc.generator(),
            p.bits,
            p.max_weight,
            self.method,
            p.dual,
        ) {
            return Err(Error::Param {
                param: aliasing_core::Param::Method,
                reason: "shards, pass files and MPI ranks split the dual-code pass: \
                         use the dual method"
                    .into(),
            });
        }
        Ok(WeightsPass(Session::planned(
            self.params.clone(),
            self.crc.clone(),
            shard,
        )?))
    }
}

impl RunKind for Params {
    type Tally = Vec<Vec<u64>>;
    /// The CRC the parameters name (refused where the name no longer
    /// gives the recorded generator).
    type Plan = CrcAlgorithm;
    const FORMAT: &'static str = FORMAT;
    fn plan(&self) -> Result<CrcAlgorithm> {
        let crc = catalogue::resolve(&self.crc)?;
        if crc.generator().full_string() != self.generator {
            return Err(Error::Invalid(format!(
                "{} names {}, not the file's generator {}",
                self.crc,
                crc.generator().full_string(),
                self.generator
            )));
        }
        Ok(crc)
    }
}

impl Job for WeightsJob {
    type Output = Weights;

    fn run(&self, ctx: &Ctx) -> Result<Weights> {
        let p = &self.params;
        let g = self.crc.generator();
        let method = self.method;
        let dist = ctx.install_with(|c| {
            weights::distribution(&g, p.bits, p.max_weight, method, p.dual, c)
        })??;
        ctx.progress().finish();
        Ok(document(&self.crc, p, &dist))
    }
}

/// The document of a distribution.
fn document(crc: &CrcAlgorithm, p: &Params, dist: &WeightDistribution) -> Weights {
    let ws = dist
        .counts
        .iter()
        .enumerate()
        .map(|(w, c)| WeightCount::new(w, c.clone().into()))
        .collect();
    let ds = match (&dist.dual, p.dual) {
        (Some(d), true) => d
            .counts
            .iter()
            .enumerate()
            .filter(|(_, c)| **c > 0)
            .map(|(w, &count)| DualWeightCount::new(w, count))
            .collect(),
        _ => Vec::new(),
    };
    Weights::new(crc.into(), p.bits, ws, ds)
}

/// One shard of the dual-code pass of a [`WeightsJob`] (built by
/// [`WeightsJob::pass`]): a [`Session`] of the pass's state ranges; with
/// the context's team, the members share it.
pub struct WeightsPass(Session<Params>);

/// What a [`WeightsPass`] gives: its result file and, for the whole pass,
/// the document. On a team member other than 0 the file holds only that
/// member's last part and there is no document.
#[derive(Debug, Clone, Serialize)]
#[non_exhaustive]
pub struct PassOutcome {
    /// The shard's result file (to write, and to [`merge`]).
    pub file: PassFile,
    /// The distribution, when the shard is the whole pass.
    pub document: Option<Weights>,
}

impl Job for WeightsPass {
    type Output = PassOutcome;

    /// The shard's items on the context's threads and team, watched by its
    /// progress (one stage, `"dual-code state ranges"`).
    fn run(&self, ctx: &Ctx) -> Result<PassOutcome> {
        let (s, p) = (&self.0, &self.0.params);
        let pass = DualPass::new(&s.plan.generator(), &[p.bits], ctx.budget())?;
        let opts = Drive {
            threads: ctx.threads(),
            progress: ctx.progress(),
            team: ctx.team(),
            ..Default::default()
        };
        let stage = "dual-code state ranges";
        let (tally, file) =
            s.drive_items(pass.items(), pass.zero(), stage, &opts, |i| pass.item(i))?;
        ctx.progress().finish();
        let document = match s.shard.count == 1 && ctx.is_root() {
            true => Some(report(&s.plan, p, &pass, &tally)?),
            false => None,
        };
        Ok(PassOutcome { file, document })
    }
}

/// The document of the whole pass's tally.
fn report(crc: &CrcAlgorithm, p: &Params, pass: &DualPass, tally: &[Vec<u64>]) -> Result<Weights> {
    let d = pass.finish(tally)?.remove(0);
    let dist = aliasing_core::__private::weights::from_dual(d, p.max_weight)?;
    Ok(document(crc, p, &dist))
}

/// Adds the result files of a split pass (each shard once, same
/// parameters, named for messages): the whole pass's file and the
/// document the single run gives.
pub fn merge(files: &[(String, PassFile)], ctx: &Ctx) -> Result<(PassFile, Weights)> {
    let (params, tally) = crate::shard::merge(files)?;
    let s = Session::new(params, Shard::WHOLE)?;
    let pass = DualPass::new(&s.plan.generator(), &[s.params.bits], ctx.budget())?;
    let doc = report(&s.plan, &s.params, &pass, &tally)?;
    let file = PassFile::finished(FORMAT, s.params, Shard::WHOLE, pass.items(), tally);
    Ok((file, doc))
}

/// Reads the result files of a split pass at `paths` and adds them
/// ([`merge`]).
pub fn merge_paths(paths: &[std::path::PathBuf], ctx: &Ctx) -> Result<(PassFile, Weights)> {
    let mut files = Vec::new();
    for p in paths {
        files.push((p.display().to_string(), PassFile::read(p, FORMAT)?));
    }
    merge(&files, ctx)
}
