//! No panics, no lost work, no hangs, no unbounded reads, end to end:
//! rare-event files whose sums pass `u64::MAX` (8- and 16-bit CRCs; a
//! 32-bit stack for comparison) are written, merged byte for byte to the
//! single run's file, and a checkpointed rare-event run killed with SIGKILL
//! resumes to the uninterrupted result; channels that cannot err finish at
//! once; payload files that are devices, FIFOs or longer than a frame are
//! refused before any read; `--version` names the binary as called.

use crate::util::alias;
use std::path::Path;
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

/// Runs `args`; kills it and fails if it is still running after `limit`.
fn alias_within(args: &[&str], limit: Duration) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_alias"))
        .args(args)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run alias");
    let t0 = Instant::now();
    while child.try_wait().unwrap().is_none() {
        if t0.elapsed() > limit {
            child.kill().unwrap();
            child.wait().unwrap();
            panic!("still running after {limit:?}: alias {}", args.join(" "));
        }
        std::thread::sleep(Duration::from_millis(10));
    }
    child.wait_with_output().unwrap()
}

fn ok(o: &Output) -> String {
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    String::from_utf8(o.stdout.clone()).unwrap()
}

fn fails_with(o: &Output, needle: &str) {
    let e = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{e}");
    assert_eq!(e.trim_end().lines().count(), 1, "{e}");
    assert!(e.starts_with("error: ") && e.contains(needle), "{e}");
}

fn read(p: &Path) -> String {
    std::fs::read_to_string(p).unwrap()
}

/// Rare-event shards of 8-, 16- and 32-bit stacks: each shard's file is
/// written (the 8- and 16-bit sums pass `u64::MAX` and are written as
/// decimal strings), and the merge's `--out` is the single run's file, byte
/// for byte, with the same printed result.
#[test]
fn rare_event_shards_of_8_16_and_32_bit_stacks_merge_byte_for_byte() {
    let d = tempfile::tempdir().unwrap();
    for (stack, wide) in [("crc8", true), ("CRC-16/ARC", true), ("ethernet", false)] {
        let base = [
            "simulate",
            "--rare",
            "--stack",
            stack,
            "--bytes",
            "128",
            "--ber",
            "1e-3",
            "--samples",
            "2e5",
            "--seed",
            "4",
            "--format",
            "json",
            "--no-exact",
        ];
        let tag = stack.replace('/', "-");
        let whole = d.path().join(format!("{tag}-whole.json"));
        let mut a = base.to_vec();
        a.extend(["--out", whole.to_str().unwrap()]);
        let printed = ok(&alias(&a));
        let files: Vec<String> = (1..=2)
            .map(|i| {
                let f = d.path().join(format!("{tag}-{i}.json"));
                let shard = format!("{i}/2");
                let mut a = base.to_vec();
                a.extend(["--shard", &shard, "--out", f.to_str().unwrap()]);
                ok(&alias(&a));
                f.display().to_string()
            })
            .collect();
        let merged = d.path().join(format!("{tag}-merged.json"));
        let mut m = vec!["merge", &files[0], &files[1], "--format", "json"];
        m.extend(["--no-exact", "--out", merged.to_str().unwrap()]);
        assert_eq!(ok(&alias(&m)), printed, "{stack}");
        assert_eq!(read(&merged), read(&whole), "{stack}");
        assert_eq!(
            read(&whole).contains("\"stack2\": \""),
            wide,
            "{stack}: sums past u64::MAX as strings"
        );
    }
}

/// A checkpointed rare-event run (16-bit CRC: sums past `u64::MAX` in the
/// checkpoint) killed with SIGKILL resumes to the uninterrupted result.
#[test]
fn a_killed_rare_event_run_resumes_to_the_same_result() {
    let d = tempfile::tempdir().unwrap();
    let base = [
        "simulate",
        "--rare",
        "--stack",
        "CRC-16/ARC",
        "--bytes",
        "256",
        "--ber",
        "1e-3",
        "--samples",
        "1e7",
        "--seed",
        "2",
        "--threads",
        "1",
        "--format",
        "json",
        "--no-exact",
    ];
    let whole = ok(&alias(&base));
    let cp = d.path().join("rare.ckpt");
    let mut a = base.to_vec();
    a.extend([
        "--checkpoint",
        cp.to_str().unwrap(),
        "--checkpoint-every",
        "0.05",
    ]);
    let mut child = Command::new(env!("CARGO_BIN_EXE_alias"))
        .args(&a)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let t0 = Instant::now();
    while !cp.exists() && t0.elapsed() < Duration::from_secs(120) {
        std::thread::sleep(Duration::from_millis(5));
    }
    child.kill().unwrap(); // SIGKILL
    child.wait().unwrap();
    let saved = read(&cp);
    assert!(
        saved.contains("\"complete\": false"),
        "killed after the end: {saved}"
    );
    assert!(saved.contains("\"stack2\": \""), "{saved}");
    let mut r = base.to_vec();
    r.extend(["--resume", cp.to_str().unwrap()]);
    assert_eq!(ok(&alias(&r)), whole);
    assert!(read(&cp).contains("\"complete\": true"));
}

/// Channels whose states never err finish at once with no error, in both
/// engines and the burst rare-event sampler; a Gilbert-Elliott channel with
/// errors too rare to meet in the run finishes too.
#[test]
fn channels_that_cannot_err_finish_at_once() {
    let limit = Duration::from_secs(60);
    for extra in [
        &["--burst", "0,0,0.5,0.5", "--frames", "10"][..],
        &[
            "--burst",
            "0,0,0.5,0.5",
            "--frames",
            "10",
            "--engine",
            "dense",
        ],
        &["--burst", "0,0,0.5,0.5", "--frames", "1e8"],
        &["--burst", "0,0,1,1", "--frames", "1e8"],
        &["--burst", "0,1,0,0.5", "--frames", "1e8"],
        &["--burst", "1e-300,1e-300,0.5,0.5", "--frames", "1000"],
        &["--ber", "0", "--frames", "1e8"],
    ] {
        let mut a = vec!["simulate", "--stack", "crc8", "--bytes", "8"];
        a.extend(["--format", "json", "--no-exact"]);
        a.extend(extra);
        let out = ok(&alias_within(&a, limit));
        let v: serde_json::Value = serde_json::from_str(&out).unwrap();
        assert_eq!(v["frames_with_error"], 0, "{extra:?}: {out}");
        assert_eq!(v["bit_errors"], 0, "{extra:?}: {out}");
    }
    let a = [
        "simulate",
        "--rare",
        "--stack",
        "crc8",
        "--bytes",
        "8",
        "--burst",
        "0,0,0.5,0.5",
        "--samples",
        "1000",
        "--format",
        "json",
    ];
    let out = ok(&alias_within(&a, limit));
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["result"]["hits"], 0, "{out}");
    assert_eq!(v["result"]["crc"]["rate"], 0.0, "{out}");
}

/// Payload files that are not regular files, or longer than a frame can
/// hold, are refused in one line before any read, by every command.
#[test]
fn payload_files_are_bounded_before_any_read() {
    let d = tempfile::tempdir().unwrap();
    let limit = Duration::from_secs(60);
    // a sparse file longer than any frame (nothing is written to disk)
    let big = d.path().join("big.bin");
    std::fs::File::create(&big)
        .unwrap()
        .set_len(4 << 30)
        .unwrap();
    let big = big.to_str().unwrap();
    let empty = d.path().join("empty.bin");
    std::fs::write(&empty, b"").unwrap();
    let empty = empty.to_str().unwrap();
    let folder = d.path().to_str().unwrap();
    let mut specials = vec!["/dev/zero".to_string()];
    let fifo = d.path().join("fifo");
    if Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .is_ok_and(|s| s.success())
    {
        specials.push(fifo.display().to_string());
    }
    for file in specials
        .iter()
        .map(String::as_str)
        .chain([big, empty, folder])
    {
        let needle = if file == big {
            "more than the"
        } else if file == empty {
            "is empty"
        } else if file == folder {
            "is a folder"
        } else {
            "not a regular file"
        };
        let sim = format!("file:{file}");
        for a in [
            &[
                "curve",
                "--check",
                "internet",
                "--payload",
                file,
                "--ber",
                "1e-5",
            ][..],
            &["compare", "--payload", file, "--ber", "1e-5"],
            &[
                "simulate",
                "--payload",
                &sim,
                "--ber",
                "1e-5",
                "--frames",
                "10",
            ],
        ] {
            let o = alias_within(a, limit);
            fails_with(&o, needle);
            assert!(String::from_utf8_lossy(&o.stderr).contains(file), "{a:?}");
        }
    }
    // a payload that fits still runs
    let small = d.path().join("frame.bin");
    std::fs::write(&small, [0x45u8; 40]).unwrap();
    let small = small.to_str().unwrap();
    ok(&alias(&[
        "curve",
        "--check",
        "internet",
        "--payload",
        small,
        "--ber",
        "1e-5",
    ]));
}

/// `--version` names the binary as called.
#[test]
fn version_names_the_binary_as_called() {
    for (exe, name) in [
        (env!("CARGO_BIN_EXE_alias"), "alias"),
        (env!("CARGO_BIN_EXE_aliasing"), "aliasing"),
    ] {
        let o = Command::new(exe).arg("--version").output().unwrap();
        let out = String::from_utf8(o.stdout).unwrap();
        assert!(o.status.success());
        assert_eq!(out, format!("{name} {}\n", env!("CARGO_PKG_VERSION")));
    }
}

/// Every file reader (merge, plot, resume, search shards and candidate
/// lists, stack shards) refuses a device or a FIFO in one line instead of
/// reading it forever.
#[test]
fn file_readers_refuse_devices_and_fifos() {
    let d = tempfile::tempdir().unwrap();
    let mut specials = vec!["/dev/zero".to_string()];
    let fifo = d.path().join("fifo");
    if Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .is_ok_and(|s| s.success())
    {
        specials.push(fifo.display().to_string());
    }
    let svg = d.path().join("x.svg");
    let svg = svg.to_str().unwrap();
    for f in specials.iter().map(String::as_str) {
        for a in [
            &["merge", f][..],
            &["merge", f, f],
            &["plot", f, "-o", svg],
            &["simulate", "--resume", f],
            &["simulate", "--rare", "--resume", f],
            &["search", "--merge", f],
            &[
                "search",
                "--width",
                "8",
                "--bits",
                "64",
                "--ber",
                "1e-5",
                "--candidates",
                f,
            ],
            &["stack", "--merge", f],
        ] {
            fails_with(
                &alias_within(a, Duration::from_secs(60)),
                "not a regular file",
            );
        }
    }
}
