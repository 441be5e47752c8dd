//! The helpers every module of the CLI tests shares: run the built binary.

use std::process::{Command, Output};

/// Runs `alias` with `args`, waiting for it to end.
pub fn alias(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_alias"))
        .args(args)
        .output()
        .expect("run alias")
}

/// Runs `alias` with `args`: its exit code (-1 when killed by a signal),
/// standard output and standard error.
pub fn alias_code_out_err(args: &[&str]) -> (i32, String, String) {
    let out = alias(args);
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// A run's standard output (UTF-8).
pub fn stdout(o: &Output) -> String {
    String::from_utf8(o.stdout.clone()).unwrap()
}

/// A run's standard error (UTF-8).
pub fn stderr(o: &Output) -> String {
    String::from_utf8(o.stderr.clone()).unwrap()
}

/// Whether `ALIAS_TESTS=full` (what `.ci/run` sets) asks for every case: the
/// test command runs each test on its smaller cases, the full tier on all.
pub fn full_tier() -> bool {
    std::env::var("ALIAS_TESTS").is_ok_and(|v| v == "full")
}

/// The typed reason ([`aliasing_cli::RunError::reason`]) and message of
/// the program's refusal of `args` in-process (where `--format json` is
/// added); `None` where the in-process call does not take the command line
/// (`plot`, or `-o`/`--output`/`--format` given) or does not refuse it.
/// Call it only for a command line the binary refuses before any work.
pub fn refusal(args: &[&str]) -> Option<(&'static str, String)> {
    let own = |a: &&str| {
        ["-o", "--output", "--format"]
            .iter()
            .any(|f| a.starts_with(f))
    };
    if args.first() == Some(&"plot") || args.iter().any(own) {
        return None;
    }
    let argv: Vec<String> = args.iter().map(|s| s.to_string()).collect();
    let e = aliasing_cli::run_document(&argv, &aliasing_cli::Hooks::new()).err()?;
    Some((e.reason, e.message))
}
