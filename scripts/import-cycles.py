#!/usr/bin/env python3
"""Lists the `use crate::X` edges between the source files of each library
crate and reports the import circles among them, plus the largest files.

    python3 scripts/import-cycles.py [--edges] [crate dir ...]

By default it scans crates/aliasing-core, crates/aliasing-sim and
crates/aliasing-plot. An edge A -> B means that file A names an item of file
B through a `crate::`, `super::` or `self::` path (in a `use` or inline),
outside test code (`#[cfg(test)]` items and `tests.rs` files are skipped).
A path that stops at the crate root is followed through the root's
`pub use` re-exports. A `mod` declaration is not an edge. Circles are the
strongly connected components of more than one file, leaving out the
back-up arrows (a module naming an item of its own ancestor, such as
`super::Item`, the usual parent-child pattern), which are listed apart. Exit code 1 when a
circle exists.

"Lines before tests" is the length of a file up to its first
`#[cfg(test)]` item (the whole file when it has none).
"""
import os
import re
import sys


def module_path(src, path):
    rel = os.path.relpath(path, src)[:-3].split(os.sep)
    if rel == ["lib"]:
        return ()
    if rel[-1] == "mod":
        rel = rel[:-1]
    return tuple(rel)


def strip_comments_and_strings(text):
    """Blanks comments, string literals (raw ones too) and char literals."""
    out = []
    i, n = 0, len(text)
    while i < n:
        c = text[i]
        if text.startswith("//", i):
            j = text.find("\n", i)
            i = n if j < 0 else j
        elif text.startswith("/*", i):
            depth, i = 1, i + 2
            while i < n and depth:
                if text.startswith("/*", i):
                    depth, i = depth + 1, i + 2
                elif text.startswith("*/", i):
                    depth, i = depth - 1, i + 2
                else:
                    i += 1
        elif (m := re.match(r'b?r(#*)"', text[i : i + 40])) and (i == 0 or not (text[i - 1].isalnum() or text[i - 1] == "_")):
            close = '"' + m.group(1)
            j = text.find(close, i + m.end())
            i = n if j < 0 else j + len(close)
            out.append('""')
        elif c == '"':
            j = i + 1
            while j < n and text[j] != '"':
                j += 2 if text[j] == "\\" else 1
            i = j + 1
            out.append('""')
        elif c == "'" and (m := re.match(r"'(?:\\.[^']*|[^'\\])'", text[i : i + 12])):
            i += m.end()
            out.append("' '")
        else:
            out.append(c)
            i += 1
    return "".join(out)


def block_end(text, start):
    """Index just past the item starting at `start` (a `;` item or a braced one)."""
    depth = 0
    i = start
    while i < len(text):
        c = text[i]
        if c == "{":
            depth += 1
        elif c == "}":
            depth -= 1
            if depth == 0:
                return i + 1
        elif c == ";" and depth == 0:
            return i + 1
        i += 1
    return len(text)


def strip_tests(text):
    out = []
    i = 0
    for m in re.finditer(r"#\[cfg\(test\)\]", text):
        if m.start() < i:
            continue
        out.append(text[i : m.start()])
        i = block_end(text, m.end())
    out.append(text[i:])
    return "".join(out)


def lines_before_tests(raw):
    for n, line in enumerate(raw.split("\n")):
        if line.strip().startswith("#[cfg(test)]"):
            return n
    return raw.count("\n")


def expand_use(tree):
    """`a::{b, c::{d, e}}` -> [a::b, a::c::d, a::c::e]."""
    tree = re.sub(r"\s+", "", tree)
    depth = 0
    for i, c in enumerate(tree):
        if c == "{":
            if depth == 0:
                prefix = tree[:i]
                inner = tree[i + 1 : tree.rindex("}")]
                parts, d, cur = [], 0, ""
                for ch in inner:
                    if ch == "," and d == 0:
                        parts.append(cur)
                        cur = ""
                        continue
                    d += ch == "{"
                    d -= ch == "}"
                    cur += ch
                parts.append(cur)
                res = []
                for p in parts:
                    if p:
                        res += expand_use(prefix + p)
                return res
            depth += 1
    return [re.sub(r"as\w+$", "", tree.split(" as ")[0])]


def scan(crate):
    src = os.path.join(crate, "src")
    files = {}
    for root, _, names in os.walk(src):
        for n in names:
            if n.endswith(".rs") and n != "tests.rs" and "bin" not in root.split(os.sep):
                p = os.path.join(root, n)
                files[module_path(src, p)] = p
    mods = set(files)
    texts, sizes = {}, {}
    for m, p in files.items():
        raw = open(p).read()
        sizes[p] = (raw.count("\n"), lines_before_tests(raw))
        texts[m] = strip_tests(strip_comments_and_strings(raw))
    # every module's `pub use` re-exports: (module, name) -> the path named
    reexports = {}
    for m, text in texts.items():
        for u in re.findall(r"\bpub(?:\([^)]*\))?\s+use\s+([^;]+);", text):
            for path in expand_use(u):
                seg = [s for s in path.split("::") if s]
                if len(seg) >= 2 and seg[-1] not in ("*", "self"):
                    reexports[(m, seg[-1])] = (m, seg)

    def resolve(cur, seg, depth=0):
        if not seg:
            return None
        if seg[0] == "crate":
            base, seg = (), seg[1:]
        elif seg[0] == "self":
            base, seg = cur, seg[1:]
        elif seg[0] == "super":
            base = cur
            while seg and seg[0] == "super":
                base, seg = base[:-1], seg[1:]
        elif cur + (seg[0],) in mods or depth > 0:
            # a path relative to the module: a child module (`walk::f`,
            # `use walk::X`), or the path of a re-export being followed
            base = cur
        else:
            return None
        full = base + tuple(seg)
        for k in range(len(full), -1, -1):
            if full[:k] in mods:
                target = full[:k]
                # an item the module only re-exports: follow it to its home
                if k < len(full) and (target, full[k]) in reexports and depth < 8:
                    home, path = reexports[(target, full[k])]
                    t = resolve(home, path, depth + 1)
                    if t is not None and t != home:
                        return t
                return target
        return None

    edges = {}
    for m, text in texts.items():
        paths = []
        for u in re.findall(r"\buse\s+([^;]+);", text):
            paths += expand_use(u)
        text_wo_use = re.sub(r"\buse\s+[^;]+;", "", text)
        paths += re.findall(r"(?<![\w:])\w+(?:::\w+)+", text_wo_use)
        for path in paths:
            seg = [s for s in path.split("::") if s and s != "*"]
            t = resolve(m, seg)
            if t is not None and t != m and (m != () and t != ()):
                # a module naming its own descendant through `self::` is a
                # re-export of a child; it is an edge like any other
                edges.setdefault(m, set()).add(t)
    return files, edges, sizes


def sccs(nodes, edges):
    index, low, stack, on, out = {}, {}, [], set(), []
    counter = [0]

    def strong(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in edges.get(v, ()):
            if w not in index:
                strong(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            out.append(comp)

    sys.setrecursionlimit(10000)
    for v in nodes:
        if v not in index:
            strong(v)
    return out


def name(m):
    return "::".join(m) or "lib"


def main():
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    crates = args or ["crates/aliasing-core", "crates/aliasing-sim", "crates/aliasing-plot"]
    show_edges = "--edges" in sys.argv
    found = 0
    for crate in crates:
        files, edges, sizes = scan(crate)
        n_edges = sum(len(v) for v in edges.values())
        up = sorted((a, b) for a in edges for b in edges[a] if b == a[: len(b)])
        down = {a: {b for b in bs if b != a[: len(b)]} for a, bs in edges.items()}
        print(f"{crate}: {len(files)} files, {n_edges} file-to-file import edges")
        print(f"  back-up arrows (a module naming its own ancestor): {len(up)}")
        for a, b in up:
            print(f"    {name(a)} -> {name(b)}")
        if show_edges:
            for m in sorted(edges):
                print(f"  {name(m)} -> {', '.join(sorted(name(t) for t in edges[m]))}")
        for comp in sccs(sorted(files), down):
            if len(comp) > 1:
                found += 1
                members = sorted(comp)
                print(f"  CIRCLE: {' / '.join(name(c) for c in members)}")
                for a in members:
                    for b in sorted(down.get(a, ())):
                        if b in comp:
                            print(f"    {name(a)} -> {name(b)}")
        big = sorted(sizes.items(), key=lambda kv: -kv[1][1])[:6]
        print("  largest (lines before tests / all lines):")
        for p, (total, before) in big:
            print(f"    {before:5} / {total:5}  {os.path.relpath(p, crate)}")
    print(f"{found} import circle(s)")
    sys.exit(1 if found else 0)


if __name__ == "__main__":
    main()
