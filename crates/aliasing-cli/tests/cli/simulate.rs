//! `alias simulate` and `alias merge` end to end: output, shards, SIGKILL and
//! resume, refusal of bad input and of corrupt or mismatched files.

use crate::util::alias;
use std::process::{Command, Output};
use std::time::{Duration, Instant};

/// Runs `base` as shards 1/n to n/n, each with `--out` a file in `dir`
/// (`shard{i}.json`); each must succeed. Their files and outputs.
fn shards(dir: &std::path::Path, base: &[&str], n: u32) -> (Vec<String>, Vec<Output>) {
    (1..=n)
        .map(|i| {
            let f = dir.join(format!("shard{i}.json")).display().to_string();
            let shard = format!("{i}/{n}");
            let mut a = base.to_vec();
            a.extend(["--shard", &shard, "--out", &f]);
            let o = alias(&a);
            assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
            (f, o)
        })
        .unzip()
}

fn json(o: &Output) -> serde_json::Value {
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    serde_json::from_slice(&o.stdout).unwrap()
}

fn fails_with(o: &Output, needle: &str) {
    assert_eq!(o.status.code(), Some(2));
    let e = String::from_utf8_lossy(&o.stderr);
    assert_eq!(e.trim_end().lines().count(), 1, "{e}");
    assert!(e.starts_with("error: ") && e.contains(needle), "{e}");
}

const RUN: &[&str] = &[
    "simulate",
    "--frames",
    "300000",
    "--bytes",
    "64",
    "--stack",
    "ethernet-tcp",
    "--ber",
    "2e-3",
    "--seed",
    "5",
    "--format",
    "json",
    "--chunk-frames",
    "10000",
    "--no-exact",
];

#[test]
fn json_output_has_the_documented_fields() {
    let v = json(&alias(&[
        "simulate", "--frames", "2e5", "--bytes", "16", "--stack", "crc8", "--ber", "1e-2",
        "--format", "json",
    ]));
    assert_eq!(v["frames"], 200000);
    let c = &v["checks"][0];
    for k in ["name", "escapes", "rate", "ci_low", "ci_high", "exact"] {
        assert!(!c[k].is_null(), "{k} missing: {c}");
    }
    let exact = c["exact"].as_f64().unwrap();
    assert!(exact > 0.0);
    assert!(v["stack"]["escapes"].as_u64().unwrap() > 0);
    assert_eq!(v["stack"]["exact"], c["exact"]);
    let table = alias(&[
        "simulate",
        "--frames",
        "1000",
        "--bytes",
        "64",
        "--stack",
        "ethernet-tcp",
        "--no-exact",
    ]);
    assert!(String::from_utf8_lossy(&table.stdout).contains("TCP checksum"));
}

#[test]
fn merged_shards_equal_the_single_run() {
    let d = tempfile::tempdir().unwrap();
    let whole = json(&alias(RUN));
    let mut one_thread = RUN.to_vec();
    one_thread.extend(["--threads", "1"]);
    let files = shards(d.path(), &one_thread, 3).0;
    let mut m = vec!["merge", "--format", "json", "--no-exact"];
    m.extend(files.iter().map(|f| f.as_str()));
    let merged = json(&alias(&m));
    assert_eq!(merged, whole);
    // a shard of another seed is refused
    let other = d.path().join("other.json");
    let mut a = RUN.to_vec();
    a[10] = "6";
    a.extend(["--shard", "3/3", "--out", other.to_str().unwrap()]);
    assert!(alias(&a).status.success());
    let o = alias(&["merge", &files[0], &files[1], other.to_str().unwrap()]);
    fails_with(&o, "another seed");
    fails_with(&alias(&["merge", &files[0]]), "missing");
}

#[test]
fn killed_and_resumed_run_equals_the_uninterrupted_one() {
    let d = tempfile::tempdir().unwrap();
    // The dense engine on 1518-byte frames: a run of half a second (5e5
    // frames; 1.5e6 in the full tier), killed at its first checkpoint
    // (after 0.05 s)
    let frames = if crate::util::full_tier() {
        "1.5e6"
    } else {
        "5e5"
    };
    let base = [
        "simulate",
        "--frames",
        frames,
        "--bytes",
        "1518",
        "--stack",
        "ethernet-tcp",
        "--ber",
        "1e-4",
        "--engine",
        "dense",
        "--threads",
        "1",
        "--chunk-frames",
        "16384",
        "--format",
        "json",
        "--no-exact",
    ];
    let whole = json(&alias(&base));
    let cp = d.path().join("run.ckpt");
    let mut a: Vec<&str> = base.to_vec();
    a.extend([
        "--checkpoint",
        cp.to_str().unwrap(),
        "--checkpoint-every",
        "0.05",
    ]);
    let mut child = Command::new(env!("CARGO_BIN_EXE_alias"))
        .args(&a)
        .stdout(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let t0 = Instant::now();
    while !cp.exists() && t0.elapsed() < Duration::from_secs(60) {
        std::thread::sleep(Duration::from_millis(5));
    }
    child.kill().unwrap(); // SIGKILL
    child.wait().unwrap();
    assert!(cp.exists());
    let saved = std::fs::read_to_string(&cp).unwrap();
    assert!(
        saved.contains("\"complete\": false"),
        "killed after the end: {saved}"
    );
    // starting over onto an existing checkpoint is refused, and leaves it alone
    fails_with(&alias(&a), "already exists");
    assert_eq!(std::fs::read_to_string(&cp).unwrap(), saved);
    // resuming with other parameters is refused
    let mut other = base.to_vec();
    other[8] = "2e-4";
    other.extend(["--resume", cp.to_str().unwrap()]);
    fails_with(&alias(&other), "other parameters");
    let mut r = base.to_vec();
    r.extend(["--resume", cp.to_str().unwrap()]);
    assert_eq!(json(&alias(&r)), whole);
    // a corrupt checkpoint is refused and not overwritten
    let bad = saved.replacen("\"frames\"", "\"framez\"", 1);
    std::fs::write(&cp, &bad).unwrap();
    fails_with(&alias(&r), "not a valid alias-simulate file");
    assert_eq!(std::fs::read_to_string(&cp).unwrap(), bad);
}

#[test]
fn error_models_and_rare_events_run() {
    let v = json(&alias(&[
        "simulate",
        "--frames",
        "1e5",
        "--bytes",
        "64",
        "--stack",
        "ethernet-tcp",
        "--burst",
        "1e-6,0.3,1e-4,0.1",
        "--format",
        "json",
    ]));
    assert!(v["frames_with_error"].as_u64().unwrap() > 0);
    assert!(v["checks"][0]["exact"].is_null()); // no exact value for bursts
    let v = json(&alias(&[
        "simulate", "--frames", "1e4", "--bytes", "64", "--stack", "crc8", "--errors", "3",
        "--format", "json",
    ]));
    assert_eq!(v["frames_with_error"], 10000);
    let v = json(&alias(&[
        "simulate",
        "--rare",
        "--stack",
        "crc16",
        "--bytes",
        "64",
        "--ber",
        "1e-3",
        "--samples",
        "1e6",
        "--format",
        "json",
    ]));
    let r = &v["result"]["stack"];
    let (rate, exact, se) = (
        r["rate"].as_f64().unwrap(),
        r["exact"].as_f64().unwrap(),
        r["std_err"].as_f64().unwrap(),
    );
    assert!((rate - exact).abs() < 5.0 * se, "{rate} {exact} {se}");
    // a stack with checksums beside the CRC, exact values off
    let v = json(&alias(&[
        "simulate",
        "--rare",
        "--stack",
        "ethernet-tcp",
        "--bytes",
        "64",
        "--ber",
        "1e-3",
        "--samples",
        "1e5",
        "--format",
        "json",
        "--no-exact",
    ]));
    assert!(v["result"]["stack"]["exact"].is_null());
    fails_with(
        &alias(&["simulate", "--rare", "--stack", "tcp", "--bytes", "64"]),
        "needs a CRC",
    );
    fails_with(
        &alias(&["simulate", "--rare", "--errors", "2"]),
        "binary symmetric",
    );
}

#[test]
fn rare_events_on_bursts() {
    // a 16-bit CRC on a Gilbert-Elliott channel: the estimate against the
    // exact product chain printed beside it (5e4 draws: a standard error of
    // 2.6% of the value; 2e5 under ALIAS_TESTS=full: 1.0%)
    let samples = if crate::util::full_tier() {
        "2e5"
    } else {
        "5e4"
    };
    let args = [
        "simulate",
        "--rare",
        "--stack",
        "CRC-16/ARC",
        "--bytes",
        "128",
        "--burst",
        "1e-6,0.5,1e-4,0.1",
        "--samples",
        samples,
        "--seed",
        "3",
        "--format",
        "json",
    ];
    let v = json(&alias(&args));
    assert_eq!(v["method"], "rare-burst");
    let r = &v["result"]["crc"];
    let (rate, exact, se) = (
        r["rate"].as_f64().unwrap(),
        r["exact"].as_f64().unwrap(),
        r["std_err"].as_f64().unwrap(),
    );
    assert!((rate - exact).abs() < 5.0 * se, "{rate} {exact} {se}");
    assert!(se < 0.05 * exact, "{se}");
    assert!(
        v["result"]["method"]
            .as_str()
            .unwrap()
            .starts_with("estimate")
    );
    // the same seed gives the same answer on one thread (the test
    // command: on 1e4 draws, one chunk of draws as the run above; the
    // full tier: the run above, 4 chunks)
    let mut many = args.to_vec();
    if !crate::util::full_tier() {
        assert_eq!(many[8], "--samples");
        many[9] = "1e4";
    }
    let v_many = if many == args {
        v.clone()
    } else {
        json(&alias(&many))
    };
    let mut one = many.clone();
    one.extend(["--threads", "1"]);
    assert_eq!(json(&alias(&one)), v_many);
    fails_with(
        &alias(&[
            "simulate",
            "--rare",
            "--stack",
            "ethernet-tcp",
            "--bytes",
            "64",
            "--burst",
            "1e-6,0.5,1e-4,0.1",
        ]),
        "lone CRC",
    );
    fails_with(
        &alias(&[
            "simulate",
            "--rare",
            "--stack",
            "crc16",
            "--bytes",
            "64",
            "--burst",
            "1e-6,0.5,1e-4,0.1",
            "--shard",
            "1/2",
        ]),
        "--shard needs --out",
    );
    fails_with(
        &alias(&[
            "simulate",
            "--rare",
            "--stack",
            "crc16",
            "--bytes",
            "64",
            "--burst",
            "1e-6,0.5,1e-4,0.1",
            "--proposal",
            "0,0.5,1e-3,0.1",
        ]),
        "strictly between 0 and 1",
    );
    fails_with(
        &alias(&[
            "simulate",
            "--stack",
            "crc16",
            "--proposal",
            "1e-6,0.5,1e-4,0.1",
        ]),
        "--proposal is for --rare --burst",
    );
}

#[test]
fn bad_input_is_one_line_and_exit_2() {
    let d = tempfile::tempdir().unwrap();
    // the same BER parser and message as every other --ber
    fails_with(&alias(&["simulate", "--ber", "2"]), "outside [0, 1]");
    fails_with(&alias(&["simulate", "--frames=-5"]), "--frames");
    fails_with(
        &alias(&["simulate", "--stack", "nonsense", "--frames", "10"]),
        "nonsense",
    );
    fails_with(
        &alias(&["simulate", "--bytes", "20", "--stack", "ethernet-tcp"]),
        "at least 58",
    );
    fails_with(
        &alias(&["simulate", "--shard", "4/3", "--out", "x"]),
        "--shard",
    );
    fails_with(
        &alias(&["simulate", "--ber", "1e-3", "--errors", "2"]),
        "one error model",
    );
    fails_with(&alias(&["simulate", "--payload", "pattern:abc"]), "hex");
    fails_with(
        &alias(&["simulate", "--rare", "--plot", "x.svg", "--samples", "10"]),
        "--rare",
    );
    let garbage = d.path().join("garbage.json");
    std::fs::write(&garbage, "{not json").unwrap();
    fails_with(
        &alias(&["merge", garbage.to_str().unwrap()]),
        "is not a shard file: not JSON",
    );
}

#[test]
fn plot_of_a_run() {
    let d = tempfile::tempdir().unwrap();
    let png = d.path().join("sim.png");
    let gif = d.path().join("x.gif");
    let o = alias(&[
        "simulate",
        "--frames",
        "2e5",
        "--bytes",
        "64",
        "--ber",
        "1e-3",
        "--stack",
        "crc8",
        "--seed",
        "5",
        "--plot",
        png.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert!(std::fs::metadata(&png).unwrap().len() > 1000);
    // a bad picture name is refused before the run, with nothing written
    let o = alias(&[
        "simulate",
        "--frames",
        "1e5",
        "--bytes",
        "64",
        "--ber",
        "1e-3",
        "--stack",
        "crc8",
        "--plot",
        gif.to_str().unwrap(),
    ]);
    fails_with(&o, "svg or .png");
    assert!(!gif.exists());
}

/// Issue 10's defect: a merge of shards of a fixed-payload run printed exact
/// values of an all-zero payload. The merged report (exact values included)
/// must equal the single run's.
#[test]
fn merge_of_a_fixed_payload_keeps_its_exact_values() {
    let d = tempfile::tempdir().unwrap();
    let base = [
        "simulate",
        "--frames",
        "2e5",
        "--bytes",
        "200",
        "--ber",
        "1e-3",
        "--stack",
        "tcp",
        "--payload",
        "pattern:48656c6c6f",
        "--seed",
        "7",
        "--format",
        "json",
    ];
    let whole = json(&alias(&base));
    let tcp = whole["checks"][0]["exact"].as_f64().unwrap();
    // the payload's own value, not the all-zero payload's
    let mut zeros = base.to_vec();
    zeros[10] = "pattern:00";
    assert_ne!(
        json(&alias(&zeros))["checks"][0]["exact"].as_f64().unwrap(),
        tcp
    );
    let files = shards(d.path(), &base, 2).0;
    let merged = json(&alias(&["merge", &files[0], &files[1], "--format", "json"]));
    assert_eq!(merged, whole);
    // the TCP checksum covers the whole segment
    let tcp = &whole["checks"][0];
    assert_eq!(tcp["errored_in_coverage"], whole["frames_with_error"]);
    assert_eq!(tcp["escapes_in_coverage"], tcp["escapes"]);
    // per check: errors inside its coverage, and escapes among them
    let v = json(&alias(&[
        "simulate",
        "--frames",
        "1e5",
        "--bytes",
        "200",
        "--ber",
        "1e-3",
        "--stack",
        "ethernet-tcp",
        "--format",
        "json",
        "--no-exact",
    ]));
    let ip = &v["checks"][0];
    let (errored, escaped) = (
        ip["errored_in_coverage"].as_u64().unwrap(),
        ip["escapes_in_coverage"].as_u64().unwrap(),
    );
    assert!(errored > 0 && errored < v["frames_with_error"].as_u64().unwrap());
    assert!(escaped <= ip["escapes"].as_u64().unwrap());
    let rate = ip["rate_in_coverage"].as_f64().unwrap();
    assert_eq!(rate, escaped as f64 / errored as f64);
    // the FCS covers the whole frame
    assert_eq!(
        v["checks"][2]["errored_in_coverage"],
        v["frames_with_error"]
    );
}

#[test]
fn resume_alone_continues_and_a_mismatch_names_the_field() {
    let d = tempfile::tempdir().unwrap();
    let base = [
        "simulate",
        "--frames",
        "4e5",
        "--bytes",
        "64",
        "--stack",
        "crc16",
        "--ber",
        "1e-3",
        "--seed",
        "5",
        "--chunk-frames",
        "10000",
        "--format",
        "json",
        "--no-exact",
    ];
    let whole = json(&alias(&base));
    // a finished checkpoint resumes to the same report, with nothing retyped
    let cp = d.path().join("alone.ckpt");
    let mut a = base.to_vec();
    a.extend(["--checkpoint", cp.to_str().unwrap()]);
    assert_eq!(json(&alias(&a)), whole);
    let c = cp.to_str().unwrap();
    assert_eq!(
        json(&alias(&[
            "simulate",
            "--resume",
            c,
            "--format",
            "json",
            "--no-exact"
        ])),
        whole
    );
    // given parameters that match are accepted; one that differs is named
    assert_eq!(
        json(&alias(&[
            "simulate",
            "--resume",
            c,
            "--seed",
            "5",
            "--format",
            "json",
            "--no-exact"
        ])),
        whole
    );
    let o = alias(&["simulate", "--resume", c, "--seed", "6"]);
    fails_with(&o, "seed: 5 there, 6 given");
    fails_with(
        &alias(&["simulate", "--resume", c, "--bytes", "65"]),
        "bytes: 64 there, 65 given",
    );
    fails_with(
        &alias(&["simulate", "--resume", c, "--shard", "1/2", "--out", "x"]),
        "shard 1/1",
    );
}

#[test]
fn up_front_checks_refuse_before_any_work() {
    // each of these would run for hours if the check came after the work
    let big = ["simulate", "--frames", "1e15", "--bytes", "1518"];
    for (flag, path) in [
        ("-o", "/nonexistent/s.txt"),
        ("--checkpoint", "/nonexistent/c.ckpt"),
        ("--plot", "/nonexistent/p.svg"),
    ] {
        let mut a = big.to_vec();
        a.extend([flag, path]);
        fails_with(&alias(&a), "/nonexistent");
    }
    let mut a = big.to_vec();
    a.extend(["--shard", "1/2", "--out", "/nonexistent/o.json"]);
    fails_with(&alias(&a), "/nonexistent");
    fails_with(
        &alias(&["simulate", "--frames", "1e4", "--threads", "100000"]),
        "at most 1024",
    );
    fails_with(&alias(&["simulate", "--frames", "1e17"]), "at most 1e16");
    fails_with(
        &alias(&["simulate", "--rare", "--samples", "1e16"]),
        "at most 1e15",
    );
    // the rare-event sampler at BER 0.5: hundreds of strata, one sample or
    // more each (the exact value: CRC-16/ARC's in the test command, the
    // default stack's CRC-32, a 1.6 s dual code, in the full tier)
    let stack = if crate::util::full_tier() {
        "ethernet"
    } else {
        "CRC-16/ARC"
    };
    let v = json(&alias(&[
        "simulate",
        "--rare",
        "--stack",
        stack,
        "--ber",
        "0.5",
        "--samples",
        "1e3",
        "--bytes",
        "64",
        "--format",
        "json",
    ]));
    let r = &v["result"]["stack"];
    assert!(r["ci_low"].as_f64().unwrap() <= r["exact"].as_f64().unwrap());
    assert!(r["exact"].as_f64().unwrap() <= r["ci_high"].as_f64().unwrap());
}

/// `--rare` in shards, with checkpoints: the merge equals the single run bit
/// for bit, and a checkpoint resumes to it.
#[test]
fn rare_event_shards_and_checkpoints_equal_the_single_run() {
    let d = tempfile::tempdir().unwrap();
    let base = [
        "simulate",
        "--rare",
        "--stack",
        "ethernet-tcp",
        "--bytes",
        "80",
        "--ber",
        "1e-2",
        "--samples",
        "6e5",
        "--seed",
        "3",
        "--format",
        "json",
        "--no-exact",
    ];
    let whole = json(&alias(&base));
    let files = shards(d.path(), &base, 3).0;
    let mut m = vec!["merge"];
    m.extend(files.iter().map(|s| s.as_str()));
    m.extend(["--format", "json", "--no-exact"]);
    assert_eq!(json(&alias(&m)), whole);
    // the merge's --out file is the single run's, byte for byte
    let (whole_out, merged_out) = (d.path().join("whole.json"), d.path().join("merged.json"));
    let mut a = base.to_vec();
    a.extend(["--out", whole_out.to_str().unwrap()]);
    assert_eq!(json(&alias(&a)), whole);
    m.extend(["--out", merged_out.to_str().unwrap()]);
    assert_eq!(json(&alias(&m)), whole);
    assert_eq!(
        std::fs::read(&merged_out).unwrap(),
        std::fs::read(&whole_out).unwrap()
    );
    // a repeated shard, or a shard of another run, is refused in one line
    fails_with(&alias(&["merge", &files[0], &files[0], &files[2]]), "twice");
    let plot = d.path().join("rare.svg");
    fails_with(
        &alias(&["merge", &files[0], "--plot", plot.to_str().unwrap()]),
        "one value per check",
    );
    assert!(!plot.exists());
    // a plain simulation's shard with them: refused
    let sim = d.path().join("plain-shard1of2.json");
    let o = alias(&[
        "simulate",
        "--frames",
        "1e4",
        "--bytes",
        "64",
        "--ber",
        "1e-3",
        "--seed",
        "1",
        "--shard",
        "1/2",
        "--out",
        sim.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    fails_with(&alias(&["merge", &files[0], sim.to_str().unwrap()]), "file");
    // checkpointed and resumed (from the finished checkpoint)
    let cp = d.path().join("rare.ckpt");
    let mut a = base.to_vec();
    a.extend(["--checkpoint", cp.to_str().unwrap()]);
    assert_eq!(json(&alias(&a)), whole);
    let c = cp.to_str().unwrap();
    assert_eq!(
        json(&alias(&[
            "simulate",
            "--rare",
            "--resume",
            c,
            "--format",
            "json",
            "--no-exact"
        ])),
        whole
    );
    fails_with(
        &alias(&["simulate", "--rare", "--resume", c, "--samples", "7e5"]),
        "samples: 600000 there, 700000 given",
    );
}

/// `--rare --burst` in shards, with checkpoints: the merge equals the single
/// run bit for bit, and a checkpoint resumes to it.
#[test]
fn rare_burst_shards_and_checkpoints_equal_the_single_run() {
    let d = tempfile::tempdir().unwrap();
    // 2e4 draws split over 3 shards; 7e4 under ALIAS_TESTS=full
    let (samples, more, refusal) = if crate::util::full_tier() {
        ("7e4", "8e4", "samples: 70000 there, 80000 given")
    } else {
        ("2e4", "3e4", "samples: 20000 there, 30000 given")
    };
    let base = [
        "simulate",
        "--rare",
        "--stack",
        "CRC-16/ARC",
        "--bytes",
        "64",
        "--burst",
        "1e-5,0.05,1e-3,0.05",
        "--samples",
        samples,
        "--seed",
        "3",
        "--format",
        "json",
    ];
    let whole = json(&alias(&base));
    assert!(whole["result"]["crc"]["exact"].as_f64().is_some());
    let (files, outputs) = shards(d.path(), &base, 3);
    // a shard's tally alone is no estimate: nothing printed
    assert!(outputs.iter().all(|o| o.stdout.is_empty()));
    let mut m = vec!["merge"];
    m.extend(files.iter().map(|s| s.as_str()));
    m.extend(["--format", "json"]);
    assert_eq!(json(&alias(&m)), whole);
    fails_with(&alias(&["merge", &files[0], &files[0], &files[2]]), "twice");
    let plot = d.path().join("rareburst.svg");
    fails_with(
        &alias(&["merge", &files[0], "--plot", plot.to_str().unwrap()]),
        "one value per check",
    );
    assert!(!plot.exists());
    // checkpointed, then resumed from the finished checkpoint
    let cp = d.path().join("rareburst.ckpt");
    let mut a = base.to_vec();
    a.extend(["--checkpoint", cp.to_str().unwrap(), "--threads", "1"]);
    assert_eq!(json(&alias(&a)), whole);
    let c = cp.to_str().unwrap();
    assert_eq!(
        json(&alias(&[
            "simulate", "--rare", "--resume", c, "--format", "json"
        ])),
        whole
    );
    fails_with(
        &alias(&["simulate", "--rare", "--resume", c, "--samples", more]),
        refusal,
    );
    // the checkpoint exists: a fresh run does not overwrite it
    fails_with(&alias(&a), "already exists");
}
