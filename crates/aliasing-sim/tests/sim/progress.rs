//! Monte Carlo and rare-event runs report their frames (or chunks of
//! samples) to a watcher: one stage whose units add up to its total, for
//! any shard and from any resume point.

use aliasing_core::__private::progress::Record;
use aliasing_core::shard::Shard;
use aliasing_sim::channel::Channel;
use aliasing_sim::run::{Checkpoint, Plan, RunOptions, simulate};
use aliasing_sim::session::{Given, RareParams, RareSession};
use aliasing_sim::shard::Drive;
use aliasing_sim::stack::{Frame, Payload};
use aliasing_sim::{Frames, Seed};
use std::sync::Mutex;
use std::time::Duration;

/// Shard `i` of `n`.
fn shard(i: u64, n: u64) -> Shard {
    Shard::new(i, n).unwrap()
}

/// 10,500 frames in chunks of 1000: 11 chunks, the last one short.
fn plan() -> Plan {
    let frame = Frame::new("ethernet-tcp", 100, Payload::Random).unwrap();
    let mut p = Plan::new(frame, Channel::Bsc { ber: 1e-3 }, Frames(10_500), Seed(5));
    p.chunk_frames = 1000;
    p
}

fn one_stage(r: &Record) -> (String, u64) {
    let s = r.stages();
    assert_eq!(s.len(), 1, "{s:?}");
    assert_eq!(s[0].done, s[0].total, "{s:?}");
    (s[0].name.clone(), s[0].total)
}

#[test]
fn shard_frames_counts_every_chunk() {
    // the closed form against chunk-by-chunk sums, every shard split
    for (frames, cf) in [(10_500u64, 1000u64), (10_000, 1000), (7, 3), (1, 5), (0, 4)] {
        let mut p = plan();
        p.frames = frames;
        p.chunk_frames = cf;
        for n in 1..=5u64 {
            let mut all = 0;
            for i in 1..=n {
                let chunks = p.shard_chunks(shard(i, n));
                for done in 0..=chunks {
                    let want: u64 = (0..done)
                        .map(|j| {
                            let c = i - 1 + j * n;
                            ((c + 1) * cf).min(frames) - c * cf
                        })
                        .sum();
                    assert_eq!(
                        p.shard_frames(shard(i, n), done),
                        want,
                        "{frames} {cf} {i}/{n} {done}"
                    );
                }
                all += p.shard_frames(shard(i, n), chunks);
            }
            assert_eq!(all, frames);
        }
    }
}

#[test]
fn a_run_reports_its_frames_in_every_shard() {
    let plan = plan();
    let mut total = 0;
    for i in 1..=3 {
        let r = Record::default();
        let o = RunOptions {
            shard: shard(i, 3),
            progress: &r,
            ..Default::default()
        };
        let counts = simulate(&plan, &o, None).unwrap();
        let (name, frames) = one_stage(&r);
        assert_eq!(name, "frames");
        assert_eq!(frames, counts.frames);
        total += frames;
    }
    assert_eq!(total, 10_500);
}

#[test]
fn a_resumed_run_reports_the_saved_frames_at_once() {
    let plan = plan();
    let saved: Mutex<Option<Checkpoint>> = Mutex::new(None);
    let save = |p: &Checkpoint| {
        saved.lock().unwrap().get_or_insert_with(|| p.clone());
        Ok(())
    };
    let o = RunOptions {
        threads: 1,
        on_checkpoint: Some(&save),
        checkpoint_every: Duration::ZERO,
        ..Default::default()
    };
    let whole = simulate(&plan, &o, None).unwrap();
    let cp = saved.lock().unwrap().clone().unwrap();
    assert!(cp.counts.frames > 0 && cp.counts.frames < 10_500);
    let r = Record::default();
    let o = RunOptions {
        progress: &r,
        ..Default::default()
    };
    assert_eq!(simulate(&plan, &o, Some(cp.clone())).unwrap(), whole);
    assert_eq!(one_stage(&r), ("frames".to_string(), 10_500));
    // the saved frames come first, in one report
    let log = Log::default();
    let o = RunOptions {
        progress: &log,
        ..Default::default()
    };
    simulate(&plan, &o, Some(cp.clone())).unwrap();
    let steps = log.0.lock().unwrap().clone();
    assert_eq!(steps[0], cp.counts.frames, "{steps:?}");
    assert_eq!(steps.iter().sum::<u64>(), 10_500);
}

/// Every advance, in order.
#[derive(Default)]
struct Log(Mutex<Vec<u64>>);

impl aliasing_core::progress::Progress for Log {
    fn advance(&self, n: u64) {
        self.0.lock().unwrap().push(n);
    }
}

#[test]
fn a_rare_run_reports_its_sample_chunks() {
    let given = Given {
        stack: Some("crc16".into()),
        bytes: Some(64),
        channel: Some(Channel::Bsc { ber: 1e-3 }),
        frames: Some(1),
        ..Default::default()
    };
    let s = RareSession::new(
        RareParams {
            params: given.params(),
            samples: 20_000,
        },
        Shard::WHOLE,
    )
    .unwrap();
    let r = Record::default();
    let o = Drive {
        progress: &r,
        checkpoint_every: Duration::from_secs(60),
        ..Default::default()
    };
    s.run(&o).unwrap();
    let (name, total) = one_stage(&r);
    assert_eq!(name, "sample chunks");
    assert!(total > 0);
}

#[test]
#[ignore = "about 8 s of CPU: CRC-32's dual-code weights, twice"]
fn exact_values_report_the_dual_code() {
    // the fast check of the same stages: aliasing-core's tests/progress.rs
    let frame = Frame::new("ethernet", 64, Payload::Random).unwrap();
    let plan = Plan::new(frame, Channel::Bsc { ber: 1e-5 }, Frames(1), Seed(1));
    let r = Record::default();
    let got = aliasing_sim::exact::exact_values(
        &plan,
        &aliasing_core::ctx::Ctx::default().with_progress(&r),
    );
    assert!(r.complete(), "{:?}", r.stages());
    assert_eq!(r.names(), ["dual-code windows", "P_ud terms"]);
    assert_eq!(
        got.checks,
        aliasing_sim::exact::exact_values(&plan, &aliasing_core::ctx::Ctx::default()).checks
    );
    assert!(got.checks[0].is_some());
}

/// `alias transfer` with a payload file runs its file part and its link
/// part at once; the watcher sees the file part's stage, then the link
/// part's, each whole (the link part's units done while the file part ran
/// are held back and replayed), and the document is the one computed one
/// part after the other.
#[test]
fn transfer_shows_the_file_part_then_the_link_part() {
    use aliasing_core::ctx::Ctx;
    use aliasing_sim::transfer::{Tallies, TransferParams, report_with};
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("payload.bin");
    let data: Vec<u8> = (0..200_000u32)
        .map(|i| (i.wrapping_mul(2_654_435_761) >> 24) as u8)
        .collect();
    std::fs::write(&path, &data).unwrap();
    let mut params = TransferParams::new(
        "ipv4-tcp+CRC-16/ARC",
        data.len() as u128,
        vec![120, 300],
        vec![1e-4],
        vec![1],
    );
    params.samples = 0;
    params.payload_file = Some(path.display().to_string());
    params.corruption = vec!["word:1e-6".parse().unwrap(), "bits:1e-5".parse().unwrap()];
    let rec = Record::default();
    let ctx = Ctx::default().with_progress(&rec);
    let (doc, _) = report_with(&params, &mut Tallies::new(&params), &ctx).unwrap();
    let stages = rec.stages();
    let first_link = stages.iter().position(|s| s.name != "bytes").unwrap();
    assert!(first_link > 0, "{stages:?}");
    assert!(
        stages[first_link..].iter().all(|s| s.name != "bytes"),
        "{stages:?}"
    );
    assert!(rec.complete(), "{stages:?}");
    // the same document without the overlap: the parts one after the other
    let mut alone = params.clone();
    alone.corruption.clear();
    let (link, _) = report_with(&alone, &mut Tallies::new(&alone), &Ctx::default()).unwrap();
    for (a, b) in doc.points.iter().zip(&link.points) {
        assert_eq!(a.joint_per_frame, b.joint_per_frame);
        assert_eq!(a.corruption.len(), 2);
    }
}
