#!/usr/bin/env bash
# The web explorer under hostile clients (issue 23), every figure of BENCHMARKS.md's
# "Web explorer under hostile clients", client and server on 127.0.0.1, bounded loops:
#
# 1. a hostile Twixt record (1 MiB, points colliding under the old peg-map hash) against
#    random points of the same size, through `endgame twixt replay` (CPU time);
# 2. 500 slow connections held open while a normal client probes (`hostile slow`);
# 3. 4 clients flooding expensive searches while 16 probe (`hostile flood`): positions of
#    materials solved in memory, warmed up; then (issue 41) one position of every material of
#    the table directory, none asked before, on a server just started over it (the first
#    probe of each material under the flood);
# 4. the existing load test (20,000 requests, 16 clients);
# 5. under `ulimit -n 64`: every material of a table directory probed in a loop
#    (`hostile files`), the server's open descriptors counted.
# The table directory is generated once (the smallest materials, `nice`), then kept in
# $TABLES (default target/hostile-tables) for the next run; `SKIP_FILES=1` leaves out what
# needs it.
#
# Usage: bash scripts/bench/server_hostile.sh [SECONDS]   (each timed phase; default 20)
set -euo pipefail
cd "$(dirname "$0")/../.."
seconds=${1:-20}
tables=${TABLES:-target/hostile-tables}
echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs), load average $(cut -d' ' -f1-3 /proc/loadavg)"
cargo build --release -q -p endgame
cargo build --release -q -p endgame-server --example load --example hostile
cargo build --release -q -p endgame-twixt --example twixt_gen
endgame=./target/release/endgame
scratch=$(mktemp -d)
server=
cleanup() {
    if [ -n "$server" ]; then kill "$server" 2>/dev/null || true; wait "$server" 2>/dev/null || true; fi
    rm -rf "$scratch"
}
trap cleanup EXIT

# Starts `endgame serve` on a free loopback port with the given arguments (the limit on open
# files first when NOFILE is set); sets $server and $addr.
start_server() {
    local out="$scratch/serve.out"
    if [ -n "${NOFILE:-}" ]; then
        bash -c "ulimit -n $NOFILE && exec $endgame serve --addr 127.0.0.1:0 $*" > "$out" 2> "$scratch/serve.err" &
    else
        $endgame serve --addr 127.0.0.1:0 "$@" > "$out" 2> "$scratch/serve.err" &
    fi
    server=$!
    for _ in $(seq 100); do
        if grep -q '^Listening on' "$out" 2>/dev/null; then break; fi
        sleep 0.1
    done
    addr=$(sed -n 's|^Listening on http://||p' "$out")
    [ -n "$addr" ] || { echo "the server did not start: $(cat "$scratch/serve.err")"; exit 1; }
}
stop_server() {
    kill "$server"; wait "$server" 2>/dev/null || true; server=
}

echo
echo "== 1. Twixt: a hostile record against random points (endgame twixt replay, CPU time)"
./target/release/examples/twixt_gen collide 1073741824 50001 1 > "$scratch/hostile.txt"
./target/release/examples/twixt_gen 1073741824 50001 1 > "$scratch/random.txt"
for kind in hostile random; do
    /usr/bin/time -f "$kind ($(wc -c < "$scratch/$kind.txt") bytes, 50,001 moves, N = 2^30): %e s wall, %U s user, %M KiB max RSS" \
        $endgame twixt replay "$scratch/$kind.txt" > /dev/null
done

if [ -z "${SKIP_FILES:-}" ] && [ ! -f "$tables/.complete" ]; then
    echo
    echo "generating the smallest materials into $tables (once; nice)"
    mkdir -p "$tables"
    /usr/bin/time -f "generation: %e s wall, %U s user" \
        nice -n 10 $endgame xiangqi generate --all-up-to 4 --dir "$tables" > /dev/null
    touch "$tables/.complete"
fi

empty="$scratch/no-tables"
mkdir -p "$empty"
echo
echo "== 2. 500 slow connections, a normal client probing ($seconds s)"
start_server --dir "$empty"
./target/release/examples/hostile slow "$addr" 500 "$seconds"
stop_server

echo
echo "== 3. 4 clients flooding searches, 16 probing ($seconds s each)"
start_server --dir "$empty"
./target/release/examples/hostile flood "$addr" "$seconds"
stop_server
if [ -z "${SKIP_FILES:-}" ]; then
    start_server --dir "$tables"
    ./target/release/examples/hostile flood "$addr" "$seconds" "$tables"
    stop_server
fi

echo
echo "== 4. the load test"
./target/release/examples/load

if [ -z "${SKIP_FILES:-}" ]; then
    echo
    echo "== 5. ulimit -n 64: every material of $tables probed"
    NOFILE=64 start_server --dir "$tables"
    echo "the server's limit on open files: $(grep 'open files' "/proc/$server/limits" | awk '{print $4, "soft,", $5, "hard"}')"
    SERVER_PID=$server ./target/release/examples/hostile files "$addr" "$tables" 3
    stop_server
fi
