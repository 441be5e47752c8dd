//! Shard and checkpoint files at the extreme values of every counter type
//! they hold, for every kind (plain simulation, rare-event, burst
//! rare-event, `alias stack`, the `Vec<Vec<u64>>` histograms of `alias
//! weights`): written, read back equal and byte for byte, and resumed from.
//!
//! The counters: `u64` counts (0, 1, `u64::MAX`), the rare-event sampler's
//! `u128` sums (0, `u64::MAX`, `u64::MAX + 1`, `u128::MAX`: JSON numbers up
//! to `u64::MAX`, decimal strings above, see `aliasing_sim::shard::wide`),
//! `alias stack`'s `u128` sums (decimal strings) and the burst sampler's
//! exact sums of `f64` (zero, the smallest subnormal, sums and squares of
//! `f64::MAX`). Before, a rare-event file whose sums passed `u64::MAX`
//! could not be written at all (a panic at the end of the run, or at its
//! first checkpoint).

use aliasing_core::shard::Shard;
use aliasing_sim::burst_rare::BurstTally;
use aliasing_sim::channel::Channel;
use aliasing_sim::exact_sum::ExactSum;
use aliasing_sim::joint::{STACK_FORMAT, StackFile, StackParams, StackWork};
use aliasing_sim::rare::{RareTally, Sums};
use aliasing_sim::run::{Counts, RunOptions};
use aliasing_sim::session::{
    self, BurstRareFile, BurstRareParams, BurstRareSession, Given, RARE_BURST_FORMAT, RARE_FORMAT,
    RareFile, RareParams, RareSession, RunFile, Session,
};
use aliasing_sim::shard::{Checkpoint, Drive, ShardFile};
use aliasing_sim::spec::{Params, PayloadSpec};
use aliasing_sim::{Frames, Seed};
use serde::Serialize;
use serde::de::DeserializeOwned;
use std::fmt::Debug;
use std::path::Path;

const U64S: [u64; 3] = [0, 1, u64::MAX];
const U128S: [u128; 5] = [
    0,
    u64::MAX as u128,
    u64::MAX as u128 + 1,
    10_000_000_000_000_000_000_000_000_000,
    u128::MAX,
];

/// Writes `f` to `path`, reads it back: equal, and the same bytes again.
fn round_trip<P, T>(f: &ShardFile<P, T>, format: &str, path: &Path)
where
    P: Serialize + DeserializeOwned + PartialEq + Debug,
    T: Serialize + DeserializeOwned + PartialEq + Debug,
{
    f.write(path).unwrap();
    let text = std::fs::read_to_string(path).unwrap();
    let back = ShardFile::<P, T>::read(path, format).unwrap();
    assert_eq!(&back, f);
    assert_eq!(back.to_text().unwrap(), text);
}

fn small_params(stack: &str, bytes: usize, channel: Channel) -> Params {
    Params::new(
        stack,
        bytes,
        channel,
        PayloadSpec::Random,
        Frames(3000),
        Seed(11),
    )
}

#[test]
fn the_wide_form_is_a_number_to_u64_max_and_a_string_above() {
    #[derive(Serialize, serde::Deserialize, PartialEq, Debug)]
    struct W(#[serde(with = "aliasing_sim::shard::wide")] u128);
    for v in U128S {
        let j = serde_json::to_string(&W(v)).unwrap();
        if v <= u64::MAX as u128 {
            assert_eq!(j, v.to_string());
        } else {
            assert_eq!(j, format!("\"{v}\""));
        }
        // through serde_json::Value too (what shard files go through)
        let val = serde_json::to_value(W(v)).unwrap();
        assert_eq!(serde_json::from_value::<W>(val).unwrap(), W(v));
        assert_eq!(serde_json::from_str::<W>(&j).unwrap(), W(v));
    }
    // a string form of a small count reads (the file check then wants the
    // number form); anything else is refused
    assert_eq!(serde_json::from_str::<W>("\"7\"").unwrap(), W(7));
    for bad in [
        "-1",
        "1.5",
        "1e3",
        "\"\"",
        "\"01\"",
        "\"+1\"",
        "\" 1\"",
        "\"0x10\"",
        "\"340282366920938463463374607431768211456\"",
        "null",
        "[1]",
    ] {
        assert!(serde_json::from_str::<W>(bad).is_err(), "{bad}");
    }
}

#[test]
fn plain_run_files_at_extreme_counts_round_trip_and_resume() {
    let d = tempfile::tempdir().unwrap();
    let p = small_params("ethernet-tcp", 64, Channel::Bsc { ber: 0.01 });
    let s = Session::new(p.clone(), Shard::new(2, 3).unwrap()).unwrap();
    let c = s
        .run(RunOptions {
            threads: 1,
            ..RunOptions::default()
        })
        .unwrap();
    let done = s.result_file(c.clone()).progress.chunks_done;
    for v in U64S {
        let mut e = c.clone();
        e.frames = v;
        e.frames_with_error = v;
        e.bit_errors = v;
        e.stack_escapes = v;
        for x in [
            &mut e.escapes,
            &mut e.errored_in_coverage,
            &mut e.escapes_in_coverage,
        ] {
            x.iter_mut().for_each(|y| *y = v);
        }
        let path = d.path().join(format!("plain-{v}.json"));
        round_trip(
            &RunFile::finished(session::FORMAT, p.clone(), s.shard, 3000, e.clone()),
            session::FORMAT,
            &path,
        );
        // a checkpoint with every chunk done resumes to its counts, and
        // the finished file replaces it
        let cp = d.path().join(format!("plain-{v}.ckpt"));
        let part = Checkpoint {
            chunks_done: done,
            counts: e.clone(),
        };
        RunFile::new(session::FORMAT, p.clone(), s.shard, false, part)
            .write(&cp)
            .unwrap();
        let r = <Session>::resume(&cp, &Given::default(), None).unwrap();
        assert_eq!(r.run(RunOptions::default()).unwrap(), e);
        let f = session::read(&cp).unwrap();
        assert!(f.complete);
        assert_eq!(f.progress.counts, e);
    }
    // the empty tally and the largest shard and item count
    let zero = RunFile::new(
        session::FORMAT,
        p,
        Shard::new(u64::MAX, u64::MAX).unwrap(),
        false,
        Checkpoint {
            chunks_done: u64::MAX,
            counts: Counts::zero(3),
        },
    );
    round_trip(&zero, session::FORMAT, &d.path().join("plain-zero.json"));
}

fn rare_session() -> RareSession {
    let params = RareParams {
        params: small_params("CRC-16/ARC", 32, Channel::Bsc { ber: 1e-2 }),
        samples: 20_000,
    };
    RareSession::new(params, Shard::new(1, 2).unwrap()).unwrap()
}

#[test]
fn rare_files_at_extreme_sums_round_trip_and_resume() {
    let d = tempfile::tempdir().unwrap();
    let s = rare_session();
    let (tally, file) = s
        .run(&Drive {
            threads: 1,
            ..Drive::default()
        })
        .unwrap();
    // a real 16-bit run's sums pass u64::MAX (the stack's squares are in
    // units of PASS_SCALE^2): the string form is in real files
    assert!(
        tally.0.iter().any(|x| x.stack2 > u64::MAX as u128),
        "{tally:?}"
    );
    let text = file.to_text().unwrap();
    assert!(text.contains("\"stack2\": \""), "{text}");
    let done = file.progress.chunks_done;
    for (i, (&n, &w)) in U64S.iter().cycle().zip(U128S.iter()).enumerate() {
        let sums = Sums {
            n,
            crc: n,
            crc2: w,
            stack: w,
            stack2: w,
        };
        let e = RareTally(vec![sums; tally.0.len()]);
        let path = d.path().join(format!("rare-{i}.json"));
        round_trip(
            &RareFile::finished(RARE_FORMAT, s.params.clone(), s.shard, 2 * done, e.clone()),
            RARE_FORMAT,
            &path,
        );
        let cp = d.path().join(format!("rare-{i}.ckpt"));
        let part = Checkpoint {
            chunks_done: done,
            counts: e.clone(),
        };
        RareFile::new(RARE_FORMAT, s.params.clone(), s.shard, false, part)
            .write(&cp)
            .unwrap();
        let r = RareSession::resume(&cp, &Given::default(), None, None).unwrap();
        let (t, f) = r.run(&Drive::default()).unwrap();
        assert_eq!((&t, f.complete), (&e, true));
        assert_eq!(RareFile::read(&cp, RARE_FORMAT).unwrap(), f);
        // sums at their type's maximum may have been cut there (adding
        // saturates): no estimate from them, a one-line refusal instead
        let cut = n == u64::MAX || w == u128::MAX;
        match r.result(&t, true, &aliasing_core::ctx::Ctx::default()) {
            Ok(_) => assert!(!cut, "{i}"),
            Err(e) => {
                let m = e.to_string();
                assert!(
                    cut && m.contains("exact range") && !m.contains('\n'),
                    "{i}: {m}"
                );
            }
        }
        let mut twice = t.clone();
        aliasing_sim::shard::Tally::add(&mut twice, &t);
        assert_eq!(twice.in_range().is_err(), cut || w > u128::MAX / 2, "{i}");
    }
}

/// An exact sum of `count` copies of `x` (or of its square).
fn sum_of(x: f64, count: usize, square: bool) -> ExactSum {
    let mut s = ExactSum::default();
    for _ in 0..count {
        if square {
            s.add_square(x);
        } else {
            s.add(x);
        }
    }
    s
}

#[test]
fn rare_burst_files_at_extreme_sums_round_trip_and_resume() {
    let d = tempfile::tempdir().unwrap();
    let params = BurstRareParams::new(
        small_params(
            "crc8",
            8,
            Channel::Burst("1e-3,0.3,0.01,0.2".parse().unwrap()),
        ),
        100,
        None,
    )
    .unwrap();
    let s = BurstRareSession::new(params, Shard::WHOLE).unwrap();
    let (_, file) = s
        .run(&Drive {
            threads: 1,
            ..Drive::default()
        })
        .unwrap();
    let done = file.progress.chunks_done;
    let sums = [
        ExactSum::default(),
        sum_of(5e-324, 1, false),
        sum_of(5e-324, 3, true),
        sum_of(f64::MAX, 1000, false),
        sum_of(f64::MAX, 1000, true),
    ];
    for (i, (&n, sum)) in U64S.iter().cycle().zip(&sums).enumerate() {
        let e = BurstTally {
            n,
            hits: n,
            sum: sum.clone(),
            sum2: sum.clone(),
            routes: [sum.clone(), ExactSum::default(), sum.clone()],
        };
        let path = d.path().join(format!("burst-{i}.json"));
        round_trip(
            &BurstRareFile::finished(
                RARE_BURST_FORMAT,
                s.params.clone(),
                s.shard,
                done,
                e.clone(),
            ),
            RARE_BURST_FORMAT,
            &path,
        );
        let cp = d.path().join(format!("burst-{i}.ckpt"));
        let part = Checkpoint {
            chunks_done: done,
            counts: e.clone(),
        };
        BurstRareFile::new(RARE_BURST_FORMAT, s.params.clone(), s.shard, false, part)
            .write(&cp)
            .unwrap();
        let r = BurstRareSession::resume(&cp, &Given::default(), None, None, None).unwrap();
        let (t, f) = r.run(&Drive::default()).unwrap();
        assert_eq!((&t, f.complete), (&e, true));
        assert_eq!(BurstRareFile::read(&cp, RARE_BURST_FORMAT).unwrap(), f);
    }
}

#[test]
fn stack_files_at_extreme_sums_round_trip() {
    let d = tempfile::tempdir().unwrap();
    let p = StackParams {
        stack: "ethernet-tcp".into(),
        bytes: vec![64],
        bers: vec![1e-4],
        max_weight: 4,
        samples: 100,
        seed: 9,
    };
    let work = StackWork::new(&p).unwrap();
    for (i, &w) in U128S.iter().enumerate() {
        let mut t = work.empty_tally();
        for f in &mut t.0 {
            for term in &mut f.terms {
                (term.codewords, term.pass_count, term.touching) = (w, w, w);
            }
            let s = &mut f.sample;
            s.draws = U64S[i % 3];
            (s.y, s.n, s.yy, s.nn, s.yn) = (w, w, w, w, w);
        }
        assert!(t.0.iter().all(|f| !f.terms.is_empty()));
        let f = StackFile::finished(STACK_FORMAT, p.clone(), Shard::WHOLE, work.items(), t);
        round_trip(&f, STACK_FORMAT, &d.path().join(format!("stack-{i}.json")));
    }
}

#[test]
fn histogram_files_at_extreme_counts_round_trip() {
    // the tally of `alias weights` shard files: one histogram per length
    type F = ShardFile<String, Vec<Vec<u64>>>;
    let d = tempfile::tempdir().unwrap();
    for (i, v) in [
        vec![],
        vec![vec![]],
        vec![U64S.to_vec(), vec![u64::MAX; 40]],
    ]
    .into_iter()
    .enumerate()
    {
        let f = F::finished("alias-weights", "params".into(), Shard::WHOLE, 7, v);
        round_trip(&f, "alias-weights", &d.path().join(format!("w-{i}.json")));
    }
}
