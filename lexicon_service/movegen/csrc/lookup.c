/* The word lookup of CheckWords: a word is the GADDAG string reverse(word) from the root (graph.py).
 * No Python here (bindings.c turns the request's text into tile numbers). */
#include "graph.h"

int layout_holds_word(const uint32_t *w, size_t nw, const uint8_t *tiles, size_t len) {
    if (nw < 2 || len == 0) return 0;
    uint32_t node = w[0], x = 0;
    for (size_t i = len; i-- > 0;) {
        unsigned tile = tiles[i];
        if (!node || (size_t)node + 1 >= nw || tile > MAX_TILES) return 0;
        uint64_t m = node_mask(w, node);
        if (!((m >> tile) & 1)) return 0;
        size_t at = (size_t)node + 2 + (size_t)popcount64(m & ((1ull << tile) - 1));
        if (at >= nw) return 0;
        x = w[at];
        node = x & SG_CHILD;
    }
    return (x & SG_ACCEPTS) != 0;
}
