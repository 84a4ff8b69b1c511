/* The move generator's compiled core: move graph (GADDAG) construction and move generation.
 *
 * Everything here works on tile numbers (1..63, the rule set's alphabet order; 0 is the GADDAG
 * separator) and on the arc array described in lexicon_service/movegen/graph.py. The Python side
 * (lexicon_service/movegen/__init__.py) turns boards and racks into bytes and the found moves into
 * GeneratedMove objects; nothing in the recursion allocates.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define ARC_INDEX_MASK 0x00FFFFFFu
#define ARC_END (1u << 24)
#define ARC_ACCEPTS (1u << 25)
#define ARC_TILE_SHIFT 26
#define MAX_ARCS (1u << 24)
#define SEP 0
#define MAX_TILES 63
#define MAX_DIM 32
#define MAX_LISTED 1000000  /* plays listed at most (a limit, or all) */

#define SQ_TILE 0x3F
#define SQ_BLANK 0x40
#define SQ_NEW 0x80

static inline unsigned arc_tile(uint32_t a) { return a >> ARC_TILE_SHIFT; }

/* ------------------------------------------------------------------------------------------ */
/* Graph construction: GADDAG strings, bucketed by first symbol, radix-sorted, minimised on the */
/* fly (incremental construction of a minimal acyclic automaton from sorted input, Daciuk et   */
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

/* build_gaddag(words: bytes, n_tiles: int, max_len: int) -> bytes
 * words: tile numbers 1..n_tiles, each word ended by a 0 byte; words longer than max_len are left
 * out (they cannot be played). Returns the arc array (little-endian uint32), arc 0 pointing at the root. */
static PyObject *build_gaddag(PyObject *self, PyObject *args) {
    Py_buffer words;
    int n_tiles, max_len;
    if (!PyArg_ParseTuple(args, "y*ii", &words, &n_tiles, &max_len)) return NULL;
    if (n_tiles < 1 || n_tiles > MAX_TILES || max_len < 1 || max_len > MAX_DIM) {
        PyBuffer_Release(&words);
        PyErr_SetString(PyExc_ValueError, "build_gaddag: n_tiles must be 1-63 and max_len 1-32");
        return NULL;
    }
    const uint8_t *w = words.buf;
    size_t size = (size_t)words.len;
    int stride = max_len + 1;
    size_t count[MAX_TILES + 1] = {0};
    PyObject *result = NULL;
    uint32_t *refs = NULL;
    uint8_t *recs = NULL, *tmp = NULL;
    OpenPath *op = calloc(1, sizeof(OpenPath));
    Builder b = {0};
    b.cap = 1 << 16;
    b.arcs = malloc(b.cap * sizeof(uint32_t));
    if (!op || !b.arcs) { PyErr_NoMemory(); goto done; }
    b.n = 1; /* arc 0: the root pointer */
    b.arcs[0] = 0;
    /* pass 1: validate, count the GADDAG strings per first symbol */
    size_t total = 0, start = 0;
    for (size_t i = 0; i < size; i++) {
        if (w[i] == 0) {
            size_t len = i - start;
            if (len >= 1 && len <= (size_t)max_len) {
                for (size_t k = start; k < i; k++) count[w[k]]++;
                total += len;
            }
            start = i + 1;
        } else if (w[i] > n_tiles) {
            PyErr_Format(PyExc_ValueError, "build_gaddag: tile number %d out of range", w[i]);
            goto done;
        }
    }
    if (start != size) { PyErr_SetString(PyExc_ValueError, "build_gaddag: last word not terminated"); goto done; }
    if (total > 0xFFFFFFFFu || size > 0xFFFFFFFFu) { PyErr_SetString(PyExc_ValueError, "build_gaddag: too many words"); goto done; }
    size_t bucket_start[MAX_TILES + 2], fill[MAX_TILES + 2], biggest = 0;
    size_t s = 0;
    for (int t = 0; t <= MAX_TILES; t++) {
        bucket_start[t] = s; fill[t] = s; s += count[t];
        if (count[t] > biggest) biggest = count[t];
    }
    bucket_start[MAX_TILES + 1] = s;
    refs = malloc((total ? total : 1) * sizeof(uint32_t));
    recs = malloc((biggest ? biggest : 1) * stride);
    tmp = malloc((biggest ? biggest : 1) * stride);
    if (!refs || !recs || !tmp) { PyErr_NoMemory(); goto done; }
    start = 0;
    for (size_t i = 0; i < size; i++) {
        if (w[i] == 0) {
            size_t len = i - start;
            if (len >= 1 && len <= (size_t)max_len)
                for (size_t k = start; k < i; k++) refs[fill[w[k]]++] = (uint32_t)k;
            start = i + 1;
        }
    }
    Py_BEGIN_ALLOW_THREADS
    for (int t = 1; t <= n_tiles; t++) {
        size_t n = count[t];
        if (!n) continue;
        /* the string of position k (tile w[k] = t): reversed prefix up to k, separator, rest */
        for (size_t i = 0; i < n; i++) {
            uint32_t k = refs[bucket_start[t] + i];
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
            if (add_string(&b, op, recs + i * stride, stride) < 0) { b.overflow = b.overflow ? 1 : 2; break; }
        if (b.overflow) break;
    }
    Py_END_ALLOW_THREADS
    if (b.overflow == 1) { PyErr_SetString(PyExc_ValueError, "build_gaddag: the graph needs more than 2^24 arcs"); goto done; }
    if (b.overflow) { PyErr_NoMemory(); goto done; }
    if (close_depths(&b, op, 0) < 0) { PyErr_NoMemory(); goto done; }
    if (op->n[0]) op->arcs[0][op->n[0] - 1] |= ARC_END;
    long root = freeze(&b, op->arcs[0], op->n[0]);
    if (root < 0) { PyErr_NoMemory(); goto done; }
    b.arcs[0] = ARC_END | (uint32_t)root;
    uint32_t *ordered = breadth_first(b.arcs, b.n);
    if (!ordered) { PyErr_NoMemory(); goto done; }
    result = PyBytes_FromStringAndSize((const char *)ordered, (Py_ssize_t)(b.n * sizeof(uint32_t)));
    free(ordered);
done:
    PyBuffer_Release(&words);
    free(refs); free(recs); free(tmp); free(op);
    free(b.arcs); free(b.table); free(b.hashes);
    return result;
}

/* Every path from the root of a checked arc array spells at most `longest` tiles (a word and the
 * separator): a damaged graph with a cycle or a longer path is refused, since it would give the search
 * strings of no word. A depth-first walk of the nodes the root reaches, each node's height (the most arcs
 * below it) kept once known. 0, or -1 with `why` and `at` set; -2: out of memory. */
#define ON_PATH 255
static int check_paths(const uint32_t *a, size_t n, int longest, const char **why, size_t *at) {
    uint32_t root = a[0] & ARC_INDEX_MASK;
    if (!root) return 0;
    uint8_t *height = calloc(n, 1);  /* per node start: 0 not seen, ON_PATH on the path, else its height */
    uint32_t *node = malloc(sizeof(uint32_t) * (size_t)(longest + 1)), *arc = malloc(sizeof(uint32_t) * (size_t)(longest + 1));
    uint8_t *best = malloc((size_t)longest + 1);
    int result = 0, depth = 0;
    if (!height || !node || !arc || !best) { result = -2; goto done; }
    node[0] = arc[0] = root;
    best[0] = 0;
    height[root] = ON_PATH;
    while (depth >= 0) {
        uint32_t i = arc[depth], child = a[i] & ARC_INDEX_MASK;
        if (child && height[child] == ON_PATH) { *why = "a path of arcs leads back into itself"; *at = i; result = -1; break; }
        if (child && !height[child]) {  /* walk down: the child's arcs make the path at least depth + 2 long */
            if (depth + 2 > longest) { *why = "a path is longer than the longest word"; *at = i; result = -1; break; }
            depth++;
            node[depth] = arc[depth] = child;
            best[depth] = 0;
            height[child] = ON_PATH;
            continue;
        }
        int h = 1 + (child ? height[child] : 0);
        if (depth + h > longest) { *why = "a path is longer than the longest word"; *at = i; result = -1; break; }
        if (h > best[depth]) best[depth] = (uint8_t)h;
        if (!(a[i] & ARC_END)) { arc[depth]++; continue; }
        height[node[depth]] = best[depth];  /* the node is done; its parent's arc is taken again */
        depth--;
    }
done:
    free(height); free(node); free(arc); free(best);
    return result;
}

/* check_graph(arcs: bytes, n_tiles: int, longest: int) -> None: raises ValueError naming the first bad
 * arc; `longest`: the most tiles a path from the root may spell (the longest word and the separator). */
static PyObject *check_graph(PyObject *self, PyObject *args) {
    Py_buffer buf;
    int n_tiles, longest;
    if (!PyArg_ParseTuple(args, "y*ii", &buf, &n_tiles, &longest)) return NULL;
    if (longest < 1 || longest > 2 * MAX_DIM + 1) {
        PyBuffer_Release(&buf);
        PyErr_SetString(PyExc_ValueError, "check_graph: longest is not 1-65");
        return NULL;
    }
    const uint32_t *a = buf.buf;
    size_t n = (size_t)buf.len / 4;
    const char *why = NULL;
    size_t at = 0;
    if (buf.len % 4 || n == 0) why = "the arc array is empty or not whole arcs";
    else if (n > MAX_ARCS) why = "more arcs than an index can address";
    else if (!(a[n - 1] & ARC_END)) { why = "the last arc does not end its node"; at = n - 1; }
    else if (arc_tile(a[0]) != 0) why = "arc 0 is not the root pointer";
    for (size_t i = 0; !why && i < n; i++) {
        uint32_t x = a[i];
        if ((x & ARC_INDEX_MASK) >= n) { why = "an arc points past the end"; at = i; }
        else if (i > 0 && (int)arc_tile(x) > n_tiles) { why = "an arc holds a tile the rule set does not have"; at = i; }
        else if (i > 0 && (x & ARC_INDEX_MASK) == 0 && !(x & ARC_ACCEPTS)) { why = "an arc leads nowhere and accepts nothing"; at = i; }
        else if (i > 0 && !(x & ARC_END) && arc_tile(a[i + 1]) <= arc_tile(x)) { why = "a node's tiles are not in rising order"; at = i + 1; }
    }
    /* every arc leads to the first arc of a node (the search finds a node's tiles from its start) */
    uint8_t *starts = why ? NULL : calloc(n, 1);
    if (!why && !starts) { PyBuffer_Release(&buf); return PyErr_NoMemory(); }
    for (size_t i = 1; starts && i < n; i++) starts[i] = i == 1 || (a[i - 1] & ARC_END);
    for (size_t i = 0; starts && !why && i < n; i++) {
        uint32_t child = a[i] & ARC_INDEX_MASK;
        if (child && !starts[child]) { why = "an arc leads into the middle of a node"; at = i; }
    }
    free(starts);
    if (!why && check_paths(a, n, longest, &why, &at) == -2) { PyBuffer_Release(&buf); return PyErr_NoMemory(); }
    PyBuffer_Release(&buf);
    if (why) { PyErr_Format(PyExc_ValueError, "%s (arc %zu)", why, at); return NULL; }
    Py_RETURN_NONE;
}

/* ------------------------------------------------------------------------------------------ */
/* The search layout: the move graph as the search reads it, made once per lexicon from the     */
/* checked arc array (search_layout below). A node is a 64-bit mask of its tiles (two words, low */
/* first) followed by one word per tile in tile order: the child node's index | SG_ACCEPTS      */
/* (index 0: no child). Word 0 is the root node's index, word 1 the flags of the arc array's     */
/* root pointer (so arcs_of_layout gives the arc array back). The arc of a tile is found by a mask */
/* test and a popcount instead of a scan of the node, and the tiles a rack can place on a       */
/* square are the node's mask & the square's cross-check & the rack's tiles, without branches   */
/* per arc.                                                                                    */

#define SG_ACCEPTS (1u << 31)
#define SG_CHILD 0x7FFFFFFFu

static inline int popcount64(uint64_t x) { return __builtin_popcountll(x); }

/* Baseline x86-64 has no popcnt instruction (the compiler calls a library routine): on glibc the
 * search functions are also compiled for CPUs that have it, chosen once at load (an ifunc). */
#if defined(__x86_64__) && defined(__GLIBC__) && (defined(__GNUC__) || defined(__clang__))
#define POPCNT_CLONES __attribute__((target_clones("popcnt", "default")))
#else
#define POPCNT_CLONES
#endif

static inline uint64_t node_mask(const uint32_t *w, uint32_t node) {
    return (uint64_t)w[node] | ((uint64_t)w[node + 1] << 32);
}

/* The arc of `tile` leaving `node` (child | SG_ACCEPTS); 0: none. */
static inline uint32_t sg_arc(const uint32_t *w, uint32_t node, unsigned tile) {
    if (!node) return 0;
    uint64_t m = node_mask(w, node);
    if (!((m >> tile) & 1)) return 0;
    return w[node + 2 + popcount64(m & ((1ull << tile) - 1))];
}

/* One graph form to the other: `convert` of the single argument, a buffer of whole 32-bit words. */
static PyObject *convert_words(PyObject *args, PyObject *(*convert)(const uint32_t *, size_t)) {
    Py_buffer buf;
    if (!PyArg_ParseTuple(args, "y*", &buf)) return NULL;
    PyObject *result = NULL;
    if (buf.len % 4) PyErr_SetString(PyExc_ValueError, "not an array of 32-bit words");
    else result = convert(buf.buf, (size_t)buf.len / 4);
    PyBuffer_Release(&buf);
    return result;
}

/* The search layout of a move graph's arc array (which check_graph accepted). ValueError if a
 * node's tiles are not in strictly rising order or an arc leads into the middle of a node. */
static PyObject *layout_of_arcs(const uint32_t *a, size_t n) {
    PyObject *result = NULL;
    uint32_t *newpos = NULL, *w;
    const char *why = NULL;
    size_t at = 0;
    if (n == 0 || n > MAX_ARCS || !(a[n - 1] & ARC_END)) { why = "not a checked arc array"; goto done; }
    newpos = calloc(n, sizeof(uint32_t));
    if (!newpos) { PyErr_NoMemory(); goto done; }
    size_t out = 2;
    for (size_t s = 1; s < n;) {
        size_t e = s;
        while (!(a[e] & ARC_END)) {
            if (arc_tile(a[e + 1]) <= arc_tile(a[e])) { why = "a node's tiles are not in rising order"; at = e + 1; goto done; }
            e++;
        }
        newpos[s] = (uint32_t)out;
        out += 2 + (e - s + 1);
        s = e + 1;
    }
    result = PyBytes_FromStringAndSize(NULL, (Py_ssize_t)(out * sizeof(uint32_t)));  /* filled in place */
    if (!result) goto done;
    w = (uint32_t *)PyBytes_AS_STRING(result);
    uint32_t root = a[0] & ARC_INDEX_MASK;
    if (root && !newpos[root]) { why = "the root pointer leads into a node"; goto done; }
    w[0] = root ? newpos[root] : 0;
    w[1] = a[0] & ~ARC_INDEX_MASK;
    for (size_t s = 1; s < n;) {
        uint32_t o = newpos[s];
        uint64_t mask = 0;
        size_t i = s;
        for (;; i++) {
            uint32_t x = a[i], child = x & ARC_INDEX_MASK;
            if (child && !newpos[child]) { why = "an arc leads into the middle of a node"; at = i; goto done; }
            mask |= 1ull << arc_tile(x);
            w[o + 2 + (i - s)] = (child ? newpos[child] : 0) | ((x & ARC_ACCEPTS) ? SG_ACCEPTS : 0);
            if (x & ARC_END) break;
        }
        w[o] = (uint32_t)mask;
        w[o + 1] = (uint32_t)(mask >> 32);
        s = i + 1;
    }
done:
    if (why) {
        Py_CLEAR(result);
        PyErr_Format(PyExc_ValueError, "%s (arc %zu)", why, at);
    }
    free(newpos);
    return result;
}

/* The arc array a search layout was made from. */
static PyObject *arcs_of_layout_words(const uint32_t *w, size_t nw) {
    PyObject *result = NULL;
    uint32_t *oldpos = NULL, *a = NULL;
    int bad = nw < 2 || w[0] >= nw;
    size_t n = 1;
    if (!bad && !(oldpos = calloc(nw, sizeof(uint32_t)))) { PyErr_NoMemory(); goto done; }
    for (size_t o = 2; !bad && o < nw;) {
        int k = o + 1 < nw ? popcount64(node_mask(w, (uint32_t)o)) : 0;
        if (!k || o + 2 + k > nw || n + k > MAX_ARCS) { bad = 1; break; }
        oldpos[o] = (uint32_t)n;
        n += k;
        o += 2 + k;
    }
    if (!bad && !(a = malloc(n * sizeof(uint32_t)))) { PyErr_NoMemory(); goto done; }
    if (!bad) {
        a[0] = (w[1] & ~ARC_INDEX_MASK) | oldpos[w[0]];
        bad = w[0] && !oldpos[w[0]];
    }
    for (size_t o = 2; !bad && o < nw;) {
        uint64_t tiles = node_mask(w, (uint32_t)o);
        uint32_t i = oldpos[o];
        for (int k = 0; tiles; k++, tiles &= tiles - 1, i++) {
            uint32_t x = w[o + 2 + k], child = x & SG_CHILD;
            if (child >= nw || (child && !oldpos[child])) { bad = 1; break; }
            a[i] = ((uint32_t)__builtin_ctzll(tiles) << ARC_TILE_SHIFT) | oldpos[child]
                   | ((x & SG_ACCEPTS) ? ARC_ACCEPTS : 0) | ((tiles & (tiles - 1)) ? 0 : ARC_END);
        }
        o = o + 2 + (i - oldpos[o]);
    }
    if (bad) PyErr_SetString(PyExc_ValueError, "arcs_of_layout: not a search layout");
    else result = PyBytes_FromStringAndSize((const char *)a, (Py_ssize_t)(n * sizeof(uint32_t)));
done:
    free(oldpos);
    free(a);
    return result;
}

/* search_layout(arcs: bytes) -> bytes; arcs_of_layout(layout: bytes) -> bytes (the inverse). */
static PyObject *search_layout(PyObject *self, PyObject *args) { return convert_words(args, layout_of_arcs); }
static PyObject *arcs_of_layout(PyObject *self, PyObject *args) { return convert_words(args, arcs_of_layout_words); }

/* ------------------------------------------------------------------------------------------ */
/* Move generation.                                                                            */

typedef struct {
    int32_t score;
    uint8_t dir, line, start, len, n_new;
    uint8_t tiles[MAX_DIM];  /* tile | SQ_BLANK | SQ_NEW */
} MoveRec;

typedef struct {
    uint8_t dir, line, start, end;
    uint8_t tiles[MAX_DIM];
} Run;

typedef struct {
    const uint32_t *graph;  /* the search layout */
    int rows, cols;
    int n_lines[2], line_len[2];
    uint8_t sq[2][MAX_DIM][MAX_DIM];
    uint64_t cc[2][MAX_DIM][MAX_DIM];
    int16_t xs[2][MAX_DIM][MAX_DIM];       /* cross-word points of the other tiles, -1: no cross word */
    uint8_t xstart[2][MAX_DIM][MAX_DIM], xend[2][MAX_DIM][MAX_DIM];
    uint8_t lm[2][MAX_DIM][MAX_DIM], wm[2][MAX_DIM][MAX_DIM];
    uint8_t anchor[2][MAX_DIM][MAX_DIM];
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
    /* duplicate-word rule: the words already on the board */
    Run runs[2 * MAX_DIM * (MAX_DIM / 3 + 1)];
    int n_runs;
    /* the line being searched */
    int dir, line, len, anchor_pos;
    const uint8_t *L_sq, *L_lm, *L_wm, *L_anchor;
    const uint64_t *L_cc;
    const int16_t *L_xs;
    uint8_t strip[MAX_DIM];
    /* output */
    int mode; /* 0 collect, 1 count, 2 stop at the first */
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
} Gen;

/* Order of the answer: score descending, then across before down, row, column, tiles. */
static int rec_cmp(const MoveRec *a, const MoveRec *b) {
    if (a->score != b->score) return a->score > b->score ? -1 : 1;
    if (a->dir != b->dir) return a->dir < b->dir ? -1 : 1;
    int ar = a->dir ? a->start : a->line, br = b->dir ? b->start : b->line;
    if (ar != br) return ar < br ? -1 : 1;
    int ac = a->dir ? a->line : a->start, bc = b->dir ? b->line : b->start;
    if (ac != bc) return ac < bc ? -1 : 1;
    if (a->len != b->len) return a->len < b->len ? -1 : 1;
    return memcmp(a->tiles, b->tiles, a->len);
}

static int rec_qsort_cmp(const void *a, const void *b) { return rec_cmp(a, b); }

/* The heap keeps the worst of the kept moves at the top. */
static void heap_sift_down(MoveRec *h, size_t n, size_t i) {
    for (;;) {
        size_t l = 2 * i + 1, r = l + 1, m = i;
        if (l < n && rec_cmp(&h[l], &h[m]) > 0) m = l;
        if (r < n && rec_cmp(&h[r], &h[m]) > 0) m = r;
        if (m == i) return;
        MoveRec t = h[i]; h[i] = h[m]; h[m] = t;
        i = m;
    }
}

static void heap_sift_up(MoveRec *h, size_t i) {
    while (i > 0) {
        size_t p = (i - 1) / 2;
        if (rec_cmp(&h[i], &h[p]) <= 0) return;
        MoveRec t = h[i]; h[i] = h[p]; h[p] = t;
        i = p;
    }
}

/* lookup_keys(layout, table, text, min_len, max_len) -> bytes or None: for each word of `text`
 * (tile keys separated by "\n"), 1 when the move graph holds it, 0 when not, 2 when its length in
 * tiles is outside min_len..max_len (not looked up). `layout` is the graph's search layout,
 * `table[c]` the tile number of key character c (0: none). None when any character is no tile (the
 * caller then checks the words one by one). A word is found as the GADDAG string reverse(word) from
 * the root (graph.py). Every index read is checked against the layout's size, so any buffer is safe.
 * The interpreter lock is released: only immutable inputs are read. */
static PyObject *lookup_keys(PyObject *self, PyObject *args) {
    Py_buffer layout_buf, table_buf;
    PyObject *text;
    int min_len, max_len;
    if (!PyArg_ParseTuple(args, "y*y*Uii", &layout_buf, &table_buf, &text, &min_len, &max_len)) return NULL;
    PyObject *result = NULL;
    const uint32_t *w = layout_buf.buf;
    size_t nw = (size_t)layout_buf.len / 4;
    const uint8_t *table = table_buf.buf;
    Py_ssize_t n_table = table_buf.len, n_text = PyUnicode_GET_LENGTH(text);
    int kind = PyUnicode_KIND(text);
    const void *data = PyUnicode_DATA(text);
    size_t n_words = 1;
    for (Py_ssize_t i = 0; i < n_text; i++) n_words += PyUnicode_READ(kind, data, i) == '\n';
    uint8_t *out = NULL;
    int stray = 0;
    if (nw < 2 || layout_buf.len % 4) {
        PyErr_SetString(PyExc_ValueError, "not a search layout");
        goto done;
    }
    out = malloc(n_words);
    if (!out) { PyErr_NoMemory(); goto done; }
    Py_BEGIN_ALLOW_THREADS
    Py_ssize_t start = 0;
    for (size_t k = 0; k < n_words && !stray; k++) {
        Py_ssize_t end = start;
        while (end < n_text && PyUnicode_READ(kind, data, end) != '\n') end++;
        Py_ssize_t len = end - start;
        int found = 0;
        for (Py_ssize_t i = start; i < end && !stray; i++) {
            Py_UCS4 c = PyUnicode_READ(kind, data, i);
            unsigned tile = c < (Py_UCS4)n_table ? table[c] : 0;
            stray = !tile || tile > MAX_TILES;
        }
        if (len < min_len || len > max_len) {
            out[k] = 2;
        } else {
            uint32_t node = w[0], x = 0;
            for (Py_ssize_t i = end - 1; i >= start && !stray; i--) {
                unsigned tile = table[PyUnicode_READ(kind, data, i)];
                if (!node || (size_t)node + 1 >= nw) { x = 0; break; }
                uint64_t m = node_mask(w, node);
                if (!((m >> tile) & 1)) { x = 0; break; }
                size_t at = (size_t)node + 2 + (size_t)popcount64(m & ((1ull << tile) - 1));
                if (at >= nw) { x = 0; break; }
                x = w[at];
                node = x & SG_CHILD;
            }
            found = len > 0 && (x & SG_ACCEPTS);
            out[k] = (uint8_t)found;
        }
        start = end + 1;
    }
    Py_END_ALLOW_THREADS
    result = stray ? Py_NewRef(Py_None) : PyBytes_FromStringAndSize((const char *)out, (Py_ssize_t)n_words);
done:
    free(out);
    PyBuffer_Release(&layout_buf);
    PyBuffer_Release(&table_buf);
    return result;
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
    uint8_t tiles[MAX_DIM];
    if (g->has_must_use || g->must_contain_len || g->mode == 0) word_tiles(g, start, end, tiles);
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
    if (g->mode == 2) { g->stop = 1; return; }
    if (g->mode == 1) return;
    MoveRec rec;
    rec.score = msum * wmul + xtot + (n_new == g->bingo_tiles ? g->bingo_bonus : 0);
    rec.dir = (uint8_t)g->dir; rec.line = (uint8_t)g->line; rec.start = (uint8_t)start;
    rec.len = (uint8_t)len; rec.n_new = (uint8_t)n_new;
    memcpy(rec.tiles, tiles, len);
    memset(rec.tiles + len, 0, MAX_DIM - len);
    if (g->heap) {
        if (g->n_moves < g->limit) {
            g->moves[g->n_moves] = rec;
            heap_sift_up(g->moves, g->n_moves++);
        } else if (rec_cmp(&rec, &g->moves[0]) < 0) {
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
    uint64_t allowed = g->L_cc[pos] & (g->rack_mask | (g->rack[0] ? g->blank_mask : 0));
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
    g->L_anchor = g->anchor[d][line]; g->L_cc = g->cc[d][line]; g->L_xs = g->xs[d][line];
}

/* The most points a rack tile may bring to this empty square of the selected line (0: only a blank). */
static inline int square_cap(const Gen *g, int p) {
    uint64_t fits = g->L_cc[p] & g->rack_mask;
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

static inline void span_add(const Gen *g, Span *sp, int p) {
    uint8_t b = g->L_sq[p];
    if (b) {
        if (!(b & SQ_BLANK)) sp->fixed += g->pts[b & SQ_TILE];
        return;
    }
    int i = sp->used++, cross = g->L_xs[p] >= 0;
    sp->mult_main[i] = g->L_lm[p];
    sp->mult_x[i] = cross ? g->L_lm[p] * g->L_wm[p] : 0;
    sp->cap[i] = square_cap(g, p);
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
    if (!(g->L_cc[a] & open)) return -1;
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
        Span sp = {.wmul = 1};
        for (int p = s; p < a; p++) span_add(g, &sp, p);
        for (int e = a; e < len; e++) {
            if (!sq[e] && (sp.used == n_rack || !(g->L_cc[e] & open))) break;
            span_add(g, &sp, e);
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

/* generate(graph, n_tiles, rows, cols, lm, wm, pts, bag, blank_mask, bingo_tiles, bingo_bonus, min_len, first_cover,
 *          first_min_tiles, must_connect, forbid_dup, board, rack, mode, limit, min_main_len, must_use,
 *          must_contain, deadline)
 * mode 0: sorted list of (score, down, row, col, tiles bytes, n_new), at most `limit` (0 = all;
 *         OverflowError past MAX_LISTED);
 * mode 1: the number of moves; mode 2: whether there is one. Raises TimeoutError past `deadline`
 * (time.monotonic() seconds; <= 0: none). */
static PyObject *generate(PyObject *self, PyObject *args) {
    Py_buffer graph, lm, wm, pts, bag, board, rack, must_use, must_contain;
    int rows, cols, bingo_tiles, bingo_bonus, min_len, first_cover, first_min_tiles, must_connect, forbid_dup;
    int mode, min_main_len, n_tiles;
    unsigned long long blank_mask;
    Py_ssize_t limit;
    double deadline;
    if (!PyArg_ParseTuple(args, "y*iiiy*y*y*y*Kiiiiiiiy*y*iniy*y*d", &graph, &n_tiles, &rows, &cols, &lm, &wm, &pts, &bag,
                          &blank_mask, &bingo_tiles, &bingo_bonus, &min_len, &first_cover, &first_min_tiles,
                          &must_connect, &forbid_dup, &board, &rack, &mode, &limit, &min_main_len,
                          &must_use, &must_contain, &deadline))
        return NULL;
    PyObject *result = NULL;
    Gen *g = NULL;
    if (rows < 1 || cols < 1 || rows > MAX_DIM || cols > MAX_DIM || lm.len != rows * cols || wm.len != rows * cols
        || board.len != rows * cols || pts.len != MAX_TILES + 1 || bag.len != MAX_TILES + 1 || rack.len != MAX_TILES + 1
        || (must_use.len && must_use.len != MAX_TILES + 1) || must_contain.len > MAX_DIM || mode < 0 || mode > 2
        || limit < 0 || limit > MAX_LISTED || graph.len < 8 || graph.len % 4 || n_tiles < 1 || n_tiles > MAX_TILES) {
        PyErr_SetString(PyExc_ValueError, "generate: bad arguments");
        goto done;
    }
    g = calloc(1, sizeof(Gen));
    if (!g) { PyErr_NoMemory(); goto done; }
    g->graph = graph.buf;
    g->rows = rows; g->cols = cols; g->n_tiles = n_tiles;
    memcpy(g->pts, pts.buf, MAX_TILES + 1);
    memcpy(g->rack, rack.buf, MAX_TILES + 1);
    const uint8_t *B = board.buf;
    for (int i = 0; i < rows * cols; i++) {
        uint8_t v = B[i];
        if (v && ((v & SQ_NEW) || (v & SQ_TILE) == 0 || (v & SQ_TILE) > n_tiles)) {
            PyErr_SetString(PyExc_ValueError, "generate: bad board square");
            goto done;
        }
    }
    for (int r = 0; r < rows; r++)
        for (int c = 0; c < cols; c++) {
            g->lm[0][r][c] = g->lm[1][c][r] = ((const uint8_t *)lm.buf)[r * cols + c];
            g->wm[0][r][c] = g->wm[1][c][r] = ((const uint8_t *)wm.buf)[r * cols + c];
        }
    g->blank_mask = blank_mask & ~1ull;
    g->bingo_tiles = bingo_tiles; g->bingo_bonus = bingo_bonus; g->min_len = min_len;
    g->first_min_tiles = first_min_tiles; g->forbid_dup = forbid_dup;
    g->mode = mode; g->min_main_len = min_main_len; g->deadline = deadline;
    if (must_use.len) {
        memcpy(g->must_use, must_use.buf, MAX_TILES + 1);
        for (int t = 0; t <= MAX_TILES; t++) if (g->must_use[t]) g->has_must_use = 1;
    }
    g->must_contain_len = (int)must_contain.len;
    memcpy(g->must_contain, must_contain.buf, must_contain.len);
    for (int t = n_tiles + 1; t <= MAX_TILES; t++) g->rack[t] = 0;
    /* no more copies of a tile than the set holds beside those on the board (validate_move refuses more) */
    int on_board[MAX_TILES + 1] = {0};
    for (int i = 0; i < rows * cols; i++)
        if (B[i]) on_board[(B[i] & SQ_BLANK) ? 0 : (B[i] & SQ_TILE)]++;
    for (int t = 0; t <= MAX_TILES; t++) {
        int left = ((const uint8_t *)bag.buf)[t] - on_board[t];
        if (g->rack[t] > left) g->rack[t] = (uint8_t)(left > 0 ? left : 0);
    }
    for (int t = 1; t <= n_tiles; t++) if (g->rack[t]) g->rack_mask |= 1ull << t;
    g->max_moves = MAX_LISTED;
    if (mode == 0 && limit > 0) {
        g->heap = 1;
        g->limit = (size_t)limit;
        g->moves = malloc(g->limit * sizeof(MoveRec));
        if (!g->moves) { PyErr_NoMemory(); goto done; }
    }
    Py_BEGIN_ALLOW_THREADS
    setup(g, B, first_cover, must_connect);
    run_all(g);
    Py_END_ALLOW_THREADS
    if (g->oom) { PyErr_NoMemory(); goto done; }
    if (g->too_many) {
        PyErr_Format(PyExc_OverflowError, "more than %d plays", MAX_LISTED);
        goto done;
    }
    if (g->timed_out) { PyErr_SetString(PyExc_TimeoutError, "move generation passed its deadline"); goto done; }
    if (mode == 1) { result = PyLong_FromLongLong(g->count); goto done; }
    if (mode == 2) { result = PyBool_FromLong(g->count > 0); goto done; }
    qsort(g->moves, g->n_moves, sizeof(MoveRec), rec_qsort_cmp);
    size_t n = g->n_moves;
    if (limit > 0 && (size_t)limit < n) n = (size_t)limit;
    result = PyList_New((Py_ssize_t)n);
    if (!result) goto done;
    for (size_t i = 0; i < n; i++) {
        MoveRec *m = &g->moves[i];
        int row = m->dir ? m->start : m->line, col = m->dir ? m->line : m->start;
        PyObject *item = Py_BuildValue("(iiiiy#i)", m->score, m->dir, row, col, (const char *)m->tiles,
                                       (Py_ssize_t)m->len, m->n_new);
        if (!item) { Py_CLEAR(result); goto done; }
        PyList_SET_ITEM(result, (Py_ssize_t)i, item);
    }
done:
    if (g) free(g->moves);
    free(g);
    PyBuffer_Release(&graph); PyBuffer_Release(&lm); PyBuffer_Release(&wm); PyBuffer_Release(&pts); PyBuffer_Release(&bag);
    PyBuffer_Release(&board); PyBuffer_Release(&rack); PyBuffer_Release(&must_use); PyBuffer_Release(&must_contain);
    return result;
}

static PyMethodDef methods[] = {
    {"build_gaddag", build_gaddag, METH_VARARGS, "build_gaddag(words, n_tiles, max_len) -> arc array bytes"},
    {"check_graph", check_graph, METH_VARARGS, "check_graph(arcs, n_tiles, longest): ValueError if malformed"},
    {"search_layout", search_layout, METH_VARARGS, "search_layout(arcs) -> the search layout of a checked arc array"},
    {"arcs_of_layout", arcs_of_layout, METH_VARARGS, "arcs_of_layout(layout) -> the arc array it was made from"},
    {"generate", generate, METH_VARARGS, "generate(...) -> moves, count or bool (see _core.c)"},
    {"lookup_keys", lookup_keys, METH_VARARGS, "lookup_keys(layout, table, text, min_len, max_len) -> bytes or None"},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_core", "Move generation core (C).", -1, methods};

PyMODINIT_FUNC PyInit__core(void) { return PyModule_Create(&module); }
