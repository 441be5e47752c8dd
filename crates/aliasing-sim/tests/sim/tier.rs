//! The two tiers of this crate's tests.
//!
//! The test command (`./scripts/test.sh`) runs every test on its smaller
//! cases; `ALIAS_TESTS=full` (what `.ci/run` sets) runs the same tests on
//! every case, the long lengths and wide generators included. A test keeps
//! its oracle in both tiers: only the list of cases changes.

/// Whether `ALIAS_TESTS=full` asks for every case.
pub fn full() -> bool {
    std::env::var("ALIAS_TESTS").is_ok_and(|v| v == "full")
}

/// `fast` in the test command, `full` under `ALIAS_TESTS=full`.
pub fn pick<T>(fast: T, full: T) -> T {
    if self::full() { full } else { fast }
}
