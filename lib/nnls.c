/*
 * nnls.c - Lawson-Hanson active-set NNLS on the normal equations.  The
 * problems here are tiny (a handful of miss events, at most thousands of
 * intervals), so forming A'A once is cheap and exact enough.
 */
#include "lib/nnls.h"

#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <string.h>

/* Solve the passive-set subsystem AtA[P,P] z = Atb[P] by Gaussian
 * elimination with partial pivoting; returns false when singular (the
 * passive columns are linearly dependent as far as doubles can tell). */
static bool solve_passive(const double ata[NNLS_MAX_VARS][NNLS_MAX_VARS], const double *atb,
			  const bool *passive, size_t n, double *z)
{
	double m[NNLS_MAX_VARS][NNLS_MAX_VARS + 1];
	size_t idx[NNLS_MAX_VARS], k = 0, i, j, r;

	for (i = 0; i < n; i++)
		if (passive[i])
			idx[k++] = i;
	for (i = 0; i < k; i++) {
		for (j = 0; j < k; j++)
			m[i][j] = ata[idx[i]][idx[j]];
		m[i][k] = atb[idx[i]];
	}
	for (i = 0; i < k; i++) {
		size_t piv = i;

		for (r = i + 1; r < k; r++)
			if (fabs(m[r][i]) > fabs(m[piv][i]))
				piv = r;
		if (fabs(m[piv][i]) < 1e-300)
			return false;
		if (piv != i)
			for (j = 0; j <= k; j++) {
				double t = m[i][j];

				m[i][j] = m[piv][j];
				m[piv][j] = t;
			}
		for (r = 0; r < k; r++) {
			double f;

			if (r == i)
				continue;
			f = m[r][i] / m[i][i];
			for (j = i; j <= k; j++)
				m[r][j] -= f * m[i][j];
		}
	}
	memset(z, 0, n * sizeof(*z));
	for (i = 0; i < k; i++)
		z[idx[i]] = m[i][k] / m[i][i];
	return true;
}

static bool all_finite(const double *v, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (!isfinite(v[i]))
			return false;
	return true;
}

int nnls_capped(const double *a, const double *b, size_t rows, size_t cols, size_t max_iter,
		double *x)
{
	double ata[NNLS_MAX_VARS][NNLS_MAX_VARS] = { { 0 } }, atb[NNLS_MAX_VARS] = { 0 };
	double w[NNLS_MAX_VARS], z[NNLS_MAX_VARS], scale = 0;
	bool passive[NNLS_MAX_VARS] = { false };
	size_t i, j, r, iter;

	if (cols == 0 || cols > NNLS_MAX_VARS || rows == 0)
		return -EINVAL;
	memset(x, 0, cols * sizeof(*x));
	/* A NaN would make every comparison below false: "optimal" at x = 0. */
	if (!all_finite(a, rows * cols) || !all_finite(b, rows))
		return -EDOM;
	for (r = 0; r < rows; r++)
		for (i = 0; i < cols; i++) {
			atb[i] += a[r * cols + i] * b[r];
			for (j = 0; j < cols; j++)
				ata[i][j] += a[r * cols + i] * a[r * cols + j];
		}
	for (i = 0; i < cols; i++)
		scale = fmax(scale, fabs(ata[i][i]));
	if (!isfinite(scale))
		return -EDOM;  /* the sums overflowed */
	for (iter = 0;; iter++) {
		size_t best = cols;
		double wmax = 1e-12 * (scale > 0 ? scale : 1);

		/* Gradient of the objective: w = A'b - A'A x. */
		for (i = 0; i < cols; i++) {
			w[i] = atb[i];
			for (j = 0; j < cols; j++)
				w[i] -= ata[i][j] * x[j];
		}
		for (i = 0; i < cols; i++)
			if (!passive[i] && w[i] > wmax) {
				wmax = w[i];
				best = i;
			}
		if (best == cols)
			return 0;  /* Kuhn-Tucker conditions hold: x is the optimum */
		if (iter == max_iter)
			return -ETIMEDOUT;  /* x is feasible but not optimal */
		passive[best] = true;
		for (;;) {
			double alpha = 1.0;
			bool all_positive = true;

			if (!solve_passive(ata, atb, passive, cols, z))
				return -EDOM;
			for (i = 0; i < cols; i++)
				if (passive[i] && z[i] <= 0)
					all_positive = false;
			if (all_positive) {
				memcpy(x, z, cols * sizeof(*x));
				break;
			}
			/* Step back to the boundary and drop variables that hit 0. */
			for (i = 0; i < cols; i++)
				if (passive[i] && z[i] <= 0 && x[i] - z[i] != 0)
					alpha = fmin(alpha, x[i] / (x[i] - z[i]));
			for (i = 0; i < cols; i++) {
				x[i] += alpha * (z[i] - x[i]);
				if (passive[i] && x[i] <= 1e-15) {
					x[i] = 0;
					passive[i] = false;
				}
			}
		}
	}
}

int nnls(const double *a, const double *b, size_t rows, size_t cols, double *x)
{
	/* Lawson and Hanson's bound: the method converges in about 3n steps. */
	return nnls_capped(a, b, rows, cols, 3 * cols + 10, x);
}
