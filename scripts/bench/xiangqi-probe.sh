#!/usr/bin/env bash
# Probing Xiangqi tables from files: cold `solve --json` / `moves --json` of a 5-man position
# (a new process each time, files on disk, page cache warm; wall time and peak RSS, median of
# 5), then the warm in-process probes (divan bench `probe`). The position is the longest win
# of KRvKNN (87 plies), the same material the test `lines_of_80_plies_and_more...` generates.
# The table is generated into target/bench-tables when missing (about a minute on 2 cores).
set -euo pipefail
cd "$(dirname "$0")/../.."
cargo build --release -q -p endgame
tb=target/release/endgame
dir=target/bench-tables
[ -f "$dir/xiangqi/standard/KRvKNN.wdl" ] || $tb xiangqi generate KRvKNN --dir "$dir"
echo "machine: $(nproc) cores, $(lscpu | grep 'Model name' | sed 's/Model name: *//'), load $(cut -d' ' -f1-3 /proc/loadavg)"
fen="9/5n3/4k4/9/4n4/9/3R5/4K4/9/9 w"
for command in solve moves; do
    $tb xiangqi $command --json "$fen" --dir "$dir" > /dev/null # page cache warm
    for i in 1 2 3 4 5; do
        /usr/bin/time -f "%e %M" $tb xiangqi $command --json "$fen" --dir "$dir" 2>&1 > /dev/null | tail -1
    done | sort -n | sed -n 3p | awk -v c="$command" '{ printf "cold %s --json: %.3f s wall, %d KiB peak RSS (median of 5)\n", c, $1, $2 }'
done
ENDGAME_BENCH_TB_DIR="$PWD/$dir" cargo bench -q -p endgame-xiangqi --bench probe
