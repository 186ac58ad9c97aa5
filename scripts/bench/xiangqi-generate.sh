#!/usr/bin/env bash
# The whole generation of issue 12: `endgame xiangqi generate --all-up-to MEN` into a fresh
# directory under /usr/bin/time -v (wall time, CPU time, peak resident set), then, when a
# directory of an earlier run is given, every file compared byte for byte with that run's.
#
#   scripts/bench/xiangqi-generate.sh [MEN] [EARLIER-DIR]
#
# Default MEN: 5 (445 materials, about 7.5 minutes and 110 MB on 2 cores). The figures go to
# BENCHMARKS.md with the machine and the commit.
set -euo pipefail
cd "$(dirname "$0")/../.."
men=${1:-5}
earlier=${2:-}
cargo build --release -q -p endgame
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
git log --oneline -1
nproc
/usr/bin/time -v target/release/endgame xiangqi generate --all-up-to "$men" --dir "$dir" > "$dir/log" 2>&1 || {
    tail -20 "$dir/log"
    exit 1
}
grep -E "Elapsed|User time|System time|Maximum resident" "$dir/log"
grep -E "tables generated|peak memory" "$dir/log"
if [ -n "$earlier" ]; then
    different=0
    for f in "$dir"/xiangqi/standard/*.wdl "$dir"/xiangqi/standard/*.dtm; do
        if ! cmp -s "$f" "$earlier/xiangqi/standard/$(basename "$f")"; then
            echo "differs: $(basename "$f")"
            different=$((different + 1))
        fi
    done
    echo "$(ls "$dir"/xiangqi/standard/*.wdl "$dir"/xiangqi/standard/*.dtm | wc -l) files, $different different from $earlier"
fi
