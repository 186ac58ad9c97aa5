#!/usr/bin/env bash
# Table format version 3 (issue 22): sizes, probe timings and the whole generation, in one run.
#
#   scripts/bench/xiangqi-tables.sh [MEN] [DIR]
#
# 1. `endgame xiangqi generate --all-up-to MEN` (default 5: 445 materials) into DIR (default a
#    fresh temporary directory, removed at the end) under /usr/bin/time -v: wall and CPU time,
#    peak resident set.
# 2. The files' sizes: the total, by number of men (bits per legal position), and per material
#    for KNvKNC, KRvKNN, KRvKAABB (WDL, DTM, bits per legal position, from `stats --json`).
# 3. Cold `solve --json` of KRvKNN's 87-ply win (a new process, median of 5: wall, peak RSS),
#    then the warm probes (divan bench `probe`: probe_warm, probe_wdl_warm, uncached blocks).
# The figures go to BENCHMARKS.md with the machine and the commit.
set -euo pipefail
cd "$(dirname "$0")/../.."
men=${1:-5}
dir=${2:-}
cargo build --release -q -p endgame
tb=target/release/endgame
if [ -z "$dir" ]; then
    dir=$(mktemp -d)
    trap 'rm -rf "$dir"' EXIT
fi
git log --oneline -1
echo "machine: $(nproc) cores, $(lscpu | grep 'Model name' | sed 's/Model name: *//'), load $(cut -d' ' -f1-3 /proc/loadavg)"
/usr/bin/time -v $tb xiangqi generate --all-up-to "$men" --dir "$dir" > "$dir/log" 2>&1 || {
    tail -20 "$dir/log"
    exit 1
}
grep -E "Elapsed|User time|System time|Maximum resident" "$dir/log"
grep -E "tables generated" "$dir/log"
files=("$dir"/xiangqi/standard/*.wdl "$dir"/xiangqi/standard/*.dtm)
echo "files: ${#files[@]}, $(cat "${files[@]}" | wc -c) bytes in all (WDL $(cat "$dir"/xiangqi/standard/*.wdl | wc -c), DTM $(cat "$dir"/xiangqi/standard/*.dtm | wc -c))"
# Bits per legal position by number of men, over every table file (the table in `docs/formats.md#sizes`).
for f in "$dir"/xiangqi/standard/*.wdl; do
    $tb xiangqi stats "$(basename "$f" .wdl)" --json --dir "$dir"
    echo
done | python3 -c '
import json, sys
rows = {}
for line in sys.stdin:
    if not line.strip():
        continue
    v = json.loads(line)
    men = sum(c.isupper() for c in v["material"])
    r = rows.setdefault(men, [0, 0, 0, 0])
    r[0] += 1; r[1] += v["positions"]; r[2] += v["wdl_bytes"]; r[3] += v["dtm_bytes"]
print("| men | tables | legal positions | WDL bytes | DTM bytes | bits per legal position (WDL + DTM) |")
print("|---|---|---|---|---|---|")
t = [0, 0, 0, 0]
for men in sorted(rows):
    r = rows[men]
    t = [a + b for a, b in zip(t, r)]
    print(f"| {men} | {r[0]} | {r[1]:,} | {r[2]:,} | {r[3]:,} | {8*r[2]/r[1]:.3f} + {8*r[3]/r[1]:.3f} |")
print(f"| all | {t[0]} | {t[1]:,} | {t[2]:,} | {t[3]:,} | {8*t[2]/t[1]:.3f} + {8*t[3]/t[1]:.3f} |")
'
# A material's files, or its colour twin's (a generation writes one of the two; `stats`
# gives the sizes of the file that answers). A material with neither is left out (`stats`
# would generate it).
for m in KNvKNC KRvKNN KRvKAABB; do
    twin="${m#*v}v${m%%v*}"
    if [ ! -f "$dir/xiangqi/standard/$m.wdl" ] && [ ! -f "$dir/xiangqi/standard/$twin.wdl" ]; then
        continue
    fi
    $tb xiangqi stats "$m" --json --dir "$dir" |
        python3 -c '
import json, sys
v = json.load(sys.stdin)
m, w, d = v["material"], v["wdl_bytes"], v["dtm_bytes"]
bw, bd = v["wdl_bits_per_position"], v["dtm_bits_per_position"]
print(f"{m}: WDL {w:,} + DTM {d:,} = {w + d:,} bytes; {bw:.3f} + {bd:.3f} bits per legal position")
'
done
if [ -f "$dir/xiangqi/standard/KRvKNN.wdl" ] || [ -f "$dir/xiangqi/standard/KNNvKR.wdl" ]; then
    fen="9/5n3/4k4/9/4n4/9/3R5/4K4/9/9 w"
    $tb xiangqi solve --json "$fen" --dir "$dir" > /dev/null # page cache warm
    for i in 1 2 3 4 5; do
        /usr/bin/time -f "%e %M" $tb xiangqi solve --json "$fen" --dir "$dir" 2>&1 > /dev/null | tail -1
    done | sort -n | sed -n 3p | awk '{ printf "cold solve --json: %.3f s wall, %d KiB peak RSS (median of 5)\n", $1, $2 }'
    ENDGAME_BENCH_TB_DIR="$(realpath "$dir")" cargo bench -q -p endgame-xiangqi --bench probe
fi
