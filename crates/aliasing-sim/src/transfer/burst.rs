//! `alias transfer --burst`: the transfer on a Gilbert-Elliott channel.
//!
//! The joint computation of the binary symmetric channel
//! ([`crate::joint`]) does not apply: its CRC codeword tallies weigh a
//! codeword by `p^w (1-p)^(n-w)`, which a burst channel does not. Here the
//! per-frame escape is the rare-event estimate of the *joint* escape over
//! bursts ([`crate::burst_rare::estimate_joint`]): the draws of `alias
//! simulate --rare --burst` over the stack's frame (`Frame::new(stack,
//! frame bytes, random payload)`, headers fixed as in `alias stack`), each
//! CRC codeword found weighted by its importance weight `P(e) / D(e)`
//! times the exact probability over the random payload that the IPv4
//! header and TCP checksums pass too
//! (the joint model's pass probability over every pattern, the
//! conventions of the binary symmetric joint). The estimator is unbiased
//! for the joint escape; its 95% interval is the normal one from the
//! draws' variance (widened by the checksum-field model's bound where that
//! is not negligible), from `samples` draws and `seed`, the same for any
//! number of threads. The CRC's own escape comes from the same draws (the
//! value of `alias simulate --rare --burst --stack random+CRC` at the frame
//! length, digit for digit) and bounds what two links may add.
//!
//! `P(error)` per frame is exact: `1 - P(no error in n bits)` of the
//! Gilbert-Elliott chain started in its stationary law (the product of 2x2
//! matrices of [`crate::burst_rare::PatternLaw`], computed as `-expm1` of
//! its logarithm). Hops: each link an independent copy of the channel, with
//! the model of [`super`] (`c` the probability of no error on one link,
//! `J` the joint escape on one link, `u` the CRC's escape on one link, its
//! upper interval end in the bound `B`).

use super::{HEADERS, TransferParams, counts, two_or_more};
use crate::burst_rare::{self, PatternLaw};
use crate::channel::Channel;
use crate::spec::{Params, PayloadSpec};
use crate::{Frames, Seed};
use aliasing_core::__private::joint::JointModel;
use aliasing_core::channel::GilbertElliott;
use aliasing_core::document::{JointEstimate, Transfer, TransferPoint};
use aliasing_core::layout::StackSpec;
use aliasing_core::{Error, Limit, Result};

/// The lone-CRC stack whose escape stands for `stack`'s on a burst channel:
/// `random+CRC` with the stack's CRC (`ethernet-tcp` is
/// `ethernet-tcp+crc32`), the CRC over every byte before its field, as in
/// the stack.
pub fn crc_stack(stack: &str) -> Result<String> {
    match stack.parse::<StackSpec>()? {
        StackSpec::Stacked { .. } => {}
        _ => {
            return Err(Error::Invalid(format!(
                "stack `{stack}`: a transfer needs IPv4 and TCP under one CRC"
            )));
        }
    }
    let crc = stack
        .split_once('+')
        .map_or("crc32", |(_, c)| c.trim())
        .to_string();
    Ok(format!("random+{crc}"))
}

/// The rare-event run of one frame length: the stack's frame (headers
/// fixed, random payload) on the channel, `samples` draws from `seed`.
pub fn frame_params(params: &TransferParams, ge: GilbertElliott, bytes: u64) -> Result<Params> {
    let bytes =
        usize::try_from(bytes).map_err(|_| Error::Invalid(format!("a frame of {bytes} bytes")))?;
    crc_stack(&params.stack)?;
    Ok(Params::new(
        &params.stack,
        bytes,
        Channel::Burst(ge),
        PayloadSpec::Random,
        Frames(1),
        Seed(params.seed),
    ))
}

/// Refuses, before any work, what [`TransferParams::validate`] refuses
/// (BERs aside: the channel fixes them), no draws or more than the
/// estimator takes, and a channel the estimator cannot run.
pub fn validate(params: &TransferParams, ge: GilbertElliott) -> Result<()> {
    let mut p = params.clone();
    p.bers = vec![ge.mean_ber().clamp(0.0, 0.5)];
    p.validate()?;
    if params.samples == 0 || params.samples > burst_rare::MAX_SAMPLES {
        return Err(Error::Invalid(format!(
            "{} samples: --burst draws 1 to {:e} error patterns per frame length",
            params.samples,
            burst_rare::MAX_SAMPLES
        )));
    }
    for &mtu in &params.mtus {
        let plan = frame_params(params, ge, params.frame_bytes(mtu)?)?
            .plan()
            .map_err(|e| Error::Invalid(format!("--burst {ge}: {e}")))?;
        let m = JointModel::new(&plan.frame)?;
        if m.internet.is_empty() || !m.random_bits_under_one_check() {
            return Err(Error::Limit(Limit::BurstJointStack {
                stack: params.stack.clone(),
            }));
        }
    }
    Ok(())
}

/// The transfer of `params` (its BERs ignored) on the channel `ge`, per
/// (MTU, hops): see the module notes. Points carry the channel's mean BER.
/// A frame length whose draws found no codeword is refused (its interval
/// would bound nothing).
pub fn report(params: &TransferParams, ge: GilbertElliott) -> Result<Transfer> {
    validate(params, ge)?;
    // corruption inside hosts and routers does not depend on the channel
    let misses = super::corruption_misses(params, &aliasing_core::progress::Silent)?;
    let mut points = Vec::new();
    for (k, &mtu) in params.mtus.iter().enumerate() {
        let bytes = params.frame_bytes(mtu)?;
        let plan = frame_params(params, ge, bytes)?.plan()?;
        let n = plan.frame.n_bits();
        let jr = burst_rare::estimate_joint(&plan, params.samples, None, 0)?;
        let r = &jr.crc;
        if r.hits == 0 {
            // the interval's upper end is infinite: it bounds nothing
            return Err(Error::Invalid(format!(
                "{bytes}-byte frame: none of the {} draws found a CRC codeword, so there is no \
                 estimate and no interval: raise --samples",
                r.samples
            )));
        }
        let ln_c = ln_clean(&ge, n)?;
        let j = joint_estimate(params, bytes, &jr)?;
        for &h in &params.hops {
            let pt = point(params, mtu, bytes, &ge, ln_c, &j, r.crc.ci_high, h)?;
            points.push(super::with_corruption(params, &misses[k], pt));
        }
    }
    let mut model = format!(
        "Gilbert-Elliott channel {ge} (mean BER {:e}) on each of H links, each started in its \
         stationary law, independently; every link checks and regenerates the CRC \
         (store-and-forward), the receiving host checks the CRC and the Internet checksums; a \
         frame dropped by any check is sent again. J = the joint escape on one link (a \
         corrupted frame that every check passes): rare-event estimate over bursts, {} draws \
         per frame length, seed {}, with its 95% interval. Per frame sent: joint = H J c^(H-1) \
         (c = P(no error on a link), exact from the chain) plus at most the probability that \
         two or more links each pass a CRC codeword (from the upper end of the CRC's own \
         escape, estimated from the same draws); 1 - d = c^H + joint; frames sent = frames / \
         (1 - d); escapes = frames sent x joint; P(at least one) = 1 - (1 - q)^frames with \
         q = joint / (1 - d)",
        ge.mean_ber(),
        params.samples,
        params.seed
    );
    let digest = params.resolve_digest()?;
    if let Some(d) = &digest {
        model.push_str(&super::digest_text(d));
    }
    Ok(Transfer::new(
        &params.stack,
        params.size,
        params.payload_file.clone(),
        model,
        points,
    )
    .with_digest(digest.map(|d| d.name)))
}

/// The single-link joint escape of a `bytes`-byte frame from the joint run
/// `jr`: its estimate, 95% interval and method (the estimator, draws, seed,
/// hits, and the CRC's escape from the same draws). A run whose draws found
/// CRC codewords but none that every checksum may pass gives 0 with the
/// CRC's upper end (every draw's joint score is at most its CRC score).
pub fn joint_estimate(
    params: &TransferParams,
    bytes: u64,
    jr: &burst_rare::BurstJointResult,
) -> Result<JointEstimate> {
    let (j, c) = (&jr.joint, &jr.crc);
    let widened = if jr.model_error > 0.0 {
        format!(
            ", widened by the checksum-field model's bound {:e}",
            jr.model_error
        )
    } else {
        String::new()
    };
    let none = if jr.hits == 0 {
        "; no draw found a CRC codeword the checksums may pass: the upper end is the CRC's"
    } else {
        ""
    };
    let method = format!(
        "rare-event estimate of the joint escape (the {} and {} all pass) on the burst \
         channel: importance sampling over bursts, each CRC codeword found weighted by the \
         exact probability over the random payload that every checksum passes; {} draws, seed \
         {}, {} joint hits of {} CRC hits, 95% normal interval{widened}{none}; the CRC alone \
         from the same draws {:e} [{:e}, {:e}] (as alias simulate --rare --burst --stack {} \
         --bytes {bytes})",
        c.crc_name,
        jr.checks.join(" and "),
        c.samples,
        params.seed,
        jr.hits,
        c.hits,
        c.crc.rate,
        c.crc.ci_low,
        c.crc.ci_high,
        crc_stack(&params.stack)?
    );
    Ok(JointEstimate::new(
        Some(j.rate),
        j.ci_low,
        j.ci_high,
        method,
    ))
}

/// The logarithm of the probability of no error in `n` bits of the
/// channel started in its stationary law, exactly (the chain's 2x2
/// products, scaled).
fn ln_clean(ge: &GilbertElliott, n: u64) -> Result<f64> {
    Ok(PatternLaw::new(ge, n)?.ln_prob(&[]))
}

/// One (MTU, hops) point: `j` the single-link joint escape with its
/// interval, `u_high` the upper end of the CRC's escape on one link, `ln_c`
/// the log of no error on one link.
#[allow(clippy::too_many_arguments)]
fn point(
    params: &TransferParams,
    mtu: u64,
    bytes: u64,
    ge: &GilbertElliott,
    ln_c: f64,
    j: &JointEstimate,
    u_high: f64,
    h: u32,
) -> Result<TransferPoint> {
    let payload = mtu - HEADERS;
    let frames = u64::try_from(params.size.div_ceil(u128::from(payload)))
        .map_err(|_| Error::Invalid("internal error: over 2^64 segments".into()))?;
    let hf = f64::from(h);
    let c = ln_c.exp();
    let clean_all = (hf * ln_c).exp();
    let p_error = -f64::exp_m1(hf * ln_c);
    let (joint, more) = if h == 1 {
        (j.clone(), 0.0)
    } else {
        let c_rest = ((hf - 1.0) * ln_c).exp();
        let one = |x: f64| hf * x * c_rest;
        let more = if u_high.is_finite() {
            two_or_more(h, u_high, c)
        } else {
            1.0
        };
        let low = one(j.low);
        let high = (one(j.high) + more).min(1.0);
        let estimate = j.estimate.map(one).filter(|_| more <= low);
        let method = format!(
            "{h} links: {h} x the single-link joint x P(no error on a link)^{} (one link \
             passes a CRC codeword, the others are clean), plus at most {more:e} where two or \
             more links each pass one; single link: {}",
            h - 1,
            j.method
        );
        (JointEstimate::new(estimate, low, high, method), more)
    };
    let c = counts(params.size, frames, clean_all, &joint, more);
    Ok(TransferPoint::new(
        mtu,
        bytes,
        payload,
        frames,
        c.sent,
        ge.mean_ber(),
        h,
        p_error,
        joint,
        c.escapes,
        c.once,
        c.bytes_per_escape,
        None,
    ))
}
