//! End-to-end tests of `alias curve`: notations, formats, bad input.

use crate::util::{alias, stderr, stdout};
use std::process::{Command, Output};

fn alias_env(args: &[&str], key: &str, val: &str) -> Output {
    Command::new(env!("CARGO_BIN_EXE_alias"))
        .args(args)
        .env(key, val)
        .output()
        .expect("run alias")
}

fn json(args: &[&str]) -> serde_json::Value {
    let mut a = args.to_vec();
    a.extend(["--format", "json"]);
    let o = alias(&a);
    assert!(o.status.success(), "{args:?}: {}", stderr(&o));
    serde_json::from_str(&stdout(&o)).expect("one JSON document")
}

#[test]
fn default_table() {
    let o = alias(&["curve", "--crc", "16", "--ber", "1e-5"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let s = stdout(&o);
    for want in [
        "primitive-16",
        "full 0x1002D",
        "Koopman 0x8016",
        "default set: 512 bits",
        "P(undetected)",
        "P(alias|error)/2^-16",
    ] {
        assert!(s.contains(want), "missing {want:?} in\n{s}");
    }
    // One row per default length, with bits and data bits.
    let rows: Vec<&str> = s.lines().filter(|l| l.starts_with("1e-5")).collect();
    assert_eq!(rows.len(), 12, "{s}");
    assert!(
        rows.iter()
            .any(|r| r.split_whitespace().take(3).eq(["1e-5", "12144", "12128"]))
    );
}

#[test]
fn every_notation_gives_the_same_curve() {
    // The CRC-16/ARC polynomial x^16 + x^15 + x^2 + 1 in each notation.
    let specs = [
        "CRC-16/ARC",
        "crc-16/arc",
        "0x18005",
        "16:0x8005",
        "k:0xC002",
        "r16:0xA001",
    ];
    let base = json(&[
        "curve", "--crc", specs[0], "--ber", "1e-3", "--bits", "40,100",
    ]);
    assert_eq!(base["check"]["full"], "0x18005");
    assert_eq!(base["check"]["koopman"], "0xC002");
    assert_eq!(base["check"]["width"], 16);
    for spec in &specs[1..] {
        let v = json(&["curve", "--crc", spec, "--ber", "1e-3", "--bits", "40,100"]);
        assert_eq!(v["check"]["full"], base["check"]["full"], "{spec}");
        assert_eq!(v["points"], base["points"], "{spec}");
    }
}

#[test]
fn json_document() {
    let v = json(&[
        "curve",
        "--crc",
        "crc16-ccitt",
        "--ber",
        "0.5,1e-6",
        "--bits",
        "20,17",
        "--method",
        "markov",
    ]);
    assert_eq!(v["method"], "markov");
    assert_eq!(v["kind"], "curve");
    assert_eq!(v["schema"], 1);
    assert!(v.get("crc").is_none());
    assert!(v["check"]["name"].as_str().unwrap().contains("CRC-16"));
    let pts = v["points"].as_array().unwrap();
    assert_eq!(pts.len(), 4);
    let keys = [
        "ber",
        "bits",
        "data_bits",
        "p_error",
        "p_undetected",
        "p_alias_given_error",
    ];
    for pt in pts {
        let obj = pt.as_object().unwrap();
        assert_eq!(obj.len(), keys.len());
        for k in keys {
            assert!(obj.contains_key(k), "{k}");
        }
    }
    // BER-major, lengths ascending; full f64 precision:
    // P_ud(p = 1/2) = 2^-16 - 2^-n exactly.
    assert_eq!(pts[0]["ber"], 0.5);
    assert_eq!(pts[0]["bits"], 17);
    assert_eq!(pts[1]["bits"], 20);
    assert_eq!(pts[1]["data_bits"], 4);
    assert_eq!(
        pts[1]["p_undetected"].as_f64().unwrap(),
        2f64.powi(-16) - 2f64.powi(-20)
    );
    assert_eq!(pts[2]["ber"], 1e-6);
}

#[test]
fn csv_and_bytes() {
    let o = alias(&[
        "curve",
        "--crc",
        "CRC-8/SMBUS",
        "--ber",
        "1e-5,1e-4",
        "--bytes",
        "64,2:4:1",
        "--format",
        "csv",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let s = stdout(&o);
    let lines: Vec<&str> = s.lines().collect();
    assert_eq!(
        lines[0],
        "ber,bits,data_bits,P(error),P(undetected),P(alias|error),P(alias|error)/2^-8"
    );
    assert_eq!(lines.len(), 1 + 2 * 4);
    let first: Vec<&str> = lines[1].split(',').collect();
    assert_eq!(&first[..3], &["1e-5", "16", "8"]);
    let last: Vec<&str> = lines[8].split(',').collect();
    assert_eq!(&last[..3], &["1e-4", "512", "504"]);
}

#[test]
fn output_file_is_written_atomically() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("curve.json");
    let f = file.to_str().unwrap();
    let o = alias(&[
        "curve", "--crc", "crc8", "--bits", "100", "--ber", "1e-3", "--format", "json", "-o", f,
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(o.stdout.is_empty());
    let v: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&file).unwrap()).unwrap();
    assert_eq!(v["points"][0]["bits"], 100);
    // A failing run leaves no file behind.
    let bad = dir.path().join("bad.json");
    let o = alias(&[
        "curve",
        "--crc",
        "crc8",
        "--ber",
        "2",
        "-o",
        bad.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert!(!bad.exists());
    let left: Vec<_> = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert_eq!(left.len(), 1, "{left:?}");
}

fn assert_bad(args: &[&str], want: &str) {
    let o = alias(args);
    check_bad(&o, args, want);
}

fn check_bad(o: &Output, args: &[&str], want: &str) {
    let e = stderr(o);
    assert_eq!(o.status.code(), Some(2), "{args:?}: {e}");
    assert!(o.stdout.is_empty(), "{args:?}");
    assert!(!e.contains("panicked"), "{args:?}: {e}");
    assert!(e.starts_with("error: "), "{args:?}: {e}");
    assert_eq!(e.trim_end().lines().count(), 1, "{args:?}: {e}");
    assert!(e.contains(want), "{args:?}: expected {want:?} in {e}");
}

#[test]
fn bad_input_is_one_line_and_exit_2() {
    let cases: &[(&[&str], &str)] = &[
        (&["curve", "--crc", "crc-99/nothing"], "unknown CRC"),
        (&["curve", "--crc", "0xZZ"], "invalid polynomial"),
        (&["curve", "--crc", "0"], "width 0 is outside 1..=64"),
        (&["curve", "--crc", "65"], "outside 1..=64"),
        (&["curve", "--crc", "0x100000000000000001"], "over 64"),
        (&["curve", "--crc", "16", "--ber", "1.5"], "outside [0, 1]"),
        (&["curve", "--crc", "16", "--ber", "-0.1"], "outside [0, 1]"),
        (&["curve", "--crc", "16", "--ber", "abc"], "not a number"),
        (&["curve", "--crc", "16", "--ber", "1e-5,"], "empty item"),
        (&["curve", "--crc", "16", "--bits", ""], "invalid length"),
        (&["curve", "--crc", "16", "--bits", "-5"], "negative"),
        (&["curve", "--crc", "16", "--bits", "0"], "zero"),
        (
            &["curve", "--crc", "16", "--bits", "16"],
            "too short for a 16-bit check",
        ),
        (&["curve", "--crc", "16", "--bytes", "2"], "too short"),
        (
            // auto answers a 40-bit CRC with the certified bracket; markov
            // itself is refused for memory before any work.
            &[
                "curve", "--crc", "40", "--ber", "1e-5", "--method", "markov",
            ],
            "needs about 8.0 TiB",
        ),
    ];
    for (args, want) in cases {
        assert_bad(args, want);
    }
    let args = [
        "curve", "--crc", "16", "--ber", "1e-5", "--method", "markov",
    ];
    let o = alias_env(&args, "ALIAS_MEMORY_LIMIT", "1M");
    check_bad(&o, &args, "over the limit of 1.0 MiB");
    let o = alias_env(&args, "ALIAS_MEMORY_LIMIT", "lots");
    check_bad(&o, &args, "ALIAS_MEMORY_LIMIT");
}

#[test]
fn usage_errors_exit_2() {
    for args in [
        &["curve"][..],
        &["curve", "--crc", "16", "--bits", "100", "--bytes", "100"],
        &["curve", "--crc", "16", "--method", "magic"],
        &["curve", "--crc", "16", "--format", "xml"],
    ] {
        let o = alias(args);
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        assert!(!stderr(&o).contains("panicked"));
    }
}

#[test]
fn checksums_methods_and_plots() {
    // --check internet goes through the exact checksum model, bits = 8 x bytes.
    let v = json(&[
        "curve", "--check", "internet", "--bytes", "64,1500", "--ber", "1.5e-5",
    ]);
    assert_eq!(v["check"]["name"], "Internet");
    assert_eq!(v["check"]["width"], 16);
    assert_eq!(v["points"][1]["bits"], 12000);
    let a = v["points"][1]["p_alias_given_error"].as_f64().unwrap();
    assert!(a > 1e-3 && a < 1e-2, "{a}");
    // dual and markov agree on a 16-bit CRC, and auto names what it used.
    let args = |m: &'static str| {
        [
            "curve",
            "--crc",
            "crc16-ccitt",
            "--bits",
            "100,1000",
            "--ber",
            "1e-6,0.25",
            "--method",
            m,
        ]
    };
    let d = json(&args("dual"));
    let m = json(&args("markov"));
    assert_eq!(d["method"], "dual");
    for (x, y) in d["points"]
        .as_array()
        .unwrap()
        .iter()
        .zip(m["points"].as_array().unwrap())
    {
        let (x, y) = (
            x["p_undetected"].as_f64().unwrap(),
            y["p_undetected"].as_f64().unwrap(),
        );
        assert!((x - y).abs() <= 1e-12 * y, "{x} {y}");
    }
    let a = json(&args("auto"));
    assert!(a["method"] == "dual" || a["method"] == "markov");
    // --method is for CRCs; lengths for checksums are whole bytes.
    assert_bad(
        &[
            "curve", "--check", "internet", "--bytes", "64", "--method", "dual",
        ],
        "--method",
    );
    assert_bad(
        &["curve", "--check", "internet", "--bits", "100"],
        "whole number of bytes",
    );
    // --plot writes the picture beside the table.
    let dir = tempfile::tempdir().unwrap();
    let png = dir.path().join("c.png");
    let o = alias(&[
        "curve",
        "--crc",
        "crc8",
        "--bits",
        "64,128",
        "--ber",
        "1e-3",
        "--plot",
        png.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(std::fs::metadata(&png).unwrap().len() > 1000);
    assert_bad(
        &["curve", "--crc", "crc8", "--bits", "64", "--plot", "x.gif"],
        "gif",
    );
}

/// `curve --burst` against `simulate --burst` on the same channel (seeded):
/// the exact P(undetected) must lie in the simulation's 95% interval and the
/// exact P(error) within 5 sigma of the simulated share of errored frames.
/// A reflected CRC, so the simulator's wire order (LSB first) is the order
/// the register reads the bits.
#[test]
fn burst_curve_agrees_with_simulate_burst() {
    for (ch, seed) in [("1e-3,0.3,0.01,0.1", "3"), ("0,0.5,0.002,0.05", "5")] {
        let exact = json(&[
            "curve",
            "--crc",
            "CRC-8/MAXIM-DOW",
            "--bits",
            "128",
            "--burst",
            ch,
        ]);
        assert_eq!(exact["channel"]["model"], "gilbert-elliott");
        assert_eq!(exact["method"], "markov");
        let pt = &exact["points"][0];
        let (pud, perr) = (
            pt["p_undetected"].as_f64().unwrap(),
            pt["p_error"].as_f64().unwrap(),
        );
        let o = alias(&[
            "simulate",
            "--stack",
            "CRC-8/MAXIM-DOW",
            "--bytes",
            "16",
            "--burst",
            ch,
            "--frames",
            "1e6",
            "--seed",
            seed,
            "--format",
            "json",
        ]);
        assert!(o.status.success(), "{}", stderr(&o));
        let sim: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
        let c = &sim["checks"][0];
        let (lo, hi) = (
            c["ci_low"].as_f64().unwrap(),
            c["ci_high"].as_f64().unwrap(),
        );
        assert!(
            lo <= pud && pud <= hi,
            "{ch}: exact {pud} outside [{lo}, {hi}]"
        );
        let frames = sim["frames"].as_f64().unwrap();
        let share = sim["frames_with_error"].as_f64().unwrap() / frames;
        let sigma = (perr * (1.0 - perr) / frames).sqrt();
        assert!(
            (share - perr).abs() < 5.0 * sigma,
            "{ch}: {share} vs {perr}"
        );
    }
}

#[test]
fn burst_refusals_are_one_line() {
    for (args, needle) in [
        (
            vec!["--crc", "32", "--burst", "1e-6,0.3,1e-4,0.05"],
            "alias simulate",
        ),
        (
            vec!["--crc", "16", "--burst", "1e-6,0.3,1e-4"],
            "four numbers",
        ),
        (
            vec!["--crc", "16", "--burst", "1e-6,1.3,1e-4,0.1"],
            "bad-state BER",
        ),
        (vec!["--crc", "16", "--burst", "0.1,0.3,0,0"], "both be 0"),
        (
            vec![
                "--crc",
                "16",
                "--burst",
                "1e-6,0.3,1e-4,0.05",
                "--method",
                "dual",
            ],
            "--method: the dual-code method does not take a burst channel",
        ),
    ] {
        let mut a = vec!["curve"];
        a.extend(args);
        let o = alias(&a);
        assert_eq!(o.status.code(), Some(2), "{a:?}");
        let e = stderr(&o);
        assert_eq!(e.trim_end().lines().count(), 1, "{e}");
        assert!(e.starts_with("error: ") && e.contains(needle), "{e}");
        assert!(o.stdout.is_empty());
    }
}

#[test]
fn auto_answers_a_ber_above_one_half_with_the_chain() {
    // The dual code handles BERs up to 1/2 only; auto must not pick it.
    let v = json(&["curve", "--crc", "16", "--ber", "0.7", "--bits", "3000"]);
    assert_eq!(v["method"], "markov");
    let ratio = v["points"][0]["p_alias_given_error"].as_f64().unwrap() * 65536.0;
    assert!((ratio - 1.0).abs() < 1e-6, "{v}");
}

#[test]
fn memory_flag_is_the_budget() {
    let args = ["curve", "--crc", "16", "--ber", "1e-5", "--memory", "1K"];
    let o = alias(&args);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("over the limit of 1.0 KiB"),
        "{}",
        stderr(&o)
    );
    let o = alias(&["curve", "--crc", "16", "--ber", "1e-5", "--memory", "lots"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).starts_with("error: --memory `lots`"),
        "{}",
        stderr(&o)
    );
    // The flag wins over the environment variable.
    let o = alias_env(
        &[
            "curve", "--crc", "16", "--ber", "1e-5", "--bits", "100", "--memory", "1G",
        ],
        "ALIAS_MEMORY_LIMIT",
        "1K",
    );
    assert!(o.status.success(), "{}", stderr(&o));
}

/// A 16-bit CRC under bursts: `simulate --burst` prints the exact escape
/// (the product chain over its syndrome table in wire order), equal to
/// `curve --burst` for the whole-frame codeword, and inside the simulated
/// 95% interval.
#[test]
fn simulate_burst_prints_the_exact_escape_of_a_16_bit_crc() {
    let ch = "0,0.5,0.002,0.05";
    let exact = json(&[
        "curve",
        "--crc",
        "CRC-16/ARC",
        "--bits",
        "128",
        "--burst",
        ch,
    ]);
    let pud = exact["points"][0]["p_undetected"].as_f64().unwrap();
    let o = alias(&[
        "simulate",
        "--stack",
        "CRC-16/ARC",
        "--bytes",
        "16",
        "--burst",
        ch,
        "--frames",
        "1e7",
        "--seed",
        "5",
        "--format",
        "json",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let sim: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    let c = &sim["checks"][0];
    let printed = c["exact"]
        .as_f64()
        .expect("an exact value for a 16-bit CRC");
    assert!(
        (printed - pud).abs() <= 1e-12 * pud,
        "simulate's exact {printed} vs curve's {pud}"
    );
    assert_eq!(sim["stack"]["exact"], c["exact"]);
    let (lo, hi) = (
        c["ci_low"].as_f64().unwrap(),
        c["ci_high"].as_f64().unwrap(),
    );
    assert!(c["escapes"].as_u64().unwrap() >= 10);
    assert!(lo <= pud && pud <= hi, "exact {pud} outside [{lo}, {hi}]");
}
