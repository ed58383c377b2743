/*
 * test_nnls.c - the non-negative least squares solver's answers and its
 * failures: an exact fit, bad sizes, non-finite input and the iteration cap
 * are each told apart by the return code (0, -EINVAL, -EDOM, -ETIMEDOUT).
 */
#include "test.h"
#include "lib/nnls.h"

#include <errno.h>
#include <math.h>

#define ROWS 60

/* b = 1 + 2u + 3v exactly, u and v varied independently: every weight is
 * positive, so the optimum has all three columns passive. */
static void three_positive(double *a, double *b)
{
	unsigned i;

	for (i = 0; i < ROWS; i++) {
		double u = (double)(i % 5), v = (double)(i % 7);

		a[i * 3] = 1;
		a[i * 3 + 1] = u;
		a[i * 3 + 2] = v;
		b[i] = 1 + 2 * u + 3 * v;
	}
}

static void test_exact(void)
{
	double a[ROWS * 3], b[ROWS], x[3];

	three_positive(a, b);
	CHECK(nnls(a, b, ROWS, 3, x) == 0);
	CHECK(fabs(x[0] - 1) < 1e-9 && fabs(x[1] - 2) < 1e-9 && fabs(x[2] - 3) < 1e-9);
}

static void test_sizes(void)
{
	double a[ROWS * 3], b[ROWS], x[NNLS_MAX_VARS + 1];

	three_positive(a, b);
	CHECK(nnls(a, b, ROWS, 0, x) == -EINVAL);
	CHECK(nnls(a, b, 0, 3, x) == -EINVAL);
	CHECK(nnls(a, b, 1, NNLS_MAX_VARS + 1, x) == -EINVAL);
}

/* A NaN would otherwise look optimal at x = 0 (every comparison false). */
static void test_not_finite(void)
{
	double a[ROWS * 3], b[ROWS], x[3];

	three_positive(a, b);
	a[7] = NAN;
	CHECK(nnls(a, b, ROWS, 3, x) == -EDOM);
	three_positive(a, b);
	b[ROWS - 1] = INFINITY;
	CHECK(nnls(a, b, ROWS, 3, x) == -EDOM);
	/* finite values whose squares overflow */
	three_positive(a, b);
	a[4] = 1e300;
	CHECK(nnls(a, b, ROWS, 3, x) == -EDOM);
}

/* Each active-set step frees one column: three positive weights need three
 * steps, and a cap below that is reported, not returned as the answer. */
static void test_cap(void)
{
	double a[ROWS * 3], b[ROWS], x[3];

	three_positive(a, b);
	CHECK(nnls_capped(a, b, ROWS, 3, 1, x) == -ETIMEDOUT);
	CHECK(nnls_capped(a, b, ROWS, 3, 2, x) == -ETIMEDOUT);
	CHECK(nnls_capped(a, b, ROWS, 3, 3, x) == 0);
	CHECK(fabs(x[0] - 1) < 1e-9 && fabs(x[1] - 2) < 1e-9 && fabs(x[2] - 3) < 1e-9);
}

int main(void)
{
	test_exact();
	test_sizes();
	test_not_finite();
	test_cap();
	return 0;
}
