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
        let dir = parent
            .canonicalize()
            .unwrap_or_else(|_| parent.to_path_buf());
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

impl From<Format> for aliasing_core::document::text::Format {
    fn from(f: Format) -> Self {
        use aliasing_core::document::text::Format as F;
        match f {
            Format::Table => F::Table,
            Format::Csv => F::Csv,
            Format::Json => F::Json,
        }
    }
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

/// Runs estimated to take longer than this (seconds: a day) are refused
/// unless `--allow-long` is given.
pub const LONG_RUN_LIMIT_S: f64 = 86_400.0;

/// Runs estimated to take longer than this (seconds) say so on stderr
/// before they start, when stderr is a terminal.
pub const ANNOUNCE_S: f64 = 60.0;

static ALLOW_LONG: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

/// `--allow-long` given: runs estimated beyond [`LONG_RUN_LIMIT_S`] start.
pub fn allow_long(on: bool) {
    ALLOW_LONG.store(on, std::sync::atomic::Ordering::Relaxed);
}

/// Before a run estimated to take `seconds` (a cost model's estimate):
/// refuses it beyond [`LONG_RUN_LIMIT_S`] unless `--allow-long` was given,
/// and says how long it is expected to take beyond [`ANNOUNCE_S`] (stderr,
/// on a terminal). `what` names the run (`this curve`).
pub fn long_run(seconds: f64, what: &str) -> Result<()> {
    use std::io::IsTerminal as _;
    let terminal = std::io::stderr().is_terminal();
    long_run_to(seconds, what, &mut std::io::stderr(), terminal)
}

fn long_run_to(seconds: f64, what: &str, out: &mut dyn Write, announce: bool) -> Result<()> {
    if seconds.is_nan() || seconds <= ANNOUNCE_S {
        return Ok(()); // no estimate, or short
    }
    if seconds > LONG_RUN_LIMIT_S && !ALLOW_LONG.load(std::sync::atomic::Ordering::Relaxed) {
        bail!(
            "{what} is estimated to take {}, over the limit of a day: ask for less, \
             or add --allow-long to run it anyway",
            aliasing_core::document::text::duration(seconds)
        );
    }
    if announce {
        let _ = writeln!(
            out,
            "{what}: estimated to take {} (a cost model's estimate; Ctrl-C stops it)",
            aliasing_core::document::text::duration(seconds)
        );
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn long_runs_say_so_and_beyond_a_day_need_the_flag() {
        let mut out = Vec::new();
        long_run_to(30.0, "this run", &mut out, true).unwrap();
        assert!(out.is_empty(), "a short run prints nothing");
        long_run_to(f64::NAN, "this run", &mut out, true).unwrap();
        assert!(out.is_empty(), "no estimate, nothing printed");
        long_run_to(7200.0, "this run", &mut out, true).unwrap();
        assert_eq!(
            String::from_utf8(out.clone()).unwrap(),
            "this run: estimated to take about 2.0 h (a cost model's estimate; Ctrl-C stops it)\n"
        );
        out.clear();
        long_run_to(7200.0, "this run", &mut out, false).unwrap();
        assert!(out.is_empty(), "not a terminal: nothing printed");
        let e = long_run_to(2.0 * LONG_RUN_LIMIT_S, "this run", &mut out, true).unwrap_err();
        assert!(
            e.to_string()
                .contains("about 2.0 days, over the limit of a day"),
            "{e}"
        );
        assert!(e.to_string().contains("--allow-long"), "{e}");
        assert!(!e.to_string().contains('\n'));
    }
}
