#!/usr/bin/env bash
# Runs every fuzz target for SECONDS seconds each (default 60), one after the other, each in
# one process (libFuzzer's default; no -jobs/-fork):
#   scripts/fuzz.sh [SECONDS] [TARGET...]
# Needs the nightly toolchain and cargo-fuzz (`cargo install cargo-fuzz`). New inputs go to
# fuzz/work/<target>/ (not committed); the committed seeds in fuzz/corpus/<target>/ are read
# only. A crash is written to fuzz/artifacts/<target>/: commit it once fixed, and the stable
# test `cargo test -p endgame --test all fuzz_corpus` replays it from then on.
set -euo pipefail
cd "$(dirname "$0")/../fuzz"
seconds="${1:-60}"
shift || true
targets=("$@")
if [ ${#targets[@]} -eq 0 ]; then
    mapfile -t targets < <(cargo +nightly fuzz list)
fi
cargo +nightly fuzz build -O 2>&1 | tail -1
for target in "${targets[@]}"; do
    mkdir -p "work/$target" "corpus/$target"
    echo "== $target ($seconds s)"
    cargo +nightly fuzz run -O "$target" "work/$target" "corpus/$target" -- \
        -max_total_time="$seconds" -rss_limit_mb=2048 -max_len=65536 \
        -timeout=10 -print_final_stats=1 2>&1 | tee "work/$target.log" |
        grep -E "Done [0-9]+ runs|stat::average_exec_per_sec|stat::new_units_added|ERROR|panicked|SUMMARY|artifact" || true
done
