#!/usr/bin/env python3
"""Counts the documented public surface of a crate from its rustdoc JSON.

    cargo +nightly rustdoc -p aliasing-core --lib -- -Z unstable-options --output-format json
    python3 scripts/surface.py target/doc/aliasing_core.json [--list]

Walks the public modules from the crate root (items hidden with
`#[doc(hidden)]` or private are not in the JSON), and counts module-level
items by kind, plus the public methods and associated items of their
inherent impls. `--list` prints every path.
"""
import json
import sys
from collections import Counter


def main():
    d = json.load(open(sys.argv[1]))
    idx = d["index"]
    listing = "--list" in sys.argv
    kinds, paths = Counter(), []
    seen = set()

    def visit(mid, path):
        if mid in seen:
            return
        seen.add(mid)
        m = idx[str(mid)]
        for i in m["inner"]["module"]["items"]:
            it = idx.get(str(i))
            if it is None or it["visibility"] != "public":
                continue
            kind = next(iter(it["inner"]))
            name = it["name"]
            if kind == "use":
                u = it["inner"]["use"]
                target = idx.get(str(u["id"])) if u.get("id") is not None else None
                if target is None:
                    continue  # a re-export from another crate
                kind, name = next(iter(target["inner"])), u["name"]
                it = target
            if kind == "impl":
                continue
            p = f"{path}::{name}"
            if kind == "module":
                kinds["module"] += 1
                paths.append(("module", p))
                visit(it["id"], p)
                continue
            kinds[kind] += 1
            paths.append((kind, p))
            for impl_id in it["inner"].get(kind, {}).get("impls", []) or []:
                imp = idx.get(str(impl_id))
                if imp is None:
                    continue
                inner = imp["inner"]["impl"]
                if inner.get("trait") is not None or inner.get("is_synthetic") or inner.get("blanket_impl"):
                    continue
                for a in inner["items"]:
                    ai = idx.get(str(a))
                    if ai and ai["visibility"] == "public":
                        kinds["method/assoc"] += 1
                        paths.append(("method/assoc", f"{p}::{ai['name']}"))

    visit(d["root"], idx[str(d["root"])]["name"])
    items = sum(v for k, v in kinds.items() if k not in ("module", "method/assoc"))
    print(f"{sys.argv[1]}: {items} items outside modules, {kinds['module']} modules, "
          f"{kinds['method/assoc']} inherent methods/assoc items")
    print("  " + ", ".join(f"{k} {v}" for k, v in sorted(kinds.items())))
    if listing:
        for k, p in paths:
            print(f"{k:14} {p}")


main()
