#!/usr/bin/env bash
# Cheesy Chess (HDU 1680) benchmark: the judge on 10^5 random 8 x 8 cases (both thread
# settings), the largest region (a pawn on the top row of an open 64 x 64 board), and the
# divan micro-benchmarks. Usage: scripts/bench/cheesy.sh [CASES]
set -euo pipefail
cd "$(dirname "$0")/../.."
cases="${1:-100000}"
cargo build --release -q -p endgame -p endgame-cheesy --bins --examples
bin=target/release/endgame
dir="$(mktemp -d)"
trap 'rm -rf "$dir"' EXIT
echo "machine: $(nproc) cores, $(lscpu | sed -n 's/^Model name: *//p')"
target/release/examples/cheesy_gen "$cases" 1 > "$dir/cases.in"
measure() {
    /usr/bin/time -f "%e s wall, %U s user, %M KiB max RSS" "$@"
}
echo "judge hdu1680, $cases random 8 x 8 cases (seed 1), all cores:"
measure "$bin" judge hdu1680 "$dir/cases.in" > "$dir/out"
echo "  answers: $(sort "$dir/out" | uniq -c | tr -s ' \n' ' ')"
echo "judge hdu1680, same cases, RAYON_NUM_THREADS=1:"
RAYON_NUM_THREADS=1 measure "$bin" judge hdu1680 "$dir/cases.in" > /dev/null
{
    printf 'K%.0s' 1
    printf '.%.0s' $(seq 30)
    printf 'P'
    printf '.%.0s' $(seq 32)
    echo
    for _ in $(seq 63); do printf '.%.0s' $(seq 64); echo; done
} > "$dir/big.txt"
echo "cheesy solve, open 64 x 64 board, king (1,64), pawn (32,64) (524288 placements):"
measure "$bin" cheesy solve "$dir/big.txt" | head -1
echo "divan micro-benchmarks:"
cargo bench -q -p endgame-cheesy --bench cheesy 2>/dev/null
