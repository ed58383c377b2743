/*
 * cpi_fit.h - the host's regression CPI stack fit, as the daemon makes and
 * stores it (Choudhary and Singh's regression CPI stack, equation 2, in
 * docs/references.md:
 * CPI = W0 + sum Wi * Mi): weighted non-negative least squares over many
 * process-intervals, with the regressors the data cannot tell apart
 * dropped first, each with the reason, and the fit's quality
 * (cpi_fit_quality.h) and the design's condition number beside it.
 * The types and limits readers share; the fitter itself is the daemon's
 * (daemon/store/cpi_fitter.h).
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

#endif
