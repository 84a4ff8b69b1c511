/* Move generation over the search layout (graph.h): the C interface. Plain C, no Python: bindings.c
 * calls it for lexicon_service.movegen, and other C code (self-play, simulation, endgames) may call it
 * directly, once per position, with no Python object made.
 *
 * A board square is a byte: tile number (1..63) | SQ_BLANK for a blank, 0 empty. */
#ifndef CZPL_MOVEGEN_H
#define CZPL_MOVEGEN_H

#include <stddef.h>
#include <stdint.h>

#include "graph.h"

#define MAX_LISTED 1000000  /* plays listed at most (a limit, or all) */

#define SQ_TILE 0x3F
#define SQ_BLANK 0x40
#define SQ_NEW 0x80

/* What a rule set fixes (made once per rule set). */
typedef struct {
    int n_tiles, rows, cols;                   /* letters of the alphabet; board size, each 1..MAX_DIM */
    uint8_t letter_mult[MAX_DIM * MAX_DIM];    /* row-major premiums */
    uint8_t word_mult[MAX_DIM * MAX_DIM];
    uint8_t points[MAX_TILES + 1];             /* by tile number ([0]: a blank, unused) */
    uint8_t bag[MAX_TILES + 1];                /* copies in the set ([0] blanks) */
    uint64_t blank_mask;                       /* tiles a blank may show (bit t) */
    int bingo_tiles, bingo_bonus;              /* new tiles that earn the bonus, and the bonus */
    int min_word_len;                          /* shortest word */
    int first_cover;                           /* the square the first play must cover (row * cols + col), -1: any */
    int first_min_tiles;                       /* tiles the first play places at least */
    int must_connect;                          /* later plays touch the tiles on the board */
    int forbid_dup;                            /* no word may stand twice (Kris Kros) */
} MgRules;

typedef enum { MG_LIST = 0, MG_COUNT = 1, MG_ANY = 2, MG_NTH = 3 } MgMode;

/* One request: a position, a rack and what to give back. */
typedef struct {
    const uint8_t *board;                      /* rows * cols squares */
    uint8_t rack[MAX_TILES + 1];               /* tiles of each number ([0] blanks); capped by the set */
    MgMode mode;                               /* MG_LIST: plays; MG_COUNT: how many; MG_ANY: whether any;
                                                  MG_NTH: the play numbered `nth` (from 0) in the search's
                                                  order, as MG_COUNT counts them (none past the count) */
    size_t nth;
    size_t limit;                              /* MG_LIST: the best `limit` (0: all, at most MAX_LISTED) */
    int min_main_len;                          /* main word of at least this many tiles */
    uint8_t must_use[MAX_TILES + 1];           /* tiles every play places (all 0: none) */
    uint8_t must_contain[MAX_DIM];             /* tiles the main word contains, in a row */
    int must_contain_len;
    double deadline;                           /* CLOCK_MONOTONIC seconds (time.monotonic()); <= 0: none */
} MgRequest;

/* One play: the main word's squares (line, start .. start + len - 1 along `dir`: 0 across, its line a
 * row; 1 down, its line a column), each tile | SQ_BLANK | SQ_NEW. */
typedef struct {
    int32_t score;
    uint8_t dir, line, start, len, n_new;
    uint8_t tiles[MAX_DIM];
} MgMove;

/* Order of the answer: score descending, then across before down, row, column, length, tiles. */
int mg_move_cmp(const MgMove *a, const MgMove *b);

typedef struct {
    MgMove *moves;      /* MG_LIST: sorted, n_moves of them; MG_NTH: 0 or 1 (malloc'ed: mg_result_free) */
    size_t n_moves;
    long long count;    /* plays found (MG_COUNT; MG_ANY: 0 or 1) */
} MgResult;

enum { MG_OK = 0, MG_BAD_REQUEST = -1, MG_NO_MEMORY = -2, MG_TOO_MANY = -3, MG_TIMED_OUT = -4 };

/* Every play of the request on the layout `graph` (a checked search layout); MG_BAD_REQUEST: a size
 * out of range or a board square that is no tile of the rule set. Never allocates in the search;
 * thread-safe (the layout and the rules are only read). */
int mg_generate(const uint32_t *graph, const MgRules *rules, const MgRequest *request, MgResult *result);
void mg_result_free(MgResult *result);

#endif
