/*
 * test_cpi_fit.c - the regression CPI stack fit (lib/model/cpi_fit.h) on
 * synthetic process-intervals made from known penalties with noise: one
 * run, and a host of processes with their own base CPIs and miss rates
 * that move together (what a pooled fit with one intercept gets wrong);
 * and the stack it gives one process (model_generic.c): components plus
 * the residual add up to the measured CPI.
 */
#include "lib/model/cpi_fit.h"
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

static double a[ROWS * CPI_WEIGHTS], b[ROWS], wt[ROWS];   /* ROWS >= HOST_ROWS */

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

/* The rows of make_rows() as one run (one process). */
static int fit(const double *w, size_t rows, struct cpi_fit *f)
{
	const struct cpi_fit_data d = { .a = a, .b = b, .wt = w, .group = NULL, .rows = rows };

	return cpi_fit_weighted(&d, names, f);
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
	CHECK(fit(wt, ROWS, &f) == 0);
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
 * unweighted one they drag away (into the penalties: a run has one base). */
static void test_weights_rows_by_cycles(void)
{
	struct cpi_fit f, plain;
	unsigned i;

	make_rows(0.01, 11);
	for (i = 0; i < ROWS; i += 5) {
		b[i] *= 3.0;
		wt[i] = 1.0;
	}
	CHECK(fit(wt, ROWS, &f) == 0);
	CHECK(fit(NULL, ROWS, &plain) == 0);
	CHECK(fabs(f.weights[0] - truth[0]) < 0.02);
	CHECK(fabs(f.weights[1] - truth[1]) < 1.0);
	CHECK(fabs(plain.weights[1] - truth[1]) > 5.0);   /* 31.5 */
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
	CHECK(fit(wt, ROWS, &f) == 0);
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

/* A regressor with no events is dropped; one that is the sum of two
 * others (no pair correlates above 0.999: only the condition number sees
 * it) leaves the penalties inseparable: no weights, and the reason. */
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
	CHECK(fit(wt, ROWS, &f) == -ERANGE);
	CHECK_EQ_U(f.n_dropped, 1);
	CHECK_EQ_U(f.dropped[0].regressor, 1);
	CHECK(strstr(f.dropped[0].reason, "no events") != NULL);
	CHECK(strstr(f.why, "cannot separate") != NULL);
	CHECK(strstr(f.why, "move together") != NULL);
	CHECK(f.condition > CPI_FIT_MAX_CONDITION);
	for (i = 0; i < CPI_WEIGHTS; i++)
		CHECK(isnan(f.weights[i]));
}

/*
 * A host of five processes: base CPIs 0.30 .. 0.60 (instruction mix), the
 * penalties of the golden Zen 3 host (cycles per event), and miss rates
 * that rise with the base from one process to the next (a memory-bound
 * program has both), move together inside each process (a phase raises
 * all six) with some of their own on top, and +-1% noise on the CPI.
 */
#define PROCS 5
#define PER_PROC 80
#define HOST_ROWS (PROCS * PER_PROC)

static const double host_base[PROCS] = { 0.30, 0.38, 0.45, 0.52, 0.60 };
static const double host_penalty[CPI_REGRESSORS] = { 14, 9, 60, 30, 22, 110 };
/* events per 1000 instructions of the first process */
static const double host_mpki[CPI_REGRESSORS] = { 5, 8, 0.5, 0.3, 2, 1.5 };
static int64_t group[HOST_ROWS];

/* phase: the shared factor's spread; own: each rate's own spread. */
static void make_host(double phase, double own, unsigned seed)
{
	unsigned p, i, k;

	for (p = 0; p < PROCS; p++)
		for (i = 0; i < PER_PROC; i++) {
			size_t r = p * PER_PROC + i;
			double c = 1.0 + phase * (2.0 * uniform(&seed) - 1.0), cpi = host_base[p];

			a[r * CPI_WEIGHTS] = 1.0;
			for (k = 0; k < CPI_REGRESSORS; k++) {
				double x = host_mpki[k] / 1000.0 * (1.0 + 0.5 * p) * c *
					   (1.0 + own * (2.0 * uniform(&seed) - 1.0));

				a[r * CPI_WEIGHTS + k + 1] = x;
				cpi += host_penalty[k] * x;
			}
			b[r] = cpi * (1.0 + 0.01 * (2.0 * uniform(&seed) - 1.0));
			wt[r] = 1e8 * (1.0 + 9.0 * uniform(&seed));
			group[r] = 4000 + 37 * (int64_t)p;   /* the process table's ids */
		}
}

static int fit_host(struct cpi_fit *f)
{
	const struct cpi_fit_data d = { .a = a, .b = b, .wt = wt, .group = group,
					.rows = HOST_ROWS };

	return cpi_fit_weighted(&d, names, f);
}

/* Every penalty back within three of the standard errors the fit reports,
 * and those errors small enough to mean something (the fit refuses, "cannot
 * separate", when a component's is over CPI_FIT_MAX_COMPONENT_ERROR of
 * CPI).  One intercept for all (the pooled fit) puts the bases' spread into
 * the penalties: 30, 0, 18, 169, 57, 98 on data like these. */
static void test_host_of_processes(void)
{
	struct cpi_fit f;
	unsigned k;

	make_host(0.4, 0.3, 17);
	CHECK(fit_host(&f) == 0);
	CHECK_EQ_U(f.n_dropped, 0);
	CHECK_EQ_U(f.q.processes, PROCS);
	CHECK_EQ_U(f.q.held_processes, 1);   /* the fourth: one in CPI_FIT_FOLDS */
	CHECK_EQ_U(f.q.held_rows, PER_PROC);
	CHECK(f.condition <= CPI_FIT_MAX_CONDITION);
	CHECK(f.q.held_error < 0.02);
	for (k = 1; k < CPI_WEIGHTS; k++) {
		double want = host_penalty[k - 1];

		if (!(fabs(f.weights[k] - want) <= 3.0 * f.errors[k]))
			fprintf(stderr, "%s: %.2f +- %.2f, planted %.0f\n", names[k - 1],
				f.weights[k], f.errors[k], want);
		CHECK(fabs(f.weights[k] - want) <= 3.0 * f.errors[k]);
		CHECK(f.errors[k] > 0 && f.errors[k] < 0.5 * want);
	}
	/* the mean base: the bases weighted by cycles, about their middle */
	CHECK(f.weights[0] > 0.40 && f.weights[0] < 0.50);
}

/* The rates inside each process move together but for +-2% of their
 * own: the condition number says so, and no stack is given. */
static void test_host_collinear(void)
{
	struct cpi_fit f;

	make_host(0.4, 0.02, 19);
	CHECK(fit_host(&f) == -ERANGE);
	CHECK(strstr(f.why, "cannot separate the penalties") != NULL);
	CHECK(f.condition > CPI_FIT_MAX_CONDITION);
	CHECK(isnan(f.weights[0]) && isnan(f.weights[1]));
}

/* Each process's rates barely move (+-0.2%): the processes differ, but
 * only within them can penalty and base be told apart, and there the
 * noise swamps them. */
static void test_host_too_little_variation(void)
{
	struct cpi_fit f;

	make_host(0.002, 0.002, 23);
	CHECK(fit_host(&f) == -ERANGE);
	CHECK(strstr(f.why, "too little variation within") != NULL);
	CHECK(isnan(f.weights[1]));
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
	CHECK(fit(wt, CPI_FIT_MIN_ROWS - 1, &f) == -EINVAL);
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
	test_host_of_processes();
	test_host_collinear();
	test_host_too_little_variation();
	test_too_few_and_condition();
	test_residual();
	return 0;
}
