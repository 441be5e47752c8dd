//! End-to-end tests of `alias transfer`: bad input refused in one line
//! before any work, the JSON document's shape and its agreement with
//! `alias stack`, kept tallies reused and checked, `--payload`, `--plot`.
//! Small frames under a CRC-16 so the debug build answers in seconds.

use crate::util::{alias, stderr};
use std::time::Instant;

fn ok(args: &[&str]) -> Vec<u8> {
    let o = alias(args);
    assert!(o.status.success(), "{args:?}: {}", stderr(&o));
    o.stdout
}

fn assert_bad(args: &[&str], want: &str) {
    let t = Instant::now();
    let o = alias(args);
    let e = stderr(&o);
    assert_eq!(o.status.code(), Some(2), "{args:?}: {e}");
    assert!(o.stdout.is_empty(), "{args:?}");
    assert!(!e.contains("panicked"), "{args:?}: {e}");
    assert!(e.starts_with("error: "), "{args:?}: {e}");
    assert_eq!(e.trim_end().lines().count(), 1, "{args:?}: {e}");
    assert!(e.contains(want), "{args:?}: expected {want:?} in {e}");
    // refused before any work (a 9018-byte CRC-32 frame takes minutes here)
    assert!(
        t.elapsed().as_secs_f64() < 10.0,
        "{args:?}: {:?}",
        t.elapsed()
    );
}

/// A CRC-16 stack, 202-byte frames, weights up to 4, no draws.
const SMALL: [&str; 9] = [
    "transfer",
    "--stack",
    "ipv4-tcp+CRC-16/ARC",
    "--mtu",
    "200",
    "--max-weight",
    "4",
    "--samples",
    "0",
];

fn with<'a>(extra: &[&'a str]) -> Vec<&'a str> {
    let mut a: Vec<&str> = SMALL.to_vec();
    a.extend(extra);
    a
}

fn json(args: &[&str]) -> serde_json::Value {
    serde_json::from_slice(&ok(args)).unwrap()
}

#[test]
fn bad_input_is_refused_before_work() {
    let big = |extra: &[&str]| -> Vec<String> {
        let mut a: Vec<String> = ["transfer", "--mtu", "1500,9000", "--ber", "1e-6"]
            .iter()
            .map(|s| s.to_string())
            .collect();
        a.extend(extra.iter().map(|s| s.to_string()));
        a
    };
    let dir = tempfile::tempdir().unwrap();
    let folder = dir.path().display().to_string();
    for (extra, want) in [
        (vec!["--size", "0"], "0 bytes"),
        (vec!["--size", "18446744073709551617"], "2^64"),
        (vec!["--size", "17EiB"], "2^64"),
        (vec!["--size", "-5GB"], "negative"),
        (vec!["--size", "10XB"], "unknown unit"),
        (vec!["--size", "1TB", "--hops", "0"], "0 hops"),
        (vec!["--size", "1TB", "--hops", "300"], "300 hops"),
        (
            vec!["--size", "1TB", "--burst", "1e-6,0.1,1e-4,0.1"],
            "cannot be used with",
        ),
        (vec!["--size", "1TB", "--stack", "tcp"], "IPv4 and TCP"),
        (vec!["--size", "1TB", "--max-weight", "7"], "max-weight"),
        (vec!["--payload", "/dev/null"], "not a regular file"),
        (vec!["--payload", &folder], "is a folder"),
        (vec!["--payload", "/no/such/file"], "cannot read --payload"),
        (vec![], "--size"),
    ] {
        let a = big(&extra);
        let a: Vec<&str> = a.iter().map(String::as_str).collect();
        assert_bad(&a, want);
    }
    for (mtu, want) in [("67", "MTU 67"), ("9217", "MTU 9217"), ("0", "zero")] {
        assert_bad(
            &["transfer", "--size", "1TB", "--mtu", mtu, "--ber", "1e-6"],
            want,
        );
    }
    assert_bad(
        &["transfer", "--size", "1TB", "--mtu", "1500", "--ber", "0.6"],
        "0.6",
    );
    assert_bad(
        &[
            "transfer", "--size", "1TB", "--mtu", "1500", "--ber", "1e-6,x",
        ],
        "not a number",
    );
}

/// The JSON document: its kind and fields, integers where counts are, and
/// the joint per frame equal to `alias stack`'s for the frame length.
#[test]
fn json_shape_and_agreement_with_stack() {
    let v = json(&with(&[
        "--size", "1TiB", "--ber", "1e-5,0", "--hops", "1,2", "--format", "json",
    ]));
    assert_eq!(v["kind"], "transfer");
    assert_eq!(v["size_bytes"], 1u64 << 40);
    assert_eq!(v["stack"], "ipv4-tcp+CRC-16/ARC");
    assert!(v["model"].as_str().unwrap().contains("H links"));
    let pts = v["points"].as_array().unwrap();
    assert_eq!(pts.len(), 4);
    for p in pts {
        for k in ["mtu", "frame_bytes", "payload_bytes", "frames", "hops"] {
            assert!(p[k].is_u64(), "{k}: {p}");
        }
        assert_eq!(p["frame_bytes"], 202);
        assert_eq!(p["payload_bytes"], 160);
        assert_eq!(p["frames"], (1u64 << 40).div_ceil(160));
        for k in ["estimate", "low", "high", "method"] {
            assert!(p["joint_per_frame"].get(k).is_some(), "{k}: {p}");
        }
        for k in ["escapes", "p_at_least_one"] {
            for e in ["estimate", "low", "high"] {
                assert!(p[k][e].is_number(), "{k}.{e}: {p}");
            }
        }
        for k in ["p_error", "ber", "frames_sent", "independence_escapes"] {
            assert!(p[k].is_number(), "{k}: {p}");
        }
        assert!(p.get("bytes_per_escape").is_some());
        // escapes = frames sent x joint per frame, as printed
        let j = p["joint_per_frame"]["estimate"].as_f64().unwrap();
        let sent = p["frames_sent"].as_f64().unwrap();
        assert_eq!(p["escapes"]["estimate"].as_f64().unwrap(), sent * j, "{p}");
    }
    let stack = json(&[
        "stack",
        "--stack",
        "ipv4-tcp+CRC-16/ARC",
        "--bytes",
        "202",
        "--ber",
        "1e-5,0",
        "--max-weight",
        "4",
        "--samples",
        "0",
        "--format",
        "json",
    ]);
    let sp = stack["points"].as_array().unwrap();
    // one hop: the stack's joint, every digit; its P(error)
    assert_eq!(pts[0]["joint_per_frame"], sp[0]["joint"]);
    assert_eq!(pts[0]["p_error"], sp[0]["p_error"]);
    assert_eq!(pts[2]["joint_per_frame"], sp[1]["joint"]);
    assert_eq!(pts[1]["hops"], 2);
    assert!(pts[1]["joint_per_frame"]["low"].as_f64() > pts[0]["joint_per_frame"]["low"].as_f64());
}

/// `--tallies`: written on the first call, read on the next (other BERs:
/// the same numbers as a call without it), refused when it belongs to
/// another stack or has been altered, in one line.
#[test]
fn tallies_are_kept_and_checked() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("t.json");
    let f = file.display().to_string();
    let first = ok(&with(&["--size", "1e9", "--ber", "1e-6", "--tallies", &f]));
    assert!(file.exists());
    assert!(String::from_utf8(first).unwrap().contains("mtu"));
    let kept = std::fs::read_to_string(&file).unwrap();
    let again = ok(&with(&[
        "--size",
        "1e9",
        "--ber",
        "1e-4,1e-8",
        "--tallies",
        &f,
        "--format",
        "csv",
    ]));
    let fresh = ok(&with(&[
        "--size",
        "1e9",
        "--ber",
        "1e-4,1e-8",
        "--format",
        "csv",
    ]));
    assert_eq!(again, fresh);
    assert_eq!(
        std::fs::read_to_string(&file).unwrap(),
        kept,
        "nothing new to keep"
    );
    // another stack
    let mut other = with(&["--size", "1e9", "--ber", "1e-6", "--tallies", &f]);
    other[2] = "ipv4-tcp+CRC-16/IBM-3740";
    assert_bad(&other, "kept for stack");
    // an altered file
    let bad = kept.replacen("\"codewords\":\"", "\"codewords\":\"1", 1);
    assert_ne!(bad, kept);
    std::fs::write(&file, bad).unwrap();
    assert_bad(
        &with(&["--size", "1e9", "--ber", "1e-6", "--tallies", &f]),
        "stale",
    );
    std::fs::write(&file, "{not json").unwrap();
    assert_bad(
        &with(&["--size", "1e9", "--ber", "1e-6", "--tallies", &f]),
        "not an `alias transfer` tallies file",
    );
}

/// `--payload FILE` uses the file's size; `--plot` draws, and `alias plot`
/// redraws the JSON.
#[test]
fn payload_file_and_plots() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("data.bin");
    std::fs::write(&data, vec![7u8; 2800]).unwrap();
    let d = data.display().to_string();
    let svg = dir.path().join("t.svg").display().to_string();
    let out = dir.path().join("t.json").display().to_string();
    ok(&with(&[
        "--payload",
        &d,
        "--ber",
        "1e-4,1e-6",
        "--format",
        "json",
        "-o",
        &out,
        "--plot",
        &svg,
    ]));
    let v: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&out).unwrap()).unwrap();
    assert_eq!(v["size_bytes"], 2800);
    assert_eq!(v["payload_file"], d.as_str());
    assert_eq!(v["points"][0]["frames"], 18);
    let text = std::fs::read_to_string(&svg).unwrap();
    assert!(
        text.contains("<svg") && text.contains("MTU 200"),
        "{}",
        &text[..200]
    );
    let again = dir.path().join("again.svg").display().to_string();
    ok(&["plot", &out, "-o", &again]);
    assert!(std::fs::read_to_string(&again).unwrap().contains("MTU 200"));
}

/// `--burst`: the per-frame value is `alias simulate --rare --burst` of the
/// stack's CRC over the frame, same draws and seed, digit for digit; the
/// expected escapes are frames sent x that value; hops add links.
#[test]
fn burst_is_the_rare_burst_estimate() {
    let ge = "1e-6,0.5,1e-4,0.1";
    let t = json(&[
        "transfer",
        "--stack",
        "ipv4-tcp+CRC-16/ARC",
        "--mtu",
        "200",
        "--size",
        "1GB",
        "--burst",
        ge,
        "--hops",
        "1,2",
        "--samples",
        "2e4",
        "--seed",
        "3",
        "--format",
        "json",
    ]);
    let s = json(&[
        "simulate",
        "--rare",
        "--stack",
        "random+CRC-16/ARC",
        "--bytes",
        "202",
        "--burst",
        ge,
        "--samples",
        "2e4",
        "--seed",
        "3",
        "--format",
        "json",
    ]);
    let r = &s["result"]["crc"];
    let pts = t["points"].as_array().unwrap();
    assert_eq!(pts.len(), 2);
    let one = &pts[0];
    assert_eq!(
        (one["hops"].as_u64(), one["frame_bytes"].as_u64()),
        (Some(1), Some(202))
    );
    let j = &one["joint_per_frame"];
    assert_eq!(j["estimate"], r["rate"]);
    assert_eq!(j["low"], r["ci_low"]);
    assert_eq!(j["high"], r["ci_high"]);
    let method = j["method"].as_str().unwrap();
    assert!(
        method.contains("rare-burst") && method.contains("seed 3"),
        "{method}"
    );
    assert!(method.contains("not modelled"), "{method}");
    let e = one["frames_sent"].as_f64().unwrap() * j["estimate"].as_f64().unwrap();
    assert_eq!(one["escapes"]["estimate"].as_f64(), Some(e));
    assert!(one["independence_escapes"].is_null());
    // two links: more errors; one link passes a codeword and the other is
    // clean: twice the single-link lower end times P(no error on a link)
    let two = &pts[1];
    let p1 = one["p_error"].as_f64().unwrap();
    assert!(two["p_error"].as_f64().unwrap() > p1);
    let low2 = two["joint_per_frame"]["low"].as_f64().unwrap();
    let want = 2.0 * j["low"].as_f64().unwrap() * (1.0 - p1);
    assert!((low2 - want).abs() <= 1e-9 * want, "{low2} vs {want}");
}

/// Bad burst specs and options that do not go with `--burst`: one line,
/// exit 2, before any draw.
#[test]
fn bad_burst_is_refused() {
    let base = ["transfer", "--size", "1GB", "--mtu", "200"];
    for (extra, want) in [
        (vec!["--burst", "1e-6,0.5,1e-4"], "--burst"),
        (vec!["--burst", "1e-6,1.5,1e-4,0.1"], "--burst"),
        (vec!["--burst", "nan,0.5,1e-4,0.1"], "--burst"),
        (
            vec!["--burst", "1e-6,0.5,1e-4,0.1", "--samples", "0"],
            "samples",
        ),
        (
            vec!["--burst", "1e-6,0.5,1e-4,0.1", "--tallies", "t.json"],
            "--tallies",
        ),
        (
            vec!["--burst", "1e-6,0.5,1e-4,0.1", "--stack", "ethernet"],
            "IPv4 and TCP",
        ),
    ] {
        let mut a: Vec<&str> = base.to_vec();
        a.extend(extra);
        assert_bad(&a, want);
    }
}
