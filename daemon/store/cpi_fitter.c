/*
 * cpi_fitter.c - the host's regression CPI stack fit (see cpi_fitter.h),
 * which only the daemon's store makes; readers see the stored fit through
 * lib/model/cpi_fit.h and lib/query.h.
 *
 * The paper met collinear miss events and dropped them by hand (section
 * 2.3: "We removed these events from regression as we attributed this to
 * the high correlation in data").  Here that is done by rule and said:
 * each dropped regressor carries its reason, and the fit is made again
 * without it, so its cost shows up in the weight of the regressor it moves
 * with (or in the others), never as a component silently set to 0.
 */
#include "daemon/store/cpi_fitter.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
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

/* Of each pair that moves together, the one with fewer events goes (its
 * rate is the noisier): the other's weight then carries both costs. */
static void drop_collinear(const double *a, const double *wt, size_t rows,
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
			r = cpi_fit_correlation(a, wt, rows, k, l);
			if (!(fabs(r) > CPI_COLLINEAR_R))
				continue;
			gone = column_mean(a, wt, rows, k) < column_mean(a, wt, rows, l) ? k : l;
			stays = gone == k ? l : k;
			drop(out, keep, gone, (int)stays - 1, "moves with %s (correlation %.4f over "
			     "the fit's intervals): their penalties cannot be told apart, so %s's "
			     "weight carries both", names[stays - 1], r, names[stays - 1]);
		}
}

int cpi_fit_weighted(const double *a, const double *b, const double *wt, size_t rows,
		     const char *const names[CPI_REGRESSORS], struct cpi_fit *out)
{
	double w[CPI_WEIGHTS];
	unsigned keep = ALL_COLUMNS, k, weakest;
	int r;

	memset(out, 0, sizeof(*out));
	out->q.rows = rows;
	out->q.r2 = out->q.held_error = out->condition = NAN;
	for (k = 0; k < CPI_WEIGHTS; k++)
		out->weights[k] = NAN;
	if (rows < CPI_FIT_MIN_ROWS)
		return -EINVAL;
	for (k = 1; k < CPI_WEIGHTS; k++)
		if (!(column_mean(a, wt, rows, k) > 0))
			drop(out, &keep, k, -1, "no events over the fit's intervals: its penalty "
			     "cannot be estimated");
	drop_collinear(a, wt, rows, names, &keep, out);
	for (;;) {
		out->condition = condition(a, wt, rows, keep, &weakest);
		if (out->condition <= CPI_FIT_MAX_CONDITION || weakest == 0)
			break;
		drop(out, &keep, weakest, -1, "nearly a combination of the other regressors "
		     "(condition number %.3g with it, above %.0f): its penalty cannot be "
		     "estimated, its cost goes to the others", out->condition,
		     CPI_FIT_MAX_CONDITION);
	}
	r = cpi_fit_quality_weighted(a, b, wt, rows, keep, w, &out->q);
	if (r < 0)
		return r;
	for (k = 0; k < CPI_WEIGHTS; k++)
		out->weights[k] = kept(keep, k) ? w[k] : NAN;
	return 0;
}
