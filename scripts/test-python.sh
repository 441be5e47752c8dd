#!/usr/bin/env bash
# The Python package (python/): builds it into a virtual environment under
# target/ (made once, reused) and runs its tests, which check it against the
# `alias` binary, and the examples in its docstrings.
#
# `--env-only` makes the environment and installs into it, and stops there:
# ./scripts/test.sh runs that while cargo compiles. Two runs at once take
# turns at that step (a lock file beside the environment).
#
# maturin, numpy, pytest and pandas come from PyPI. The extension module is
# built in the dev profile set like the test profile (Cargo.toml), so that it
# reuses the crates `cargo test` compiled: after ./scripts/test.sh's cargo
# steps only the extension crate itself compiles.
set -euo pipefail
cd "$(dirname "$0")/.."
root="$PWD"
target_dir="${CARGO_TARGET_DIR:-$root/target}"
venv="$target_dir/py-venv"
mkdir -p "$target_dir"
(
  flock 9
  if [ ! -x "$venv/bin/python" ]; then
    python3 -m venv "$venv"
  fi
  # --no-compile: pip would byte-compile every module of the five
  # packages (pandas's own test suite included), 17 s of the install's 26 s
  # of CPU; Python compiles the modules the tests import as it imports them
  "$venv/bin/python" -m pip install -q --no-compile --disable-pip-version-check maturin numpy pytest pandas tqdm
) 9>"$target_dir/py-venv.lock"
if [ "${1:-}" = --env-only ]; then
  exit 0
fi
like_test=(
  --config 'profile.dev.opt-level=2'
  --config 'profile.dev.debug=false'
  --config 'profile.dev.package.aliasing-core.opt-level=2'
  --config 'profile.dev.package.aliasing-sim.opt-level=2'
  --config 'profile.dev.package.aliasing-core.codegen-units=4'
  --config 'profile.dev.package.aliasing-sim.codegen-units=4'
  --config 'profile.dev.package.aliasing-cli.opt-level=0'
  --config 'profile.dev.package.aliasing-py.opt-level=0'
)
# the same features as ./scripts/test.sh's build (aliasing-core's unit
# tests in the library), so that its crates are reused here
features=(--features aliasing-core/unit-tests)
(cd python && VIRTUAL_ENV="$venv" "$venv/bin/maturin" develop --locked -q "${features[@]}" "${like_test[@]}")
# the binary the package is checked against: ./scripts/test.sh's own test
# build (nothing to do after its `cargo test`; run alone, it builds that)
cargo test --workspace --exclude aliasing-benches --locked --tests --no-run -q "${features[@]}"
export ALIAS_BIN="$target_dir/debug/alias"
cd python
"$venv/bin/python" -m pytest -q tests aliasing --doctest-modules -p no:cacheprovider
