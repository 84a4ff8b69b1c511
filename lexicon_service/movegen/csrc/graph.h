/* The move graph: the arc array of the lexicon's file (graph.py describes its format) and the search
 * layout the generator reads. Constants and the inline readers every part of the core shares; no Python.
 *
 * Tile numbers are 1..63 in the rule set's alphabet order; 0 is the GADDAG separator. */
#ifndef CZPL_GRAPH_H
#define CZPL_GRAPH_H

#include <stddef.h>
#include <stdint.h>

#define ARC_INDEX_MASK 0x00FFFFFFu
#define ARC_END (1u << 24)
#define ARC_ACCEPTS (1u << 25)
#define ARC_TILE_SHIFT 26
#define MAX_ARCS (1u << 24)
#define SEP 0
#define MAX_TILES 63
#define MAX_DIM 32

static inline unsigned arc_tile(uint32_t a) { return a >> ARC_TILE_SHIFT; }

/* The search layout: a node is a 64-bit mask of its tiles (two words, low first) followed by one word
 * per tile in tile order: the child node's index | SG_ACCEPTS (index 0: no child). Word 0 is the root
 * node's index, word 1 the flags of the arc array's root pointer (so the arc array can be given back).
 * The arc of a tile is a mask test and a popcount, and the tiles a rack can place on a square are the
 * node's mask & the square's cross-check & the rack's tiles, without a branch per arc. */
#define SG_ACCEPTS (1u << 31)
#define SG_CHILD 0x7FFFFFFFu

static inline int popcount64(uint64_t x) { return __builtin_popcountll(x); }

/* Baseline x86-64 has no popcnt instruction (the compiler calls a library routine): on glibc the
 * search functions are also compiled for CPUs that have it, and with GCC 11 or later for x86-64-v3
 * (AVX2, BMI1/2: tzcnt, blsr, shlx), the best the CPU runs chosen once
 * at load (an ifunc); the plain x86-64 copy stays for any other CPU. */
#if defined(__x86_64__) && defined(__GLIBC__) && defined(__GNUC__) && !defined(__clang__) && __GNUC__ >= 11
#define POPCNT_CLONES __attribute__((target_clones("arch=x86-64-v3", "popcnt", "default")))
#elif defined(__x86_64__) && defined(__GLIBC__) && (defined(__GNUC__) || defined(__clang__))
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

/* Results of the functions below: 0 done; GRAPH_BAD (the input is refused, `why` says why);
 * GRAPH_NO_MEMORY; GRAPH_TOO_BIG (more arcs than an index can address). */
enum { GRAPH_OK = 0, GRAPH_BAD = -1, GRAPH_NO_MEMORY = -2, GRAPH_TOO_BIG = -3 };

/* graph_build.c: the arc array (arc 0 the root pointer) of the minimised GADDAG of `words` (tile
 * numbers 1..n_tiles, each word ended by a 0 byte; words longer than max_len are left out), nodes in
 * breadth-first order. *arcs is malloc'ed; the caller frees it. */
int graph_build(const uint8_t *words, size_t size, int n_tiles, int max_len, uint32_t **arcs, size_t *n_arcs,
                const char **why);

/* graph_check.c: whether an arc array is well formed for n_tiles tiles and paths of at most `longest`
 * tiles; GRAPH_BAD with `why` and the arc `at`. */
int graph_check(const uint32_t *arcs, size_t n, int n_tiles, int longest, const char **why, size_t *at);

/* graph_check.c: the search layout of a checked arc array, in two steps: the number of words it takes
 * (newpos: n zeroed words of scratch, kept for the second step), then the words written into `out`. */
int layout_size(const uint32_t *arcs, size_t n, uint32_t *newpos, size_t *n_words, const char **why, size_t *at);
int layout_fill(const uint32_t *arcs, size_t n, const uint32_t *newpos, uint32_t *out, const char **why, size_t *at);

/* graph_check.c: the arc array a search layout was made from (*arcs malloc'ed); GRAPH_BAD: not a layout. */
int arcs_of_layout(const uint32_t *w, size_t nw, uint32_t **arcs, size_t *n_arcs);

/* lookup.c: whether the layout holds the word of these `len` tile numbers (1..63): 1 or 0. Every index
 * read is checked against the layout's size `nw`, so any buffer is safe. */
int layout_holds_word(const uint32_t *w, size_t nw, const uint8_t *tiles, size_t len);

#endif
