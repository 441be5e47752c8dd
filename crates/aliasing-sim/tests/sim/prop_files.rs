//! Property tests of what `alias simulate` and `alias merge` read: shard,
//! result and checkpoint files (plain and rare-event), payload specs and
//! stack names. A file with any single byte changed, or cut short, is
//! refused with a one-line error; no input panics; parameters round-trip.
//!
//! The fuzz profile runs each property 10,000 times (the test command runs
//! a bounded subset, a few hundred cases):
//!
//! ```text
//! PROPTEST_CASES=10000 cargo test -p aliasing-sim --test sim prop_files::
//! ```

use aliasing_core::shard::Shard;
use aliasing_sim::channel::Channel;
use aliasing_sim::run::RunOptions;
use aliasing_sim::session::{
    self, BurstRareFile, BurstRareParams, BurstRareSession, RARE_BURST_FORMAT, RARE_FORMAT,
    RareFile, RareParams, RareSession, RunFile, Session,
};
use aliasing_sim::shard::{Drive, ShardFile};
use aliasing_sim::spec::{Params, PayloadSpec};
use aliasing_sim::{Frames, Seed};
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
        Frames(3000),
        Seed(11),
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
            Frames(1),
            Seed(3),
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
            Frames(1),
            Seed(3),
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

/// `default` cases, or `PROPTEST_CASES` where set (the fuzz profile).
fn cases(default: u32) -> u32 {
    std::env::var("PROPTEST_CASES")
        .ok()
        .and_then(|c| c.parse().ok())
        .unwrap_or(default)
}

/// A valid file of every kind, as text: plain run, checkpoint, rare-event
/// (sums past `u64::MAX` among them), burst rare-event, `alias stack`, and
/// the histograms of `alias weights`; built once.
fn valid_texts() -> &'static [(&'static str, String)] {
    static TEXTS: std::sync::OnceLock<Vec<(&'static str, String)>> = std::sync::OnceLock::new();
    TEXTS.get_or_init(|| {
        use aliasing_sim::joint::{STACK_FORMAT, StackFile, StackParams, StackWork};
        let runs = run_files();
        let mut cp = runs[0].clone();
        cp.progress.chunks_done = 0;
        let cp = RunFile::new(session::FORMAT, cp.params, cp.shard, false, cp.progress);
        let sp = StackParams {
            stack: "ethernet-tcp".into(),
            bytes: vec![64],
            bers: vec![1e-4],
            max_weight: 4,
            samples: 50,
            seed: 9,
        };
        let work = StackWork::new(&sp).unwrap();
        let stack = StackFile::finished(
            STACK_FORMAT,
            sp,
            Shard::WHOLE,
            work.items(),
            (0..work.items()).fold(work.empty_tally(), |mut t, i| {
                aliasing_sim::shard::Tally::add(&mut t, &work.run(i));
                t
            }),
        );
        let mut wide = rare_file();
        wide.progress.counts.0[0].stack2 = u128::MAX;
        let wide = RareFile::new(
            RARE_FORMAT,
            wide.params,
            wide.shard,
            wide.complete,
            wide.progress,
        );
        let hist = ShardFile::<String, Vec<Vec<u64>>>::finished(
            "alias-weights",
            "params".into(),
            Shard::WHOLE,
            3,
            vec![vec![0, 1, u64::MAX], vec![7]],
        );
        vec![
            (session::FORMAT, runs[1].to_text().unwrap()),
            (session::FORMAT, cp.to_text().unwrap()),
            (RARE_FORMAT, rare_file().to_text().unwrap()),
            (RARE_FORMAT, wide.to_text().unwrap()),
            (RARE_BURST_FORMAT, rare_burst_file().to_text().unwrap()),
            (STACK_FORMAT, stack.to_text().unwrap()),
            ("alias-weights", hist.to_text().unwrap()),
        ]
    })
}

/// Reads `text` as a file of kind `format` (any of [`valid_texts`]):
/// `Ok(true)` when accepted, and then the text is exactly what the reader
/// writes back; a refusal is one line.
fn read_any(format: &str, text: &str) -> Result<bool, TestCaseError> {
    fn one<P, T>(format: &str, text: &str) -> Result<bool, TestCaseError>
    where
        P: Serialize + DeserializeOwned,
        T: Serialize + DeserializeOwned,
    {
        match ShardFile::<P, T>::from_text(text, format, "f") {
            Ok(f) => {
                prop_assert_eq!(f.to_text().unwrap(), text);
                Ok(true)
            }
            Err(e) => {
                let m = e.to_string();
                prop_assert!(!m.contains('\n') && m.starts_with("f "), "{}", m);
                Ok(false)
            }
        }
    }
    match format {
        session::FORMAT => one::<Params, aliasing_sim::run::Counts>(format, text),
        RARE_FORMAT => one::<RareParams, aliasing_sim::rare::RareTally>(format, text),
        RARE_BURST_FORMAT => {
            one::<BurstRareParams, aliasing_sim::burst_rare::BurstTally>(format, text)
        }
        aliasing_sim::joint::STACK_FORMAT => {
            one::<aliasing_sim::joint::StackParams, aliasing_sim::joint::StackTally>(format, text)
        }
        _ => one::<String, Vec<Vec<u64>>>(format, text),
    }
}

/// One edit of a file's text: a byte replaced, inserted or removed, or a
/// token that JSON numbers and counts trip on put in.
#[derive(Debug, Clone)]
enum Edit {
    Replace(prop::sample::Index, u8),
    Insert(prop::sample::Index, String),
    Remove(prop::sample::Index, usize),
}

fn edit() -> impl Strategy<Value = Edit> {
    let token = prop_oneof![
        any::<u8>().prop_map(|b| (b as char).to_string()),
        Just("18446744073709551616".to_string()),
        Just("\"340282366920938463463374607431768211456\"".to_string()),
        Just("\"340282366920938463463374607431768211455\"".to_string()),
        Just("-1".to_string()),
        Just("1e400".to_string()),
        Just("null".to_string()),
        Just("\"0\"".to_string()),
        Just("{}".to_string()),
        "[0-9]{1,40}",
    ];
    prop_oneof![
        (any::<prop::sample::Index>(), any::<u8>()).prop_map(|(i, b)| Edit::Replace(i, b)),
        (any::<prop::sample::Index>(), token).prop_map(|(i, t)| Edit::Insert(i, t)),
        (any::<prop::sample::Index>(), 1usize..40).prop_map(|(i, n)| Edit::Remove(i, n)),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(cases(300)))]

    /// Every kind of shard and checkpoint file, with random edits: refused
    /// in one line, or accepted only as the exact text the reader writes;
    /// never a panic.
    #[test]
    fn every_kind_of_file_survives_random_edits(
        kind in 0usize..7,
        edits in prop::collection::vec(edit(), 1..4),
    ) {
        let (format, text) = &valid_texts()[kind];
        prop_assert!(read_any(format, text)?);
        let mut b = text.clone().into_bytes();
        for e in &edits {
            match e {
                Edit::Replace(i, v) => {
                    let i = i.index(b.len());
                    b[i] = *v;
                }
                Edit::Insert(i, t) => {
                    let i = i.index(b.len() + 1);
                    b.splice(i..i, t.bytes());
                }
                Edit::Remove(i, n) => {
                    let i = i.index(b.len());
                    b.drain(i..(i + n).min(b.len()));
                }
            }
        }
        // accepted: only if no edit changed the text after all
        if let Ok(s) = String::from_utf8(b)
            && read_any(format, &s)?
        {
            prop_assert_eq!(&s, text);
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(cases(256)))]

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
        let p = Params::new(&stack, bytes, Channel::Bsc { ber }, PayloadSpec::Random, Frames(1000), Seed(1));
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
