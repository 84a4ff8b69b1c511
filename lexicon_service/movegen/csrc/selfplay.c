/* Self-play games in C (selfplay.h): the bag, racks, board and scores of a game of computer players,
 * each move found by mg_generate. No Python here. */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "selfplay.h"


/* splitmix64: a small, fast, seedable generator (the games are reproducible from the seed). */
uint64_t sp_next_random(uint64_t *state) {
    uint64_t z = (*state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

void sp_shuffle(uint8_t *tiles, int n, uint64_t *state) {
    for (int i = n - 1; i > 0; i--) {
        int j = (int)(sp_next_random(state) % (uint64_t)(i + 1));
        uint8_t t = tiles[i]; tiles[i] = tiles[j]; tiles[j] = t;
    }
}

static void sort_tiles(uint8_t *t, int n) {
    for (int i = 1; i < n; i++) {
        uint8_t v = t[i];
        int j = i;
        while (j > 0 && t[j - 1] > v) { t[j] = t[j - 1]; j--; }
        t[j] = v;
    }
}

uint64_t sp_leave_key(const uint8_t *tiles, int n) {
    uint8_t t[SP_MAX_RACK];
    memcpy(t, tiles, (size_t)n);
    sort_tiles(t, n);
    uint64_t key = (uint64_t)n;
    for (int i = 0; i < n; i++) key = (key << 6) | t[i];
    return key;
}

double sp_leave_value(const SpLeaves *L, const uint8_t *tiles, int n) {
    uint64_t key = sp_leave_key(tiles, n);
    size_t lo = 0, hi = L->n_entries;
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        if (L->keys[mid] < key) lo = mid + 1; else hi = mid;
    }
    if (lo < L->n_entries && L->keys[lo] == key) return L->values[lo];
    double v = L->size[n];
    for (int i = 0; i < n; i++) {
        v += L->tile[tiles[i]];
        for (int j = i + 1; j < n; j++) {
            uint8_t a = tiles[i], b = tiles[j];
            v += a <= b ? L->pair[a][b] : L->pair[b][a];
        }
    }
    return v;
}

typedef SpState Game;

static int rack_tiles(const uint8_t *counts, uint8_t *out) {
    int n = 0;
    for (int t = 0; t <= MAX_TILES; t++)
        for (int k = 0; k < counts[t] && n < SP_MAX_RACK; k++) out[n++] = (uint8_t)t;
    return n;
}

int sp_rack_count(const uint8_t *counts) {
    int n = 0;
    for (int t = 0; t <= MAX_TILES; t++) n += counts[t];
    return n;
}

void sp_draw(Game *g, int player) {
    while (sp_rack_count(g->racks[player]) < g->P->rack_size && g->n_bag > 0) g->racks[player][g->bag[--g->n_bag]]++;
}

/* The tiles a play takes from the rack (0 a blank). */
static int used_tiles(const MgMove *m, uint8_t *out) {
    int n = 0;
    for (int i = 0; i < m->len; i++)
        if (m->tiles[i] & SQ_NEW) out[n++] = (m->tiles[i] & SQ_BLANK) ? 0 : (m->tiles[i] & SQ_TILE);
    return n;
}

/* The rack (as counts) less `used`, as sorted tiles. */
static int leave_after(const uint8_t *counts, const uint8_t *used, int n_used, uint8_t *out) {
    uint8_t left[MAX_TILES + 1];
    memcpy(left, counts, sizeof left);
    for (int i = 0; i < n_used; i++) left[used[i]]--;
    return rack_tiles(left, out);
}

/* The best `limit` plays of the player's rack on the game's state; they stay in g->found until the next
 * search (not freed by the caller). */
static int generate(Game *g, int player, size_t limit, const MgEquity *equity, MgResult *res) {
    MgRequest q = {0};
    q.board = g->board;
    memcpy(q.rack, g->racks[player], MAX_TILES + 1);
    q.mode = MG_LIST;
    q.limit = limit;
    q.deadline = g->P->deadline;
    q.equity = equity;
    return mg_generate_state(&g->mg, &q, &g->found, res);
}

/* The leave values of one rack's subsets, each looked up once (by the mask of the rack's tiles kept). */
typedef struct {
    const SpLeaves *leaves;
    uint8_t rack[SP_MAX_RACK];                 /* ascending */
    int n;
    uint8_t known[1 << SP_MAX_RACK];
    double value[1 << SP_MAX_RACK];
} LeaveCache;

static double cached_leave_value(void *ctx, const uint8_t *used, int n_used) {
    LeaveCache *c = ctx;
    unsigned gone = 0;  /* the last copies of a tile go first: the kept ones are the first copies */
    for (int u = 0; u < n_used; u++)
        for (int i = c->n - 1; i >= 0; i--)
            if (!(gone & (1u << i)) && c->rack[i] == used[u]) { gone |= 1u << i; break; }
    if (!c->known[gone]) {
        uint8_t kept[SP_MAX_RACK];
        int nk = 0;
        for (int i = 0; i < c->n; i++) if (!(gone & (1u << i))) kept[nk++] = c->rack[i];
        c->value[gone] = sp_leave_value(c->leaves, kept, nk);
        c->known[gone] = 1;
    }
    return c->value[gone];
}

/* Every leave of the rack looked up into the cache (each set of tiles once: of equal tiles, the first
 * copies kept) and the most a leave of each size is worth into eq. */
static void all_leaves(LeaveCache *c, MgEquity *eq) {
    for (int k = 0; k <= MAX_DIM; k++) eq->max_leave_kept[k] = -1e300;
    eq->max_leave = -1e300;
    for (unsigned gone = 1; gone < (1u << c->n); gone++) {
        int canonical = 1;
        for (int i = 1; i < c->n && canonical; i++)
            canonical = !(c->rack[i] == c->rack[i - 1] && (gone & (1u << (i - 1))) && !(gone & (1u << i)));
        if (!canonical) continue;
        uint8_t kept[SP_MAX_RACK];
        int nk = 0;
        for (int i = 0; i < c->n; i++) if (!(gone & (1u << i))) kept[nk++] = c->rack[i];
        double v = c->value[gone] = sp_leave_value(c->leaves, kept, nk);
        c->known[gone] = 1;
        if (v > eq->max_leave_kept[nk]) eq->max_leave_kept[nk] = v;
        if (v > eq->max_leave) eq->max_leave = v;
    }
    for (int k = c->n; k <= MAX_DIM; k++) eq->max_leave_kept[k] = eq->max_leave;  /* no play keeps them */
}

/* The best play by score plus leave value among all plays, or among the top `play_limit` by score when
 * the parameters set one (the search stops once no play left can change it); -1: no play. */
static int best_play_by_equity(Game *g, int player, const uint8_t *rack, int n, MgMove *best, double *best_equity) {
    LeaveCache cache;
    cache.leaves = g->P->leaves;
    memcpy(cache.rack, rack, (size_t)n);
    cache.n = n;
    memset(cache.known, 0, (size_t)1 << n);
    MgEquity eq;
    eq.leave_value = cached_leave_value;
    eq.ctx = &cache;
    all_leaves(&cache, &eq);
    MgResult res;
    int rc = generate(g, player, g->P->play_limit, &eq, &res);
    if (rc) return rc;
    if (!res.n_moves) return -1;
    *best = res.moves[0];
    *best_equity = res.equity;
    return 0;
}

/* The exchange of the highest leave value into `given`, when it beats `*best_equity` (`have`: there is
 * one to beat, strictly); 1 when one does. */
static int best_exchange(Game *g, const uint8_t *rack, int n, double *best_equity, int have,
                         uint8_t *given, int *n_given) {
    int better = 0;
    for (unsigned keep = 0; keep < (1u << n) - 1; keep++) {  /* the whole rack kept is no exchange */
        uint8_t kept[SP_MAX_RACK], out[SP_MAX_RACK];
        int nk = 0, ng = 0;
        for (int i = 0; i < n; i++) {
            if (keep & (1u << i)) kept[nk++] = rack[i]; else out[ng++] = rack[i];
        }
        if (ng > g->n_bag) continue;
        double e = sp_leave_value(g->P->leaves, kept, nk);
        if (!have || e > *best_equity) {
            *best_equity = e; have = 1; better = 1;
            memcpy(given, out, (size_t)ng); *n_given = ng;
        }
    }
    return better;
}

/* The tiles a player without a play exchanges: as many as the bag holds, highest points first. */
static int forced_exchange(Game *g, const uint8_t *rack, int n, uint8_t *given) {
    int count = n < g->n_bag ? n : g->n_bag;
    uint8_t order[SP_MAX_RACK];
    memcpy(order, rack, (size_t)n);
    for (int i = 1; i < n; i++) {          /* by points, highest first; a blank (0 points) last */
        uint8_t v = order[i];
        int j = i;
        while (j > 0 && (order[j - 1] == 0 ? -1 : g->R->points[order[j - 1]]) < (v == 0 ? -1 : g->R->points[v])) {
            order[j] = order[j - 1]; j--;
        }
        order[j] = v;
    }
    memcpy(given, order, (size_t)count);
    sort_tiles(given, count);
    return count;
}

static int may_exchange_now(const Game *g, int scoreless) {
    return scoreless < g->P->players && g->P->exchange_min_bag >= 0 && g->n_bag > 0
           && g->n_bag >= g->P->exchange_min_bag;
}

/* The move of `player` into `turn` (kind, score, play or tiles given). */
static int choose(Game *g, int player, int scoreless, SpTurn *turn) {
    uint8_t rack[SP_MAX_RACK];
    int n = rack_tiles(g->racks[player], rack), rc, have_play;
    int exchange_ok = may_exchange_now(g, scoreless);
    double equity = 0;
    if (g->P->level[player] == SP_EQUITY && g->n_bag > 0) {
        rc = best_play_by_equity(g, player, rack, n, &turn->move, &equity);
        if (rc > 0 || rc < -1) return rc;
        have_play = rc == 0;
        int ng = 0;
        if (exchange_ok && best_exchange(g, rack, n, &equity, have_play, turn->given, &ng)) {
            turn->kind = SP_EXCHANGE; turn->n_given = (uint8_t)ng; turn->score = 0;
            return 0;
        }
    } else {
        MgResult res;
        if ((rc = generate(g, player, 1, NULL, &res))) return rc;
        have_play = res.n_moves > 0;
        if (have_play) turn->move = res.moves[0];
    }
    if (have_play) { turn->kind = SP_PLAY; turn->score = turn->move.score; return 0; }
    int ng = exchange_ok ? forced_exchange(g, rack, n, turn->given) : 0;
    turn->kind = ng ? SP_EXCHANGE : SP_PASS;
    turn->n_given = (uint8_t)ng;
    turn->score = 0;
    return 0;
}

int sp_apply_play(Game *g, int player, const MgMove *m) {
    int cols = g->R->cols;
    for (int i = 0; i < m->len; i++) {
        uint8_t t = m->tiles[i];
        if (!(t & SQ_NEW)) continue;
        int row = m->dir ? m->start + i : m->line, col = m->dir ? m->line : m->start + i;
        g->board[row * cols + col] = t & (SQ_TILE | SQ_BLANK);
        g->racks[player][(t & SQ_BLANK) ? 0 : (t & SQ_TILE)]--;
    }
    return mg_state_play(&g->mg, m);
}

static void apply_exchange(Game *g, int player, const uint8_t *given, int n) {
    for (int i = 0; i < n; i++) g->racks[player][given[i]]--;
    for (int i = 0; i < n; i++) g->racks[player][g->bag[--g->n_bag]]++;
    for (int i = 0; i < n; i++) g->bag[g->n_bag++] = given[i];
    sp_shuffle(g->bag, g->n_bag, &g->rng);
}

int sp_turn(Game *g, int player, int scoreless, SpTurn *turn) {
    memset(turn, 0, sizeof *turn);
    turn->player = (uint8_t)player;
    turn->bag_before = (uint8_t)(g->n_bag > 255 ? 255 : g->n_bag);
    turn->n_rack = (uint8_t)rack_tiles(g->racks[player], turn->rack);
    int rc = choose(g, player, scoreless, turn);
    if (rc) return rc;
    uint8_t used[SP_MAX_RACK];
    int n_used = turn->kind == SP_PLAY ? used_tiles(&turn->move, used) : turn->kind == SP_EXCHANGE ? turn->n_given : 0;
    if (turn->kind == SP_EXCHANGE) memcpy(used, turn->given, turn->n_given);
    turn->n_leave = (uint8_t)leave_after(g->racks[player], used, n_used, turn->leave);
    if (turn->kind == SP_PLAY) {
        if ((rc = sp_apply_play(g, player, &turn->move))) return rc;
        sp_draw(g, player);
    } else if (turn->kind == SP_EXCHANGE) {
        apply_exchange(g, player, turn->given, turn->n_given);
    }
    return MG_OK;
}

int sp_state_init(Game *g, const uint32_t *layout, const MgRules *R, const SpParams *P, uint64_t seed) {
    memset(g, 0, offsetof(Game, mg));
    g->found = (MgBuffer){0};
    g->layout = layout; g->R = R; g->P = P; g->rng = seed;
    return mg_state_init(&g->mg, layout, R, g->board);
}

void sp_state_free(Game *g) { mg_buffer_free(&g->found); }

static int setup_game(Game *g, const uint32_t *layout, const MgRules *R, const SpParams *P, uint64_t seed) {
    if (P->players < 2 || P->players > SP_MAX_PLAYERS || P->rack_size < 1 || P->rack_size > SP_MAX_RACK
        || R->rows < 1 || R->cols < 1 || R->rows > MAX_DIM || R->cols > MAX_DIM)
        return MG_BAD_REQUEST;
    for (int p = 0; p < P->players; p++)
        if (P->level[p] == SP_EQUITY && !P->leaves) return MG_BAD_REQUEST;
    int rc = sp_state_init(g, layout, R, P, seed);
    if (rc) return rc;
    for (int t = 0; t <= MAX_TILES; t++)
        for (int k = 0; k < R->bag[t]; k++) {
            if (g->n_bag == (int)sizeof g->bag) return MG_BAD_REQUEST;
            g->bag[g->n_bag++] = (uint8_t)t;
        }
    sp_shuffle(g->bag, g->n_bag, &g->rng);
    for (int p = 0; p < P->players; p++) sp_draw(g, p);
    return MG_OK;
}

static int add_turn(SpGame *out, size_t *cap, const SpTurn *turn) {
    if (out->n_turns == *cap) {
        size_t c = *cap ? *cap * 2 : 64;
        SpTurn *t = realloc(out->turns, c * sizeof(SpTurn));
        if (!t) return MG_NO_MEMORY;
        out->turns = t; *cap = c;
    }
    out->turns[out->n_turns++] = *turn;
    return MG_OK;
}

int sp_play_game(const uint32_t *layout, const MgRules *R, const SpParams *P, uint64_t seed, SpGame *out) {
    memset(out, 0, sizeof *out);
    out->went_out = -1;
    Game *g = malloc(sizeof(Game));
    if (!g) return MG_NO_MEMORY;
    g->found = (MgBuffer){0};
    int rc = setup_game(g, layout, R, P, seed), scoreless = 0, player = 0;
    size_t cap = 0;
    while (rc == MG_OK && scoreless < 2 * P->players) {
        SpTurn turn;
        if ((rc = sp_turn(g, player, scoreless, &turn))) break;
        if (turn.kind == SP_PLAY) {
            out->scores[player] += turn.score;
            scoreless = turn.score ? 0 : scoreless + 1;
        } else {
            scoreless++;
        }
        if ((rc = add_turn(out, &cap, &turn))) break;
        if (turn.kind == SP_PLAY && sp_rack_count(g->racks[player]) == 0) { out->went_out = player; break; }
        player = (player + 1) % P->players;
    }
    memcpy(out->racks, g->racks, sizeof out->racks);
    sp_state_free(g);
    free(g);
    if (rc) sp_game_free(out);
    return rc;
}

void sp_game_free(SpGame *game) {
    free(game->turns);
    game->turns = NULL;
    game->n_turns = 0;
}
