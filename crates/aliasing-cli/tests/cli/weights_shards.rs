//! End-to-end tests of the split dual-code pass: `alias weights --shard I/N
//! --out FILE` and `alias merge` give the single run's output byte for byte.

use std::path::Path;

use crate::util::alias_code_out_err as alias;

fn ok(args: &[&str]) -> String {
    let (code, out, err) = alias(args);
    assert_eq!(code, 0, "{args:?}: {err}");
    out
}

fn bad(args: &[&str], want: &str) {
    let (code, out, err) = alias(args);
    assert_eq!(code, 2, "{args:?}: {out}{err}");
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.starts_with("error: ") && err.contains(want), "{err}");
}

/// A fresh directory for one test, removed when it ends.
fn dir() -> tempfile::TempDir {
    tempfile::tempdir().unwrap()
}

fn p(d: &Path, f: &str) -> String {
    d.join(f).display().to_string()
}

/// Writes shards 1..=n of `base` to `d` and returns their paths.
fn shards(d: &Path, base: &[&str], n: u64) -> Vec<String> {
    (1..=n)
        .map(|i| {
            let f = p(d, &format!("s{i}of{n}.json"));
            let s = format!("{i}/{n}");
            let mut args = base.to_vec();
            args.extend(["--shard", &s, "--out", &f]);
            let printed = ok(&args);
            // a part prints nothing; shard 1/1 is the whole run
            assert_eq!(printed.is_empty(), n > 1, "{printed}");
            f
        })
        .collect()
}

#[test]
fn merged_shards_equal_the_single_run_table_and_json() {
    let d = dir();
    // (x+1) p, primitive, 24-bit (1024 items), and a generator whose
    // cycles are walked
    for (crc, bits) in [
        ("crc16", "300"),
        ("0x1100B", "1000"),
        ("crc24", "700"),
        ("0x1F", "40"),
    ] {
        let base = [
            "weights",
            "--crc",
            crc,
            "--bits",
            bits,
            "--method",
            "dual",
            "--dual",
            "--max-weight",
            "12",
        ];
        for format in ["table", "json"] {
            let mut single = base.to_vec();
            single.extend(["--format", format]);
            let want = ok(&single);
            for n in [1u64, 2, 5] {
                let files = shards(d.path(), &base, n);
                let mut merge = vec!["merge", "--format", format];
                // any order
                merge.extend(files.iter().rev().map(String::as_str));
                assert_eq!(ok(&merge), want, "{crc} {bits} {format} {n} shards");
            }
        }
        // the merged file is the whole pass's result file; merged again, the same
        let files = shards(d.path(), &base, 3);
        let whole = p(d.path(), "whole.json");
        let mut merge = vec!["merge", "--out", &whole];
        merge.extend(files.iter().map(String::as_str));
        let table = ok(&merge);
        assert_eq!(ok(&["merge", &whole]), table);
        // --out without --shard writes the same file as one shard of one
        let one = p(d.path(), "one.json");
        let mut args = base.to_vec();
        args.extend(["--out", &one]);
        assert_eq!(ok(&args), table);
        assert_eq!(std::fs::read(&one).unwrap(), std::fs::read(&whole).unwrap());
    }
}

#[test]
fn mismatched_repeated_missing_or_edited_shards_are_refused() {
    let d = dir();
    let base = [
        "weights", "--crc", "crc16", "--bits", "300", "--method", "dual",
    ];
    let f = shards(d.path(), &base, 3);
    bad(&["merge", &f[0], &f[1], &f[1]], "given twice");
    bad(&["merge", &f[0], &f[2]], "shard 2/3 is missing");
    let other = p(d.path(), "other.json");
    ok(&[
        "weights", "--crc", "crc16", "--bits", "301", "--method", "dual", "--shard", "2/3",
        "--out", &other,
    ]);
    bad(&["merge", &f[0], &other, &f[2]], "other parameters");
    let two = shards(
        d.path(),
        &[
            "weights",
            "--crc",
            "crc16",
            "--bits",
            "300",
            "--method",
            "dual",
            "--max-weight",
            "5",
        ],
        2,
    );
    bad(&["merge", &f[0], &two[1], &f[2]], "other parameters");
    let text = std::fs::read_to_string(&f[1]).unwrap();
    let edited = p(d.path(), "edited.json");
    std::fs::write(
        &edited,
        text.replacen("\"counts\": [\n", "\"counts\": [\n 1,", 1),
    )
    .unwrap();
    bad(&["merge", &f[0], &edited, &f[2]], "edited.json");
    // a simulate shard is another kind of file
    let sim = p(d.path(), "sim.json");
    ok(&[
        "simulate", "--frames", "1000", "--bytes", "64", "--stack", "crc8", "--shard", "2/3",
        "--out", &sim,
    ]);
    bad(&["merge", &f[0], &sim, &f[2]], "sim.json");
    // refused before any work
    bad(
        &[
            "weights",
            "--crc",
            "crc16",
            "--bits",
            "300",
            "--method",
            "syndromes",
            "--max-weight",
            "4",
            "--shard",
            "1/2",
            "--out",
            &p(d.path(), "x.json"),
        ],
        "use the dual method",
    );
    bad(
        &[
            "weights",
            "--crc",
            "crc16",
            "--bits",
            "300",
            "--method",
            "dual",
            "--shard",
            "3/2",
            "--out",
            &p(d.path(), "x.json"),
        ],
        "--shard",
    );
    bad(
        &[
            "weights",
            "--crc",
            "crc16",
            "--bits",
            "300",
            "--method",
            "dual",
            "--shard",
            "1/2",
            "--out",
            "/nonexistent/x.json",
        ],
        "nonexistent",
    );
    bad(
        &[
            "weights",
            "--crc",
            "crc64",
            "--bits",
            "300",
            "--method",
            "dual",
            "--shard",
            "1/2",
            "--out",
            &p(d.path(), "x.json"),
        ],
        "32",
    );
    bad(
        &[
            "merge",
            &f[0],
            &f[1],
            &f[2],
            "--plot",
            &p(d.path(), "x.svg"),
        ],
        "--plot",
    );
}

/// Pass files written before the dual-code pass went through the generic
/// session (`aliasing_sim::session::Session`; the fixtures were written by
/// `alias weights --crc crc8 --bits 64 --max-weight 6 --method dual --shard
/// I/2 --out` of that code) still merge, to the single run's output.
#[test]
fn old_pass_files_still_merge() {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures");
    let files: Vec<String> = (1..=2)
        .map(|i| format!("{dir}/weights-shard-{i}of2.json"))
        .collect();
    let run = [
        "weights",
        "--crc",
        "crc8",
        "--bits",
        "64",
        "--max-weight",
        "6",
    ];
    for format in ["table", "json"] {
        let whole = ok(&[&run[..], &["--method", "dual", "--format", format]].concat());
        let merged = ok(&["merge", &files[0], &files[1], "--format", format]);
        assert_eq!(merged, whole, "{format}");
        assert!(whole.contains("585793"), "{whole}");
    }
}
