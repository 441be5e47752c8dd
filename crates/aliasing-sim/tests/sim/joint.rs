//! The tests of `aliasing_sim::joint` (its unit tests, moved here so
//! that the library compiles once in the test build).

use aliasing_core::ctx::{Ctx, Job};
use aliasing_core::layout::{Frame, Payload};
use aliasing_core::shard::Shard;
use aliasing_sim::joint::*;
use aliasing_sim::shard::{Checkpoint, Drive, Tally};
use aliasing_sim::shard::{drive, merge};
use aliasing_sim::{Frames, Seed};
// (the stacks from a tally, dual code included, are tested end to end
// in the command line's tests)

fn params() -> StackParams {
    StackParams {
        stack: "ethernet-tcp".into(),
        bytes: vec![64, 300],
        bers: vec![1e-4, 1e-6],
        max_weight: 5,
        samples: 3000,
        seed: 9,
    }
}

#[test]
fn shards_merge_to_the_single_run_bit_for_bit() {
    let p = params();
    let work = StackWork::new(&p).unwrap();
    assert!(work.items() > 20, "{}", work.items());
    let run = |shard| {
        let start = Checkpoint::start(work.empty_tally());
        drive(work.items(), shard, start, &Drive::default(), |i| {
            work.run(i)
        })
        .unwrap()
    };
    let whole = run(Shard::WHOLE);
    for n in [2, 5] {
        let files: Vec<_> = (1..=n)
            .map(|i| {
                let shard = Shard::new(i, n).unwrap();
                let f =
                    StackFile::finished(STACK_FORMAT, p.clone(), shard, work.items(), run(shard));
                let text = f.to_text().unwrap();
                (
                    format!("s{i}"),
                    StackFile::from_text(&text, STACK_FORMAT, "s").unwrap(),
                )
            })
            .collect();
        let (_, total) = merge(&files).unwrap();
        assert_eq!(total, whole, "{n} shards");
    }
    // each length's items run alone, in reverse order: the same tally
    for (k, plan) in work.plans.iter().enumerate() {
        let mut t = plan.empty_tally();
        for i in (0..plan.items()).rev() {
            t.add(&plan.run(i));
        }
        assert_eq!(t, whole.0[k]);
        assert_eq!(t.sample.draws, 3000);
        // 300 bytes: weight-5 codewords pass the checksums
        assert_eq!(t.terms.iter().any(|w| w.pass_count > 0), k == 1);
    }
}

/// A stack run goes through the generic session: a checkpoint written
/// part way (the first items' tally) resumes to the uninterrupted
/// run's file and report, bit for bit; a resume with other parameters
/// is refused naming the first field that differs, and a fresh run
/// does not overwrite a checkpoint.
#[test]
fn a_stack_run_resumes_from_its_checkpoint() {
    let mut p = params_of("internet+CRC-16/ARC", 42, &[1e-3, 1e-5], 200);
    p.max_weight = 4;
    let ctx = Ctx::default();
    let (whole, doc) = StackJob::new(p.clone())
        .unwrap()
        .session(Shard::WHOLE)
        .unwrap()
        .run(&ctx)
        .unwrap();
    assert_eq!(
        doc.as_ref(),
        Some(&StackJob::new(p.clone()).unwrap().run(&ctx).unwrap())
    );
    let work = StackWork::new(&p).unwrap();
    let done = work.items() / 2;
    assert!(done > 0);
    let mut part = work.empty_tally();
    for i in 0..done {
        part.add(&work.run(i));
    }
    let dir = tempfile::tempdir().unwrap();
    let cp = dir.path().join("cp.json");
    let start = Checkpoint {
        chunks_done: done,
        counts: part,
    };
    StackFile::new(STACK_FORMAT, p.clone(), Shard::WHOLE, false, start)
        .write(&cp)
        .unwrap();
    let fresh = StackJob::new(p.clone())
        .unwrap()
        .session(Shard::WHOLE)
        .unwrap();
    assert!(
        fresh.checkpoint_to(cp.clone()).is_err(),
        "an existing checkpoint is kept"
    );
    let resumed = StackSession::resume(&cp, Some(&p), None).unwrap();
    let (file, again) = resumed.run(&ctx).unwrap();
    assert_eq!((file, again), (whole.clone(), doc));
    // the finished file replaced the checkpoint
    assert_eq!(StackFile::read(&cp, STACK_FORMAT).unwrap(), whole);
    let other = StackParams {
        seed: 2,
        ..p.clone()
    };
    let e = StackSession::resume(&cp, Some(&other), None).err().unwrap();
    assert!(e.to_string().contains("seed: 1 there, 2 given"), "{e}");
    let e = StackSession::resume(&cp, None, Some(Shard::new(1, 2).unwrap()))
        .err()
        .unwrap();
    assert!(e.to_string().contains("shard"), "{e}");
}

fn params_of(stack: &str, bytes: u64, bers: &[f64], samples: u64) -> StackParams {
    StackParams {
        stack: stack.into(),
        bytes: vec![bytes],
        bers: bers.to_vec(),
        max_weight: 5,
        samples,
        seed: 1,
    }
}

/// The sweep of BERs and stacks: every estimate lies inside its
/// bracket, every value is a probability (never NaN), BER 0 gives zeros,
/// and where no estimate is given the method says "bracket only".
#[test]
fn no_estimate_falls_outside_its_bracket() {
    let bers = [0.0, 1e-300, 1e-12, 1e-6, 1e-3, 0.1, 0.3, 0.5];
    let stacks = [
        ("internet+CRC-8/SAE-J1850", 21),
        ("random+CRC-8/SAE-J1850", 21),
        ("ipv4-tcp+CRC-16/ARC", 120),
        // CRC-32's per-check column is a 2^32-state dual pass: full tier
        ("ethernet-tcp", 300),
    ];
    for (stack, bytes) in stacks.into_iter().take(crate::tier::pick(3, 4)) {
        let r = report(&params_of(stack, bytes, &bers, 3000), &Ctx::default()).unwrap();
        assert_eq!(r.points.len(), bers.len());
        for pt in &r.points {
            let j = &pt.joint;
            let what = format!("{stack} {bytes} at {}: {j:?}", pt.ber);
            assert!(0.0 <= j.low && j.low <= j.high && j.high <= 1.0, "{what}");
            match j.estimate {
                Some(e) => assert!(j.low <= e && e <= j.high, "{what}"),
                None => assert!(j.method.starts_with("bracket only"), "{what}"),
            }
            if pt.ber == 0.0 {
                assert_eq!((j.estimate, j.high, pt.p_error), (Some(0.0), 0.0, 0.0));
                assert_eq!(pt.joint_given_error(), Some(0.0));
                assert_eq!(pt.independence_product, Some(0.0));
            }
            if pt.ber == 0.5 {
                assert_eq!(j.low, j.high, "{what}");
            }
            for x in [pt.independence_product, pt.all_checks_product, pt.ratio]
                .into_iter()
                .flatten()
            {
                assert!(!x.is_nan(), "{what}");
            }
        }
    }
}

/// Only BER 0: every value 0 with no enumeration, at once (a 1518-byte
/// frame whose dual code alone takes seconds).
#[test]
fn ber_zero_alone_needs_no_work() {
    let t = std::time::Instant::now();
    let r = report(
        &params_of("ethernet-tcp", 1518, &[0.0], 50_000),
        &Ctx::default(),
    )
    .unwrap();
    assert!(t.elapsed().as_secs_f64() < 1.0, "{:?}", t.elapsed());
    let pt = &r.points[0];
    assert_eq!(pt.joint.estimate, Some(0.0));
    assert!(pt.checks.iter().all(|c| c.p_undetected == Some(0.0)));
    assert_eq!(pt.ratio, None);
}

/// The study's product is the FCS's `P(alias | error)` times TCP's (not
/// the IPv4 header's); the all-checks product has the third factor too.
#[test]
fn the_study_product_is_fcs_times_tcp() {
    // the same three checks under a 16-bit FCS in the test command (CRC-32's
    // per-check column is a 2^32-state dual pass)
    let (stack, bytes, fcs) = crate::tier::pick(
        ("ipv4-tcp+CRC-16/ARC", 120, "CRC-16/ARC"),
        ("ethernet-tcp", 300, "FCS CRC-32/ISO-HDLC"),
    );
    let r = report(&params_of(stack, bytes, &[1e-6], 0), &Ctx::default()).unwrap();
    let pt = &r.points[0];
    let names: Vec<&str> = pt.checks.iter().map(|c| c.name.as_str()).collect();
    assert_eq!(names, ["IPv4 header checksum", "TCP checksum", fcs]);
    let a: Vec<f64> = pt
        .checks
        .iter()
        .map(|c| c.p_alias_given_error.unwrap())
        .collect();
    assert_eq!(pt.independence_product, Some(a[2] * a[1]));
    assert_eq!(pt.all_checks_product, Some(a[0] * a[1] * a[2]));
    let joint = pt.joint_given_error().unwrap();
    assert_eq!(pt.ratio, Some(joint / (a[2] * a[1])));
}

/// Runs the dense simulator (real frames, real checks) on `stack`.
fn dense(stack: &str, bytes: usize, ber: f64, frames: u64, seed: u64) -> (u64, f64, f64) {
    use aliasing_sim::channel::Channel;
    use aliasing_sim::run::{Plan, RunOptions, simulate};
    let f = Frame::new(stack, bytes, Payload::Random).unwrap();
    let plan = Plan::new(f, Channel::Bsc { ber }, Frames(frames), Seed(seed));
    let opts = RunOptions {
        engine: aliasing_sim::run::Engine::Dense,
        ..RunOptions::default()
    };
    let c = simulate(&plan, &opts, None).unwrap();
    let (lo, hi) = aliasing_sim::interval::clopper_pearson(c.stack_escapes, frames, 0.999);
    (c.stack_escapes, lo, hi)
}

/// Against the dense simulator (seeded; its 99.9% interval): at BER 0.5
/// (exact by counting the words that pass) and at mid-high BERs, where
/// the simulator's interval meets the bracket and holds the estimate
/// when there is one.
#[test]
fn agrees_with_the_dense_simulator_at_high_ber() {
    // the test command: a quarter of the frames at BERs 0.5 and 0.3
    // (about 400 escapes each), half at 0.01 (24)
    let (high, scale) = crate::tier::pick((100_000, 2), (400_000, 1));
    for (stack, bytes, ber, frames) in [
        ("random+CRC-8/SAE-J1850", 21, 0.5, high),
        ("random+CRC-8/SAE-J1850", 21, 0.3, high),
        ("internet+CRC-8/SAE-J1850", 21, 0.01, 16_000_000 / scale),
    ] {
        let r = report(
            &params_of(stack, bytes as u64, &[ber], 4000),
            &Ctx::default(),
        )
        .unwrap();
        let j = &r.points[0].joint;
        let (hits, lo, hi) = dense(stack, bytes, ber, frames, 11);
        let what = format!("{stack} at {ber}: {hits} of {frames} [{lo}, {hi}] vs {j:?}");
        assert!(hits >= 20, "{what}");
        assert!(lo <= j.high && j.low <= hi, "{what}");
        if let Some(e) = j.estimate {
            assert!(lo <= e && e <= hi, "{what}");
        }
    }
}
