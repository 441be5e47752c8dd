//! Progress bars: drawn on a terminal only. With stderr on a pipe (as here)
//! every long-running command writes nothing to stderr on success; on a
//! pseudo-terminal (util-linux `script`) the bar shows its stage, and the
//! results are the same.

use crate::util::alias;
use std::process::Command;

/// Each command runs its long computation on a small case; stderr is a pipe.
const COMMANDS: &[&[&str]] = &[
    &[
        "curve",
        "--crc",
        "16",
        "--ber",
        "1e-5",
        "--bits",
        "17:4000:1",
        "--method",
        "markov",
    ],
    &[
        "curve", "--crc", "16", "--ber", "1e-5", "--bytes", "64,1500", "--method", "dual",
    ],
    &[
        "curve",
        "--crc",
        "16",
        "--bits",
        "2000",
        "--burst",
        "1e-4,0.2,1e-3,0.1",
    ],
    &[
        "curve", "--crc", "crc64-xz", "--ber", "1e-5", "--bytes", "64",
    ],
    &[
        "curve", "--check", "internet", "--ber", "1e-5", "--bytes", "64,1500",
    ],
    &[
        "compare",
        "--bytes",
        "64,1500",
        "--ber",
        "1e-6",
        "--checks",
        "crc16-ccitt,internet",
    ],
    &[
        "weights",
        "--crc",
        "crc16-ccitt",
        "--bits",
        "300",
        "--max-weight",
        "4",
        "--method",
        "syndromes",
    ],
    &["hd", "--crc", "crc16-ccitt"],
    &["search", "--width", "8", "--bytes", "64", "--ber", "1e-4"],
    &[
        "simulate", "--frames", "2e4", "--stack", "crc16", "--bytes", "64", "--ber", "1e-3",
        "--seed", "1",
    ],
    &[
        "simulate",
        "--rare",
        "--samples",
        "2e4",
        "--stack",
        "crc16",
        "--bytes",
        "64",
        "--ber",
        "1e-3",
    ],
];

/// The joint computation of `alias stack` needs CRC-32's dual-code weights
/// (about 4 s of CPU): run with `--ignored`; the commands above check the
/// same bar by default.
const SLOW: &[&[&str]] = &[&["stack", "--bytes", "64", "--ber", "1e-4"]];

#[test]
fn nothing_on_stderr_off_a_terminal() {
    quiet_off_a_terminal(COMMANDS);
}

#[test]
#[ignore = "about 4 s of CPU: CRC-32's dual-code weights"]
fn nothing_on_stderr_off_a_terminal_slow() {
    quiet_off_a_terminal(SLOW);
}

fn quiet_off_a_terminal(commands: &[&[&str]]) {
    for args in commands {
        let o = alias(args);
        assert!(
            o.status.success(),
            "{args:?}: {}",
            String::from_utf8_lossy(&o.stderr)
        );
        assert!(!o.stdout.is_empty(), "{args:?}: no result");
        assert!(
            o.stderr.is_empty(),
            "{args:?} wrote to stderr off a terminal: {:?}",
            String::from_utf8_lossy(&o.stderr)
        );
    }
}

/// Runs `alias args` on a pseudo-terminal by util-linux `script`; `None`
/// where `script` is missing.
fn on_terminal(args: &[&str]) -> Option<String> {
    let line = std::iter::once(env!("CARGO_BIN_EXE_alias"))
        .chain(args.iter().copied())
        .collect::<Vec<_>>()
        .join(" ");
    let o = Command::new("script")
        .args(["-qec", &line, "/dev/null"])
        .env("TERM", "xterm")
        .output()
        .ok()?;
    assert!(
        o.status.success(),
        "{line}: {}",
        String::from_utf8_lossy(&o.stdout)
    );
    Some(String::from_utf8_lossy(&o.stdout).into_owned())
}

/// The bar is drawn at its first stage (indicatif's first draw is not
/// rate-limited), so a short run shows it too: every length to 4,000 bits
/// (to 60,000 under `ALIAS_TESTS=full`).
#[test]
fn a_bar_on_a_terminal_names_its_stage_and_leaves_stdout_alone() {
    let bits = if crate::util::full_tier() {
        "17:60000:1"
    } else {
        "17:4000:1"
    };
    let args = [
        "curve", "--crc", "16", "--ber", "1e-5", "--bits", bits, "--method", "markov", "--format",
        "csv",
    ];
    let Some(tty) = on_terminal(&args) else {
        eprintln!("skipped: no `script` to run a pseudo-terminal");
        return;
    };
    assert!(tty.contains("chain steps"), "no bar on a terminal: {tty:?}");
    // the bar is cleared: the last line is a result row, not a bar
    let piped = alias(&args);
    let want = String::from_utf8(piped.stdout).unwrap();
    let last = want.lines().last().unwrap();
    assert!(
        tty.trim_end().ends_with(last),
        "{:?}",
        &tty[tty.len() - 300..]
    );
}

/// `alias stack --merge` recomputes each length's dual code: on a terminal
/// the bar shows that stage (a 24-bit CRC keeps it short), as the
/// computing path does.
#[test]
fn stack_merge_shows_the_dual_code_on_a_terminal() {
    let dir = tempfile::tempdir().unwrap();
    let files: Vec<String> = (1..=2)
        .map(|i| dir.path().join(format!("s{i}.json")).display().to_string())
        .collect();
    for (i, f) in files.iter().enumerate() {
        let shard = format!("{}/2", i + 1);
        let o = alias(&[
            "stack",
            "--stack",
            "tcp+CRC-24/OPENPGP",
            "--bytes",
            "200",
            "--ber",
            "1e-6",
            "--samples",
            "0",
            "--shard",
            &shard,
            "--out",
            f,
        ]);
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    }
    let args = ["stack", "--merge", &files[0], &files[1]];
    let piped = alias(&args);
    assert!(piped.status.success() && piped.stderr.is_empty());
    if let Some(tty) = on_terminal(&args) {
        assert!(tty.contains("dual-code windows"), "no bar: {tty:?}");
        let want = String::from_utf8(piped.stdout).unwrap();
        let last = want.lines().last().unwrap();
        assert!(tty.trim_end().ends_with(last), "{tty:?}");
    } else {
        eprintln!("skipped: no `script` to run a pseudo-terminal");
    }
}
