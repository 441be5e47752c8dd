//! `alias`: exact and simulated aliasing probabilities of CRCs and checksums
//! (the program is `aliasing_cli::main`).

fn main() -> std::process::ExitCode {
    aliasing_cli::main()
}
