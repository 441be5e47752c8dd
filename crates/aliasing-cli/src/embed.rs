//! The program in-process: [`run_document`] parses the same arguments as the
//! binary, runs the same subcommand code and returns the JSON document the
//! binary would print with `--format json`, instead of printing it. Bindings
//! (the Python package) call it, so they and the command line share one
//! code path and cannot disagree.
//!
//! A call watches and steers its computation through [`Hooks`]: the stage
//! and units done (what the command-line tool draws as its bar), and a
//! cancel flag that the computation checks each time it reports progress.
//!
//! ```
//! use aliasing_cli::{Hooks, run_document};
//! let argv: Vec<String> = ["curve", "--crc", "16", "--bits", "512", "--ber", "1e-5"]
//!     .iter().map(|s| s.to_string()).collect();
//! let json = run_document(&argv, &Hooks::new()).unwrap();
//! assert!(json.contains("\"kind\": \"curve\""));
//! let bad: Vec<String> = ["curve", "--crc", "crc33"].iter().map(|s| s.to_string()).collect();
//! let e = run_document(&bad, &Hooks::new()).unwrap_err();
//! assert!(e.is_input() && e.message.starts_with("unknown CRC or check `crc33`"));
//! ```

use aliasing_core::progress::Cancelled;
use std::cell::RefCell;
use std::panic::{AssertUnwindSafe, catch_unwind};

/// What a caller of [`run_document`] shares with the computation: progress
/// it can read from another thread while the call runs, and a cancel flag
/// ([`aliasing_core::progress::Watch`]; a cancelled call returns
/// [`ErrorKind::Cancelled`]). Cloning gives another handle on the same state.
pub type Hooks = aliasing_core::progress::Watch;

/// Progress of a call as [`Hooks::progress`] reads it.
pub type ProgressSnapshot = aliasing_core::progress::Snapshot;

/// What kind of failure a [`RunError`] is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum ErrorKind {
    /// Bad input: arguments, names, values or files the program refuses
    /// (the binary prints the message and exits with code 2).
    Input,
    /// Reading or writing a file failed.
    Io,
    /// The request is valid but cannot be run (over the memory limit, a
    /// drawing that failed, an internal error).
    Other,
    /// [`Hooks::cancel`] stopped the computation.
    Cancelled,
}

/// A failed [`run_document`]: the one line the binary prints after
/// `error: `, and what kind of failure it is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RunError {
    /// Bad input or another failure.
    pub kind: ErrorKind,
    /// A short machine-readable reason: `arguments` (the command line
    /// itself), `bad_polynomial`, `unknown_name`, `bad_stack`, `bad_ber`,
    /// `bad_length`, `unsupported`, `invalid`, `document`, `too_big`, `io`,
    /// `plot`, `internal` or `cancelled`.
    pub reason: &'static str,
    /// The one-line message (as printed by the binary, without `error: `).
    pub message: String,
}

impl RunError {
    /// Whether this is bad input (exit code 2 and nothing else at fault).
    pub fn is_input(&self) -> bool {
        self.kind == ErrorKind::Input
    }

    fn input(reason: &'static str, message: impl Into<String>) -> Self {
        RunError {
            kind: ErrorKind::Input,
            reason,
            message: message.into(),
        }
    }
}

impl std::fmt::Display for RunError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for RunError {}

/// The state of one [`run_document`] call on its thread.
struct Session {
    hooks: Hooks,
    out: String,
}

thread_local! {
    static SESSION: RefCell<Option<Session>> = const { RefCell::new(None) };
}

/// The hooks of the [`run_document`] call running on this thread, if any.
pub(crate) fn current_hooks() -> Option<Hooks> {
    SESSION.with(|s| s.borrow().as_ref().map(|s| s.hooks.clone()))
}

/// Appends `text` to the document of the call running on this thread;
/// `false` (nothing done) when no call is running here.
pub(crate) fn capture(text: &str) -> bool {
    SESSION.with(|s| match s.borrow_mut().as_mut() {
        Some(s) => {
            s.out.push_str(text);
            true
        }
        None => false,
    })
}

/// Removes this thread's session when the call ends, unwinding included.
struct Installed;

impl Drop for Installed {
    fn drop(&mut self) {
        SESSION.with(|s| s.borrow_mut().take());
    }
}

/// Runs one command of the program in-process and returns its JSON document.
///
/// `argv` is the command line after the program name (`["curve", "--crc",
/// "16", ...]`), parsed exactly as the binary parses it, with `--format
/// json` added: it may give neither `--format` nor `-o`/`--output` (except
/// `plot`, whose `-o` is the picture and which returns an empty string).
/// Nothing is printed and no progress bar is drawn: progress goes to
/// `hooks`, which can also cancel the call.
///
/// Runs on the calling thread (the computation's worker threads as the
/// binary's); calls on different threads are independent.
pub fn run_document(argv: &[String], hooks: &Hooks) -> Result<String, RunError> {
    let full = full_argv(argv)?;
    let cli = match parse(&full) {
        Ok(c) => c,
        Err(e) => {
            let msg = crate::program::one_line(&e.render().to_string());
            return Err(RunError::input("arguments", format!("{msg} (see --help)")));
        }
    };
    crate::output::allow_long(cli.allow_long);
    if hooks.is_cancelled() {
        return Err(cancelled());
    }
    if SESSION.with(|s| s.borrow().is_some()) {
        return Err(RunError {
            kind: ErrorKind::Other,
            reason: "internal",
            message: "run_document called from inside a running call".into(),
        });
    }
    SESSION.with(|s| {
        *s.borrow_mut() = Some(Session {
            hooks: hooks.clone(),
            out: String::new(),
        })
    });
    let guard = Installed;
    let result = catch_unwind(AssertUnwindSafe(|| crate::program::dispatch(cli.cmd)));
    let out = SESSION
        .with(|s| s.borrow_mut().as_mut().map(|s| std::mem::take(&mut s.out)))
        .unwrap_or_default();
    drop(guard);
    match result {
        Ok(Ok(())) => Ok(out),
        Ok(Err(e)) => Err(classify(&e)),
        Err(payload) if payload.is::<Cancelled>() || hooks.is_cancelled() => Err(cancelled()),
        Err(payload) => {
            let what = payload
                .downcast_ref::<&str>()
                .map(|s| s.to_string())
                .or_else(|| payload.downcast_ref::<String>().cloned())
                .unwrap_or_else(|| "a panic".into());
            Err(RunError {
                kind: ErrorKind::Other,
                reason: "internal",
                message: format!("internal error: {}", what.replace('\n', " ")),
            })
        }
    }
}

/// The binary's command line for `argv`: the program name, `argv`, and
/// `--format json` (not for `plot`); refuses a command line that gives
/// `--format` or `-o`/`--output` itself.
fn full_argv(argv: &[String]) -> Result<Vec<String>, RunError> {
    let Some(sub) = argv.first() else {
        return Err(RunError::input("arguments", "no command given"));
    };
    let plot = sub == "plot";
    for a in argv[1..].iter().filter(|_| !plot) {
        if a == "--format" || a.starts_with("--format=") {
            return Err(RunError::input(
                "arguments",
                "--format is not taken here: the result is always the JSON document",
            ));
        }
        if a == "--output" || a.starts_with("--output=") || a.starts_with("-o") {
            return Err(RunError::input(
                "arguments",
                "-o/--output is not taken here: the document is returned, not written",
            ));
        }
    }
    let mut full = Vec::with_capacity(argv.len() + 3);
    full.push("alias".to_string());
    full.extend(argv.iter().cloned());
    if !plot {
        full.extend(["--format".to_string(), "json".to_string()]);
    }
    Ok(full)
}

thread_local! {
    /// The program's parser, built once per thread: building clap's command
    /// tree is most of the time a short command line takes to parse.
    static COMMAND: RefCell<Option<clap::Command>> = const { RefCell::new(None) };
}

/// `Cli::try_parse_from(full)` on this thread's built parser: the same
/// definitions, the same matches and the same error messages, without
/// building the command tree again. (The parse mutates nothing a later parse
/// reads: clap's `try_get_matches_from_mut` is made for repeated parsing.)
fn parse(full: &[String]) -> Result<crate::program::Cli, clap::Error> {
    use clap::{CommandFactory, FromArgMatches};
    COMMAND.with(|c| {
        let mut slot = c.borrow_mut();
        let cmd = slot.get_or_insert_with(crate::program::Cli::command);
        let mut matches = cmd.try_get_matches_from_mut(full)?;
        crate::program::Cli::from_arg_matches_mut(&mut matches).map_err(|e| e.format(cmd))
    })
}

fn cancelled() -> RunError {
    RunError {
        kind: ErrorKind::Cancelled,
        reason: "cancelled",
        message: "cancelled".into(),
    }
}

/// The binary's one line for `e`, and its kind from the first typed cause.
fn classify(e: &anyhow::Error) -> RunError {
    let message = format!("{e:#}").replace('\n', " ");
    let (mut kind, mut reason) = kind_of(e);
    // an I/O error some layer turned into text keeps its `(os error N)`
    if (kind, reason) == (ErrorKind::Input, "invalid") && message.contains("(os error ") {
        (kind, reason) = (ErrorKind::Io, "io");
    }
    RunError {
        kind,
        reason,
        message,
    }
}

fn kind_of(e: &anyhow::Error) -> (ErrorKind, &'static str) {
    use aliasing_core::Error as E;
    use aliasing_plot::PlotError as P;
    for cause in e.chain() {
        if let Some(c) = cause.downcast_ref::<E>() {
            return match c.root() {
                E::TooBig { .. } => (ErrorKind::Other, "too_big"),
                E::BadPolynomial { .. } => (ErrorKind::Input, "bad_polynomial"),
                E::UnknownName { .. } => (ErrorKind::Input, "unknown_name"),
                E::BadStack { .. } => (ErrorKind::Input, "bad_stack"),
                E::BadBer(_) => (ErrorKind::Input, "bad_ber"),
                E::BadLength(_) => (ErrorKind::Input, "bad_length"),
                E::Refused(_) | E::Limit(_) => (ErrorKind::Input, "unsupported"),
                _ => (ErrorKind::Input, "invalid"),
            };
        }
        if let Some(p) = cause.downcast_ref::<P>() {
            return match p {
                P::Io { .. } => (ErrorKind::Io, "io"),
                P::Render(_) => (ErrorKind::Other, "plot"),
                P::Document(_) => (ErrorKind::Input, "document"),
                _ => (ErrorKind::Input, "plot"),
            };
        }
        if cause.is::<aliasing_core::document::DocumentError>() {
            return (ErrorKind::Input, "document");
        }
        if cause.is::<std::io::Error>() {
            return (ErrorKind::Io, "io");
        }
    }
    (ErrorKind::Input, "invalid")
}
