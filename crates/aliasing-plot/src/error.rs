//! Errors of the plotting layer: each one a single line naming the problem.

use std::path::PathBuf;

/// What can go wrong while plotting a result.
#[derive(Debug, thiserror::Error)]
pub enum PlotError {
    /// The output file name ends in something other than `.svg` or `.png`.
    #[error("cannot plot to {0}: the file name must end in .svg or .png")]
    BadExtension(PathBuf),
    /// The JSON document is not a result this crate knows how to plot.
    #[error("unrecognised result document: {0}")]
    UnknownDocument(String),
    /// The JSON document has the right shape but a field is missing or has the wrong type.
    #[error("malformed {kind} result: {error}")]
    Malformed {
        /// Which kind of result was being read (curve, compare, simulate).
        kind: &'static str,
        /// The underlying deserialisation error (in the message, not chained,
        /// so it is not printed twice).
        error: serde_json::Error,
    },
    /// A document tagged with its kind does not read as that kind (wrong
    /// fields, a newer schema, a malformed tag).
    #[error("{0}")]
    Document(#[from] aliasing_core::document::DocumentError),
    /// Every value is zero, negative or missing, so nothing can go on a log axis.
    #[error("nothing to plot: {0}")]
    Empty(String),
    /// The plotting backend failed.
    #[error("rendering failed: {0}")]
    Render(String),
    /// Reading or writing a file failed.
    #[error("cannot write {path}: {error}")]
    Io {
        /// The file being written.
        path: PathBuf,
        /// The underlying I/O error (in the message, not chained, so it is
        /// not printed twice).
        error: std::io::Error,
    },
}

/// Result type of this crate.
pub type Result<T, E = PlotError> = std::result::Result<T, E>;

/// Turns any displayable backend error into [`PlotError::Render`], on one line.
pub(crate) fn render_err<E: std::fmt::Display>(e: E) -> PlotError {
    PlotError::Render(e.to_string().replace('\n', " "))
}
