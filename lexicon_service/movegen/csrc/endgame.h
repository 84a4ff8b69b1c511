/* Exact endgames in C: once the bag is empty, the best sequence for the player on turn with both racks
 * known. Negamax with alpha-beta on spread, a transposition table keyed by a Zobrist hash, iterative
 * deepening and a deadline; moves by mg_generate. No Python here: bindings.c calls eg_solve once per
 * request (lexicon_service.movegen.endgame); docs/movegen.md describes the search. */
#ifndef CZPL_ENDGAME_H
#define CZPL_ENDGAME_H

#include <stddef.h>
#include <stdint.h>

#include "movegen.h"

#define EG_MAX_PLIES 64        /* the deepest iteration, and the longest sequence given back */
#define EG_PASS (-2)           /* a move index meaning the pass */
#define EG_NO_MOVE (-1)

/* The game's end as the rule set counts it (lexicon_service.rules.game.end_of_game_adjustments for two
 * players): a rack is worth its tiles' points (a blank `blank_points`); a player left with tiles loses
 * their worth when `subtract_own`; the player who goes out gains `out_multiplier` (0, 1 or 2) times the
 * other's rack, and with `out_twice` the other then loses nothing. */
typedef struct {
    int passes_to_end;         /* consecutive passes that end the game (>= 1) */
    int blank_points;
    int subtract_own, out_multiplier, out_twice;
    int max_depth;             /* 1..EG_MAX_PLIES */
    int table_bits;            /* the transposition table holds 2^table_bits entries (10..26) */
    double deadline;           /* CLOCK_MONOTONIC seconds; <= 0: none */
    double cpu_seconds;        /* stop after this much CPU time of the calling thread; <= 0: none */
    long long max_nodes;       /* stop after this many nodes; <= 0: none */
    int prune_words;           /* search with the endgame's own word graph (word_prune.h), not the full one */
} EgParams;

/* A ply of the best sequence: the pass, or a play as mg_generate gives it. */
typedef struct {
    int is_pass;
    MgMove move;
} EgPly;

typedef struct {
    int value;                 /* what the mover gains on the other to the end of the game */
    int exact;                 /* the last whole depth reached every end of the game */
    int depth;                 /* plies of the last whole depth */
    long long nodes;           /* positions visited, every depth */
    long long words;           /* words in the endgame's own word graph (prune_words) */
    int n_plies;
    EgPly plies[EG_MAX_PLIES]; /* the best sequence: the mover's move, the reply, ... */
} EgResult;

enum { EG_OK = 0, EG_NO_RESULT = -5 };  /* besides the MG_* codes: time or nodes ran out before a whole depth */

/* The endgame of `board` with the mover holding `mover` and the other `other` (tile counts, [0] blanks),
 * `passes` passes in a row before this turn. MG_BAD_REQUEST: a size or parameter out of range. */
int eg_solve(const uint32_t *layout, const MgRules *rules, const EgParams *params, const uint8_t *board,
             const uint8_t *mover, const uint8_t *other, int passes, EgResult *result);

#endif
