//! `alias transfer` as a library job ([`TransferJob`]).

use super::*;

/// `alias transfer` as a library job: a request ([`TransferParams`]) on a
/// binary symmetric channel at each of its BERs, or on a Gilbert-Elliott
/// burst channel (the per-frame escape then a rare-event estimate,
/// [`burst::report`]), validated once, when the job is built, for the
/// channel it runs on. [`Job::run`] keeps nothing;
/// [`TransferJob::run_kept`] reuses and extends kept tallies.
///
/// ```
/// use aliasing_core::ctx::{Ctx, Job};
/// use aliasing_sim::transfer::{TransferJob, TransferParams, report};
/// let mut params =
///     TransferParams::new("ipv4-tcp+CRC-16/ARC", 1000, vec![68], vec![1e-4], vec![1]);
/// params.samples = 0;
/// let job = TransferJob::new(params.clone(), None).unwrap();
/// let doc = job.run(&Ctx::default()).unwrap();
/// assert_eq!(doc, report(&params, &Ctx::default()).unwrap());
/// ```
pub struct TransferJob {
    params: TransferParams,
    burst: Option<aliasing_core::channel::GilbertElliott>,
}

impl TransferJob {
    /// Validates `params` for its channel: the binary symmetric one at
    /// `params.bers` ([`TransferParams::validate`]), or the burst channel
    /// `burst` ([`burst::validate`]).
    pub fn new(
        params: TransferParams,
        burst: Option<aliasing_core::channel::GilbertElliott>,
    ) -> Result<TransferJob> {
        match burst {
            Some(ge) => burst::validate(&params, ge)?,
            None => params.validate()?,
        }
        Ok(TransferJob { params, burst })
    }

    /// The request.
    pub fn params(&self) -> &TransferParams {
        &self.params
    }

    /// The burst channel, if the job runs on one.
    pub fn burst(&self) -> Option<aliasing_core::channel::GilbertElliott> {
        self.burst
    }

    /// An estimate of the wall-clock seconds of the lengths not in `kept`
    /// on `threads` threads ([`cost::estimate_seconds`]; `NaN` on a burst
    /// channel, which has no cost model).
    pub fn estimate_seconds(&self, kept: &Tallies, threads: usize) -> f64 {
        match self.burst {
            Some(_) => f64::NAN,
            None => cost::estimate_seconds(&self.params, kept, threads),
        }
    }

    /// The binary symmetric run with `kept` ([`report_with`]): the lengths
    /// found there are not computed again, the others are added. Returns
    /// the document and whether `kept` changed; refused on a burst channel
    /// (it has no tallies to keep).
    pub fn run_kept(&self, kept: &mut Tallies, ctx: &Ctx) -> Result<(Transfer, bool)> {
        if self.burst.is_some() {
            return Err(Error::Invalid(
                "kept tallies are the binary symmetric channel's: a burst channel has none".into(),
            ));
        }
        ctx.install_with(|c| report_with(&self.params, kept, c))?
    }
}

impl Job for TransferJob {
    type Output = Transfer;

    /// The whole computation, keeping nothing.
    fn run(&self, ctx: &Ctx) -> Result<Transfer> {
        match self.burst {
            Some(ge) => burst::report(&self.params, ge),
            None => self
                .run_kept(&mut Tallies::new(&self.params), ctx)
                .map(|(d, _)| d),
        }
    }
}

/// The size in bytes of a transfer that is the file at `path` (what
/// [`TransferParams::payload_file`] names): a regular, non-empty file (a
/// FIFO or device has no size to use); nothing is read.
pub fn payload_size(path: &std::path::Path) -> Result<u128> {
    let shown = path.display();
    let meta =
        std::fs::metadata(path).map_err(|e| Error::Invalid(format!("cannot read {shown}: {e}")))?;
    let why = if meta.is_dir() {
        "is a folder"
    } else if !meta.is_file() {
        "is not a regular file (a device, FIFO or socket)"
    } else if meta.len() == 0 {
        "is empty (a transfer of 0 bytes)"
    } else {
        return Ok(u128::from(meta.len()));
    };
    Err(Error::Invalid(format!("{shown} {why}")))
}
