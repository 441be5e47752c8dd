//! `aliasing._native`: the extension module of the Python package
//! `aliasing`. It runs the `alias` commands in-process through
//! [`aliasing_cli::run_document`] (the binary's own code path, so the
//! package and the command line return the same documents) and resolves
//! CRC names through the library's resolver. The Python layer
//! (`python/aliasing/__init__.py`) builds the argument lists and wraps the
//! documents.
//!
//! Each run goes on a worker thread while the calling thread waits without
//! the GIL, waking every [`POLL`] to run Python's signal handlers (Ctrl-C
//! becomes `KeyboardInterrupt`) and the progress callback: Python runs
//! signal handlers on its main thread only, so the computation cannot run
//! there. Workers are kept between runs (one per concurrent call), so a
//! small request pays a hand-over between two threads, not a thread's
//! start; each keeps its parsed command-line definitions. A pending
//! exception cancels the run through its hooks: the computation stops the
//! next time it reports progress (an unwinding with a private payload,
//! caught in `run_document`), and the exception is raised once the worker
//! has ended.

use aliasing_cli::{ErrorKind, Hooks, RunError, run_document};
use pyo3::prelude::*;
use pyo3::types::PyDict;
use std::sync::{Mutex, mpsc};
use std::time::Duration;

/// How often a waiting call looks at signals and progress.
const POLL: Duration = Duration::from_millis(50);

/// Stack of the worker thread: the binary's main thread has 8 MiB.
const STACK: usize = 8 << 20;

/// The Python exception for a failed run: `aliasing.InputError` (a
/// `ValueError`) for bad input, `aliasing.FileError` (an `OSError`) for a
/// file that cannot be read or written, `aliasing.AliasError` (a
/// `RuntimeError`) otherwise; each with `.reason`.
fn py_error(py: Python<'_>, e: &RunError) -> PyErr {
    let class = match e.kind {
        ErrorKind::Input => "InputError",
        ErrorKind::Io => "FileError",
        _ => "AliasError",
    };
    let made = (|| -> PyResult<PyErr> {
        let cls = py.import("aliasing._errors")?.getattr(class)?;
        let value = cls.call1((e.message.as_str(), e.reason))?;
        Ok(PyErr::from_value(value))
    })();
    made.unwrap_or_else(|err| err)
}

/// A job for a worker: the command line, its hooks, where the result goes.
struct Job {
    argv: Vec<String>,
    hooks: Hooks,
    reply: mpsc::SyncSender<Result<String, RunError>>,
}

/// A worker thread kept between runs (spawning one costs about as much as
/// a small request, its first touches of a fresh stack included).
struct Worker {
    jobs: mpsc::Sender<Job>,
    /// The process that started it: after `os.fork()` a child has the
    /// parent's idle list but none of its threads.
    pid: u32,
}

/// Workers waiting for a job. A call takes one (or starts one) and puts it
/// back when its run has ended, so concurrent calls from several Python
/// threads each have their own.
static IDLE: Mutex<Vec<Worker>> = Mutex::new(Vec::new());

fn take_worker() -> std::io::Result<Worker> {
    let pid = std::process::id();
    let mut idle = IDLE.lock().unwrap_or_else(|e| e.into_inner());
    idle.retain(|w| w.pid == pid);
    if let Some(w) = idle.pop() {
        return Ok(w);
    }
    drop(idle);
    let (jobs, rx) = mpsc::channel::<Job>();
    std::thread::Builder::new()
        .name("aliasing-run".into())
        .stack_size(STACK)
        .spawn(move || {
            for job in rx {
                let _ = job.reply.send(run_document(&job.argv, &job.hooks));
            }
        })?;
    Ok(Worker { jobs, pid })
}

fn give_back(w: Worker) {
    IDLE.lock().unwrap_or_else(|e| e.into_inner()).push(w);
}

/// What a wait for the worker saw.
enum Poll {
    /// The run ended.
    Done(Result<String, RunError>),
    /// The worker thread ended without answering.
    Lost,
    /// `POLL` passed.
    Pending,
}

/// Waits up to `POLL` for the worker's answer.
fn wait(rx: &mpsc::Receiver<Result<String, RunError>>) -> Poll {
    match rx.recv_timeout(POLL) {
        Ok(r) => Poll::Done(r),
        Err(mpsc::RecvTimeoutError::Timeout) => Poll::Pending,
        Err(mpsc::RecvTimeoutError::Disconnected) => Poll::Lost,
    }
}

/// Runs one command (`argv` without the program name, as on the command
/// line) and returns its JSON document as text. `progress`, if given, is
/// called on this thread as `progress(stage, done, total)` while the run
/// goes on. Raises `aliasing.InputError`, `aliasing.FileError` or
/// `aliasing.AliasError` with the command line's one-line message.
/// The process that ran the first computation.
static FIRST_PID: std::sync::OnceLock<u32> = std::sync::OnceLock::new();

/// Refuses to compute in a forked child of a process that has computed:
/// the computation's thread pool does not survive `fork()`, and a run
/// there would wait forever for threads the child does not have.
fn not_forked() -> PyResult<()> {
    let pid = std::process::id();
    if *FIRST_PID.get_or_init(|| pid) == pid {
        return Ok(());
    }
    Err(pyo3::exceptions::PyRuntimeError::new_err(
        "aliasing cannot compute in a process forked from one that has computed \
         (its thread pool does not survive fork): start workers with \
         multiprocessing's \"spawn\" or \"forkserver\" method",
    ))
}

#[pyfunction]
#[pyo3(signature = (argv, progress = None))]
fn run(py: Python<'_>, argv: Vec<String>, progress: Option<Bound<'_, PyAny>>) -> PyResult<String> {
    not_forked()?;
    let hooks = Hooks::new();
    let (reply, rx) = mpsc::sync_channel(1);
    let worker = take_worker().map_err(|e| {
        pyo3::exceptions::PyRuntimeError::new_err(format!("cannot start a thread: {e}"))
    })?;
    let job = Job {
        argv,
        hooks: hooks.clone(),
        reply,
    };
    if worker.jobs.send(job).is_err() {
        return Err(pyo3::exceptions::PyRuntimeError::new_err(
            "internal error: the worker thread has ended",
        ));
    }
    // a Receiver is not Sync, which a closure run without the GIL needs
    let rx = Mutex::new(rx);
    let mut last = None;
    let mut pending: Option<PyErr> = None;
    let mut lost = false;
    let result = loop {
        let got = py.detach(|| {
            let rx = rx.lock().unwrap_or_else(|e| e.into_inner());
            wait(&rx)
        });
        match got {
            Poll::Done(r) => break r,
            Poll::Lost => {
                lost = true;
                break Err(RunError {
                    kind: ErrorKind::Other,
                    reason: "internal",
                    message: "internal error: the worker thread ended without a result".into(),
                });
            }
            Poll::Pending => {}
        }
        if pending.is_some() {
            continue; // cancelled: wait for the worker to stop
        }
        if let Err(e) = py.check_signals() {
            hooks.cancel();
            pending = Some(e);
            continue;
        }
        if let (Some(cb), Some(p)) = (&progress, hooks.progress())
            && last.as_ref() != Some(&p)
        {
            if let Err(e) = cb.call1((p.stage.as_str(), p.done, p.total)) {
                hooks.cancel();
                pending = Some(e);
                continue;
            }
            last = Some(p);
        }
    };
    // the worker has answered: it is free for the next run (one whose
    // thread ended without answering is not put back)
    if !lost {
        give_back(worker);
    }
    if let Some(e) = pending {
        return Err(e);
    }
    // a last report, so that a bar ends at its total
    if let (Some(cb), Some(p)) = (&progress, hooks.progress())
        && last.as_ref() != Some(&p)
    {
        cb.call1((p.stage.as_str(), p.done, p.total))?;
    }
    result.map_err(|e| py_error(py, &e))
}

/// The catalogue's constant name of a RevEng name: `CRC-32/ISO-HDLC` ->
/// `CRC_32_ISO_HDLC`.
fn constant_name(name: &str) -> String {
    name.chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() {
                c.to_ascii_uppercase()
            } else {
                '_'
            }
        })
        .collect()
}

/// The RevEng catalogue: a list of `(constant, name)` pairs, e.g.
/// `("CRC_32_ISO_HDLC", "CRC-32/ISO-HDLC")`.
#[pyfunction]
fn catalogue() -> Vec<(String, &'static str)> {
    aliasing_core::catalogue::ENTRIES
        .iter()
        .map(|e| (constant_name(e.name), e.name))
        .collect()
}

/// Resolves a CRC in any notation the command line accepts (`--crc`): a
/// dict of its name, width, generator in four notations and register
/// conventions. Raises `aliasing.InputError` when it is not a CRC.
#[pyfunction]
fn resolve_crc<'py>(py: Python<'py>, spec: &str) -> PyResult<Bound<'py, PyDict>> {
    let c = aliasing_core::catalogue::resolve(spec).map_err(|e| {
        let reason = match &e {
            aliasing_core::Error::BadPolynomial { .. } => "bad_polynomial",
            aliasing_core::Error::UnknownName { .. } => "unknown_name",
            _ => "invalid",
        };
        py_error(
            py,
            &RunError {
                kind: ErrorKind::Input,
                reason,
                message: e.to_string(),
            },
        )
    })?;
    let g = &c.generator();
    let d = PyDict::new(py);
    d.set_item("name", c.name())?;
    d.set_item("width", g.width())?;
    d.set_item("full", g.full_string())?;
    d.set_item("normal", g.normal_string())?;
    d.set_item("koopman", g.koopman_string())?;
    d.set_item("reversed", g.reversed_string())?;
    d.set_item("init", c.init())?;
    d.set_item("refin", c.refin())?;
    d.set_item("refout", c.refout())?;
    d.set_item("xorout", c.xorout())?;
    d.set_item("check", c.check())?;
    Ok(d)
}

/// Seconds per call of the library's own computation of `alias curve --crc
/// CRC --bits BITS --ber BER` (resolving the name, then
/// `aliasing_core::curve::exact`), averaged over `calls` calls: what the
/// tests measure the package's overhead against.
#[pyfunction]
fn library_curve_seconds(
    py: Python<'_>,
    crc: &str,
    bits: u64,
    ber: f64,
    calls: u32,
) -> PyResult<f64> {
    use aliasing_core::curve::{Method, Request, exact};
    use aliasing_core::units::{Ber, Bits};
    not_forked()?;
    let calls = calls.max(1);
    py.detach(|| {
        let start = std::time::Instant::now();
        for _ in 0..calls {
            let c = aliasing_core::catalogue::resolve(crc)?;
            let req = Request::for_crc(&c, &[Bits(bits)], &[Ber::new(ber)?])?;
            let ctx = aliasing_core::ctx::Ctx::from_env()?;
            std::hint::black_box(exact(&req, Method::Auto, &ctx)?);
        }
        Ok(start.elapsed().as_secs_f64() / f64::from(calls))
    })
    .map_err(|e: aliasing_core::Error| pyo3::exceptions::PyValueError::new_err(e.to_string()))
}

/// The extension module `aliasing._native`.
#[pymodule]
#[pyo3(name = "_native")]
fn aliasing_native(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(run, m)?)?;
    m.add_function(wrap_pyfunction!(catalogue, m)?)?;
    m.add_function(wrap_pyfunction!(resolve_crc, m)?)?;
    m.add_function(wrap_pyfunction!(library_curve_seconds, m)?)?;
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    Ok(())
}
