//! Property tests of the `alias` binary on bad input: a valid command with
//! one value mangled, and saved files (shard and checkpoint files, search
//! shards, JSON results for `alias plot`) with a byte changed. Every refusal
//! is exit code 2 and exactly one stderr line starting `error:`, never a
//! panic; a corrupt shard or checkpoint file is always refused. The process
//! spawns are kept to a few hundred so the suite stays fast; the fuzz
//! profile, `PROPTEST_CASES=10000 cargo test -p aliasing-cli --test
//! cli prop::`, runs each property that many times.

use proptest::prelude::*;
use proptest::test_runner::{Config, TestRunner};
use std::process::{Command, Output};

/// `default` cases, or `PROPTEST_CASES` where set (the fuzz profile:
/// `PROPTEST_CASES=10000 cargo test -p aliasing-cli --test cli prop::`).
fn cases(default: u32) -> u32 {
    std::env::var("PROPTEST_CASES")
        .ok()
        .and_then(|c| c.parse().ok())
        .unwrap_or(default)
}

fn alias(args: &[String]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_alias"))
        .args(args)
        .output()
        .expect("run alias")
}

fn strs(a: &[&str]) -> Vec<String> {
    a.iter().map(|s| s.to_string()).collect()
}

/// Exit 2, nothing on stdout, one stderr line `error: ...`.
fn refused(args: &[String], o: &Output) -> Result<(), TestCaseError> {
    let e = String::from_utf8_lossy(&o.stderr);
    prop_assert_eq!(o.status.code(), Some(2), "{:?}: {}", args, e);
    prop_assert!(
        o.stdout.is_empty(),
        "{:?}: stdout {:?}",
        args,
        String::from_utf8_lossy(&o.stdout)
    );
    prop_assert!(e.starts_with("error: "), "{:?}: {}", args, e);
    prop_assert!(
        e.ends_with('\n') && e.trim_end().lines().count() == 1,
        "{:?}: {:?}",
        args,
        e
    );
    prop_assert!(!e.contains("panicked"), "{:?}: {}", args, e);
    Ok(())
}

/// Fast valid commands and which argument (by index) gets mangled.
const COMMANDS: &[(&[&str], usize)] = &[
    (
        &["curve", "--crc", "crc8", "--ber", "1e-3", "--bits", "40"],
        2,
    ),
    (
        &["curve", "--crc", "8", "--ber", "1e-3,1e-5", "--bits", "40"],
        4,
    ),
    (
        &["curve", "--crc", "8", "--ber", "1e-3", "--bits", "40:80:20"],
        6,
    ),
    (
        &["curve", "--crc", "k:0x83", "--ber", "1e-3", "--bits", "40"],
        2,
    ),
    (
        &[
            "curve",
            "--check",
            "fletcher16",
            "--bytes",
            "10",
            "--ber",
            "1e-3",
        ],
        2,
    ),
    (
        &[
            "curve", "--check", "internet", "--bytes", "1e1", "--ber", "1e-3",
        ],
        4,
    ),
    (
        &[
            "curve",
            "--crc",
            "8",
            "--bits",
            "40",
            "--burst",
            "1e-4,0.1,1e-3,0.2",
        ],
        6,
    ),
    (
        &[
            "compare",
            "--bytes",
            "16",
            "--ber",
            "1e-4",
            "--checks",
            "crc8,internet",
        ],
        6,
    ),
    (
        &[
            "compare", "--bytes", "16,32", "--ber", "1e-4", "--checks", "crc8",
        ],
        2,
    ),
    (&["hd", "--crc", "crc16-ccitt-false"], 2),
    (&["weights", "--crc", "crc8", "--bits", "24"], 2),
    (&["weights", "--crc", "crc8", "--bits", "24"], 4),
    (
        &[
            "simulate",
            "--frames",
            "1e3",
            "--bytes",
            "16",
            "--ber",
            "1e-2",
            "--seed",
            "1",
            "--no-exact",
        ],
        2,
    ),
    (
        &[
            "simulate",
            "--frames",
            "1e3",
            "--bytes",
            "16",
            "--ber",
            "1e-2",
            "--seed",
            "1",
            "--no-exact",
        ],
        6,
    ),
    (
        &[
            "simulate",
            "--frames",
            "1e3",
            "--bytes",
            "16",
            "--stack",
            "ethernet",
            "--ber",
            "1e-2",
            "--no-exact",
        ],
        6,
    ),
    (
        &[
            "simulate",
            "--frames",
            "1e3",
            "--bytes",
            "16",
            "--burst",
            "1e-4,0.1,1e-3,0.2",
            "--no-exact",
        ],
        6,
    ),
    (
        &[
            "simulate",
            "--frames",
            "1e3",
            "--bytes",
            "16",
            "--ber",
            "1e-2",
            "--payload",
            "pattern:00ff",
            "--no-exact",
        ],
        8,
    ),
    (&["stack", "--bytes", "64", "--ber", "1e-4"], 2),
    (
        &[
            "search", "--width", "8", "--bits", "20", "--ber", "1e-5", "--top", "2",
        ],
        2,
    ),
    (
        &[
            "search", "--width", "8", "--bits", "20", "--ber", "1e-5", "--top", "2",
        ],
        4,
    ),
];

/// Characters no valid number, polynomial, length list, BER list, burst,
/// stack, payload or catalogue name can hold wherever they are put (names
/// ignore punctuation, so only letters that no name has between its others).
const BAD: &[char] = &['q', 'Q', 'z', 'Z', 'ü', 'Ж', '😀', '\u{0}'];

#[test]
fn a_mangled_value_is_refused_in_one_line() {
    let mut runner = TestRunner::new(Config {
        cases: cases(120),
        failure_persistence: None,
        ..Config::default()
    });
    let strategy = (
        0..COMMANDS.len(),
        any::<prop::sample::Index>(),
        prop::sample::select(BAD),
        any::<bool>(),
    );
    runner
        .run(&strategy, |(c, at, bad, replace)| {
            let (cmd, i) = COMMANDS[c];
            let mut args = strs(cmd);
            let mut v: Vec<char> = args[i].chars().collect();
            if bad == '\u{0}' {
                // an empty value
                v.clear();
            } else if replace {
                let k = at.index(v.len());
                v[k] = bad;
            } else {
                v.insert(at.index(v.len() + 1), bad);
            }
            args[i] = v.into_iter().collect();
            refused(&args, &alias(&args))
        })
        .unwrap();
}

/// Arbitrary text for a value: refused in one line or, when it happens to be
/// valid, answered (never a panic or a message over several lines).
#[test]
fn arbitrary_text_in_any_value() {
    let mut runner = TestRunner::new(Config {
        cases: cases(48),
        failure_persistence: None,
        ..Config::default()
    });
    let strategy = (0..COMMANDS.len(), "\\PC{0,12}");
    runner
        .run(&strategy, |(c, text)| {
            let (cmd, i) = COMMANDS[c];
            let mut args = strs(cmd);
            args[i] = text;
            let o = alias(&args);
            if o.status.code() != Some(0) {
                refused(&args, &o)?;
            }
            Ok(())
        })
        .unwrap();
}

/// Mangles byte `at` of `text` with `delta`; `None` when that is not UTF-8.
fn mangled(text: &[u8], at: prop::sample::Index, delta: u8) -> Vec<u8> {
    let mut b = text.to_vec();
    let i = at.index(b.len());
    b[i] = b[i].wrapping_add(delta);
    b
}

fn run_ok(args: &[&str]) -> Output {
    let a = strs(args);
    let o = alias(&a);
    assert!(
        o.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&o.stderr)
    );
    o
}

/// A simulate shard file or checkpoint with any byte changed is refused by
/// `alias merge` and by `--resume`: never a wrong merge, never a panic.
#[test]
fn corrupt_shard_and_checkpoint_files_are_refused() {
    let d = tempfile::tempdir().unwrap();
    let run = [
        "simulate",
        "--frames",
        "2e3",
        "--bytes",
        "16",
        "--ber",
        "1e-2",
        "--seed",
        "5",
        "--threads",
        "1",
        "--no-exact",
    ];
    let files: Vec<String> = (1..=2)
        .map(|i| d.path().join(format!("s{i}.json")).display().to_string())
        .collect();
    for (i, f) in files.iter().enumerate() {
        let shard = format!("{}/2", i + 1);
        let mut a = run.to_vec();
        a.extend(["--shard", &shard, "--out", f, "--format", "json"]);
        run_ok(&a);
    }
    // the intact files merge
    run_ok(&[
        "merge",
        &files[0],
        &files[1],
        "--format",
        "json",
        "--no-exact",
    ]);
    let text = std::fs::read(&files[1]).unwrap();
    let bad = d.path().join("bad.json").display().to_string();
    let mut runner = TestRunner::new(Config {
        cases: cases(40),
        failure_persistence: None,
        ..Config::default()
    });
    runner
        .run(
            &(any::<prop::sample::Index>(), 1u8..=255, any::<bool>()),
            |(at, delta, resume)| {
                std::fs::write(&bad, mangled(&text, at, delta)).unwrap();
                let args = if resume {
                    strs(&["simulate", "--resume", &bad])
                } else {
                    strs(&["merge", &files[0], &bad, "--no-exact"])
                };
                refused(&args, &alias(&args))
            },
        )
        .unwrap();
}

/// An `alias search` shard file with any byte changed is refused by `--merge`.
#[test]
fn corrupt_search_shards_are_refused() {
    let d = tempfile::tempdir().unwrap();
    let q = [
        "search", "--width", "8", "--bits", "20", "--ber", "1e-5", "--top", "2", "--format", "csv",
    ];
    let files: Vec<String> = (1..=2)
        .map(|i| d.path().join(format!("q{i}.json")).display().to_string())
        .collect();
    for (i, f) in files.iter().enumerate() {
        let shard = format!("{}/2", i + 1);
        let mut a = q.to_vec();
        a.extend(["--shard", &shard, "--out", f]);
        run_ok(&a);
    }
    run_ok(&["search", "--merge", &files[0], &files[1]]);
    let text = std::fs::read(&files[0]).unwrap();
    let bad = d.path().join("qbad.json").display().to_string();
    let mut runner = TestRunner::new(Config {
        cases: cases(40),
        failure_persistence: None,
        ..Config::default()
    });
    runner
        .run(&(any::<prop::sample::Index>(), 1u8..=255), |(at, delta)| {
            std::fs::write(&bad, mangled(&text, at, delta)).unwrap();
            let args = strs(&["search", "--merge", &bad, &files[1]]);
            refused(&args, &alias(&args))
        })
        .unwrap();
}

/// `alias plot` on a JSON result with a byte changed: a picture or a
/// one-line refusal, never a panic.
#[test]
fn mangled_json_results_are_plotted_or_refused() {
    let d = tempfile::tempdir().unwrap();
    let docs = [
        run_ok(&[
            "curve",
            "--crc",
            "8",
            "--bits",
            "16,40",
            "--ber",
            "1e-3,1e-5",
            "--format",
            "json",
        ])
        .stdout,
        run_ok(&[
            "compare",
            "--bytes",
            "8,16",
            "--ber",
            "1e-4",
            "--checks",
            "crc8,internet",
            "--format",
            "json",
        ])
        .stdout,
        run_ok(&[
            "simulate",
            "--frames",
            "1e3",
            "--bytes",
            "16",
            "--ber",
            "1e-2",
            "--format",
            "json",
            "--no-exact",
        ])
        .stdout,
    ];
    let input = d.path().join("doc.json").display().to_string();
    let out = d.path().join("doc.svg").display().to_string();
    let mut runner = TestRunner::new(Config {
        cases: cases(48),
        failure_persistence: None,
        ..Config::default()
    });
    runner
        .run(
            &(0..docs.len(), any::<prop::sample::Index>(), 1u8..=255),
            |(d, at, delta)| {
                std::fs::write(&input, mangled(&docs[d], at, delta)).unwrap();
                let args = strs(&["plot", &input, "-o", &out]);
                let o = alias(&args);
                if o.status.code() != Some(0) {
                    refused(&args, &o)?;
                }
                Ok(())
            },
        )
        .unwrap();
}
