/*
 * bench: probes per second through libendgame, for scripts/bench/bindings.sh (which measures
 * the Rust API and the Python module on the same positions in the same run).
 *
 *   bench DIR FILE [THREADS]
 *
 * Probes every FEN of FILE (one a line, standard rules, tables in DIR) once to warm the cache,
 * then 5 passes with THREADS threads (default 1) each probing every position, and prints the
 * best pass's probes per second and the process's CPU nanoseconds per probe over the 5 passes:
 * `c THREADS RATE CPU_NS`.
 */
#define _POSIX_C_SOURCE 200809L
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "endgame.h"

static eg_tablebases *tb;
static char **fens;
static size_t count;

static double seconds(clockid_t clock) {
    struct timespec t;
    clock_gettime(clock, &t);
    return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

static void *pass(void *unused) {
    (void)unused;
    eg_result r;
    for (size_t i = 0; i < count; i++) {
        if (eg_probe(tb, fens[i], &r) != EG_OK) {
            fprintf(stderr, "%s: %s\n", fens[i], eg_last_error());
            exit(1);
        }
    }
    return NULL;
}

int main(int argc, char **argv) {
    if (argc < 3) {
        fprintf(stderr, "usage: %s DIR FILE [THREADS]\n", argv[0]);
        return 2;
    }
    int threads = argc > 3 ? atoi(argv[3]) : 1;
    if (threads < 1 || threads > 64) {
        fprintf(stderr, "THREADS: expected 1 to 64\n");
        return 2;
    }
    FILE *file = fopen(argv[2], "r");
    if (!file) {
        perror(argv[2]);
        return 2;
    }
    size_t capacity = 1024;
    fens = malloc(capacity * sizeof *fens);
    char line[256];
    while (fens && fgets(line, sizeof line, file)) {
        line[strcspn(line, "\n")] = 0;
        if (!line[0]) continue;
        if (count == capacity) {
            capacity *= 2;
            fens = realloc(fens, capacity * sizeof *fens);
            if (!fens) break;
        }
        fens[count++] = strdup(line);
    }
    fclose(file);
    if (!fens) {
        fprintf(stderr, "out of memory\n");
        return 3;
    }
    if (eg_open(argv[1], "standard", &tb) != EG_OK) {
        fprintf(stderr, "%s\n", eg_last_error());
        return 1;
    }
    pass(NULL); /* warm: files open, blocks cached */
    double best = 1e300;
    double cpu = seconds(CLOCK_PROCESS_CPUTIME_ID);
    for (int round = 0; round < 5; round++) {
        pthread_t ids[64];
        double start = seconds(CLOCK_MONOTONIC);
        for (int t = 0; t < threads; t++) pthread_create(&ids[t], NULL, pass, NULL);
        for (int t = 0; t < threads; t++) pthread_join(ids[t], NULL);
        double wall = seconds(CLOCK_MONOTONIC) - start;
        if (wall < best) best = wall;
    }
    double probes = 5.0 * threads * (double)count;
    printf("c %d %.0f %.0f\n", threads, (double)threads * (double)count / best,
           (seconds(CLOCK_PROCESS_CPUTIME_ID) - cpu) * 1e9 / probes);
    eg_close(tb);
    for (size_t i = 0; i < count; i++) free(fens[i]);
    free(fens);
    return 0;
}
