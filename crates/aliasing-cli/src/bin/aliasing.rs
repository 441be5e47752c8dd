//! `aliasing`: the `alias` program under a name no shell shadows (`alias`
//! is a builtin of bash and zsh). The same code as `src/main.rs`, compiled
//! as a module of this binary; its modules are re-exported at this crate's
//! root, where their `crate::` paths look for them.

#[path = "../main.rs"]
mod alias;

use alias::{args, cmd, lengths, output, team};

fn main() -> std::process::ExitCode {
    alias::main()
}
