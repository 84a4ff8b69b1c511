/* The leave table's ridge regression (build_tools/leaves.py): Gauss-Seidel sweeps over sparse feature
 * columns, in C because the sweeps were most of a default build's leave step. The same sums in the same
 * order as the plain Python loop, so the same doubles. No Python here. */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "ridge.h"

void ridge_sweeps(const RidgeColumns *c, const double *targets, size_t n_leaves, int sweeps, double *weights,
                  double *predicted) {
    memset(predicted, 0, n_leaves * sizeof(double));
    memset(weights, 0, c->n_features * sizeof(double));
    for (int s = 0; s < sweeps; s++)
        for (size_t f = 0; f < c->n_features; f++) {
            double gradient = 0.0;
            for (uint32_t k = c->start[f]; k < c->start[f + 1]; k++)
                gradient += c->weighted[k] * (targets[c->index[k]] - predicted[c->index[k]]);
            double step = (gradient - c->penalty[f] * weights[f]) / c->denominator[f];
            if (step != 0.0) {
                weights[f] += step;
                for (uint32_t k = c->start[f]; k < c->start[f + 1]; k++) predicted[c->index[k]] += step * c->x[k];
            }
        }
}
