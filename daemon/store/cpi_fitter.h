/*
 * cpi_fitter.h - the fitter of the host's regression CPI stack
 * (lib/model/cpi_fit.h says what a fit is): the daemon's store runs it
 * over the stored process-intervals (store_cpifit.c); stackctl only reads
 * the stored result, so the fitter is not in lib/.
 */
#ifndef STACKD_CPI_FITTER_H
#define STACKD_CPI_FITTER_H

#include "lib/model/cpi_fit.h"

#include <stddef.h>

/* Fit over rows process-intervals: a (rows x CPI_WEIGHTS, row-major, 1 then
 * each regressor's events per instruction: model_generic_cpi_row), b their
 * CPI, wt their weights (cycles; NULL: 1), names the regressors' columns
 * (for the reasons).  In order: a regressor with no events is dropped; of a
 * pair correlated above CPI_COLLINEAR_R the rarer one is dropped and its
 * cost merged into the other's weight; while the condition number is above
 * CPI_FIT_MAX_CONDITION, the regressor weighing most in the design's
 * weakest direction is dropped; then NNLS on the rest.  Returns 0 with out
 * filled; -EINVAL with fewer than CPI_FIT_MIN_ROWS rows; -ENOMEM; nnls()'s
 * -EDOM or -ETIMEDOUT.  out->dropped and out->q.rows are set in any case. */
int cpi_fit_weighted(const double *a, const double *b, const double *wt, size_t rows,
		     const char *const names[CPI_REGRESSORS], struct cpi_fit *out);

/* The condition number of the design a (rows x CPI_WEIGHTS) on the columns
 * in keep (bit c: column c), rows weighted by wt (NULL: 1), each column
 * scaled to unit length: sqrt of the largest over the smallest eigenvalue
 * of the normal matrix (Jacobi).  INFINITY when singular. */
double cpi_fit_condition(const double *a, const double *wt, size_t rows, unsigned keep);

#endif
