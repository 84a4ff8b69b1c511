/* Move graph construction: GADDAG strings, bucketed by first symbol, radix-sorted, minimised on the
 * fly (incremental construction of a minimal acyclic automaton from sorted input, Daciuk et al. 2000),
 * nodes then laid out breadth-first from the root. No Python here (bindings.c wraps it). */
#include <stdlib.h>
#include <string.h>

#include "graph.h"
/* al. 2000).                                                                                   */

typedef struct {
    uint32_t *arcs;
    size_t n, cap;
    uint32_t *table;    /* register: node start index (0 = free slot) */
    uint32_t *hashes;
    size_t table_cap, table_used;
    int overflow;
} Builder;

static uint32_t hash_arcs(const uint32_t *a, size_t n) {
    uint64_t h = 1469598103934665603ull;
    for (size_t i = 0; i < n; i++) {
        h ^= a[i];
        h *= 1099511628211ull;
        h ^= h >> 29;
    }
    return (uint32_t)(h ^ (h >> 32));
}

static size_t node_len(const uint32_t *arcs, uint32_t start) {
    size_t n = 1;
    while (!(arcs[start + n - 1] & ARC_END)) n++;
    return n;
}

static int table_grow(Builder *b) {
    size_t cap = b->table_cap ? b->table_cap * 2 : (1u << 16);
    uint32_t *t = calloc(cap, sizeof(uint32_t));
    uint32_t *h = malloc(cap * sizeof(uint32_t));
    if (!t || !h) { free(t); free(h); return -1; }
    for (size_t i = 0; i < b->table_cap; i++) {
        if (!b->table[i]) continue;
        size_t j = b->hashes[i] & (cap - 1);
        while (t[j]) j = (j + 1) & (cap - 1);
        t[j] = b->table[i];
        h[j] = b->hashes[i];
    }
    free(b->table);
    free(b->hashes);
    b->table = t;
    b->hashes = h;
    b->table_cap = cap;
    return 0;
}

/* The node made of these arcs (ARC_END already set on the last): its index, registered once. */
static long freeze(Builder *b, const uint32_t *node, size_t n) {
    if (n == 0) return 0;
    if ((b->table_used + 1) * 2 > b->table_cap && table_grow(b) < 0) return -1;
    uint32_t h = hash_arcs(node, n);
    size_t j = h & (b->table_cap - 1);
    while (b->table[j]) {
        if (b->hashes[j] == h) {
            uint32_t s = b->table[j];
            if (node_len(b->arcs, s) == n && memcmp(b->arcs + s, node, n * sizeof(uint32_t)) == 0) return s;
        }
        j = (j + 1) & (b->table_cap - 1);
    }
    if (b->n + n > MAX_ARCS) { b->overflow = 1; return -1; }
    if (b->n + n > b->cap) {
        size_t cap = b->cap * 2;
        while (cap < b->n + n) cap *= 2;
        uint32_t *a = realloc(b->arcs, cap * sizeof(uint32_t));
        if (!a) return -1;
        b->arcs = a;
        b->cap = cap;
    }
    uint32_t s = (uint32_t)b->n;
    memcpy(b->arcs + s, node, n * sizeof(uint32_t));
    b->n += n;
    b->table[j] = s;
    b->hashes[j] = h;
    b->table_used++;
    return s;
}

/* Records: fixed-width strings of symbols + 1 (separator 1, tile t -> t + 1), padded with 0. */
static void insertion_sort(uint8_t *r, size_t n, int stride, int depth) {
    uint8_t tmp[MAX_DIM + 2];
    for (size_t i = 1; i < n; i++) {
        memcpy(tmp, r + i * stride, stride);
        size_t j = i;
        while (j > 0 && memcmp(r + (j - 1) * stride + depth, tmp + depth, stride - depth) > 0) {
            memcpy(r + j * stride, r + (j - 1) * stride, stride);
            j--;
        }
        memcpy(r + j * stride, tmp, stride);
    }
}

static void radix_sort(uint8_t *r, uint8_t *tmp, size_t n, int stride, int depth) {
    if (n < 2 || depth >= stride) return;
    if (n < 24) { insertion_sort(r, n, stride, depth); return; }
    size_t count[MAX_TILES + 3] = {0}, start[MAX_TILES + 3];
    for (size_t i = 0; i < n; i++) count[r[i * stride + depth]]++;
    size_t s = 0;
    for (int c = 0; c < MAX_TILES + 3; c++) { start[c] = s; s += count[c]; }
    size_t pos[MAX_TILES + 3];
    memcpy(pos, start, sizeof pos);
    for (size_t i = 0; i < n; i++) {
        uint8_t c = r[i * stride + depth];
        memcpy(tmp + pos[c]++ * stride, r + i * stride, stride);
    }
    memcpy(r, tmp, n * stride);
    for (int c = 1; c < MAX_TILES + 3; c++)   /* symbol 0: the strings ended; all equal */
        if (count[c] > 1) radix_sort(r + start[c] * stride, tmp, count[c], stride, depth + 1);
}

typedef struct {
    uint32_t arcs[MAX_DIM + 2][MAX_TILES + 1];
    int n[MAX_DIM + 2];
    uint8_t prev[MAX_DIM + 2];
    int prev_len;
} OpenPath;

static int close_depths(Builder *b, OpenPath *op, int down_to) {
    for (int d = op->prev_len; d > down_to; d--) {
        int n = op->n[d];
        if (n) op->arcs[d][n - 1] |= ARC_END;
        long s = freeze(b, op->arcs[d], n);
        if (s < 0) return -1;
        op->arcs[d - 1][op->n[d - 1] - 1] |= (uint32_t)s;
        op->n[d] = 0;
    }
    return 0;
}

static int add_string(Builder *b, OpenPath *op, const uint8_t *rec, int stride) {
    int len = 0;
    while (len < stride && rec[len]) len++;
    int p = 0;
    while (p < len && p < op->prev_len && op->prev[p] == rec[p]) p++;
    if (p == len && p == op->prev_len) return 0; /* the same string again */
    if (close_depths(b, op, p) < 0) return -1;
    for (int d = p; d < len; d++) {
        op->arcs[d][op->n[d]++] = (uint32_t)(rec[d] - 1) << ARC_TILE_SHIFT;
        op->n[d + 1] = 0;
        op->prev[d] = rec[d];
    }
    op->arcs[len - 1][op->n[len - 1] - 1] |= ARC_ACCEPTS;
    op->prev_len = len;
    return 0;
}

/* The nodes in breadth-first order from the root (arc 0 stays the root pointer): the nodes near the
 * root, which every search visits, end up together at the front of the array (fewer cache misses). */
static uint32_t *breadth_first(const uint32_t *arcs, size_t n) {
    uint32_t *out = malloc(n * sizeof(uint32_t)), *newpos = calloc(n, sizeof(uint32_t));
    uint32_t *queue = malloc(n * sizeof(uint32_t));
    if (!out || !newpos || !queue) { free(out); free(newpos); free(queue); return NULL; }
    uint32_t root = arcs[0] & ARC_INDEX_MASK;
    size_t head = 0, tail = 0, next = 1;
    out[0] = arcs[0] & ~ARC_INDEX_MASK;
    if (root) {
        newpos[root] = (uint32_t)next;
        next += node_len(arcs, root);
        queue[tail++] = root;
        out[0] |= 1;
    }
    while (head < tail) {
        uint32_t s = queue[head++];
        size_t len = node_len(arcs, s);
        for (size_t i = 0; i < len; i++) {
            uint32_t c = arcs[s + i] & ARC_INDEX_MASK;
            if (c && !newpos[c]) {
                newpos[c] = (uint32_t)next;
                next += node_len(arcs, c);
                queue[tail++] = c;
            }
            out[newpos[s] + i] = (arcs[s + i] & ~ARC_INDEX_MASK) | (c ? newpos[c] : 0);
        }
    }
    free(newpos);
    free(queue);
    return out;
}


/* The GADDAG strings of the words whose position k holds tile t (the reversed prefix up to k, the
 * separator, the rest), sorted and added to the automaton. */
static int add_bucket(Builder *b, OpenPath *op, const uint8_t *w, const uint32_t *refs, size_t n,
                      uint8_t *recs, uint8_t *tmp, int stride) {
    for (size_t i = 0; i < n; i++) {
        uint32_t k = refs[i];
        uint8_t *r = recs + i * stride;
        memset(r, 0, stride);
        size_t ws = k, we = k;
        while (ws > 0 && w[ws - 1]) ws--;
        while (w[we]) we++;
        int j = 0;
        for (size_t q = k + 1; q-- > ws;) r[j++] = (uint8_t)(w[q] + 1);
        if (k + 1 < we) {
            r[j++] = SEP + 1;
            for (size_t q = k + 1; q < we; q++) r[j++] = (uint8_t)(w[q] + 1);
        }
    }
    radix_sort(recs, tmp, n, stride, 1);
    for (size_t i = 0; i < n; i++)
        if (add_string(b, op, recs + i * stride, stride) < 0) return b->overflow ? GRAPH_TOO_BIG : GRAPH_NO_MEMORY;
    return GRAPH_OK;
}

/* Pass 1: check the words and count the GADDAG strings per first symbol (count[t]) and in all. */
static int count_strings(const uint8_t *w, size_t size, int n_tiles, int max_len, size_t *count, size_t *total,
                         const char **why) {
    size_t start = 0;
    *total = 0;
    for (size_t i = 0; i < size; i++) {
        if (w[i] == 0) {
            size_t len = i - start;
            if (len >= 1 && len <= (size_t)max_len) {
                for (size_t k = start; k < i; k++) count[w[k]]++;
                *total += len;
            }
            start = i + 1;
        } else if (w[i] > n_tiles) {
            *why = "tile number out of range";
            return GRAPH_BAD;
        }
    }
    if (start != size) { *why = "last word not terminated"; return GRAPH_BAD; }
    if (*total > 0xFFFFFFFFu || size > 0xFFFFFFFFu) { *why = "too many words"; return GRAPH_BAD; }
    return GRAPH_OK;
}

int graph_build(const uint8_t *w, size_t size, int n_tiles, int max_len, uint32_t **arcs, size_t *n_arcs,
                const char **why) {
    if (n_tiles < 1 || n_tiles > MAX_TILES || max_len < 1 || max_len > MAX_DIM) {
        *why = "n_tiles must be 1-63 and max_len 1-32";
        return GRAPH_BAD;
    }
    int stride = max_len + 1;
    size_t count[MAX_TILES + 1] = {0}, total;
    int rc = count_strings(w, size, n_tiles, max_len, count, &total, why);
    if (rc) return rc;
    uint32_t *refs = NULL;
    uint8_t *recs = NULL, *tmp = NULL;
    OpenPath *op = calloc(1, sizeof(OpenPath));
    Builder b = {0};
    b.cap = 1 << 16;
    b.arcs = malloc(b.cap * sizeof(uint32_t));
    rc = GRAPH_NO_MEMORY;
    if (!op || !b.arcs) goto done;
    b.n = 1; /* arc 0: the root pointer */
    b.arcs[0] = 0;
    size_t bucket_start[MAX_TILES + 2], fill[MAX_TILES + 2], biggest = 0, s = 0;
    for (int t = 0; t <= MAX_TILES; t++) {
        bucket_start[t] = s; fill[t] = s; s += count[t];
        if (count[t] > biggest) biggest = count[t];
    }
    refs = malloc((total ? total : 1) * sizeof(uint32_t));
    recs = malloc((biggest ? biggest : 1) * stride);
    tmp = malloc((biggest ? biggest : 1) * stride);
    if (!refs || !recs || !tmp) goto done;
    for (size_t i = 0, start = 0; i < size; i++) {
        if (w[i] == 0) {
            size_t len = i - start;
            if (len >= 1 && len <= (size_t)max_len)
                for (size_t k = start; k < i; k++) refs[fill[w[k]]++] = (uint32_t)k;
            start = i + 1;
        }
    }
    rc = GRAPH_OK;
    for (int t = 1; t <= n_tiles && !rc; t++)
        if (count[t]) rc = add_bucket(&b, op, w, refs + bucket_start[t], count[t], recs, tmp, stride);
    if (rc) goto done;
    rc = GRAPH_NO_MEMORY;
    if (close_depths(&b, op, 0) < 0) goto done;
    if (op->n[0]) op->arcs[0][op->n[0] - 1] |= ARC_END;
    long root = freeze(&b, op->arcs[0], op->n[0]);
    if (root < 0) goto done;
    b.arcs[0] = ARC_END | (uint32_t)root;
    *arcs = breadth_first(b.arcs, b.n);
    if (!*arcs) goto done;
    *n_arcs = b.n;
    rc = GRAPH_OK;
done:
    free(refs); free(recs); free(tmp); free(op);
    free(b.arcs); free(b.table); free(b.hashes);
    return rc;
}
