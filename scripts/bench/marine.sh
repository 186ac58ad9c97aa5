#!/usr/bin/env bash
# Marine: solving times and state counts for the contest sample, the slowest contest-size
# cases a random search (then a climb by mutations) finds, and two bigger battles.
set -euo pipefail
cd "$(dirname "$0")/../.."
cargo build --release -q -p endgame -p endgame-marine --example marine_gen
cargo build --release -q -p endgame
endgame=target/release/endgame
gen=target/release/examples/marine_gen
data=crates/marine/tests/data
echo "machine: $(nproc) cores, $(lscpu | sed -n 's/^Model name: *//p')"
run() { # label, command...
    local label=$1
    shift
    /usr/bin/time -f "$label: %e s, %M KB max RSS" "$@" >/tmp/marine-bench.out
    head -n 1 /tmp/marine-bench.out
}
echo "== judge (whole process)"
run "sample" "$endgame" judge marine "$data/sample.in"
run "slowest" "$endgame" judge marine "$data/slowest.in"
echo "== 1000 random contest cases in one judge run"
"$gen" contest 1000 1 >/tmp/marine-bench-cases.txt
run "1000 cases" "$endgame" judge marine /tmp/marine-bench-cases.txt
echo "== slowest contest-size cases: 5000 random cases, then 5000 mutations of the slowest"
"$gen" slowest 5000 1 | grep '^#'
echo "== prunings on the slowest case found (34 rounds)"
"$gen" prunings "$data/slowest.in" 34
echo "== prunings on the 8 x 8 battle, 3 zerglings (70 rounds): all, no bound, no symmetry"
for bits in 7 3 6; do "$gen" prunings "$data/battle8.txt" 70 "$bits" | tail -n +2; done
echo "== bigger battles through the CLI"
run "8 x 8, 3 zerglings, 70 rounds" "$endgame" marine solve "$data/battle8.txt" --rounds 70
run "10 x 10, 4 zerglings, 64 rounds" "$endgame" marine solve "$data/battle10.txt" --rounds 64
