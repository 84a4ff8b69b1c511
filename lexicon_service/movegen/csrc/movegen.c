/* Move generation (Gordon 1994 over the GADDAG's search layout): cross-check sets, anchors, the
 * "shadow" bound of each anchor for top-k, the recursion, the Kris Kros duplicate-word rule. No Python
 * here: movegen.h is its interface. docs/movegen.md describes the search. */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "movegen.h"

typedef MgMove MoveRec;
typedef MgRun Run;

/* Gen.step flags of a square of the anchor's line: leftwards, a word may end here (nothing just left,
 * nothing just right of the anchor), the search may go on left, or take the separator (nothing just
 * left, a square right of the anchor); rightwards, a word may end here, the search may go on right. */
enum { STEP_END_LEFTWARD = 1, STEP_LEFT = 2, STEP_SEPARATOR = 4, STEP_END_RIGHTWARD = 8, STEP_RIGHT = 16 };

/* One search: the request over a board's state (MgState, movegen.h), which it only reads. */
typedef struct {
    const uint32_t *graph;  /* the search layout */
    const MgState *st;
    int rows, cols;
    int n_lines[2], line_len[2];
    uint8_t pts[MAX_TILES + 1];
    int n_tiles;
    uint64_t blank_mask;
    uint8_t rack[MAX_TILES + 1];
    uint64_t rack_mask;  /* tiles (not blanks) left on the rack */
    int bingo_tiles, bingo_bonus, min_len, first_play, first_min_tiles, forbid_dup;
    int min_main_len;
    uint8_t must_use[MAX_TILES + 1];
    int has_must_use;
    uint8_t must_contain[MAX_DIM];
    int must_contain_len;
    /* the line being searched */
    int dir, line, len, anchor_pos;
    int right_open;         /* no board tile right of the anchor: a word may end there */
    /* the anchor's line as the recursion reads it, one load a field (set_anchor) */
    uint64_t allowed[MAX_DIM];   /* lx, at the anchor its ax */
    int16_t xs[MAX_DIM];
    uint8_t lm[MAX_DIM], wm[MAX_DIM];
    uint8_t step[MAX_DIM];       /* STEP_* flags: where a word may end and where the search may go on */
    int prep_line, prep_anchor, prep_steps;  /* what set_anchor last copied, each + 1 (0: nothing yet) */
    uint8_t step_sets[4][MAX_DIM];  /* the line's steps for each value of the anchor's two flags */
    int step_sets_made;             /* which of them are made, a bit each */
    uint8_t by_points[MAX_TILES + 1];  /* the rack's tiles (not blanks), most points first (the bounds) */
    int n_by_points;
    const uint8_t *L_sq, *L_lm, *L_wm, *L_anchor;
    const uint64_t *L_cc, *L_lx, *L_ax;
    const int16_t *L_xs;
    uint8_t strip[MAX_DIM];
    /* output */
    int mode; /* MgMode: 0 collect, 1 count, 2 stop at the first, 3 keep the nth */
    long long nth;
    int stop;
    long long count;
    MoveRec *moves;
    size_t n_moves, cap_moves, limit;
    int heap;
    size_t max_moves;  /* without a limit: more plays than this is an error */
    int too_many;
    int oom;
    double deadline;
    int timed_out;
    /* by equity: the best play by score + leave value among those kept (`have_best`) */
    const MgEquity *eq;
    int rack_tiles;  /* on the request's rack: a play of n new tiles keeps rack_tiles - n */
    int have_best;
    MoveRec best;
    double best_equity;
} Gen;

/* Order of the answer: score descending, then across before down, row, column, tiles. */
int mg_move_cmp(const MoveRec *a, const MoveRec *b) {
    if (a->score != b->score) return a->score > b->score ? -1 : 1;
    if (a->dir != b->dir) return a->dir < b->dir ? -1 : 1;
    int ar = a->dir ? a->start : a->line, br = b->dir ? b->start : b->line;
    if (ar != br) return ar < br ? -1 : 1;
    int ac = a->dir ? a->line : a->start, bc = b->dir ? b->line : b->start;
    if (ac != bc) return ac < bc ? -1 : 1;
    if (a->len != b->len) return a->len < b->len ? -1 : 1;
    return memcmp(a->tiles, b->tiles, a->len);
}

static int rec_qsort_cmp(const void *a, const void *b) { return mg_move_cmp(a, b); }

/* The heap keeps the worst of the kept moves at the top. */
static void heap_sift_down(MoveRec *h, size_t n, size_t i) {
    for (;;) {
        size_t l = 2 * i + 1, r = l + 1, m = i;
        if (l < n && mg_move_cmp(&h[l], &h[m]) > 0) m = l;
        if (r < n && mg_move_cmp(&h[r], &h[m]) > 0) m = r;
        if (m == i) return;
        MoveRec t = h[i]; h[i] = h[m]; h[m] = t;
        i = m;
    }
}

static void heap_sift_up(MoveRec *h, size_t i) {
    while (i > 0) {
        size_t p = (i - 1) / 2;
        if (mg_move_cmp(&h[i], &h[p]) <= 0) return;
        MoveRec t = h[i]; h[i] = h[p]; h[p] = t;
        i = p;
    }
}
static const uint8_t *word_tiles(Gen *g, int start, int end, uint8_t *out) {
    for (int p = start; p <= end; p++) out[p - start] = g->L_sq[p] ? g->L_sq[p] : g->strip[p];
    return out;
}

typedef struct { uint8_t dir, line, start, end; uint8_t tiles[MAX_DIM]; } NewWord;

static int same_tiles(const uint8_t *a, const uint8_t *b, int n) {
    for (int i = 0; i < n; i++) if ((a[i] & SQ_TILE) != (b[i] & SQ_TILE)) return 0;
    return 1;
}

/* Kris Kros: would a word of this play stand twice on the board (as rules/moves.py counts it)? */
static int duplicates_word(Gen *g, int start, int end) {
    NewWord words[MAX_DIM + 1];
    int n = 0;
    NewWord *m = &words[n++];
    m->dir = (uint8_t)g->dir; m->line = (uint8_t)g->line; m->start = (uint8_t)start; m->end = (uint8_t)end;
    word_tiles(g, start, end, m->tiles);
    int od = 1 - g->dir;
    for (int p = start; p <= end; p++) {
        if (g->L_sq[p] || g->L_xs[p] < 0) continue;
        NewWord *x = &words[n++];
        x->dir = (uint8_t)od; x->line = (uint8_t)p;
        x->start = g->st->xstart[g->dir][g->line][p]; x->end = g->st->xend[g->dir][g->line][p];
        for (int q = x->start; q <= x->end; q++)
            x->tiles[q - x->start] = q == g->line ? g->strip[p] : g->st->sq[od][p][q];
    }
    for (int i = 0; i < n; i++) {
        int len = words[i].end - words[i].start + 1, count = 0;
        for (int j = 0; j < n; j++)
            if (words[j].end - words[j].start + 1 == len && same_tiles(words[i].tiles, words[j].tiles, len)) count++;
        for (int r = 0; r < g->st->n_runs; r++) {
            const Run *run = &g->st->runs[r];
            if (run->end - run->start + 1 != len || !same_tiles(words[i].tiles, run->tiles, len)) continue;
            int absorbed = 0;
            for (int j = 0; j < n && !absorbed; j++)
                absorbed = words[j].dir == run->dir && words[j].line == run->line &&
                           words[j].start <= run->start && run->end <= words[j].end;
            if (!absorbed) count++;
        }
        if (count > 1) return 1;
    }
    return 0;
}

static double now_monotonic(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

static double equity_of(const Gen *g, const MoveRec *m) {
    uint8_t used[MAX_DIM];
    int n = 0;
    for (int i = 0; i < m->len; i++)
        if (m->tiles[i] & SQ_NEW) used[n++] = (m->tiles[i] & SQ_BLANK) ? 0 : (m->tiles[i] & SQ_TILE);
    return m->score + g->eq->leave_value(g->eq->ctx, used, n);
}

/* The most the leave of a play of `n_new` tiles may be worth. */
static inline double max_leave_after(const Gen *g, int n_new) {
    int kept = g->rack_tiles - n_new;
    return kept >= 0 && kept <= MAX_DIM ? g->eq->max_leave_kept[kept] : g->eq->max_leave;
}

/* A play kept: the best by equity when it beats it (on a tie, the first in the answer's order). */
static void consider(Gen *g, const MoveRec *m) {
    if (g->have_best && m->score + max_leave_after(g, m->n_new) < g->best_equity) return;  /* cannot reach it */
    double e = equity_of(g, m);
    if (!g->have_best || e > g->best_equity || (e == g->best_equity && mg_move_cmp(m, &g->best) < 0)) {
        g->best = *m; g->best_equity = e; g->have_best = 1;
    }
}

/* The best play left the kept ones: the best by equity among those still kept. */
static void reconsider(Gen *g) {
    g->have_best = 0;
    for (size_t i = 0; i < g->n_moves; i++) consider(g, &g->moves[i]);
}

/* By equity, before the anchors of score bound `bound` and below, whose plays' equity is at most
 * `equity`: whether no play left can change the answer (none reaches its equity; among the top `limit`
 * by score, each also scores below the best, so that it cannot push the best out). */
static int equity_settled(const Gen *g, int bound, double equity) {
    return g->have_best && (!g->limit || bound < g->best.score) && equity < g->best_equity;
}

static void record(Gen *g, int start, int end, int msum, int wmul, int xtot, int n_new) {
    int len = end - start + 1;
    if (len < 2 || len < g->min_len || len < g->min_main_len) return;
    if (n_new == 1 && g->dir == 1 && g->L_xs[g->anchor_pos] >= 0) return; /* listed across */
    if (g->first_play && n_new < g->first_min_tiles) return;
    int score = msum * wmul + xtot + (n_new == g->bingo_tiles ? g->bingo_bonus : 0);
    /* by equity among all plays: one that cannot reach the best's equity is not looked at further */
    if (g->eq && !g->limit && g->have_best && score + max_leave_after(g, n_new) < g->best_equity) return;
    /* top-k with the heap full: a play scoring below the worst kept one cannot enter it (its filters
     * and tiles need not be looked at; `count` is kept for MG_COUNT and MG_ANY only) */
    if (g->heap && g->limit && g->n_moves == g->limit && score < g->moves[0].score) return;
    uint8_t tiles[MAX_DIM];
    if (g->has_must_use || g->must_contain_len || g->mode == MG_LIST || g->mode == MG_NTH) word_tiles(g, start, end, tiles);
    if (g->has_must_use) {
        uint8_t used[MAX_TILES + 1] = {0};
        for (int i = 0; i < len; i++)
            if (tiles[i] & SQ_NEW) used[(tiles[i] & SQ_BLANK) ? 0 : (tiles[i] & SQ_TILE)]++;
        for (int t = 0; t <= MAX_TILES; t++) if (used[t] < g->must_use[t]) return;
    }
    if (g->must_contain_len) {
        int k = g->must_contain_len, found = 0;
        for (int i = 0; i + k <= len && !found; i++) {
            found = 1;
            for (int j = 0; j < k; j++) if ((tiles[i + j] & SQ_TILE) != g->must_contain[j]) { found = 0; break; }
        }
        if (!found) return;
    }
    if (g->forbid_dup && duplicates_word(g, start, end)) return;
    g->count++;
    if (g->mode == MG_ANY) { g->stop = 1; return; }
    if (g->mode == MG_COUNT || (g->mode == MG_NTH && g->count - 1 != g->nth)) return;
    MoveRec rec;
    rec.score = score;
    rec.dir = (uint8_t)g->dir; rec.line = (uint8_t)g->line; rec.start = (uint8_t)start;
    rec.len = (uint8_t)len; rec.n_new = (uint8_t)n_new;
    memcpy(rec.tiles, tiles, len);
    memset(rec.tiles + len, 0, MAX_DIM - len);
    if (g->mode == MG_NTH) {
        g->moves[0] = rec;
        g->n_moves = 1;
        g->stop = 1;
        return;
    }
    if (g->eq && !g->limit) { consider(g, &rec); return; }  /* among all plays: only the best is kept */
    if (g->heap) {
        if (g->n_moves < g->limit) {
            g->moves[g->n_moves] = rec;
            heap_sift_up(g->moves, g->n_moves++);
            if (g->eq) consider(g, &rec);
        } else if (mg_move_cmp(&rec, &g->moves[0]) < 0) {
            int best_left = g->eq && g->have_best && !mg_move_cmp(&g->moves[0], &g->best);
            g->moves[0] = rec;
            heap_sift_down(g->moves, g->n_moves, 0);
            if (best_left) reconsider(g);
            else if (g->eq) consider(g, &rec);
        }
        return;
    }
    if (g->n_moves == g->max_moves) { g->too_many = 1; g->stop = 1; return; }
    if (g->n_moves == g->cap_moves) {
        size_t cap = g->cap_moves ? g->cap_moves * 2 : 1024;
        MoveRec *m = realloc(g->moves, cap * sizeof(MoveRec));
        if (!m) { g->oom = 1; g->stop = 1; return; }
        g->moves = m;
        g->cap_moves = cap;
    }
    g->moves[g->n_moves++] = rec;
}

/* The recursion in two copies: `may_stop` 0 where nothing sets g->stop during a search (top-k and
 * counting: the deadline is looked at between anchors), so that copy tests no flag per square. */
POPCNT_CLONES static void gen(Gen *g, int pos, uint32_t node, int leftward, int left, int msum, int wmul, int xtot, int n_new);
POPCNT_CLONES static void gen_nonstop(Gen *g, int pos, uint32_t node, int leftward, int left, int msum, int wmul, int xtot,
                                      int n_new);

#define GEN(may_stop) ((may_stop) ? gen : gen_nonstop)

/* Whether the search at `node` may do anything on square `pos`: a board tile is followed; an empty
 * square needs a tile of the node that the square and the rack allow (about half of the calls found
 * none: tested here, before the call). */
static inline __attribute__((always_inline)) int may_place(const Gen *g, int pos, uint32_t node) {
    return g->L_sq[pos] || (node_mask(g->graph, node) & g->allowed[pos] & (g->rack_mask | (g->rack[0] ? g->blank_mask : 0)));
}

static inline __attribute__((always_inline)) void go_on(Gen *g, int pos, uint32_t a, int leftward, int left, int msum,
                                                        int wmul, int xtot, int n_new, const int may_stop) {
    uint32_t child = a & SG_CHILD;
    unsigned step = g->step[pos];
    if (leftward) {
        if ((a & SG_ACCEPTS) && (step & STEP_END_LEFTWARD)) record(g, pos, g->anchor_pos, msum, wmul, xtot, n_new);
        if (!child || (may_stop && g->stop)) return;
        if ((step & STEP_LEFT) && may_place(g, pos - 1, child))
            GEN(may_stop)(g, pos - 1, child, 1, pos - 1, msum, wmul, xtot, n_new);
        if ((step & STEP_SEPARATOR) && !(may_stop && g->stop)) {
            uint32_t sep = (node_mask(g->graph, child) & 1) ? g->graph[child + 2] & SG_CHILD : 0;
            if (sep && may_place(g, g->anchor_pos + 1, sep)) GEN(may_stop)(g, g->anchor_pos + 1, sep, 0, pos, msum, wmul, xtot, n_new);
        }
    } else {
        if ((a & SG_ACCEPTS) && (step & STEP_END_RIGHTWARD)) record(g, left, pos, msum, wmul, xtot, n_new);
        if (child && (step & STEP_RIGHT) && !(may_stop && g->stop) && may_place(g, pos + 1, child))
            GEN(may_stop)(g, pos + 1, child, 0, left, msum, wmul, xtot, n_new);
    }
}

static inline __attribute__((always_inline)) void gen_body(Gen *g, int pos, uint32_t node, int leftward, int left,
                                                           int msum, int wmul, int xtot, int n_new, const int may_stop) {
    if (may_stop && g->stop) return;
    const uint32_t *w = g->graph;
    const uint8_t *sq = g->L_sq;
    uint8_t b = sq[pos];
    if (b) {
        /* a run of board tiles is followed here: inside the run nothing is recorded (a word ends
         * only before an empty square) and no separator is taken (the left part is not complete) */
        int step = leftward ? -1 : 1;
        for (;;) {
            uint32_t a = sg_arc(w, node, b & SQ_TILE);
            if (!a) return;
            if (!(b & SQ_BLANK)) msum += g->pts[b & SQ_TILE];
            int next = pos + step;
            if (next < 0 || next >= g->len || !(b = sq[next]) || !(node = a & SG_CHILD)) {
                go_on(g, pos, a, leftward, leftward ? pos : left, msum, wmul, xtot, n_new, may_stop);
                return;
            }
            pos = next;
        }
    }
    uint8_t *rack = g->rack;
    /* the rack's blanks and tile mask as they are here: each placement below gives back what it took */
    const int blanks = rack[0];
    const uint64_t rack_mask = g->rack_mask, blank_fits = blanks ? g->blank_mask : 0;
    uint64_t allowed = g->allowed[pos] & (rack_mask | blank_fits);
    if (!allowed) return;
    uint64_t mask = node_mask(w, node), fits = mask & allowed;
    int xs = g->xs[pos], lm = g->lm[pos], wm = g->wm[pos];
    while (fits) {
        unsigned t = (unsigned)__builtin_ctzll(fits);
        fits &= fits - 1;
        uint32_t a = w[node + 2 + popcount64(mask & ((1ull << t) - 1))];
        if ((rack_mask >> t) & 1) {
            if (!--rack[t]) g->rack_mask = rack_mask & ~(1ull << t);
            g->strip[pos] = (uint8_t)(t | SQ_NEW);
            int tp = g->pts[t] * lm;
            go_on(g, pos, a, leftward, left, msum + tp, wmul * wm, xs >= 0 ? xtot + (xs + tp) * wm : xtot, n_new + 1,
                  may_stop);
            rack[t]++;
            g->rack_mask = rack_mask;
        }
        if ((blank_fits >> t) & 1) {
            rack[0]--;
            g->strip[pos] = (uint8_t)(t | SQ_NEW | SQ_BLANK);
            go_on(g, pos, a, leftward, left, msum, wmul * wm, xs >= 0 ? xtot + xs * wm : xtot, n_new + 1, may_stop);
            rack[0]++;
        }
        if (may_stop && g->stop) break;
    }
    g->strip[pos] = 0;
}

POPCNT_CLONES static void gen(Gen *g, int pos, uint32_t node, int leftward, int left, int msum, int wmul, int xtot, int n_new) {
    gen_body(g, pos, node, leftward, left, msum, wmul, xtot, n_new, 1);
}

POPCNT_CLONES static void gen_nonstop(Gen *g, int pos, uint32_t node, int leftward, int left, int msum, int wmul, int xtot,
                                      int n_new) {
    gen_body(g, pos, node, leftward, left, msum, wmul, xtot, n_new, 0);
}

/* Tiles x such that before + x + after (runs of the other direction) is a word: the reversed
 * word in the GADDAG (reverse of after, x, reverse of before). */
POPCNT_CLONES static uint64_t cross_set(const uint32_t *w, const uint8_t *line, int pos, int lo, int hi) {
    uint32_t node = w[0];
    if (pos > lo && pos - lo >= hi - pos) {
        /* the longer part before: walk it reversed, the separator, then x and `after` per candidate
         * (each candidate then walks the shorter part) */
        for (int q = pos - 1; q >= lo; q--) {
            uint32_t a = sg_arc(w, node, line[q] & SQ_TILE);
            if (!a) return 0;
            node = a & SG_CHILD;
        }
        uint32_t s = sg_arc(w, node, SEP);
        if (!s || !(node = s & SG_CHILD)) return 0;
        uint64_t tiles = node_mask(w, node), set = 0;
        for (int k = 0; tiles; k++, tiles &= tiles - 1) {
            uint32_t a = w[node + 2 + k];
            int ok = pos == hi ? (a & SG_ACCEPTS) != 0 : 0;
            uint32_t n2 = a & SG_CHILD;
            for (int q = pos + 1; q <= hi && n2; q++) {
                uint32_t b = sg_arc(w, n2, line[q] & SQ_TILE);
                if (!b) break;
                if (q == hi) { ok = (b & SG_ACCEPTS) != 0; break; }
                n2 = b & SG_CHILD;
            }
            if (ok) set |= tiles & -tiles;
        }
        return set;
    }
    for (int q = hi; q > pos; q--) {
        uint32_t a = sg_arc(w, node, line[q] & SQ_TILE);
        if (!a) return 0;
        node = a & SG_CHILD;
    }
    if (!node) return 0;
    uint64_t tiles = node_mask(w, node), set = 0;
    for (int k = 0; tiles; k++, tiles &= tiles - 1) {
        if (tiles & 1) continue;  /* the separator */
        uint32_t a = w[node + 2 + k];
        int ok = 0;
        if (pos == lo) ok = (a & SG_ACCEPTS) != 0;
        else {
            uint32_t n2 = a & SG_CHILD;
            for (int q = pos - 1; q >= lo && n2; q--) {
                uint32_t b = sg_arc(w, n2, line[q] & SQ_TILE);
                if (!b) break;
                if (q == lo) { ok = (b & SG_ACCEPTS) != 0; break; }
                n2 = b & SG_CHILD;
            }
        }
        if (ok) set |= tiles & -tiles;
    }
    return set;
}

/* The tiles x such that x followed by the run of board tiles starting at `from` stands in some word:
 * the GADDAG's path of that run reversed from the root (the word's prefix through the run, reversed)
 * leads to a node whose tiles are exactly those x (the separator aside). */
POPCNT_CLONES static uint64_t left_extension(const uint32_t *w, const uint8_t *line, int from, int len) {
    int to = from;
    while (to + 1 < len && line[to + 1]) to++;
    uint32_t node = w[0];
    for (int q = to; q >= from; q--) {
        uint32_t a = sg_arc(w, node, line[q] & SQ_TILE);
        if (!a || !(node = a & SG_CHILD)) return 0;
    }
    return node_mask(w, node) & ~1ull;
}

/* The tiles x such that the run of board tiles ending at `to` followed by x starts some word: the
 * GADDAG's path of the run reversed from the root, then the separator (the words that begin with the
 * run, on from it). */
POPCNT_CLONES static uint64_t right_extension(const uint32_t *w, const uint8_t *line, int to) {
    uint32_t node = w[0];
    for (int q = to; q >= 0 && line[q]; q--) {
        uint32_t a = sg_arc(w, node, line[q] & SQ_TILE);
        if (!a || !(node = a & SG_CHILD)) return 0;
    }
    uint32_t s = sg_arc(w, node, SEP);
    return s && (node = s & SG_CHILD) ? node_mask(w, node) & ~1ull : 0;
}

static uint64_t all_tiles(int n_tiles) {
    return n_tiles >= MAX_TILES ? ~1ull : (1ull << (n_tiles + 1)) - 2;  /* bits 1..n_tiles */
}

/* The tables of one square in one direction: position `pos` of line `line` of direction `d`. They
 * depend only on the runs of tiles next to the square in its line and in the other direction's line. */
static void square_tables(MgState *s, int d, int line, int pos) {
    const MgRules *R = s->rules;
    int od = 1 - d, len = d ? s->rows : s->cols, olen = d ? s->cols : s->rows;
    s->cc[d][line][pos] = 0; s->xs[d][line][pos] = -1; s->anchor[d][line][pos] = 0;
    s->lx[d][line][pos] = s->ax[d][line][pos] = 0; s->xstart[d][line][pos] = s->xend[d][line][pos] = 0;
    if (s->sq[d][line][pos]) return;
    /* the other direction's line through this square: line `pos`, position `line` */
    const uint8_t *o = s->sq[od][pos];
    int lo = line, hi = line;
    while (lo > 0 && o[lo - 1]) lo--;
    while (hi + 1 < olen && o[hi + 1]) hi++;
    s->xstart[d][line][pos] = (uint8_t)lo; s->xend[d][line][pos] = (uint8_t)hi;
    int near = lo < line || hi > line;
    uint64_t cc;
    if (!near) cc = all_tiles(R->n_tiles);
    else {
        int sum = 0;
        for (int q = lo; q <= hi; q++)
            if (q != line && !(o[q] & SQ_BLANK)) sum += R->points[o[q] & SQ_TILE];
        s->xs[d][line][pos] = (int16_t)sum;
        cc = (hi - lo + 1 < R->min_word_len) ? 0 : cross_set(s->graph, o, line, lo, hi);
    }
    s->cc[d][line][pos] = cc;
    const uint8_t *in = s->sq[d][line];
    int is_anchor;
    if (s->empty_board) is_anchor = R->first_cover < 0 || (d == 0 ? line * s->cols + pos : pos * s->cols + line) == R->first_cover;
    else if (!R->must_connect) is_anchor = 1;
    else is_anchor = near || (pos > 0 && in[pos - 1]) || (pos + 1 < len && in[pos + 1]);
    s->anchor[d][line][pos] = (uint8_t)is_anchor;
    uint64_t lx = cc;
    if (cc && pos + 1 < len && in[pos + 1]) lx &= left_extension(s->graph, in, pos + 1, len);
    s->lx[d][line][pos] = lx;
    s->ax[d][line][pos] = lx;
    if (is_anchor && lx && pos > 0 && in[pos - 1]) s->ax[d][line][pos] &= right_extension(s->graph, in, pos - 1);
}

static void square_both(MgState *s, int row, int col) {
    square_tables(s, 0, row, col);
    square_tables(s, 1, col, row);
}

static void all_tables(MgState *s) {
    for (int r = 0; r < s->rows; r++)
        for (int c = 0; c < s->cols; c++) square_both(s, r, c);
}

/* The words on the board, for the duplicate-word rule (only when the rules forbid a repeated word). */
static void board_runs(MgState *s) {
    s->n_runs = 0;
    if (!s->rules->forbid_dup) return;
    for (int d = 0; d < 2; d++)
        for (int line = 0, n_lines = d ? s->cols : s->rows; line < n_lines; line++) {
            const uint8_t *q = s->sq[d][line];
            int n = d ? s->rows : s->cols;
            for (int p = 0; p < n;) {
                if (!q[p]) { p++; continue; }
                int e = p;
                while (e + 1 < n && q[e + 1]) e++;
                if (e > p) {
                    Run *run = &s->runs[s->n_runs++];
                    run->dir = (uint8_t)d; run->line = (uint8_t)line; run->start = (uint8_t)p; run->end = (uint8_t)e;
                    memcpy(run->tiles, q + p, (size_t)(e - p + 1));
                }
                p = e + 1;
            }
        }
}

static int rules_fit(const MgRules *R) {
    return R->rows >= 1 && R->cols >= 1 && R->rows <= MAX_DIM && R->cols <= MAX_DIM && R->n_tiles >= 1
           && R->n_tiles <= MAX_TILES;
}

int mg_state_init(MgState *s, const uint32_t *graph, const MgRules *R, const uint8_t *board) {
    if (!rules_fit(R) || !board) return MG_BAD_REQUEST;
    int rows = R->rows, cols = R->cols;
    for (int i = 0; i < rows * cols; i++) {
        uint8_t v = board[i];
        if (v && ((v & SQ_NEW) || (v & SQ_TILE) == 0 || (v & SQ_TILE) > R->n_tiles)) return MG_BAD_REQUEST;
    }
    s->graph = graph; s->rules = R; s->rows = rows; s->cols = cols;
    s->empty_board = 1;
    memset(s->on_board, 0, sizeof s->on_board);
    for (int r = 0; r < rows; r++)
        for (int c = 0; c < cols; c++) {
            uint8_t v = board[r * cols + c];
            s->sq[0][r][c] = s->sq[1][c][r] = v;
            s->lm[0][r][c] = s->lm[1][c][r] = R->letter_mult[r * cols + c];
            s->wm[0][r][c] = s->wm[1][c][r] = R->word_mult[r * cols + c];
            if (v) { s->empty_board = 0; s->on_board[(v & SQ_BLANK) ? 0 : (v & SQ_TILE)]++; }
        }
    all_tables(s);
    board_runs(s);
    return MG_OK;
}

/* Whether the squares fit: on the board, each once, and empty (`tiles` given: tiles of the rule set to
 * place) or occupied (`tiles` NULL: tiles to take off). */
static int squares_fit(const MgState *s, const uint16_t *squares, const uint8_t *tiles, int n) {
    if (n < 0 || n > MAX_DIM) return 0;
    for (int i = 0; i < n; i++) {
        if (squares[i] >= s->rows * s->cols) return 0;
        for (int j = 0; j < i; j++) if (squares[j] == squares[i]) return 0;
        uint8_t at = s->sq[0][squares[i] / s->cols][squares[i] % s->cols];
        if (!tiles) { if (!at) return 0; continue; }
        uint8_t t = tiles[i];
        if (at || (t & ~(SQ_TILE | SQ_BLANK)) || (t & SQ_TILE) == 0 || (t & SQ_TILE) > s->rules->n_tiles) return 0;
    }
    return 1;
}

/* The squares whose tables tiles on these squares may change, as (row, col): their own, and in the row
 * and the column through each, the empty squares just before and after its run of tiles. */
static int touched_squares(const MgState *s, const uint16_t *squares, int n_squares, uint8_t (*out)[2]) {
    int n = 0;
    for (int i = 0; i < n_squares; i++) {
        int row = squares[i] / s->cols, col = squares[i] % s->cols;
        out[n][0] = (uint8_t)row; out[n][1] = (uint8_t)col; n++;
        for (int d = 0; d < 2; d++) {  /* the row through it (d 0), the column (d 1) */
            int line = d ? col : row, pos = d ? row : col, len = d ? s->rows : s->cols;
            const uint8_t *q = s->sq[d][line];
            int lo = pos, hi = pos;
            while (lo > 0 && q[lo - 1]) lo--;
            while (hi + 1 < len && q[hi + 1]) hi++;
            int ends[2] = {lo - 1, hi + 1};
            for (int e = 0; e < 2; e++) {
                if (ends[e] < 0 || ends[e] >= len) continue;
                out[n][0] = (uint8_t)(d ? ends[e] : line); out[n][1] = (uint8_t)(d ? line : ends[e]); n++;
            }
        }
    }
    return n;
}

static void set_square(MgState *s, int row, int col, uint8_t v) {
    uint8_t old = s->sq[0][row][col];
    if (old) s->on_board[(old & SQ_BLANK) ? 0 : (old & SQ_TILE)]--;
    if (v) s->on_board[(v & SQ_BLANK) ? 0 : (v & SQ_TILE)]++;
    s->sq[0][row][col] = s->sq[1][col][row] = v;
}

/* Puts `tiles` on the squares (or, NULL, takes theirs off), then recomputes what changed: the squares
 * are found on the board with the tiles on it, since a run only grows by them. */
static void move_tiles(MgState *s, const uint16_t *squares, const uint8_t *tiles, int n_squares) {
    uint8_t touched[5 * MAX_DIM][2];
    int n = tiles ? 0 : touched_squares(s, squares, n_squares, touched);
    for (int i = 0; i < n_squares; i++) set_square(s, squares[i] / s->cols, squares[i] % s->cols, tiles ? tiles[i] : 0);
    if (tiles) n = touched_squares(s, squares, n_squares, touched);
    int was_empty = s->empty_board, on_board = 0;
    for (int t = 0; t <= MAX_TILES; t++) on_board += s->on_board[t];
    s->empty_board = on_board == 0;
    if (was_empty != s->empty_board) all_tables(s);  /* the first play's anchors come or go */
    else for (int i = 0; i < n; i++) square_both(s, touched[i][0], touched[i][1]);
    board_runs(s);
}

int mg_state_place(MgState *s, const uint16_t *squares, const uint8_t *tiles, int n) {
    if (!squares_fit(s, squares, tiles, n)) return MG_BAD_REQUEST;
    move_tiles(s, squares, tiles, n);
    return MG_OK;
}

int mg_state_remove(MgState *s, const uint16_t *squares, int n) {
    if (!squares_fit(s, squares, NULL, n)) return MG_BAD_REQUEST;
    move_tiles(s, squares, NULL, n);
    return MG_OK;
}

/* A play's new tiles as squares (row * cols + col) and board bytes; -1 when the play is off the board. */
static int new_tiles(const MgState *s, const MgMove *m, uint16_t *squares, uint8_t *tiles) {
    int n_lines = m->dir ? s->cols : s->rows, len = m->dir ? s->rows : s->cols, n = 0;
    if (m->dir > 1 || m->line >= n_lines || m->len > MAX_DIM || m->start + m->len > len) return -1;
    for (int i = 0; i < m->len; i++) {
        if (!(m->tiles[i] & SQ_NEW)) continue;
        int row = m->dir ? m->start + i : m->line, col = m->dir ? m->line : m->start + i;
        squares[n] = (uint16_t)(row * s->cols + col);
        tiles[n++] = m->tiles[i] & (SQ_TILE | SQ_BLANK);
    }
    return n;
}

int mg_state_play(MgState *s, const MgMove *m) {
    uint16_t squares[MAX_DIM];
    uint8_t tiles[MAX_DIM];
    int n = new_tiles(s, m, squares, tiles);
    return n < 0 ? MG_BAD_REQUEST : mg_state_place(s, squares, tiles, n);
}

int mg_state_unplay(MgState *s, const MgMove *m) {
    uint16_t squares[MAX_DIM];
    uint8_t tiles[MAX_DIM];
    int n = new_tiles(s, m, squares, tiles);
    if (n < 0) return MG_BAD_REQUEST;
    for (int i = 0; i < n; i++)
        if (squares[i] < s->rows * s->cols && s->sq[0][squares[i] / s->cols][squares[i] % s->cols] != tiles[i])
            return MG_BAD_REQUEST;
    return mg_state_remove(s, squares, n);
}

const char *mg_state_diff(const MgState *a, const MgState *b) {
    if (a->rows != b->rows || a->cols != b->cols) return "size";
    if (a->empty_board != b->empty_board) return "empty_board";
    if (memcmp(a->on_board, b->on_board, sizeof a->on_board)) return "on_board";
    for (int d = 0; d < 2; d++)
        for (int line = 0, n_lines = d ? a->cols : a->rows; line < n_lines; line++)
            for (int p = 0, len = d ? a->rows : a->cols; p < len; p++) {
                if (a->sq[d][line][p] != b->sq[d][line][p]) return "sq";
                if (a->cc[d][line][p] != b->cc[d][line][p]) return "cc";
                if (a->lx[d][line][p] != b->lx[d][line][p]) return "lx";
                if (a->ax[d][line][p] != b->ax[d][line][p]) return "ax";
                if (a->xs[d][line][p] != b->xs[d][line][p]) return "xs";
                if (a->xstart[d][line][p] != b->xstart[d][line][p] || a->xend[d][line][p] != b->xend[d][line][p])
                    return "xstart/xend";
                if (a->anchor[d][line][p] != b->anchor[d][line][p]) return "anchor";
            }
    if (a->n_runs != b->n_runs) return "n_runs";
    for (int r = 0; r < a->n_runs; r++) {
        const Run *x = &a->runs[r], *y = &b->runs[r];
        if (x->dir != y->dir || x->line != y->line || x->start != y->start || x->end != y->end
            || memcmp(x->tiles, y->tiles, (size_t)(x->end - x->start + 1)))
            return "runs";
    }
    return NULL;
}

static void select_line(Gen *g, int d, int line) {
    g->dir = d; g->line = line; g->len = g->line_len[d];
    const MgState *s = g->st;
    g->L_sq = s->sq[d][line]; g->L_lm = s->lm[d][line]; g->L_wm = s->wm[d][line];
    g->L_anchor = s->anchor[d][line]; g->L_cc = s->cc[d][line]; g->L_lx = s->lx[d][line];
    g->L_ax = s->ax[d][line];
    g->L_xs = s->xs[d][line];
}

/* The anchor searched next, on the selected line. The line's arrays are copied once for all its anchors
 * and its steps once for each value of the two flags of the anchor they depend on: an endgame's small word
 * graph finds little at most anchors, and copying the line for each was a third of its search. */
static void set_anchor(Gen *g, int pos) {
    const uint8_t *sq = g->L_sq;
    int len = g->len, line = 1 + g->dir * MAX_DIM + g->line;
    if (g->prep_line != line) {
        for (int p = 0; p < len; p++) {
            g->allowed[p] = g->L_lx[p];
            g->xs[p] = g->L_xs[p]; g->lm[p] = g->L_lm[p]; g->wm[p] = g->L_wm[p];
        }
        g->prep_line = line; g->prep_anchor = 0; g->prep_steps = 0; g->step_sets_made = 0;
    } else if (g->prep_anchor) {
        g->allowed[g->prep_anchor - 1] = g->L_lx[g->prep_anchor - 1];  /* the last anchor's ax back to lx */
    }
    g->anchor_pos = pos;
    g->right_open = pos + 1 == len || !sq[pos + 1];
    int flags = g->right_open | (pos + 1 < len) << 1;
    if (g->prep_steps != flags + 1) {
        uint8_t *step = g->step_sets[flags];
        if (!(g->step_sets_made >> flags & 1)) {
            for (int p = 0; p < len; p++) {
                int left_open = p == 0 || !sq[p - 1];
                step[p] = (uint8_t)((left_open && g->right_open ? STEP_END_LEFTWARD : 0)
                                    | (p > 0 && (sq[p - 1] || !g->L_anchor[p - 1]) ? STEP_LEFT : 0)
                                    | (left_open && pos + 1 < len ? STEP_SEPARATOR : 0)
                                    | (p + 1 == len || !sq[p + 1] ? STEP_END_RIGHTWARD : 0)
                                    | (p + 1 < len ? STEP_RIGHT : 0));
            }
            g->step_sets_made |= 1 << flags;
        }
        memcpy(g->step, step, (size_t)len);
        g->prep_steps = flags + 1;
    }
    g->allowed[pos] = g->L_ax[pos];
    g->prep_anchor = pos + 1;
}

/* The most points a rack tile may bring to this empty square of the selected line (0: only a blank). */
static inline int square_cap(const Gen *g, uint64_t cross_checks) {
    for (int i = 0; i < g->n_by_points; i++)
        if ((cross_checks >> g->by_points[i]) & 1) return g->pts[g->by_points[i]];
    return 0;
}

/* The rack's tiles by points, most first, for square_cap. */
static void order_by_points(Gen *g) {
    int n = 0;
    for (int t = 1; t <= MAX_TILES; t++) {
        if (!((g->rack_mask >> t) & 1)) continue;
        int j = n++;
        while (j > 0 && g->pts[g->by_points[j - 1]] < g->pts[t]) { g->by_points[j] = g->by_points[j - 1]; j--; }
        g->by_points[j] = (uint8_t)t;
    }
    g->n_by_points = n;
}

/* A run of squares of the selected line being scored for the bound: the tiles on the board, and per
 * empty square its multipliers and the most points a rack tile may bring to it. */
typedef struct {
    int used, fixed, wmul, xconst;
    int cap_main, cap_x;         /* sums of cap * mult_main and of cap * mult_x */
    int mult_main[MAX_DIM], mult_x[MAX_DIM];
    int n_sorted, sorted_wmul;   /* the first n_sorted squares' multipliers at sorted_wmul, largest first */
    int sorted[MAX_DIM];
} Span;

static inline void span_add(const Gen *g, Span *sp, int p, int anchor) {
    uint8_t b = g->L_sq[p];
    if (b) {
        if (!(b & SQ_BLANK)) sp->fixed += g->pts[b & SQ_TILE];
        return;
    }
    int i = sp->used++, cross = g->L_xs[p] >= 0;
    int mm = sp->mult_main[i] = g->L_lm[p], mx = sp->mult_x[i] = cross ? g->L_lm[p] * g->L_wm[p] : 0;
    int cap = square_cap(g, (p == anchor ? g->L_ax : g->L_lx)[p]);
    sp->cap_main += cap * mm;
    sp->cap_x += cap * mx;
    if (cross) sp->xconst += g->L_xs[p] * g->L_wm[p];
    sp->wmul *= g->L_wm[p];
}

/* The span's squares' multipliers (main word times the span's word multiplier, plus the cross word's)
 * sorted, largest first: the squares added since the last call put in, all again when the word
 * multiplier changed (a premium square joined). */
static inline void span_sort(Span *sp) {
    if (sp->sorted_wmul != sp->wmul) { sp->n_sorted = 0; sp->sorted_wmul = sp->wmul; }
    for (int i = sp->n_sorted; i < sp->used; i++) {
        int v = sp->mult_main[i] * sp->wmul + sp->mult_x[i], j = i;
        while (j > 0 && sp->sorted[j - 1] < v) { sp->sorted[j] = sp->sorted[j - 1]; j--; }
        sp->sorted[j] = v;
    }
    sp->n_sorted = sp->used;
}

/* An upper bound of the score of every play the search finds from the anchor at `a` of the selected
 * line ("shadow" bound): over every run of squares through the anchor that the search may fill
 * (new tiles not left of an earlier anchor, every empty square open to some rack tile, no more empty
 * squares than rack tiles), the score with the rack's points put where they count most (largest
 * points on the largest multipliers, or each square's best fitting tile if less), ignoring which
 * words exist. -1: no play from this anchor. By equity, *equity: the same with the most the leave of
 * each run's tiles may be worth. */
static int anchor_bound(Gen *g, int a, const int *vals, int n_rack, double *equity) {
    const uint8_t *sq = g->L_sq;
    uint64_t open = g->rack_mask | (g->rack[0] ? g->blank_mask : 0);
    if (!(g->L_ax[a] & open)) return -1;
    int len = g->len, best = -1;
    *equity = -1e300;
    /* leftmost start: over tiles and over empty, open squares that are not anchors */
    int lo = a, empties = 1;
    while (lo > 0) {
        int p = lo - 1;
        if (sq[p]) { lo = p; continue; }
        if (g->L_anchor[p] || !(g->L_cc[p] & open) || empties == n_rack) break;
        lo = p; empties++;
    }
    for (int s = a; s >= lo; s--) {
        if (s > 0 && sq[s - 1]) continue;   /* a word starts after an empty square */
        Span sp;  /* its arrays are written before they are read: not cleared (8% of the bounds' time) */
        sp.used = sp.fixed = sp.xconst = sp.cap_main = sp.cap_x = sp.n_sorted = 0;
        sp.wmul = sp.sorted_wmul = 1;
        for (int p = s; p < a; p++) span_add(g, &sp, p, a);
        for (int e = a; e < len; e++) {
            if (!sq[e] && (sp.used == n_rack || !((e == a ? g->L_ax : g->L_lx)[e] & open))) break;
            span_add(g, &sp, e, a);
            if (e + 1 < len && sq[e + 1]) continue;  /* a word ends before an empty square */
            int by_rack = 0, by_square = sp.cap_main * sp.wmul + sp.cap_x, used = sp.used;
            span_sort(&sp);
            for (int i = 0; i < used; i++) by_rack += vals[i] * sp.sorted[i];
            int score = sp.fixed * sp.wmul + sp.xconst + (used == g->bingo_tiles ? g->bingo_bonus : 0)
                        + (by_rack < by_square ? by_rack : by_square);
            if (score > best) best = score;
            if (g->eq && score + max_leave_after(g, used) > *equity) *equity = score + max_leave_after(g, used);
        }
    }
    return best;
}

typedef struct { int bound; uint8_t dir, line, pos; double equity; } Anchor;

static int anchor_cmp(const void *x, const void *y) {
    const Anchor *a = x, *b = y;
    if (a->bound != b->bound) return a->bound > b->bound ? -1 : 1;
    if (a->dir != b->dir) return a->dir - b->dir;
    if (a->line != b->line) return a->line - b->line;
    return a->pos - b->pos;
}

static int anchor_equity_cmp(const void *x, const void *y) {
    const Anchor *a = x, *b = y;
    if (a->equity != b->equity) return a->equity > b->equity ? -1 : 1;
    return anchor_cmp(x, y);
}

/* The anchors as a heap in anchor_cmp's order, the first on top (most are never taken off: once k
 * plays are kept the rest are skipped, so a heap costs less than sorting them all). */
static void anchor_sift(Anchor *h, int n, int i) {
    for (;;) {
        int l = 2 * i + 1, r = l + 1, m = i;
        if (l < n && anchor_cmp(&h[l], &h[m]) < 0) m = l;
        if (r < n && anchor_cmp(&h[r], &h[m]) < 0) m = r;
        if (m == i) return;
        Anchor t = h[i]; h[i] = h[m]; h[m] = t;
        i = m;
    }
}

static Anchor anchor_pop(Anchor *h, int n) {
    Anchor top = h[0];
    h[0] = h[n - 1];
    anchor_sift(h, n - 1, 0);
    return top;
}

/* Top-k: anchors best bound first (by equity among all plays: best equity bound first); once k plays are kept, an anchor whose bound is below the worst
 * kept score cannot add a play, nor can any after it. */
static void run_best_first(Gen *g, uint32_t root) {
    int vals[MAX_DIM], n_rack = 0;
    for (int t = MAX_TILES; t >= 0; t--)
        for (int k = 0; k < g->rack[t] && n_rack < MAX_DIM; k++) vals[n_rack++] = t ? g->pts[t] : 0;
    for (int i = 1; i < n_rack; i++) {            /* largest first */
        int v = vals[i], j = i;
        while (j > 0 && vals[j - 1] < v) { vals[j] = vals[j - 1]; j--; }
        vals[j] = v;
    }
    if (g->deadline > 0 && now_monotonic() > g->deadline) { g->timed_out = 1; g->stop = 1; return; }
    Anchor list[2 * MAX_DIM * MAX_DIM];
    int n = 0;
    order_by_points(g);
    for (int d = 0; d < 2; d++)
        for (int line = 0; line < g->n_lines[d]; line++) {
            select_line(g, d, line);
            for (int pos = 0; pos < g->len; pos++) {
                if (!g->L_anchor[pos]) continue;
                double equity;
                int bound = anchor_bound(g, pos, vals, n_rack, &equity);
                if (bound < 0) continue;
                list[n++] = (Anchor){bound, (uint8_t)d, (uint8_t)line, (uint8_t)pos, equity};
            }
        }
    if (g->eq) {
        qsort(list, n, sizeof(Anchor), g->limit ? anchor_cmp : anchor_equity_cmp);
        for (int i = n - 2; i >= 0; i--)  /* by equity: the most of this anchor's and all after it */
            if (list[i + 1].equity > list[i].equity) list[i].equity = list[i + 1].equity;
    } else {
        for (int i = n / 2 - 1; i >= 0; i--) anchor_sift(list, n, i);  /* by score: taken off a heap */
    }
    for (int i = 0; i < n && !g->stop; i++) {
        Anchor an = g->eq ? list[i] : anchor_pop(list, n - i);
        if (g->limit && g->n_moves == g->limit && an.bound < g->moves[0].score) break;
        if (g->eq && equity_settled(g, an.bound, an.equity)) break;
        if ((i & 15) == 15 && g->deadline > 0 && now_monotonic() > g->deadline) { g->timed_out = 1; g->stop = 1; break; }
        select_line(g, an.dir, an.line);
        set_anchor(g, an.pos);
        gen_nonstop(g, an.pos, root, 1, an.pos, 0, 1, 0, 0);
    }
}

static void run_all(Gen *g) {
    int rack_tiles = 0;
    for (int t = 0; t <= MAX_TILES; t++) rack_tiles += g->rack[t];
    if (!rack_tiles) return;
    uint32_t root = g->graph[0];
    if (!root) return;
    if (g->heap) { run_best_first(g, root); return; }
    for (int d = 0; d < 2 && !g->stop; d++)
        for (int line = 0; line < g->n_lines[d] && !g->stop; line++) {
            select_line(g, d, line);
            if (g->deadline > 0 && now_monotonic() > g->deadline) { g->timed_out = 1; g->stop = 1; return; }
            for (int pos = 0; pos < g->len && !g->stop; pos++) {
                if (!g->L_anchor[pos]) continue;
                set_anchor(g, pos);
                if (g->mode == MG_COUNT) gen_nonstop(g, pos, root, 1, pos, 0, 1, 0, 0);
                else gen(g, pos, root, 1, pos, 0, 1, 0, 0);
            }
        }
}


/* The search's settings from the state and the request: the request checked, the rack capped by the
 * copies the set has left beside the board (validate_move refuses more). */
static int load(Gen *g, const MgState *s, const MgRequest *q) {
    const MgRules *R = s->rules;
    if (q->mode < MG_LIST || q->mode > MG_NTH || q->limit > MAX_LISTED || q->must_contain_len < 0
        || q->must_contain_len > MAX_DIM)
        return MG_BAD_REQUEST;
    g->st = s; g->graph = s->graph;
    g->rows = s->rows; g->cols = s->cols; g->n_tiles = R->n_tiles;
    g->n_lines[0] = s->rows; g->line_len[0] = s->cols;
    g->n_lines[1] = s->cols; g->line_len[1] = s->rows;
    g->first_play = s->empty_board;
    memcpy(g->pts, R->points, MAX_TILES + 1);
    memcpy(g->rack, q->rack, MAX_TILES + 1);
    g->blank_mask = R->blank_mask & ~1ull;
    g->bingo_tiles = R->bingo_tiles; g->bingo_bonus = R->bingo_bonus; g->min_len = R->min_word_len;
    g->first_min_tiles = R->first_min_tiles; g->forbid_dup = R->forbid_dup;
    g->mode = (int)q->mode; g->nth = (long long)q->nth; g->min_main_len = q->min_main_len; g->deadline = q->deadline;
    memcpy(g->must_use, q->must_use, MAX_TILES + 1);
    for (int t = 0; t <= MAX_TILES; t++) if (g->must_use[t]) g->has_must_use = 1;
    g->must_contain_len = q->must_contain_len;
    memcpy(g->must_contain, q->must_contain, (size_t)q->must_contain_len);
    for (int t = R->n_tiles + 1; t <= MAX_TILES; t++) g->rack[t] = 0;
    for (int t = 0; t <= MAX_TILES; t++) {
        int left = R->bag[t] - s->on_board[t];
        if (g->rack[t] > left) g->rack[t] = (uint8_t)(left > 0 ? left : 0);
    }
    for (int t = 1; t <= R->n_tiles; t++) if (g->rack[t]) g->rack_mask |= 1ull << t;
    g->max_moves = MAX_LISTED;
    return MG_OK;
}

/* At least `n` plays of room in the buffer. */
static int buffer_room(MgBuffer *b, size_t n) {
    if (b->cap >= n) return 1;
    MgMove *m = realloc(b->moves, n * sizeof(MgMove));
    if (!m) return 0;
    b->moves = m; b->cap = n;
    return 1;
}

int mg_generate_state(const MgState *s, const MgRequest *q, MgBuffer *buf, MgResult *result) {
    memset(result, 0, sizeof *result);
    Gen g;
    memset(&g, 0, sizeof g);
    int rc = load(&g, s, q);
    if (rc != MG_OK) return rc;
    if (q->mode == MG_LIST && (q->limit > 0 || q->equity)) {
        g.heap = 1;  /* best-first over the anchors */
        g.limit = q->limit;
        g.eq = q->equity;
        for (int t = 0; t <= MAX_TILES; t++) g.rack_tiles += q->rack[t];
        if (!buffer_room(buf, g.limit ? g.limit : 1)) return MG_NO_MEMORY;
    }
    if (q->mode == MG_NTH && !buffer_room(buf, 1)) return MG_NO_MEMORY;
    g.moves = buf->moves; g.cap_moves = buf->cap;
    run_all(&g);
    buf->moves = g.moves; buf->cap = g.cap_moves;  /* a list without a limit may have grown it */
    if (g.oom) return MG_NO_MEMORY;
    if (g.too_many) return MG_TOO_MANY;
    if (g.timed_out) return MG_TIMED_OUT;
    result->count = g.count;
    if (g.eq) {  /* the one answer */
        g.n_moves = (size_t)g.have_best;
        if (g.have_best) g.moves[0] = g.best;
        result->equity = g.best_equity;
    }
    if (q->mode == MG_LIST || q->mode == MG_NTH) {
        if (g.n_moves > 1) qsort(g.moves, g.n_moves, sizeof(MoveRec), rec_qsort_cmp);
        result->moves = g.moves;
        result->n_moves = g.n_moves;
    }
    return MG_OK;
}

void mg_buffer_free(MgBuffer *buf) {
    free(buf->moves);
    buf->moves = NULL;
    buf->cap = 0;
}

int mg_generate(const uint32_t *graph, const MgRules *rules, const MgRequest *request, MgResult *result) {
    memset(result, 0, sizeof *result);
    MgState *s = malloc(sizeof(MgState));
    if (!s) return MG_NO_MEMORY;
    MgBuffer buf = {0};
    int rc = mg_state_init(s, graph, rules, request->board);
    if (rc == MG_OK) rc = mg_generate_state(s, request, &buf, result);
    /* the result owns the buffer's plays when it lists them (mg_result_free) */
    if (rc != MG_OK || result->moves != buf.moves) mg_buffer_free(&buf);
    free(s);
    return rc;
}

void mg_result_free(MgResult *result) {
    free(result->moves);
    result->moves = NULL;
    result->n_moves = 0;
}

/* Whether two answers list the same plays in the same order. */
static int same_answer(const MgResult *a, const MgResult *b) {
    if (a->count != b->count || a->n_moves != b->n_moves) return 0;
    for (size_t i = 0; i < a->n_moves; i++)
        if (mg_move_cmp(&a->moves[i], &b->moves[i]) || a->moves[i].n_new != b->moves[i].n_new) return 0;
    return 1;
}

/* The answers of a state and of mg_generate on its board agree for the rack, listed whole, top 5 and
 * counted; NULL when they do, else what differs. */
static const char *answers_differ(const MgState *s, const uint8_t *board, const uint8_t *rack, MgBuffer *buf) {
    static const struct { MgMode mode; size_t limit; const char *what; } asks[] = {
        {MG_LIST, 0, "moves (all)"}, {MG_LIST, 5, "moves (top 5)"}, {MG_COUNT, 0, "count"}};
    for (size_t k = 0; k < sizeof asks / sizeof asks[0]; k++) {
        MgRequest q;
        memset(&q, 0, sizeof q);
        q.board = board; q.mode = asks[k].mode; q.limit = asks[k].limit;
        memcpy(q.rack, rack, MAX_TILES + 1);
        MgResult fresh, kept;
        int rc1 = mg_generate(s->graph, s->rules, &q, &fresh), rc2 = mg_generate_state(s, &q, buf, &kept);
        int same = rc1 == rc2 && (rc1 != MG_OK || same_answer(&fresh, &kept));
        mg_result_free(&fresh);
        if (!same) return asks[k].what;
    }
    return NULL;
}

int mg_state_check(const uint32_t *graph, const MgRules *R, const MgMove *moves, const uint8_t (*racks)[MAX_TILES + 1],
                   int n, int *failed_at, const char **what) {
    MgState *s = malloc(sizeof *s), *fresh = malloc(sizeof *fresh), *before = malloc(sizeof *before);
    uint8_t board[MAX_DIM * MAX_DIM] = {0};
    MgBuffer buf = {0};
    int rc = s && fresh && before ? mg_state_init(s, graph, R, board) : MG_NO_MEMORY;
    *what = NULL; *failed_at = -1;
    for (int i = 0; rc == MG_OK && i < n && !*what; i++) {
        *failed_at = i;
        *before = *s;
        if (mg_state_play(s, &moves[i])) { *what = "the play does not fit the board"; break; }
        for (int r = 0; r < R->rows; r++) memcpy(board + r * R->cols, s->sq[0][r], (size_t)R->cols);
        if ((rc = mg_state_init(fresh, graph, R, board))) break;
        if ((*what = mg_state_diff(s, fresh)) || (*what = answers_differ(s, board, racks[i], &buf))) break;
        mg_state_unplay(s, &moves[i]);
        if ((*what = mg_state_diff(s, before))) break;
        mg_state_play(s, &moves[i]);
    }
    if (!*what) *failed_at = -1;
    free(s); free(fresh); free(before);
    mg_buffer_free(&buf);
    return rc;
}
