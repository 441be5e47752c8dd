//! `alias plot`.

use anyhow::{Result, bail};

/// Arguments of `alias plot`.
#[derive(clap::Args)]
pub struct Args {}

/// Runs `alias plot`.
pub fn run(_args: Args) -> Result<()> {
    bail!("`alias plot` is not implemented yet")
}
