#!/usr/bin/env bash
# Probes per second from Rust, C and Python on the same positions, in one run (so that the
# machine's load is the same for all): 4096 random legal positions of KRvKNN given as FEN
# (each probe parses its FEN: the work of `eg_probe` and `tb.probe`), its table file read
# through a warm 64 MiB block cache; best of 5 passes, 1 and 4 threads. Also the Rust API on
# parsed positions (the `probe` bench's measure).
# The table is generated into target/bench-tables when missing (about a minute on 2 cores);
# the Python module is installed into target/python-venv (release build).
set -euo pipefail
cd "$(dirname "$0")/../.."
cargo build --release -q -p endgame -p endgame-ffi
cargo build --release -q -p endgame-ffi --example probe_rate
tb=target/release/endgame
dir=target/bench-tables
[ -f "$dir/xiangqi/standard/KRvKNN.egtb" ] || $tb xiangqi generate KRvKNN --dir "$dir"
venv=target/python-venv
[ -x "$venv/bin/python" ] || python3 -m venv "$venv"
"$venv/bin/python" -m pip install -q --disable-pip-version-check ./crates/python
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cc -std=c99 -O2 -I crates/ffi/include examples/c/bench.c target/release/libendgame.a \
    -lgcc_s -lutil -lrt -lpthread -lm -ldl -lc -o "$tmp/bench"
rate=target/release/examples/probe_rate
$rate fens KRvKNN 4096 > "$tmp/fens.txt"
echo "machine: $(nproc) cores, $(lscpu | grep 'Model name' | sed 's/Model name: *//'), load $(cut -d' ' -f1-3 /proc/loadavg)"
{
    for threads in 1 4; do
        $rate rate "$dir" "$tmp/fens.txt" "$threads"
        "$tmp/bench" "$dir" "$tmp/fens.txt" "$threads"
        "$venv/bin/python" scripts/bench/bindings.py "$dir" "$tmp/fens.txt" "$threads"
    done
} | tee "$tmp/rates.txt"
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
awk '
    { rate[$1 " " $2] = $3 }
    END {
        printf "%-26s %8s %14s %12s %20s\n", "", "threads", "probes/s", "us/probe", "Rust (FEN) per probe"
        split("rust_position rust_fen c python", names, " ")
        for (t = 1; t <= 4; t += 3) for (i = 1; i <= 4; i++) {
            k = names[i] " " t
            printf "%-26s %8d %14.0f %12.2f %19.2fx\n", names[i], t, rate[k], 1e6 / rate[k], rate["rust_fen " t] / rate[k]
        }
    }' "$tmp/rates.txt"
