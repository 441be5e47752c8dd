#!/usr/bin/env python3
"""Writes aliasing-core's unit-test wrappers and the module they reach.

tests/core/unit.rs holds one #[test] per unit test; src/__unit.rs
re-exports each unit-test module as `__unit::<path>` (many sit in private
modules).

aliasing-core's unit tests live beside the code they check, in the modules
declared under `#[cfg(feature = "unit-tests")]` (`pub mod tests`, ...), as
`pub fn name()`. The feature compiles them into the library itself, so that
the test build compiles the library once (a `cfg(test)` unit-test binary
would compile all of it a second time: 123 s of CPU against 73 s for the
library alone, measured on one core). The test target tests/core runs them
through the wrappers this script writes, reaching each module as
`aliasing_core::__unit::<path>`.

The rule it reads: in a gated module, every `pub fn name()` at the
module's top level is a test (`#[ignore]` and `#[should_panic]` above it
are copied to its wrapper); helpers stay private (`fn`, `pub(crate) fn`).

`--check` writes nothing and fails (status 1) when either file is not what
the sources give: ./scripts/test.sh runs it, so that no unit test can be
left out of the run.
"""
import argparse
import os
import re
import sys

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "crates", "aliasing-core")
SRC = os.path.join(ROOT, "src")
OUT = os.path.join(ROOT, "tests", "core", "unit.rs")
REEXPORTS = os.path.join(SRC, "__unit.rs")
GATE = '#[cfg(feature = "unit-tests")]'


def module_path(rel):
    parts = rel[:-3].split("/")
    if parts[-1] in ("lib", "mod"):
        parts = parts[:-1]
    return parts


def child_file(parent, name):
    base = os.path.join(SRC, *parent)
    for cand in (base + os.sep + name + ".rs", os.path.join(base, name, "mod.rs")):
        if os.path.exists(cand):
            return cand
    return None


def scan():
    """{module path: [(test, attributes)]} of every gated test module."""
    found = {}
    for folder, _, files in sorted(os.walk(SRC)):
        for f in sorted(files):
            if not f.endswith(".rs"):
                continue
            path = os.path.join(folder, f)
            parent = module_path(os.path.relpath(path, SRC))
            lines = open(path, encoding="utf-8").read().split("\n")
            for i, line in enumerate(lines):
                if line.strip() != GATE:
                    continue
                j = i + 1
                while lines[j].strip().startswith("#["):
                    j += 1
                m = re.match(r"^(\s*)pub mod (\w+)( \{|;)$", lines[j])
                if not m:
                    continue
                name = m.group(2)
                if not parent and name == "__unit":  # this script's own output
                    continue
                if m.group(3) == ";":
                    body = open(child_file(parent, name), encoding="utf-8").read().split("\n")
                    indent = ""
                else:
                    indent = m.group(1) + "    "
                    end = j + 1
                    while lines[end] != m.group(1) + "}":
                        end += 1
                    body = lines[j + 1 : end]
                tests = []
                attrs = []
                for b in body:
                    s = b.strip()
                    if b.startswith(indent + "#[") and not b.startswith(indent + " "):
                        attrs.append(s)
                        continue
                    t = re.match("^" + re.escape(indent) + r"pub fn (\w+)\(\)", b)
                    if t:
                        tests.append((t.group(1), [a for a in attrs if a.startswith(("#[ignore", "#[should_panic"))]))
                    if s and not s.startswith("///") and not s.startswith("//"):
                        attrs = []
                if tests:
                    found[tuple(parent + [name])] = tests
    return found


def render(found):
    out = [
        "//! aliasing-core's unit tests (written by scripts/unit-tests.py: do not",
        "//! edit). Each test is a `pub fn` in a module of the library compiled",
        "//! under the `unit-tests` feature; see the script's docstring for why.",
        "",
    ]
    tree = {}
    for path, tests in sorted(found.items()):
        node = tree
        for p in path:
            node = node.setdefault(p, {})
        node[None] = (path, tests)

    def emit(node, depth):
        pad = "    " * depth
        for key in sorted(k for k in node if k is not None):
            out.append(f"{pad}mod {key} {{")
            emit(node[key], depth + 1)
            out.append(f"{pad}}}")
        if None in node:
            path, tests = node[None]
            unit = "_".join(path)
            for name, attrs in tests:
                out.append(f"{pad}#[test]")
                out.extend(f"{pad}{a}" for a in attrs)
                out.append(f"{pad}fn {name}() {{")
                out.append(f"{pad}    aliasing_core::__unit::{unit}::{name}()")
                out.append(f"{pad}}}")

    emit(tree, 0)
    return "\n".join(out) + "\n"


def render_reexports(found):
    out = [
        "//! Each unit-test module of the crate under one name (written by",
        "//! scripts/unit-tests.py: do not edit), for the wrappers of",
        "//! tests/core/unit.rs.",
        "",
    ]
    for path in sorted(found):
        out.append(f"pub use crate::{'::'.join(path)} as {'_'.join(path)};")
    return "\n".join(out) + "\n"


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--check", action="store_true", help="write nothing; fail if tests/core/unit.rs or src/__unit.rs is stale")
    a = ap.parse_args()
    found = scan()
    files = {OUT: render(found), REEXPORTS: render_reexports(found)}
    count = sum(len(t) for t in found.values())
    if a.check:
        for path, text in files.items():
            old = open(path, encoding="utf-8").read() if os.path.exists(path) else ""
            if old != text:
                name = os.path.relpath(path, os.path.join(ROOT, "..", ".."))
                print(f"error: {name} is stale: run scripts/unit-tests.py", file=sys.stderr)
                return 1
        return 0
    for path, text in files.items():
        with open(path, "w", encoding="utf-8") as f:
            f.write(text)
    print(f"{count} unit tests in {len(found)} modules")
    return 0


if __name__ == "__main__":
    sys.exit(main())
