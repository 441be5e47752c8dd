//! Output formats and writing results: to stdout, or atomically to a file
//! (written to a temporary name, then renamed, so an interrupted run never
//! leaves a partial file that looks complete).

use anyhow::{Context, Result, bail};
use std::io::Write;
use std::path::{Path, PathBuf};

/// A file to write (`-o/--output`, `--out`, `--checkpoint`), checked when
/// the arguments are parsed, before any work: its folder exists and is a
/// writable folder, and the path itself is not a folder. Every command's
/// output options are of this type (or [`PlotPath`]), so no run computes
/// for minutes and then finds it cannot write its result.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OutPath(PathBuf);

impl OutPath {
    /// Checks `s` as a file to write (see the type).
    pub fn parse(s: &str) -> std::result::Result<OutPath, String> {
        let path = PathBuf::from(s);
        if s.is_empty() {
            return Err("the file name is empty".into());
        }
        if s.ends_with(std::path::MAIN_SEPARATOR) || s.ends_with('/') || path.is_dir() {
            return Err(format!("{s} is a folder, not a file"));
        }
        let parent = match path.parent() {
            Some(p) if !p.as_os_str().is_empty() => p,
            _ => Path::new("."),
        };
        if !parent.is_dir() {
            return Err(if parent.exists() {
                format!("{} is not a folder", parent.display())
            } else {
                format!("the folder {} does not exist", parent.display())
            });
        }
        if std::fs::metadata(parent).is_ok_and(|m| m.permissions().readonly()) {
            return Err(format!("the folder {} is read-only", parent.display()));
        }
        Ok(OutPath(path))
    }

    /// The path as given.
    pub fn path(&self) -> &Path {
        &self.0
    }

    /// The path with its folder resolved (symbolic links, `..`, `.`), for
    /// telling whether two options name the same file.
    pub fn normalized(&self) -> PathBuf {
        if let Ok(p) = self.0.canonicalize() {
            return p;
        }
        let parent = match self.0.parent() {
            Some(p) if !p.as_os_str().is_empty() => p,
            _ => Path::new("."),
        };
        let dir = parent.canonicalize().unwrap_or_else(|_| parent.to_path_buf());
        match self.0.file_name() {
            Some(name) => dir.join(name),
            None => dir,
        }
    }
}

impl std::ops::Deref for OutPath {
    type Target = Path;
    fn deref(&self) -> &Path {
        &self.0
    }
}

/// A picture to write (`--plot`, `alias plot -o`): an [`OutPath`] whose
/// name ends in `.svg` or `.png` (the extension picks the format), checked
/// when the arguments are parsed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PlotPath(OutPath);

impl PlotPath {
    /// Checks `s` as a picture to write (see the type).
    pub fn parse(s: &str) -> std::result::Result<PlotPath, String> {
        let p = OutPath::parse(s)?;
        aliasing_plot::Format::from_path(&p).map_err(|e| e.to_string())?;
        Ok(PlotPath(p))
    }

    /// The checked output path.
    pub fn out(&self) -> &OutPath {
        &self.0
    }
}

impl std::ops::Deref for PlotPath {
    type Target = Path;
    fn deref(&self) -> &Path {
        &self.0
    }
}

/// Refuses two output options naming the same file (after resolving its
/// folder): one would replace the other. `(flag, path)` pairs; `None` passes.
pub fn distinct(outputs: &[(&str, Option<&OutPath>)]) -> Result<()> {
    let given: Vec<(&str, PathBuf)> = outputs
        .iter()
        .filter_map(|(f, p)| p.map(|p| (*f, p.normalized())))
        .collect();
    for (i, (fa, a)) in given.iter().enumerate() {
        if let Some((fb, _)) = given[..i].iter().find(|(_, b)| b == a) {
            bail!(
                "{fb} and {fa} name the same file {}: one would replace the other",
                a.display()
            );
        }
    }
    Ok(())
}

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

/// Writes `text` to `path` atomically, or to stdout when `path` is `None`.
pub fn emit(path: Option<&Path>, text: &str) -> Result<()> {
    match path {
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
