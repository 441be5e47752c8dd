//! Property tests of what `alias simulate` and `alias merge` read: shard,
//! result and checkpoint files (plain and rare-event), payload specs and
//! stack names. A file with any single byte changed, or cut short, is
//! refused with a one-line error; no input panics; parameters round-trip.

use aliasing_core::shard::Shard;
use aliasing_sim::channel::Channel;
use aliasing_sim::run::RunOptions;
use aliasing_sim::session::{
    self, BurstRareFile, BurstRareParams, BurstRareSession, RARE_BURST_FORMAT, RARE_FORMAT,
    RareFile, RareParams, RareSession, RunFile, Session,
};
use aliasing_sim::shard::{Drive, ShardFile};
use aliasing_sim::spec::{Params, PayloadSpec};
use proptest::prelude::*;
use serde::Serialize;
use serde::de::DeserializeOwned;

/// Shard `i` of `n`.
fn shard(i: u64, n: u64) -> Shard {
    Shard::new(i, n).unwrap()
}

/// Shard 2 of 3 of a small real run, and the whole run's other shards.
fn run_files() -> Vec<RunFile> {
    let p = Params::new(
        "ethernet",
        16,
        Channel::Bsc { ber: 0.05 },
        PayloadSpec::Random,
        3000,
        11,
    );
    (1..=3)
        .map(|i| {
            let s = Session::new(p.clone(), shard(i, 3)).unwrap();
            let c = s
                .run(RunOptions {
                    threads: 1,
                    ..RunOptions::default()
                })
                .unwrap();
            s.result_file(c)
        })
        .collect()
}

/// A finished rare-event shard of a small run.
fn rare_file() -> RareFile {
    let params = RareParams {
        params: Params::new(
            "ethernet",
            16,
            Channel::Bsc { ber: 1e-3 },
            PayloadSpec::Fixed(vec![0xA5, 0x5A]),
            1,
            3,
        ),
        samples: 64,
    };
    let s = RareSession::new(params, shard(1, 2)).unwrap();
    s.run(&Drive {
        threads: 1,
        ..Drive::default()
    })
    .unwrap()
    .1
}

/// A resumed rare-event run whose checkpoint does not fit its own
/// parameters (a tally of the wrong shape, or more items done than the
/// shard has) is refused in one line before any work; so is a burst one
/// with more items done than its shard has.
#[test]
fn a_checkpoint_that_does_not_fit_its_run_is_refused() {
    use aliasing_sim::rare::RareTally;
    use aliasing_sim::shard::Checkpoint;
    let d = tempfile::tempdir().unwrap();
    let refused = |e: aliasing_core::Error| {
        let e = e.to_string();
        assert!(e.contains("does not fit") && !e.contains('\n'), "{e}");
    };
    // rare: the real shape from a finished run, then two bad checkpoints
    let file = rare_file();
    let (params, whole) = (file.params.clone(), file.progress.counts.clone());
    let cp = d.path().join("rare.ckpt");
    let bad = [
        Checkpoint {
            chunks_done: 0,
            counts: RareTally(whole.0[..whole.0.len() - 1].to_vec()),
        },
        Checkpoint {
            chunks_done: 1 << 40,
            counts: whole.clone(),
        },
    ];
    for part in bad {
        RareFile::new(RARE_FORMAT, params.clone(), shard(1, 2), false, part)
            .write(&cp)
            .unwrap();
        let s = RareSession::resume(&cp, &session::Given::default(), None, None).unwrap();
        refused(s.run(&Drive::default()).unwrap_err());
    }
    // the checkpoint of the right shape resumes
    let ok = Checkpoint {
        chunks_done: 0,
        counts: RareTally(whole.0.iter().map(|_| Default::default()).collect()),
    };
    RareFile::new(RARE_FORMAT, params, shard(1, 2), false, ok)
        .write(&cp)
        .unwrap();
    let s = RareSession::resume(&cp, &session::Given::default(), None, None).unwrap();
    assert_eq!(s.run(&Drive::default()).unwrap().0, whole);
    // burst: more items done than the shard has
    let b = rare_burst_file();
    let cp = d.path().join("burst.ckpt");
    let part = Checkpoint {
        chunks_done: 1 << 40,
        counts: b.progress.counts.clone(),
    };
    BurstRareFile::new(RARE_BURST_FORMAT, b.params.clone(), b.shard, false, part)
        .write(&cp)
        .unwrap();
    let s = BurstRareSession::resume(&cp, &session::Given::default(), None, None, None).unwrap();
    refused(s.run(&Drive::default()).unwrap_err());
}

/// A finished shard of a small burst-channel rare-event run.
fn rare_burst_file() -> BurstRareFile {
    let params = BurstRareParams::new(
        Params::new(
            "crc8",
            8,
            Channel::Burst("1e-3,0.3,0.01,0.2".parse().unwrap()),
            PayloadSpec::Random,
            1,
            3,
        ),
        100,
        None,
    )
    .unwrap();
    let s = BurstRareSession::new(params, Shard::WHOLE).unwrap();
    s.run(&Drive {
        threads: 1,
        ..Drive::default()
    })
    .unwrap()
    .1
}

/// The bytes a single-byte edit may put in: neighbours, digits, JSON
/// punctuation, white space, and bytes that break UTF-8.
fn replacements(b: u8) -> Vec<u8> {
    let mut v = vec![
        b ^ 0x01,
        b ^ 0x02,
        b ^ 0x20,
        b ^ 0x80,
        b'0',
        b'9',
        b' ',
        b'\n',
        b'"',
        b',',
        b'}',
        b'e',
        b'-',
        0,
    ];
    v.retain(|&x| x != b);
    v.sort_unstable();
    v.dedup();
    v
}

/// Every position, every replacement: refused in one line.
fn every_edit_is_refused<P, T>(text: &str, format: &str)
where
    P: Serialize + DeserializeOwned,
    T: Serialize + DeserializeOwned,
{
    assert!(ShardFile::<P, T>::from_text(text, format, "f").is_ok());
    let bytes = text.as_bytes();
    let mut tried = 0;
    for i in 0..bytes.len() {
        for r in replacements(bytes[i]) {
            let mut b = bytes.to_vec();
            b[i] = r;
            // a reader gets bytes: what is not UTF-8 is refused before parsing
            let Ok(s) = String::from_utf8(b) else {
                continue;
            };
            tried += 1;
            match ShardFile::<P, T>::from_text(&s, format, "f") {
                Ok(_) => panic!(
                    "byte {i} ({:?} -> {:?}) accepted",
                    bytes[i] as char, r as char
                ),
                Err(e) => {
                    let m = e.to_string();
                    assert!(
                        !m.contains('\n') && m.starts_with("f is not a valid"),
                        "{m}"
                    );
                }
            }
        }
    }
    // every cut, and every doubled byte
    for i in 0..bytes.len() {
        if let Ok(s) = std::str::from_utf8(&bytes[..i]) {
            assert!(
                ShardFile::<P, T>::from_text(s, format, "f").is_err(),
                "cut at {i}"
            );
        }
        let mut b = bytes.to_vec();
        b.insert(i, bytes[i]);
        if let Ok(s) = String::from_utf8(b) {
            assert!(
                ShardFile::<P, T>::from_text(&s, format, "f").is_err(),
                "byte {i} doubled"
            );
        }
    }
    assert!(
        tried > 5 * bytes.len(),
        "{tried} edits of {} bytes",
        bytes.len()
    );
}

#[test]
fn a_run_file_with_any_byte_changed_is_refused() {
    let files = run_files();
    let text = files[1].to_text().unwrap();
    every_edit_is_refused::<Params, aliasing_sim::run::Counts>(&text, session::FORMAT);
}

#[test]
fn a_checkpoint_with_any_byte_changed_is_refused() {
    let files = run_files();
    let mut cp = files[0].clone();
    cp.complete = false;
    cp.progress.chunks_done = 0;
    let text = RunFile::new(session::FORMAT, cp.params, cp.shard, false, cp.progress)
        .to_text()
        .unwrap();
    every_edit_is_refused::<Params, aliasing_sim::run::Counts>(&text, session::FORMAT);
}

#[test]
fn a_rare_file_with_any_byte_changed_is_refused() {
    let text = rare_file().to_text().unwrap();
    every_edit_is_refused::<RareParams, aliasing_sim::rare::RareTally>(&text, RARE_FORMAT);
}

#[test]
fn a_rare_burst_file_with_any_byte_changed_is_refused() {
    let f = rare_burst_file();
    assert!(f.progress.counts.hits > 0);
    let text = f.to_text().unwrap();
    every_edit_is_refused::<BurstRareParams, aliasing_sim::burst_rare::BurstTally>(
        &text,
        RARE_BURST_FORMAT,
    );
}

/// The files merge to the unsharded run; a file of another run, or a
/// shard given twice, is refused in one line (never a wrong merge).
#[test]
fn merge_of_real_shards() {
    let files = run_files();
    let named: Vec<(String, RunFile)> = files
        .iter()
        .enumerate()
        .map(|(i, f)| (format!("s{i}"), f.clone()))
        .collect();
    let (params, total) = aliasing_sim::shard::merge(&named).unwrap();
    let whole = Session::new(params, Shard::WHOLE)
        .unwrap()
        .run(RunOptions {
            threads: 1,
            ..RunOptions::default()
        })
        .unwrap();
    assert_eq!(total, whole);
    let mut twice = named.clone();
    twice[2] = named[1].clone();
    let e = aliasing_sim::shard::merge(&twice).unwrap_err().to_string();
    assert!(e.contains("twice") && !e.contains('\n'), "{e}");
    let mut other = named.clone();
    let mut p = other[2].1.params.clone();
    p.seed += 1;
    other[2].1 = RunFile::finished(
        session::FORMAT,
        p,
        shard(3, 3),
        1,
        other[2].1.progress.counts.clone(),
    );
    let e = aliasing_sim::shard::merge(&other).unwrap_err().to_string();
    assert!(!e.contains('\n'), "{e}");
}

fn spec_like() -> impl Strategy<Value = String> {
    let piece = prop_oneof![
        Just("random".to_string()),
        Just("pattern:".to_string()),
        Just("bytes:".to_string()),
        Just("0x".to_string()),
        Just("ethernet".to_string()),
        Just("-tcp".to_string()),
        Just("ipv4".to_string()),
        Just("crc32".to_string()),
        Just(":".to_string()),
        Just(",".to_string()),
        "[0-9a-fA-F]{1,9}",
        "[a-z]{1,5}",
        any::<char>().prop_map(String::from),
    ];
    prop::collection::vec(piece, 0..6).prop_map(|v| v.concat())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn payload_specs_never_panic(s in spec_like()) {
        match PayloadSpec::parse(&s) {
            Ok(p) => {
                // what is written to files reads back
                let j = serde_json::to_string(&p).unwrap();
                prop_assert_eq!(serde_json::from_str::<PayloadSpec>(&j).unwrap(), p);
            }
            Err(e) => prop_assert!(!e.to_string().contains('\n') || s.contains('\n')),
        }
        let _ = serde_json::from_str::<PayloadSpec>(&serde_json::to_string(&s).unwrap());
    }

    #[test]
    fn payload_bytes_round_trip(bytes in prop::collection::vec(any::<u8>(), 1..40)) {
        let hex: String = bytes.iter().map(|b| format!("{b:02X}")).collect();
        let p = PayloadSpec::parse(&format!("pattern:0x{hex}")).unwrap();
        prop_assert_eq!(&p, &PayloadSpec::Fixed(bytes.clone()));
        let j = serde_json::to_string(&p).unwrap();
        prop_assert_eq!(serde_json::from_str::<PayloadSpec>(&j).unwrap(), p);
    }

    /// Any stack name and frame length: a plan or a one-line refusal.
    #[test]
    fn stacks_and_lengths_never_panic(stack in spec_like(), bytes in 0usize..2000, ber in 0.0f64..=1.0) {
        let p = Params::new(&stack, bytes, Channel::Bsc { ber }, PayloadSpec::Random, 1000, 1);
        if let Err(e) = p.plan() {
            prop_assert!(!e.to_string().contains('\n') || stack.contains('\n'), "{e}");
        }
        // the parameters survive their file form
        let j = serde_json::to_string(&p).unwrap();
        prop_assert_eq!(serde_json::from_str::<Params>(&j).unwrap(), p);
    }

    #[test]
    fn arbitrary_text_is_not_a_shard_file(s in any::<String>()) {
        let e = RunFile::from_text(&s, session::FORMAT, "f").unwrap_err().to_string();
        prop_assert!(!e.contains('\n'), "{e}");
    }
}
