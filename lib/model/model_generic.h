/*
 * model_generic.h - the regression CPI stack of the generic models (AMD Zen
 * 2/3, Arm Neoverse and any PMU without a full Top-Down): metrics, the
 * per-model regressor columns and the fit.
 */
#ifndef STACKD_MODEL_GENERIC_H
#define STACKD_MODEL_GENERIC_H

#include "lib/model/model.h"

#define CPI_REGRESSORS 6
#define CPI_WEIGHTS (CPI_REGRESSORS + 1)  /* base CPI first */

/* Metric slots every generic model fills, in this order (a model may
 * append its own after _GM_MAX).  The six *_MPKI and CPI_* slots follow the
 * model's regressors, whatever the events are on that PMU. */
enum gen_metric {
	GM_IPC, GM_CPI,
	GM_MPKI_0, GM_MPKI_5 = GM_MPKI_0 + CPI_REGRESSORS - 1,
	GM_CPI_BASE, GM_CPI_0, GM_CPI_5 = GM_CPI_0 + CPI_REGRESSORS - 1,
	GM_CPI_RESIDUAL,   /* measured CPI minus the fit's (model_generic.c) */
	GM_FLOPS_PER_CYCLE, GM_GFLOPS, GM_FLOP_PEAK,
	_GM_MAX,
};

/* What a generic model puts in model.detail: the columns regressed on, in
 * weight order after the base. */
struct generic_spec {
	const char *regressors[CPI_REGRESSORS];
};

/* Fill the _GM_MAX generic metrics (CPI stack only with ctx->cpi_weights;
 * a weight that is NaN is a regressor the fit dropped: no component). */
void model_generic_compute(const struct model *m, const struct group_sums *sums,
			   const struct model_context *ctx, struct metric_value *out);

/* Fit base CPI and cycles-per-event weights, all >= 0, over n interval
 * records (each an array of the model's group sums) by non-negative least
 * squares on CPI_i = base + sum_k w_k * events_k,i / instructions_i.
 * Returns 0; -EINVAL when fewer usable intervals than weights + 1; -EDOM
 * when the rates are degenerate (not finite, or linearly dependent);
 * -ETIMEDOUT when the fit did not converge (nnls.h).  weights are only
 * set on 0. */
int model_generic_cpi_fit(const struct model *m, const struct group_sums *const *intervals,
			  size_t n, double weights[CPI_WEIGHTS]);

/* The regression's rows: per usable interval, 1 then each regressor's
 * events per instruction into a[row * CPI_WEIGHTS ..], its CPI into b[row]
 * (a and b hold n rows); how many rows. */
int model_generic_cpi_rows(const struct model *m, const struct group_sums *const *intervals,
			   size_t n, double *a, double *b);

/* One interval's regression row: 1 then each regressor's events per
 * instruction into row[], its CPI, cycles and instructions.  Returns 0;
 * -ENODATA without cycles and instructions; 1 + k when it lacks regressor
 * k (no group that counts it measured the target). */
int model_generic_cpi_row(const struct model *m, const struct group_sums *sums,
			  double row[CPI_WEIGHTS], double *cpi, double *cycles,
			  double *instructions);

/* Regressor k's event column ("br_misp_retired"). */
const char *model_generic_regressor(const struct model *m, unsigned k);

/* Whether m has a regression CPI stack. */
bool model_is_generic(const struct model *m);

#endif
