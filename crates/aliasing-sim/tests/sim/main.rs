//! The simulator's integration tests.
//!
//! One test binary for the crate's tests (one link, one build of the test
//! harness), a module per subject, as ripgrep does: the end-to-end checks
//! (`burst_rare_sessions`, `calibration`, `engines`, ...) and the tests of
//! each source module (`burst_rare`, `channel`, `corruption`, ...; the
//! library has no unit tests, `[lib] test = false`, so the test build
//! compiles it once). Internals are reached through `aliasing_sim::__private`.
//! `tier` picks the cases of the test command or, under
//! `ALIAS_TESTS=full`, every case.

mod burst_rare;
mod burst_rare_sessions;
mod calibration;
mod channel;
mod corruption;
mod engines;
mod exact;
mod exact_sum;
mod extreme_counts;
mod internet_every_ber;
mod interval;
mod joint;
mod old_files;
mod progress;
mod prop_files;
mod rare;
mod run;
mod search;
mod shard;
mod spec;
mod stream;
mod sweep;
mod tier;
mod transfer;
