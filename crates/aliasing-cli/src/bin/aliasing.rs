//! `aliasing`: the `alias` program under a name no shell shadows (`alias` is
//! a builtin of bash and zsh).

fn main() -> std::process::ExitCode {
    aliasing_cli::main()
}
