/* Simulation play-outs in C (simulate.h). Per iteration the unseen tiles are shuffled once: the
 * opponent's rack is the first of them, the bag the rest in that order; every candidate still in the
 * race is played out on that same draw (its move made, the player's rack refilled, an exchange's
 * tiles shuffled back), then `plies` turns by sp_turn, the opponent first. A player who goes out with
 * the bag empty ends the game, with the end-of-game adjustments. A play-out is worth the spread it
 * adds plus the leave value of the player's last move while tiles were left to draw, and the win
 * chance of the position it ends in. movegen/simulate.py describes the ranking and the confidence rule,
 * which this follows step for step (the same seed gives the same result). */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "simulate.h"

#define SPREAD_PER_WIN 10000.0  /* rank key: spread points worth a whole win */

static double now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

static double sim_win_chance(const SimWinTable *w, double spread, int bag) {
    const double *row = w->chances + (size_t)(bag < 0 ? 0 : bag >= w->n_rows ? w->n_rows - 1 : bag) * w->n_columns;
    const int32_t *s = w->spreads;
    int n = w->n_columns;
    if (spread <= s[0]) return row[0];
    if (spread >= s[n - 1]) return row[n - 1];
    int lo = 0, hi = n;  /* the first column above spread: bisect_right */
    while (lo < hi) {
        int mid = (lo + hi) / 2;
        if (spread < s[mid]) hi = mid; else lo = mid + 1;
    }
    double t = (spread - s[lo - 1]) / (double)(s[lo] - s[lo - 1]);
    return row[lo - 1] + t * (row[lo] - row[lo - 1]);
}

static int rack_points(const MgRules *R, const uint8_t *counts, int blank_points) {
    int v = counts[0] * blank_points;
    for (int t = 1; t <= MAX_TILES; t++) v += counts[t] * R->points[t];
    return v;
}

/* The player's gain less the opponent's from the end-of-game adjustments (rules/game.py). */
static int end_adjustment(const SpState *g, const SimParams *S, int went_out) {
    int value[2] = {rack_points(g->R, g->racks[0], S->blank_points), rack_points(g->R, g->racks[1], S->blank_points)};
    int adjust[2];
    for (int p = 0; p < 2; p++) adjust[p] = S->out_bonus == 2 || !S->subtract_own ? 0 : -value[p];
    adjust[went_out] += S->out_bonus * value[1 - went_out];
    return adjust[0] - adjust[1];
}

/* The tiles put on the board by a play-out, to take off again (the game's generator state goes back
 * to the position's, which is cheaper than making it again or copying it). */
typedef struct {
    uint16_t squares[MAX_DIM * MAX_DIM];
    int n;
} Placed;

static void note_play(const SpState *g, const MgMove *m, Placed *placed) {
    for (int i = 0; i < m->len; i++) {
        if (!(m->tiles[i] & SQ_NEW)) continue;
        int row = m->dir ? m->start + i : m->line, col = m->dir ? m->line : m->start + i;
        placed->squares[placed->n++] = (uint16_t)(row * g->R->cols + col);
    }
}

/* Takes the play-out's tiles off the state, the last placed first, at most MAX_DIM squares a call. */
static void take_back(SpState *g, Placed *placed) {
    while (placed->n > 0) {
        int k = placed->n < MAX_DIM ? placed->n : MAX_DIM;
        placed->n -= k;
        mg_state_remove(&g->mg, placed->squares + placed->n, k);
    }
}

/* The opponent's first turn of the play-outs of one draw after candidates that leave the board as it was
 * (exchanges, the pass): the same for each of them, since the board, the opponent's rack (the draw's
 * first tiles) and whether the bag holds tiles (all a play-out turn reads of the bag) are the same; so it
 * is searched once a draw and made again for the others. [1]: with tiles in the bag, [0]: without. */
typedef struct {
    int known[2];
    SpTurn turn[2];
} Reply;

/* A play made on the game as sp_turn makes it: placed (selfplay.c), then the rack refilled. */
static int replay(SpState *g, int player, const MgMove *m) {
    int rc = sp_apply_play(g, player, m);
    if (rc == MG_OK) sp_draw(g, player);
    return rc;
}

/* The opponent's first turn of a play-out of `c` (Reply says when it is searched once a draw). */
static int first_reply(SpState *g, const SimCandidate *c, Reply *reply, SpTurn *turn) {
    int bag = g->n_bag > 0;
    if (c->n_placed || !reply->known[bag]) {
        int rc = sp_turn(g, 1, 0, turn);
        if (rc == MG_OK && !c->n_placed && turn->kind != SP_EXCHANGE) {
            reply->turn[bag] = *turn;
            reply->known[bag] = 1;
        }
        return rc;
    }
    *turn = reply->turn[bag];
    turn->bag_before = (uint8_t)(g->n_bag > 255 ? 255 : g->n_bag);
    return turn->kind == SP_PLAY ? replay(g, 1, &turn->move) : MG_OK;
}

static int play_plies(SpState *g, const SimCandidate *c, const SimParams *S, Placed *placed, Reply *reply,
                      double *spread, double *win);

/* One play-out of `c` from the draw `opp` (the opponent's rack) and `bag`: the spread it adds into
 * *spread, the player's win chance into *win (-1 without a win table). The game's state holds the
 * position before and after. */
static int play_out(SpState *g, const uint8_t *board, const SimCandidate *c, const uint8_t *draw,
                    const SimParams *S, Reply *reply, double *spread, double *win) {
    const MgRules *R = g->R;
    memcpy(g->board, board, (size_t)R->rows * R->cols);
    for (int i = 0; i < c->n_placed; i++) g->board[c->squares[i]] = c->tiles[i];
    Placed placed;
    placed.n = 0;
    int rc = mg_state_place(&g->mg, c->squares, c->tiles, c->n_placed);
    if (rc) return rc;
    memcpy(placed.squares, c->squares, (size_t)c->n_placed * sizeof c->squares[0]);
    placed.n = c->n_placed;
    memset(g->racks, 0, sizeof g->racks);
    for (int i = 0; i < c->n_kept; i++) g->racks[0][c->kept[i]]++;
    for (int i = 0; i < S->opponent_rack; i++) g->racks[1][draw[i]]++;
    g->n_bag = S->n_unseen - S->opponent_rack;
    memcpy(g->bag, draw + S->opponent_rack, (size_t)g->n_bag);
    sp_draw(g, 0);
    if (c->n_given) {
        memcpy(g->bag + g->n_bag, c->given, c->n_given);
        g->n_bag += c->n_given;
        sp_shuffle(g->bag, g->n_bag, &g->rng);
    }
    rc = play_plies(g, c, S, &placed, reply, spread, win);
    take_back(g, &placed);
    return rc;
}

static int play_plies(SpState *g, const SimCandidate *c, const SimParams *S, Placed *placed, Reply *reply,
                      double *spread, double *win) {
    double delta = c->score, last_leave = c->leave_value;
    int mover = 0, out = sp_rack_count(g->racks[0]) == 0;
    for (int ply = 0; !out && ply < S->plies; ply++) {
        mover ^= 1;
        SpTurn turn;
        int rc = ply == 0 ? first_reply(g, c, reply, &turn) : sp_turn(g, mover, 0, &turn);
        if (rc) return rc;
        if (turn.kind != SP_PLAY) continue;
        note_play(g, &turn.move, placed);
        delta += mover == 0 ? turn.score : -turn.score;
        if (mover == 0) last_leave = turn.bag_before ? sp_leave_value(g->P->leaves, turn.leave, turn.n_leave) : 0;
        out = sp_rack_count(g->racks[mover]) == 0;
    }
    if (out) {
        double final = S->spread + delta + end_adjustment(g, S, mover);
        *spread = final - S->spread;
        *win = final > 0 ? 1.0 : final == 0 ? 0.5 : 0.0;
        return MG_OK;
    }
    double value = delta + last_leave;
    *spread = value;
    if (!S->win) *win = -1;
    else if (mover == 1) *win = sim_win_chance(S->win, S->spread + value, g->n_bag);  /* the player on turn */
    else *win = 1.0 - sim_win_chance(S->win, -(S->spread + value), g->n_bag);
    return MG_OK;
}

static void add_result(SimCandidate *c, double spread, double win) {
    double key = (win < 0 ? 0.0 : win) + spread / SPREAD_PER_WIN;
    c->sums[0] += spread;
    c->sums[1] += spread * spread;
    c->sums[2] += win < 0 ? 0.0 : win;
    c->sums[3] += key;
    c->sums[4] += key * key;
    c->iterations++;
}

static double mean_key(const SimCandidate *c) { return c->sums[3] / c->iterations; }

static double standard_error(const SimCandidate *c) {
    int n = c->iterations;
    if (n < 2) return INFINITY;
    double var = (c->sums[4] - c->sums[3] * c->sums[3] / n) / (n - 1);
    return sqrt(var > 0 ? var : 0) / sqrt((double)n);
}

/* The confidence rule: a candidate whose mean key plus z standard errors is below the leader's less z
 * of the leader's is pruned. `alive` holds the indices still in the race; returns how many stay. */
static int prune(SimCandidate *c, int *alive, int n_alive, double z) {
    int leader = alive[0];
    for (int i = 1; i < n_alive; i++) if (mean_key(&c[alive[i]]) > mean_key(&c[leader])) leader = alive[i];
    double floor = mean_key(&c[leader]) - z * standard_error(&c[leader]);
    int kept = 0;
    for (int i = 0; i < n_alive; i++) {
        SimCandidate *x = &c[alive[i]];
        if (alive[i] != leader && mean_key(x) + z * standard_error(x) < floor) x->pruned = 1;
        else alive[kept++] = alive[i];
    }
    return kept;
}

/* One iteration: a shuffle of the unseen tiles, every candidate in the race played out on it; the
 * results are added only when all were played out (a search past the deadline drops the iteration). */
static int iterate(SpState *g, const uint8_t *board, SimCandidate *c, const int *alive, int n_alive,
                   const SimParams *S, uint8_t *draw) {
    double spread[SIM_MAX_CANDIDATES], win[SIM_MAX_CANDIDATES];
    Reply reply;
    reply.known[0] = reply.known[1] = 0;
    memcpy(draw, S->unseen, (size_t)S->n_unseen);
    sp_shuffle(draw, S->n_unseen, &g->rng);
    for (int i = 0; i < n_alive; i++) {
        int rc = play_out(g, board, &c[alive[i]], draw, S, &reply, &spread[i], &win[i]);
        if (rc) return rc;
    }
    for (int i = 0; i < n_alive; i++) add_result(&c[alive[i]], spread[i], win[i]);
    return MG_OK;
}

int sim_run(const uint32_t *layout, const MgRules *R, const SpParams *P, const uint8_t *board, SimCandidate *c,
            int n, const SimParams *S, int *iterations, SimStop *stopped) {
    *iterations = 0;
    *stopped = n == 1 ? SIM_STOP_CONFIDENCE : SIM_STOP_ITERATIONS;
    if (n < 1 || n > SIM_MAX_CANDIDATES || S->n_unseen < 0 || S->n_unseen > SIM_MAX_UNSEEN || S->opponent_rack < 0
        || S->opponent_rack > S->n_unseen || S->opponent_rack > P->rack_size || P->rack_size > SP_MAX_RACK
        || !P->leaves || R->rows > MAX_DIM || R->cols > MAX_DIM || S->check_every < 1)
        return MG_BAD_REQUEST;
    SpState *g = malloc(sizeof *g);
    if (!g) return MG_NO_MEMORY;
    int rc = sp_state_init(g, layout, R, P, S->seed);
    if (rc == MG_OK) rc = mg_state_init(&g->mg, layout, R, board);  /* the position's, kept by the play-outs */
    if (rc) { sp_state_free(g); free(g); return rc; }
    int alive[SIM_MAX_CANDIDATES], n_alive = n;
    for (int i = 0; i < n; i++) {
        alive[i] = i;
        memset(c[i].sums, 0, sizeof c[i].sums);
        c[i].iterations = c[i].pruned = 0;
    }
    uint8_t draw[SIM_MAX_UNSEEN];
    while (n_alive > 1 && *iterations < S->iterations) {
        if (S->deadline > 0 && now() > S->deadline) { *stopped = SIM_STOP_TIME; break; }
        rc = iterate(g, board, c, alive, n_alive, S, draw);
        if (rc == MG_TIMED_OUT) { *stopped = SIM_STOP_TIME; rc = MG_OK; break; }
        if (rc) break;
        if (S->draws) memcpy(S->draws + (size_t)*iterations * S->n_unseen, draw, (size_t)S->n_unseen);
        ++*iterations;
        if (*iterations >= S->min_iterations && *iterations % S->check_every == 0) {
            n_alive = prune(c, alive, n_alive, S->z);
            if (n_alive == 1) *stopped = SIM_STOP_CONFIDENCE;
        }
    }
    sp_state_free(g);
    free(g);
    return rc;
}
