//! `alias weights`.

use anyhow::{Result, bail};

/// Arguments of `alias weights`.
#[derive(clap::Args)]
pub struct Args {}

/// Runs `alias weights`.
pub fn run(_args: Args) -> Result<()> {
    bail!("`alias weights` is not implemented yet")
}
