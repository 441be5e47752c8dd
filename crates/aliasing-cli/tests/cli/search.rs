//! End-to-end tests of `alias search`: JSON schema, shards and merge, bad input.

use crate::util::{alias, stderr};

fn json(args: &[&str]) -> serde_json::Value {
    let o = alias(args);
    assert!(o.status.success(), "{args:?}: {}", stderr(&o));
    serde_json::from_slice(&o.stdout).expect("one JSON document")
}

const Q: [&str; 8] = [
    "--width",
    "9",
    "--bits",
    "20,100",
    "--ber",
    "1e-5,1e-3",
    "--top",
    "6",
];

#[test]
fn json_schema_and_reciprocal_pairs() {
    let mut a = vec!["search"];
    a.extend(Q);
    a.extend(["--format", "json"]);
    let v = json(&a);
    assert_eq!(v["width"], 9);
    assert_eq!(v["objective"], "hd");
    let res = v["results"].as_array().unwrap();
    assert_eq!(res.len(), 6);
    for r in res {
        assert!(r["koopman"].as_str().unwrap().starts_with("0x"));
        assert!(r["full"].as_str().unwrap().starts_with("0x"));
        assert_eq!(r["hd"].as_array().unwrap().len(), 2);
        assert_eq!(r["hd"][1]["bits"], 100);
        assert_eq!(r["points"].as_array().unwrap().len(), 4);
        assert!(r["points"][0]["p_undetected"].as_f64().unwrap() > 0.0);
        if let Some(k) = r["reciprocal_of"].as_str() {
            let other = res
                .iter()
                .find(|o| o["koopman"] == k)
                .expect("listed earlier");
            assert_eq!(other["points"], r["points"]);
        }
    }
}

#[test]
fn shards_merge_and_refuse_repeats() {
    let dir = tempfile::tempdir().unwrap();
    let files: Vec<String> = (1..=3)
        .map(|i| dir.path().join(format!("s{i}.json")).display().to_string())
        .collect();
    for (i, f) in files.iter().enumerate() {
        let shard = format!("{}/3", i + 1);
        let mut a = vec!["search"];
        a.extend(Q);
        a.extend(["--shard", &shard, "--out", f, "--format", "csv"]);
        assert!(alias(&a).status.success());
    }
    let mut a = vec!["search"];
    a.extend(Q);
    a.extend(["--format", "json"]);
    let whole = json(&a);
    let mut m = vec!["search", "--format", "json", "--merge"];
    m.extend(files.iter().map(String::as_str));
    let merged = json(&m);
    assert_eq!(merged["results"], whole["results"]);
    assert_eq!(merged["hd_histogram"], whole["hd_histogram"]);
    // a repeated or missing shard, or a corrupt file, is refused
    for bad in [
        vec![files[0].as_str(), files[0].as_str(), files[2].as_str()],
        vec![files[0].as_str(), files[1].as_str()],
    ] {
        let mut m = vec!["search", "--merge"];
        m.extend(bad);
        let o = alias(&m);
        assert_eq!(o.status.code(), Some(2));
        assert!(stderr(&o).starts_with("error: "));
    }
    let text = std::fs::read_to_string(&files[1]).unwrap();
    let edited = text.replacen("\"min_hd\": ", "\"min_hd\": 1", 1);
    assert_ne!(edited, text);
    std::fs::write(&files[1], edited).unwrap();
    let mut m = vec!["search", "--merge"];
    m.extend(files.iter().map(String::as_str));
    let o = alias(&m);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
}

#[test]
fn bad_input_is_one_line_and_exit_2() {
    for args in [
        vec!["search", "--width", "40", "--bits", "100", "--ber", "1e-5"],
        vec!["search", "--width", "8", "--bits", "8", "--ber", "1e-5"],
        vec!["search", "--width", "8", "--bits", "100", "--ber", "0.7"],
        vec!["search", "--width", "28", "--bits", "100", "--ber", "1e-5"],
        vec![
            "search", "--width", "8", "--bits", "100", "--ber", "1e-5", "--shard", "3/2", "--out",
            "/tmp/x",
        ],
    ] {
        let o = alias(&args);
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        let e = stderr(&o);
        assert!(
            e.starts_with("error: ") && e.trim_end().lines().count() == 1,
            "{args:?}: {e}"
        );
    }
}

#[test]
fn curve_of_a_64_bit_crc_prints_the_bracket() {
    let o = alias(&[
        "curve", "--crc", "crc64-xz", "--bits", "300", "--ber", "1e-9",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let s = String::from_utf8(o.stdout).unwrap();
    assert!(s.contains("method: bracket"), "{s}");
}

#[test]
fn rank_per_length_equals_one_search_per_length() {
    let base = ["search", "--width", "9", "--ber", "1e-5,1e-3", "--top", "4"];
    let mut a = base.to_vec();
    a.extend([
        "--bits",
        "20,100",
        "--rank",
        "per-length",
        "--format",
        "json",
    ]);
    let v = json(&a);
    assert_eq!(v["rank"], "per-length");
    let per = v["per_length"].as_array().unwrap();
    assert_eq!(per.len(), 2);
    for (doc, bits) in per.iter().zip(["20", "100"]) {
        let mut one = base.to_vec();
        one.extend(["--bits", bits, "--format", "json"]);
        let w = json(&one);
        assert_eq!(doc["results"], w["results"], "{bits}");
        assert_eq!(doc["lengths"][0].to_string(), bits);
    }
    // the two rankings differ (otherwise the flag would change nothing)
    assert_ne!(
        per[0]["results"][0]["koopman"],
        per[1]["results"][0]["koopman"]
    );
    // the worst-case ranking is a different list again: one document
    let mut w = base.to_vec();
    w.extend(["--bits", "20,100", "--format", "json"]);
    assert!(json(&w).get("per_length").is_none());
    let mut bad = base.to_vec();
    bad.extend([
        "--bits",
        "20,100",
        "--rank",
        "per-length",
        "--plot",
        "x.svg",
    ]);
    let o = alias(&bad);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).starts_with("error: --rank per-length"));
}

/// Search shard files written before the shard became one type
/// (`aliasing_core::shard::Shard`; the fixtures were written by `alias
/// search --width 5 --bits 12 --ber 1e-3 --top 2 --shard I/2 --out` of that
/// code, the shard a map `{"index": I, "count": 2}`) still merge, to the
/// single run's document (its stage timings aside).
#[test]
fn old_search_shard_files_still_merge() {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures");
    let files: Vec<String> = (1..=2)
        .map(|i| format!("{dir}/search-shard-{i}of2.json"))
        .collect();
    for f in &files {
        let text = std::fs::read_to_string(f).unwrap();
        assert!(text.contains("\"shard\":{\"index\":"), "{f}: the map form");
    }
    let untimed = |mut v: serde_json::Value| {
        v.as_object_mut().unwrap().remove("stages");
        v
    };
    let merged = json(&[
        "search", "--merge", &files[0], &files[1], "--format", "json",
    ]);
    let whole = json(&[
        "search", "--width", "5", "--bits", "12", "--ber", "1e-3", "--top", "2", "--format", "json",
    ]);
    assert_eq!(merged["shard"], serde_json::json!([1, 1]));
    // `alias merge` adds them too, to the same document (timings included:
    // both come from the files), and writes the whole search's file
    let d = tempfile::tempdir().unwrap();
    let out = d.path().join("whole.json").display().to_string();
    let by_merge = json(&[
        "merge", &files[0], &files[1], "--format", "json", "--out", &out,
    ]);
    assert_eq!(by_merge, merged);
    let again = json(&["search", "--merge", &out, "--format", "json"]);
    assert_eq!(again, merged);
    assert_eq!(untimed(merged), untimed(whole));
}

/// Shard files of the first format and of the current one, of one search,
/// merge together into the single run's document.
#[test]
fn old_and_new_search_shard_files_merge_together() {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures");
    let d = tempfile::tempdir().unwrap();
    let new2 = d.path().join("new2.json").display().to_string();
    let q = [
        "search", "--width", "5", "--bits", "12", "--ber", "1e-3", "--top", "2",
    ];
    let mut a = q.to_vec();
    a.extend(["--shard", "2/2", "--out", &new2, "--format", "csv"]);
    assert!(alias(&a).status.success());
    let text = std::fs::read_to_string(&new2).unwrap();
    assert!(text.contains("\"version\": 2"), "{text}");
    let old1 = format!("{dir}/search-shard-1of2.json");
    let merged = json(&["search", "--merge", &old1, &new2, "--format", "json"]);
    let mut w = q.to_vec();
    w.extend(["--format", "json"]);
    let whole = json(&w);
    for k in ["results", "catalogue", "hd_histogram", "examined", "notes"] {
        assert_eq!(merged[k], whole[k], "{k}");
    }
}
