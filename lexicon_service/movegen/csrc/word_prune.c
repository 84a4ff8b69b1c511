/* The word graph of an endgame (word_prune.h): only the words that some play to the end of this game
 * could form, built into a small search layout once per request. No Python here.
 *
 * Why it loses nothing: every word a play forms (its main word and each crossing word) fills squares s..e
 * of one line, and the squares just before s and after e are empty then, so empty now (tiles are never
 * taken off). Each square of s..e holds now the tile it will hold, or is empty and gets a tile from one of
 * the two racks by then (each tile once). So the word fits the line as it stands from a square s whose
 * neighbour before is empty, its other tiles a sub-multiset of both racks together, a blank standing for
 * any letter. Those words are found by walking the full graph's "first tile, separator, the rest" strings
 * along every line from every such square. */
#include <stdlib.h>
#include <string.h>

#include "word_prune.h"

typedef struct {
    const uint32_t *w;
    int budget[MAX_TILES + 1];  /* tiles left to spend, by number ([0]: blanks, any letter) */
    uint8_t word[MAX_DIM];
    uint8_t *out;               /* words, each ended by a 0 byte */
    size_t n_out, cap_out;
    long long words;
    int failed;
} Walk;

static void emit(Walk *k, int len) {
    if (k->n_out + (size_t)len + 1 > k->cap_out) {
        size_t cap = k->cap_out ? k->cap_out * 2 : 1 << 16;
        uint8_t *grown = realloc(k->out, cap);
        if (!grown) { k->failed = 1; return; }
        k->out = grown;
        k->cap_out = cap;
    }
    memcpy(k->out + k->n_out, k->word, (size_t)len);
    k->out[k->n_out + (size_t)len] = 0;
    k->n_out += (size_t)len + 1;
    k->words++;
}

/* Spend tile t (a letter of the budget, else a blank): which was spent (t, 0 a blank), -1 neither. */
static int spend(Walk *k, int t) {
    if (k->budget[t] > 0) { k->budget[t]--; return t; }
    if (k->budget[0] > 0) { k->budget[0]--; return 0; }
    return -1;
}

static void walk_line(Walk *k, const uint8_t *line, int n, int i, uint32_t node, int len);

/* The word k->word[0..len) extended by tile t on square i of the line (`node`: where the word so far
 * leads, the root for none): kept when the graph holds it and the next square is empty, then extended. */
static void try_tile(Walk *k, const uint8_t *line, int n, int i, uint32_t node, int len, int t) {
    uint32_t arc = sg_arc(k->w, node, (unsigned)t);
    if (!arc) return;
    uint32_t next = arc & SG_CHILD;
    if (len == 0) next = sg_arc(k->w, next, SEP) & SG_CHILD;  /* "first tile, separator, the rest" */
    k->word[len] = (uint8_t)t;
    if ((arc & SG_ACCEPTS) && (i + 1 >= n || !line[i + 1])) emit(k, len + 1);
    if (next) walk_line(k, line, n, i + 1, next, len + 1);
}

/* The words that fit the line from square i on with k->word[0..len) before it: a tile of the line where
 * one stands, else a tile of the budget. */
static void walk_line(Walk *k, const uint8_t *line, int n, int i, uint32_t node, int len) {
    if (i >= n || len >= MAX_DIM || k->failed) return;
    if (line[i]) {
        try_tile(k, line, n, i, node, len, line[i] & SQ_TILE);
        return;
    }
    uint64_t mask = node_mask(k->w, node);
    for (uint64_t m = mask & ~1ull; m; m &= m - 1) {
        int t = __builtin_ctzll(m), spent = spend(k, t);
        if (spent < 0) continue;
        try_tile(k, line, n, i, node, len, t);
        k->budget[spent]++;
    }
}

/* The squares of line `line` (dir 0: a row, 1: a column), `n` of them. */
static int line_squares(const MgRules *R, const uint8_t *board, int dir, int line, uint8_t *out) {
    int n = dir ? R->rows : R->cols;
    for (int i = 0; i < n; i++) out[i] = dir ? board[i * R->cols + line] : board[line * R->cols + i];
    return n;
}

/* Every word that fits some line of the board from some square whose left (upper) neighbour is empty, each
 * line's tail walked once however many lines share it. */
static int walk_board(Walk *k, const MgRules *R, const uint8_t *board) {
    uint8_t (*seen)[MAX_DIM + 1] = malloc(4 * MAX_DIM * MAX_DIM * sizeof *seen);
    int n_seen = 0;
    if (!seen) return GRAPH_NO_MEMORY;
    for (int dir = 0; dir < 2; dir++)
        for (int line = 0; line < (dir ? R->cols : R->rows); line++) {
            uint8_t squares[MAX_DIM];
            int n = line_squares(R, board, dir, line, squares);
            for (int s = 0; s < n && !k->failed; s++) {
                if (s && squares[s - 1]) continue;
                uint8_t tail[MAX_DIM + 1] = {(uint8_t)(n - s)};
                memcpy(tail + 1, squares + s, (size_t)(n - s));
                int done = 0;
                for (int j = 0; j < n_seen && !done; j++) done = !memcmp(seen[j], tail, sizeof tail);
                if (done) continue;
                memcpy(seen[n_seen++], tail, sizeof tail);
                walk_line(k, squares + s, n - s, 0, k->w[0], 0);
            }
        }
    free(seen);
    return k->failed ? GRAPH_NO_MEMORY : GRAPH_OK;
}

static int layout_of_words(const uint8_t *words, size_t size, const MgRules *R, uint32_t **layout, size_t *n_words) {
    int max_len = R->rows > R->cols ? R->rows : R->cols;
    uint32_t *arcs = NULL, *newpos = NULL;
    size_t n_arcs = 0, at = 0;
    const char *why = NULL;
    int rc = graph_build(words, size, R->n_tiles, max_len, &arcs, &n_arcs, &why);
    if (rc) return rc;
    rc = GRAPH_NO_MEMORY;
    newpos = calloc(n_arcs, sizeof(uint32_t));
    if (newpos && layout_size(arcs, n_arcs, newpos, n_words, &why, &at) == GRAPH_OK) {
        *layout = malloc(*n_words * sizeof(uint32_t));
        if (*layout) rc = layout_fill(arcs, n_arcs, newpos, *layout, &why, &at);
        if (rc) { free(*layout); *layout = NULL; }
    }
    free(newpos);
    free(arcs);
    return rc;
}

static int word_cmp(const void *x, const void *y) {
    return strcmp(*(const char *const *)x, *(const char *const *)y);
}

/* The words of k->out each once (lines with different budgets find the same words), in k->out again. */
static int unique_words(Walk *k) {
    const char **starts = malloc((size_t)(k->words ? k->words : 1) * sizeof(char *));
    size_t n = 0;
    uint8_t *kept = malloc(k->n_out ? k->n_out : 1);
    if (!starts || !kept) { free(starts); free(kept); return GRAPH_NO_MEMORY; }
    for (size_t i = 0; i < k->n_out; i += strlen((const char *)k->out + i) + 1) starts[n++] = (const char *)k->out + i;
    qsort(starts, n, sizeof(char *), word_cmp);
    size_t size = 0;
    k->words = 0;
    for (size_t j = 0; j < n; j++) {
        const char *word = starts[j];
        if (j && !strcmp(word, starts[j - 1])) continue;
        size_t len = strlen(word) + 1;
        memcpy(kept + size, word, len);
        size += len;
        k->words++;
    }
    free(starts);
    free(k->out);
    k->out = kept;
    k->n_out = size;
    return GRAPH_OK;
}

int wp_endgame_layout(const uint32_t *layout, const MgRules *R, const uint8_t *board, const uint8_t *rack_a,
                      const uint8_t *rack_b, uint32_t **pruned, size_t *n_words, long long *n_kept) {
    *pruned = NULL;
    *n_words = 0;
    *n_kept = 0;
    Walk *k = calloc(1, sizeof(Walk));
    if (!k) return GRAPH_NO_MEMORY;
    k->w = layout;
    for (int t = 0; t <= MAX_TILES; t++) k->budget[t] = rack_a[t] + rack_b[t];
    int rc = walk_board(k, R, board);
    if (!rc) rc = unique_words(k);
    if (!rc) {
        *n_kept = k->words;
        rc = layout_of_words(k->out, k->n_out, R, pruned, n_words);
    }
    free(k->out);
    free(k);
    return rc;
}
