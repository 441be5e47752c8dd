//! `alias compare`.

use anyhow::{Result, bail};

/// Arguments of `alias compare`.
#[derive(clap::Args)]
pub struct Args {}

/// Runs `alias compare`.
pub fn run(_args: Args) -> Result<()> {
    bail!("`alias compare` is not implemented yet")
}
