/*
 * nnls.h - non-negative least squares (Lawson and Hanson's active-set
 * method) for the regression CPI stack: negative weights are not physical
 * (papers/cpi-stack-linear-regression.txt), so none is ever returned.
 */
#ifndef STACKD_NNLS_H
#define STACKD_NNLS_H

#include <stddef.h>

#define NNLS_MAX_VARS 12

/* Minimise |A x - b| subject to x >= 0.  A is rows x cols, row-major;
 * cols <= NNLS_MAX_VARS.  Returns 0, or -EINVAL for bad sizes. */
int nnls(const double *a, const double *b, size_t rows, size_t cols, double *x);

#endif
