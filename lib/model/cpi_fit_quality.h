/*
 * cpi_fit_quality.h - the regression CPI stack's penalties from the
 * variation within each process, and how good they are
 * (Choudhary and Singh, docs/references.md; docs/models.md says why).
 *
 * Processes differ in their base CPI (instruction mix, dependences) as
 * much as in their miss rates: one intercept for all moves each process's
 * base into the penalties of the misses it happens to have more of.  So
 * each process gets its own intercept (fixed effects): every row is taken
 * less its process's mean, and the penalties come from how CPI moves with
 * the miss rates inside each process only.  Validation holds out whole
 * processes (a quarter of them), so a process is never on both sides.
 */
#ifndef STACKD_CPI_FIT_QUALITY_H
#define STACKD_CPI_FIT_QUALITY_H

#include "lib/model/model_generic.h"

#include <stddef.h>
#include <stdint.h>

#define CPI_COLLINEAR_R 0.999   /* |correlation| above which two regressors are one */
/* Processes (of two rows or more) needed to hold whole processes out: one
 * in four is; with fewer, every fourth row of each process is. */
#define CPI_FIT_FOLDS 4

/* The rows of a fit: a (rows x CPI_WEIGHTS, row-major: 1, then each
 * regressor's events per instruction), b their CPI, wt their weights
 * (cycles; NULL: 1), group the process of each (NULL: all one process). */
struct cpi_fit_data {
	const double *a, *b, *wt;
	const int64_t *group;
	size_t rows;
};

struct cpi_fit_quality {
	size_t rows, train_rows, held_rows;
	size_t processes;       /* with two rows or more: the ones the penalties come from */
	size_t held_processes;  /* of them held out whole; 0: rows held out within each */
	double r2;           /* within processes, over the training rows: 1 - SSres/SStot of
			      * CPI less its process's mean; NaN: none */
	double held_error;   /* mean |predicted - measured| CPI over the held-out rows, as a
			      * share of their mean CPI, each predicted from its process's
			      * level and the training rows' penalties; NaN: none held out
			      * (weighted fits: both sums weighted as the rows) */
	/* regressor pairs (k, l) whose rates correlate above CPI_COLLINEAR_R */
	unsigned n_collinear;
	unsigned collinear[CPI_REGRESSORS * CPI_REGRESSORS / 2][2];
};

/* Rows a and b of rows intervals of one process, unweighted
 * (model_generic_cpi_rows): q filled.  0, -EINVAL when too few rows to
 * hold any out (fewer than 2 x CPI_WEIGHTS), or the fit's error (nnls.h). */
int cpi_fit_quality(const double *a, const double *b, size_t rows, struct cpi_fit_quality *q);

/* The fit of d on the columns in keep (bit c: column c of a; bit 0, the
 * base, is each process's own), on all rows: penalties into w[1..], the
 * cycle-weighted mean base into w[0], and each penalty's standard error
 * into se[] (heteroscedasticity-robust, White's; se[0] NaN); q from the
 * fit on the training rows.  A column left out gets weight 0, se NaN and
 * no collinear report.  0, -EINVAL (too few rows), -ENOMEM or nnls()'s. */
int cpi_fit_quality_grouped(const struct cpi_fit_data *d, unsigned keep, double w[CPI_WEIGHTS],
			    double se[CPI_WEIGHTS], struct cpi_fit_quality *q);

/* d's rows less their process's cycle-weighted mean into wa (column 0 all
 * zeros) and wb; a process of one row gives a row of zeros.  Returns the
 * processes of two rows or more, or -ENOMEM. */
int cpi_fit_within(const struct cpi_fit_data *d, double *wa, double *wb);

/* Correlation of columns k and l of a (1-based regressors), row i
 * counting wt[i] (NULL: 1); 0 when either does not vary. */
double cpi_fit_correlation(const double *a, const double *wt, size_t rows, unsigned k,
			   unsigned l);

#endif
