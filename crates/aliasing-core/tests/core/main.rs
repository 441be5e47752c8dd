//! aliasing-core's integration tests.
//!
//! One test binary for the crate's integration tests (one link, one
//! build of the test harness), a module per subject, as ripgrep does.

mod progress;
mod prop_parsers;

// written by scripts/unit-tests.py; left as written, so that its --check
// compares text
#[cfg(feature = "unit-tests")]
#[rustfmt::skip]
mod unit;

/// Without the `unit-tests` feature the unit tests are not compiled: a run
/// of this target says so instead of passing without them.
#[cfg(not(feature = "unit-tests"))]
#[test]
fn unit_tests_need_the_unit_tests_feature() {
    panic!(
        "aliasing-core's unit tests are compiled under its `unit-tests` feature: \
         run `cargo test -p aliasing-core --features unit-tests` (./scripts/test.sh does)"
    );
}
