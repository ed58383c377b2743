/*
 * analyze_cpifit.c - what `stackctl analyze` says of its regression CPI
 * stack (see analyze_cpifit.h).
 */
#include "cli/analyze_cpifit.h"
#include "lib/model/cpi_fit_quality.h"
#include "lib/model/model_generic.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* How many of the n intervals the regression can use, and which miss
 * event the others lack: "; 3 of 5 usable; 2 without ic_refill_mem". */
static void describe_cpi_rows(const struct model *m, const struct group_sums *const *iv,
			      size_t n)
{
	size_t usable = 0, no_base = 0, lacks[CPI_REGRESSORS] = { 0 }, i;
	double row[CPI_WEIGHTS], cpi, cyc, ins;
	unsigned k;

	for (i = 0; i < n; i++) {
		int r = model_generic_cpi_row(m, iv[i], row, &cpi, &cyc, &ins);

		if (r == 0)
			usable++;
		else if (r < 0)
			no_base++;
		else
			lacks[r - 1]++;
	}
	fprintf(stderr, "; the recording has %zu interval%s, %zu usable", n, n == 1 ? "" : "s",
		usable);
	if (no_base > 0)
		fprintf(stderr, "; %zu without cycles and instructions", no_base);
	for (k = 0; k < CPI_REGRESSORS; k++)
		if (lacks[k] > 0)
			fprintf(stderr, "; %zu without %s%s", lacks[k], model_generic_regressor(m, k),
				lacks[k] == n ? " (not in the recording: record it with -e)" : "");
}

/* Say why model_generic_cpi_fit() gave no weights (r), rather than leave the
 * CPI stack out without a word. */
void report_cpi_fit_failure(const struct model *m, const struct group_sums *const *iv,
				   size_t n, int r)
{
	fprintf(stderr, "stackctl: analyze: no regression CPI stack (cpi_base, cpi_*): ");
	if (r == -EINVAL) {
		fprintf(stderr, "it needs more than %d intervals (-I) with cycles, instructions "
			"and every miss event", CPI_WEIGHTS);
		describe_cpi_rows(m, iv, n);
		fputc('\n', stderr);
	} else if (r == -EDOM)
		fprintf(stderr, "the intervals' event rates are degenerate (not finite, or "
			"linearly dependent)\n");
	else if (r == -ETIMEDOUT)
		fprintf(stderr, "the fit did not converge\n");
	else
		fprintf(stderr, "%s\n", strerror(-r));
}

/* The regression CPI stack's weights and quality (cpi_fit_quality.h), and
 * regressors too alike to tell apart, on stderr; weights NULL: no fit. */
void report_cpi_fit(const struct model *m, const struct group_sums *const *iv, size_t n,
			   const double *weights)
{
	double *a = calloc(n ? n : 1, CPI_WEIGHTS * sizeof(*a)), *b = calloc(n ? n : 1, sizeof(*b));
	struct cpi_fit_quality q;
	int rows, r;
	unsigned k;

	if (a == NULL || b == NULL)
		goto out;
	rows = model_generic_cpi_rows(m, iv, n, a, b);
	r = cpi_fit_quality(a, b, (size_t)rows, &q);
	for (k = 0; k < q.n_collinear; k++)
		fprintf(stderr, "stackctl: analyze: %s and %s move together (correlation above "
			"%.3f): the regression cannot tell their penalties apart, and their split "
			"in the CPI stack is arbitrary\n", model_generic_regressor(m, q.collinear[k][0]),
			model_generic_regressor(m, q.collinear[k][1]), CPI_COLLINEAR_R);
	if (weights == NULL)
		goto out;
	fprintf(stderr, "stackctl: analyze: regression CPI stack (an estimate) over %d intervals: "
		"base %.3f cycles per instruction; cycles per event:", rows, weights[0]);
	for (k = 0; k < CPI_REGRESSORS; k++)
		fprintf(stderr, "%s %s %.2f", k ? "," : "", model_generic_regressor(m, k),
			weights[k + 1]);
	if (r == 0)
		fprintf(stderr, "; R2 %.3f over %zu training intervals, held-out error %.1f%% of "
			"CPI over %zu\n", q.r2, q.train_rows, 100.0 * q.held_error, q.held_rows);
	else
		fprintf(stderr, "; no held-out check (%d intervals, it needs %d)\n", rows,
			2 * CPI_WEIGHTS);
out:
	free(a);
	free(b);
}

