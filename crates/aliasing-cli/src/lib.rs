//! The `alias` command as a library: argument parsing, the subcommands and
//! their printing (`src/main.rs` and its modules, compiled once here). Both
//! binaries, `alias` and `aliasing` (the same program under a name no shell
//! builtin shadows), are one-line calls of [`main`]. No mathematics lives
//! here: that is `aliasing-core`, `aliasing-sim` and `aliasing-plot`.

#[path = "main.rs"]
mod program;

// the modules at the crate root, where their `crate::` paths look for them
use program::{args, lengths, output, progress, team};

pub use program::main;
