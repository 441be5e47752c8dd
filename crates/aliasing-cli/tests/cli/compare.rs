//! `alias compare` end to end: formats, the JSON schema, given payloads, and
//! one-line errors with exit code 2.

use crate::util::alias_code_out_err as alias;
use std::process::Command;

#[test]
fn table_has_one_column_per_check() {
    let (rc, out, err) = alias(&[
        "compare",
        "--bytes",
        "64,1500",
        "--ber",
        "1.5e-5",
        "--checks",
        "internet,fletcher16,adler32",
    ]);
    assert_eq!(rc, 0, "{err}");
    assert!(out.contains("P(alias | error)"));
    let header = out.lines().find(|l| !l.starts_with('#')).unwrap();
    for name in ["Internet", "Fletcher-16", "Adler-32"] {
        assert!(header.contains(name), "{header}");
    }
    let row = out
        .lines()
        .find(|l| l.trim_start().starts_with("1500"))
        .unwrap();
    assert!(row.contains("n/a"), "{row}");
    assert!(out.contains("# n/a Adler-32"));
}

#[test]
fn json_schema_and_values_match_the_library() {
    let (rc, out, err) = alias(&[
        "compare",
        "--bytes",
        "576,1500",
        "--ber",
        "1e-6,1.5e-5",
        "--checks",
        "internet,fletcher32",
        "--format",
        "json",
    ]);
    assert_eq!(rc, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    let checks = v["checks"].as_array().unwrap();
    assert_eq!(checks.len(), 2);
    assert_eq!(checks[0]["name"], "Internet");
    assert_eq!(checks[0]["check_bits"], 16);
    assert_eq!(checks[1]["exact"], false);
    let pts = v["points"].as_array().unwrap();
    assert_eq!(pts.len(), 4);
    for pt in pts {
        assert_eq!(pt["check"], "Internet");
        let bytes = pt["bytes"].as_u64().unwrap();
        assert_eq!(pt["bits"].as_u64().unwrap(), 8 * bytes);
        let ber = pt["ber"].as_f64().unwrap();
        let lib = aliasing_core::internet::p_undetected(bytes, ber).unwrap();
        assert_eq!(pt["p_undetected"].as_f64().unwrap(), lib);
        let ratio = pt["p_alias_given_error"].as_f64().unwrap();
        assert!((ratio - lib / aliasing_core::bsc::p_error(8 * bytes, ber)).abs() <= 1e-15 * ratio);
    }
}

#[test]
fn csv_and_output_file() {
    let dir = tempfile::tempdir().unwrap();
    let f = dir.path().join("c.csv");
    let (rc, _, err) = alias(&[
        "compare",
        "--bytes",
        "100",
        "--ber",
        "1e-4",
        "--checks",
        "internet",
        "--format",
        "csv",
        "--output",
        f.to_str().unwrap(),
    ]);
    assert_eq!(rc, 0, "{err}");
    let text = std::fs::read_to_string(&f).unwrap();
    let mut lines = text.lines();
    assert_eq!(lines.next().unwrap(), "bytes,bits,ber,p_error,Internet");
    let row: Vec<&str> = lines.next().unwrap().split(',').collect();
    assert_eq!(row[0], "100");
    let v: f64 = row[4].parse().unwrap();
    let lib = aliasing_core::internet::p_undetected(100, 1e-4).unwrap()
        / aliasing_core::bsc::p_error(800, 1e-4);
    assert_eq!(v, lib);
}

#[test]
fn given_payload_differs_from_random_data() {
    let (rc, out, err) = alias(&[
        "compare",
        "--payload-hex",
        &"00".repeat(64),
        "--ber",
        "1e-3",
        "--checks",
        "internet",
        "--format",
        "json",
    ]);
    assert_eq!(rc, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["data"], "payload");
    let zero = v["points"][0]["p_undetected"].as_f64().unwrap();
    // 64 zero bytes of data, then the field the sender computes (0xFFFF)
    assert_eq!(v["points"][0]["bytes"].as_u64().unwrap(), 66);
    let mut frame = vec![0u8; 64];
    frame.extend([0xFF, 0xFF]);
    let lib = aliasing_core::internet::p_undetected_payload(&frame, 1e-3).unwrap();
    assert_eq!(zero, lib);
    let random = aliasing_core::internet::p_undetected(66, 1e-3).unwrap();
    // flips only add in the data, only subtract in the field
    assert!(
        zero > 0.0 && (zero / random - 1.0).abs() > 0.1,
        "{zero} vs {random}"
    );
}

#[test]
fn bad_input_is_one_line_and_exit_2() {
    for args in [
        vec!["compare", "--bytes", "64", "--ber", "2"],
        vec!["compare", "--bytes", "64", "--ber", "x"],
        vec!["compare", "--bytes", "0", "--ber", "1e-5"],
        vec![
            "compare", "--bytes", "64", "--ber", "1e-5", "--checks", "nosuch",
        ],
        vec!["compare", "--ber", "1e-5"],
        vec!["compare", "--ber", "1e-5", "--payload-hex", "abc"],
        vec!["compare", "--ber", "1e-5", "--payload", "/nonexistent/file"],
        vec![
            "compare",
            "--bytes",
            "7",
            "--ber",
            "1e-5",
            "--payload-hex",
            "0001",
        ],
    ] {
        let (rc, out, err) = alias(&args);
        assert_eq!(rc, 2, "{args:?}: {err}");
        assert!(out.is_empty(), "{args:?}");
        assert_eq!(err.trim_end().lines().count(), 1, "{args:?}: {err}");
        assert!(err.starts_with("error: "), "{err}");
    }
}

#[test]
fn crc_falls_back_to_the_dual_code_when_markov_is_refused() {
    // With a tiny memory limit the Markov chain is refused for CRC-16 and the
    // dual code is used; the points must agree, in the same (BER-major) order,
    // with those of an unlimited run.
    let args = [
        "compare",
        "--bytes",
        "64,300",
        "--ber",
        "1e-3,1e-5",
        "--checks",
        "crc16-ccitt",
        "--format",
        "json",
    ];
    let run = |limit: Option<&str>| {
        let mut c = Command::new(env!("CARGO_BIN_EXE_alias"));
        c.args(args);
        if let Some(l) = limit {
            c.env("ALIAS_MEMORY_LIMIT", l);
        }
        let out = c.output().unwrap();
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        v["points"].as_array().unwrap().clone()
    };
    let markov = run(None);
    let dual = run(Some("1K"));
    assert_eq!(markov.len(), 4);
    for (a, b) in markov.iter().zip(&dual) {
        assert_eq!((&a["ber"], &a["bytes"]), (&b["ber"], &b["bytes"]));
        let (x, y) = (
            a["p_undetected"].as_f64().unwrap(),
            b["p_undetected"].as_f64().unwrap(),
        );
        assert!((x - y).abs() <= 1e-10 * x, "{a} vs {b}");
    }
}

#[test]
fn points_a_check_cannot_give_are_n_a_one_by_one() {
    // Fletcher-16 is exact at 64 bytes but not certifiable at 2 bytes and BER
    // 1e-12; a CRC-16 needs 3 bytes. Those points are n/a, the rest present.
    let (rc, out, err) = alias(&[
        "compare",
        "--bytes",
        "2,64",
        "--ber",
        "1e-12",
        "--checks",
        "fletcher16,crc16-ccitt",
        "--format",
        "json",
    ]);
    assert_eq!(rc, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    for c in v["checks"].as_array().unwrap() {
        assert_eq!(c["exact"], false, "{c}");
        assert!(c["note"].as_str().is_some(), "{c}");
    }
    let pts = v["points"].as_array().unwrap();
    assert_eq!(pts.len(), 2);
    for pt in pts {
        assert_eq!(pt["bytes"], 64);
    }
    let f16 = pts.iter().find(|p| p["check"] == "Fletcher-16").unwrap();
    let lib = aliasing_core::fletcher::p_undetected16(64, 1e-12).unwrap();
    assert_eq!(f16["p_undetected"].as_f64().unwrap(), lib);
}
