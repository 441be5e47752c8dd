#!/usr/bin/env bash
# Bad inputs to every command and option family of `aliasing`, each run once
# with a 20 s timeout. Every one must be refused with exit code 2 and a
# one-line `error: ...` on stderr: the script reports panics (exit 101),
# hangs (timeout), other exit codes and multi-line errors, prints a table
# of the counts and exits 1 if any case failed.
#
#   scripts/bad-inputs.sh [BINARY]     (default: target/release/aliasing,
#                                       else target/debug/aliasing)
#   VERBOSE=1 scripts/bad-inputs.sh    (also print each case's error line)
set -u
cd "$(dirname "$0")/.."
root=$PWD
bin=${1:-}
if [ -z "$bin" ]; then
  for b in target/release/aliasing target/debug/aliasing; do
    [ -x "$b" ] && bin=$b && break
  done
fi
[ -x "${bin:-}" ] || { echo "no binary: cargo build --release -p aliasing-cli, or give its path" >&2; exit 2; }
bin=$(cd "$(dirname "$bin")" && pwd)/$(basename "$bin")

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work"
# fixtures: an empty file, a folder, a plain file to put paths under, two
# search shards (not mergeable by `merge`), a JSON report, a text file
: > empty.bin
mkdir folder
echo x > plain
cp "$root/crates/aliasing-cli/tests/fixtures/search-shard-1of2.json" s1.json
cp "$root/crates/aliasing-cli/tests/fixtures/search-shard-2of2.json" s2.json
echo '{"kind":"curve","points":[]}' > report.json
echo 'not json' > text.txt
printf '[1, 2' > broken.json

cases=(
  # --- global / subcommands
  ''
  'nosuchcommand'
  '--nosuchflag'
  'curve --nosuchflag'
  # --- curve: checks
  'curve'
  'curve --crc'
  'curve --crc crc-99/nothing'
  'curve --crc 0xZZ'
  'curve --crc 0'
  'curve --crc 65'
  'curve --crc 0x100000000000000001'
  'curve --crc k:'
  'curve --crc r16:0xZZZZ'
  'curve --check nosuch'
  'curve --crc 16 --check internet'
  # --- curve: BERs
  'curve --crc 16 --ber abc'
  'curve --crc 16 --ber 1.5'
  'curve --crc 16 --ber -0.1'
  'curve --crc 16 --ber 1e-5,'
  'curve --crc 16 --ber ,'
  'curve --crc 16 --ber 1e-400'
  'curve --crc 16 --ber nan'
  'curve --crc 16 --ber inf'
  'curve --crc 16 --ber ""'
  # --- curve: lengths
  'curve --crc 16 --bits ""'
  'curve --crc 16 --bits -5'
  'curve --crc 16 --bits 0'
  'curve --crc 16 --bits 16'
  'curve --crc 16 --bits 1.5'
  'curve --crc 16 --bits 1e12'
  'curve --crc 16 --bits 5:1:1'
  'curve --crc 16 --bits 1:5:0'
  'curve --crc 16 --bits log:1:2'
  'curve --crc 16 --bits log:1:1000000000:1000000000'
  'curve --crc 16 --bits 1,,2'
  'curve --crc 16 --bits 64 --bytes 8'
  'curve --crc 16 --bytes 2'
  'curve --check internet --bits 100'
  # --- curve: method, memory, burst, payload
  'curve --crc 16 --method nosuch'
  'curve --crc 40 --ber 1e-5 --method markov'
  'curve --check internet --method markov --bytes 64'
  'curve --crc 16 --memory lots'
  'curve --crc 16 --burst 1,2,3'
  'curve --crc 16 --burst 0.1,0.2,2,0.5'
  'curve --crc 32 --burst 1e-6,0.1,1e-3,0.1'
  'curve --crc 16 --burst 1e-6,0.1,1e-3,0.1 --method dual'
  'curve --check internet --payload-hex 0x1'
  'curve --check internet --payload-hex zz'
  'curve --check internet --payload empty.bin'
  'curve --check internet --payload missing.bin'
  'curve --check internet --payload folder'
  # --- curve: outputs (refused before the work)
  'curve --crc crc32 --bits 12144,20000,30000 --ber 1e-5 --plot x.gif'
  'curve --crc crc32 --bits 12144,20000,30000 --ber 1e-5 -o nodir/x.txt'
  'curve --crc crc32 --bits 12144,20000,30000 --ber 1e-5 -o folder'
  'curve --crc crc32 --bits 12144,20000,30000 --ber 1e-5 -o plain/x.txt'
  'curve --crc crc32 --bits 30000 -o x.svg --plot x.svg'
  'curve --crc 16 --format nosuch'
  'curve --crc 24 --bits 1e9 --ber 1e-5'
  # --- compare
  'compare'
  'compare --ber 1e-5'
  'compare --bytes 64'
  'compare --bytes 64 --ber 2'
  'compare --bytes 64 --ber 1e-5 --checks ""'
  'compare --bytes 64 --ber 1e-5 --checks nosuch'
  'compare --bytes 0 --ber 1e-5'
  'compare --bytes 64:9000:1 --ber 1e-5 --plot x.pdf'
  'compare --bytes 64:9000:1 --ber 1e-5 -o folder'
  'compare --bytes 64 --ber 1e-5 --payload missing.bin'
  # --- hd
  'hd'
  'hd --crc nosuch'
  'hd --crc 16 --max-hd 2'
  'hd --crc 64 --max-hd 5 --max-bits 1e30'
  'hd --crc 16 --max-hd -1'
  'hd --crc 16 --max-hd 1e12'
  'hd --crc 16 --max-bits 16'
  'hd --crc 16 --max-bits 1.5'
  'hd --crc crc32 -o nodir/x'
  'hd --crc crc32 --plot x.txt'
  # --- weights
  'weights'
  'weights --crc 16'
  'weights --crc 16 --bits 0'
  'weights --crc 16 --bits 8'
  'weights --crc 16 --bits 1.5'
  'weights --crc 16 --bits 64 --max-weight x'
  'weights --crc 16 --bits 64 --method nosuch'
  'weights --crc 16 --bits 64 --shard 1/2'
  'weights --crc 16 --bits 64 --shard 3/2 --out w.json'
  'weights --crc 16 --bits 64 --method syndromes --out w.json'
  'weights --crc crc32 --bits 12144 --out w.json -o w.json'
  'weights --crc 16 --bits 64 --plot w.gif'
  'weights --crc 16 --bits 64 --plot w.svg --shard 1/2 --out w.json'
  # --- simulate: counts
  'simulate --frames abc'
  'simulate --frames 1.5'
  'simulate --frames 0'
  'simulate --frames -5'
  'simulate --frames 1e30'
  'simulate --frames 10000000000000001'
  'simulate --frames 1e17'
  'simulate --frames 1e16'
  'simulate --bytes 1.5'
  'simulate --bytes 0'
  'simulate --seed -1'
  'simulate --seed 1e20'
  'simulate --threads 100000'
  'simulate --errors 0'
  'simulate --errors 5e9'
  # --- simulate: channels and stacks
  'simulate --ber 2'
  'simulate --ber 1e-5,1e-6'
  'simulate --ber abc'
  'simulate --ber 1e-5 --errors 3'
  'simulate --burst 1,2'
  'simulate --burst 0.1,0.2,2,0.5'
  'simulate --stack nosuch'
  'simulate --stack ethernet --bytes 3'
  'simulate --payload nosuch:1'
  'simulate --payload pattern:zz'
  'simulate --payload file:missing.bin'
  'simulate --engine nosuch'
  # --- simulate: shards, checkpoints, outputs
  'simulate --shard 0/2 --out o.json'
  'simulate --shard 3/2 --out o.json'
  'simulate --shard x --out o.json'
  'simulate --shard 1/2'
  'simulate --frames 1e12 --checkpoint nodir/c.json'
  'simulate --frames 1e12 --out o.json -o o.json'
  'simulate --frames 1e12 --checkpoint c.json --out c.json'
  'simulate --frames 1e12 --plot p.gif'
  'simulate --resume missing.json'
  'simulate --resume text.txt'
  'simulate --checkpoint-every -1'
  # --- simulate --rare
  'simulate --rare --samples 1.5'
  'simulate --rare --samples 1e16'
  'simulate --rare --samples 1e15'
  'simulate --rare --frames 10'
  'simulate --rare --engine dense'
  'simulate --rare --plot p.svg'
  'simulate --proposal 0.1,0.2,0.3,0.4'
  'simulate --rare --burst 1e-6,0.1,1e-3,0.1 --stack crc8 --bytes 8 --proposal 1,2'
  # --- stack
  'stack'
  'stack --bytes 1518'
  'stack --ber 1e-5'
  'stack --bytes 1518 --ber 0.6'
  'stack --bytes 1518 --ber x'
  'stack --bytes 1518 --ber 1e-5 --max-weight 1'
  'stack --bytes 1518 --ber 1e-5 --max-weight 1e10'
  'stack --bytes 1518 --ber 1e-5 --samples 1e-3'
  'stack --bytes 1518 --ber 1e-5 --stack nosuch'
  'stack --bytes 1518 --ber 1e-5 --shard 1/2'
  'stack --bytes 1518,9000 --ber 1e-5 --plot x.jpg'
  'stack --bytes 1518 --ber 1e-5 --out o.json -o o.json'
  'stack --merge missing.json'
  # --- search
  'search'
  'search --width 8'
  'search --width 8 --bits 64'
  'search --width 0 --bits 64 --ber 1e-5'
  'search --width 1e10 --bits 64 --ber 1e-5'
  'search --width 8 --bits 64 --ber 0.7'
  'search --width 8 --bits 64 --ber 1e-5 --top 1.5'
  'search --width 8 --bits 64 --ber 1e-5 --sample 10'
  'search --width 32 --bits 64 --ber 1e-5'
  'search --width 8 --bits 64 --ber 1e-5 --candidates missing.txt'
  'search --width 8 --bits 64 --ber 1e-5 --out o.json'
  'search --width 16 --bits 12144 --ber 1e-5 --plot x.gif'
  'search --merge s1.json'
  'search --merge text.txt'
  # --- merge
  'merge'
  'merge s1.json s2.json'
  'merge missing.json'
  'merge text.txt'
  'merge broken.json'
  'merge report.json'
  'merge folder'
  'merge s1.json --out nodir/x.json'
  # --- plot
  'plot'
  'plot report.json'
  'plot report.json -o x.gif'
  'plot missing.json -o x.svg'
  'plot broken.json -o x.svg'
  'plot text.txt -o x.svg'
  'plot report.json -o x.svg --size 10x10'
  'plot report.json -o nodir/x.svg'
  # --- transfer
  'transfer'
  'transfer --size 10TB'
  'transfer --size 0 --mtu 1500 --ber 1e-6'
  'transfer --size -5 --mtu 1500 --ber 1e-6'
  'transfer --size 20EB --mtu 1500 --ber 1e-6'
  'transfer --size 10XB --mtu 1500 --ber 1e-6'
  'transfer --size 10TB --mtu 67 --ber 1e-6'
  'transfer --size 10TB --mtu 9217 --ber 1e-6'
  'transfer --size 10TB --mtu 1500 --ber 0.6'
  'transfer --size 10TB --mtu 1500 --ber -1e-6'
  'transfer --size 10TB --mtu 1500 --ber 1e-6 --hops 0'
  'transfer --size 10TB --mtu 1500 --ber 1e-6 --stack crc32'
  'transfer --size 10TB --mtu 1500 --ber 1e-6 --tallies text.txt'
  'transfer --size 10TB --mtu 1500 --ber 1e-6 --tallies folder'
  'transfer --payload empty.bin --mtu 1500 --ber 1e-6'
  'transfer --payload /dev/zero --mtu 1500 --ber 1e-6'
  'transfer --payload missing.bin --mtu 1500 --ber 1e-6'
  'transfer --size 10TB --mtu 1500 --ber 1e-6 --plot x.pdf'
  'transfer --size 10TB --mtu 1500 --ber 1e-6 -o nodir/x'
  'transfer --size 10TB --mtu 1500 --ber 1e-6 --corruption word:2'
  'transfer --size 10TB --mtu 1500 --ber 1e-6 --corruption word'
  'transfer --size 10TB --mtu 1500 --ber 1e-6 --corruption flip:1e-6'
  'transfer --size 10TB --mtu 1500 --ber 1e-6 --corruption burst:0:1e-6'
  'transfer --size 10TB --mtu 1500 --ber 1e-6 --corruption burst:11681:1e-6'
  'transfer --size 10TB --mtu 1500 --ber 1e-6 --corruption splice:0:1e-6'
  'transfer --size 10TB --mtu 1500 --ber 1e-6 --corruption splice:1461:1e-6'
  'transfer --payload empty.bin --mtu 1500 --ber 1e-6 --corruption word:1e-6'
  'transfer --payload /dev/zero --mtu 1500 --ber 1e-6 --corruption word:1e-6'
  'transfer --size 10TB --mtu 1500 --burst 1,2,3'
  'transfer --size 10TB --mtu 1500 --burst 0.1,0.5,0.01,0.1 --ber 1e-6'
  'transfer --size 10TB --mtu 1500 --burst 0.1,0.5,0.01,0.1 --samples 0'
  'transfer --size 10TB --mtu 1500 --ber 1e-6 --digest crc32c'
  'transfer --size 10TB --mtu 1500 --ber 1e-6 --corruption word:1e-6 --digest crc99'
  'transfer --size 10TB --mtu 1500 --ber 1e-6 --corruption word:1e-6 --digest internet'
  'transfer --size 10TB --mtu 1500 --ber 1e-6 --corruption word:1e-6 --digest ""'
  'transfer --size 10TB --mtu 1500 --ber 1e-6 --corruption word:1e-6 --digest'
  'transfer --size 10TB --mtu 1500 --burst 0.1,0.5,0.01,0.1 --digest crc32c'
  'transfer --stack ipv4-tcp+CRC-16/ARC --size 10TB --mtu 8000:9216:1 --ber 1e-6'
)

n=0; ok=0; panics=0; hangs=0; wrong=0; multi=0
for c in "${cases[@]}"; do
  n=$((n + 1))
  eval "set -- $c"
  timeout 20 "$bin" "$@" >out.txt 2>err.txt </dev/null
  rc=$?
  lines=$(grep -c '' err.txt)
  verdict=ok
  if [ $rc -eq 101 ]; then verdict=PANIC; panics=$((panics + 1))
  elif [ $rc -eq 124 ] || [ $rc -eq 137 ]; then verdict=HANG; hangs=$((hangs + 1))
  elif [ $rc -ne 2 ]; then verdict="EXIT-$rc"; wrong=$((wrong + 1))
  elif [ "$lines" -ne 1 ]; then verdict="LINES-$lines"; multi=$((multi + 1))
  else ok=$((ok + 1))
  fi
  if [ "$verdict" != ok ]; then
    printf '%-8s aliasing %s\n         %s\n' "$verdict" "$c" "$(head -c 300 err.txt | tr '\n' ' ')"
  elif [ -n "${VERBOSE:-}" ]; then
    printf 'ok       aliasing %s\n         %s\n' "$c" "$(head -c 300 err.txt)"
  fi
done
echo
echo "| cases | refused correctly | panics (101) | hangs (>20 s) | wrong exit code | multi-line errors |"
echo "|------:|------------------:|-------------:|--------------:|----------------:|------------------:|"
echo "| $n | $ok | $panics | $hangs | $wrong | $multi |"
[ $ok -eq $n ]
