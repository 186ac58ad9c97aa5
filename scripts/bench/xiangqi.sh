#!/usr/bin/env bash
# Xiangqi (HDU 5897): the judge on 10^6 random legal queries, and the KvKN solve (divan).
# Figures go to BENCHMARKS.md between <!-- bench:xiangqi --> and <!-- /bench:xiangqi -->.
set -euo pipefail
cd "$(dirname "$0")/../.."
cargo build --release -q -p endgame
cargo build --release -q -p endgame-xiangqi --example xiangqi_gen
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
target/release/examples/xiangqi_gen 1000000 5897 > "$tmp/queries.txt"
echo "input: $(wc -c < "$tmp/queries.txt") bytes, 1000000 cases"
TIMEFORMAT='  %R s wall, %U s user, %S s sys'
for run in 1 2 3; do
    echo "judge hdu5897, run $run:"
    time target/release/endgame judge hdu5897 "$tmp/queries.txt" > "$tmp/answers.txt"
done
echo "output: $(wc -c < "$tmp/answers.txt") bytes, $(wc -l < "$tmp/answers.txt") lines"
echo "reading the input alone (cat > /dev/null):"
time cat "$tmp/queries.txt" > /dev/null
cargo bench -q -p endgame-xiangqi --bench xiangqi
