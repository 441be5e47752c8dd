//! The simulator's integration tests.
//!
//! One test binary for the crate's integration tests (one link, one
//! build of the test harness), a module per subject, as ripgrep does.

mod burst_rare_sessions;
mod calibration;
mod engines;
mod extreme_counts;
mod internet_every_ber;
mod old_files;
mod progress;
mod prop_files;
mod sweep;
