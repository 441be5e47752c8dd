//! `--rare --burst` as a session: shards merged, a resumed partial run and
//! any thread count give the single run's tally and estimate, bit for bit.

use aliasing_core::shard::Shard;
use aliasing_sim::burst_rare::{BurstTally, CHUNK};
use aliasing_sim::channel::{Channel, GilbertElliott};
use aliasing_sim::session::{
    self, BurstRareFile, BurstRareParams, BurstRareSession, Given, RARE_BURST_FORMAT,
};
use aliasing_sim::shard::{Checkpoint, Drive, Tally};
use aliasing_sim::spec::{Params, PayloadSpec};
use aliasing_sim::{Frames, Seed};

/// Shard `i` of `n`.
fn shard(i: u64, n: u64) -> Shard {
    Shard::new(i, n).unwrap()
}

fn params() -> BurstRareParams {
    let ge: GilbertElliott = "1e-5,0.05,1e-3,0.05".parse().unwrap();
    let p = Params::new(
        "CRC-16/ARC",
        128,
        Channel::Burst(ge),
        PayloadSpec::Random,
        Frames(1),
        Seed(5),
    );
    // the test command: the channel as its own proposal (about one error
    // a draw rather than the default proposal's three: the draws cost a
    // third; what is checked is equality, not accuracy)
    let proposal = crate::tier::pick(Some(ge), None);
    BurstRareParams::new(p, samples(), proposal).unwrap()
}

/// Four full chunks and a short one; the test command three and a short
/// one (shard 2/2 still holds two items, one of them done in the partial
/// run below).
fn samples() -> u64 {
    crate::tier::pick(3, 4) * CHUNK + 1000
}

fn run(s: &BurstRareSession, threads: usize) -> (BurstTally, BurstRareFile) {
    s.run(&Drive {
        threads,
        ..Drive::default()
    })
    .unwrap()
}

#[test]
fn shards_resume_and_threads_give_the_single_run() {
    let d = tempfile::tempdir().unwrap();
    let p = params();
    let whole_s = BurstRareSession::new(p.clone(), Shard::WHOLE).unwrap();
    let (whole, whole_file) = run(&whole_s, 2);
    assert_eq!(whole.n, samples());
    assert!(whole.hits > 0);
    let est = whole_s
        .result(&whole, false, &aliasing_core::ctx::Ctx::default())
        .unwrap();
    // thread counts
    assert_eq!(run(&whole_s, 1).0, whole);
    // shards 1/3 + 2/3 + 3/3, written, read back and merged
    let mut paths = Vec::new();
    for i in 1..=3 {
        let s = BurstRareSession::new(p.clone(), shard(i, 3)).unwrap();
        let (_, file) = run(&s, 2);
        let path = d.path().join(format!("shard{i}.json"));
        file.write(&path).unwrap();
        paths.push(path);
    }
    let (merged_s, merged_file) = session::merge_rare_burst_paths(&paths).unwrap();
    let merged = merged_file.progress.counts.clone();
    assert_eq!(merged, whole);
    // the merged file is the single run's finished file
    assert_eq!(merged_file, whole_file);
    assert_eq!(merged_s.params, p);
    let m = merged_s
        .result(&merged, false, &aliasing_core::ctx::Ctx::default())
        .unwrap();
    assert_eq!(m, est);
    assert_eq!(m.crc.rate.to_bits(), est.crc.rate.to_bits());
    // a shard given twice is refused in one line
    let e =
        session::merge_rare_burst_paths(&[paths[0].clone(), paths[0].clone(), paths[2].clone()])
            .err()
            .unwrap()
            .to_string();
    assert!(e.contains("twice") && !e.contains('\n'), "{e}");
    // a partial run of shard 2/2 (its first item done), resumed
    let work = whole_s.work().unwrap();
    let full2 = run(&BurstRareSession::new(p.clone(), shard(2, 2)).unwrap(), 1).0;
    let part = Checkpoint {
        chunks_done: 1,
        counts: work.item(1),
    };
    let cp = d.path().join("partial.ckpt");
    BurstRareFile::new(RARE_BURST_FORMAT, p.clone(), shard(2, 2), false, part)
        .write(&cp)
        .unwrap();
    let resumed = BurstRareSession::resume(&cp, &Given::default(), None, None, None).unwrap();
    assert_eq!(resumed.shard, shard(2, 2));
    let (t2, _) = run(&resumed, 2);
    assert_eq!(t2, full2);
    // and with shard 1/2 it makes the whole run
    let mut sum = run(&BurstRareSession::new(p.clone(), shard(1, 2)).unwrap(), 2).0;
    sum.add(&t2);
    assert_eq!(sum, whole);
    // the finished checkpoint now holds the shard's result
    let done = BurstRareFile::read(&cp, RARE_BURST_FORMAT).unwrap();
    assert!(done.complete);
    assert_eq!(done.progress.counts, full2);
    // a resume with other parameters is refused in one line
    let e = BurstRareSession::resume(&cp, &Given::default(), Some(7), None, None)
        .err()
        .unwrap()
        .to_string();
    assert!(e.contains("samples") && !e.contains('\n'), "{e}");
    let other: GilbertElliott = "0.1,0.1,0.1,0.1".parse().unwrap();
    let e = BurstRareSession::resume(&cp, &Given::default(), None, Some(other), None)
        .err()
        .unwrap()
        .to_string();
    assert!(e.contains("proposal") && !e.contains('\n'), "{e}");
}
