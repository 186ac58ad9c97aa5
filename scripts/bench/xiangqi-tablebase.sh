#!/usr/bin/env bash
# Xiangqi tablebases under standard rules: every material up to 4 men, the 4-man KRvKR and
# the 5-man KNRvKR (positions per second, bytes per position), and the size of everything up
# to 5 men. Figures go to BENCHMARKS.md between <!-- bench:xiangqi --> and <!-- /bench:xiangqi -->.
set -euo pipefail
cd "$(dirname "$0")/../.."
cargo build --release -q -p endgame
tb=target/release/endgame
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
echo "machine: $(nproc) cores, $(lscpu | grep 'Model name' | sed 's/Model name: *//')"
TIMEFORMAT='  %R s wall, %U s user, %S s sys'
echo "every material up to 4 men (91 tables):"
time $tb xiangqi generate --all-up-to 4 --dir "$tmp" 2> "$tmp/log4.txt"
grep -E '^KRvKR:' "$tmp/log4.txt"
# The 5-man KNRvKR: its smaller materials are there already, so only it is solved.
echo "KNRvKR (5 men), peak memory:"
/usr/bin/time -f "  %e s wall, %U s user, peak RSS %M KiB" $tb xiangqi generate KNRvKR --dir "$tmp" 2> "$tmp/log5.txt" || true
grep -E '^KNRvKR|peak RSS' "$tmp/log5.txt"
# Table format version 3: a WDL file and a DTM file per material.
for m in KRvKR KNRvKR; do
    echo "$m files: WDL $(stat -c %s "$tmp/xiangqi/standard/$m.wdl") + DTM $(stat -c %s "$tmp/xiangqi/standard/$m.dtm") bytes"
done
$tb xiangqi stats KNRvKR --dir "$tmp" --json
echo "everything up to 5 men (what --all-up-to 5 would solve):"
$tb xiangqi generate --all-up-to 5 --dry-run --dir "$tmp" | tail -1
cargo bench -q -p endgame-xiangqi --bench xiangqi
