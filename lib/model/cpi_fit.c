/*
 * cpi_fit.c - the regression CPI stack fit (see cpi_fit.h): the daemon's
 * store fits the host's intervals, stackd analyze a recording's.
 *
 * The paper met collinear miss events and dropped them by hand (section
 * 2.3: "We removed these events from regression as we attributed this to
 * the high correlation in data").  Here that is done by rule and said:
 * each dropped regressor carries its reason, and the fit is made again
 * without it, so its cost shows up in the weight of the regressor it moves
 * with, never as a component silently set to 0.  What the data cannot
 * tell apart beyond that is not guessed at: "cannot separate", no stack.
 */
#include "lib/model/cpi_fit.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define ALL_COLUMNS ((1u << CPI_WEIGHTS) - 1)
#define JACOBI_SWEEPS 60

static bool kept(unsigned keep, unsigned col)
{
	return (keep & (1u << col)) != 0;
}

/* Eigenvalues d[] and eigenvectors (columns of v) of the symmetric n x n
 * matrix m, which is destroyed: cyclic Jacobi rotations, each zeroing one
 * off-diagonal pair (Numerical Recipes' jacobi, without its thresholds;
 * n <= 7 makes a sweep a few hundred flops). */
static void jacobi(double m[CPI_WEIGHTS][CPI_WEIGHTS], unsigned n, double d[CPI_WEIGHTS],
		   double v[CPI_WEIGHTS][CPI_WEIGHTS])
{
	unsigned sweep, p, q, k;

	for (p = 0; p < n; p++)
		for (q = 0; q < n; q++)
			v[p][q] = p == q;
	for (sweep = 0; sweep < JACOBI_SWEEPS; sweep++) {
		double off = 0, diag = 0;

		for (p = 0; p < n; p++) {
			diag += fabs(m[p][p]);
			for (q = p + 1; q < n; q++)
				off += fabs(m[p][q]);
		}
		if (off <= 1e-15 * diag)
			break;
		for (p = 0; p < n; p++)
			for (q = p + 1; q < n; q++) {
				double theta, t, c, s;

				if (m[p][q] == 0)
					continue;
				theta = (m[q][q] - m[p][p]) / (2 * m[p][q]);
				t = (theta >= 0 ? 1.0 : -1.0) / (fabs(theta) + sqrt(theta * theta + 1));
				c = 1 / sqrt(t * t + 1);
				s = t * c;
				for (k = 0; k < n; k++) {   /* m = m P */
					double kp = m[k][p], kq = m[k][q];

					m[k][p] = c * kp - s * kq;
					m[k][q] = s * kp + c * kq;
				}
				for (k = 0; k < n; k++) {   /* m = P' m */
					double pk = m[p][k], qk = m[q][k];

					m[p][k] = c * pk - s * qk;
					m[q][k] = s * pk + c * qk;
				}
				for (k = 0; k < n; k++) {
					double kp = v[k][p], kq = v[k][q];

					v[k][p] = c * kp - s * kq;
					v[k][q] = s * kp + c * kq;
				}
			}
	}
	for (p = 0; p < n; p++)
		d[p] = m[p][p];
}

/* The condition number of the kept columns, and in *weakest the kept
 * regressor column (>= 1) that weighs most in the direction of the
 * smallest eigenvalue (0 when only the base is kept). */
static double condition(const double *a, const double *wt, size_t rows, unsigned keep,
			unsigned *weakest)
{
	double m[CPI_WEIGHTS][CPI_WEIGHTS] = { { 0 } }, v[CPI_WEIGHTS][CPI_WEIGHTS];
	double d[CPI_WEIGHTS], lo = INFINITY, hi = 0, best = -1;
	unsigned col[CPI_WEIGHTS] = { 0 }, n = 0, i, j, lo_at = 0;
	size_t r;

	*weakest = 0;
	for (i = 0; i < CPI_WEIGHTS; i++)
		if (kept(keep, i))
			col[n++] = i;
	for (r = 0; r < rows; r++)
		for (i = 0; i < n; i++)
			for (j = 0; j < n; j++)
				m[i][j] += (wt != NULL ? wt[r] : 1.0) * a[r * CPI_WEIGHTS + col[i]] *
					   a[r * CPI_WEIGHTS + col[j]];
	for (i = 0; i < n; i++)
		if (!(m[i][i] > 0))
			return INFINITY;   /* a column of zeros */
	for (i = 0; i < n; i++)
		for (j = 0; j < n; j++)
			if (i != j)
				m[i][j] /= sqrt(m[i][i] * m[j][j]);
	for (i = 0; i < n; i++)
		m[i][i] = 1.0;
	jacobi(m, n, d, v);
	for (i = 0; i < n; i++) {
		hi = fmax(hi, d[i]);
		if (d[i] < lo) {
			lo = d[i];
			lo_at = i;
		}
	}
	for (i = 0; i < n; i++)
		if (col[i] != 0 && fabs(v[i][lo_at]) > best) {
			best = fabs(v[i][lo_at]);
			*weakest = col[i];
		}
	return lo > 0 ? sqrt(hi / lo) : INFINITY;
}

double cpi_fit_condition(const double *a, const double *wt, size_t rows, unsigned keep)
{
	unsigned weakest;

	return condition(a, wt, rows, keep, &weakest);
}

static double column_mean(const double *a, const double *wt, size_t rows, unsigned col)
{
	double s = 0, sw = 0;
	size_t r;

	for (r = 0; r < rows; r++) {
		s += (wt != NULL ? wt[r] : 1.0) * a[r * CPI_WEIGHTS + col];
		sw += wt != NULL ? wt[r] : 1.0;
	}
	return sw > 0 ? s / sw : 0;
}

__attribute__((format(printf, 5, 6)))
static void drop(struct cpi_fit *out, unsigned *keep, unsigned col, int merged_into,
		 const char *fmt, ...)
{
	struct cpi_fit_drop *d = &out->dropped[out->n_dropped++];
	va_list ap;

	*keep &= ~(1u << col);
	d->regressor = col - 1;
	d->merged_into = merged_into;
	va_start(ap, fmt);
	vsnprintf(d->reason, sizeof(d->reason), fmt, ap);
	va_end(ap);
}

/* Of each pair that moves together within the processes (wa), the one
 * with fewer events (in a) goes, its rate being the noisier: the other's
 * weight then carries both costs. */
static void drop_collinear(const double *a, const double *wa, const double *wt, size_t rows,
			   const char *const names[CPI_REGRESSORS], unsigned *keep,
			   struct cpi_fit *out)
{
	unsigned k, l;

	for (k = 1; k < CPI_WEIGHTS; k++)
		for (l = k + 1; l < CPI_WEIGHTS && kept(*keep, k); l++) {
			double r;
			unsigned gone, stays;

			if (!kept(*keep, l))
				continue;
			r = cpi_fit_correlation(wa, wt, rows, k, l);
			if (!(fabs(r) > CPI_COLLINEAR_R))
				continue;
			gone = column_mean(a, wt, rows, k) < column_mean(a, wt, rows, l) ? k : l;
			stays = gone == k ? l : k;
			drop(out, keep, gone, (int)stays - 1, "moves with %s (correlation %.4f within "
			     "the processes): their penalties cannot be told apart, so %s's "
			     "weight carries both", names[stays - 1], r, names[stays - 1]);
		}
}

/* The reason the penalties cannot separate into out->why; -ERANGE. */
__attribute__((format(printf, 2, 3)))
static int cannot_separate(struct cpi_fit *out, const char *fmt, ...)
{
	va_list ap;
	int n = snprintf(out->why, sizeof(out->why), "cannot separate the penalties: ");
	unsigned k;

	va_start(ap, fmt);
	vsnprintf(out->why + n, sizeof(out->why) - (size_t)n, fmt, ap);
	va_end(ap);
	for (k = 0; k < CPI_WEIGHTS; k++)
		out->weights[k] = NAN;
	return -ERANGE;
}

/* Rows beyond each process's first: what the within fit has to go on. */
static size_t within_rows(const double *wa, const double *wb, size_t rows, size_t processes)
{
	size_t n = 0, r;
	unsigned k;

	for (r = 0; r < rows; r++) {
		bool any = wb[r] != 0;

		for (k = 1; k < CPI_WEIGHTS; k++)
			any = any || wa[r * CPI_WEIGHTS + k] != 0;
		n += any;
	}
	return n > processes ? n - processes : 0;
}

/* A component of the stack the fit leaves too uncertain: -ERANGE. */
static int check_errors(const struct cpi_fit_data *d, const char *const names[CPI_REGRESSORS],
			unsigned keep, struct cpi_fit *out)
{
	double cpi = 0, sw = 0;
	size_t r;
	unsigned k;

	for (r = 0; r < d->rows; r++) {
		cpi += (d->wt != NULL ? d->wt[r] : 1.0) * d->b[r];
		sw += d->wt != NULL ? d->wt[r] : 1.0;
	}
	cpi = sw > 0 ? cpi / sw : 0;
	for (k = 1; k < CPI_WEIGHTS; k++) {
		double share;

		if (!kept(keep, k))
			continue;
		share = out->errors[k] * column_mean(d->a, d->wt, d->rows, k) / cpi;
		if (!(share <= CPI_FIT_MAX_COMPONENT_ERROR))
			return cannot_separate(out, "%s's penalty %.1f +- %.1f cycles leaves its "
					       "part of CPI uncertain by %.1f%% (above %.0f%%): too "
					       "little variation within the %zu processes", names[k - 1],
					       out->weights[k], out->errors[k], 100.0 * share,
					       100.0 * CPI_FIT_MAX_COMPONENT_ERROR, out->q.processes);
	}
	return 0;
}

/* On the variation within processes (wa, wb): the condition, and whether
 * there is enough of it; then the fit. */
static int fit_within(const struct cpi_fit_data *d, const double *wa, const double *wb,
		      size_t processes, const char *const names[CPI_REGRESSORS], unsigned keep,
		      struct cpi_fit *out)
{
	size_t extra = within_rows(wa, wb, d->rows, processes);
	unsigned weakest, k;
	int r;

	out->q.processes = processes;
	if (extra < CPI_FIT_MIN_ROWS)
		return cannot_separate(out, "%zu process-intervals beyond each process's first "
				       "(%zu processes of two or more), it needs %d: too little "
				       "variation within processes", extra, processes,
				       CPI_FIT_MIN_ROWS);
	out->condition = condition(wa, d->wt, d->rows, keep & ~1u, &weakest);
	if (!(out->condition <= CPI_FIT_MAX_CONDITION))
		return cannot_separate(out, "the miss rates move together within the processes "
				       "(condition number %.3g, above %.0f; %s weighs most in it)",
				       out->condition, CPI_FIT_MAX_CONDITION,
				       weakest > 0 ? names[weakest - 1] : "none");
	r = cpi_fit_quality_grouped(d, keep, out->weights, out->errors, &out->q);
	if (r < 0)
		return r;
	for (k = 1; k < CPI_WEIGHTS; k++)
		if (!kept(keep, k))
			out->weights[k] = NAN;
	return check_errors(d, names, keep, out);
}

int cpi_fit_weighted(const struct cpi_fit_data *d, const char *const names[CPI_REGRESSORS],
		     struct cpi_fit *out)
{
	size_t n = d->rows ? d->rows : 1;
	double *wa = NULL, *wb = NULL;
	unsigned keep = ALL_COLUMNS, k;
	int r, processes;

	memset(out, 0, sizeof(*out));
	out->q.rows = d->rows;
	out->q.r2 = out->q.held_error = out->condition = NAN;
	for (k = 0; k < CPI_WEIGHTS; k++)
		out->weights[k] = out->errors[k] = NAN;
	if (d->rows < CPI_FIT_MIN_ROWS)
		return -EINVAL;
	wa = malloc(n * CPI_WEIGHTS * sizeof(*wa));
	wb = malloc(n * sizeof(*wb));
	processes = wa != NULL && wb != NULL ? cpi_fit_within(d, wa, wb) : -ENOMEM;
	if (processes < 0) {
		r = processes;
		goto out;
	}
	for (k = 1; k < CPI_WEIGHTS; k++)
		if (!(column_mean(d->a, d->wt, d->rows, k) > 0))
			drop(out, &keep, k, -1, "no events over the fit's intervals: its penalty "
			     "cannot be estimated");
	drop_collinear(d->a, wa, d->wt, d->rows, names, &keep, out);
	r = fit_within(d, wa, wb, (size_t)processes, names, keep, out);
out:
	free(wa);
	free(wb);
	return r;
}
