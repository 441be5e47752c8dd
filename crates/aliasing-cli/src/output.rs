//! Output formats and writing results: to stdout, or atomically to a file
//! (written to a temporary name, then renamed, so an interrupted run never
//! leaves a partial file that looks complete).

use anyhow::{Context, Result};
use std::io::Write;
use std::path::Path;

/// Output format of a result.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum, Default)]
pub enum Format {
    /// Aligned, human-readable columns.
    #[default]
    Table,
    /// Comma-separated values with a header line.
    Csv,
    /// One JSON document.
    Json,
}

/// Writes `text` to `path` atomically, or to stdout when `path` is `None`
/// (to the returned document instead, in a [`crate::run_document`] call).
pub fn emit(path: Option<&Path>, text: &str) -> Result<()> {
    match path {
        None if crate::embed::capture(text) => Ok(()),
        None => {
            let mut out = std::io::stdout().lock();
            out.write_all(text.as_bytes())?;
            if !text.ends_with('\n') {
                out.write_all(b"\n")?;
            }
            Ok(())
        }
        Some(p) => aliasing_core::atomic::write(p, text.as_bytes())
            .with_context(|| format!("cannot write {}", p.display())),
    }
}

/// Renders rows as aligned columns; the first row is the header.
pub fn table(rows: &[Vec<String>]) -> String {
    let cols = rows.iter().map(|r| r.len()).max().unwrap_or(0);
    let mut widths = vec![0; cols];
    for r in rows {
        for (i, c) in r.iter().enumerate() {
            widths[i] = widths[i].max(c.chars().count());
        }
    }
    let mut s = String::new();
    for r in rows {
        let line: Vec<String> = r
            .iter()
            .enumerate()
            .map(|(i, c)| format!("{c:>w$}", w = widths[i]))
            .collect();
        s.push_str(line.join("  ").trim_end());
        s.push('\n');
    }
    s
}

/// Renders rows as CSV; the first row is the header.
pub fn csv(rows: &[Vec<String>]) -> String {
    let mut s = String::new();
    for r in rows {
        let line: Vec<String> = r
            .iter()
            .map(|c| {
                if c.contains([',', '"', '\n']) {
                    format!("\"{}\"", c.replace('"', "\"\""))
                } else {
                    c.clone()
                }
            })
            .collect();
        s.push_str(&line.join(","));
        s.push('\n');
    }
    s
}

/// A probability for tables: shortest round-trip form in scientific notation.
pub fn prob(x: f64) -> String {
    if x == 0.0 {
        "0".into()
    } else {
        format!("{x:.6e}")
    }
}
