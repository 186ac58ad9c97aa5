#!/usr/bin/env bash
# Side by side: the solve of one Xiangqi material (standard rules) by a base revision and by the
# current code, on the same machine in one run, alternating, several runs each; prints every
# run, the medians of the solve's wall time and of the whole process's CPU time (user + sys,
# less sensitive to a shared machine's load, but it includes the untimed solves of the smaller
# materials and the digest), the speed-ups and each build's peak RSS per index, and checks that
# both builds give the same values (a digest of every cell).
#
#   scripts/bench/xiangqi-speed.sh [BASE-COMMIT] [MATERIAL] [RUNS]
#
# Defaults: the commit the `speed` branch started from (29a81d4), KNvKNC, 3 runs. The base is
# checked out as a git worktree under target/bench-base/src and built into target/bench-base
# with this tree's examples/solve_time.rs copied in (the base had no such example; it uses
# only the in-memory tables' `solve`, which both have: `MemoryTables` here, named `Tablebase`
# before the crate's rooms were sorted, so an older base's copy takes that name). Each run
# solves the smaller materials first (untimed) and times the material itself.
set -euo pipefail
cd "$(dirname "$0")/../.."
base=${1:-29a81d4}
material=${2:-KNvKNC}
runs=${3:-3}
root=$PWD
src=$root/target/bench-base/src
if [ ! -d "$src" ]; then
    git worktree add --detach "$src" "$base" >/dev/null
fi
git -C "$src" checkout -q --detach "$base"
if git -C "$src" grep -qw MemoryTables -- crates/xiangqi/src; then
    cp crates/xiangqi/examples/solve_time.rs "$src/crates/xiangqi/examples/solve_time.rs"
else
    sed 's/\bMemoryTables\b/Tablebase/g' crates/xiangqi/examples/solve_time.rs > "$src/crates/xiangqi/examples/solve_time.rs"
fi
# Both in the `profiling` profile: the release build with line tables and symbols, so that
# `perf record` or callgrind can run the very binaries timed here
# (target/profiling/examples/solve_time); defined on the command line too, for a base from
# before the profile existed.
profiling=(--profile profiling --config 'profile.profiling.inherits="release"'
    --config 'profile.profiling.debug="line-tables-only"' --config 'profile.profiling.strip="none"')
(cd "$src" && CARGO_TARGET_DIR=$root/target/bench-base cargo build "${profiling[@]}" -q -p endgame-xiangqi --example solve_time)
cargo build "${profiling[@]}" -q -p endgame-xiangqi --example solve_time
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# Copies, so that a rebuild during the runs changes nothing.
cp "$root/target/bench-base/profiling/examples/solve_time" "$tmp/old-solve_time"
cp "$root/target/profiling/examples/solve_time" "$tmp/new-solve_time"
old=$tmp/old-solve_time
new=$tmp/new-solve_time
echo "machine: $(nproc) cores, $(lscpu | sed -n 's/^Model name: *//p'), load before: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "base $(git -C "$src" rev-parse --short HEAD) vs current $(git rev-parse --short HEAD)$(git diff --quiet || echo ' (modified)'), $material, $runs runs each"
for i in $(seq "$runs"); do
    for which in old new; do
        bin=${!which}
        /usr/bin/time -f "%M %U %S" -o "$tmp/rss" "$bin" "$material" > "$tmp/out"
        read -r _ secs len digest < "$tmp/out"
        read -r rss user sys < "$tmp/rss"
        cpu=$(awk -v u="$user" -v s="$sys" 'BEGIN {printf "%.2f", u + s}')
        echo "$which $i: solve $secs s wall, process $cpu s CPU, peak RSS $rss KiB, $len indices, digest $digest (load $(cut -d' ' -f1 /proc/loadavg))"
        echo "$secs $rss $len $digest $cpu" >> "$tmp/$which"
    done
done
median() { sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
old_s=$(cut -d' ' -f1 "$tmp/old" | median)
new_s=$(cut -d' ' -f1 "$tmp/new" | median)
old_rss=$(cut -d' ' -f2 "$tmp/old" | median)
new_rss=$(cut -d' ' -f2 "$tmp/new" | median)
old_cpu=$(cut -d' ' -f5 "$tmp/old" | median)
new_cpu=$(cut -d' ' -f5 "$tmp/new" | median)
len=$(head -1 "$tmp/new" | cut -d' ' -f3)
if [ "$(cut -d' ' -f4 "$tmp/old" "$tmp/new" | sort -u | wc -l)" != 1 ]; then
    echo "DIGESTS DIFFER: the two builds give different values"
    exit 1
fi
echo "same values in every run (digest $(head -1 "$tmp/new" | cut -d' ' -f4))"
awk -v o="$old_s" -v n="$new_s" -v oc="$old_cpu" -v nc="$new_cpu" -v orss="$old_rss" -v nrss="$new_rss" -v len="$len" 'BEGIN {
    printf "median solve (wall): base %.2f s, current %.2f s: %.2fx faster\n", o, n, o / n
    printf "median process CPU (user + sys): base %.2f s, current %.2f s: %.2fx less\n", oc, nc, oc / nc
    printf "median peak RSS: base %.0f MiB (%.2f bytes/index), current %.0f MiB (%.2f bytes/index)\n",
        orss / 1024, orss * 1024 / len, nrss / 1024, nrss * 1024 / len
}'
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
