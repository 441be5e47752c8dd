//! `alias hd`.

use anyhow::{Result, bail};

/// Arguments of `alias hd`.
#[derive(clap::Args)]
pub struct Args {}

/// Runs `alias hd`.
pub fn run(_args: Args) -> Result<()> {
    bail!("`alias hd` is not implemented yet")
}
