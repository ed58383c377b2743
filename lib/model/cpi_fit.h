/*
 * cpi_fit.h - the host's regression CPI stack fit, as the daemon makes and
 * stores it (papers/cpi-stack-linear-regression.txt, equation 2:
 * CPI = W0 + sum Wi * Mi): weighted non-negative least squares over many
 * process-intervals, with the regressors the data cannot tell apart
 * dropped first, each with the reason, and the fit's quality
 * (cpi_fit_quality.h) and the design's condition number beside it.
 */
#ifndef STACKD_CPI_FIT_H
#define STACKD_CPI_FIT_H

#include "lib/model/cpi_fit_quality.h"

#include <stddef.h>

/* Bump when the method changes what a stored fit means. */
#define CPI_FIT_VERSION 1
/* Rows a fit needs: five per weight, so that the held-out quarter alone
 * outnumbers the weights. */
#define CPI_FIT_MIN_ROWS (5 * CPI_WEIGHTS)
/* A process-interval with fewer instructions gives miss rates too coarse
 * (a handful of events) to regress on: skipped. */
#define CPI_FIT_MIN_INSTRUCTIONS 1000000.0
/* Condition number (of the design with unit-length columns, Belsley's
 * scaled condition) above which the weights cannot be told apart: the
 * regressor most to blame is dropped.  1000 is a dependence within about
 * a thousandth of the columns' length. */
#define CPI_FIT_MAX_CONDITION 1000.0
#define CPI_FIT_REASON_MAX 200

struct cpi_fit_drop {
	unsigned regressor;   /* 0 .. CPI_REGRESSORS - 1 */
	int merged_into;      /* the regressor whose weight now carries its cost; -1: none */
	char reason[CPI_FIT_REASON_MAX];
};

struct cpi_fit {
	double weights[CPI_WEIGHTS];   /* base CPI, then cycles per event; NaN: dropped */
	struct cpi_fit_quality q;      /* weighted R² and held-out error (weights of the
					* training rows, scored on the held-out ones) */
	double condition;              /* of the design on the kept columns */
	unsigned n_dropped;
	struct cpi_fit_drop dropped[CPI_REGRESSORS];
};

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
