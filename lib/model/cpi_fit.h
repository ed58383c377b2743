/*
 * cpi_fit.h - the host's regression CPI stack fit, as the daemon makes and
 * stores it (Choudhary and Singh's regression CPI stack, equation 2, in
 * docs/references.md:
 * CPI = W0 + sum Wi * Mi): weighted non-negative least squares over many
 * process-intervals, each process with its own base (cpi_fit_quality.h
 * says why), the regressors without events or moving together dropped
 * first, each with the reason; and no penalties at all ("cannot separate")
 * when the variation within the processes cannot tell them apart.  The
 * daemon fits the host's stored intervals (daemon/store/store_cpifit.c),
 * stackctl analyze a recording's.
 */
#ifndef STACKD_CPI_FIT_H
#define STACKD_CPI_FIT_H

#include "lib/model/cpi_fit_quality.h"

#include <stddef.h>

/* Bump when the method changes what a stored fit means.  2: a base per
 * process (fixed effects), processes held out, "cannot separate". */
#define CPI_FIT_VERSION 2
/* Rows a fit needs: five per weight, so that the held-out quarter alone
 * outnumbers the weights. */
#define CPI_FIT_MIN_ROWS (5 * CPI_WEIGHTS)
/* A process-interval with fewer instructions gives miss rates too coarse
 * (a handful of events) to regress on: skipped. */
#define CPI_FIT_MIN_INSTRUCTIONS 1000000.0
/* Condition number of the within-process design, columns scaled to unit
 * length (Belsley, Kuh and Welsch's scaled condition index, "Regression
 * Diagnostics", 1980: 30 and above is a strong dependence that degrades
 * the estimates), above which the penalties "cannot separate". */
#define CPI_FIT_MAX_CONDITION 30.0
/* A penalty whose standard error, times its event's mean rate, is above
 * this share of the mean CPI: the data leave that component of the stack
 * too uncertain to show ("cannot separate": too little variation). */
#define CPI_FIT_MAX_COMPONENT_ERROR 0.03
#define CPI_FIT_REASON_MAX 200

struct cpi_fit_drop {
	unsigned regressor;   /* 0 .. CPI_REGRESSORS - 1 */
	int merged_into;      /* the regressor whose weight now carries its cost; -1: none */
	char reason[CPI_FIT_REASON_MAX];
};

struct cpi_fit {
	double weights[CPI_WEIGHTS];   /* mean base CPI, then cycles per event; NaN:
					* dropped, or all when the fit cannot separate */
	double errors[CPI_WEIGHTS];    /* each penalty's standard error (errors[0] NaN) */
	struct cpi_fit_quality q;      /* within R², held-out error, rows, processes */
	double condition;              /* of the within design on the kept columns */
	unsigned n_dropped;
	struct cpi_fit_drop dropped[CPI_REGRESSORS];
	char why[2 * CPI_FIT_REASON_MAX];  /* -ERANGE: why the penalties cannot separate */
};

/* Fit d (cpi_fit_quality.h), names the regressors' columns (for the
 * reasons).  In order: a regressor with no events is dropped; of a pair
 * whose within-process rates correlate above CPI_COLLINEAR_R the rarer one
 * is dropped and its cost merged into the other's weight; then, on the
 * variation within processes: too few rows beyond each process's first,
 * a condition number above CPI_FIT_MAX_CONDITION, or a component whose
 * error exceeds CPI_FIT_MAX_COMPONENT_ERROR of CPI return -ERANGE, why
 * saying which ("cannot separate"), weights NaN.  Returns 0 with out
 * filled; -EINVAL with fewer than CPI_FIT_MIN_ROWS rows; -ENOMEM; nnls()'s
 * -EDOM or -ETIMEDOUT.  out->dropped and out->q.rows are set in any case. */
int cpi_fit_weighted(const struct cpi_fit_data *d, const char *const names[CPI_REGRESSORS],
		     struct cpi_fit *out);

/* The condition number of the design a (rows x CPI_WEIGHTS) on the columns
 * in keep (bit c: column c), rows weighted by wt (NULL: 1), each column
 * scaled to unit length: sqrt of the largest over the smallest eigenvalue
 * of the normal matrix (Jacobi).  INFINITY when singular. */
double cpi_fit_condition(const double *a, const double *wt, size_t rows, unsigned keep);

#endif
