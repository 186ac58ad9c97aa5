#!/usr/bin/env bash
# Retrograde solver throughput and peak memory on the synthetic game (10^6 and 10^7 positions).
set -euo pipefail
cd "$(dirname "$0")/../.."
cargo bench -p endgame-core --bench retrograde
bench=$(ls -t target/release/deps/retrograde-* | grep -v '\.d$' | head -1)
for path in with_unmoves compact_with_unmoves with_reverse_edges; do
    /usr/bin/time -f "$path: peak memory %M KB (both sizes, one process)" "$bench" --bench "$path" >/dev/null
done
