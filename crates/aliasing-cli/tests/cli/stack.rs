//! End-to-end tests of `alias stack`: the JSON document, shards merged bit
//! for bit (table and JSON, by `alias merge` and `alias stack --merge`), bad
//! input.

use crate::util::{alias, stderr};
use std::path::Path;

fn ok(args: &[&str]) -> Vec<u8> {
    let o = alias(args);
    assert!(o.status.success(), "{args:?}: {}", stderr(&o));
    o.stdout
}

fn assert_bad(args: &[&str], want: &str) {
    let o = alias(args);
    let e = stderr(&o);
    assert_eq!(o.status.code(), Some(2), "{args:?}: {e}");
    assert!(o.stdout.is_empty(), "{args:?}");
    assert!(!e.contains("panicked"), "{args:?}: {e}");
    assert!(e.starts_with("error: "), "{args:?}: {e}");
    assert_eq!(e.trim_end().lines().count(), 1, "{args:?}: {e}");
    assert!(e.contains(want), "{args:?}: expected {want:?} in {e}");
}

/// 300 bytes: weights 4-5 exact, weight 6 sampled where the bracket is
/// wide. (One length: each report computes the CRC-32's dual code, about
/// 4 s of CPU.)
const RUN: [&str; 8] = [
    "stack",
    "--bytes",
    "300",
    "--ber",
    "1e-4,1e-7",
    "--samples",
    "4000",
    "--seed=3",
];

/// The same merge on a 16-bit stack (IPv4, TCP, CRC-16/ARC) at 120 bytes:
/// weight 4 exact, weight 6 sampled at 1e-7, the bracket alone at 1e-2;
/// a report takes about 0.15 s of CPU against the CRC-32's 4 s.
const RUN16: [&str; 10] = [
    "stack",
    "--stack",
    "ipv4-tcp+CRC-16/ARC",
    "--bytes",
    "120",
    "--ber",
    "1e-2,1e-7",
    "--samples",
    "4000",
    "--seed=3",
];

fn with<'a>(extra: &[&'a str]) -> Vec<&'a str> {
    with_run(&RUN, extra)
}

fn with_run<'a>(run: &[&'a str], extra: &[&'a str]) -> Vec<&'a str> {
    let mut a: Vec<&str> = run.to_vec();
    a.extend(extra);
    a
}

/// The shards of a 16-bit stack's run; the CRC-32's (six runs of its dual
/// code, about 25 s of CPU) under `ALIAS_TESTS=full`.
#[test]
fn shards_merge_to_the_single_run_bit_for_bit() {
    shards_merge(&RUN16);
    if crate::util::full_tier() {
        shards_merge(&RUN);
    }
}

fn shards_merge(run: &[&str]) {
    let with = |extra: &[&str]| -> Vec<String> {
        with_run(run, extra)
            .into_iter()
            .map(str::to_string)
            .collect()
    };
    let ok = |a: &[String]| ok(&a.iter().map(String::as_str).collect::<Vec<_>>());
    let dir = tempfile::tempdir().unwrap();
    let p = |s: &str| dir.path().join(s).display().to_string();
    let json = ok(&with(&["--format", "json"]));
    let v: serde_json::Value = serde_json::from_slice(&json).unwrap();
    let pts = v["points"].as_array().unwrap();
    assert_eq!(pts.len(), 2);
    for pt in pts {
        let j = &pt["joint"];
        let (lo, hi) = (j["low"].as_f64().unwrap(), j["high"].as_f64().unwrap());
        match j["estimate"].as_f64() {
            Some(est) => assert!(lo <= est && est <= hi, "{pt}"),
            None => assert!(j["method"].as_str().unwrap().starts_with("bracket only")),
        }
        assert_eq!(pt["checks"].as_array().unwrap().len(), 3);
        for t in pt["terms"].as_array().unwrap() {
            let (w, s) = (
                t["weight"].as_u64().unwrap(),
                t["pass_sum"].as_f64().unwrap(),
            );
            let c = t["contribution"].as_f64().unwrap();
            let n = pt["bits"].as_f64().unwrap();
            let ber = pt["ber"].as_f64().unwrap();
            let want = s * ber.powi(w as i32) * (1.0 - ber).powf(n - w as f64);
            assert!((c - want).abs() <= 1e-12 * want.max(1e-300), "{t}");
        }
    }
    // at the higher BER the bracket is wide (and for the CRC-32 weight 6
    // is sampled), but the certified remainder exceeds the exact terms:
    // the bracket alone; at 1e-7 weight 6 is sampled and estimated
    assert!(pts[0]["joint"]["estimate"].is_null(), "{}", pts[0]);
    assert!(pts[1]["joint"]["estimate"].as_f64().is_some(), "{}", pts[1]);
    assert!(
        pts[1]["terms"]
            .as_array()
            .unwrap()
            .iter()
            .any(|t| t["weight"] == 6),
        "{}",
        pts[1]
    );
    let files: Vec<String> = (1..=3).map(|i| p(&format!("s{i}.json"))).collect();
    for (i, f) in files.iter().enumerate() {
        let shard = format!("{}/3", i + 1);
        let out = ok(&with(&["--shard", &shard, "--out", f]));
        assert!(out.is_empty(), "a shard prints nothing");
    }
    let merged = |extra: &[&str]| {
        let mut a = vec!["merge", &files[2], &files[0], &files[1]];
        a.extend(extra);
        self::ok(&a)
    };
    assert_eq!(merged(&["--format", "json"]), json);
    // a whole run into a file (every draw made) prints the table of the merged shards
    let whole = p("whole.json");
    let table = ok(&with(&["--out", &whole]));
    assert_eq!(
        self::ok(&["stack", "--merge", &files[0], &files[1], &files[2]]),
        table
    );
    // refusals, one line each
    assert_bad(&["merge", &files[0], &files[0], &files[1]], "twice");
    assert_bad(&["merge", &files[0], &files[1]], "missing");
    let other = p("other.json");
    let mut seed4 = with(&["--shard", "3/3", "--out", &other]);
    for a in &mut seed4 {
        if a == "--seed=3" {
            *a = "--seed=4".into();
        }
    }
    ok(&seed4);
    assert_bad(&["merge", &files[0], &files[1], &other], "other parameters");
    let text = std::fs::read_to_string(&files[1]).unwrap();
    let edited = p("edited.json");
    std::fs::write(&edited, text.replacen("\"seed\": 3", "\"seed\": 5", 1)).unwrap();
    assert_bad(&["merge", &files[0], &edited, &files[2]], "checksum");
}

#[test]
fn bad_input_is_refused_before_any_work() {
    assert_bad(&with(&["--shard", "2/3"]), "--out");
    assert_bad(&with(&["--shard", "4/3", "--out", "x.json"]), "--shard");
    assert_bad(&["stack", "--bytes", "20", "--ber", "1e-5"], "bytes");
    assert_bad(&["stack", "--bytes", "64", "--ber", "0.7"], "0.5");
    assert_bad(
        &[
            "stack",
            "--bytes",
            "64",
            "--ber",
            "1e-5",
            "--max-weight",
            "7",
        ],
        "2 to 5",
    );
    assert!(!Path::new("x.json").exists());
}

fn json(args: &[&str]) -> serde_json::Value {
    serde_json::from_slice(&ok(args)).unwrap()
}

/// A stack a user describes: `alias stack` and plain Monte Carlo by
/// `alias simulate` read the same layout and agree. Random data, its
/// Internet checksum and CRC-8/SAE-J1850 in 21 bytes at BER 0.01, where
/// joint escapes are countable (about 60 in 2e7 frames, the full tier; 14
/// in the test command's 5e6) and the enumerated weights do not dominate:
/// the bracket alone is reported (no estimate) and the simulator's 95%
/// interval meets it. At BER 0.5 the exact value (the
/// words that pass, counted) is `2^-8 (1/65535)` to 9 digits; at BER 0 every
/// value is 0 at once.
#[test]
fn a_user_stack_agrees_with_the_simulator() {
    let stack = "internet+CRC-8/SAE-J1850";
    let v = json(&[
        "stack",
        "--stack",
        stack,
        "--bytes",
        "21",
        "--ber",
        "0,0.01,0.5",
        "--samples",
        "10000",
        "--format",
        "json",
    ]);
    assert_eq!(v["stack"], stack);
    let pt = &v["points"][1];
    let names: Vec<&str> = pt["checks"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["Internet", "CRC-8/SAE-J1850"]);
    let j = &pt["joint"];
    let (low, high) = (j["low"].as_f64().unwrap(), j["high"].as_f64().unwrap());
    assert!(j["estimate"].is_null(), "{j}");
    assert!(pt["ratio"].is_null(), "{pt}");
    assert!(
        j["method"].as_str().unwrap().starts_with("bracket only"),
        "{j}"
    );
    assert!(0.0 < low && low <= high, "{j}");
    let zero = &v["points"][0];
    assert_eq!(zero["joint"]["estimate"], 0.0);
    assert_eq!(zero["independence_product"], 0.0);
    let half = &v["points"][2]["joint"];
    let e = half["estimate"].as_f64().unwrap();
    assert!((e * 256.0 * 65535.0 - 1.0).abs() < 1e-9, "{half}");
    assert_eq!(
        (half["low"].as_f64(), half["high"].as_f64()),
        (Some(e), Some(e))
    );
    let (frames, least) = if crate::util::full_tier() {
        ("2e7", 30)
    } else {
        ("5e6", 10)
    };
    let s = json(&[
        "simulate", "--stack", stack, "--bytes", "21", "--ber", "0.01", "--frames", frames,
        "--seed", "1", "--format", "json",
    ]);
    assert_eq!(s["params"]["stack"], stack);
    let st = &s["stack"];
    let (escapes, ci_low, ci_high) = (
        st["escapes"].as_u64().unwrap(),
        st["ci_low"].as_f64().unwrap(),
        st["ci_high"].as_f64().unwrap(),
    );
    assert!(escapes >= least, "{st}");
    assert!(ci_low <= high && low <= ci_high, "{st} vs {j}");
}

/// BER 0 answers at once with zeros, never NaN, even for a frame whose
/// joint computation takes seconds at other BERs.
#[test]
fn ber_zero_prints_zeros_at_once() {
    let t = std::time::Instant::now();
    let out = String::from_utf8(ok(&["stack", "--bytes", "1518", "--ber", "0"])).unwrap();
    assert!(t.elapsed().as_secs_f64() < 5.0, "{:?}", t.elapsed());
    assert!(!out.contains("NaN"), "{out}");
    let row = out.lines().last().unwrap();
    let cols: Vec<&str> = row.split_whitespace().collect();
    assert_eq!(
        cols,
        ["1518", "0", "0", "0", "0", "0", "0", "0", "-"],
        "{out}"
    );
}

#[test]
fn bad_stack_descriptions_are_refused_in_one_line() {
    let run = |stack: &'static str| ["stack", "--stack", stack, "--bytes", "64", "--ber", "1e-5"];
    assert_bad(&run("ipv6+crc16"), "unknown inner layout `ipv6`");
    assert_bad(&run("tcp+crc99x"), "unknown CRC after `+`");
    assert_bad(&run("tcp+internet"), "not a CRC");
    assert_bad(
        &[
            "stack",
            "--stack",
            "ipv4-tcp+crc32",
            "--bytes",
            "43",
            "--ber",
            "1e-5",
        ],
        "needs at least 44 bytes",
    );
    // the simulator runs this one; the joint computation says why not
    assert_bad(&run("fletcher16+crc16"), "Internet checksums only");
    let sim = |stack: &'static str| {
        [
            "simulate", "--stack", stack, "--bytes", "64", "--ber", "1e-3", "--frames", "1e3",
        ]
    };
    assert_bad(&sim("ipv6+crc16"), "unknown inner layout `ipv6`");
    assert_bad(
        &[
            "simulate",
            "--stack",
            "internet+crc16",
            "--bytes",
            "63",
            "--frames",
            "1e3",
        ],
        "even number of bytes",
    );
    ok(&sim("fletcher16+crc16"));
}

/// The rare-event estimator reads a described stack too (one CRC plus
/// Internet checksums: Rao-Blackwellised with the same exact pass
/// probabilities), and its 95% interval meets the joint's.
#[test]
fn rare_events_on_a_user_stack_agree_with_the_joint_bracket() {
    let stack = "ipv4-tcp+CRC-16/ARC";
    let v = json(&[
        "stack", "--stack", stack, "--bytes", "120", "--ber", "1e-4", "--format", "json",
    ]);
    let j = &v["points"][0]["joint"];
    let (low, high) = (j["low"].as_f64().unwrap(), j["high"].as_f64().unwrap());
    let r = json(&[
        "simulate",
        "--rare",
        "--stack",
        stack,
        "--bytes",
        "120",
        "--ber",
        "1e-4",
        "--samples",
        "1e5",
        "--seed",
        "1",
        "--format",
        "json",
    ]);
    let s = &r["result"]["stack"];
    let (ci_low, ci_high) = (
        s["ci_low"].as_f64().unwrap(),
        s["ci_high"].as_f64().unwrap(),
    );
    assert!(low > 0.0 && ci_low <= high && low <= ci_high, "{s} vs {j}");
    assert!(s["rel_std_err"].as_f64().unwrap() < 0.01, "{s}");
}

/// The small stack request of the shard-file and checkpoint tests (the
/// fixtures were written from it, with `--seed 3`).
const SMALL_STACK: &[&str] = &[
    "stack",
    "--stack",
    "internet+CRC-16/ARC",
    "--bytes",
    "22,42",
    "--ber",
    "1e-3,1e-5",
    "--max-weight",
    "4",
    "--samples",
    "200",
];

/// Stack shard files written before stack runs went through the generic
/// session (`aliasing_sim::session::Session`; the fixtures were written by
/// `alias stack --stack internet+CRC-16/ARC --bytes 22,42 --ber 1e-3,1e-5
/// --max-weight 4 --samples 200 --seed 3 --shard I/2 --out` of that code)
/// still merge, to the single run's document.
#[test]
fn old_stack_shard_files_still_merge() {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures");
    let files: Vec<String> = (1..=2)
        .map(|i| format!("{dir}/stack-shard-{i}of2.json"))
        .collect();
    let run = [SMALL_STACK, &["--seed", "3", "--format", "json"]].concat();
    let whole = ok(&run);
    let merged = ok(&["merge", &files[1], &files[0], "--format", "json"]);
    assert_eq!(merged, whole);
    let v: serde_json::Value = serde_json::from_slice(&whole).unwrap();
    assert_eq!(v["points"].as_array().unwrap().len(), 4);
    assert_eq!(
        ok(&["stack", "--merge", &files[0], &files[1], "--format", "json"]),
        whole
    );
}

/// `--checkpoint`: the run goes through the generic session, which
/// rewrites the file and leaves the finished shard there; a checkpoint
/// already there is continued (a finished one at once, to the same
/// document), one of other parameters or another shard is refused, and
/// the file merges as a whole run's result.
#[test]
fn a_checkpoint_is_written_and_continued() {
    let dir = tempfile::tempdir().unwrap();
    let cp = dir.path().join("cp.json").display().to_string();
    let run = [SMALL_STACK, &["--format", "json"]].concat();
    let with_cp = |extra: &[&str]| -> Vec<String> {
        let mut a: Vec<String> = run.iter().map(|s| s.to_string()).collect();
        a.extend(
            ["--checkpoint", &cp]
                .iter()
                .chain(extra)
                .map(|s| s.to_string()),
        );
        a
    };
    let ok = |a: &[String]| ok(&a.iter().map(String::as_str).collect::<Vec<_>>());
    let bad =
        |a: &[String], want| assert_bad(&a.iter().map(String::as_str).collect::<Vec<_>>(), want);
    let whole = ok(&run.iter().map(|s| s.to_string()).collect::<Vec<_>>());
    assert_eq!(ok(&with_cp(&[])), whole);
    assert!(
        std::fs::read_to_string(&cp)
            .unwrap()
            .contains("\"complete\": true")
    );
    assert_eq!(ok(&with_cp(&[])), whole, "continued");
    assert_eq!(
        ok(&["merge", &cp, "--format", "json"].map(String::from)),
        whole
    );
    bad(&with_cp(&["--seed", "4"]), "seed: 1 there, 4 given");
    let out = dir.path().join("s.json").display().to_string();
    bad(
        &with_cp(&["--shard", "1/2", "--out", &out]),
        "is for shard 1/1",
    );
    bad(&with_cp(&["--out", &cp]), "name the same file");
}
