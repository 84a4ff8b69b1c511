/* The word graph of an endgame: the words of the full graph that a play from this position to the end of
 * the game could form (word_prune.c says why none is lost), as a search layout (graph.h) that mg_generate
 * walks in place of the full one. No Python here. */
#ifndef CZPL_WORD_PRUNE_H
#define CZPL_WORD_PRUNE_H

#include <stddef.h>
#include <stdint.h>

#include "movegen.h"

/* The search layout (*pruned, malloc'ed, *n_words words) of the words of `layout` that a play could form on
 * `board` with tiles of the racks `rack_a` and `rack_b` (tile counts, [0] blanks); *n_kept: how many
 * words. GRAPH_OK, GRAPH_NO_MEMORY or GRAPH_TOO_BIG. */
int wp_endgame_layout(const uint32_t *layout, const MgRules *rules, const uint8_t *board, const uint8_t *rack_a,
                      const uint8_t *rack_b, uint32_t **pruned, size_t *n_words, long long *n_kept);

#endif
