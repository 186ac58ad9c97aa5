#!/usr/bin/env bash
# Probes per second from Rust, C and Python on the same positions, in one run (so that the
# machine's load is the same for all): 4096 random legal positions of KRvKNN given as FEN
# (each probe parses its FEN: the work of `eg_probe` and `tb.probe`), its table file read
# through a warm 64 MiB block cache; best of 5 passes, 1 and 4 threads. Also the Rust API on
# parsed positions (the `probe` bench's measure). Beside the best pass's wall-clock rate, the
# CPU time per probe over the 5 passes (what a loaded machine disturbs least).
#
#   scripts/bench/bindings.sh          release builds; the Python module installed with
#                                      `pip install ./crates/python` into target/python-venv
#   scripts/bench/bindings.sh --dev    the dev profile (opt-level 2) that `cargo test` builds,
#                                      the module as scripts/ci/python.sh installs it
#
# The table is generated into target/bench-tables when missing (about a minute on 2 cores).
set -euo pipefail
cd "$(dirname "$0")/../.."
venv=target/python-venv
[ -x "$venv/bin/python" ] || python3 -m venv "$venv"
py="$venv/bin/python"
site=$("$py" -c "import sysconfig; print(sysconfig.get_path('purelib'))")
rm -rf "$site/endgame" "$site"/endgame-*.dist-info
if [ "${1:-}" = "--dev" ]; then
    profile=debug
    # What `cargo test --workspace` builds, and the module (as scripts/ci/python.sh).
    cargo build -q --workspace --bins --lib --examples
    cp -r crates/python/python/endgame "$site/endgame"
    cp target/debug/libendgame_python.so "$site/endgame/_endgame$("$py" -c "import sysconfig; print(sysconfig.get_config_var('EXT_SUFFIX'))")"
else
    profile=release
    cargo build --release -q -p endgame -p endgame-ffi
    cargo build --release -q -p endgame-ffi --example probe_rate
    "$py" -m pip install -q --disable-pip-version-check ./crates/python
fi
tb=target/$profile/endgame
dir=target/bench-tables
# Keeps the files already there (whatever the table format names them).
$tb xiangqi generate KRvKNN --dir "$dir" > /dev/null
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cc -std=c99 -O2 -I crates/ffi/include examples/c/bench.c target/$profile/libendgame.a \
    -lgcc_s -lutil -lrt -lpthread -lm -ldl -lc -o "$tmp/bench"
rate=target/$profile/examples/probe_rate
$rate fens KRvKNN 4096 > "$tmp/fens.txt"
echo "profile $profile; machine: $(nproc) cores, $(lscpu | grep 'Model name' | sed 's/Model name: *//'), load $(cut -d' ' -f1-3 /proc/loadavg)"
{
    for threads in 1 4; do
        $rate rate "$dir" "$tmp/fens.txt" "$threads"
        "$tmp/bench" "$dir" "$tmp/fens.txt" "$threads"
        "$py" scripts/bench/bindings.py "$dir" "$tmp/fens.txt" "$threads"
    done
} | tee "$tmp/rates.txt"
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
awk '
    { rate[$1 " " $2] = $3; cpu[$1 " " $2] = $4 }
    END {
        printf "%-14s %7s %11s %13s %15s %14s\n", "", "threads", "probes/s", "wall us/probe", "CPU us/probe", "CPU vs Rust FEN"
        split("rust_position rust_fen c python", names, " ")
        for (t = 1; t <= 4; t += 3) for (i = 1; i <= 4; i++) {
            k = names[i] " " t
            printf "%-14s %7d %11.0f %13.2f %15.2f %13.2fx\n", names[i], t, rate[k], 1e6 / rate[k], cpu[k] / 1e3, cpu[k] / cpu["rust_fen " t]
        }
    }' "$tmp/rates.txt"
