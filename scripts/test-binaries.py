#!/usr/bin/env python3
"""Runs the workspace's test binaries, and other test commands, side by side.

    scripts/test-binaries.py MESSAGES [--jobs N] [--job NAME=COMMAND]...

MESSAGES is the output of `cargo test --no-run --message-format=json...`:
every test executable it lists runs as `cargo test` would run it (from its
package's folder, with CARGO_MANIFEST_DIR and CARGO_PKG_NAME set, the
arguments after `--` passed on), and each `--job` is a shell command run
alongside them (the doc tests, the Python package's tests). N of them run at
once (default 2; each test binary also runs its tests on as many threads as
there are cores), the longest expected first, so that one binary's last long
test leaves no core idle. Each one's output is printed whole when it
finishes; at the end, a line per failure and the exit status 101 if any
failed (as `cargo test --no-fail-fast`), 0 otherwise.
"""

import argparse
import concurrent.futures
import json
import os
import subprocess
import sys
import tempfile
import time

# The longest first (about a minute each on 2 cores, then half a minute and
# less): only the wall time depends on this order. Names as in the headers
# below: "<package> unittests" and "<package> test <name>", or a --job's name.
LONGEST_FIRST = [
    "aliasing-sim test sim",
    "aliasing-core test core",
    "python",
    "aliasing-cli test cli",
    "doc tests",
    "aliasing-examples test study",
]


def binaries(messages_path):
    """The test executables of cargo's messages, with their package folder."""
    found = []
    with open(messages_path, encoding="utf-8") as f:
        for line in f:
            if not line.startswith("{"):
                continue
            m = json.loads(line)
            if m.get("reason") != "compiler-artifact" or not m.get("executable"):
                continue
            if not m.get("profile", {}).get("test"):
                continue
            target = m["target"]
            manifest = m["manifest_path"]
            # "path+file:///.../examples#aliasing-examples@0.1.0", or without
            # the name where it is the folder's: ".../aliasing-core#0.1.0"
            url, _, fragment = m["package_id"].partition("#")
            if "@" in fragment:
                package = fragment.split("@", 1)[0]
            else:
                package = url.rstrip("/").rsplit("/", 1)[-1]
            if target["kind"] == ["test"]:
                name = f"{package} test {target['name']}"
            else:
                name = f"{package} unittests"
            found.append((name, m["executable"], os.path.dirname(manifest), package))
    return found


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("messages")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--job", action="append", default=[], metavar="NAME=COMMAND")
    ap.add_argument("test_args", nargs="*", help="after --: arguments of every test binary")
    a = ap.parse_args()

    runs = []
    for name, exe, folder, package in binaries(a.messages):
        env = dict(os.environ, CARGO_MANIFEST_DIR=folder, CARGO_PKG_NAME=package)
        shown = os.path.relpath(exe)
        runs.append((name, f"{name} ({shown})", [exe, *a.test_args], folder, env))
    if not runs:
        print("error: no test executable in the cargo messages", file=sys.stderr)
        return 2
    for job in a.job:
        name, _, command = job.partition("=")
        runs.append((name, name, ["bash", "-c", command], None, None))
    rank = {n: i for i, n in enumerate(LONGEST_FIRST)}
    runs.sort(key=lambda r: rank.get(r[0], len(rank)))

    def run(r):
        name, header, argv, cwd, env = r
        with tempfile.TemporaryFile() as out:
            start = time.monotonic()
            rc = subprocess.run(
                argv, cwd=cwd, env=env, stdin=subprocess.DEVNULL, stdout=out, stderr=out
            ).returncode
            out.seek(0)
            return header, rc, time.monotonic() - start, out.read()

    failed = []
    with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, a.jobs)) as pool:
        for f in concurrent.futures.as_completed([pool.submit(run, r) for r in runs]):
            header, rc, secs, text = f.result()
            sys.stdout.flush()
            print(f"     Running {header}: {secs:.1f} s", flush=True)
            sys.stdout.buffer.write(text)
            sys.stdout.flush()
            if rc != 0:
                failed.append((header, rc))
    if failed:
        for header, rc in failed:
            print(f"error: {header} failed (exit status {rc})", file=sys.stderr)
        print(f"error: {len(failed)} of {len(runs)} test runs failed", file=sys.stderr)
        return 101
    return 0


if __name__ == "__main__":
    sys.exit(main())
