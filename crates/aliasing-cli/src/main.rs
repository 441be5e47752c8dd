//! `alias`: exact and simulated aliasing (undetected-error) probabilities of
//! CRCs and checksums. Thin glue: parse arguments, call the library
//! (`aliasing-core` for exact methods, `aliasing-sim` for Monte Carlo,
//! `aliasing-plot` for pictures), print. No mathematics lives here.
//!
//! ```text
//! alias curve --crc 16 --ber 1e-5                      # exact curve, table
//! alias curve --crc crc32 --bytes 1518 --ber 1e-5      # dual-code method
//! alias compare --bytes 64,1500,9000 --ber 1e-6        # checks side by side
//! alias hd --crc crc32c                                # Hamming-distance profile
//! alias stack --bytes 64,594,1518,9018 --ber 1e-4,1e-5,1e-6,1e-8   # joint escape
//! alias search --width 16 --bytes 1518 --ber 1e-5,1e-7  # which generator to use
//! alias simulate --frames 1e9 --bytes 1518 --ber 1e-5 --stack ethernet-tcp --seed 1
//! ```
//!
//! Every user-facing error is one line `error: ...` on stderr and exit code 2.
//!
//! This file is the `program` module of the library (`src/lib.rs`), not a
//! binary's root: both binaries (`src/bin/`) call [`main`].

pub(crate) mod args;
pub(crate) mod cmd;
pub(crate) mod lengths;
pub(crate) mod output;
pub(crate) mod progress;
pub(crate) mod team;

use clap::{Parser, Subcommand};
use std::process::ExitCode;

/// Exact and simulated probabilities that a corrupted frame passes its CRC and checksum.
#[derive(Parser)]
#[command(name = "alias", version, about, long_about = None)]
pub(crate) struct Cli {
    #[command(subcommand)]
    pub(crate) cmd: Cmd,
}

#[derive(Subcommand)]
#[allow(clippy::large_enum_variant)] // parsed once
pub(crate) enum Cmd {
    /// Exact P(undetected) and P(alias | error) against frame length for one check.
    Curve(cmd::curve::Args),
    /// Hamming-distance profile of a CRC in the notation of Koopman's tables.
    Hd(cmd::hd::Args),
    /// Weight distribution (A_w) of a CRC code, and of its dual.
    Weights(cmd::weights::Args),
    /// Several checks side by side at the same lengths and BERs.
    Compare(cmd::compare::Args),
    /// Monte Carlo through a stack of checks, with confidence intervals.
    Simulate(cmd::simulate::Args),
    /// Exact joint escape of a stack of checks (FCS + IPv4 + TCP) vs the independence product.
    Stack(cmd::stack::Args),
    /// Which generator to use: search by Hamming distance, then exact P_ud.
    Search(cmd::search::Args),
    /// Adds shard result files of one `simulate` run or `weights` pass.
    Merge(cmd::merge::Args),
    /// Re-plots a saved JSON result as SVG or PNG.
    Plot(cmd::plot::Args),
}

/// A clap error as one line (its message and any tip), or clap's own output
/// for `--help` and `--version`.
fn parse_args() -> Result<Cli, ExitCode> {
    Cli::try_parse().map_err(|e| {
        use clap::error::ErrorKind;
        if matches!(e.kind(), ErrorKind::DisplayHelp | ErrorKind::DisplayVersion)
            || matches!(
                e.kind(),
                ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand
            )
        {
            let _ = e.print();
            return ExitCode::from(if e.use_stderr() { 2 } else { 0 });
        }
        eprintln!("error: {} (see --help)", one_line(&e.render().to_string()));
        ExitCode::from(2)
    })
}

/// The first line of a clap message without its `error: ` prefix, with any
/// `tip:` lines appended.
pub(crate) fn one_line(rendered: &str) -> String {
    let mut lines = rendered.lines().map(str::trim).filter(|l| !l.is_empty());
    let first = lines.next().unwrap_or("invalid arguments");
    let mut out = first.strip_prefix("error: ").unwrap_or(first).to_string();
    for tip in lines.filter(|l| l.starts_with("tip:")) {
        out.push_str("; ");
        out.push_str(tip);
    }
    out
}

/// Runs one parsed subcommand (the binary and the in-process entry point,
/// [`crate::run_document`], both come through here).
pub(crate) fn dispatch(cmd: Cmd) -> anyhow::Result<()> {
    match cmd {
        Cmd::Curve(a) => cmd::curve::run(a),
        Cmd::Hd(a) => cmd::hd::run(a),
        Cmd::Weights(a) => cmd::weights::run(a),
        Cmd::Compare(a) => cmd::compare::run(a),
        Cmd::Simulate(a) => cmd::simulate::run(a),
        Cmd::Stack(a) => cmd::stack::run(a),
        Cmd::Search(a) => cmd::search::run(a),
        Cmd::Merge(a) => cmd::merge::run(a),
        Cmd::Plot(a) => cmd::plot::run(a),
    }
}

/// The program: parse, run the subcommand, print; errors as one line, exit 2.
pub fn main() -> ExitCode {
    let cli = match parse_args() {
        Ok(c) => c,
        Err(code) => return code,
    };
    match dispatch(cli.cmd) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            // One line naming the problem; exit code 2 for every user-facing error.
            let msg = format!("{e:#}").replace('\n', " ");
            eprintln!("error: {msg}");
            ExitCode::from(2)
        }
    }
}
