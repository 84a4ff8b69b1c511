/* Move generation (Gordon 1994 over the GADDAG's search layout): cross-check sets, anchors, the
 * "shadow" bound of each anchor for top-k, the recursion, the Kris Kros duplicate-word rule. No Python
 * here: movegen.h is its interface. docs/movegen.md describes the search. */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "movegen.h"

typedef MgMove MoveRec;

typedef struct {
    uint8_t dir, line, start, end;
    uint8_t tiles[MAX_DIM];
} Run;

typedef struct {
    const uint32_t *graph;  /* the search layout */
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
    int n_runs;
    /* the line being searched */
    int dir, line, len, anchor_pos;
    const uint8_t *L_sq, *L_lm, *L_wm, *L_anchor;
    const uint64_t *L_cc, *L_ax;
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
    /* Below: per-square tables, written by load() and setup() for every square of the board before
     * they are read, so not cleared (GEN_CLEARED): clearing them cost 4.5% of a best-move search. */
    uint8_t sq[2][MAX_DIM][MAX_DIM];
    uint64_t cc[2][MAX_DIM][MAX_DIM];
    /* at an anchor: its cross-check set, and when board tiles follow it in the line, only the tiles x
     * such that x and those tiles are part of a word (MAGPIE's left-extension set, anchor case) */
    uint64_t ax[2][MAX_DIM][MAX_DIM];
    int16_t xs[2][MAX_DIM][MAX_DIM];       /* cross-word points of the other tiles, -1: no cross word */
    uint8_t xstart[2][MAX_DIM][MAX_DIM], xend[2][MAX_DIM][MAX_DIM];
    uint8_t lm[2][MAX_DIM][MAX_DIM], wm[2][MAX_DIM][MAX_DIM];
    uint8_t anchor[2][MAX_DIM][MAX_DIM];
    /* duplicate-word rule: the words already on the board */
    Run runs[2 * MAX_DIM * (MAX_DIM / 3 + 1)];
} Gen;

#define GEN_CLEARED offsetof(Gen, sq)
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
        x->start = g->xstart[g->dir][g->line][p]; x->end = g->xend[g->dir][g->line][p];
        for (int q = x->start; q <= x->end; q++)
            x->tiles[q - x->start] = q == g->line ? g->strip[p] : g->sq[od][p][q];
    }
    for (int i = 0; i < n; i++) {
        int len = words[i].end - words[i].start + 1, count = 0;
        for (int j = 0; j < n; j++)
            if (words[j].end - words[j].start + 1 == len && same_tiles(words[i].tiles, words[j].tiles, len)) count++;
        for (int r = 0; r < g->n_runs; r++) {
            Run *run = &g->runs[r];
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

static void record(Gen *g, int start, int end, int msum, int wmul, int xtot, int n_new) {
    int len = end - start + 1;
    if (len < 2 || len < g->min_len || len < g->min_main_len) return;
    if (n_new == 1 && g->dir == 1 && g->L_xs[g->anchor_pos] >= 0) return; /* listed across */
    if (g->first_play && n_new < g->first_min_tiles) return;
    int score = msum * wmul + xtot + (n_new == g->bingo_tiles ? g->bingo_bonus : 0);
    /* top-k with the heap full: a play scoring below the worst kept one cannot enter it (its filters
     * and tiles need not be looked at; `count` is kept for MG_COUNT and MG_ANY only) */
    if (g->heap && g->n_moves == g->limit && score < g->moves[0].score) return;
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
    if (g->heap) {
        if (g->n_moves < g->limit) {
            g->moves[g->n_moves] = rec;
            heap_sift_up(g->moves, g->n_moves++);
        } else if (mg_move_cmp(&rec, &g->moves[0]) < 0) {
            g->moves[0] = rec;
            heap_sift_down(g->moves, g->n_moves, 0);
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

POPCNT_CLONES static void gen(Gen *g, int pos, uint32_t node, int leftward, int left, int msum, int wmul, int xtot, int n_new);

static inline __attribute__((always_inline)) void go_on(Gen *g, int pos, uint32_t a, int leftward, int left, int msum, int wmul, int xtot, int n_new) {
    uint32_t child = a & SG_CHILD;
    const uint8_t *sq = g->L_sq;
    if (leftward) {
        int left_open = pos == 0 || !sq[pos - 1];
        int right_open = g->anchor_pos + 1 == g->len || !sq[g->anchor_pos + 1];
        if ((a & SG_ACCEPTS) && left_open && right_open) record(g, pos, g->anchor_pos, msum, wmul, xtot, n_new);
        if (!child || g->stop) return;
        if (pos > 0 && (sq[pos - 1] || !g->L_anchor[pos - 1]))
            gen(g, pos - 1, child, 1, pos - 1, msum, wmul, xtot, n_new);
        if (left_open && g->anchor_pos + 1 < g->len && !g->stop) {
            uint32_t sep = (node_mask(g->graph, child) & 1) ? g->graph[child + 2] & SG_CHILD : 0;
            if (sep) gen(g, g->anchor_pos + 1, sep, 0, pos, msum, wmul, xtot, n_new);
        }
    } else {
        if ((a & SG_ACCEPTS) && (pos + 1 == g->len || !sq[pos + 1])) record(g, left, pos, msum, wmul, xtot, n_new);
        if (child && pos + 1 < g->len && !g->stop) gen(g, pos + 1, child, 0, left, msum, wmul, xtot, n_new);
    }
}

POPCNT_CLONES static void gen(Gen *g, int pos, uint32_t node, int leftward, int left, int msum, int wmul, int xtot, int n_new) {
    if (g->stop) return;
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
                go_on(g, pos, a, leftward, leftward ? pos : left, msum, wmul, xtot, n_new);
                return;
            }
            pos = next;
        }
    }
    uint64_t allowed = (pos == g->anchor_pos ? g->L_ax : g->L_cc)[pos] & (g->rack_mask | (g->rack[0] ? g->blank_mask : 0));
    if (!allowed) return;
    uint64_t mask = node_mask(w, node), fits = mask & allowed;
    uint8_t *rack = g->rack;
    int lm = g->L_lm[pos], wm = g->L_wm[pos], xs = g->L_xs[pos];
    while (fits) {
        unsigned t = (unsigned)__builtin_ctzll(fits);
        fits &= fits - 1;
        uint32_t a = w[node + 2 + popcount64(mask & ((1ull << t) - 1))];
        {
            if (rack[t]) {
                if (!--rack[t]) g->rack_mask &= ~(1ull << t);
                g->strip[pos] = (uint8_t)(t | SQ_NEW);
                int tp = g->pts[t] * lm;
                go_on(g, pos, a, leftward, left, msum + tp, wmul * wm, xs >= 0 ? xtot + (xs + tp) * wm : xtot, n_new + 1);
                if (!rack[t]++) g->rack_mask |= 1ull << t;
            }
            if (rack[0] && ((g->blank_mask >> t) & 1)) {
                rack[0]--;
                g->strip[pos] = (uint8_t)(t | SQ_NEW | SQ_BLANK);
                go_on(g, pos, a, leftward, left, msum, wmul * wm, xs >= 0 ? xtot + xs * wm : xtot, n_new + 1);
                rack[0]++;
            }
            if (g->stop) break;
        }
    }
    g->strip[pos] = 0;
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

static int setup(Gen *g, const uint8_t *board, int first_cover, int must_connect) {
    int R = g->rows, C = g->cols;
    g->n_lines[0] = R; g->line_len[0] = C;
    g->n_lines[1] = C; g->line_len[1] = R;
    int empty_board = 1;
    for (int r = 0; r < R; r++)
        for (int c = 0; c < C; c++) {
            uint8_t v = board[r * C + c];
            g->sq[0][r][c] = v; g->sq[1][c][r] = v;
            if (v) empty_board = 0;
        }
    g->first_play = empty_board;
    uint64_t all = 0;
    for (int t = 1; t <= g->n_tiles; t++) all |= 1ull << t;
    for (int d = 0; d < 2; d++) {
        int od = 1 - d;
        for (int line = 0; line < g->n_lines[d]; line++)
            for (int pos = 0; pos < g->line_len[d]; pos++) {
                g->cc[d][line][pos] = 0; g->xs[d][line][pos] = -1; g->anchor[d][line][pos] = 0;
                g->ax[d][line][pos] = 0;
                if (g->sq[d][line][pos]) continue;
                /* the other direction's line through this square: line `pos`, position `line` */
                const uint8_t *o = g->sq[od][pos];
                int olen = g->line_len[od];
                int lo = line, hi = line;
                while (lo > 0 && o[lo - 1]) lo--;
                while (hi + 1 < olen && o[hi + 1]) hi++;
                g->xstart[d][line][pos] = (uint8_t)lo; g->xend[d][line][pos] = (uint8_t)hi;
                int near = lo < line || hi > line;
                if (!near) g->cc[d][line][pos] = all;
                else {
                    int sum = 0;
                    for (int q = lo; q <= hi; q++)
                        if (q != line && !(o[q] & SQ_BLANK)) sum += g->pts[o[q] & SQ_TILE];
                    g->xs[d][line][pos] = (int16_t)sum;
                    g->cc[d][line][pos] = (hi - lo + 1 < g->min_len) ? 0 : cross_set(g->graph, o, line, lo, hi);
                }
                int is_anchor;
                if (empty_board) is_anchor = first_cover < 0 || (d == 0 ? line * C + pos : pos * C + line) == first_cover;
                else if (!must_connect) is_anchor = 1;
                else {
                    const uint8_t *s = g->sq[d][line];
                    is_anchor = near || (pos > 0 && s[pos - 1]) || (pos + 1 < g->line_len[d] && s[pos + 1]);
                }
                g->anchor[d][line][pos] = (uint8_t)is_anchor;
                g->ax[d][line][pos] = g->cc[d][line][pos];
                if (is_anchor && g->cc[d][line][pos] && pos + 1 < g->line_len[d] && g->sq[d][line][pos + 1])
                    g->ax[d][line][pos] &= left_extension(g->graph, g->sq[d][line], pos + 1, g->line_len[d]);
            }
    }
    /* words on the board (duplicate-word rule) */
    g->n_runs = 0;
    if (g->forbid_dup)
        for (int d = 0; d < 2; d++)
            for (int line = 0; line < g->n_lines[d]; line++) {
                const uint8_t *s = g->sq[d][line];
                int n = g->line_len[d];
                for (int p = 0; p < n;) {
                    if (!s[p]) { p++; continue; }
                    int q = p;
                    while (q + 1 < n && s[q + 1]) q++;
                    if (q > p) {
                        Run *run = &g->runs[g->n_runs++];
                        run->dir = (uint8_t)d; run->line = (uint8_t)line; run->start = (uint8_t)p; run->end = (uint8_t)q;
                        memcpy(run->tiles, s + p, q - p + 1);
                    }
                    p = q + 1;
                }
            }
    return 0;
}

static void select_line(Gen *g, int d, int line) {
    g->dir = d; g->line = line; g->len = g->line_len[d];
    g->L_sq = g->sq[d][line]; g->L_lm = g->lm[d][line]; g->L_wm = g->wm[d][line];
    g->L_anchor = g->anchor[d][line]; g->L_cc = g->cc[d][line]; g->L_ax = g->ax[d][line];
    g->L_xs = g->xs[d][line];
}

/* The most points a rack tile may bring to this empty square of the selected line (0: only a blank). */
static inline int square_cap(const Gen *g, uint64_t cross_checks) {
    uint64_t fits = cross_checks & g->rack_mask;
    int best = 0;
    while (fits) {
        int t = __builtin_ctzll(fits);
        if (g->pts[t] > best) best = g->pts[t];
        fits &= fits - 1;
    }
    return best;
}

/* A run of squares of the selected line being scored for the bound: the tiles on the board, and per
 * empty square its multipliers and the most points a rack tile may bring to it. */
typedef struct {
    int used, fixed, wmul, xconst;
    int mult_main[MAX_DIM], mult_x[MAX_DIM], cap[MAX_DIM];
} Span;

static inline void span_add(const Gen *g, Span *sp, int p, int anchor) {
    uint8_t b = g->L_sq[p];
    if (b) {
        if (!(b & SQ_BLANK)) sp->fixed += g->pts[b & SQ_TILE];
        return;
    }
    int i = sp->used++, cross = g->L_xs[p] >= 0;
    sp->mult_main[i] = g->L_lm[p];
    sp->mult_x[i] = cross ? g->L_lm[p] * g->L_wm[p] : 0;
    sp->cap[i] = square_cap(g, (p == anchor ? g->L_ax : g->L_cc)[p]);
    if (cross) sp->xconst += g->L_xs[p] * g->L_wm[p];
    sp->wmul *= g->L_wm[p];
}

/* An upper bound of the score of every play the search finds from the anchor at `a` of the selected
 * line ("shadow" bound): over every run of squares through the anchor that the search may fill
 * (new tiles not left of an earlier anchor, every empty square open to some rack tile, no more empty
 * squares than rack tiles), the score with the rack's points put where they count most (largest
 * points on the largest multipliers, or each square's best fitting tile if less), ignoring which
 * words exist. -1: no play from this anchor. */
static int anchor_bound(Gen *g, int a, const int *vals, int n_rack) {
    const uint8_t *sq = g->L_sq;
    uint64_t open = g->rack_mask | (g->rack[0] ? g->blank_mask : 0);
    if (!(g->L_ax[a] & open)) return -1;
    int len = g->len, best = -1;
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
        sp.used = sp.fixed = sp.xconst = 0;
        sp.wmul = 1;
        for (int p = s; p < a; p++) span_add(g, &sp, p, a);
        for (int e = a; e < len; e++) {
            if (!sq[e] && (sp.used == n_rack || !(g->L_cc[e] & open))) break;
            span_add(g, &sp, e, a);
            if (e + 1 < len && sq[e + 1]) continue;  /* a word ends before an empty square */
            int m[MAX_DIM], by_rack = 0, by_square = 0, used = sp.used;
            for (int i = 0; i < used; i++) {      /* insertion sort, largest first */
                int v = sp.mult_main[i] * sp.wmul + sp.mult_x[i], j = i;
                by_square += sp.cap[i] * v;
                while (j > 0 && m[j - 1] < v) { m[j] = m[j - 1]; j--; }
                m[j] = v;
            }
            for (int i = 0; i < used; i++) by_rack += vals[i] * m[i];
            int score = sp.fixed * sp.wmul + sp.xconst + (used == g->bingo_tiles ? g->bingo_bonus : 0)
                        + (by_rack < by_square ? by_rack : by_square);
            if (score > best) best = score;
        }
    }
    return best;
}

typedef struct { int bound; uint8_t dir, line, pos; } Anchor;

static int anchor_cmp(const void *x, const void *y) {
    const Anchor *a = x, *b = y;
    if (a->bound != b->bound) return a->bound > b->bound ? -1 : 1;
    if (a->dir != b->dir) return a->dir - b->dir;
    if (a->line != b->line) return a->line - b->line;
    return a->pos - b->pos;
}

/* Top-k: anchors best bound first; once k plays are kept, an anchor whose bound is below the worst
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
    Anchor *list = malloc(sizeof(Anchor) * 2 * MAX_DIM * MAX_DIM);
    if (!list) { g->oom = 1; g->stop = 1; return; }
    int n = 0;
    for (int d = 0; d < 2; d++)
        for (int line = 0; line < g->n_lines[d]; line++) {
            select_line(g, d, line);
            for (int pos = 0; pos < g->len; pos++) {
                if (!g->L_anchor[pos]) continue;
                int bound = anchor_bound(g, pos, vals, n_rack);
                if (bound < 0) continue;
                list[n++] = (Anchor){bound, (uint8_t)d, (uint8_t)line, (uint8_t)pos};
            }
        }
    qsort(list, n, sizeof(Anchor), anchor_cmp);
    for (int i = 0; i < n && !g->stop; i++) {
        if (g->n_moves == g->limit && list[i].bound < g->moves[0].score) break;
        if ((i & 15) == 0 && g->deadline > 0 && now_monotonic() > g->deadline) { g->timed_out = 1; g->stop = 1; break; }
        select_line(g, list[i].dir, list[i].line);
        g->anchor_pos = list[i].pos;
        gen(g, list[i].pos, root, 1, list[i].pos, 0, 1, 0, 0);
    }
    free(list);
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
                g->anchor_pos = pos;
                gen(g, pos, root, 1, pos, 0, 1, 0, 0);
            }
        }
}


/* The generator's state from the rules and the request: sizes checked, the board's squares checked,
 * the rack capped by the copies the set has left beside the board (validate_move refuses more). */
static int load(Gen *g, const MgRules *R, const MgRequest *q) {
    int rows = R->rows, cols = R->cols;
    if (rows < 1 || cols < 1 || rows > MAX_DIM || cols > MAX_DIM || R->n_tiles < 1 || R->n_tiles > MAX_TILES
        || q->mode < MG_LIST || q->mode > MG_NTH || q->limit > MAX_LISTED || q->must_contain_len < 0
        || q->must_contain_len > MAX_DIM || !q->board)
        return MG_BAD_REQUEST;
    const uint8_t *B = q->board;
    for (int i = 0; i < rows * cols; i++) {
        uint8_t v = B[i];
        if (v && ((v & SQ_NEW) || (v & SQ_TILE) == 0 || (v & SQ_TILE) > R->n_tiles)) return MG_BAD_REQUEST;
    }
    g->rows = rows; g->cols = cols; g->n_tiles = R->n_tiles;
    memcpy(g->pts, R->points, MAX_TILES + 1);
    memcpy(g->rack, q->rack, MAX_TILES + 1);
    for (int r = 0; r < rows; r++)
        for (int c = 0; c < cols; c++) {
            g->lm[0][r][c] = g->lm[1][c][r] = R->letter_mult[r * cols + c];
            g->wm[0][r][c] = g->wm[1][c][r] = R->word_mult[r * cols + c];
        }
    g->blank_mask = R->blank_mask & ~1ull;
    g->bingo_tiles = R->bingo_tiles; g->bingo_bonus = R->bingo_bonus; g->min_len = R->min_word_len;
    g->first_min_tiles = R->first_min_tiles; g->forbid_dup = R->forbid_dup;
    g->mode = (int)q->mode; g->nth = (long long)q->nth; g->min_main_len = q->min_main_len; g->deadline = q->deadline;
    memcpy(g->must_use, q->must_use, MAX_TILES + 1);
    for (int t = 0; t <= MAX_TILES; t++) if (g->must_use[t]) g->has_must_use = 1;
    g->must_contain_len = q->must_contain_len;
    memcpy(g->must_contain, q->must_contain, (size_t)q->must_contain_len);
    for (int t = R->n_tiles + 1; t <= MAX_TILES; t++) g->rack[t] = 0;
    int on_board[MAX_TILES + 1] = {0};
    for (int i = 0; i < rows * cols; i++)
        if (B[i]) on_board[(B[i] & SQ_BLANK) ? 0 : (B[i] & SQ_TILE)]++;
    for (int t = 0; t <= MAX_TILES; t++) {
        int left = R->bag[t] - on_board[t];
        if (g->rack[t] > left) g->rack[t] = (uint8_t)(left > 0 ? left : 0);
    }
    for (int t = 1; t <= R->n_tiles; t++) if (g->rack[t]) g->rack_mask |= 1ull << t;
    g->max_moves = MAX_LISTED;
    return MG_OK;
}

int mg_generate(const uint32_t *graph, const MgRules *rules, const MgRequest *request, MgResult *result) {
    memset(result, 0, sizeof *result);
    Gen *g = malloc(sizeof(Gen));
    if (!g) return MG_NO_MEMORY;
    memset(g, 0, GEN_CLEARED);
    int rc = load(g, rules, request);
    g->graph = graph;
    if (rc == MG_OK && request->mode == MG_LIST && request->limit > 0) {
        g->heap = 1;
        g->limit = request->limit;
        g->moves = malloc(g->limit * sizeof(MoveRec));
        if (!g->moves) rc = MG_NO_MEMORY;
    }
    if (rc == MG_OK && request->mode == MG_NTH && !(g->moves = malloc(sizeof(MoveRec)))) rc = MG_NO_MEMORY;
    if (rc == MG_OK) {
        setup(g, request->board, rules->first_cover, rules->must_connect);
        run_all(g);
        rc = g->oom ? MG_NO_MEMORY : g->too_many ? MG_TOO_MANY : g->timed_out ? MG_TIMED_OUT : MG_OK;
    }
    if (rc == MG_OK) {
        result->count = g->count;
        if (request->mode == MG_LIST || request->mode == MG_NTH) {
            qsort(g->moves, g->n_moves, sizeof(MoveRec), rec_qsort_cmp);
            result->moves = g->moves;
            result->n_moves = g->n_moves;
            g->moves = NULL;
        }
    }
    free(g->moves);
    free(g);
    return rc;
}

void mg_result_free(MgResult *result) {
    free(result->moves);
    result->moves = NULL;
    result->n_moves = 0;
}
