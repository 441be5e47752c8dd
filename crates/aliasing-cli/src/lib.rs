//! The `alias` command as a library: argument parsing, the subcommands and
//! their printing (`src/main.rs` and its modules, compiled once here). Both
//! binaries, `alias` and `aliasing` (the same program under a name no shell
//! builtin shadows), are one-line calls of [`main`]; [`run_document`] runs
//! the same program in-process and returns its JSON document (for bindings
//! such as the Python package). No mathematics lives here: that is
//! `aliasing-core`, `aliasing-sim` and `aliasing-plot`.

#[path = "main.rs"]
mod program;

// the modules at the crate root, where their `crate::` paths look for them
use program::{args, output, progress, team};

mod embed;

pub use embed::{ErrorKind, Hooks, ProgressSnapshot, RunError, run_document};
pub use program::main;
