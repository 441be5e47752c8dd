//! Search shard files: the corruption they refuse, the first format's files,
//! and merging (in any order of adding, old and new files together) to the
//! unsharded search.

use aliasing_core::ctx::{Ctx, Job};
use aliasing_core::job::SearchJob;
use aliasing_core::search::{Objective, Query};
use aliasing_core::shard::Shard;
use aliasing_core::units::MemoryBudget;
use aliasing_sim::__private::search::*;
use aliasing_sim::search::*;

fn query(top: usize) -> Query {
    Query::new(8, vec![20], vec![1e-5], 0, top, Objective::Hd).unwrap()
}

fn ctx() -> Ctx<'static> {
    Ctx::new(MemoryBudget::bytes(1e9).unwrap())
}

/// The file of shard `i/n` of the exhaustive search of `q`.
fn shard_file(q: &Query, i: u64, n: u64) -> SearchFile {
    let job = SearchJob::all(q.clone(), Some(Shard::new(i, n).unwrap())).unwrap();
    SearchRun::new(job)
        .unwrap()
        .run(&ctx())
        .unwrap()
        .file
        .unwrap()
}

/// A shard file with any single byte changed, cut short or with a byte
/// doubled is refused in one line (every position, several bytes each).
#[test]
fn a_shard_file_with_any_byte_changed_is_refused() {
    let text = shard_file(&query(2), 1, 2).to_text().unwrap();
    assert!(from_text(&text, "f").is_ok());
    let bytes = text.as_bytes();
    let mut tried = 0;
    for i in 0..bytes.len() {
        let mut edits: Vec<Vec<u8>> = [1u8, 2, 0x20, 0x80]
            .iter()
            .map(|d| bytes[i] ^ d)
            .chain([b'0', b'9', b' ', b'"', b'E', b'X'])
            .filter(|&r| r != bytes[i])
            .map(|r| {
                let mut b = bytes.to_vec();
                b[i] = r;
                b
            })
            .collect();
        edits.push(bytes[..i].to_vec());
        let mut doubled = bytes.to_vec();
        doubled.insert(i, bytes[i]);
        edits.push(doubled);
        for b in edits {
            let Ok(s) = String::from_utf8(b) else {
                continue;
            };
            tried += 1;
            let e = from_text(&s, "f").expect_err(&format!("byte {i} edited: {s}"));
            assert!(!e.to_string().contains('\n'), "{e}");
        }
    }
    assert!(tried > 8 * bytes.len());
}

/// The first format's text of the shard file `f` (as that format's writer
/// wrote it: compact JSON, the shard a map, the checksum of the body's
/// compact JSON).
fn v1_text(f: &SearchFile) -> String {
    // the writer's field order (struct order)
    let body = format!(
        r#"{{"format":"{FORMAT}","version":1,"query":{},"space":{},"shard":{{"index":{},"count":{}}},"partial":{}}}"#,
        serde_json::to_string(&f.params.query).unwrap(),
        serde_json::to_string(&f.params.space).unwrap(),
        f.shard.index,
        f.shard.count,
        serde_json::to_string(&f.progress.counts.partial()).unwrap(),
    );
    let sum = format!("{:016x}", aliasing_sim::shard::fnv1a64(body.as_bytes()));
    format!(r#"{{"checksum":"{sum}","body":{body}}}"#)
}

/// Files of the first format load as the files of the current format
/// they record, merge with them, and with any byte changed are refused.
#[test]
fn first_format_files_load_and_merge_with_current_ones() {
    let q = query(3);
    let files: Vec<SearchFile> = (1..=3).map(|i| shard_file(&q, i, 3)).collect();
    let old: Vec<String> = files.iter().map(v1_text).collect();
    for (f, t) in files.iter().zip(&old) {
        assert!(legacy::is_v1(t));
        assert_eq!(&from_text(t, "old").unwrap(), f);
    }
    let whole = SearchJob::all(q.clone(), None)
        .unwrap()
        .run(&ctx())
        .unwrap();
    let named = |f: SearchFile, i: usize| (format!("f{i}"), f);
    let mixed = vec![
        named(from_text(&old[0], "o").unwrap(), 0),
        named(files[1].clone(), 1),
        named(from_text(&old[2], "o").unwrap(), 2),
    ];
    let (file, doc) = merge(&mixed, &ctx()).unwrap();
    assert_eq!(doc.results, whole.document.unwrap().results);
    assert_eq!(
        file.progress.counts.partial().results,
        whole.partial.unwrap().results
    );
    assert_eq!(file.shard, Shard::WHOLE);
    // an old file edited (a digit of the query, the checksum's case) is refused
    let edited = old[0].replacen("\"top\":3", "\"top\":4", 1);
    assert_ne!(edited, old[0]);
    assert!(from_text(&edited, "o").is_err());
    let upper = old[0].replacen(&old[0][13..29], &old[0][13..29].to_uppercase(), 1);
    if upper != old[0] {
        assert!(from_text(&upper, "o").is_err());
    }
}

/// However the shards' tallies are added, the merged results are the
/// unsharded run's; shards of another search, twice or missing are refused.
#[test]
fn merging_in_any_order_gives_the_unsharded_results() {
    let q = query(5);
    let whole = SearchJob::all(q.clone(), None)
        .unwrap()
        .run(&ctx())
        .unwrap();
    let whole = whole.partial.unwrap();
    let files: Vec<(String, SearchFile)> = (1..=4)
        .map(|i| (format!("s{i}"), shard_file(&q, i, 4)))
        .collect();
    for order in [[0, 1, 2, 3], [3, 2, 1, 0], [2, 0, 3, 1]] {
        let fs: Vec<_> = order.iter().map(|&i| files[i].clone()).collect();
        let (file, _) = merge(&fs, &ctx()).unwrap();
        let m = &file.progress.counts.partial();
        assert_eq!(m.results, whole.results);
        assert_eq!(
            (m.hd_histogram.clone(), m.examined),
            (whole.hd_histogram.clone(), 128)
        );
        assert_eq!(m.classes, whole.classes);
    }
    let other = (String::from("x"), shard_file(&query(4), 2, 4));
    for bad in [
        vec![
            files[0].clone(),
            files[0].clone(),
            files[2].clone(),
            files[3].clone(),
        ],
        vec![files[0].clone(), files[1].clone(), files[2].clone()],
        vec![files[0].clone(), other, files[2].clone(), files[3].clone()],
    ] {
        let e = merge(&bad, &ctx()).unwrap_err().to_string();
        assert!(!e.contains('\n'), "{e}");
    }
}
