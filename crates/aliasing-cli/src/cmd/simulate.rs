//! `alias simulate`.

use anyhow::{Result, bail};

/// Arguments of `alias simulate`.
#[derive(clap::Args)]
pub struct Args {}

/// Runs `alias simulate`.
pub fn run(_args: Args) -> Result<()> {
    bail!("`alias simulate` is not implemented yet")
}
