/*
 * cpi_fit_quality.c - the regression CPI stack's quality (see
 * cpi_fit_quality.h).
 */
#include "lib/model/cpi_fit_quality.h"
#include "lib/nnls.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Every fourth row is held out. */
static bool held_out(size_t row)
{
	return row % 4 == 3;
}

static double predict(const double *row, const double *w)
{
	double y = 0;
	unsigned k;

	for (k = 0; k < CPI_WEIGHTS; k++)
		y += row[k] * w[k];
	return y;
}

static double weight_of(const double *wt, size_t i)
{
	return wt != NULL ? wt[i] : 1.0;
}

double cpi_fit_correlation(const double *a, const double *wt, size_t rows, unsigned k,
			   unsigned l)
{
	double mk = 0, ml = 0, sw = 0, skk = 0, sll = 0, skl = 0;
	size_t i;

	for (i = 0; i < rows; i++) {
		mk += weight_of(wt, i) * a[i * CPI_WEIGHTS + k];
		ml += weight_of(wt, i) * a[i * CPI_WEIGHTS + l];
		sw += weight_of(wt, i);
	}
	if (!(sw > 0))
		return 0;
	mk /= sw;
	ml /= sw;
	for (i = 0; i < rows; i++) {
		double dk = a[i * CPI_WEIGHTS + k] - mk, dl = a[i * CPI_WEIGHTS + l] - ml;

		skk += weight_of(wt, i) * dk * dk;
		sll += weight_of(wt, i) * dl * dl;
		skl += weight_of(wt, i) * dk * dl;
	}
	return skk > 0 && sll > 0 ? skl / sqrt(skk * sll) : 0;
}

static void find_collinear(const double *a, const double *wt, size_t rows, unsigned keep,
			   struct cpi_fit_quality *q)
{
	unsigned k, l;

	for (k = 1; k < CPI_WEIGHTS; k++)
		for (l = k + 1; l < CPI_WEIGHTS; l++)
			if ((keep & (1u << k)) && (keep & (1u << l)) &&
			    fabs(cpi_fit_correlation(a, wt, rows, k, l)) > CPI_COLLINEAR_R) {
				q->collinear[q->n_collinear][0] = k - 1;
				q->collinear[q->n_collinear][1] = l - 1;
				q->n_collinear++;
			}
}

/* R² of w over the training rows and its error over the held-out ones,
 * each row counting wt[i] (NULL: once). */
static void score(const double *a, const double *b, const double *wt, size_t rows,
		  const double *w, struct cpi_fit_quality *q)
{
	double mean = 0, sw = 0, ss_tot = 0, ss_res = 0, err = 0, held_cpi = 0;
	size_t i;

	for (i = 0; i < rows; i++)
		if (!held_out(i)) {
			mean += weight_of(wt, i) * b[i];
			sw += weight_of(wt, i);
		}
	mean = sw > 0 ? mean / sw : 0;
	for (i = 0; i < rows; i++) {
		double d = b[i] - predict(&a[i * CPI_WEIGHTS], w), x = weight_of(wt, i);

		if (held_out(i)) {
			err += x * fabs(d);
			held_cpi += x * b[i];
		} else {
			ss_res += x * d * d;
			ss_tot += x * (b[i] - mean) * (b[i] - mean);
		}
	}
	q->r2 = ss_tot > 0 ? 1.0 - ss_res / ss_tot : NAN;
	q->held_error = held_cpi > 0 ? err / held_cpi : NAN;
}

int cpi_fit_quality_weighted(const double *a, const double *b, const double *wt, size_t rows,
			     unsigned keep, double w[CPI_WEIGHTS], struct cpi_fit_quality *q)
{
	double *ta, *tb;
	size_t i, t = 0;
	unsigned k;
	int r;

	memset(q, 0, sizeof(*q));
	q->rows = rows;
	q->r2 = q->held_error = NAN;
	if (rows > 1)
		find_collinear(a, wt, rows, keep, q);
	if (rows < 2 * CPI_WEIGHTS)
		return -EINVAL;
	ta = malloc(rows * CPI_WEIGHTS * sizeof(*ta));
	tb = malloc(rows * sizeof(*tb));
	if (ta == NULL || tb == NULL) {
		free(ta);
		free(tb);
		return -ENOMEM;
	}
	/* Weighted least squares: each row and its target scaled by the
	 * square root of its weight; a column left out is all zeros, which
	 * NNLS never takes into its passive set (its weight stays 0). */
	for (i = 0; i < rows; i++) {
		double s = sqrt(weight_of(wt, i));

		if (held_out(i)) {
			q->held_rows++;
			continue;
		}
		for (k = 0; k < CPI_WEIGHTS; k++)
			ta[t * CPI_WEIGHTS + k] = (keep & (1u << k)) ? s * a[i * CPI_WEIGHTS + k] : 0;
		tb[t++] = s * b[i];
	}
	q->train_rows = t;
	r = nnls(ta, tb, t, CPI_WEIGHTS, w);
	if (r == 0)
		score(a, b, wt, rows, w, q);
	free(ta);
	free(tb);
	return r;
}

int cpi_fit_quality(const double *a, const double *b, size_t rows, struct cpi_fit_quality *q)
{
	double w[CPI_WEIGHTS];

	return cpi_fit_quality_weighted(a, b, NULL, rows, (1u << CPI_WEIGHTS) - 1, w, q);
}
