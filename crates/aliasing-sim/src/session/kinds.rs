//! The kinds of shard file whose shards add up to a single run's result:
//! one table for every merge, what a file offered to a merge is, and the
//! merge of the shard files of one run of any kind ([`merge`]).

use aliasing_core::ctx::Ctx;
use aliasing_core::{Error, Result};
use std::path::{Path, PathBuf};

/// The kinds (`format` field) of the result files a merge adds: simulate
/// runs (plain, rare-event, rare-event on bursts), split dual-code passes
/// of a weight distribution, stack runs and searches.
pub const MERGE_KINDS: [&str; 6] = [
    super::FORMAT,
    super::RARE_FORMAT,
    super::RARE_BURST_FORMAT,
    crate::weights::FORMAT,
    crate::joint::STACK_FORMAT,
    crate::search::FORMAT,
];

/// What a file offered to a merge is ([`offered`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Offered {
    /// A shard file of one of the [`MERGE_KINDS`].
    Shard(String),
    /// A result file of another kind.
    Other(String),
    /// JSON without the kind of a result file (a result document?).
    Json,
    /// Not JSON, or not a file that can be read.
    Unreadable,
}

/// What the file at `path` is, by its `format` field ([`super::file_kind`]).
pub fn offered(path: &Path) -> Offered {
    match super::file_kind(path) {
        Some(k) if MERGE_KINDS.contains(&k.as_str()) => Offered::Shard(k),
        Some(k) => Offered::Other(k),
        None => {
            let json = crate::shard::read_text(path)
                .ok()
                .and_then(|t| serde_json::from_str::<serde_json::Value>(&t).ok());
            match json {
                Some(_) => Offered::Json,
                None => Offered::Unreadable,
            }
        }
    }
}

/// The one kind of the shard `files` of a merge (`None` for none), or the
/// first file that is no shard file of a [`MERGE_KINDS`] kind, or two
/// files of different kinds (`(file, what it is)` for each).
pub fn merge_kind(files: &[PathBuf]) -> Result<Option<String>, Mismatch<'_>> {
    let mut first: Option<(String, &PathBuf)> = None;
    for p in files {
        let k = match offered(p) {
            Offered::Shard(k) => k,
            other => return Err(Mismatch::NotShard(p, other)),
        };
        match &first {
            None => first = Some((k, p)),
            Some((k0, p0)) if *k0 != k => {
                return Err(Mismatch::Mixed((p0, k0.clone()), (p, k)));
            }
            Some(_) => {}
        }
    }
    Ok(first.map(|(k, _)| k))
}

/// Why [`merge_kind`] found no one kind.
#[derive(Debug)]
pub enum Mismatch<'a> {
    /// This file is not a shard file a merge adds.
    NotShard(&'a Path, Offered),
    /// Two files of different kinds, each with its kind.
    Mixed((&'a Path, String), (&'a Path, String)),
}

/// One line naming what the file is instead (a result document, another
/// run's kind) and what a merge takes.
impl std::fmt::Display for Mismatch<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Mismatch::NotShard(p, Offered::Other(k)) => write!(
                f,
                "{} is a file of kind `{k}`; merge adds shard files of simulate, weights, stack and search runs",
                p.display()
            ),
            Mismatch::NotShard(p, Offered::Json) => write!(
                f,
                "{} is not a shard file: JSON without the kind of a result file \
                 (a `--format json` report?); merge the files that `--out` wrote",
                p.display()
            ),
            Mismatch::NotShard(p, _) => write!(f, "{} is not a shard file: not JSON", p.display()),
            Mismatch::Mixed((p0, k0), (p, k)) => write!(
                f,
                "{} is a `{k0}` file and {} a `{k}` file: merge adds the shards of one run",
                p0.display(),
                p.display()
            ),
        }
    }
}

/// The one kind of the shard `files` of a merge (`None` for none), or a
/// one-line refusal ([`Mismatch`]'s). From the first path that is no file
/// on, the files are left to the readers of that kind, which say what is
/// wrong (the kind is then the first file's, if it has one).
pub fn kind_of(files: &[PathBuf]) -> Result<Option<String>> {
    let n = files
        .iter()
        .position(|p| !p.is_file())
        .unwrap_or(files.len());
    match merge_kind(&files[..n]) {
        Ok(_) if n < files.len() => Ok(super::file_kind(&files[0])),
        Ok(k) => Ok(k),
        Err(m) => Err(Error::Invalid(m.to_string())),
    }
}

/// The whole run that [`merge`] rebuilds from its shard files, by kind.
#[derive(Debug)]
#[non_exhaustive]
pub enum Merged {
    /// A simulation (plain, rare-event, rare-event on bursts): its result
    /// file and document.
    Simulate(Box<crate::simulate::Finished>),
    /// A dual-code pass: the whole pass's file and the distribution.
    Weights(Box<(crate::weights::PassFile, aliasing_core::document::Weights)>),
    /// A stack run: its report.
    Stack(crate::joint::StackReport),
    /// A search: the whole search's file and its report.
    Search(Box<(crate::search::SearchFile, aliasing_core::document::Search)>),
}

/// Reads the shard files at `paths` of one run of kind `kind` (one of
/// [`MERGE_KINDS`], e.g. as [`merge_kind`] finds it) and adds them: the
/// whole run as the single run gives it, bit for bit (a simulation's exact
/// values unless `no_exact`), computed in `ctx`.
pub fn merge(kind: &str, paths: &[PathBuf], no_exact: bool, ctx: &Ctx) -> Result<Merged> {
    Ok(match kind {
        crate::weights::FORMAT => {
            Merged::Weights(Box::new(crate::weights::merge_paths(paths, ctx)?))
        }
        crate::joint::STACK_FORMAT => Merged::Stack(crate::joint::StackJob::merge(paths, ctx)?),
        crate::search::FORMAT => Merged::Search(Box::new(crate::search::merge_paths(paths, ctx)?)),
        k if MERGE_KINDS.contains(&k) => {
            let done = crate::simulate::SimulateJob::merge(k, paths, no_exact, ctx)?;
            Merged::Simulate(Box::new(done))
        }
        other => {
            return Err(Error::Invalid(format!(
                "`{other}` is not a kind of shard file a merge adds"
            )));
        }
    })
}
