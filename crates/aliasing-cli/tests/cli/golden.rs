//! Golden-output regression test: the standard output of fast invocations of
//! every exact and simulation command, compared byte for byte with the files
//! in `tests/golden/`.
//!
//! These outputs were recorded from the CLI before the core model was
//! reorganised; every printed digit must stay the same. To record a new
//! output on purpose (a fixed defect, a new case), run
//! `ALIAS_GOLDEN_UPDATE=1 cargo test -p aliasing-cli --test cli golden::` and
//! review the diff of `tests/golden/` before committing it.

use std::path::{Path, PathBuf};
use std::process::Command;

/// Each case: the golden file's name and the arguments of `alias`.
const CASES: &[(&str, &[&str])] = &[
    // curve: CRC, both exact methods, every format; checks; a given payload.
    (
        "curve_crc16_table",
        &[
            "curve",
            "--crc",
            "16",
            "--ber",
            "1e-5,1e-7",
            "--bytes",
            "64,1518",
        ],
    ),
    (
        "curve_arc_dual_csv",
        &[
            "curve",
            "--crc",
            "CRC-16/ARC",
            "--method",
            "dual",
            "--ber",
            "1e-5",
            "--bytes",
            "64,1518",
            "--format",
            "csv",
        ],
    ),
    (
        "curve_crc16_markov_json",
        &[
            "curve", "--crc", "16", "--method", "markov", "--ber", "1e-3", "--bits", "40,100",
            "--format", "json",
        ],
    ),
    (
        "curve_crc8_markov_table",
        &[
            "curve",
            "--crc",
            "crc8",
            "--method",
            "markov",
            "--ber",
            "1e-2,1e-4",
            "--bits",
            "log:16:4096:5",
        ],
    ),
    (
        "curve_kcrc_dual_json",
        &[
            "curve",
            "--crc",
            "k:0xBAAD",
            "--method",
            "dual",
            "--ber",
            "1e-6",
            "--bytes",
            "64:256:64",
            "--format",
            "json",
        ],
    ),
    (
        "curve_internet_table",
        &[
            "curve", "--check", "internet", "--ber", "1e-4", "--bytes", "20,40",
        ],
    ),
    (
        "curve_fletcher16_json",
        &[
            "curve",
            "--check",
            "fletcher16",
            "--ber",
            "1e-4",
            "--bytes",
            "20,40",
            "--format",
            "json",
        ],
    ),
    (
        "curve_internet_payload_csv",
        &[
            "curve",
            "--check",
            "internet",
            "--payload-hex",
            "450000281c4640004006",
            "--ber",
            "1e-3,1e-5",
            "--format",
            "csv",
        ],
    ),
    (
        "curve_internet_frame_csv",
        &[
            "curve",
            "--check",
            "internet",
            "--frame-hex",
            "4500 0073 0000 4000 7a8c",
            "--ber",
            "1e-3,1e-5,1",
            "--format",
            "csv",
        ],
    ),
    // compare: every format, a check without an exact method.
    (
        "compare_table",
        &[
            "compare",
            "--ber",
            "1e-6,1e-4",
            "--bytes",
            "64,128",
            "--checks",
            "crc16-ccitt,internet,fletcher16,adler32,crc8",
        ],
    ),
    (
        "compare_csv",
        &[
            "compare",
            "--ber",
            "1e-6,1e-4",
            "--bytes",
            "64,128",
            "--checks",
            "crc16-ccitt,internet,fletcher16,adler32,crc8",
            "--format",
            "csv",
        ],
    ),
    (
        "compare_json",
        &[
            "compare",
            "--ber",
            "1e-5",
            "--bytes",
            "64",
            "--checks",
            "crc16-ccitt,internet,fletcher16",
            "--format",
            "json",
        ],
    ),
    (
        "compare_payload_table",
        &[
            "compare",
            "--ber",
            "1e-3",
            "--checks",
            "crc16,internet",
            "--payload-hex",
            "450000281c46400040060000c0a80001c0a800c7",
        ],
    ),
    // hd and weights.
    ("hd_koopman_table", &["hd", "--crc", "k:0xBAAD"]),
    (
        "hd_crc32_csv",
        &["hd", "--crc", "crc32", "--max-hd", "6", "--format", "csv"],
    ),
    (
        "hd_crc16_json",
        &["hd", "--crc", "crc16", "--format", "json"],
    ),
    (
        "weights_crc32_syndromes_csv",
        &[
            "weights",
            "--crc",
            "crc32",
            "--bits",
            "12144",
            "--max-weight",
            "4",
            "--format",
            "csv",
        ],
    ),
    (
        "weights_crc16_dual_json",
        &[
            "weights", "--crc", "16", "--bits", "100", "--dual", "--format", "json",
        ],
    ),
    (
        "weights_crc16_table",
        &[
            "weights",
            "--crc",
            "crc16-ccitt",
            "--bits",
            "1000",
            "--dual",
        ],
    ),
    // simulate: seeded, with the exact column, every channel and format.
    (
        "simulate_internet_table",
        &[
            "simulate", "--frames", "3e4", "--bytes", "64", "--ber", "1e-2", "--stack", "internet",
            "--seed", "11",
        ],
    ),
    (
        "simulate_crc16_table",
        &[
            "simulate", "--frames", "2e4", "--bytes", "64", "--ber", "1e-3", "--stack", "crc16",
            "--seed", "3",
        ],
    ),
    (
        "simulate_fletcher16_json",
        &[
            "simulate",
            "--frames",
            "3e4",
            "--bytes",
            "64",
            "--ber",
            "3e-2",
            "--stack",
            "fletcher16",
            "--seed",
            "2",
            "--format",
            "json",
            "--threads",
            "2",
        ],
    ),
    (
        "simulate_burst_crc8_csv",
        &[
            "simulate",
            "--frames",
            "2e4",
            "--bytes",
            "64",
            "--burst",
            "1e-5,0.1,0.01,0.2",
            "--stack",
            "crc8",
            "--seed",
            "4",
            "--format",
            "csv",
        ],
    ),
    (
        "simulate_errors_internet_dense",
        &[
            "simulate", "--frames", "2e4", "--bytes", "64", "--errors", "2", "--stack", "internet",
            "--seed", "9", "--engine", "dense",
        ],
    ),
    (
        "simulate_ethernet_tcp_pattern_json",
        &[
            "simulate",
            "--frames",
            "2e4",
            "--bytes",
            "100",
            "--ber",
            "1e-3",
            "--stack",
            "ethernet-tcp",
            "--payload",
            "pattern:48656c6c6f",
            "--seed",
            "7",
            "--no-exact",
            "--format",
            "json",
        ],
    ),
    (
        "simulate_rare_crc8",
        &[
            "simulate",
            "--rare",
            "--samples",
            "2e5",
            "--stack",
            "crc8",
            "--ber",
            "1e-4",
            "--bytes",
            "64",
            "--seed",
            "5",
        ],
    ),
];

fn golden_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/golden")
}

fn run(args: &[&str]) -> String {
    let o = Command::new(env!("CARGO_BIN_EXE_alias"))
        .args(args)
        .output()
        .expect("run alias");
    assert!(
        o.status.success(),
        "alias {args:?} failed: {}",
        String::from_utf8_lossy(&o.stderr)
    );
    String::from_utf8(o.stdout).expect("UTF-8 output")
}

/// Compares `got` with the golden file `name`, or records it when
/// `ALIAS_GOLDEN_UPDATE` is set. Returns a description of a mismatch.
fn check(name: &str, got: &str) -> Option<String> {
    let path = golden_dir().join(format!("{name}.txt"));
    if std::env::var_os("ALIAS_GOLDEN_UPDATE").is_some() {
        std::fs::write(&path, got).expect("write golden file");
        return None;
    }
    let want = std::fs::read_to_string(&path).unwrap_or_else(|e| {
        panic!(
            "{}: {e} (record with ALIAS_GOLDEN_UPDATE=1)",
            path.display()
        )
    });
    if want == got {
        return None;
    }
    let line = want
        .lines()
        .zip(got.lines())
        .position(|(a, b)| a != b)
        .unwrap_or(want.lines().count().min(got.lines().count()));
    Some(format!(
        "{name}: differs from {} at line {}\n--- want\n{want}--- got\n{got}",
        path.display(),
        line + 1
    ))
}

#[test]
fn outputs_match_the_golden_files() {
    let failures: Vec<String> = CASES
        .iter()
        .filter_map(|(name, args)| check(name, &run(args)))
        .collect();
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn merged_shards_match_the_golden_files() {
    // Shards of one random-payload run, merged in both orders; three chunks
    // so that both shards hold frames.
    let dir = tempfile::tempdir().unwrap();
    let common = [
        "simulate", "--frames", "2e5", "--bytes", "64", "--ber", "1e-2", "--stack", "internet",
        "--seed", "11",
    ];
    let mut files = Vec::new();
    for shard in ["1/2", "2/2"] {
        let out = dir.path().join(format!("shard-{}.json", &shard[..1]));
        let mut args = common.to_vec();
        let out_s = out.to_str().unwrap().to_owned();
        args.extend(["--shard", shard, "--out", &out_s]);
        run(&args);
        files.push(out_s);
    }
    let whole = run(&common);
    let merged = run(&["merge", &files[0], &files[1]]);
    let merged_json = run(&["merge", &files[1], &files[0], "--format", "json"]);
    let failures: Vec<String> = [
        check("simulate_unsharded_table", &whole),
        check("merge_table", &merged),
        check("merge_json", &merged_json),
    ]
    .into_iter()
    .flatten()
    .collect();
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    // A merge reproduces the unsharded run's report.
    assert_eq!(merged, whole, "merged shards differ from the whole run");
}
