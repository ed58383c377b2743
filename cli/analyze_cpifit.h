/*
 * analyze_cpifit.h - `stackctl analyze`'s regression CPI stack
 * (lib/model/cpi_fit.h): the fit over a recording's intervals (one run,
 * so one process: its own base, penalties from how its CPI moves with its
 * miss rates), why there is none, and the fit as --json carries it, in the
 * fields of the API's "cpi_fit" (docs/api.md).
 */
#ifndef STACKD_ANALYZE_CPIFIT_H
#define STACKD_ANALYZE_CPIFIT_H

#include "lib/model/cpi_fit.h"
#include "lib/model/model.h"

#include <stddef.h>

/* What analyze fitted: r is cpi_fit_weighted()'s (or -ENOMEM), 1 when
 * the model has no regression stack; f the fit when r is 0. */
struct analyze_cpifit {
	int r;
	struct cpi_fit f;
};

/* Fit the n intervals iv of m into out (rows weighted by cycles) and say
 * on stderr how good the fit is, or why there is none.  Returns the
 * weights for model_context.cpi_weights, or NULL: no stack. */
const double *analyze_cpifit_run(const struct model *m, const struct group_sums *const *iv,
				 size_t n, struct analyze_cpifit *out);

/* ", \"cpi_fit\": {...}" to stdout for --json; nothing when r is 1. */
void analyze_cpifit_json(const struct model *m, const struct analyze_cpifit *fit);

#endif
