#!/usr/bin/env bash
# Representative payload files for the corruption table
# (docs/study/corruption.md), made deterministically from the repository:
#
#   zeros.bin   all zero bytes
#   text.txt    English text: README.md and docs/**/*.md (sorted), repeated
#   text.gz     a compressed archive: gzip -9 -n of that text, repeated
#               (concatenated gzip members are one valid gzip stream)
#   random.bin  uniformly random bytes from a seeded generator (Python's
#               random.Random(2000).randbytes)
#   pages.db    a database-page-like sparse binary: 4 KiB pages, a 16-byte
#               page header, then 16-byte records of small integers (key,
#               row id, two small values, zero padding), the rest zero
#
#   scripts/make-sample-data.sh OUTDIR [BYTES]     (default 16777216 each)
#
# Then: cargo run --release -p aliasing-examples --example corruption_table -- OUTDIR
set -eu
cd "$(dirname "$0")/.."
out=${1:?usage: scripts/make-sample-data.sh OUTDIR [BYTES]}
bytes=${2:-16777216}
case $bytes in '' | *[!0-9]*) echo "BYTES must be a whole number" >&2; exit 2 ;; esac
mkdir -p "$out"

# repeat FILE to exactly $bytes bytes on stdout
repeat() {
  local n
  n=$(wc -c < "$1")
  [ "$n" -gt 0 ] || { echo "$1 is empty" >&2; exit 2; }
  local times=$(( (bytes + n - 1) / n ))
  for _ in $(seq "$times"); do cat "$1"; done | head -c "$bytes"
}

head -c "$bytes" /dev/zero > "$out/zeros.bin"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
find README.md docs -name '*.md' | LC_ALL=C sort | xargs cat > "$tmp/text"
repeat "$tmp/text" > "$out/text.txt"
gzip -9 -n -c "$tmp/text" > "$tmp/text.gz"
repeat "$tmp/text.gz" > "$out/text.gz"

python3 - "$out" "$bytes" <<'PY'
import random, struct, sys
out, n = sys.argv[1], int(sys.argv[2])
with open(f"{out}/random.bin", "wb") as f:
    f.write(random.Random(2000).randbytes(n))
rng = random.Random(7)
pages = bytearray()
page_no = 0
key = 1000
while len(pages) < n:
    page = bytearray(4096)
    count = rng.randint(0, 120)  # records on this page: mostly zero space left
    struct.pack_into(">IHHII", page, 0, page_no, count, 0x0d, 0, 0)
    for r in range(count):
        key += rng.randint(1, 5)
        struct.pack_into(">IIHH", page, 16 + 16 * r, key, page_no * 128 + r,
                         rng.randint(0, 99), rng.randint(0, 3))
    pages += page
    page_no += 1
with open(f"{out}/pages.db", "wb") as f:
    f.write(pages[:n])
PY
ls -l "$out"
