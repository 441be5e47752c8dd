//! Helpers shared by the CLI tests.
#![allow(dead_code)]

use std::path::{Path, PathBuf};

/// A fresh directory for one test under the system temp dir,
/// `alias-{tag}-{pid}`, removed with everything in it when dropped: when the
/// test ends, passed or failed. `tag` names the test, so that tests running at
/// once in one process never share a directory.
pub struct Scratch(PathBuf);

impl Scratch {
    /// Creates the directory (emptied if a run with the same process id left one).
    pub fn new(tag: &str) -> Self {
        let p = std::env::temp_dir().join(format!("alias-{tag}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&p);
        std::fs::create_dir_all(&p).unwrap();
        Scratch(p)
    }
    /// The directory.
    pub fn dir(&self) -> &Path {
        &self.0
    }
    /// `name` inside the directory.
    pub fn join(&self, name: impl AsRef<Path>) -> PathBuf {
        self.0.join(name)
    }
    /// `name` inside the directory, as a command-line argument.
    pub fn path(&self, name: &str) -> String {
        self.join(name).to_string_lossy().into_owned()
    }
    /// Nothing in the directory, temporary files included.
    pub fn is_empty(&self) -> bool {
        std::fs::read_dir(&self.0).unwrap().next().is_none()
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}
