#!/usr/bin/env bash
# Representative payload files for the corruption table
# (docs/study/corruption.md), made deterministically (nothing read from the
# repository, so the table does not move when the documentation changes):
#
#   zeros.bin   all zero bytes
#   text.txt    English-like text: sentences of words drawn from a fixed
#               list of 200 common English words (seeded, Zipf-like
#               weights), capitalised, with commas and full stops, in lines
#               of at most 72 characters, paragraphs between
#   text.gz     a compressed archive: gzip -9 -n of 1 MiB of that text,
#               repeated (concatenated gzip members are one valid gzip
#               stream)
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
python3 - "$tmp/text" "$bytes" <<'PY'
import random, sys
path, n = sys.argv[1], max(int(sys.argv[2]), 1 << 20)
words = '''the of and to a in is it you that he was for on are with as I his they
be at one have this from or had by hot word but what some we can out other were
all there when up use your how said an each she which do their time if will way
about many then them write would like so these her long make thing see him two
has look more day could go come did number sound no most people my over know
water than call first who may down side been now find any new work part take
get place made live where after back little only round man year came show every
good me give our under name very through just form sentence great think say
help low line differ turn cause much mean before move right boy old too same
tell does set three want air well also play small end put home read hand port
large spell add even land here must big high such follow act why ask men change
went light kind off need house picture try us again animal point mother world
near build self earth father head stand own page should country found answer
school grow study still learn plant cover food sun four between state keep eye
never last let thought city tree cross farm hard start might story saw far sea
draw left late run while press close night real life few north'''.split()[:200]
assert len(words) == 200
weights = [1.0 / (r + 1) for r in range(len(words))]
rng = random.Random(1998)
out, line, para = [], [], 0
size = 0
while size < n:
    k = rng.randint(4, 18)
    sent = rng.choices(words, weights, k=k)
    sent[0] = sent[0][0].upper() + sent[0][1:]
    for i, w in enumerate(sent):
        if i < k - 1 and rng.random() < 0.08:
            w += ','
        if i == k - 1:
            w += '.'
        if len(' '.join(line + [w])) > 72:
            out.append(' '.join(line) + '\n')
            size += len(out[-1])
            line = []
        line.append(w)
    para += 1
    if para % rng.randint(3, 7) == 0:
        out.append(' '.join(line) + '\n\n')
        size += len(out[-1])
        line = []
with open(path, 'w') as f:
    f.write(''.join(out))
PY
repeat "$tmp/text" > "$out/text.txt"
head -c 1048576 "$tmp/text" | gzip -9 -n -c > "$tmp/text.gz"
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
