//! `alias curve`.

use anyhow::{Result, bail};

/// Arguments of `alias curve`.
#[derive(clap::Args)]
pub struct Args {}

/// Runs `alias curve`.
pub fn run(_args: Args) -> Result<()> {
    bail!("`alias curve` is not implemented yet")
}
