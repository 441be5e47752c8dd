//! Checks on a file about to be written, made before any work: a run that
//! computes for minutes should not then find it cannot write its result.

use crate::error::{Error, Result};
use std::path::{Path, PathBuf};

/// Whether `path` can be written as a file by [`super::write`]: the name is
/// not empty and not a folder, its folder exists, is a folder and is not
/// read-only. Nothing is created.
///
/// ```
/// use aliasing_core::__private::atomic::check_writable;
/// let dir = std::env::temp_dir();
/// assert!(check_writable(&dir.join("result.json").display().to_string()).is_ok());
/// assert!(check_writable(&dir.display().to_string()).is_err());
/// assert!(check_writable("no-such-folder-here/x.json").is_err());
/// ```
pub fn check_writable(path: &str) -> Result<()> {
    let p = Path::new(path);
    if path.is_empty() {
        return Err(Error::Invalid("the file name is empty".into()));
    }
    if path.ends_with(std::path::MAIN_SEPARATOR) || path.ends_with('/') || p.is_dir() {
        return Err(Error::Invalid(format!("{path} is a folder, not a file")));
    }
    let parent = folder(p);
    if !parent.is_dir() {
        return Err(Error::Invalid(if parent.exists() {
            format!("{} is not a folder", parent.display())
        } else {
            format!("the folder {} does not exist", parent.display())
        }));
    }
    if std::fs::metadata(parent).is_ok_and(|m| m.permissions().readonly()) {
        return Err(Error::Invalid(format!(
            "the folder {} is read-only",
            parent.display()
        )));
    }
    Ok(())
}

/// `path` with its folder resolved (symbolic links, `..`, `.`), for
/// telling whether two paths name the same file, whether it exists yet or
/// not.
pub fn resolved(path: &Path) -> PathBuf {
    if let Ok(p) = path.canonicalize() {
        return p;
    }
    let parent = folder(path);
    let dir = parent
        .canonicalize()
        .unwrap_or_else(|_| parent.to_path_buf());
    match path.file_name() {
        Some(name) => dir.join(name),
        None => dir,
    }
}

/// The folder of `path` (`.` for a bare name).
fn folder(path: &Path) -> &Path {
    match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    }
}
