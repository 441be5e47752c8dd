//! Plots of `alias` results as SVG or PNG.
//!
//! [`render`] takes any result document the `alias` subcommands print with
//! `--format json` (a curve, a comparison, a simulate run or several swept,
//! a transfer, a stack, a search), typed ([`Plot`]) or read from a file
//! ([`Document`]), and draws it to a file whose extension (`.svg` or `.png`)
//! picks the format:
//!
//! - curve: P(alias | error) against codeword length on log-log axes, one line
//!   per BER, the `2^-r` asymptote dashed, titled with the polynomial;
//! - compare: one line per (check, BER) against frame length;
//! - simulate: each estimate with its confidence-interval bar and the exact
//!   value beside it; a sweep over BER or length against that parameter;
//! - transfer: expected escapes per petabyte against BER, per MTU;
//! - stack: the joint P(escape | error) with its interval beside the
//!   independence product against BER, per frame length;
//! - search: the best generators and the catalogue's drawn as a comparison;
//! - the HD profile and the weight distribution of a CRC ([`structure`],
//!   drawn by [`plot_figure`]).
//!
//! Text is drawn with an embedded DejaVu Sans font, so PNG rendering needs no
//! system fonts or fontconfig. Files are written to a temporary name and
//! renamed into place, so a failed render never leaves a file behind.
//!
//! The documents are the typed ones the CLI writes, tagged with their kind:
//! those of `aliasing_core::document` (curve, compare) and
//! `aliasing_sim::report::Report` (simulate); [`doc`] reads each through its
//! type and keeps a lenient reader only for untagged (pre-schema) files.
//!
//! ```
//! use aliasing_core::bsc::CurvePoint;
//! use aliasing_core::document::{CheckInfo, Curve};
//! let crc = aliasing_core::catalogue::resolve("crc8").unwrap();
//! let points = vec![
//!     CurvePoint::new(1e-3, 16, 8, 3.3e-5),
//!     CurvePoint::new(1e-3, 64, 8, 2.2e-4),
//! ];
//! let curve = Curve::new(CheckInfo::from(&crc), "markov", points, None);
//! let path = std::env::temp_dir().join(format!("aliasing-plot-doc-{}.svg", std::process::id()));
//! aliasing_plot::render(&curve, &path).unwrap();
//! assert!(std::fs::read_to_string(&path).unwrap().contains("CRC-8"));
//! std::fs::remove_file(&path).unwrap();
//! ```

pub mod compare;
pub mod curve;
pub mod doc;
pub mod error;
pub mod figure;
pub mod font;
mod profile;
pub mod search;
pub mod simulate;
pub mod stack;
pub mod structure;
pub mod ticks;
pub mod transfer;

use std::path::Path;

use plotters::prelude::*;

pub use doc::Document;
use error::render_err;
pub use error::{PlotError, Result};
pub use figure::Figure;

/// Which probability goes on the y axis of curves and comparisons.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[cfg_attr(feature = "clap", derive(clap::ValueEnum))]
pub enum YQuantity {
    /// P(alias | error) = P_ud / P_err, with the 2^-r asymptote dashed.
    #[default]
    #[cfg_attr(feature = "clap", value(name = "alias"))]
    AliasGivenError,
    /// P_ud, the probability per frame of an undetected error.
    Undetected,
}

/// The unit of frame lengths on the x axis.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[cfg_attr(feature = "clap", derive(clap::ValueEnum))]
pub enum XUnit {
    /// Bits for curves, bytes for comparisons and simulate sweeps.
    #[default]
    Auto,
    /// Bits.
    Bits,
    /// Bytes.
    Bytes,
}

/// Options of a plot.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Options {
    /// The y quantity of curves and comparisons (simulate results always plot escapes per frame).
    pub y: YQuantity,
    /// The unit of lengths on the x axis.
    pub x: XUnit,
    /// Picture size in pixels.
    pub size: (u32, u32),
}

impl Default for Options {
    fn default() -> Self {
        Self {
            y: YQuantity::default(),
            x: XUnit::default(),
            size: figure::SIZE,
        }
    }
}

/// The output format, chosen by a file's extension.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    /// Scalable vector graphics.
    Svg,
    /// Portable network graphics.
    Png,
}

impl Format {
    /// The format for `path` from its extension (case-insensitive), or an error naming the file.
    ///
    /// ```
    /// use aliasing_plot::Format;
    /// assert_eq!(Format::from_path("a/b.SVG".as_ref()).unwrap(), Format::Svg);
    /// assert!(Format::from_path("plot.pdf".as_ref()).is_err());
    /// ```
    pub fn from_path(path: &Path) -> Result<Self> {
        match path
            .extension()
            .and_then(|e| e.to_str())
            .map(str::to_ascii_lowercase)
            .as_deref()
        {
            Some("svg") => Ok(Format::Svg),
            Some("png") => Ok(Format::Png),
            _ => Err(PlotError::BadExtension(path.to_path_buf())),
        }
    }
}

/// A result document that has a figure: every document an `alias` command
/// can plot (curve, compare, simulate runs, transfer, stack, search), typed,
/// and [`Document`], a document read from a file. [`render`] takes any of
/// them: no JSON between a command's result and its picture.
pub trait Plot {
    /// The document's figure.
    fn figure(&self, opts: &Options) -> Result<Figure>;
}

impl Plot for aliasing_core::document::Curve {
    fn figure(&self, opts: &Options) -> Result<Figure> {
        curve::figure(&self.clone().into(), opts)
    }
}

impl Plot for aliasing_core::document::Compare {
    fn figure(&self, opts: &Options) -> Result<Figure> {
        compare::figure(&self.clone().into(), opts)
    }
}

impl Plot for aliasing_sim::report::Report {
    fn figure(&self, opts: &Options) -> Result<Figure> {
        simulate::figure(&self.into(), opts)
    }
}

/// Simulate runs swept over BER or frame length (one run: its own figure).
impl Plot for [aliasing_sim::report::Report] {
    fn figure(&self, opts: &Options) -> Result<Figure> {
        let docs: Vec<doc::SimulateDoc> = self.iter().map(Into::into).collect();
        match docs.as_slice() {
            [] => Err(PlotError::UnknownDocument("no simulate run".into())),
            [one] => simulate::figure(one, opts),
            _ => simulate::sweep_figure(&docs, opts),
        }
    }
}

impl Plot for aliasing_core::document::Transfer {
    fn figure(&self, _opts: &Options) -> Result<Figure> {
        transfer::figure(self)
    }
}

impl Plot for aliasing_core::document::Stack {
    fn figure(&self, _opts: &Options) -> Result<Figure> {
        stack::figure(self)
    }
}

impl Plot for aliasing_core::document::Search {
    fn figure(&self, opts: &Options) -> Result<Figure> {
        search::figure(self, opts)
    }
}

impl Plot for Document {
    fn figure(&self, opts: &Options) -> Result<Figure> {
        figure_of(self, opts)
    }
}

/// A document as JSON (read from a file): recognised and read by
/// [`Document::from_value`], then drawn.
impl Plot for serde_json::Value {
    fn figure(&self, opts: &Options) -> Result<Figure> {
        figure_of(&Document::from_value(self)?, opts)
    }
}

/// Plots a result document to `path` (`.svg` or `.png`) with default options.
///
/// This is the helper behind `--plot FILE` on the other subcommands:
/// `aliasing_plot::render(&result, path)?`, `result` the typed document.
pub fn render<D: Plot + ?Sized>(doc: &D, path: &Path) -> Result<()> {
    render_with(doc, path, &Options::default())
}

/// Plots a result document to `path` with the given options.
pub fn render_with<D: Plot + ?Sized>(doc: &D, path: &Path, opts: &Options) -> Result<()> {
    let format = Format::from_path(path)?;
    let fig = doc.figure(opts)?;
    write_figure(&fig, path, format, opts.size)
}

/// The figure of a parsed document.
pub fn figure_of(doc: &Document, opts: &Options) -> Result<Figure> {
    match doc {
        Document::Curve(d) => curve::figure(d, opts),
        Document::Compare(d) => compare::figure(d, opts),
        Document::Simulate(d) => simulate::figure(d, opts),
        Document::SimulateSweep(d) => simulate::sweep_figure(d, opts),
        Document::Transfer(d) => transfer::figure(d),
        Document::Stack(d) => stack::figure(d),
        Document::Search(d) => search::figure(d, opts),
    }
}

/// Plots a curve document to `path`.
pub fn plot_curve(doc: &doc::CurveDoc, path: &Path, opts: &Options) -> Result<()> {
    let format = Format::from_path(path)?;
    write_figure(&curve::figure(doc, opts)?, path, format, opts.size)
}

/// Plots a compare document to `path`.
pub fn plot_compare(doc: &doc::CompareDoc, path: &Path, opts: &Options) -> Result<()> {
    let format = Format::from_path(path)?;
    write_figure(&compare::figure(doc, opts)?, path, format, opts.size)
}

/// Plots one simulate run to `path`.
pub fn plot_simulate(doc: &doc::SimulateDoc, path: &Path, opts: &Options) -> Result<()> {
    let format = Format::from_path(path)?;
    write_figure(&simulate::figure(doc, opts)?, path, format, opts.size)
}

/// Plots simulate runs swept over BER or frame length to `path`.
pub fn plot_simulate_sweep(docs: &[doc::SimulateDoc], path: &Path, opts: &Options) -> Result<()> {
    let format = Format::from_path(path)?;
    write_figure(
        &simulate::sweep_figure(docs, opts)?,
        path,
        format,
        opts.size,
    )
}

/// Draws `fig` to `path`, the format chosen by its extension (`.svg` or
/// `.png`), atomically: the figures built outside a result document (the
/// HD profile and weight distribution of [`structure`]).
pub fn plot_figure(fig: &Figure, path: &Path, size: (u32, u32)) -> Result<()> {
    write_figure(fig, path, Format::from_path(path)?, size)
}

/// Renders `fig` as an SVG document in memory.
pub fn svg_string(fig: &Figure, size: (u32, u32)) -> Result<String> {
    font::ensure_registered();
    let mut s = String::new();
    {
        let root = SVGBackend::with_string(&mut s, size).into_drawing_area();
        fig.draw(&root)?;
    }
    Ok(s)
}

/// Renders `fig` as 8-bit RGB pixels, row by row (`3 * width * height` bytes).
pub fn rgb_pixels(fig: &Figure, size: (u32, u32)) -> Result<Vec<u8>> {
    font::ensure_registered();
    let mut buf = vec![0u8; 3 * size.0 as usize * size.1 as usize];
    {
        let root = BitMapBackend::with_buffer(&mut buf, size).into_drawing_area();
        fig.draw(&root)?;
    }
    Ok(buf)
}

/// Draws `fig` to `path` in `format`, atomically.
pub fn write_figure(fig: &Figure, path: &Path, format: Format, size: (u32, u32)) -> Result<()> {
    // the folder first, before any drawing: one clear message, no work thrown away
    if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty())
        && !dir.is_dir()
    {
        return Err(PlotError::Io {
            path: path.to_path_buf(),
            error: std::io::Error::new(
                std::io::ErrorKind::NotFound,
                format!("the folder {} does not exist", dir.display()),
            ),
        });
    }
    match format {
        Format::Svg => {
            aliasing_core::__private::atomic::write(path, svg_string(fig, size)?.as_bytes())
                .map_err(|error| PlotError::Io {
                    path: path.to_path_buf(),
                    error,
                })
        }
        Format::Png => {
            let png = encode_png(&rgb_pixels(fig, size)?, size)?;
            aliasing_core::__private::atomic::write(path, &png).map_err(|error| PlotError::Io {
                path: path.to_path_buf(),
                error,
            })
        }
    }
}

/// `pixels` (8-bit RGB, row by row) as a PNG file's bytes.
fn encode_png(pixels: &[u8], (width, height): (u32, u32)) -> Result<Vec<u8>> {
    let mut out = Vec::new();
    let mut encoder = png::Encoder::new(&mut out, width, height);
    encoder.set_color(png::ColorType::Rgb);
    encoder.set_depth(png::BitDepth::Eight);
    let mut writer = encoder.write_header().map_err(render_err)?;
    writer.write_image_data(pixels).map_err(render_err)?;
    writer.finish().map_err(render_err)?;
    Ok(out)
}

/// The crate's README, whose example runs as a doc test.
#[doc = include_str!("../README.md")]
#[cfg(doctest)]
pub struct ReadmeDoctest;
