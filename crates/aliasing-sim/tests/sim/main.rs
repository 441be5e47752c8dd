//! The simulator's integration tests.
//!
//! One test binary for the crate's integration tests (one link, one
//! build of the test harness), a module per subject, as ripgrep does.

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
