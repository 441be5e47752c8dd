//! aliasing-core's integration tests.
//!
//! One test binary for the crate's integration tests (one link, one
//! build of the test harness), a module per subject, as ripgrep does.

mod progress;
mod prop_parsers;
