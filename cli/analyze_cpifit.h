/*
 * analyze_cpifit.h - `stackctl analyze`'s words on the regression CPI
 * stack (lib/model/model_generic.h): why there is none, and how good the
 * one it fitted is, on stderr.
 */
#ifndef STACKD_ANALYZE_CPIFIT_H
#define STACKD_ANALYZE_CPIFIT_H

#include "lib/model/model.h"

#include <stddef.h>

/* Say why model_generic_cpi_fit() gave no weights (r), rather than leave
 * the CPI stack out without a word. */
void report_cpi_fit_failure(const struct model *m, const struct group_sums *const *iv,
			    size_t n, int r);

/* The weights and quality (cpi_fit_quality.h), and regressors too alike to
 * tell apart; weights NULL: no fit. */
void report_cpi_fit(const struct model *m, const struct group_sums *const *iv, size_t n,
		    const double *weights);

#endif
