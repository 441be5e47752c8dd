//! Helpers shared by the simulator's integration tests.
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
    /// `name` inside the directory.
    pub fn join(&self, name: impl AsRef<Path>) -> PathBuf {
        self.0.join(name)
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}
