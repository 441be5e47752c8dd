//! The committed `docs/study` (numbers.txt and the figures' JSON) against
//! what `aliasing_examples::study` computes.

/// Compares two JSON documents: the same shape and strings, numbers
/// within a relative 1e-12 (the files print every digit).
fn assert_close(a: &serde_json::Value, b: &serde_json::Value, at: &str) {
    use serde_json::Value;
    match (a, b) {
        (Value::Number(x), Value::Number(y)) => {
            let (x, y) = (x.as_f64().unwrap(), y.as_f64().unwrap());
            assert!(
                (x - y).abs() <= 1e-12 * x.abs().max(y.abs()),
                "{at}: {x} vs {y}"
            );
        }
        (Value::Array(x), Value::Array(y)) => {
            assert_eq!(x.len(), y.len(), "{at}: lengths");
            for (i, (x, y)) in x.iter().zip(y).enumerate() {
                assert_close(x, y, &format!("{at}[{i}]"));
            }
        }
        (Value::Object(x), Value::Object(y)) => {
            let kx: Vec<&String> = x.keys().collect();
            let ky: Vec<&String> = y.keys().collect();
            assert_eq!(kx, ky, "{at}: keys");
            for (k, v) in x {
                assert_close(v, &y[k], &format!("{at}.{k}"));
            }
        }
        _ => assert_eq!(a, b, "{at}"),
    }
}

/// Checks the committed `docs/study` against `study`: `numbers.txt`
/// to the character (its beginning where `prefix`), every JSON of
/// `study` to its printed digits (within 1e-12); the committed points
/// of figures 6 and 7 longer than `max_bits` are left out of the
/// comparison (`study` computed by [`aliasing_examples::study::curves_to`]).
fn compare_with_docs(study: &aliasing_examples::study::Study, prefix: bool, max_bits: u64) {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../docs/study");
    let numbers = std::fs::read_to_string(format!("{dir}/numbers.txt")).unwrap();
    let committed = if prefix {
        numbers.get(..study.numbers.len()).unwrap_or(&numbers)
    } else {
        &numbers
    };
    assert_eq!(
        study.numbers, committed,
        "docs/study/numbers.txt differs from what reproduce_study writes: \
         regenerate it with `cargo run --release --example reproduce_study`"
    );
    for (stem, doc) in &study.figures {
        let text = std::fs::read_to_string(format!("{dir}/{stem}.json")).unwrap();
        let mut committed: serde_json::Value = serde_json::from_str(&text).unwrap();
        let curve = ["fig6", "fig7"].contains(stem);
        if let Some(points) = committed
            .get_mut("points")
            .and_then(serde_json::Value::as_array_mut)
            .filter(|_| curve)
        {
            points.retain(|p| p["bits"].as_u64().is_none_or(|n| n <= max_bits));
        }
        assert_close(doc, &committed, stem);
    }
}

/// `docs/study` is what `cargo run --release --example reproduce_study`
/// writes, in its cheap part: figures 6-8 and the sections of
/// `numbers.txt` up to the independence product. The test command
/// compares the points of figures 6 and 7 up to 12,144 bits (the
/// longest Ethernet frame; a few seconds), `ALIAS_TESTS=full` every
/// point to 65,536 bits (the width-20 curve: most of a minute of CPU).
#[test]
fn docs_study_curves_are_what_the_code_writes() {
    let full = std::env::var("ALIAS_TESTS").is_ok_and(|v| v == "full");
    let max_bits = if full { u64::MAX } else { 12144 };
    let study = aliasing_examples::study::curves_to(max_bits).unwrap();
    // each curve keeps its first point and the 1518-byte frame; the
    // 65,536-bit end only in the full tier
    for (stem, doc) in &study.figures[..2] {
        let bits: Vec<u64> = doc["points"]
            .as_array()
            .unwrap()
            .iter()
            .map(|p| p["bits"].as_u64().unwrap())
            .collect();
        assert!(bits.contains(&64) && bits.contains(&12144), "{stem}");
        assert_eq!(bits.contains(&65536), full, "{stem}");
    }
    compare_with_docs(&study, true, max_bits);
}

/// All of `docs/study` (about 5 minutes of CPU, mostly the study's
/// 16-bit case at 12,016 bits): `cargo test --release -p
/// aliasing-examples -- --ignored docs_study`.
#[test]
#[ignore]
fn docs_study_is_what_the_code_writes() {
    compare_with_docs(
        &aliasing_examples::study::compute().unwrap(),
        false,
        u64::MAX,
    );
}

/// The transfer section of the committed `numbers.txt` is what the
/// committed `transfer.json` prints (to the printed digits), and the
/// figure draws: cheap (no tally computed); that the JSON is what the
/// code computes is [`docs_study_transfer_is_what_the_code_writes`]'s
/// (tens of seconds in release, ignored).
#[test]
fn docs_study_transfer_numbers_are_the_committed_figure() {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../docs/study");
    let numbers = std::fs::read_to_string(format!("{dir}/numbers.txt")).unwrap();
    let text = std::fs::read_to_string(format!("{dir}/transfer.json")).unwrap();
    let value: serde_json::Value = serde_json::from_str(&text).unwrap();
    let doc: aliasing_core::document::Transfer = serde_json::from_value(value.clone()).unwrap();
    assert_eq!(
        doc.points.len(),
        2 * aliasing_examples::study::TRANSFER_BERS.len()
    );
    let mut section = String::new();
    aliasing_examples::study::transfer_numbers(&mut section, &doc).unwrap();
    assert!(
        numbers.contains(&section),
        "docs/study/numbers.txt lacks the transfer section of transfer.json:\n{section}"
    );
    let fig = aliasing_plot::figure_of(
        &aliasing_plot::doc::Document::from_value(&value).unwrap(),
        &Default::default(),
    )
    .unwrap();
    assert_eq!(fig.series.len(), 4, "a line and a band per MTU");
}

/// The transfer figure is what the code computes (the joint tallies of
/// 1518- and 9018-byte frames: tens of seconds in release): `cargo test
/// --release -p aliasing-examples -- --ignored docs_study_transfer`.
#[test]
#[ignore]
fn docs_study_transfer_is_what_the_code_writes() {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../docs/study");
    let (doc, _) = aliasing_examples::study::transfer_figure().unwrap();
    let text = aliasing_core::document::to_json_sorted(&doc).unwrap();
    let fresh: serde_json::Value = serde_json::from_str(&text).unwrap();
    let committed: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(format!("{dir}/transfer.json")).unwrap())
            .unwrap();
    assert_close(&fresh, &committed, "transfer");
}

/// The README points to the tested tour (it no longer carries a copy
/// that could drift from it).
#[test]
fn readme_links_the_tested_tour() {
    let readme = include_str!("../../../README.md");
    assert!(
        readme.contains("(docs/library-tour.md)"),
        "README.md does not link docs/library-tour.md"
    );
}
