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

/* MG_LIST by equity (MgRequest.equity): what the tiles a play leaves on the rack are worth. */
typedef struct {
    /* the value of the rack less the play's `used` tiles (tile numbers, 0 a blank); called once per play
     * that could still be the answer */
    double (*leave_value)(void *ctx, const uint8_t *used, int n_used);
    void *ctx;
    double max_leave;                          /* at least the most any leave of the rack is worth */
    double max_leave_kept[MAX_DIM + 1];        /* [k]: at least the most a leave of k tiles is worth */
} MgEquity;

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
    const MgEquity *equity;                    /* MG_LIST: NULL; or the answer is the one play of the highest
                                                  score + leave value among the best `limit` by score (0:
                                                  among all), the first in the answer's order on a tie:
                                                  the search stops once no play left could change it */
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
    double equity;      /* MG_LIST by equity: the answer's score + leave value */
} MgResult;

enum { MG_OK = 0, MG_BAD_REQUEST = -1, MG_NO_MEMORY = -2, MG_TOO_MANY = -3, MG_TIMED_OUT = -4 };

/* Every play of the request on the layout `graph` (a checked search layout); MG_BAD_REQUEST: a size
 * out of range or a board square that is no tile of the rule set. Never allocates in the search;
 * thread-safe (the layout and the rules are only read). Makes an MgState of the board (below) per call. */
int mg_generate(const uint32_t *graph, const MgRules *rules, const MgRequest *request, MgResult *result);
void mg_result_free(MgResult *result);

/* ---- A board's generator state, kept across calls ----
 * The squares and the per-square tables the search reads (cross-check sets, cross-word points, anchors,
 * left-extension sets at anchors, the words on the board for the duplicate-word rule), made once for a
 * board (mg_state_init) and then moved on by plays (mg_state_play), which recompute only the squares
 * whose tables a play can change: its new tiles' squares and, in each line through a new tile, the
 * empty squares at both ends of the run of tiles it stands in (a square's tables depend only on the runs
 * of tiles next to it in its row and its column). A play on the empty board recomputes them all.
 *
 * Undo: mg_state_unplay(state, &move) takes a play's new tiles off again and recomputes the same squares
 * (cheapest: about as much as the play); a copy of the whole struct (plain memory, no pointers owned,
 * about 75 KB) also works. The fields are the generator's: read them, never write them. */
typedef struct {
    uint8_t dir, line, start, end;
    uint8_t tiles[MAX_DIM];
} MgRun;

#define MG_MAX_RUNS (2 * MAX_DIM * (MAX_DIM / 3 + 1))

typedef struct {
    const uint32_t *graph;                     /* the search layout */
    const MgRules *rules;
    int rows, cols;
    int empty_board;                           /* no tile on the board: the first play's anchors */
    uint8_t on_board[MAX_TILES + 1];           /* copies on the board by tile number ([0] blanks) */
    /* by direction (0 across: [0][row][col]; 1 down: [1][col][row]); an occupied square's tables are 0
     * (xs -1, xstart = xend = 0) */
    uint8_t sq[2][MAX_DIM][MAX_DIM];           /* the board squares */
    uint64_t cc[2][MAX_DIM][MAX_DIM];          /* cross-check set (bit t: tile t may stand here) */
    uint64_t lx[2][MAX_DIM][MAX_DIM];          /* cc, less the tiles that cannot stand left of the board
                                                  tiles following the square in the line */
    uint64_t ax[2][MAX_DIM][MAX_DIM];          /* at an anchor: lx, less the tiles that cannot follow the
                                                  board tiles before it in the line as a word's start (a
                                                  search from this anchor cannot put a tile before them:
                                                  that square is an earlier anchor) */
    int16_t xs[2][MAX_DIM][MAX_DIM];           /* cross-word points of the other tiles, -1: no cross word */
    uint8_t xstart[2][MAX_DIM][MAX_DIM], xend[2][MAX_DIM][MAX_DIM]; /* the cross word's extent */
    uint8_t anchor[2][MAX_DIM][MAX_DIM];
    uint8_t lm[2][MAX_DIM][MAX_DIM], wm[2][MAX_DIM][MAX_DIM];       /* premiums */
    int n_runs;                                /* words on the board (only when rules->forbid_dup) */
    MgRun runs[MG_MAX_RUNS];
} MgState;

/* The state of `board` (rows * cols squares); MG_BAD_REQUEST as mg_generate. `graph` and `rules` must
 * outlive the state. */
int mg_state_init(MgState *state, const uint32_t *graph, const MgRules *rules, const uint8_t *board);
/* Makes a play (its SQ_NEW tiles, on empty squares) on the state's board; MG_BAD_REQUEST (the state
 * unchanged) when a new tile is off the board, on a tile or no tile of the rule set. */
int mg_state_play(MgState *state, const MgMove *move);
/* Takes the play made last by mg_state_play off the board again; MG_BAD_REQUEST when its new tiles
 * are not on the board. */
int mg_state_unplay(MgState *state, const MgMove *move);
/* The same by squares (row * cols + col): puts tiles (tile | SQ_BLANK) on empty squares, or takes the
 * tiles off occupied ones; MG_BAD_REQUEST (the state unchanged) when a square is off the board, given
 * twice, or not empty (not occupied), or a tile is no tile of the rule set. */
int mg_state_place(MgState *state, const uint16_t *squares, const uint8_t *tiles, int n);
int mg_state_remove(MgState *state, const uint16_t *squares, int n);
/* The name of the first table in which two states of the same rules differ, NULL when they agree (for
 * tests: the tables of a state moved on by plays against those of a fresh mg_state_init). */
const char *mg_state_diff(const MgState *a, const MgState *b);

/* Where mg_generate_state keeps the plays it lists: grown as needed and reused by the next call (so
 * a warm buffer allocates nothing). Zero it before the first use; mg_buffer_free at the end. */
typedef struct {
    MgMove *moves;
    size_t cap;
} MgBuffer;

/* mg_generate on a state: the request's board is not read (the state's is), nothing is set up; the
 * plays are in `buffer` (result->moves points there, valid until the buffer's next use: do not
 * mg_result_free it). */
int mg_generate_state(const MgState *state, const MgRequest *request, MgBuffer *buffer, MgResult *result);
void mg_buffer_free(MgBuffer *buffer);

/* For tests: from the empty board, makes the `n` plays one by one on a state; after each, the state's
 * tables must equal a fresh mg_state_init's of the board, its answers for racks[i] mg_generate's (all
 * plays, the top 5, the count), and mg_state_unplay must give back the state before. *failed_at: the
 * first play for which one did not hold (*what says what differed), -1 when all held. MG_* codes. */
int mg_state_check(const uint32_t *graph, const MgRules *rules, const MgMove *moves,
                   const uint8_t (*racks)[MAX_TILES + 1], int n, int *failed_at, const char **what);

#endif
