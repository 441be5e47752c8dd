//! The tests of `aliasing_sim::transfer::burst` (its unit tests, moved here so
//! that the library compiles once in the test build).

use aliasing_core::channel::GilbertElliott;
use aliasing_sim::burst_rare::{self};
use aliasing_sim::channel::Channel;
use aliasing_sim::spec::{Params, PayloadSpec};
use aliasing_sim::transfer::TransferParams;
use aliasing_sim::transfer::burst::*;
use aliasing_sim::{Frames, Seed};

fn ge() -> GilbertElliott {
    "1e-6,0.1,1e-4,0.05".parse().unwrap()
}

/// Draws per point: 10,000 in the test command, 20,000 under
/// `ALIAS_TESTS=full`.
fn draws() -> u64 {
    crate::tier::pick(10_000, 20_000)
}

/// The stack of the transfer tests on a burst channel.
/// The plan of one 70-byte frame of `stack` on [`ge`], seed 7 (the
/// transfer's 68-byte MTU point).
fn plan_70(stack: &str) -> aliasing_sim::run::Plan {
    Params::new(
        stack,
        70,
        Channel::Burst(ge()),
        PayloadSpec::Random,
        Frames(1),
        Seed(7),
    )
    .plan()
    .unwrap()
}

fn params() -> TransferParams {
    let mut p = TransferParams::new(
        "ipv4-tcp+CRC-16/ARC",
        1_000_000,
        vec![68, 200],
        vec![],
        vec![1, 3],
    );
    p.samples = draws();
    p.seed = 7;
    p
}

/// The per-frame value is `burst_rare::estimate_joint` over the stack's
/// frame, digit for digit, the same on 1 and 2 threads; its CRC part is
/// `burst_rare::estimate` of `random+CRC` at the frame length (inside
/// the exact chain's value), and the joint lies far below it; escapes =
/// sent x joint.
#[test]
fn burst_one_hop_is_the_joint_rare_burst_estimate() {
    let p = params();
    let doc = report(&p, ge()).unwrap();
    assert_eq!(doc.points.len(), 4);
    let stack = plan_70("ipv4-tcp+CRC-16/ARC");
    let jr = burst_rare::estimate_joint(&stack, draws(), None, 1).unwrap();
    assert_eq!(
        jr,
        burst_rare::estimate_joint(&stack, draws(), None, 2).unwrap()
    );
    let one = &doc.points[0];
    assert_eq!((one.frame_bytes, one.hops, one.frames), (70, 1, 35_715));
    assert!(jr.hits > 0);
    assert_eq!(one.joint_per_frame.estimate, Some(jr.joint.rate));
    assert_eq!(
        (one.joint_per_frame.low, one.joint_per_frame.high),
        (jr.joint.ci_low, jr.joint.ci_high)
    );
    assert!(one.joint_per_frame.method.contains("joint escape"));
    assert!(!one.joint_per_frame.method.contains("not modelled"));
    let lone = plan_70("random+CRC-16/ARC");
    let r = burst_rare::estimate(&lone, draws(), None, 1).unwrap();
    assert_eq!(r.crc, jr.crc.crc);
    let exact = burst_rare::exact_escape(&lone, &aliasing_core::ctx::Ctx::default()).unwrap();
    assert!(
        r.crc.ci_low <= exact && exact <= r.crc.ci_high,
        "{exact} {r:?}"
    );
    // the checksums catch most of what passes the CRC
    assert!(jr.joint.ci_high < 0.1 * r.crc.ci_low, "{jr:?}");
    let e = one.frames_sent.unwrap() * one.joint_per_frame.estimate.unwrap();
    assert_eq!(one.escapes.estimate, Some(e));
    assert!(one.escapes.low <= e && e <= one.escapes.high);
    // three hops: at least the one-link part of the bracket, more errors
    let three = &doc.points[1];
    assert_eq!(three.hops, 3);
    assert!(three.p_error > one.p_error);
    assert!(three.joint_per_frame.high >= 2.0 * one.joint_per_frame.high);
}

/// P(error) per frame is the Gilbert-Elliott chain's, checked against
/// the two-state forward recursion written out here.
#[test]
fn burst_p_error_is_the_chain() {
    let g = ge();
    let n = 8 * 70;
    let [mut a, mut b] = g.stationary();
    // clean bit in each state, then move
    for _ in 0..n {
        let (ca, cb) = (a * (1.0 - g.p_good), b * (1.0 - g.p_bad));
        a = ca * (1.0 - g.good_to_bad) + cb * g.bad_to_good;
        b = ca * g.good_to_bad + cb * (1.0 - g.bad_to_good);
    }
    let want = 1.0 - (a + b);
    // P(error) does not depend on the draws: the test command takes fewer
    let mut p = params();
    p.samples = crate::tier::pick(2_000, 20_000);
    let doc = report(&p, g).unwrap();
    let got = doc.points[0].p_error;
    assert!((got - want).abs() <= 1e-12 * want, "{got} vs {want}");
}

/// Bad requests are refused before any work.
#[test]
fn burst_refusals() {
    let mut p = params();
    p.samples = 0;
    assert!(report(&p, ge()).is_err());
    let mut p = params();
    p.mtus = vec![67];
    assert!(report(&p, ge()).is_err());
    assert!(crc_stack("ethernet").is_err());
    assert_eq!(crc_stack("ethernet-tcp").unwrap(), "random+crc32");
    assert_eq!(
        crc_stack("ipv4-tcp + CRC-16/ARC").unwrap(),
        "random+CRC-16/ARC"
    );
}
