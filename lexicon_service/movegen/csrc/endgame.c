/* Exact endgames (endgame.h): negamax with alpha-beta over every play and the pass, a transposition
 * table, iterative deepening, a deadline. The position (board, both racks, the Zobrist key) is changed
 * in place and put back per ply; the plays of a node come from mg_generate. No Python here. */
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "endgame.h"
#include "word_prune.h"

#define INF (1 << 29)
#define OUT_FIRST (1 << 24)    /* ordering: a play that goes out before any other */
#define TT_FIRST (1 << 26)     /* ordering: the table's best move before everything */
#define SELECT_FIRST 6         /* moves picked by selection before the rest are sorted */
#define TIME_EVERY 256         /* nodes between two looks at the clock */
#define EG_DEEPEN_FROM 4       /* past this depth, two plies more per iteration: the depths in between cost about
                                  as much as the next and settle nothing */

enum { EXACT = 0, LOWER = 1, UPPER = 2 };

typedef struct {
    uint64_t key;
    int32_t value, best;
    int8_t depth;
    uint8_t flag, resolved, used;
} Entry;

/* Search order of a node's moves: estimates (the table's move first, then plays that go out by their
 * final value, then score plus three a tile played), the pass the index EG_PASS. */
typedef struct { int32_t est, index; } Order;

typedef struct {
    const uint32_t *layout;
    const MgRules *R;
    const EgParams *P;
    uint8_t board[MAX_DIM * MAX_DIM];
    uint8_t rack[2][MAX_TILES + 1];  /* by side: 0 the root's mover, 1 the other */
    int n_rack[2], worth[2];         /* tiles and their points, by side */
    uint64_t board_key, rack_key[2][2]; /* rack_key[side][role]: role 0 on turn, 1 waiting */
    uint32_t *pruned;                /* the endgame's own word graph (word_prune.h), or NULL: `layout` */
    MgState state;                   /* the generator's tables of `board`, moved on by each play and back */
    MgBuffer buffer[EG_MAX_PLIES + 2]; /* by ply: the node's plays; the last for the principal line */
    const MgMove *path[EG_MAX_PLIES + 1]; /* by ply: the play made from it (NULL: a pass) */
    int synced;                      /* the plays of path[0 .. synced - 1] are on `state` too: a node's
                                        state is brought up to date only when it generates (most nodes
                                        are leaves or end in the table, and never do) */
    Entry *table;
    uint64_t mask;
    Order *order[EG_MAX_PLIES + 1];     /* by ply: the search order of the node's moves (grown, kept) */
    size_t order_cap[EG_MAX_PLIES + 1];
    int ply;
    long long nodes, cuts;
    double cpu_end;                  /* CLOCK_THREAD_CPUTIME_ID seconds at which to stop */
    int stop, error;
} Search;

static uint64_t mix(uint64_t z) {
    z += 0x9E3779B97F4A7C15ull;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

static uint64_t square_code(int square, uint8_t tile) { return mix(0x100000000ull + (uint64_t)square * 256 + tile); }
static uint64_t rack_code(int role, int tile, int count) {
    return count ? mix(0x200000000ull + (uint64_t)role * 4096 + (uint64_t)tile * 64 + (uint64_t)count) : 0;
}
static uint64_t passes_code(int passes) { return passes ? mix(0x300000000ull + (uint64_t)passes) : 0; }

static uint64_t node_key(const Search *s, int side, int passes) {
    return s->board_key ^ s->rack_key[side][0] ^ s->rack_key[1 - side][1] ^ passes_code(passes);
}

static int tile_points(const Search *s, int tile) { return tile ? s->R->points[tile] : s->P->blank_points; }

static void rack_take(Search *s, int side, int tile) {
    int c = s->rack[side][tile];
    for (int role = 0; role < 2; role++) s->rack_key[side][role] ^= rack_code(role, tile, c) ^ rack_code(role, tile, c - 1);
    s->rack[side][tile]--;
    s->n_rack[side]--;
    s->worth[side] -= tile_points(s, tile);
}

static void rack_give(Search *s, int side, int tile) {
    int c = s->rack[side][tile];
    for (int role = 0; role < 2; role++) s->rack_key[side][role] ^= rack_code(role, tile, c) ^ rack_code(role, tile, c + 1);
    s->rack[side][tile]++;
    s->n_rack[side]++;
    s->worth[side] += tile_points(s, tile);
}

static int square_of(const Search *s, const MgMove *m, int i) {
    return m->dir ? (m->start + i) * s->R->cols + m->line : m->line * s->R->cols + m->start + i;
}

/* Put the play's new tiles on the board and take them from the side's rack (undo: `back`). */
static void make_play(Search *s, int side, const MgMove *m, int back) {
    for (int i = 0; i < m->len; i++) {
        uint8_t t = m->tiles[i];
        if (!(t & SQ_NEW)) continue;
        int sq = square_of(s, m, i), tile = (t & SQ_BLANK) ? 0 : (t & SQ_TILE);
        uint8_t face = t & (SQ_TILE | SQ_BLANK);
        s->board_key ^= square_code(sq, face);
        s->board[sq] = back ? 0 : face;
        if (back) rack_give(s, side, tile); else rack_take(s, side, tile);
    }
}

/* The mover's end-of-game adjustment less the other's (went_out: the mover emptied their rack). */
static int end_value(const Search *s, int side, int went_out) {
    int mine = s->worth[side], theirs = s->worth[1 - side];
    const EgParams *P = s->P;
    if (went_out) return P->out_multiplier * theirs + (P->out_twice || !P->subtract_own ? 0 : theirs);
    return P->subtract_own ? theirs - mine : 0;
}

static double clock_seconds(clockid_t clock) {
    struct timespec ts;
    clock_gettime(clock, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

static void count_node(Search *s) {
    s->nodes++;
    if ((s->nodes - 1) % TIME_EVERY) return;  /* the first node too: a limit already passed stops at once */
    const EgParams *P = s->P;
    if ((P->deadline > 0 && clock_seconds(CLOCK_MONOTONIC) > P->deadline)
        || (P->cpu_seconds > 0 && clock_seconds(CLOCK_THREAD_CPUTIME_ID) > s->cpu_end)
        || (P->max_nodes > 0 && s->nodes >= P->max_nodes))
        s->stop = 1;
}

/* The generator's state up to the current node: the plays since the last node that generated. */
static int sync_state(Search *s) {
    for (; s->synced < s->ply; s->synced++) {
        const MgMove *m = s->path[s->synced];
        int rc = m ? mg_state_play(&s->state, m) : MG_OK;
        if (rc) return rc;
    }
    return MG_OK;
}

/* Undo of the current ply's play on the generator's state, if a node below brought it there. */
static void unsync_state(Search *s) {
    if (s->synced <= s->ply) return;
    const MgMove *m = s->path[s->ply];
    if (m && mg_state_unplay(&s->state, m)) s->error = MG_BAD_REQUEST, s->stop = 1;
    s->synced = s->ply;
}

static int generate(Search *s, int side, MgResult *res) {
    MgRequest q;
    memset(&q, 0, sizeof q);
    q.board = s->board;
    memcpy(q.rack, s->rack[side], MAX_TILES + 1);
    q.mode = MG_LIST;
    q.deadline = s->P->deadline;
    int rc = s->ply <= EG_MAX_PLIES ? sync_state(s) : MG_OK;
    if (!rc) rc = mg_generate_state(&s->state, &q, &s->buffer[s->ply], res);
    if (rc == MG_TIMED_OUT) s->stop = 1;
    else if (rc) s->error = rc, s->stop = 1;
    return rc;
}

static int order_cmp(const void *x, const void *y) {
    const Order *a = x, *b = y;
    if (a->est != b->est) return a->est > b->est ? -1 : 1;
    return a->index - b->index;
}

static void estimate(const Search *s, int side, const MgResult *res, int first, Order *order) {
    int n = (int)res->n_moves, theirs = s->worth[1 - side];
    for (int i = 0; i < n; i++) {
        const MgMove *m = &res->moves[i];
        int est = m->n_new == s->n_rack[side] ? OUT_FIRST + m->score + 2 * theirs : m->score + 3 * m->n_new;
        order[i] = (Order){i == first ? TT_FIRST : est, i};
    }
    order[n] = (Order){first == EG_PASS ? TT_FIRST : -INF, EG_PASS};
}

/* The k-th move to search: the best few by selection (most nodes cut early), then the rest sorted. */
static int pick(Order *order, int n, int k) {
    if (k < SELECT_FIRST) {
        int best = k;
        for (int j = k + 1; j < n; j++)
            if (order_cmp(&order[j], &order[best]) < 0) best = j;
        Order t = order[k]; order[k] = order[best]; order[best] = t;
    } else if (k == SELECT_FIRST) {
        qsort(order + k, (size_t)(n - k), sizeof(Order), order_cmp);
    }
    return order[k].index;
}

/* The table is pairs of entries: the first keeps the more valuable of the two positions last stored
 * there (proven to the end, then searched deeper), the second the other (always replaced). */
static Entry *probe(Search *s, uint64_t key) {
    Entry *pair = &s->table[key & s->mask & ~1ull];
    if (pair[0].used && pair[0].key == key) return &pair[0];
    return pair[1].used && pair[1].key == key ? &pair[1] : NULL;
}

static int worth_keeping(const Entry *a, const Entry *b) {
    return a->resolved != b->resolved ? a->resolved > b->resolved : a->depth >= b->depth;
}

static void store(Search *s, uint64_t key, int depth, int value, int flag, int best, int resolved) {
    Entry *pair = &s->table[key & s->mask & ~1ull];
    Entry e = {key, value, best, (int8_t)depth, (uint8_t)flag, (uint8_t)resolved, 1};
    if (pair[0].used && pair[0].key == key) {
        if (!pair[0].resolved || resolved) pair[0] = e;
    } else if (pair[1].used && pair[1].key == key && !worth_keeping(&e, &pair[0])) {
        pair[1] = e;
    } else if (!pair[0].used || worth_keeping(&e, &pair[0])) {
        pair[1] = pair[0];  /* over a stale entry of this key, if it was there */
        pair[0] = e;
    } else {
        pair[1] = e;
    }
}

static int negamax(Search *s, int side, int passes, int depth, int alpha, int beta);

/* This ply's order buffer of at least `n` entries, grown only past its largest node so far. */
static Order *order_buffer(Search *s, size_t n) {
    if (n > s->order_cap[s->ply]) {
        size_t cap = n < 256 ? 256 : n * 2;
        Order *grown = realloc(s->order[s->ply], cap * sizeof(Order));
        if (!grown) { s->error = MG_NO_MEMORY; s->stop = 1; return NULL; }
        s->order[s->ply] = grown;
        s->order_cap[s->ply] = cap;
    }
    return s->order[s->ply];
}

/* The mover's value of the play `m` (NULL: passing), searched `depth` - 1 plies deeper; the reply's window
 * is shifted by the play's score (the mover's value is the score less the reply's). */
static int child_value(Search *s, int side, int passes, const MgMove *m, int depth, int alpha, int beta) {
    if (!m) {
        if (passes + 1 >= s->P->passes_to_end) return end_value(s, side, 0);
        s->path[s->ply++] = NULL;
        int value = -negamax(s, 1 - side, passes + 1, depth - 1, -beta, -alpha);
        s->ply--;
        unsync_state(s);
        return value;
    }
    make_play(s, side, m, 0);
    s->path[s->ply++] = m;
    int value = s->n_rack[side] == 0 ? m->score + end_value(s, side, 1)
                                     : m->score - negamax(s, 1 - side, 0, depth - 1, m->score - beta, m->score - alpha);
    s->ply--;
    unsync_state(s);
    make_play(s, side, m, 1);
    return value;
}

/* Fail-soft alpha-beta; an entry is "resolved" when its subtree reached the end of the game everywhere
 * (no position valued at the depth limit, nor by an entry that was), so it holds at every depth. */
static int negamax(Search *s, int side, int passes, int depth, int alpha, int beta) {
    count_node(s);
    if (s->stop) return 0;
    uint64_t key = node_key(s, side, passes);
    Entry *e = probe(s, key);
    int first = EG_NO_MOVE;
    if (e) {
        first = e->best;
        if ((e->resolved || e->depth >= depth)
            && (e->flag == EXACT || (e->flag == LOWER && e->value >= beta) || (e->flag == UPPER && e->value <= alpha))) {
            if (!e->resolved) s->cuts++;
            return e->value;
        }
    }
    if (depth == 0) {
        s->cuts++;
        return s->worth[1 - side] - s->worth[side];
    }
    MgResult res;
    if (generate(s, side, &res)) return 0;
    int n = (int)res.n_moves, alpha0 = alpha, best_value = -INF, best_move = EG_NO_MOVE;
    long long cuts_before = s->cuts;
    Order *order = order_buffer(s, (size_t)n + 1);
    if (!order) return 0;
    if (first >= n) first = EG_NO_MOVE;
    estimate(s, side, &res, first, order);
    if (!n) depth++;  /* a forced pass costs no depth: a player left without a play doubles a line's length */
    for (int k = 0; k <= n && !s->stop; k++) {
        int i = pick(order, n + 1, k);
        const MgMove *m = i == EG_PASS ? NULL : &res.moves[i];
        int value;
        if (k == 0 || beta - alpha <= 1) {
            value = child_value(s, side, passes, m, depth, alpha, beta);
        } else {  /* principal variation search: prove the move no better, re-search the few that are */
            value = child_value(s, side, passes, m, depth, alpha, alpha + 1);
            if (value > alpha && value < beta && !s->stop) value = child_value(s, side, passes, m, depth, alpha, beta);
        }
        if (s->stop) break;
        if (value > best_value) { best_value = value; best_move = i; }
        if (value > alpha) alpha = value;
        if (alpha >= beta) break;
    }
    if (s->stop) return 0;
    int flag = best_value <= alpha0 ? UPPER : best_value >= beta ? LOWER : EXACT;
    store(s, key, depth, best_value, flag, best_move, s->cuts == cuts_before);
    return best_value;
}

/* The best sequence the table holds from the root (at most `depth` plies), into `out`. */
static void principal_line(Search *s, int passes, int depth, EgResult *out) {
    Search copy = *s;
    copy.ply = EG_MAX_PLIES + 1;
    int side = 0;
    out->n_plies = 0;
    while (out->n_plies < depth && out->n_plies < EG_MAX_PLIES) {  /* exact: to the end (forced passes) */
        Entry *e = probe(&copy, node_key(&copy, side, passes));
        if (!e || e->best == EG_NO_MOVE) break;
        EgPly *ply = &out->plies[out->n_plies];
        memset(ply, 0, sizeof *ply);
        if (e->best == EG_PASS) {
            ply->is_pass = 1;
            out->n_plies++;
            if (++passes >= copy.P->passes_to_end) break;
            side = 1 - side;
            continue;
        }
        MgResult res;
        copy.stop = 0;
        if (generate(&copy, side, &res)) break;
        int found = e->best < (int)res.n_moves;
        if (found) ply->move = res.moves[e->best];
        if (!found) break;
        out->n_plies++;
        make_play(&copy, side, &ply->move, 0);
        if (mg_state_play(&copy.state, &ply->move)) break;
        if (!copy.n_rack[side]) break;
        side = 1 - side;
        passes = 0;
    }
    s->buffer[EG_MAX_PLIES + 1] = copy.buffer[EG_MAX_PLIES + 1];  /* grown in the copy: freed with s */
}

static int check_request(const MgRules *R, const EgParams *P, const uint8_t *board, const uint8_t *mover,
                         const uint8_t *other, int passes) {
    if (R->rows < 1 || R->cols < 1 || R->rows > MAX_DIM || R->cols > MAX_DIM || P->passes_to_end < 1
        || P->max_depth < 1 || P->max_depth > EG_MAX_PLIES || P->table_bits < 10 || P->table_bits > 26
        || P->out_multiplier < 0 || P->out_multiplier > 2 || passes < 0 || passes >= P->passes_to_end)
        return MG_BAD_REQUEST;
    for (int i = 0; i < R->rows * R->cols; i++)
        if (board[i] && ((board[i] & SQ_NEW) || !(board[i] & SQ_TILE) || (board[i] & SQ_TILE) > R->n_tiles))
            return MG_BAD_REQUEST;
    for (int t = R->n_tiles + 1; t <= MAX_TILES; t++)
        if (mover[t] || other[t]) return MG_BAD_REQUEST;
    return MG_OK;
}

static void load_position(Search *s, const uint8_t *board, const uint8_t *mover, const uint8_t *other) {
    int squares = s->R->rows * s->R->cols;
    memcpy(s->board, board, (size_t)squares);
    for (int i = 0; i < squares; i++)
        if (board[i]) s->board_key ^= square_code(i, board[i]);
    const uint8_t *racks[2] = {mover, other};
    for (int side = 0; side < 2; side++)
        for (int t = 0; t <= MAX_TILES; t++)
            for (int k = 0; k < racks[side][t]; k++) rack_give(s, side, t);
}

/* The depth after `depth`: one more up to EG_DEEPEN_FROM, then two, but never past `max_depth` (which is
 * always searched, odd or even); past max_depth when depth is max_depth, so the loop ends. */
static int next_depth(int depth, int max_depth) {
    int next = depth + (depth < EG_DEEPEN_FROM ? 1 : 2);
    return depth < max_depth && next > max_depth ? max_depth : next;
}

int eg_solve(const uint32_t *layout, const MgRules *R, const EgParams *P, const uint8_t *board,
             const uint8_t *mover, const uint8_t *other, int passes, EgResult *out) {
    memset(out, 0, sizeof *out);
    int rc = check_request(R, P, board, mover, other, passes);
    if (rc) return rc;
    Search *s = calloc(1, sizeof(Search));
    if (!s) return MG_NO_MEMORY;
    s->layout = layout; s->R = R; s->P = P;
    s->cpu_end = clock_seconds(CLOCK_THREAD_CPUTIME_ID) + P->cpu_seconds;
    s->mask = (1ull << P->table_bits) - 1;
    s->table = calloc((size_t)s->mask + 1, sizeof(Entry));
    if (!s->table) { free(s); return MG_NO_MEMORY; }
    load_position(s, board, mover, other);
    if (P->prune_words) {
        size_t n_words;
        rc = wp_endgame_layout(layout, R, board, mover, other, &s->pruned, &n_words, &out->words);
        if (rc) { free(s->table); free(s); return rc == GRAPH_NO_MEMORY ? MG_NO_MEMORY : MG_TOO_MANY; }
        s->layout = s->pruned;
    }
    rc = mg_state_init(&s->state, s->layout, R, s->board);
    if (rc) { free(s->pruned); free(s->table); free(s); return rc; }
    rc = EG_NO_RESULT;
    for (int depth = 1; depth <= P->max_depth; depth = next_depth(depth, P->max_depth)) {
        long long cuts = s->cuts;
        int value = negamax(s, 0, passes, depth, -INF, INF);
        if (s->error) { rc = s->error; break; }
        if (s->stop) break;
        rc = EG_OK;
        out->value = value; out->depth = depth; out->exact = s->cuts == cuts;
        principal_line(s, passes, out->exact ? EG_MAX_PLIES : depth, out);
        if (out->exact) break;
    }
    out->nodes = s->nodes;
    for (int i = 0; i <= EG_MAX_PLIES; i++) free(s->order[i]);
    for (int i = 0; i < EG_MAX_PLIES + 2; i++) mg_buffer_free(&s->buffer[i]);
    free(s->pruned);
    free(s->table);
    free(s);
    return rc;
}
