#!/usr/bin/env bash
# Generating representative 6-man Xiangqi materials on one machine (issue 13): each material
# in its own process under /usr/bin/time (the smaller tables it needs are generated first, in
# the same process, and reused by the next ones), smallest first.
# One line per material: positions (indices), the material's own solve time and rate (from
# `generate`'s line), the process's user time, its peak RSS, and the file size.
# Usage: scripts/bench/xiangqi-six.sh DIR [MATERIAL...]   (the default list ends with the
# largest 6-man material, KNRvKNR: 7.09 G indices, about 12 GiB of memory, tens of minutes).
# Set ENDGAME=path/to/endgame to use a given binary (default: builds the release binary).
set -euo pipefail
cd "$(dirname "$0")/../.."
dir=${1:?usage: $0 DIR [MATERIAL...]}
shift
materials=("$@")
[ ${#materials[@]} -gt 0 ] || materials=(KNvKAAB KRvKABB KCCvKAA KPPvKAB KNNvKBB KPPPvKA KRRvKAB KNRvKAB KRRvKRR KNRvKNR)
if [ -z "${ENDGAME:-}" ]; then
    cargo build --release -q -p endgame
    ENDGAME=target/release/endgame
fi
echo "machine: $(nproc) cores, $(lscpu | grep 'Model name' | sed 's/Model name: *//'), $(free -g | awk '/Mem:/ {print $2}') GiB"
printf '%-10s %12s %10s %12s %10s %12s %14s %s\n' material indices solve_s indices/s user_s peak_MiB file_bytes load
for m in "${materials[@]}"; do
    log=$(mktemp)
    /usr/bin/time -f "%U %M" -o "$log.time" "$ENDGAME" xiangqi generate "$m" --dir "$dir" > "$log" 2>&1 || { cat "$log"; exit 1; }
    line=$(grep "^$m: solved in" "$log" || true)
    secs=$(sed -n 's/.*solved in \([0-9.]*\) s.*/\1/p' <<< "$line")
    [ -n "$secs" ] || secs=already
    indices=$(grep "^$m (" "$log" | sed -n 's/.*: \([0-9]*\) positions.*/\1/p' | head -1)
    [ -n "$indices" ] || indices=$("$ENDGAME" xiangqi generate --dry-run "$m" --dir "$dir" 2>/dev/null | awk -v m="$m" '$1 == m {print $2}')
    read -r user peak < "$log.time"
    size=$(($(stat -c %s "$dir/xiangqi/standard/$m.wdl") + $(stat -c %s "$dir/xiangqi/standard/$m.dtm")))
    rate=$(awk -v n="$indices" -v s="$secs" 'BEGIN { if (s + 0 > 0) printf "%.2fM", n / s / 1e6; else print "-" }')
    printf '%-10s %12s %10s %12s %10s %12d %14s %s\n' "$m" "$indices" "$secs" "$rate" "$user" $((peak / 1024)) "$size" "$(cut -d' ' -f1 /proc/loadavg)"
    rm -f "$log" "$log.time"
done
