/* The leave table's ridge regression by Gauss-Seidel sweeps (ridge.c). */
#ifndef CZPL_RIDGE_H
#define CZPL_RIDGE_H

#include <stddef.h>
#include <stdint.h>

/* Feature f's entries are start[f] .. start[f + 1] - 1: the leave index[k], count x value weighted[k] and
 * value x[k]; its denominator (curvature + penalty) and penalty. */
typedef struct {
    size_t n_features;
    const uint32_t *start, *index;
    const double *weighted, *x, *denominator, *penalty;
} RidgeColumns;

/* `sweeps` sweeps in feature order from all weights 0: the weights and each leave's prediction. */
void ridge_sweeps(const RidgeColumns *columns, const double *targets, size_t n_leaves, int sweeps, double *weights,
                  double *predicted);

#endif
