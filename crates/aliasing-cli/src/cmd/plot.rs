//! `alias plot`: re-plots a saved JSON result as SVG or PNG.

use crate::output::PlotPath;
use aliasing_plot::{XUnit, YQuantity};
use std::io::Read;
use std::path::PathBuf;

use anyhow::{Context, Result, bail};

/// Arguments of `alias plot`.
#[derive(clap::Args)]
pub struct Args {
    /// A saved `--format json` result of curve, compare, simulate, transfer,
    /// stack or search (or a JSON array of simulate results swept over BER or
    /// length); `-` reads stdin.
    pub input: PathBuf,
    /// The picture to write; its extension, .svg or .png, picks the format. [required]
    #[arg(short, long, value_parser = PlotPath::parse)]
    pub output: PlotPath,
    /// Quantity on the y axis of curves and comparisons.
    #[arg(long, value_enum, default_value_t = YQuantity::AliasGivenError)]
    pub y: YQuantity,
    /// Unit of lengths on the x axis.
    #[arg(long, value_enum, default_value_t = XUnit::Auto)]
    pub x: XUnit,
    /// Picture size in pixels, WIDTHxHEIGHT (each 400 to 8000).
    #[arg(long, default_value = "1100x650", value_parser = aliasing_plot::figure::parse_size)]
    pub size: (u32, u32),
}

/// Runs `alias plot`.
pub fn run(args: Args) -> Result<()> {
    // bounded reads: a device or an endless pipe is refused, not read forever
    let max = aliasing_sim::shard::MAX_FILE_BYTES;
    let text = if args.input.as_os_str() == "-" {
        let mut s = String::new();
        std::io::stdin()
            .take(max + 1)
            .read_to_string(&mut s)
            .context("cannot read standard input")?;
        if s.len() as u64 > max {
            bail!("standard input has more than {max} bytes: not a result document");
        }
        s
    } else {
        aliasing_sim::shard::read_text(&args.input)?
    };
    let doc = match serde_json::from_str(&text) {
        Ok(v) => aliasing_plot::Document::from_value(&v)?,
        Err(e) => bail!("{} is not valid JSON: {e}", args.input.display()),
    };
    let opts = aliasing_plot::Options {
        y: args.y,
        x: args.x,
        size: args.size,
    };
    aliasing_plot::render_with(&doc, &args.output, &opts)?;
    Ok(())
}
