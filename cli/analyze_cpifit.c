/*
 * analyze_cpifit.c - `stackctl analyze`'s regression CPI stack (see
 * analyze_cpifit.h).
 */
#include "cli/analyze_cpifit.h"
#include "lib/model/model_generic.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The same label as the API's (lib/api_cpifit.c). */
#define CPI_FIT_LABEL "regression estimate"

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

/* Say why there are no weights, rather than leave the CPI stack out
 * without a word. */
static void report_failure(const struct model *m, const struct group_sums *const *iv,
			   size_t n, const struct analyze_cpifit *fit)
{
	fprintf(stderr, "stackctl: analyze: no regression CPI stack (cpi_base, cpi_*): ");
	if (fit->r == -EINVAL) {
		fprintf(stderr, "it needs %d intervals (-I) or more with cycles, instructions "
			"and every miss event", CPI_FIT_MIN_ROWS);
		describe_cpi_rows(m, iv, n);
		fputc('\n', stderr);
	} else if (fit->r == -ERANGE)
		fprintf(stderr, "%s\n", fit->f.why);
	else if (fit->r == -EDOM)
		fprintf(stderr, "the intervals' event rates are degenerate (not finite, or "
			"linearly dependent)\n");
	else if (fit->r == -ETIMEDOUT)
		fprintf(stderr, "the fit did not converge\n");
	else
		fprintf(stderr, "%s\n", strerror(-fit->r));
}

static void report_fit(const struct model *m, const struct cpi_fit *f)
{
	unsigned k;

	for (k = 0; k < f->n_dropped; k++)
		fprintf(stderr, "stackctl: analyze: regression CPI stack: dropped %s: %s\n",
			model_generic_regressor(m, f->dropped[k].regressor), f->dropped[k].reason);
	fprintf(stderr, "stackctl: analyze: regression CPI stack (an estimate) over %zu "
		"intervals: base %.3f cycles per instruction; cycles per event:", f->q.rows,
		f->weights[0]);
	for (k = 0; k < CPI_REGRESSORS; k++)
		if (!isnan(f->weights[k + 1]))
			fprintf(stderr, "%s %s %.2f +- %.2f", k ? "," : "",
				model_generic_regressor(m, k), f->weights[k + 1], f->errors[k + 1]);
	fprintf(stderr, "; R2 %.3f within the run over %zu intervals, held-out error %.1f%% "
		"of CPI over %zu\n", f->q.r2, f->q.train_rows, 100.0 * f->q.held_error,
		f->q.held_rows);
}

const double *analyze_cpifit_run(const struct model *m, const struct group_sums *const *iv,
				 size_t n, struct analyze_cpifit *out)
{
	double *a = calloc(n ? n : 1, CPI_WEIGHTS * sizeof(*a));
	double *b = calloc(n ? n : 1, sizeof(*b)), *wt = calloc(n ? n : 1, sizeof(*wt));

	memset(out, 0, sizeof(*out));
	out->r = -ENOMEM;
	if (a != NULL && b != NULL && wt != NULL) {
		const char *names[CPI_REGRESSORS];
		size_t rows = 0, i;
		double ins;
		unsigned k;

		for (i = 0; i < n; i++)
			if (model_generic_cpi_row(m, iv[i], &a[rows * CPI_WEIGHTS], &b[rows],
						  &wt[rows], &ins) == 0)
				rows++;
		for (k = 0; k < CPI_REGRESSORS; k++)
			names[k] = model_generic_regressor(m, k);
		out->r = cpi_fit_weighted(&(const struct cpi_fit_data){ a, b, wt, NULL, rows },
					  names, &out->f);
	}
	free(a);
	free(b);
	free(wt);
	if (out->r != 0) {
		report_failure(m, iv, n, out);
		return NULL;
	}
	report_fit(m, &out->f);
	return out->f.weights;
}

static void print_value(double v)
{
	if (isfinite(v))
		printf("%.9g", v);
	else
		printf("null");
}

static void print_num(const char *key, double v)
{
	printf(", \"%s\": ", key);
	print_value(v);
}

static void print_weights(const struct model *m, const char *key, const double *w)
{
	unsigned k;

	printf(", \"%s\": {\"base\": ", key);
	print_value(w[0]);
	for (k = 0; k < CPI_REGRESSORS; k++) {
		printf(", \"%s\": ", model_generic_regressor(m, k));
		print_value(w[k + 1]);
	}
	printf("}");
}

/* A reason as a JSON string: its quotes and backslashes escaped (the
 * reasons are our own ASCII words and event names). */
static void print_string(const char *key, const char *s)
{
	printf(", \"%s\": \"", key);
	for (; *s != '\0'; s++) {
		if (*s == '"' || *s == '\\')
			putchar('\\');
		putchar(*s);
	}
	printf("\"");
}

void analyze_cpifit_json(const struct model *m, const struct analyze_cpifit *fit)
{
	const struct cpi_fit *f = &fit->f;
	unsigned k;

	if (fit->r == 1)
		return;
	printf(", \"cpi_fit\": {\"label\": \"%s\", \"fitted\": %s", CPI_FIT_LABEL,
	       fit->r == 0 ? "true" : "false");
	if (fit->r != 0) {
		char few[160];

		snprintf(few, sizeof(few), "needs %d intervals (-I) or more with cycles, "
			 "instructions and every miss event; the recording has %zu", CPI_FIT_MIN_ROWS,
			 f->q.rows);
		print_string("reason", fit->r == -ERANGE ? f->why : fit->r == -EINVAL ? few :
			     strerror(-fit->r));
		printf(", \"rows\": %zu}", f->q.rows);
		return;
	}
	print_num("r2", f->q.r2);
	print_num("held_out_error", f->q.held_error);
	printf(", \"rows\": %zu, \"train_rows\": %zu, \"held_rows\": %zu, \"processes\": %zu, "
	       "\"held_processes\": %zu", f->q.rows, f->q.train_rows, f->q.held_rows,
	       f->q.processes, f->q.held_processes);
	print_num("condition", f->condition);
	printf(", \"fit_version\": %d", CPI_FIT_VERSION);
	print_weights(m, "weights", f->weights);
	print_weights(m, "errors", f->errors);
	printf(", \"dropped\": [");
	for (k = 0; k < f->n_dropped; k++) {
		printf("%s{\"regressor\": \"%s\"", k ? ", " : "",
		       model_generic_regressor(m, f->dropped[k].regressor));
		print_string("reason", f->dropped[k].reason);
		printf("}");
	}
	printf("]}");
}
