#!/usr/bin/env bash
# Runs every game's benchmark script in turn; each prints its figures and the machine.
set -euo pipefail
cd "$(dirname "$0")/.."
echo "machine: $(nproc) cores, $(lscpu | sed -n 's/^Model name: *//p'), $(free -g | awk '/Mem:/ {print $2}') GiB"
cargo build --release -q
shopt -s nullglob
for script in scripts/bench/*.sh; do
    echo "== $script"
    bash "$script"
done
