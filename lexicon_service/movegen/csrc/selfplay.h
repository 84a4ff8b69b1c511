/* Self-play in C: whole games of computer players (game state, racks, bag, scores), move generation by
 * mg_generate, no Python per move. bindings.c calls it once per request (lexicon_service.movegen.
 * fastplay); simulation and other C code may call sp_play_game directly. docs/movegen.md describes it. */
#ifndef CZPL_SELFPLAY_H
#define CZPL_SELFPLAY_H

#include <stddef.h>
#include <stdint.h>

#include "movegen.h"

#define SP_MAX_PLAYERS 4
#define SP_MAX_RACK 8

/* Leave values (the model of lexicon_service/movegen/leaves.py): a leave is worth its own entry when it
 * has one (keys: sp_leave_key, sorted ascending), else size[n] + its tiles' values + every pair's. */
typedef struct {
    double size[SP_MAX_RACK + 1];
    double tile[MAX_TILES + 1];                /* by tile number, [0] a blank */
    double pair[MAX_TILES + 1][MAX_TILES + 1]; /* [a][b] with a <= b */
    const uint64_t *keys;
    const double *values;
    size_t n_entries;
} SpLeaves;

typedef enum { SP_BEST = 0, SP_EQUITY = 1 } SpLevel;

typedef struct {
    int players;                               /* 2..SP_MAX_PLAYERS */
    int rack_size;                             /* 1..SP_MAX_RACK */
    int exchange_min_bag;                      /* tiles the bag holds at least for an exchange; -1: none */
    SpLevel level[SP_MAX_PLAYERS];
    const SpLeaves *leaves;                    /* needed by SP_EQUITY */
    size_t play_limit;                         /* SP_EQUITY: 0, among all plays; n, among the top n by score */
    double deadline;                           /* of every search (movegen.h, MgRequest); <= 0: none */
} SpParams;

typedef enum { SP_PLAY = 0, SP_EXCHANGE = 1, SP_PASS = 2 } SpKind;

typedef struct {
    uint8_t player, kind, bag_before, n_leave;
    int32_t score;
    uint8_t leave[SP_MAX_RACK];                /* tiles kept (0 a blank), ascending */
    uint8_t rack[SP_MAX_RACK], n_rack;         /* the rack before the move, ascending */
    uint8_t given[SP_MAX_RACK], n_given;       /* an exchange's tiles */
    MgMove move;                               /* SP_PLAY: the play */
} SpTurn;

typedef struct {
    SpTurn *turns;                             /* malloc'ed: sp_game_free */
    size_t n_turns;
    int scores[SP_MAX_PLAYERS];                /* before the end-of-game adjustments */
    uint8_t racks[SP_MAX_PLAYERS][MAX_TILES + 1]; /* tiles left at the end, by tile number */
    int went_out;                              /* the player who emptied their rack, -1: none */
} SpGame;

/* A game in play: the board, the bag (drawn from its end), each player's rack as tile counts, the
 * generator of its shuffles, and the board's generator state (movegen.h), moved on by each play so that
 * no search sets the board up again. Self-play (sp_play_game) and simulation play-outs (simulate.c) both
 * move it on by sp_turn; sp_state_init makes one, sp_state_free frees what its searches allocated. */
typedef struct {
    const uint32_t *layout;
    const MgRules *R;
    const SpParams *P;
    uint8_t board[MAX_DIM * MAX_DIM];
    uint8_t bag[256];
    int n_bag;
    uint8_t racks[SP_MAX_PLAYERS][MAX_TILES + 1];
    uint64_t rng;
    MgState mg;                                /* of `board` */
    MgBuffer found;                            /* the plays of the last search */
} SpState;

/* An empty board, an empty bag and no racks for the rules and parameters; MG_BAD_REQUEST when the rules
 * do not fit. */
int sp_state_init(SpState *state, const uint32_t *layout, const MgRules *rules, const SpParams *params, uint64_t seed);
void sp_state_free(SpState *state);

/* splitmix64, and a Fisher-Yates shuffle by it (from the last tile down, j = next % (i + 1)). */
uint64_t sp_next_random(uint64_t *state);
void sp_shuffle(uint8_t *tiles, int n, uint64_t *state);
int sp_rack_count(const uint8_t *counts);
/* Fills the rack of `player` from the end of the bag up to the rack size. */
void sp_draw(SpState *state, int player);
/* A play made on the game: its tiles on the board and off the player's rack, the generator's state moved
 * on (the rack not refilled: sp_draw). */
int sp_apply_play(SpState *state, int player, const MgMove *m);
/* One turn of `player` (`scoreless`: turns without a score before it): the move its level chooses, made
 * on the board, its rack refilled (an exchange: the tiles drawn, the given ones shuffled into the bag);
 * `turn` says what was done. MG_* error codes (MG_TIMED_OUT past the parameters' deadline). */
int sp_turn(SpState *state, int player, int scoreless, SpTurn *turn);

/* The key of a leave of n tiles (tile numbers, 0 a blank, any order). */
uint64_t sp_leave_key(const uint8_t *tiles, int n);
double sp_leave_value(const SpLeaves *leaves, const uint8_t *tiles, int n);

/* One game from an empty board and a bag shuffled from `seed`: each player in turn plays by its level
 * (SP_BEST: the top play by score; SP_EQUITY: the play or exchange of the highest score plus leave value,
 * as the computer level "equity"); without a play a player exchanges as much of its rack as the bag
 * allows (highest points first) while a scoreless round has not passed, else passes. The game ends when a
 * player empties their rack with the bag empty, or after two scoreless rounds. MG_* error codes. */
int sp_play_game(const uint32_t *layout, const MgRules *rules, const SpParams *params, uint64_t seed, SpGame *game);
void sp_game_free(SpGame *game);

#endif
