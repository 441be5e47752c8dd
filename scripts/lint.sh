#!/usr/bin/env bash
# The lints: clippy on every target of the workspace, warnings as errors.
# Part of `.ci/run`, not of the test command (./scripts/test.sh): clippy
# compiles every dependency a second time (as metadata), about 170 s of CPU
# from cold, and the test command's cold build does not reuse it.
set -euo pipefail
cd "$(dirname "$0")/.."
export CARGO_INCREMENTAL="${CARGO_INCREMENTAL:-0}"
# clippy ships with rustup's default profile; add it where the toolchain was
# installed without (this needs the network, so it may fail).
rustup component add clippy >/dev/null 2>&1 || true
if ! cargo clippy --version >/dev/null 2>&1; then
  echo "clippy is not installed and could not be added (rustup component add clippy)" >&2
  exit 1
fi
# With aliasing-core's unit tests (its `unit-tests` feature, as the test
# command builds it), then its library without them.
cargo clippy --workspace --all-targets --locked --features aliasing-core/unit-tests -- -D warnings
cargo clippy -p aliasing-core --lib --locked -- -D warnings
