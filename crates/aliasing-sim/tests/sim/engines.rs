//! The sparse and dense engines agree frame by frame on the same seed, and a
//! run's tallies do not depend on thread count, shard split or resume point.

use aliasing_core::shard::Shard;
use aliasing_sim::channel::{Channel, GilbertElliott};
use aliasing_sim::run::{Checkpoint, Counts, Engine, Plan, Prepared, RunOptions, simulate};
use aliasing_sim::stack::{Frame, Payload};
use aliasing_sim::{Frames, Seed};
use std::sync::Mutex;
use std::time::Duration;

/// Shard `i` of `n`.
fn shard(i: u64, n: u64) -> Shard {
    Shard::new(i, n).unwrap()
}

fn verdicts(plan: &Plan, engine: Engine) -> (Vec<(u64, Vec<u32>, u64)>, Counts) {
    let p = Prepared::new(plan, engine);
    let mut v = Vec::new();
    let mut total = Counts::zero(plan.frame.checks.len());
    for c in 0..plan.chunks() {
        let counts = p.chunk_visit(c, &mut |i, f, pass| v.push((i, f.to_vec(), pass)));
        total.add(&counts);
    }
    (v, total)
}

#[test]
fn sparse_and_dense_agree_frame_by_frame() {
    let burst = Channel::Burst(GilbertElliott::new(1e-4, 0.3, 1e-3, 0.2).unwrap());
    let cases: Vec<(&str, usize, Payload, Channel)> = vec![
        (
            "ethernet-tcp",
            80,
            Payload::Random,
            Channel::Exactly { k: 2 },
        ),
        (
            "ethernet-tcp",
            80,
            Payload::Random,
            Channel::Bsc { ber: 0.01 },
        ),
        ("ethernet-tcp", 81, Payload::Fixed(b"hello".to_vec()), burst),
        ("tcp", 41, Payload::Random, Channel::Exactly { k: 2 }),
        ("internet", 20, Payload::Random, Channel::Exactly { k: 2 }),
        ("4:0x3", 6, Payload::Random, Channel::Bsc { ber: 0.05 }),
        ("crc8", 12, Payload::Random, Channel::Exactly { k: 4 }),
        ("CRC-5/USB", 7, Payload::Random, burst),
        ("ethernet", 20, Payload::Random, Channel::Bsc { ber: 0.2 }),
        ("fletcher16", 10, Payload::Random, Channel::Exactly { k: 2 }),
        ("adler32", 12, Payload::Random, Channel::Exactly { k: 2 }),
    ];
    for (stack, bytes, payload, channel) in cases {
        let frame = Frame::new(stack, bytes, payload).unwrap();
        let mut plan = Plan::new(frame, channel, Frames(30_000), Seed(7));
        plan.chunk_frames = 4096;
        let (s, cs) = verdicts(&plan, Engine::Sparse);
        let (d, cd) = verdicts(&plan, Engine::Dense);
        assert_eq!(s.len(), d.len(), "{stack}");
        for (a, b) in s.iter().zip(&d) {
            assert_eq!(a, b, "{stack} {bytes}: frame {}", a.0);
        }
        assert_eq!(cs, cd, "{stack}");
        // the comparison must have seen escapes of every check of 16 bits or
        // fewer to mean anything (32-bit checks escape too rarely to see;
        // Fletcher always goes through the dense engine anyway)
        for (i, e) in cs.escapes.iter().enumerate() {
            if plan.frame.checks[i].field_len <= 2 && stack != "fletcher16" {
                assert!(*e > 0, "{stack}: check {i} never escaped: {cs:?}");
            }
        }
    }
}

fn plan() -> Plan {
    let frame = Frame::new("ethernet-tcp", 200, Payload::Random).unwrap();
    let mut p = Plan::new(frame, Channel::Bsc { ber: 2e-3 }, Frames(100_000), Seed(42));
    p.chunk_frames = 1000;
    p
}

#[test]
fn result_independent_of_threads_shards_and_resume() {
    let plan = plan();
    let run = |threads, shard| {
        let o = RunOptions {
            threads,
            shard,
            ..Default::default()
        };
        simulate(&plan, &o, None).unwrap()
    };
    let one = run(1, Shard::WHOLE);
    assert!(one.escapes[0] > 0 && one.escapes[1] > 0, "{one:?}");
    assert_eq!(run(2, Shard::WHOLE), one);
    assert_eq!(run(3, Shard::WHOLE), one);
    let mut merged = Counts::zero(3);
    for i in 1..=3 {
        merged.add(&run(2, shard(i, 3)));
    }
    assert_eq!(merged, one);
    // dense engine gives the same tallies
    let o = RunOptions {
        engine: Engine::Dense,
        ..Default::default()
    };
    assert_eq!(simulate(&plan, &o, None).unwrap(), one);
    // resume from the first checkpoint
    let saved: Mutex<Option<Checkpoint>> = Mutex::new(None);
    let save = |p: &Checkpoint| {
        let mut s = saved.lock().unwrap();
        if s.is_none() {
            *s = Some(p.clone());
        }
        Ok(())
    };
    let o = RunOptions {
        threads: 1,
        on_checkpoint: Some(&save),
        checkpoint_every: Duration::ZERO,
        ..Default::default()
    };
    assert_eq!(simulate(&plan, &o, None).unwrap(), one);
    let cp = saved.lock().unwrap().clone().unwrap();
    assert!(cp.chunks_done > 0 && cp.chunks_done < plan.chunks());
    let o = RunOptions {
        threads: 2,
        ..Default::default()
    };
    assert_eq!(simulate(&plan, &o, Some(cp)).unwrap(), one);
}
