/*
 * nnls.h - non-negative least squares (Lawson and Hanson's active-set
 * method) for the regression CPI stack: negative weights are not physical
 * (Choudhary and Singh, docs/references.md), so none is ever returned.
 */
#ifndef STACKD_NNLS_H
#define STACKD_NNLS_H

#include <stddef.h>

#define NNLS_MAX_VARS 12

/* Minimise |A x - b| subject to x >= 0.  A is rows x cols, row-major;
 * cols <= NNLS_MAX_VARS.  Returns 0 with the optimum in x; -EINVAL for bad
 * sizes; -EDOM when the system is degenerate (a value not finite, or
 * columns that are linearly dependent within rounding); -ETIMEDOUT when
 * the iteration cap was reached before the optimum.  x is not to be used
 * unless 0 is returned. */
int nnls(const double *a, const double *b, size_t rows, size_t cols, double *x);

/* nnls() with the number of active-set steps capped at max_iter. */
int nnls_capped(const double *a, const double *b, size_t rows, size_t cols, size_t max_iter,
		double *x);

#endif
