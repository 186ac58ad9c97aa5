#!/usr/bin/env bash
# Issue 21's generation of the materials as players count them: `endgame xiangqi generate
# --attackers N` (any Advisors and Elephants) into a fresh directory under /usr/bin/time -v:
# wall time, CPU time, peak resident set against the memory estimate the run announced, the
# positions per second, and the total size of the files. Extra arguments go to `generate`
# (`--defenders none-vs-full`, `--max-positions 100M`, ...).
#
#   scripts/bench/xiangqi-attackers.sh [N] [GENERATE-ARGS...]
#
# Default N: 1 (369 files, 7.57 billion indices, 2,002 MiB of memory announced; about 1.5 GB
# of files; issue 21's goal: 10 minutes on 2 cores). The figures go to BENCHMARKS.md with the
# machine and the commit.
set -euo pipefail
cd "$(dirname "$0")/../.."
n=${1:-1}
shift || true
cargo build --release -q -p endgame
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
git log --oneline -1
nproc
target/release/endgame xiangqi generate --attackers "$n" "$@" --dir "$dir" --dry-run | tail -2
/usr/bin/time -v target/release/endgame xiangqi generate --attackers "$n" "$@" --dir "$dir" > "$dir/log" 2>&1 || {
    tail -20 "$dir/log"
    exit 1
}
grep -E "Elapsed|User time|System time|Maximum resident" "$dir/log"
grep -E "tables generated|peak memory" "$dir/log"
echo "files: $(ls "$dir"/xiangqi/standard/ | wc -l), $(du -sb "$dir/xiangqi/standard" | cut -f1) bytes"
