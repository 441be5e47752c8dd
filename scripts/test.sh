#!/usr/bin/env bash
# The project's test command: the format check, then every test of the
# workspace and the Python package's tests. The lints (scripts/lint.sh) and
# the packaging check (scripts/package.sh) run in .ci/run, with the full
# tier and the MPI checks (docs/testing.md).
set -euo pipefail
cd "$(dirname "$0")/.."
# A cold build is faster without incremental compilation (its bookkeeping
# pays off only when rebuilding after small edits); set CARGO_INCREMENTAL=1
# to keep it.
export CARGO_INCREMENTAL="${CARGO_INCREMENTAL:-0}"
# rustfmt ships with rustup's default profile; add it where the toolchain
# was installed without (this needs the network, so it may fail).
rustup component add rustfmt >/dev/null 2>&1 || true
if cargo fmt --version >/dev/null 2>&1; then
  cargo fmt --all -- --check
else
  echo "warning: rustfmt is not installed and could not be added: format check skipped" >&2
fi
# The Python package's environment (a virtual environment under target/,
# maturin, numpy, pytest, pandas and tqdm from PyPI: mostly waiting on the
# network) is made while cargo compiles; its output is in the log below,
# and the Python step repeats anything it left undone.
target_dir="${CARGO_TARGET_DIR:-$PWD/target}"
mkdir -p "$target_dir"
./scripts/test-python.sh --env-only >"$target_dir/py-env.log" 2>&1 &
# The benches crate has no tests (scripts/lint.sh checks that it compiles);
# leaving it out also keeps criterion's feature choices (serde, either, ...)
# out of the dependencies, so that the packaging check reuses them.
# `--tests`: every crate's unit and integration tests, not the examples'
# binaries (scripts/lint.sh compiles them; linking ten of them is a minute
# of a cold run).
# ALIAS_TESTS=full (set by .ci/run) runs the same tests on every case: the
# long lengths, wide generators and every published profile; without it
# each test runs its smaller cases (docs/testing.md lists the two tiers).
# aliasing-core's unit tests are compiled into the library under its
# `unit-tests` feature (so that the library compiles once, not a second
# time with its tests) and run by its `core` test target, through wrappers
# that scripts/unit-tests.py writes: first, check that they list every one.
python3 scripts/unit-tests.py --check
features=(--features aliasing-core/unit-tests)
messages="$target_dir/test-binaries.json"
cargo test --workspace --exclude aliasing-benches --locked --tests --no-run "${features[@]}" \
  --message-format=json-render-diagnostics >"$messages"
# Then the test binaries (what `cargo test` would run one after the other),
# the documentation's examples and the Python package's tests (the package
# built into the environment and checked against the binary), two at a
# time: most binaries end on one long test, which leaves a core idle.
# Each one's output is printed when it ends; the status is cargo test's
# (101 if a test failed).
python3 scripts/test-binaries.py "$messages" --jobs "${ALIAS_TEST_JOBS:-2}" \
  --job "doc tests=cargo test --workspace --exclude aliasing-benches --locked --doc ${features[*]}" \
  --job "python=./scripts/test-python.sh"
