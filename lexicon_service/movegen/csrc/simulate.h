/* Simulation in C: the play-outs of a position's candidate moves (movegen/simulate.py chooses the
 * candidates; this plays them out), each play-out a short game moved on by the self-play turn
 * (selfplay.h, sp_turn), the whole request in one call, no Python per move or per iteration.
 * docs/movegen.md describes it. */
#ifndef CZPL_SIMULATE_H
#define CZPL_SIMULATE_H

#include <stddef.h>
#include <stdint.h>

#include "movegen.h"
#include "selfplay.h"

#define SIM_MAX_UNSEEN 240
#define SIM_MAX_CANDIDATES 128

/* The chance that the player on turn wins, by spread (columns, rising) and bag count (rows; past the
 * last, the last); linear between columns, the nearest column outside them. */
typedef struct {
    const int32_t *spreads;
    int n_columns;
    const double *chances;                     /* n_rows * n_columns */
    int n_rows;
} SimWinTable;

/* A candidate move of the player on turn, and what its play-outs gave. */
typedef struct {
    int32_t score;
    int n_placed;
    uint16_t squares[MAX_DIM];                 /* row * cols + col of each new tile */
    uint8_t tiles[MAX_DIM];                    /* its board byte (tile | SQ_BLANK) */
    uint8_t kept[SP_MAX_RACK], n_kept;         /* the tiles kept (0 a blank) */
    uint8_t given[SP_MAX_RACK], n_given;       /* an exchange's tiles, back into the bag */
    double leave_value;                        /* of the kept tiles, counted when no later move of the player */
    /* results */
    double sums[5];                            /* spread, spread², win, rank key, key² */
    int iterations, pruned;
} SimCandidate;

typedef enum { SIM_STOP_ITERATIONS = 0, SIM_STOP_TIME = 1, SIM_STOP_CONFIDENCE = 2 } SimStop;

typedef struct {
    int plies, iterations, min_iterations, check_every;
    double z;                                  /* standard errors of the confidence rule */
    int spread;                                /* the player's score less the opponent's */
    const uint8_t *unseen;                     /* the tiles the player cannot see (0 a blank) */
    int n_unseen, opponent_rack;               /* the first `opponent_rack` of each shuffle are the opponent's */
    uint64_t seed;
    double deadline;                           /* CLOCK_MONOTONIC seconds; <= 0: none */
    const SimWinTable *win;                    /* NULL: ranked by spread alone */
    int blank_points;                          /* what a blank left on a rack counts at the end */
    int subtract_own;                          /* end of game: a player loses their own tiles' points */
    int out_bonus;                             /* 0 none, 1 the others' racks, 2 twice the others' racks */
    uint8_t *draws;                            /* NULL, or iterations * n_unseen bytes: each shuffle */
} SimParams;

/* Plays out the `n` candidates on `board` (sim_run in simulate.c says how) with the play-outs' turns by
 * `params` (two players, both SP_EQUITY, no exchanges: play_limit the plays by score they choose among;
 * the deadline of every search). Fills each candidate's results, *iterations and *stopped. MG_* codes. */
int sim_run(const uint32_t *layout, const MgRules *rules, const SpParams *params, const uint8_t *board,
            SimCandidate *candidates, int n, const SimParams *sim, int *iterations, SimStop *stopped);

#endif
