#!/usr/bin/env bash
# The figures of issue 26 (the ban on perpetual chase) for BENCHMARKS.md, each under
# /usr/bin/time -v (wall time, CPU time, peak resident set):
#
# 1. `KNvKPP` and `KCvKPP` under `check-and-chase` from nothing (the smaller materials first),
#    with their `stats` under `check-and-chase` and under `perpetual-check`: the draws the ban
#    on perpetual chase decides are the difference of the `draws` lines;
# 2. every material up to MEN men under `check-and-chase`, starting from the `standard` files
#    of a first generation (made first, timed apart) in the sibling directory.
#
#   scripts/bench/xiangqi-check-and-chase.sh [MEN]
#
# Default MEN: 5 (445 materials). Run it on a quiet machine (or under nice, then report the
# CPU time); the scratch directory is removed at the end.
set -euo pipefail
cd "$(dirname "$0")/../.."
men=${1:-5}
cargo build --release -q -p endgame
bin=target/release/endgame
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
git log --oneline -1
nproc
timed() {
    local log=$1
    shift
    /usr/bin/time -v "$@" > "$log" 2>&1 || {
        tail -20 "$log"
        exit 1
    }
    grep -E "Elapsed|User time|System time|Maximum resident" "$log"
}
for m in KNvKPP KCvKPP; do
    echo "== $m under check-and-chase, from nothing"
    timed "$dir/$m.log" "$bin" xiangqi generate "$m" --rules check-and-chase --dir "$dir/one-$m"
    for rules in check-and-chase perpetual-check; do
        "$bin" xiangqi stats "$m" --rules "$rules" --dir "$dir/one-$m" --json
    done
done
echo "== standard up to $men men (the files the rule starts from)"
timed "$dir/standard.log" "$bin" xiangqi generate --all-up-to "$men" --dir "$dir/all"
echo "== check-and-chase up to $men men from the standard files"
timed "$dir/chase.log" "$bin" xiangqi generate --all-up-to "$men" --rules check-and-chase --dir "$dir/all"
grep -E "tables generated|peak memory" "$dir/chase.log"
