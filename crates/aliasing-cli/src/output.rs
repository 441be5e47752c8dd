//! Output formats and writing results: to stdout, or atomically to a file
//! (written to a temporary name, then renamed, so an interrupted run never
//! leaves a partial file that looks complete).

use aliasing_core::document::text::Format;
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
    /// Checks `s` as a file to write (see the type;
    /// [`aliasing_core::__private::atomic::check_writable`]).
    pub fn parse(s: &str) -> std::result::Result<OutPath, String> {
        aliasing_core::__private::atomic::check_writable(s).map_err(|e| e.to_string())?;
        Ok(OutPath(PathBuf::from(s)))
    }

    /// The path as given.
    pub fn path(&self) -> &Path {
        &self.0
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
        .filter_map(|(f, p)| p.map(|p| (*f, aliasing_core::__private::atomic::resolved(p))))
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

/// How and where every command prints its result (`--format`, `-o`).
#[derive(clap::Args)]
pub struct Print {
    /// Output format.
    #[arg(long, value_enum, default_value_t = Format::Table)]
    pub format: Format,
    /// Write to this file (atomically) instead of standard output.
    #[arg(long, short, value_parser = OutPath::parse)]
    pub output: Option<OutPath>,
}

impl Print {
    /// The format of the documents' `render`.
    pub fn format(&self) -> Format {
        self.format
    }

    /// Refuses, before any work, two output options naming the same file:
    /// `--output`, `--plot` and `others` ([`distinct`]).
    pub fn check(
        &self,
        plot: Option<&PlotPath>,
        others: &[(&str, Option<&OutPath>)],
    ) -> Result<()> {
        let mut all = vec![
            ("--output", self.output.as_ref()),
            ("--plot", plot.map(PlotPath::out)),
        ];
        all.extend_from_slice(others);
        distinct(&all)
    }

    /// Writes `text` ([`emit`]).
    pub fn emit(&self, text: &str) -> Result<()> {
        emit(self.output.as_deref(), text)
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
        Some(p) => aliasing_core::__private::atomic::write(p, text.as_bytes())
            .with_context(|| format!("cannot write {}", p.display())),
    }
}

static ALLOW_LONG: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

/// `--allow-long` given: runs estimated beyond a day start.
pub fn allow_long(on: bool) {
    ALLOW_LONG.store(on, std::sync::atomic::Ordering::Relaxed);
}

/// Before a run estimated to take `seconds` (a cost model's estimate): the
/// policy of [`aliasing_core::__private::job::before_run`], the announcement on
/// stderr when it is a terminal, a refusal naming `--allow-long`.
pub fn long_run(seconds: f64, what: &str) -> Result<()> {
    use aliasing_core::__private::job::{LongRun, before_run};
    use std::io::IsTerminal as _;
    match before_run(
        seconds,
        what,
        ALLOW_LONG.load(std::sync::atomic::Ordering::Relaxed),
    ) {
        LongRun::Refuse(m) => bail!("{m}, or add --allow-long to run it anyway"),
        LongRun::Announce(m) if std::io::stderr().is_terminal() => eprintln!("{m}"),
        _ => {}
    }
    Ok(())
}
