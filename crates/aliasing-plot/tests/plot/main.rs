//! The plot crate's integration tests.
//!
//! One test binary for the crate's integration tests (one link, one
//! build of the test harness), a module per subject, as ripgrep does.

mod common;
mod figures;
mod legacy;
mod prop_docs;
mod render;
mod typed;
