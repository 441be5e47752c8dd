#!/usr/bin/env python3
"""Builds the workspace's tests and runs them, and other test commands, side by side.

    scripts/test-binaries.py MESSAGES --build COMMAND [--jobs N] [--job NAME=COMMAND]...

COMMAND is the test build, `cargo test --no-run --message-format=json...`;
its messages are kept in MESSAGES. Every test executable it names starts
as soon as it is linked, while cargo goes on compiling the others (one at a
time until the build ends: the build has the cores; its last units, the
largest test binaries, compile alone and would leave a core idle), and runs
as `cargo test` would run it (from its package's folder, with
CARGO_MANIFEST_DIR and CARGO_PKG_NAME set, the arguments after `--` passed
on). Each `--job` is a shell command run once the build has ended (the doc
tests, the Python package's tests: they need the build's lock). N of them
run at once after the build (default 2; each test binary also runs its
tests on as many threads as there are cores), the longest expected first,
so that one binary's last long test leaves no core idle. Each one's output
is printed whole when it finishes; at the end, a line per failure and the
exit status 101 if any failed (as `cargo test --no-fail-fast`), 0
otherwise. A failed build stops there with its own status, after the runs
already started.

Without `--build`, MESSAGES is a finished build's messages, and its test
executables run after it in the same way.
"""

import argparse
import json
import os
import subprocess
import sys
import tempfile
import threading
import time

# The longest first (about a minute each on 2 cores, then half a minute and
# less): only the wall time depends on this order. Names as in the headers
# below: "<package> unittests" and "<package> test <name>", or a --job's name.
LONGEST_FIRST = [
    "aliasing-sim test sim",
    "aliasing-core test core",
    "aliasing-cli test cli",
    # before the Python step, whose build holds cargo's lock for half a
    # minute: the doc tests' cargo would wait on it
    "doc tests",
    "python",
    "aliasing-examples test study",
]


def test_executable(line):
    """The test executable a cargo message names, with its package folder and
    package, or None."""
    if not line.startswith("{"):
        return None
    m = json.loads(line)
    if m.get("reason") != "compiler-artifact" or not m.get("executable"):
        return None
    if not m.get("profile", {}).get("test"):
        return None
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
    return name, m["executable"], os.path.dirname(manifest), package


class Runs:
    """The runs waiting and running: `jobs` at once, longest first; one at a
    time while the build goes on."""

    def __init__(self, jobs):
        self.jobs = max(1, jobs)
        self.cv = threading.Condition()
        self.waiting = []
        self.active = 0
        self.building = True
        self.total = 0
        self.failed = []

    def add(self, run):
        with self.cv:
            self.waiting.append(run)
            self.total += 1
            self.cv.notify_all()

    def build_ended(self, drop_waiting=False):
        with self.cv:
            self.building = False
            if drop_waiting:
                self.total -= len(self.waiting)
                self.waiting.clear()
            self.cv.notify_all()

    def take(self):
        """The next run to start, or None when there is nothing left."""
        rank = {n: i for i, n in enumerate(LONGEST_FIRST)}
        with self.cv:
            while True:
                room = self.active < (1 if self.building else self.jobs)
                if self.waiting and room:
                    self.waiting.sort(key=lambda r: rank.get(r[0], len(rank)))
                    self.active += 1
                    return self.waiting.pop(0)
                if not self.waiting and not self.building:
                    return None
                self.cv.wait()

    def done(self, header, rc, secs, text):
        with self.cv:
            self.active -= 1
            sys.stdout.flush()
            print(f"     Running {header}: {secs:.1f} s", flush=True)
            sys.stdout.buffer.write(text)
            sys.stdout.flush()
            if rc != 0:
                self.failed.append((header, rc))
            self.cv.notify_all()


def run(r):
    name, header, argv, cwd, env = r
    with tempfile.TemporaryFile() as out:
        start = time.monotonic()
        rc = subprocess.run(
            argv, cwd=cwd, env=env, stdin=subprocess.DEVNULL, stdout=out, stderr=out
        ).returncode
        out.seek(0)
        return header, rc, time.monotonic() - start, out.read()


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("messages")
    ap.add_argument("--build", metavar="COMMAND", help="the test build, its messages on stdout")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--job", action="append", default=[], metavar="NAME=COMMAND")
    ap.add_argument("test_args", nargs="*", help="after --: arguments of every test binary")
    a = ap.parse_args()

    runs = Runs(a.jobs)

    def worker():
        while (r := runs.take()) is not None:
            runs.done(*run(r))

    workers = [threading.Thread(target=worker) for _ in range(runs.jobs)]
    for w in workers:
        w.start()

    def test_run(found):
        name, exe, folder, package = found
        env = dict(os.environ, CARGO_MANIFEST_DIR=folder, CARGO_PKG_NAME=package)
        shown = os.path.relpath(exe)
        return (name, f"{name} ({shown})", [exe, *a.test_args], folder, env)

    executables = 0
    build_rc = 0
    ended = False
    try:
        if a.build:
            with open(a.messages, "w", encoding="utf-8") as log:
                build = subprocess.Popen(
                    ["bash", "-c", a.build], stdout=subprocess.PIPE, text=True, encoding="utf-8"
                )
                for line in build.stdout:
                    log.write(line)
                    found = test_executable(line)
                    if found:
                        executables += 1
                        runs.add(test_run(found))
                build_rc = build.wait()
        else:
            with open(a.messages, encoding="utf-8") as f:
                for line in f:
                    found = test_executable(line)
                    if found:
                        executables += 1
                        runs.add(test_run(found))
        if build_rc == 0 and executables:
            for job in a.job:
                name, _, command = job.partition("=")
                runs.add((name, name, ["bash", "-c", command], None, None))
        ended = True
    finally:
        # interrupted, failed or empty: only the runs already started finish
        runs.build_ended(drop_waiting=not ended or build_rc != 0 or not executables)
        for w in workers:
            w.join()

    if build_rc != 0:
        print(f"error: the test build failed (exit status {build_rc})", file=sys.stderr)
        return build_rc
    if not executables:
        print("error: no test executable in the cargo messages", file=sys.stderr)
        return 2
    if runs.failed:
        for header, rc in runs.failed:
            print(f"error: {header} failed (exit status {rc})", file=sys.stderr)
        print(f"error: {len(runs.failed)} of {runs.total} test runs failed", file=sys.stderr)
        return 101
    return 0


if __name__ == "__main__":
    sys.exit(main())
