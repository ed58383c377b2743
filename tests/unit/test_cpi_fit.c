/*
 * test_cpi_fit.c - the daemon's regression CPI stack fit (cpi_fitter.h)
 * on synthetic process-intervals made from known penalties with noise, and
 * the stack it gives one process (model_generic.c): components plus the
 * residual add up to the measured CPI.
 */
#include "daemon/store/cpi_fitter.h"
#include "lib/model/model_generic.h"
#include "test_model.h"

#include <errno.h>
#include <math.h>
#include <string.h>

#define ROWS 2000

static const char *const names[CPI_REGRESSORS] = {
	"br_misp_retired", "ic_refill_l2", "ic_refill_mem", "itlb_miss", "dtlb_miss",
	"dc_refill_mem",
};
static const double truth[CPI_WEIGHTS] = { 0.35, 18.0, 9.0, 3.0, 40.0, 25.0, 120.0 };

static double a[ROWS * CPI_WEIGHTS], b[ROWS], wt[ROWS];

static double uniform(unsigned *seed)
{
	return (double)(rand_r(seed) % 100001) / 100000.0;
}

/* Rows from truth with +-noise relative noise on the CPI, rates 0..0.01
 * per instruction, weights (cycles) spread over two orders of magnitude. */
static void make_rows(double noise, unsigned seed)
{
	unsigned i, k;

	for (i = 0; i < ROWS; i++) {
		double cpi = truth[0];

		a[i * CPI_WEIGHTS] = 1.0;
		for (k = 1; k < CPI_WEIGHTS; k++) {
			a[i * CPI_WEIGHTS + k] = 0.01 * uniform(&seed);
			cpi += truth[k] * a[i * CPI_WEIGHTS + k];
		}
		b[i] = cpi * (1.0 + noise * (2.0 * uniform(&seed) - 1.0));
		wt[i] = 1e8 * (1.0 + 99.0 * uniform(&seed));
	}
}

static double mean_of(unsigned col)
{
	double s = 0;
	unsigned i;

	for (i = 0; i < ROWS; i++)
		s += col == CPI_WEIGHTS ? b[i] : a[i * CPI_WEIGHTS + col];
	return s / ROWS;
}

/* Every weight's share of the mean CPI is off by less than the held-out
 * error the fit reports (what the daemon stores beside the weights). */
static void test_recovers_penalties(void)
{
	struct cpi_fit f;
	double cpi;
	unsigned k;

	make_rows(0.03, 7);
	CHECK(cpi_fit_weighted(a, b, wt, ROWS, names, &f) == 0);
	CHECK_EQ_U(f.n_dropped, 0);
	CHECK_EQ_U(f.q.rows, ROWS);
	CHECK_EQ_U(f.q.held_rows, ROWS / 4);
	CHECK(f.q.r2 > 0.9 && f.q.r2 <= 1.0);
	CHECK(f.q.held_error > 0.005 && f.q.held_error < 0.03);   /* +-3%: mean 1.5% */
	CHECK(f.condition >= 1.0 && f.condition < 100.0);
	cpi = mean_of(CPI_WEIGHTS);
	for (k = 0; k < CPI_WEIGHTS; k++) {
		double off = fabs(f.weights[k] - truth[k]) * mean_of(k);

		if (off > f.q.held_error * cpi)
			fprintf(stderr, "weight %u: %.3f, truth %.3f\n", k, f.weights[k], truth[k]);
		CHECK(off <= f.q.held_error * cpi);
	}
}

/* Rows with few cycles (weight 1) and a wild CPI do not move the fit; an
 * unweighted one they drag away. */
static void test_weights_rows_by_cycles(void)
{
	struct cpi_fit f, plain;
	unsigned i;

	make_rows(0.01, 11);
	for (i = 0; i < ROWS; i += 5) {
		b[i] *= 3.0;
		wt[i] = 1.0;
	}
	CHECK(cpi_fit_weighted(a, b, wt, ROWS, names, &f) == 0);
	CHECK(cpi_fit_weighted(a, b, NULL, ROWS, names, &plain) == 0);
	CHECK(fabs(f.weights[0] - truth[0]) < 0.02);
	CHECK(fabs(plain.weights[0] - truth[0]) > 0.1);
	CHECK(f.q.held_error < 0.01);
	CHECK(plain.q.held_error > 0.1);
}

/* d-TLB misses always twice the i-TLB's: the rarer (i-TLB) is dropped with
 * the reason, and its cost lands in the d-TLB weight: 25 + 40 / 2. */
static void test_collinear_pair_merged(void)
{
	struct cpi_fit f;
	unsigned seed = 3, i;

	make_rows(0.01, 5);
	for (i = 0; i < ROWS; i++) {
		double *x = &a[i * CPI_WEIGHTS];

		b[i] -= truth[5] * x[5];
		x[5] = 2.0 * x[4] * (1.0 + 1e-4 * (uniform(&seed) - 0.5));
		b[i] += truth[5] * x[5];
	}
	CHECK(cpi_fit_weighted(a, b, wt, ROWS, names, &f) == 0);
	CHECK_EQ_U(f.n_dropped, 1);
	CHECK_EQ_U(f.dropped[0].regressor, 3);
	CHECK(f.dropped[0].merged_into == 4);
	CHECK(strstr(f.dropped[0].reason, "moves with dtlb_miss") != NULL);
	CHECK(isnan(f.weights[4]));
	CHECK(fabs(f.weights[5] - (truth[5] + truth[4] / 2.0)) < 1.0);
	CHECK(f.q.held_error < 0.01);
	CHECK(f.condition < CPI_FIT_MAX_CONDITION);
	CHECK_EQ_U(f.q.n_collinear, 0);   /* none left among the kept */
}

/* A regressor with no events, and one that is the sum of two others
 * (no pair correlates above 0.999: only the condition number sees it). */
static void test_silent_and_dependent(void)
{
	struct cpi_fit f;
	unsigned i;

	make_rows(0.01, 9);
	for (i = 0; i < ROWS; i++) {
		double *x = &a[i * CPI_WEIGHTS];

		b[i] -= truth[2] * x[2] + truth[6] * x[6];
		x[2] = 0;
		x[6] = x[4] + x[5];
		b[i] += truth[6] * x[6];
	}
	CHECK(cpi_fit_weighted(a, b, wt, ROWS, names, &f) == 0);
	CHECK_EQ_U(f.n_dropped, 2);
	CHECK_EQ_U(f.dropped[0].regressor, 1);
	CHECK(strstr(f.dropped[0].reason, "no events") != NULL);
	CHECK(strstr(f.dropped[1].reason, "combination of the other") != NULL);
	CHECK(f.dropped[1].regressor >= 3);   /* one of the three tied ones */
	CHECK(isnan(f.weights[2]) && isnan(f.weights[f.dropped[1].regressor + 1]));
	CHECK(f.condition <= CPI_FIT_MAX_CONDITION);
	CHECK(f.q.held_error < 0.01);   /* the others carry its cost */
}

static void test_too_few_and_condition(void)
{
	static const double orth[4 * CPI_WEIGHTS] = {
		1, 1, 1, 1, 0, 0, 0,
		1, -1, 1, -1, 0, 0, 0,
		1, 1, -1, -1, 0, 0, 0,
		1, -1, -1, 1, 0, 0, 0,
	};
	struct cpi_fit f;

	make_rows(0.01, 1);
	CHECK(cpi_fit_weighted(a, b, wt, CPI_FIT_MIN_ROWS - 1, names, &f) == -EINVAL);
	CHECK(isnan(f.weights[0]) && f.n_dropped == 0);
	CHECK(fabs(cpi_fit_condition(orth, NULL, 4, 0xf) - 1.0) < 1e-9);
	CHECK(isinf(cpi_fit_condition(orth, NULL, 4, 0x1f)));   /* a zero column */
}

/* One process's stack from the host's weights: base + components +
 * residual = measured CPI; a dropped weight gives no component; a
 * regressor not measured leaves the residual out (it would hold it). */
static void test_residual(void)
{
	const struct model *m = &model_zen3;
	struct group_sums s[MODEL_MAX_GROUPS];
	struct metric_value out[MODEL_MAX_METRICS];
	double w[CPI_WEIGHTS] = { 0.4, 20, 10, 5, NAN, 30, 100 };
	struct model_context ctx = { false, w, 0, NULL };
	double sum = 0;
	unsigned k;

	memset(s, 0, sizeof(s));
	memset(out, 0, sizeof(out));
	set(m, s, "instructions", 1e9);
	set(m, s, "cycles", 1.1e9);
	for (k = 0; k < CPI_REGRESSORS; k++)
		set(m, s, names[k], 1e6 * (k + 1));
	m->compute(m, s, &ctx, out);
	CHECK(!valid(m, out, "cpi_itlb"));   /* w[4] NaN: i-TLB dropped */
	for (k = 0; k < m->n_metrics; k++)
		if (m->metrics[k].stack != NULL && strcmp(m->metrics[k].stack, "cpi") == 0 &&
		    out[k].valid)
			sum += out[k].value;
	NEAR(sum, get(m, out, "cpi"));
	/* 1.1 - (0.4 + 0.02 + 0.02 + 0.015 + 0.15 + 0.6) */
	NEAR(get(m, out, "cpi_residual"), 1.1 - 1.205);
	memset(out, 0, sizeof(out));
	missing(m, s, "cpi_b", "dc_refill_mem");
	m->compute(m, s, &ctx, out);
	CHECK(!valid(m, out, "cpi_residual"));
	CHECK(valid(m, out, "cpi_base"));
}

int main(void)
{
	test_recovers_penalties();
	test_weights_rows_by_cycles();
	test_collinear_pair_merged();
	test_silent_and_dependent();
	test_too_few_and_condition();
	test_residual();
	return 0;
}
