//! Atomic file writes: a result, plot or checkpoint file is written to a
//! temporary name beside its destination and renamed into place only when
//! complete, so an interrupted run never leaves a partial file that looks
//! finished. Shared by the CLI, the plots and the Monte Carlo shard files.
//!
//! ```
//! let path = std::env::temp_dir().join(format!("aliasing-atomic-doc-{}.txt", std::process::id()));
//! aliasing_core::__private::atomic::write(&path, b"done\n").unwrap();
//! assert_eq!(std::fs::read(&path).unwrap(), b"done\n");
//! std::fs::remove_file(&path).unwrap();
//! ```

use std::io::Write;
use std::path::{Path, PathBuf};

mod target;
pub use target::{check_writable, resolved};

/// The temporary name beside `path`: `.NAME.tmpPID` followed by `suffix`
/// (a writer that picks its format by extension needs one, e.g. `.png`).
pub fn temp_path(path: &Path, suffix: &str) -> PathBuf {
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| "out".into());
    path.with_file_name(format!(".{name}.tmp{}{suffix}", std::process::id()))
}

/// Lets `fill` write the temporary file ([`temp_path`] with `suffix`), then
/// renames it to `path`. On any failure the temporary file is removed and
/// `path` is left as it was; `io_err` turns the rename's error into `E`.
pub fn write_with<E>(
    path: &Path,
    suffix: &str,
    fill: impl FnOnce(&Path) -> Result<(), E>,
    io_err: impl FnOnce(std::io::Error) -> E,
) -> Result<(), E> {
    let tmp = temp_path(path, suffix);
    let res = fill(&tmp).and_then(|()| std::fs::rename(&tmp, path).map_err(io_err));
    if res.is_err() {
        let _ = std::fs::remove_file(&tmp);
    }
    res
}

/// Writes `bytes` to `path` atomically (temporary file, fsync, rename).
pub fn write(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    write_with(
        path,
        "",
        |tmp| {
            let mut f = std::fs::File::create(tmp)?;
            f.write_all(bytes)?;
            f.sync_all()
        },
        |e| e,
    )
}

#[cfg(feature = "unit-tests")]
#[doc(hidden)]
pub mod tests {
    use super::*;

    pub fn failure_leaves_no_file_behind() {
        let dir = std::env::temp_dir().join(format!("aliasing-atomic-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("result.json");
        write(&path, b"one").unwrap();
        // A failing writer: the old file stays, no temporary file is left.
        let r: Result<(), String> = write_with(
            &path,
            "",
            |tmp| {
                std::fs::write(tmp, b"partial").unwrap();
                Err("interrupted".into())
            },
            |e| e.to_string(),
        );
        assert!(r.is_err());
        assert_eq!(std::fs::read(&path).unwrap(), b"one");
        let left: Vec<_> = std::fs::read_dir(&dir).unwrap().collect();
        assert_eq!(left.len(), 1, "{left:?}");
        // Into a directory that does not exist: an error, nothing written.
        assert!(write(&dir.join("missing/x.json"), b"x").is_err());
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
