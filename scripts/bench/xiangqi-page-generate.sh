#!/usr/bin/env bash
# Generation on demand as a player waits for it: headless Chromium opens a KRvKAABB and then a
# KRPvKAABB position on a server with no tables, clicks Generate, and times the wait until the
# analysis shows (each from an empty directory; the server runs in the test process, whose CPU
# time and peak memory are printed too). Needs chromium and chromium-driver (Debian).
#
#   scripts/bench/xiangqi-page-generate.sh
#
# About a minute and a half on 2 cores. The figures go to BENCHMARKS.md with the machine and the
# commit; the screenshots (target/screenshots/generate-*.png) are those of docs/server-api.md.
set -euo pipefail
cd "$(dirname "$0")/../.."
git log --oneline -1
nproc
cargo test --release -q -p endgame-server --test browser --no-run
cargo test --release -q -p endgame-server --test browser -- --ignored --nocapture generate_from_the_page_timing 2>&1 |
    grep -E "^KR|test result|panicked|timed out"
