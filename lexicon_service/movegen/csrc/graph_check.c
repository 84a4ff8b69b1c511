/* Reading a move graph: the check of a loaded arc array (graph_check), its search layout (layout_size,
 * layout_fill) and the arc array given back from a layout (arcs_of_layout). No Python here. */
#include <stdlib.h>
#include <string.h>

#include "graph.h"

/* Every path from the root of a checked arc array spells at most `longest` tiles (a word and the
 * separator): a damaged graph with a cycle or a longer path is refused, since it would give the search
 * strings of no word. A depth-first walk of the nodes the root reaches, each node's height (the most arcs
 * below it) kept once known. */
#define ON_PATH 255
static int check_paths(const uint32_t *a, size_t n, int longest, const char **why, size_t *at) {
    uint32_t root = a[0] & ARC_INDEX_MASK;
    if (!root) return GRAPH_OK;
    uint8_t *height = calloc(n, 1);  /* per node start: 0 not seen, ON_PATH on the path, else its height */
    uint32_t *node = malloc(sizeof(uint32_t) * (size_t)(longest + 1)), *arc = malloc(sizeof(uint32_t) * (size_t)(longest + 1));
    uint8_t *best = malloc((size_t)longest + 1);
    int result = GRAPH_OK, depth = 0;
    if (!height || !node || !arc || !best) { result = GRAPH_NO_MEMORY; goto done; }
    node[0] = arc[0] = root;
    best[0] = 0;
    height[root] = ON_PATH;
    while (depth >= 0) {
        uint32_t i = arc[depth], child = a[i] & ARC_INDEX_MASK;
        if (child && height[child] == ON_PATH) { *why = "a path of arcs leads back into itself"; *at = i; result = GRAPH_BAD; break; }
        if (child && !height[child]) {  /* walk down: the child's arcs make the path at least depth + 2 long */
            if (depth + 2 > longest) { *why = "a path is longer than the longest word"; *at = i; result = GRAPH_BAD; break; }
            depth++;
            node[depth] = arc[depth] = child;
            best[depth] = 0;
            height[child] = ON_PATH;
            continue;
        }
        int h = 1 + (child ? height[child] : 0);
        if (depth + h > longest) { *why = "a path is longer than the longest word"; *at = i; result = GRAPH_BAD; break; }
        if (h > best[depth]) best[depth] = (uint8_t)h;
        if (!(a[i] & ARC_END)) { arc[depth]++; continue; }
        height[node[depth]] = best[depth];  /* the node is done; its parent's arc is taken again */
        depth--;
    }
done:
    free(height); free(node); free(arc); free(best);
    return result;
}

/* Each arc on its own: index in range, a tile of the alphabet, leading somewhere or accepting, a
 * node's tiles rising. */
static int check_arcs(const uint32_t *a, size_t n, int n_tiles, const char **why, size_t *at) {
    if (n == 0) *why = "the arc array is empty or not whole arcs";
    else if (n > MAX_ARCS) *why = "more arcs than an index can address";
    else if (!(a[n - 1] & ARC_END)) { *why = "the last arc does not end its node"; *at = n - 1; }
    else if (arc_tile(a[0]) != 0) *why = "arc 0 is not the root pointer";
    for (size_t i = 0; !*why && i < n; i++) {
        uint32_t x = a[i];
        if ((x & ARC_INDEX_MASK) >= n) { *why = "an arc points past the end"; *at = i; }
        else if (i > 0 && (int)arc_tile(x) > n_tiles) { *why = "an arc holds a tile the rule set does not have"; *at = i; }
        else if (i > 0 && (x & ARC_INDEX_MASK) == 0 && !(x & ARC_ACCEPTS)) { *why = "an arc leads nowhere and accepts nothing"; *at = i; }
        else if (i > 0 && !(x & ARC_END) && arc_tile(a[i + 1]) <= arc_tile(x)) { *why = "a node's tiles are not in rising order"; *at = i + 1; }
    }
    return *why ? GRAPH_BAD : GRAPH_OK;
}

int graph_check(const uint32_t *a, size_t n, int n_tiles, int longest, const char **why, size_t *at) {
    *why = NULL;
    *at = 0;
    if (longest < 1 || longest > 2 * MAX_DIM + 1) { *why = "longest is not 1-65"; return GRAPH_BAD; }
    if (check_arcs(a, n, n_tiles, why, at)) return GRAPH_BAD;
    /* every arc leads to the first arc of a node (the search finds a node's tiles from its start) */
    uint8_t *starts = calloc(n, 1);
    if (!starts) return GRAPH_NO_MEMORY;
    for (size_t i = 1; i < n; i++) starts[i] = i == 1 || (a[i - 1] & ARC_END);
    for (size_t i = 0; !*why && i < n; i++) {
        uint32_t child = a[i] & ARC_INDEX_MASK;
        if (child && !starts[child]) { *why = "an arc leads into the middle of a node"; *at = i; }
    }
    free(starts);
    if (*why) return GRAPH_BAD;
    return check_paths(a, n, longest, why, at);
}

int layout_size(const uint32_t *a, size_t n, uint32_t *newpos, size_t *n_words, const char **why, size_t *at) {
    if (n == 0 || n > MAX_ARCS || !(a[n - 1] & ARC_END)) { *why = "not a checked arc array"; return GRAPH_BAD; }
    size_t out = 2;
    for (size_t s = 1; s < n;) {
        size_t e = s;
        while (!(a[e] & ARC_END)) {
            if (arc_tile(a[e + 1]) <= arc_tile(a[e])) { *why = "a node's tiles are not in rising order"; *at = e + 1; return GRAPH_BAD; }
            e++;
        }
        newpos[s] = (uint32_t)out;
        out += 2 + (e - s + 1);
        s = e + 1;
    }
    uint32_t root = a[0] & ARC_INDEX_MASK;
    if (root && !newpos[root]) { *why = "the root pointer leads into a node"; return GRAPH_BAD; }
    *n_words = out;
    return GRAPH_OK;
}

int layout_fill(const uint32_t *a, size_t n, const uint32_t *newpos, uint32_t *w, const char **why, size_t *at) {
    uint32_t root = a[0] & ARC_INDEX_MASK;
    w[0] = root ? newpos[root] : 0;
    w[1] = a[0] & ~ARC_INDEX_MASK;
    for (size_t s = 1; s < n;) {
        uint32_t o = newpos[s];
        uint64_t mask = 0;
        size_t i = s;
        for (;; i++) {
            uint32_t x = a[i], child = x & ARC_INDEX_MASK;
            if (child && !newpos[child]) { *why = "an arc leads into the middle of a node"; *at = i; return GRAPH_BAD; }
            mask |= 1ull << arc_tile(x);
            w[o + 2 + (i - s)] = (child ? newpos[child] : 0) | ((x & ARC_ACCEPTS) ? SG_ACCEPTS : 0);
            if (x & ARC_END) break;
        }
        w[o] = (uint32_t)mask;
        w[o + 1] = (uint32_t)(mask >> 32);
        s = i + 1;
    }
    return GRAPH_OK;
}

int arcs_of_layout(const uint32_t *w, size_t nw, uint32_t **arcs, size_t *n_arcs) {
    uint32_t *oldpos = NULL, *a = NULL;
    int bad = nw < 2 || w[0] >= nw;
    size_t n = 1;
    if (!bad && !(oldpos = calloc(nw, sizeof(uint32_t)))) return GRAPH_NO_MEMORY;
    for (size_t o = 2; !bad && o < nw;) {
        int k = o + 1 < nw ? popcount64(node_mask(w, (uint32_t)o)) : 0;
        if (!k || o + 2 + k > nw || n + k > MAX_ARCS) { bad = 1; break; }
        oldpos[o] = (uint32_t)n;
        n += k;
        o += 2 + k;
    }
    if (!bad && !(a = malloc(n * sizeof(uint32_t)))) { free(oldpos); return GRAPH_NO_MEMORY; }
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
    free(oldpos);
    if (bad) { free(a); return GRAPH_BAD; }
    *arcs = a;
    *n_arcs = n;
    return GRAPH_OK;
}
