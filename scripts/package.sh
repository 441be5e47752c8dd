#!/usr/bin/env bash
# The library crates must package and build from their packages alone
# (data files inside the crate, versions on path dependencies, licences):
# `cargo package` verifies each by compiling it again from its packaged
# sources. Part of `.ci/run`, after the test command, whose dependency
# builds it reuses (.cargo/config.toml holds their profile).
set -euo pipefail
cd "$(dirname "$0")/.."
export CARGO_INCREMENTAL="${CARGO_INCREMENTAL:-0}"
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
