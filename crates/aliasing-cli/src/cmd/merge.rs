//! `alias merge`.

use anyhow::{Result, bail};

/// Arguments of `alias merge`.
#[derive(clap::Args)]
pub struct Args {}

/// Runs `alias merge`.
pub fn run(_args: Args) -> Result<()> {
    bail!("`alias merge` is not implemented yet")
}
