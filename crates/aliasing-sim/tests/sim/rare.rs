//! The tests of `aliasing_sim::rare` (its unit tests, moved here so
//! that the library compiles once in the test build).

use aliasing_sim::channel::Channel;
use aliasing_sim::exact::exact_values;
use aliasing_sim::rare::*;
use aliasing_sim::run::Plan;
use aliasing_sim::stack::{Frame, Payload};
use aliasing_sim::{Frames, Seed};

#[test]
fn matches_the_exact_crc16_value() {
    // CRC-16/ARC on 64-byte frames at BER 1e-3: the exact DP gives P_ud.
    let frame = Frame::new("crc16", 64, Payload::Random).unwrap();
    let plan = Plan::new(frame, Channel::Bsc { ber: 1e-3 }, Frames(1), Seed(3));
    let exact = exact_values(&plan, &aliasing_core::ctx::Ctx::default())
        .stack
        .unwrap();
    let r = estimate(&plan, 3_000_000, 0).unwrap();
    let z = (r.stack.rate - exact) / r.stack.std_err;
    assert!(
        z.abs() < 5.0,
        "estimate {} exact {exact} se {}",
        r.stack.rate,
        r.stack.std_err
    );
    assert!(r.stack.rel_std_err < 0.05, "{}", r.stack.rel_std_err);
    assert_eq!(r.crc, r.stack);
    // same seed, same answer, whatever the thread count
    assert_eq!(estimate(&plan, 3_000_000, 1).unwrap(), r);
}

#[test]
fn stack_escapes_need_the_crc_and_the_checksums() {
    let frame = Frame::new("ethernet-tcp", 80, Payload::Random).unwrap();
    let plan = Plan::new(frame, Channel::Bsc { ber: 1e-2 }, Frames(1), Seed(3));
    let r = estimate(&plan, 200_000, 0).unwrap();
    assert!(r.stack.rate <= r.crc.rate);
    // CRC-32 has no codewords of weight <= 3 at this length: exact zeros
    for s in &r.strata[..3] {
        assert_eq!((s.crc, s.samples), (0.0, 0));
    }
    assert!(
        estimate(
            &Plan::new(
                Frame::new("tcp", 80, Payload::Random).unwrap(),
                Channel::Bsc { ber: 1e-2 },
                Frames(1),
                Seed(3)
            ),
            1000,
            0
        )
        .is_err()
    );
}

#[test]
fn joint_estimate_agrees_with_the_exact_bracket() {
    use aliasing_core::joint::{JointOptions, JointStack};
    let frame = Frame::new("ethernet-tcp", 300, Payload::Random).unwrap();
    let ber = 1e-4;
    let plan = Plan::new(frame.clone(), Channel::Bsc { ber }, Frames(1), Seed(5));
    let r = estimate(&plan, 200_000, 0).unwrap();
    let st = JointStack::new(
        &frame,
        &JointOptions::new(5, 0, 1).unwrap(),
        &aliasing_core::ctx::Ctx::default(),
    )
    .unwrap();
    let b = st.at(ber).unwrap();
    assert!(r.stack.rate > 0.0);
    // the estimate holds the exact weights 4-5 (strata 4-5) and samples the
    // rest with exact pass probabilities: inside the certified bracket
    assert!(
        r.stack.ci_high >= b.low && r.stack.ci_low <= b.high,
        "{:?} vs [{}, {}]",
        r.stack,
        b.low,
        b.high
    );
    assert!(
        r.stack.rate >= b.low * (1.0 - 1e-9),
        "{} < {}",
        r.stack.rate,
        b.low
    );
    // strata 4 and 5 came from the enumeration, the ones above were sampled
    assert!(
        r.strata
            .iter()
            .any(|s| s.k == 5 && s.samples == 0 && s.stack > 0.0)
    );
    assert!(r.strata.iter().any(|s| s.k > 5 && s.samples > 0));
}
