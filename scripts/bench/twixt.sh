#!/usr/bin/env bash
# Twixt: POJ 2706 judge on a random legal game of 400,001 moves on N = 2000 (target < 1 s),
# plus a replay of the same record with every link printed.
set -euo pipefail
cd "$(dirname "$0")/../.."
cargo build --release -q -p endgame -p endgame-twixt --example twixt_gen
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
./target/release/examples/twixt_gen 2000 400001 1 > "$dir/big.txt"
echo "input: $(wc -c < "$dir/big.txt") bytes, N = 2000, M = 400001 (crates/twixt/examples/twixt_gen.rs, seed 1)"
for run in 1 2 3; do
    /usr/bin/time -f "judge poj2706: %e s wall, %U s user, %M KiB max RSS" ./target/release/endgame judge poj2706 "$dir/big.txt" > /dev/null
done
/usr/bin/time -f "twixt replay: %e s wall, %M KiB max RSS" ./target/release/endgame twixt replay "$dir/big.txt" > "$dir/replay.txt"
echo "replay: $(grep -c ' links ' "$dir/replay.txt") moves made links, $(grep -c refused "$dir/replay.txt") moves had links refused"
