/*
 * cpi_fit_quality.c - the regression CPI stack's quality (see
 * cpi_fit_quality.h).
 */
#include "cpi_fit_quality.h"
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

/* Pearson correlation of regressor columns k and l (1-based in a). */
static double correlation(const double *a, size_t rows, unsigned k, unsigned l)
{
	double mk = 0, ml = 0, skk = 0, sll = 0, skl = 0;
	size_t i;

	for (i = 0; i < rows; i++) {
		mk += a[i * CPI_WEIGHTS + k];
		ml += a[i * CPI_WEIGHTS + l];
	}
	mk /= (double)rows;
	ml /= (double)rows;
	for (i = 0; i < rows; i++) {
		double dk = a[i * CPI_WEIGHTS + k] - mk, dl = a[i * CPI_WEIGHTS + l] - ml;

		skk += dk * dk;
		sll += dl * dl;
		skl += dk * dl;
	}
	return skk > 0 && sll > 0 ? skl / sqrt(skk * sll) : 0;
}

static void find_collinear(const double *a, size_t rows, struct cpi_fit_quality *q)
{
	unsigned k, l;

	for (k = 1; k < CPI_WEIGHTS; k++)
		for (l = k + 1; l < CPI_WEIGHTS; l++)
			if (fabs(correlation(a, rows, k, l)) > CPI_COLLINEAR_R) {
				q->collinear[q->n_collinear][0] = k - 1;
				q->collinear[q->n_collinear][1] = l - 1;
				q->n_collinear++;
			}
}

/* R² of w over the training rows and its error over the held-out ones. */
static void score(const double *a, const double *b, size_t rows, const double *w,
		  struct cpi_fit_quality *q)
{
	double mean = 0, ss_tot = 0, ss_res = 0, err = 0, held_cpi = 0;
	size_t i;

	for (i = 0; i < rows; i++)
		if (!held_out(i))
			mean += b[i];
	mean /= (double)q->train_rows;
	for (i = 0; i < rows; i++) {
		double d = b[i] - predict(&a[i * CPI_WEIGHTS], w);

		if (held_out(i)) {
			err += fabs(d);
			held_cpi += b[i];
		} else {
			ss_res += d * d;
			ss_tot += (b[i] - mean) * (b[i] - mean);
		}
	}
	q->r2 = ss_tot > 0 ? 1.0 - ss_res / ss_tot : NAN;
	q->held_error = held_cpi > 0 ? err / held_cpi : NAN;
}

int cpi_fit_quality(const double *a, const double *b, size_t rows, struct cpi_fit_quality *q)
{
	double *ta, *tb, w[CPI_WEIGHTS];
	size_t i, t = 0;
	int r;

	memset(q, 0, sizeof(*q));
	q->rows = rows;
	q->r2 = q->held_error = NAN;
	if (rows > 1)
		find_collinear(a, rows, q);
	if (rows < 2 * CPI_WEIGHTS)
		return -EINVAL;
	ta = malloc(rows * CPI_WEIGHTS * sizeof(*ta));
	tb = malloc(rows * sizeof(*tb));
	if (ta == NULL || tb == NULL) {
		free(ta);
		free(tb);
		return -ENOMEM;
	}
	for (i = 0; i < rows; i++) {
		if (held_out(i)) {
			q->held_rows++;
			continue;
		}
		memcpy(&ta[t * CPI_WEIGHTS], &a[i * CPI_WEIGHTS], CPI_WEIGHTS * sizeof(*a));
		tb[t++] = b[i];
	}
	q->train_rows = t;
	r = nnls(ta, tb, t, CPI_WEIGHTS, w);
	if (r == 0)
		score(a, b, rows, w, q);
	free(ta);
	free(tb);
	return r;
}
