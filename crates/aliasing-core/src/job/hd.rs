//! [`HdJob`]: a CRC's Hamming-distance profile and burst guarantees
//! (`alias hd`).

use crate::crc::CrcAlgorithm;
use crate::ctx::{Ctx, Job};
use crate::document::Hd;
use crate::error::{Error, Result};
use crate::{burst, lowweight};

/// The Hamming-distance profile of a CRC, searched within a budget of hash
/// probes and optionally only up to a codeword length, with its burst
/// profile: the [`Hd`] document.
#[derive(Debug, Clone)]
pub struct HdJob {
    crc: CrcAlgorithm,
    max_hd: Option<u32>,
    max_bits: Option<u64>,
    budget: f64,
}

impl HdJob {
    /// Patterns per burst length counted one by one for the burst rows
    /// (the rest rests on the theorem, [`burst`]).
    pub const BURST_PATTERNS: u64 = 1 << 22;

    /// The whole profile of `crc` (up to the weight of its generator),
    /// within the default budget of hash probes (`1e9`).
    pub fn new(crc: CrcAlgorithm) -> HdJob {
        HdJob {
            crc,
            max_hd: None,
            max_bits: None,
            budget: lowweight::DEFAULT_BUDGET,
        }
    }

    /// Reports HDs up to `hd` only (at least 3).
    pub fn max_hd(mut self, hd: u32) -> Result<HdJob> {
        if hd < 3 {
            return Err(Error::Param {
                param: crate::error::Param::MaxHd,
                reason: format!("the largest distance reported must be at least 3, not {hd}"),
            });
        }
        self.max_hd = Some(hd);
        Ok(self)
    }

    /// Searches only up to codeword length `bits` (check bits included;
    /// longer than the check).
    pub fn max_bits(mut self, bits: u64) -> Result<HdJob> {
        let r = u64::from(self.crc.generator().width());
        if bits <= r {
            return Err(Error::Param {
                param: crate::error::Param::MaxBits,
                reason: format!("{bits} bits is not longer than the {r} check bits"),
            });
        }
        self.max_bits = Some(bits);
        Ok(self)
    }

    /// Spends at most `probes` hash probes in all (0 or more; about 1e8 a
    /// second on one core).
    pub fn budget(mut self, probes: f64) -> Result<HdJob> {
        if !(probes.is_finite() && probes >= 0.0) {
            return Err(Error::Param {
                param: crate::error::Param::ProbeBudget,
                reason: format!(
                    "the search's budget must be a number of hash probes, 0 or more, not {probes}"
                ),
            });
        }
        self.budget = probes;
        Ok(self)
    }

    /// The CRC.
    pub fn crc(&self) -> &CrcAlgorithm {
        &self.crc
    }
}

impl Job for HdJob {
    type Output = Hd;

    /// The profile (watched by the context's progress), then the bursts.
    fn run(&self, ctx: &Ctx) -> Result<Hd> {
        let g = self.crc.generator();
        let search = lowweight::hd_profile_within(
            &g,
            self.max_hd,
            self.max_bits,
            self.budget,
            ctx.progress(),
        )?;
        ctx.progress().finish();
        let bursts = burst::profile(&g, Self::BURST_PATTERNS)?;
        let mut doc =
            Hd::new((&self.crc).into(), &search.profile, bursts).with_stop(search.stopped);
        if let Some(n) = self.max_bits {
            doc = doc.searched_to(n, search.open);
        }
        Ok(doc)
    }
}
