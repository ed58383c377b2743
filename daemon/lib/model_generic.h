/*
 * model_generic.h - the regression CPI stack of the generic models (AMD Zen
 * 2/3 and any PMU without Top-Down events).
 */
#ifndef STACKD_MODEL_GENERIC_H
#define STACKD_MODEL_GENERIC_H

#include "model.h"

#define CPI_REGRESSORS 6
#define CPI_WEIGHTS (CPI_REGRESSORS + 1)  /* base CPI first */

/* Fit base CPI and cycles-per-event weights, all >= 0, over n interval
 * records (each an array of the model's group sums) by non-negative least
 * squares on CPI_i = base + sum_k w_k * events_k,i / instructions_i.
 * Returns 0, or -EINVAL when fewer usable intervals than weights + 1. */
int generic_cpi_fit(const struct model *m, const struct group_sums *const *intervals, size_t n,
		    double weights[CPI_WEIGHTS]);

/* Whether m is one of the generic models. */
bool model_is_generic(const struct model *m);

#endif
