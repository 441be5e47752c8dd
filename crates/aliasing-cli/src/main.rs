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
//! alias transfer --size 10TB --mtu 1500,9000 --ber 1e-6,1e-8   # corrupted packets per transfer
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
mod flags;
pub(crate) mod output;
pub(crate) mod progress;
pub(crate) mod team;

use clap::{CommandFactory, FromArgMatches, Parser, Subcommand};
use std::process::ExitCode;

/// The vocabulary every command shares, and the reason for each difference
/// (printed after the top-level help).
const CONVENTIONS: &str = "\
Conventions (the same in every command):
  Checks     --crc names one CRC (curve, hd, weights: hd and weights are CRC-only);
             --check any check, checksums included (curve); --checks a list of them
             (compare); --stack a frame layout of several checks (simulate, stack).
  Lengths    --bits/--bytes lists: 1500, 64,1500, START:STOP:STEP, log:START:STOP:N;
             simulate --bytes and weights --bits take one length (one frame size).
  Counts     whole numbers as digits or in exponent form when the value is whole
             (1e9, 1.5e3); read exactly (10000000000000001 stays that number).
  BERs       --ber lists in [0, 1], one parser (simulate takes one BER); stack and
             search refuse BERs outside their methods' domains, saying which.
  Outputs    -o/--output, --out, --checkpoint and --plot (.svg or .png) are checked
             before any work, and no two may name the same file.
  Long runs  over a minute say how long on a terminal; over a day need --allow-long.";

/// Exact and simulated probabilities that a corrupted frame passes its CRC and checksum.
#[derive(Parser)]
#[command(name = "alias", version, about, long_about = None, after_help = CONVENTIONS)]
pub(crate) struct Cli {
    #[command(subcommand)]
    pub(crate) cmd: Cmd,
    /// Start runs estimated to take longer than a day (refused otherwise;
    /// runs estimated over a minute say how long before they start).
    #[arg(long, global = true)]
    pub(crate) allow_long: bool,
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
    /// Expected corrupted packets delivered in a transfer, per MTU, BER and hops.
    Transfer(cmd::transfer::Args),
    /// Which generator to use: search by Hamming distance, then exact P_ud.
    Search(cmd::search::Args),
    /// Adds shard result files of one `simulate` run or `weights` pass.
    Merge(cmd::merge::Args),
    /// Re-plots a saved JSON result as SVG or PNG.
    Plot(cmd::plot::Args),
}

/// The name the program was called by (`alias`, `aliasing`, or a link's
/// name; `alias` when the system gives none), for `--version` and `--help`.
fn called_name() -> &'static str {
    let name = std::env::args_os().next().and_then(|a| {
        std::path::Path::new(&a)
            .file_stem()
            .map(|s| s.to_string_lossy().into_owned())
    });
    match name.as_deref() {
        None | Some("") | Some("alias") => "alias",
        Some("aliasing") => "aliasing",
        // parsed once per process: the name lives as long as the program
        Some(other) => Box::leak(other.to_string().into_boxed_str()),
    }
}

/// A clap error as one line (its message and any tip), or clap's own output
/// for `--help` and `--version`.
fn parse_args() -> Result<Cli, ExitCode> {
    let command = Cli::command().name(called_name());
    command
        .try_get_matches()
        .and_then(|m| Cli::from_arg_matches(&m))
        .map_err(|e| {
            use clap::error::ErrorKind;
            if matches!(e.kind(), ErrorKind::DisplayHelp | ErrorKind::DisplayVersion) {
                let _ = e.print();
                return ExitCode::from(if e.use_stderr() { 2 } else { 0 });
            }
            if e.kind() == ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand {
                // no command: name them on one line (the help has the rest)
                let cmd = Cli::command();
                let names: Vec<&str> = cmd.get_subcommands().map(|c| c.get_name()).collect();
                eprintln!(
                    "error: no command given: one of {} (see --help)",
                    names.join(", ")
                );
                return ExitCode::from(2);
            }
            eprintln!("error: {} (see --help)", one_line(&e.render().to_string()));
            ExitCode::from(2)
        })
}

/// The first line of a clap message without its `error: ` prefix, with the
/// indented lines that complete it (the arguments a "not provided" message
/// lists) and any `tip:` lines appended.
pub(crate) fn one_line(rendered: &str) -> String {
    let mut raw = rendered.lines().skip_while(|l| l.trim().is_empty());
    let first = raw.next().map(str::trim).unwrap_or("invalid arguments");
    let mut out = first.strip_prefix("error: ").unwrap_or(first).to_string();
    if out.ends_with(':') {
        let listed: Vec<&str> = raw
            .take_while(|l| l.starts_with(char::is_whitespace) && !l.trim().is_empty())
            .map(str::trim)
            .collect();
        if !listed.is_empty() {
            out.push(' ');
            out.push_str(&listed.join(", "));
        }
    }
    let lines = rendered.lines().map(str::trim);
    for tip in lines.filter(|l| l.starts_with("tip:")) {
        out.push_str("; ");
        out.push_str(tip);
    }
    out
}

/// Runs one parsed subcommand (the binary and the in-process entry point,
/// [`crate::run_document`], both come through here).
pub(crate) fn dispatch(cmd: Cmd) -> anyhow::Result<()> {
    let done = match cmd {
        Cmd::Curve(a) => cmd::curve::run(a),
        Cmd::Hd(a) => cmd::hd::run(a),
        Cmd::Weights(a) => cmd::weights::run(a),
        Cmd::Compare(a) => cmd::compare::run(a),
        Cmd::Simulate(a) => cmd::simulate::run(a),
        Cmd::Stack(a) => cmd::stack::run(a),
        Cmd::Transfer(a) => cmd::transfer::run(a),
        Cmd::Search(a) => cmd::search::run(a),
        Cmd::Merge(a) => cmd::merge::run(a),
        Cmd::Plot(a) => cmd::plot::run(a),
    };
    done.map_err(flags::flagged)
}

/// The program: parse, run the subcommand, print; errors as one line, exit 2.
pub fn main() -> ExitCode {
    let cli = match parse_args() {
        Ok(c) => c,
        Err(code) => return code,
    };
    output::allow_long(cli.allow_long);
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
