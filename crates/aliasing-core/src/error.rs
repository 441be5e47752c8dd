//! The library's error type: every variant is one line that names the problem.

use thiserror::Error;

/// Errors from parsing specifications and from solvers refusing a run.
///
/// Every message is a single line, suitable for printing after `error: `.
#[derive(Debug, Error, Clone, PartialEq)]
#[non_exhaustive]
pub enum Error {
    /// A polynomial, CRC name or check name that could not be understood.
    #[error("invalid polynomial or CRC `{spec}`: {reason}")]
    BadPolynomial {
        /// What the user typed.
        spec: String,
        /// What is wrong with it.
        reason: String,
    },
    /// A catalogue name that is not known; `suggestions` holds close matches.
    #[error("unknown CRC or check `{name}`{}", suggest(.suggestions))]
    UnknownName {
        /// The name as typed.
        name: String,
        /// Close matches.
        suggestions: Vec<String>,
    },
    /// A stack description (`--stack`) whose parts cannot be understood;
    /// `reason` names the bad part.
    #[error("invalid stack `{stack}`: {reason}")]
    BadStack {
        /// The description as given.
        stack: String,
        /// What is wrong with it.
        reason: String,
    },
    /// A bit error rate outside [0, 1] or not a number.
    #[error("bit error rate {0} is outside [0, 1]")]
    BadBer(String),
    /// A frame length that is empty, zero, negative or shorter than the check.
    #[error("invalid length: {0}")]
    BadLength(String),
    /// A run that would need more memory than the limit allows.
    #[error("{what} needs about {need} of memory, over the limit of {limit}")]
    TooBig {
        /// The run refused.
        what: String,
        /// Estimated memory.
        need: String,
        /// The limit in force.
        limit: String,
    },
    /// A request that is valid but not supported by the chosen method.
    #[error("{0}")]
    Unsupported(String),
    /// A request outside the domain of an exact method of the registry
    /// ([`crate::registry`]), or of every method: the typed reason, with
    /// the numbers outside the domain.
    #[error("{0}")]
    Refused(crate::registry::refusal::Refusal),
    /// Any other invalid argument.
    #[error("{0}")]
    Invalid(String),
    /// `error`, met in the part of a request named `what` (one check of a
    /// comparison); [`Error::root`] is the error itself.
    #[error("{what}: {error}")]
    Within {
        /// The part, e.g. a check's name.
        what: String,
        /// The error.
        error: Box<Error>,
    },
}

impl Error {
    /// This error, met in the part of a request named `what`.
    pub fn within(self, what: impl Into<String>) -> Error {
        Error::Within {
            what: what.into(),
            error: Box::new(self),
        }
    }

    /// The error under any [`Error::Within`] wrappers.
    pub fn root(&self) -> &Error {
        match self {
            Error::Within { error, .. } => error.root(),
            e => e,
        }
    }
}

fn suggest(s: &[String]) -> String {
    if s.is_empty() {
        String::new()
    } else {
        format!(" (did you mean {}?)", s.join(", "))
    }
}

/// Shorthand for results with [`enum@Error`].
pub type Result<T, E = Error> = std::result::Result<T, E>;

/// Formats a byte count for error messages, e.g. `12.0 GiB`.
pub(crate) fn human_bytes(bytes: f64) -> String {
    const UNITS: [&str; 6] = ["B", "KiB", "MiB", "GiB", "TiB", "PiB"];
    let mut v = bytes;
    let mut i = 0;
    while v >= 1024.0 && i + 1 < UNITS.len() {
        v /= 1024.0;
        i += 1;
    }
    if i == 0 {
        format!("{v:.0} {}", UNITS[i])
    } else {
        format!("{v:.1} {}", UNITS[i])
    }
}
