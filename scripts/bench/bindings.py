"""Probes per second through the Python module, for scripts/bench/bindings.sh (which measures
the Rust API and the C library on the same positions in the same run).

    python bindings.py DIR FILE THREADS

Probes every FEN of FILE (standard rules, tables in DIR) once to warm the cache, then 5
passes with THREADS threads each probing every position, and prints the best pass's probes
per second and the process's CPU nanoseconds per probe over the 5 passes:
`python THREADS RATE CPU_NS`.
"""

import sys
import threading
import time

import endgame


def main() -> None:
    directory, path, threads = sys.argv[1], sys.argv[2], int(sys.argv[3])
    with open(path) as f:
        fens = [line.strip() for line in f if line.strip()]
    tb = endgame.Tablebases(directory)
    for fen in fens:
        tb.probe(fen)  # warm: files open, blocks cached

    def work(barrier: threading.Barrier) -> None:
        barrier.wait()
        probe = tb.probe
        for fen in fens:
            probe(fen)

    best = float("inf")
    cpu = time.process_time()
    for _ in range(5):
        barrier = threading.Barrier(threads + 1)
        workers = [threading.Thread(target=work, args=(barrier,)) for _ in range(threads)]
        for w in workers:
            w.start()
        start = time.perf_counter()
        barrier.wait()
        for w in workers:
            w.join()
        best = min(best, time.perf_counter() - start)
    cpu_ns = (time.process_time() - cpu) * 1e9 / (5 * threads * len(fens))
    print(f"python {threads} {threads * len(fens) / best:.0f} {cpu_ns:.0f}")


if __name__ == "__main__":
    main()
