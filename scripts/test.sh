#!/usr/bin/env bash
# The project's test command: formatting, lints, then every test of the workspace.
set -euo pipefail
cd "$(dirname "$0")/.."
# A cold build is faster without incremental compilation (its bookkeeping
# pays off only when rebuilding after small edits); set CARGO_INCREMENTAL=1
# to keep it.
export CARGO_INCREMENTAL="${CARGO_INCREMENTAL:-0}"
# rustfmt and clippy ship with rustup's default profile; add them where the
# toolchain was installed without (this needs the network, so it may fail).
rustup component add rustfmt clippy >/dev/null 2>&1 || true
if cargo fmt --version >/dev/null 2>&1; then
  cargo fmt --all -- --check
else
  echo "warning: rustfmt is not installed and could not be added: format check skipped" >&2
fi
if cargo clippy --version >/dev/null 2>&1; then
  cargo clippy --workspace --all-targets --locked -- -D warnings
else
  echo "warning: clippy is not installed and could not be added: lints skipped" >&2
fi
# The benches crate has no tests (clippy above checks that it compiles);
# leaving it out also keeps criterion's feature choices (serde, either, ...)
# out of the dependencies, so that the package step below reuses them.
# `--tests`: every crate's unit and integration tests, not the examples'
# binaries (clippy above compiles them, and linking ten of them is a
# minute of the cold run); then the documentation's examples.
# ALIAS_TESTS=full (set by .ci/run) runs the same tests on every case: the
# long lengths, wide generators and every published profile; without it
# each test runs its smaller cases (docs/testing.md lists the two tiers).
cargo test --workspace --exclude aliasing-benches --locked --tests
cargo test --workspace --exclude aliasing-benches --locked --doc
# The Python package: built into a virtual environment, checked against the binary.
./scripts/test-python.sh
# The library crates must package and build from their packages alone
# (data files inside the crate, versions on path dependencies, licences).
# Cargo unpacks the packaged crates from a local registry under target/package
# into CARGO_HOME by name and version, and reuses an unpacked copy from an
# earlier run at the same path: remove ours so that the sources verified are
# these, not a stale copy.
rm -rf "${CARGO_HOME:-$HOME/.cargo}"/registry/src/*/aliasing-{core,sim,plot,cli}-[0-9]*
# Cargo also trusts a registry crate's compiled artifacts by name and version:
# remove what an earlier run compiled from such unpacked copies (their
# dep-info names the registry path), or sim would verify against an old core.
target_dir="${CARGO_TARGET_DIR:-target}"
for d in "$target_dir"/debug/deps/*.d; do
  [ -e "$d" ] || continue
  if grep -q "registry/src/[^/ ]*/aliasing-" "$d"; then
    unit=$(basename "$d" .d)
    rm -rf "$target_dir/debug/.fingerprint/${unit//_/-}" "$target_dir"/debug/deps/*"${unit##*-}"*
  fi
done
cargo package --workspace --locked --exclude aliasing-benches --exclude aliasing-examples
