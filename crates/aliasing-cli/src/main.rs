//! `alias`: exact and simulated aliasing (undetected-error) probabilities of
//! CRCs and checksums. Thin glue: parse arguments, call the library, print.

mod args;
mod cmd;
mod lengths;
mod output;

use clap::{Parser, Subcommand};
use std::process::ExitCode;

/// Exact and simulated probabilities that a corrupted frame passes its CRC and checksum.
#[derive(Parser)]
#[command(name = "alias", version, about, long_about = None)]
struct Cli {
    #[command(subcommand)]
    cmd: Cmd,
}

#[derive(Subcommand)]
#[allow(clippy::large_enum_variant)] // parsed once
enum Cmd {
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
    /// Adds shard result files of one `simulate` run.
    Merge(cmd::merge::Args),
    /// Re-plots a saved JSON result as SVG or PNG.
    Plot(cmd::plot::Args),
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.cmd {
        Cmd::Curve(a) => cmd::curve::run(a),
        Cmd::Hd(a) => cmd::hd::run(a),
        Cmd::Weights(a) => cmd::weights::run(a),
        Cmd::Compare(a) => cmd::compare::run(a),
        Cmd::Simulate(a) => cmd::simulate::run(a),
        Cmd::Merge(a) => cmd::merge::run(a),
        Cmd::Plot(a) => cmd::plot::run(a),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            // One line naming the problem; exit code 2 for every user-facing error.
            let msg = format!("{e:#}").replace('\n', " ");
            eprintln!("error: {msg}");
            ExitCode::from(2)
        }
    }
}
