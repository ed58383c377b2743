/*
 * cpi_fit_quality.h - how good a regression CPI stack is
 * (Choudhary and Singh, docs/references.md): the fit on three intervals of
 * four, its R² there, and its error on the fourth, held out; and the
 * regressors that move together so closely that their penalties cannot
 * be told apart (the fit then gives one of them all and the other none).
 */
#ifndef STACKD_CPI_FIT_QUALITY_H
#define STACKD_CPI_FIT_QUALITY_H

#include "lib/model/model_generic.h"

#include <stddef.h>

#define CPI_COLLINEAR_R 0.999   /* |correlation| above which two regressors are one */

struct cpi_fit_quality {
	size_t rows, train_rows, held_rows;
	double r2;           /* over the training rows, 1 - SSres/SStot; NaN: none */
	double held_error;   /* mean |predicted - measured| CPI over the held-out rows,
			      * as a share of their mean CPI; NaN: none held out
			      * (weighted fits: both sums weighted as the rows) */
	/* regressor pairs (k, l) whose rates correlate above CPI_COLLINEAR_R */
	unsigned n_collinear;
	unsigned collinear[CPI_REGRESSORS * CPI_REGRESSORS / 2][2];
};

/* Rows a (row-major, CPI_WEIGHTS wide) and b (CPI) of rows intervals
 * (model_generic_cpi_rows): q filled.  0, -EINVAL when too few rows to
 * hold any out (fewer than 2 x CPI_WEIGHTS), or the fit's error (nnls.h). */
int cpi_fit_quality(const double *a, const double *b, size_t rows, struct cpi_fit_quality *q);

/* The same with row i counting wt[i] (NULL: 1; the daemon's fit weighs
 * each process-interval by its cycles), on the columns in keep only (bit
 * c: column c of a, bit 0 the base; a column left out gets weight 0 and
 * no collinear report): the training rows' weights into w. */
int cpi_fit_quality_weighted(const double *a, const double *b, const double *wt, size_t rows,
			     unsigned keep, double w[CPI_WEIGHTS], struct cpi_fit_quality *q);

/* Correlation of columns k and l of a (1-based regressors), row i
 * counting wt[i] (NULL: 1); 0 when either does not vary. */
double cpi_fit_correlation(const double *a, const double *wt, size_t rows, unsigned k,
			   unsigned l);

#endif
