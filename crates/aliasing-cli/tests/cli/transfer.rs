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
        (vec!["--payload", "/no/such/file"], "--payload: cannot read"),
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

/// `--corruption MODEL:RATE`: every refusal in one line, exit 2, before any
/// work (at MTUs whose link part takes minutes in a debug build).
#[test]
fn corruption_bad_input_is_refused_before_work() {
    let dir = tempfile::tempdir().unwrap();
    let empty = dir.path().join("empty.bin");
    std::fs::write(&empty, b"").unwrap();
    let data = dir.path().join("data.bin");
    std::fs::write(&data, vec![1u8; 5000]).unwrap();
    let folder = dir.path().display().to_string();
    let (empty, data) = (empty.display().to_string(), data.display().to_string());
    let base = ["transfer", "--mtu", "1500,9000", "--ber", "1e-6"];
    for (extra, want) in [
        (vec!["--corruption", "word:2"], "outside [0, 1]"),
        (vec!["--corruption", "word:-0.1"], "outside [0, 1]"),
        (vec!["--corruption", "word:x"], "not a number"),
        (vec!["--corruption", "word"], "give a rate"),
        (vec!["--corruption", "bits:1.5"], "outside [0, 1]"),
        (vec!["--corruption", "burst:0:1e-6"], "burst length is 0"),
        (
            vec!["--corruption", "burst:11681:1e-6"],
            "longer than a segment",
        ),
        (vec!["--corruption", "splice:0:1e-6"], "cell size is 0"),
        (
            vec!["--corruption", "splice:1461:1e-6"],
            "larger than a segment",
        ),
        (vec!["--corruption", "flip:1e-6"], "unknown model"),
        (vec!["--corruption", "word:1e-6:3"], "too many fields"),
        (
            vec!["--corruption", "word:1e-6", "--corruption", "burst:0:1"],
            "burst length is 0",
        ),
    ] {
        // the same over uniform data and over a file's data
        for source in [["--size", "1TB"], ["--payload", data.as_str()]] {
            let mut a: Vec<&str> = base.to_vec();
            a.extend(source);
            a.extend(&extra);
            assert_bad(&a, want);
        }
    }
    for (file, want) in [
        (empty.as_str(), "is empty"),
        ("/dev/null", "not a regular file"),
        ("/dev/zero", "not a regular file"),
        (folder.as_str(), "is a folder"),
        ("/no/such/file", "--payload: cannot read"),
    ] {
        let mut a: Vec<&str> = base.to_vec();
        a.extend(["--payload", file, "--corruption", "word:1e-6"]);
        assert_bad(&a, want);
    }
}

/// The per-segment `word` formula, written out independently: per segment,
/// the aligned full words equal to 0x0000 or 0xFFFF over (ceil(len/2) x
/// 65535), averaged over the segments.
fn word_formula(data: &[u8], seg: usize) -> f64 {
    let per: Vec<f64> = data
        .chunks(seg)
        .map(|s| {
            let hits = s
                .chunks_exact(2)
                .filter(|w| w == &[0, 0] || w == &[0xFF, 0xFF])
                .count();
            hits as f64 / (s.len().div_ceil(2) as f64 * 65535.0)
        })
        .collect();
    per.iter().sum::<f64>() / per.len() as f64
}

/// `--payload FILE --corruption`: the file's data is read. An all-zero file
/// at MTU 1500 gives `word` p_miss = 1/65535 exactly; a small random file
/// gives the word formula per segment (the last one partial), and escapes =
/// frames x rate x p_miss; the total adds the link's escapes; CSV and table
/// carry the columns.
#[test]
fn corruption_over_a_file_through_the_json() {
    let dir = tempfile::tempdir().unwrap();
    let zeros = dir.path().join("zeros.bin");
    std::fs::write(&zeros, vec![0u8; 5 * 1460]).unwrap();
    let z = zeros.display().to_string();
    let v = json(&[
        "transfer",
        "--payload",
        &z,
        "--mtu",
        "1500",
        "--ber",
        "0",
        "--corruption",
        "word:1e-6",
        "--format",
        "json",
    ]);
    let p = &v["points"][0];
    let c = &p["corruption"][0];
    assert_eq!(c["model"], "word");
    assert_eq!(c["p_miss"].as_f64().unwrap(), 1.0 / 65535.0);
    assert_eq!(c["rate"].as_f64().unwrap(), 1e-6);
    assert_eq!(p["frames"], 5);
    assert_eq!(c["escapes"].as_f64().unwrap(), 5.0 * 1e-6 * (1.0 / 65535.0));
    assert!(c["method"].as_str().unwrap().contains("given data"));
    assert_eq!(p["total_escapes"]["estimate"], c["escapes"]);

    // random bytes, rich in 0x00 and 0xFF, odd length: a partial last segment
    let mut x = 0x9E37_79B9_7F4A_7C15u64;
    let data: Vec<u8> = (0..10_001)
        .map(|_| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            match x % 4 {
                0 => 0,
                1 => 0xFF,
                _ => (x >> 32) as u8,
            }
        })
        .collect();
    let f = dir.path().join("random.bin");
    std::fs::write(&f, &data).unwrap();
    let f = f.display().to_string();
    let args = |format: &'static str| {
        vec![
            "transfer",
            "--stack",
            "ipv4-tcp+CRC-16/ARC",
            "--max-weight",
            "4",
            "--samples",
            "0",
            "--payload",
            &f,
            "--mtu",
            "68,200",
            "--ber",
            "1e-6",
            "--corruption",
            "word:1e-3",
            "--corruption",
            "bits:1e-4",
            "--format",
            format,
        ]
    };
    let v = json(&args("json"));
    let points = v["points"].as_array().unwrap();
    assert_eq!(points.len(), 2);
    for p in points {
        let seg = p["payload_bytes"].as_u64().unwrap() as usize;
        let frames = p["frames"].as_u64().unwrap();
        assert_eq!(frames, 10_001u64.div_ceil(seg as u64));
        let w = &p["corruption"][0];
        let want = word_formula(&data, seg);
        let got = w["p_miss"].as_f64().unwrap();
        assert!(want > 1e-6, "{want}");
        assert!(
            (got - want).abs() <= 1e-13 * want,
            "segment {seg}: {got} against {want}"
        );
        let esc = w["escapes"].as_f64().unwrap();
        let by_hand = frames as f64 * 1e-3 * got;
        assert!((esc - by_hand).abs() <= 1e-15 * by_hand, "{esc} {by_hand}");
        // bits:P alone: the rate is P(at least one flip), per segment mean
        let b = &p["corruption"][1];
        assert_eq!(b["model"], "bits:1e-4");
        let rate = b["rate"].as_f64().unwrap();
        assert!(rate > 0.0 && rate < 1.0, "{rate}");
        let be = b["escapes"].as_f64().unwrap();
        assert!(be > 0.0 && be < frames as f64 * rate, "{be}");
        // the total: the link's escapes plus both entries, each end
        let link = &p["escapes"];
        let total = &p["total_escapes"];
        for end in ["low", "high"] {
            let want = link[end].as_f64().unwrap() + esc + be;
            let got = total[end].as_f64().unwrap();
            assert!((got - want).abs() <= 1e-15 * want, "{end}: {got} {want}");
            assert!(got >= esc + be);
        }
    }
    let csv = String::from_utf8(ok(&args("csv"))).unwrap();
    let head = csv.lines().next().unwrap();
    assert!(
        head.ends_with(",word_escapes,bits:1e-4_escapes,total_escapes,total_low,total_high"),
        "{head}"
    );
    assert_eq!(csv.lines().count(), 3, "{csv}");
    let table = String::from_utf8(ok(&args("table"))).unwrap();
    assert!(
        table.contains("# corruption inside hosts and routers"),
        "{table}"
    );
    assert!(table.contains("total_escapes"), "{table}");
    // without --corruption the file is not read and nothing is added
    let mut plain = args("json");
    plain.drain(13..17);
    let v = json(&plain);
    assert!(v["points"][0].get("corruption").is_none(), "{v}");
    assert!(v["points"][0].get("total_escapes").is_none(), "{v}");
}

/// Over uniform data (`--size`), each model's p_miss is the library's
/// `uniform` value and the escapes frames x rate x p_miss.
#[test]
fn corruption_over_uniform_data() {
    let v = json(&[
        "transfer",
        "--size",
        "1TB",
        "--mtu",
        "1500",
        "--ber",
        "0",
        "--corruption",
        "word:1e-6",
        "--corruption",
        "splice:48:1e-5",
        "--format",
        "json",
    ]);
    let p = &v["points"][0];
    let w = &p["corruption"][0];
    assert_eq!(w["p_miss"].as_f64().unwrap(), 2.0 / 65536.0 / 65535.0);
    let frames = p["frames"].as_f64().unwrap();
    assert_eq!(
        w["escapes"].as_f64().unwrap(),
        frames * 1e-6 * (2.0 / 65536.0 / 65535.0)
    );
    let s = &p["corruption"][1];
    assert_eq!(s["model"], "splice:48");
    assert!(s["method"].as_str().unwrap().contains("uniform"), "{s}");
}
/// `--burst`: the per-frame value is the rare-event estimate of the joint
/// escape, far below the CRC's; its method quotes the CRC's escape from
/// the same draws, which is `alias simulate --rare --burst` of the stack's
/// CRC over the frame, same draws and seed, digit for digit; the expected
/// escapes are frames sent x the joint; hops add links.
#[test]
fn burst_is_the_joint_rare_burst_estimate() {
    let ge = "1e-6,0.5,1e-4,0.1";
    // 5e3 draws in the test command, 2e4 in the full tier
    let samples = if crate::util::full_tier() {
        "2e4"
    } else {
        "5e3"
    };
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
        samples,
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
        samples,
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
    let method = j["method"].as_str().unwrap();
    assert!(
        method.contains("joint escape") && method.contains("seed 3"),
        "{method}"
    );
    assert!(!method.contains("not modelled"), "{method}");
    let crc = format!(
        "the CRC alone from the same draws {:e} [{:e}, {:e}]",
        r["rate"].as_f64().unwrap(),
        r["ci_low"].as_f64().unwrap(),
        r["ci_high"].as_f64().unwrap()
    );
    assert!(method.contains(&crc), "{method}\n{crc}");
    let est = j["estimate"].as_f64().unwrap();
    assert!(est > 0.0 && j["high"].as_f64().unwrap() < 0.01 * r["ci_low"].as_f64().unwrap());
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

/// The undetected fraction of the worst alignment of a `b`-bit burst under
/// CRC-16/ARC (reflected: each byte enters least significant bit first),
/// by brute force: every non-zero pattern of `b` consecutive stream bits
/// (most significant bit of a byte first) at each of the 8 alignments; an
/// error is missed iff its remainder is 0 (the CRC is linear, and trailing
/// bytes multiply it by a power of x, prime to the generator).
fn arc_burst_miss_brute(b: u32) -> f64 {
    // CRC-16/ARC bit by bit, as a table of its 256 byte steps (this crate's
    // tests are unoptimised: eight bit steps per byte of each of the 2^20
    // error patterns took seconds)
    let bitwise = |mut r: u16| {
        for _ in 0..8 {
            r = if r & 1 == 1 {
                (r >> 1) ^ 0xA001
            } else {
                r >> 1
            };
        }
        r
    };
    let table: Vec<u16> = (0..256u16).map(bitwise).collect();
    let crc = |bytes: &[u8]| {
        bytes.iter().fold(0u16, |r, &x| {
            (r >> 8) ^ table[usize::from((r ^ u16::from(x)) & 0xFF)]
        })
    };
    let mut worst = 0u64;
    for a in 0..8u32 {
        let mut missed = 0u64;
        for v in 1u64..(1 << b) {
            let mut e = [0u8; 8];
            for t in 0..b {
                if (v >> (b - 1 - t)) & 1 == 1 {
                    let j = (a + t) as usize;
                    e[j / 8] |= 0x80 >> (j % 8);
                }
            }
            missed += u64::from(crc(&e) == 0);
        }
        worst = worst.max(missed);
    }
    worst as f64 / ((1u64 << b) - 1) as f64
}

/// `--digest CRC`: an end-to-end CRC over each segment's data on top of
/// TCP. Exact 0 where the CRC detects every error the model can make
/// (`word`; a burst no longer than its width where it reads bits in the
/// stream's order), else a certified upper bound no larger than the TCP
/// checksum's own miss: for a burst, the smaller of the two, the CRC's own
/// written out (`(2^(B-r) - 1) / (2^B - 1)` for a CRC read in stream order)
/// or found by brute force (a reflected CRC).
#[test]
fn digest_adds_an_end_to_end_crc_to_the_corruption_entries() {
    let base = [
        "transfer",
        "--size",
        "1TB",
        "--mtu",
        "1500",
        "--ber",
        "0",
        "--corruption",
        "word:1e-6",
        "--corruption",
        "burst:32:1e-6",
        "--corruption",
        "burst:40:1e-6",
        "--corruption",
        "splice:48:1e-5",
        "--corruption",
        "bits:1e-7",
        "--corruption",
        "burst:17:1e-6",
        "--format",
        "json",
    ];
    let tcp = json(&base);
    assert!(tcp.get("digest").is_none(), "{tcp}");
    let alone = tcp["points"][0]["corruption"].as_array().unwrap().clone();
    let tcp_miss = |i: usize| alone[i]["p_miss"].as_f64().unwrap();
    let with = |digest: &str| {
        let mut a = base.to_vec();
        a.extend(["--digest", digest]);
        json(&a)
    };
    // CRC-32/MPEG-2 reads each byte most significant bit first, as the
    // stream: every burst of 32 bits or fewer is detected
    let v = with("CRC-32/MPEG-2");
    assert_eq!(v["digest"], "CRC-32/MPEG-2");
    assert!(
        v["model"]
            .as_str()
            .unwrap()
            .contains("End-to-end CRC CRC-32/MPEG-2"),
        "{}",
        v["model"]
    );
    let p = &v["points"][0];
    let got = p["corruption"].as_array().unwrap();
    let miss = |i: usize| got[i]["p_miss"].as_f64().unwrap();
    let method = |i: usize| got[i]["method"].as_str().unwrap().to_string();
    for i in [0, 1, 5] {
        assert_eq!(miss(i), 0.0, "{}", got[i]);
        assert!(method(i).starts_with("exact"), "{}", got[i]);
    }
    // a 40-bit burst: the CRC's own miss, far below the TCP checksum's
    let own = (2f64.powi(8) - 1.0) / (2f64.powi(40) - 1.0);
    assert!((miss(2) - own).abs() <= 1e-12 * own, "{} vs {own}", miss(2));
    // splice and bits: bounds no larger than the TCP checksum's exact miss
    for i in [2, 3, 4] {
        assert!(method(i).starts_with("bound"), "{}", got[i]);
        assert!(miss(i) <= tcp_miss(i), "{}", got[i]);
    }
    assert!(miss(3) > 0.0 && miss(3) < tcp_miss(3));
    assert_eq!(miss(4), tcp_miss(4));
    // escapes = frames x rate x p_miss, the total their sum (no link errors)
    let frames = p["frames"].as_f64().unwrap();
    let mut total = 0.0;
    for e in got {
        let want = frames * e["rate"].as_f64().unwrap() * e["p_miss"].as_f64().unwrap();
        let x = e["escapes"].as_f64().unwrap();
        assert!((x - want).abs() <= 1e-12 * want, "{e}");
        total += x;
    }
    let t = p["total_escapes"]["estimate"].as_f64().unwrap();
    assert!((t - total).abs() <= 1e-12 * total, "{t} vs {total}");
    // CRC-32C (iSCSI) reads each byte least significant bit first: a word
    // error is still within 16 bits of its order, a 32-bit burst across
    // bytes is not; every value is exact 0 or a bound, never above TCP's
    let v = with("crc32c");
    assert_eq!(v["digest"], "CRC-32/ISCSI");
    let got = v["points"][0]["corruption"].as_array().unwrap().clone();
    assert_eq!(got[0]["p_miss"], 0.0);
    for (i, e) in got.iter().enumerate() {
        let (m, how) = (e["p_miss"].as_f64().unwrap(), e["method"].as_str().unwrap());
        assert!(m <= tcp_miss(i), "{e}");
        assert_eq!(m == 0.0, how.starts_with("exact"), "{e}");
    }
    assert!(
        got[1]["p_miss"].as_f64().unwrap() <= (1.0 + 1e-12) / (2f64.powi(32) - 1.0),
        "{}",
        got[1]
    );
    // a reflected 16-bit CRC against brute force: a 17-bit burst
    let v = with("CRC-16/ARC");
    let e = &v["points"][0]["corruption"][5];
    let want = arc_burst_miss_brute(17).min(tcp_miss(5));
    let m = e["p_miss"].as_f64().unwrap();
    assert!((m - want).abs() <= 1e-12 * want, "{e} vs {want}");
    // a 64-bit CRC detects the 40-bit burst too
    let v = with("crc64-nvme");
    assert_eq!(v["digest"], "CRC-64/NVME");
    assert_eq!(v["points"][0]["corruption"][2]["p_miss"], 0.0);

    // over a file: all zeros, where the TCP checksum misses 1/65535 of the
    // word errors and CRC-32C none; the table says what p_miss is
    let dir = tempfile::tempdir().unwrap();
    let zeros = dir.path().join("zeros.bin");
    std::fs::write(&zeros, vec![0u8; 3000]).unwrap();
    let zeros = zeros.display().to_string();
    let file = [
        "transfer",
        "--payload",
        zeros.as_str(),
        "--mtu",
        "1500",
        "--ber",
        "0",
        "--corruption",
        "word:1e-3",
    ];
    let mut a = file.to_vec();
    a.extend(["--format", "json"]);
    let alone = json(&a);
    assert_eq!(
        alone["points"][0]["corruption"][0]["p_miss"].as_f64(),
        Some(1.0 / 65535.0)
    );
    a.extend(["--digest", "iscsi"]);
    let v = json(&a);
    assert_eq!(v["points"][0]["corruption"][0]["p_miss"], 0.0);
    let mut a = file.to_vec();
    a.extend(["--digest", "crc32c"]);
    let table = String::from_utf8(ok(&a)).unwrap();
    assert!(
        table.contains("end-to-end CRC CRC-32/ISCSI"),
        "{}",
        &table[..400]
    );
}

/// `--digest` refusals: one line, exit 2, before any work.
#[test]
fn bad_digest_is_refused() {
    let base = ["transfer", "--size", "1TB", "--mtu", "1500,9000"];
    for (extra, want) in [
        (
            vec![
                "--ber",
                "1e-6",
                "--corruption",
                "word:1e-6",
                "--digest",
                "crc99",
            ],
            "unknown CRC or check `crc99`",
        ),
        (
            vec!["--ber", "1e-6", "--digest", "crc32c"],
            "give --corruption",
        ),
        (
            vec!["--burst", "0.1,0.5,0.01,0.1", "--digest", "crc32c"],
            "give --corruption",
        ),
        // a checksum is no CRC
        (
            vec![
                "--ber",
                "1e-6",
                "--corruption",
                "word:1e-6",
                "--digest",
                "internet",
            ],
            "`internet`",
        ),
        (
            vec!["--ber", "1e-6", "--corruption", "word:1e-6", "--digest", ""],
            "empty",
        ),
    ] {
        let mut a: Vec<&str> = base.to_vec();
        a.extend(extra);
        assert_bad(&a, want);
    }
}

/// A request the cost model puts beyond a day (1,217 MTUs of a 16-bit CRC's
/// frames, whose weight-4 codewords number billions each) is refused in one
/// line before any work unless `--allow-long` is given.
#[test]
fn a_request_beyond_a_day_needs_allow_long() {
    assert_bad(
        &[
            "transfer",
            "--stack",
            "ipv4-tcp+CRC-16/ARC",
            "--size",
            "10TB",
            "--mtu",
            "8000:9216:1",
            "--ber",
            "1e-6",
        ],
        "over the limit of a day",
    );
}
