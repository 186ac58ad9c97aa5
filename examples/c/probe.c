/*
 * probe: the value, the best move and every move of Xiangqi positions, from the endgame tables
 * through libendgame (crates/ffi).
 *
 *   cargo build --release -p endgame-ffi
 *   cc -O2 -I crates/ffi/include examples/c/probe.c target/release/libendgame.a \
 *      -lpthread -ldl -lm -o probe
 *   ./probe [--dir DIR] [--rules RULES] FEN...
 *
 * Materials of up to 4 men are solved in memory on first use; larger ones need their files
 * (`endgame xiangqi generate KRvKNN --dir DIR`). Exit status: 0, or the status code of the
 * first call that failed.
 */
#include <stdio.h>
#include <string.h>

#include "endgame.h"

/* "win in 7 plies", "draw", "loss by the perpetual-check rule". */
static void describe(eg_result r, char *text, size_t len) {
    const char *what = r.category > 0 ? "win" : r.category < 0 ? "loss" : "draw";
    if (r.category == 0) {
        snprintf(text, len, "draw");
    } else if (r.by_rule) {
        snprintf(text, len, "%s by the %s rule", what, r.by_rule == 2 ? "perpetual-chase" : "perpetual-check");
    } else {
        snprintf(text, len, "%s in %d plies", what, r.dtm);
    }
}

/* Prints the position's value, best move and moves; returns the first failing status. */
static int show(const eg_tablebases *tb, const char *fen) {
    eg_result result;
    int wdl;
    char best[6];
    char text[64];
    eg_move moves[128];
    size_t count = 0;
    int status = eg_probe(tb, fen, &result);
    if (status != EG_OK) {
        printf("%s: error %d: %s\n", fen, status, eg_last_error());
        return status;
    }
    if ((status = eg_probe_wdl(tb, fen, &wdl)) != EG_OK ||
        (status = eg_best_move(tb, fen, best, sizeof best)) != EG_OK ||
        (status = eg_moves(tb, fen, moves, sizeof moves / sizeof moves[0], &count)) != EG_OK) {
        printf("%s: error %d: %s\n", fen, status, eg_last_error());
        return status;
    }
    describe(result, text, sizeof text);
    printf("%s: %s (wdl %d), best move %s\n", fen, text, wdl, best);
    for (size_t i = 0; i < count; i++) {
        describe(moves[i].result, text, sizeof text);
        printf("  %s %s\n", moves[i].uci, text);
    }
    return EG_OK;
}

int main(int argc, char **argv) {
    const char *dir = NULL; /* the default directory, as the command line's */
    const char *rules = "standard";
    int first = 1;
    while (first + 1 < argc && argv[first][0] == '-') {
        if (strcmp(argv[first], "--dir") == 0) {
            dir = argv[first + 1];
        } else if (strcmp(argv[first], "--rules") == 0) {
            rules = argv[first + 1];
        } else {
            break;
        }
        first += 2;
    }
    if (first >= argc) {
        fprintf(stderr, "usage: %s [--dir DIR] [--rules RULES] FEN...\n", argv[0]);
        return EG_BAD_INPUT;
    }
    eg_tablebases *tb = NULL;
    int status = eg_open(dir, rules, &tb);
    if (status != EG_OK) {
        fprintf(stderr, "error %d: %s\n", status, eg_last_error());
        return status;
    }
    int failed = EG_OK;
    for (int i = first; i < argc; i++) {
        status = show(tb, argv[i]);
        if (failed == EG_OK) {
            failed = status;
        }
    }
    eg_close(tb);
    return failed;
}
