//! The command-line tool's one progress bar: an indicatif bar behind
//! [`aliasing_core::progress::Progress`], drawn on stderr only when stderr
//! is a terminal (nothing at all on a pipe or file, so output stays clean).
//!
//! Each stage the library announces resets the bar: its name, units done of
//! the total, an integer rate per second and the ETA. The bar is cleared
//! when the computation finishes or the bar is dropped (an error included).
//!
//! Inside a [`crate::run_document`] call nothing is drawn: the stages and
//! units go to the call's [`crate::Hooks`], which may also stop the
//! computation at any of these calls (a cancelled call unwinds from here).

use aliasing_core::progress::Progress;
use indicatif::{HumanCount, ProgressBar, ProgressDrawTarget, ProgressState, ProgressStyle};
use std::io::IsTerminal;
use std::sync::Mutex;

/// A progress bar on stderr, or nothing when stderr is not a terminal; in
/// a [`crate::run_document`] call, that call's hooks.
pub struct Bar(Option<ProgressBar>, Mutex<String>, Option<crate::Hooks>);

impl Bar {
    /// A bar when stderr is a terminal, else a watcher that draws nothing.
    pub fn stderr() -> Bar {
        Bar::when(std::io::stderr().is_terminal())
    }

    /// A bar when `show` (and stderr is a terminal), else nothing: for
    /// commands where only some processes draw (MPI member 0).
    pub fn when(show: bool) -> Bar {
        if let Some(h) = crate::embed::current_hooks() {
            return Bar(None, Mutex::default(), Some(h));
        }
        if !show || !std::io::stderr().is_terminal() {
            return Bar(None, Mutex::default(), None);
        }
        // hidden until the first stage: no empty bar before it
        let b = ProgressBar::with_draw_target(Some(0), ProgressDrawTarget::hidden());
        b.set_style(style());
        Bar(Some(b), Mutex::default(), None)
    }

    /// Clears the bar (the computation has ended); also done on drop.
    pub fn finish(&self) {
        if let Some(b) = &self.0 {
            b.finish_and_clear();
        }
    }

    /// Names what the next stages belong to (`crc32: dual-code windows`),
    /// for commands that run one computation after another.
    pub fn set_prefix(&self, prefix: &str) {
        *self.1.lock().unwrap_or_else(|e| e.into_inner()) = prefix.to_string();
    }
}

/// `name [=====>    ] 1,234/5,678  90,123/s  ETA 1m 2s`: counts with
/// thousands separators, the rate a whole number (indicatif's `{per_sec}`
/// prints fractions).
fn style() -> ProgressStyle {
    ProgressStyle::with_template("{msg} {bar:30} {human_pos}/{human_len}  {rate}/s  ETA {eta}")
        .expect("a valid template")
        .with_key("rate", |s: &ProgressState, w: &mut dyn std::fmt::Write| {
            let _ = write!(w, "{}", HumanCount(integer_rate(s.per_sec())));
        })
}

/// A rate as a whole number (0 for a rate not yet known).
fn integer_rate(per_sec: f64) -> u64 {
    if per_sec.is_finite() && per_sec > 0.0 {
        per_sec.round() as u64
    } else {
        0
    }
}

impl Progress for Bar {
    fn advance(&self, n: u64) {
        if let Some(h) = &self.2 {
            h.advance(n);
        }
        if let Some(b) = &self.0 {
            b.inc(n);
        }
    }

    fn stage(&self, name: &str, total: u64) {
        if let Some(h) = &self.2 {
            let prefix = self.1.lock().unwrap_or_else(|e| e.into_inner());
            if prefix.is_empty() {
                h.stage(name, total);
            } else {
                h.stage(&format!("{prefix}: {name}"), total);
            }
        }
        if let Some(b) = &self.0 {
            let prefix = self.1.lock().unwrap_or_else(|e| e.into_inner());
            b.reset();
            b.set_length(total);
            b.set_message(if prefix.is_empty() {
                name.to_string()
            } else {
                format!("{prefix}: {name}")
            });
            if b.is_hidden() {
                b.set_draw_target(ProgressDrawTarget::stderr());
            }
        }
    }

    fn finish(&self) {
        Bar::finish(self)
    }

    /// A part begins (one check's column of a comparison): its name
    /// prefixes the stages that follow.
    fn part(&self, name: &str) {
        self.set_prefix(name)
    }
}

impl Drop for Bar {
    fn drop(&mut self) {
        self.finish();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rates_are_whole_numbers() {
        assert_eq!(integer_rate(178_261_117.175_9), 178_261_117);
        assert_eq!(HumanCount(178_261_117).to_string(), "178,261,117");
        assert_eq!(integer_rate(0.4), 0);
        assert_eq!(integer_rate(f64::NAN), 0);
        assert_eq!(integer_rate(f64::INFINITY), 0);
    }

    #[test]
    fn a_bar_off_a_terminal_draws_nothing_and_takes_every_call() {
        let b = Bar::when(false);
        assert!(b.0.is_none());
        b.stage("chain steps", 10);
        b.advance(10);
        b.finish();
    }
}
