//! A transfer point from the `alias stack` point of its frame: the joint
//! escape across hops ([`hops_joint`]) and the counts of a transfer.

use super::*;
use aliasing_core::Limit;

/// `sum_{j=2}^{h} C(h,j) u^j c^(h-j)`: the probability that two or more of
/// `h` links each pass a non-zero CRC codeword and the rest are clean (`u`
/// the CRC's `P_ud`, `c` the probability of no flip); every term positive.
pub fn two_or_more(h: u32, u: f64, c: f64) -> f64 {
    let (lu, lc) = (u.ln(), c.ln());
    let mut binom = 1.0f64; // C(h, j)
    let mut sum = 0.0;
    for j in 1..=h {
        binom *= f64::from(h - j + 1) / f64::from(j);
        if j >= 2 {
            let term = if u == 0.0 {
                0.0
            } else if c == 0.0 {
                if j == h { u.powi(h as i32) } else { 0.0 }
            } else {
                (binom.ln() + f64::from(j) * lu + f64::from(h - j) * lc).exp()
            };
            sum += term;
        }
    }
    sum.min(1.0)
}

/// The one-hop point of `mtu` from `sp`, the `alias stack` point of its
/// frame (`params.frame_bytes(mtu)` bytes) and BER: what [`report`] gives
/// at one hop, for a caller that already holds the stack point (the study's
/// reproduction puts a transfer beside the stack it computed).
pub fn one_hop_point(params: &TransferParams, mtu: u64, sp: &StackPoint) -> Result<TransferPoint> {
    params.validate()?;
    if sp.bytes != params.frame_bytes(mtu)? {
        return Err(Error::Invalid(format!(
            "a stack point of {} bytes for MTU {mtu} ({} bytes on the wire)",
            sp.bytes,
            params.frame_bytes(mtu)?
        )));
    }
    point(params, mtu, sp, None, 1)
}

/// One (MTU, BER, hops) point from the stack point of its frame and BER.
pub(super) fn point(
    params: &TransferParams,
    mtu: u64,
    sp: &StackPoint,
    crc: Option<usize>,
    h: u32,
) -> Result<TransferPoint> {
    let payload = mtu - HEADERS;
    let frames = u64::try_from(params.size.div_ceil(u128::from(payload)))
        .map_err(|_| Error::Invalid("internal error: over 2^64 segments".into()))?;
    let (n, p) = (sp.bits, sp.ber);
    let u = crc.and_then(|i| sp.checks[i].p_undetected);
    let (joint, more) = hops_joint(h, &sp.joint, u, n, p)?;
    let clean = bsc::p_clean(n * u64::from(h), p);
    let f = frames as f64;
    let c = counts(params.size, frames, clean, &joint, more);
    let independence_escapes = sp
        .independence_product
        .map(|x| x * sp.p_error * f * f64::from(h));
    Ok(TransferPoint::new(
        mtu,
        sp.bytes,
        payload,
        frames,
        c.sent,
        p,
        h,
        bsc::p_error(n * u64::from(h), p),
        joint,
        c.escapes,
        c.once,
        c.bytes_per_escape,
        independence_escapes,
    ))
}

/// The counts of a transfer point: frames sent, expected escapes and
/// P(at least one), each from the per-attempt escape `e` of `joint` (its
/// estimate and both ends) over `frames` segments, `clean` the probability
/// that an attempt meets no error and `more` what codewords of two links
/// may add to `1 - d` (the lower ends take it).
pub(crate) struct Counts {
    /// Expected frames sent, `frames / (1 - d)` (`None` where it overflows).
    pub sent: Option<f64>,
    /// Expected escapes: frames sent x `e` (frames x `e / (1 - d)` where
    /// the frames sent overflow).
    pub escapes: Bracketed,
    /// `1 - (1 - q)^frames`, `q = e / (1 - d)` per segment.
    pub once: Bracketed,
    /// Bytes moved per expected escape.
    pub bytes_per_escape: Option<f64>,
}

/// [`Counts`] of `size` bytes in `frames` segments (shared by the binary
/// symmetric and the burst channels).
pub(crate) fn counts(
    size: u128,
    frames: u64,
    clean: f64,
    joint: &JointEstimate,
    more: f64,
) -> Counts {
    let f = frames as f64;
    // 1 - d = c^H + e (+ at most `more` where codewords of two links
    // cancel: the frame is then delivered intact)
    let sent = |e: f64, extra: f64| {
        let s = f / (clean + e + extra);
        s.is_finite().then_some(s)
    };
    let escapes = |e: f64, extra: f64| {
        if !e.is_finite() {
            f64::INFINITY
        } else if e == 0.0 {
            0.0
        } else {
            match sent(e, extra) {
                Some(s) => s * e,
                None => f * (e / (clean + e + extra)),
            }
        }
    };
    let at_least_one = |e: f64, extra: f64| {
        if e == 0.0 {
            return 0.0;
        }
        if !e.is_finite() {
            return 1.0;
        }
        let q = (e / (clean + e + extra)).min(1.0);
        -f64::exp_m1(f * f64::ln_1p(-q))
    };
    let est = joint.estimate.map(|e| escapes(e, 0.0));
    Counts {
        sent: sent(joint.estimate.unwrap_or(joint.low), 0.0),
        escapes: Bracketed::new(est, escapes(joint.low, more), escapes(joint.high, 0.0)),
        once: Bracketed::new(
            joint.estimate.map(|e| at_least_one(e, 0.0)),
            at_least_one(joint.low, more),
            at_least_one(joint.high, 0.0),
        ),
        bytes_per_escape: est.filter(|&x| x > 0.0).map(|x| size as f64 / x),
    }
}

/// The joint escape of one frame sent across `h` links from the single
/// link's `j` (at `n` bits and BER `p`, `u` the CRC's `P_ud` over the
/// frame), and `B`, the probability that two or more links each pass a
/// non-zero CRC codeword ([`two_or_more`]). At one hop `j` itself and 0.
/// Otherwise `[h j.low c^(h-1), h j.high c^(h-1) + B]` with `c = (1-p)^n`
/// (exact for one link passing a codeword and the others clean, bounded
/// for the rest); the estimate `h j c^(h-1)` only where `B` is at most the
/// lower end, as `alias stack` gives an estimate only where the remainder
/// is at most the exact part.
pub fn hops_joint(
    h: u32,
    j: &JointEstimate,
    u: Option<f64>,
    n: u64,
    p: f64,
) -> Result<(JointEstimate, f64)> {
    if h == 1 {
        return Ok((j.clone(), 0.0));
    }
    if p == 0.0 {
        return Ok((
            JointEstimate::new(Some(0.0), 0.0, 0.0, j.method.clone()),
            0.0,
        ));
    }
    let c_rest = bsc::p_clean(n * u64::from(h - 1), p);
    let one = |x: f64| f64::from(h) * x * c_rest;
    let u = u.ok_or(Error::Limit(Limit::SeveralLinks { hops: h }))?;
    let more = two_or_more(h, u, bsc::p_clean(n, p));
    let low = one(j.low);
    let high = (one(j.high) + more).min(1.0);
    let estimate = j.estimate.map(one).filter(|_| more <= low);
    let method = if j.estimate.is_some() && estimate.is_none() {
        format!(
            "bracket only: {h} links; two or more links each passing a CRC codeword \
             (at most {more:e}) may outweigh one (single link: {})",
            j.method
        )
    } else if estimate.is_none() {
        format!("bracket only: {h} links (single link: {})", j.method)
    } else {
        format!(
            "{h} links: {h} x the single-link joint x (1-p)^({n} x {}) exactly (one link \
             passes a CRC codeword, the others are clean), plus at most {more:e} where two \
             or more links each pass one; single link: {}",
            h - 1,
            j.method
        )
    };
    Ok((JointEstimate::new(estimate, low, high, method), more))
}
