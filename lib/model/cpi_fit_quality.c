/*
 * cpi_fit_quality.c - the regression CPI stack's penalties from the
 * variation within processes, and their quality (see cpi_fit_quality.h).
 */
#include "lib/model/cpi_fit_quality.h"
#include "lib/nnls.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* The rows' processes: ord[row] numbers them 0 .. n - 1, count[] their
 * rows, multi[] their number among those of two rows or more (or -1). */
struct groups {
	size_t *ord, *count, n, n_multi;
	long *multi;
};

struct keyed {
	int64_t group;
	size_t row;
};

static int by_group(const void *x, const void *y)
{
	const struct keyed *a = x, *b = y;

	if (a->group != b->group)
		return a->group < b->group ? -1 : 1;
	return a->row < b->row ? -1 : a->row > b->row;
}

static void groups_free(struct groups *g)
{
	free(g->ord);
	free(g->count);
	free(g->multi);
}

static int groups_make(const struct cpi_fit_data *d, struct groups *g)
{
	struct keyed *k = malloc((d->rows ? d->rows : 1) * sizeof(*k));
	size_t i;

	memset(g, 0, sizeof(*g));
	g->ord = calloc(d->rows ? d->rows : 1, sizeof(*g->ord));
	g->count = calloc(d->rows ? d->rows : 1, sizeof(*g->count));
	g->multi = calloc(d->rows ? d->rows : 1, sizeof(*g->multi));
	if (k == NULL || g->ord == NULL || g->count == NULL || g->multi == NULL) {
		free(k);
		groups_free(g);
		return -ENOMEM;
	}
	for (i = 0; i < d->rows; i++) {
		k[i].group = d->group != NULL ? d->group[i] : 0;
		k[i].row = i;
	}
	qsort(k, d->rows, sizeof(*k), by_group);
	for (i = 0; i < d->rows; i++) {
		if (i > 0 && k[i].group != k[i - 1].group)
			g->n++;
		g->ord[k[i].row] = g->n;
		g->count[g->n]++;
	}
	g->n = d->rows > 0 ? g->n + 1 : 0;
	for (i = 0; i < g->n; i++)
		g->multi[i] = g->count[i] >= 2 ? (long)g->n_multi++ : -1;
	free(k);
	return 0;
}

static double weight_of(const double *wt, size_t i)
{
	return wt != NULL ? wt[i] : 1.0;
}

static double predict(const double *row, const double *w)
{
	double y = 0;
	unsigned k;

	for (k = 0; k < CPI_WEIGHTS; k++)
		y += row[k] * w[k];
	return y;
}

/* The rows in use (use NULL: all) less their process's mean over the rows
 * in use; a row not in use, or alone in its process, gives zeros. */
static int demean(const struct cpi_fit_data *d, const struct groups *g, const bool *use,
		  double *wa, double *wb)
{
	double *sum = calloc(g->n ? g->n : 1, (CPI_WEIGHTS + 2) * sizeof(*sum));
	size_t i;
	unsigned k;

	if (sum == NULL)
		return -ENOMEM;
	for (i = 0; i < d->rows; i++) {
		double *s = &sum[g->ord[i] * (CPI_WEIGHTS + 2)], x = weight_of(d->wt, i);

		if (use != NULL && !use[i])
			continue;
		for (k = 0; k < CPI_WEIGHTS; k++)
			s[k] += x * d->a[i * CPI_WEIGHTS + k];
		s[CPI_WEIGHTS] += x * d->b[i];
		s[CPI_WEIGHTS + 1] += x;
	}
	for (i = 0; i < d->rows; i++) {
		const double *s = &sum[g->ord[i] * (CPI_WEIGHTS + 2)];
		size_t n = g->count[g->ord[i]];

		memset(&wa[i * CPI_WEIGHTS], 0, CPI_WEIGHTS * sizeof(*wa));
		wb[i] = 0;
		if ((use != NULL && !use[i]) || n < 2 || !(s[CPI_WEIGHTS + 1] > 0))
			continue;
		for (k = 1; k < CPI_WEIGHTS; k++)
			wa[i * CPI_WEIGHTS + k] = d->a[i * CPI_WEIGHTS + k] - s[k] / s[CPI_WEIGHTS + 1];
		wb[i] = d->b[i] - s[CPI_WEIGHTS] / s[CPI_WEIGHTS + 1];
	}
	free(sum);
	return 0;
}

int cpi_fit_within(const struct cpi_fit_data *d, double *wa, double *wb)
{
	struct groups g;
	int r = groups_make(d, &g);

	if (r == 0)
		r = demean(d, &g, NULL, wa, wb);
	if (r == 0)
		r = (int)g.n_multi;
	groups_free(&g);
	return r;
}

/* Weighted non-negative least squares of wb on the kept columns of wa
 * (never column 0: the bases are taken out), each row scaled by the
 * square root of its weight; a column left out is all zeros, which NNLS
 * never takes into its passive set (its weight stays 0). */
static int solve(const double *wa, const double *wb, const double *wt, size_t rows,
		 unsigned keep, double w[CPI_WEIGHTS])
{
	double *ta = malloc((rows ? rows : 1) * CPI_WEIGHTS * sizeof(*ta));
	double *tb = malloc((rows ? rows : 1) * sizeof(*tb));
	int r = -ENOMEM;

	if (ta != NULL && tb != NULL) {
		size_t i;
		unsigned k;

		for (i = 0; i < rows; i++) {
			double s = sqrt(weight_of(wt, i));

			for (k = 0; k < CPI_WEIGHTS; k++)
				ta[i * CPI_WEIGHTS + k] = k > 0 && (keep & (1u << k)) ?
							  s * wa[i * CPI_WEIGHTS + k] : 0;
			tb[i] = s * wb[i];
		}
		r = nnls(ta, tb, rows, CPI_WEIGHTS, w);
	}
	free(ta);
	free(tb);
	return r;
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

static void find_collinear(const double *wa, const double *wt, size_t rows, unsigned keep,
			   struct cpi_fit_quality *q)
{
	unsigned k, l;

	for (k = 1; k < CPI_WEIGHTS; k++)
		for (l = k + 1; l < CPI_WEIGHTS; l++)
			if ((keep & (1u << k)) && (keep & (1u << l)) &&
			    fabs(cpi_fit_correlation(wa, wt, rows, k, l)) > CPI_COLLINEAR_R) {
				q->collinear[q->n_collinear][0] = k - 1;
				q->collinear[q->n_collinear][1] = l - 1;
				q->n_collinear++;
			}
}

/* Which rows are held out: one process in CPI_FIT_FOLDS when there are
 * that many, else every fourth row of each process (a single run). */
static void choose_held(const struct cpi_fit_data *d, const struct groups *g, bool *held,
			struct cpi_fit_quality *q)
{
	size_t *seen = calloc(g->n ? g->n : 1, sizeof(*seen)), i;
	bool by_process = g->n_multi >= CPI_FIT_FOLDS;

	for (i = 0; i < g->n && by_process; i++)
		if (g->multi[i] >= 0 && g->multi[i] % CPI_FIT_FOLDS == CPI_FIT_FOLDS - 1)
			q->held_processes++;
	for (i = 0; i < d->rows; i++) {
		size_t p = g->ord[i], nth = seen != NULL ? seen[p]++ : i;

		if (by_process)
			held[i] = g->multi[p] >= 0 && g->multi[p] % CPI_FIT_FOLDS == CPI_FIT_FOLDS - 1;
		else
			held[i] = g->count[p] >= 2 * CPI_FIT_FOLDS && nth % CPI_FIT_FOLDS ==
				  CPI_FIT_FOLDS - 1;
		if (held[i])
			q->held_rows++;
	}
	q->train_rows = d->rows - q->held_rows;
	free(seen);
}

/* Each process's level (mean CPI less the penalties' part, w without
 * its base) over its training rows, or over all its rows when it was
 * held out whole, into level[process]. */
static int levels(const struct cpi_fit_data *d, const struct groups *g, const bool *held,
		  const double *w, double *level)
{
	size_t n = g->n ? g->n : 1, i;
	double *train = calloc(2 * n, sizeof(*train)), *all = calloc(2 * n, sizeof(*all));

	if (train == NULL || all == NULL) {
		free(train);
		free(all);
		return -ENOMEM;
	}
	for (i = 0; i < d->rows; i++) {
		size_t p = g->ord[i];
		double x = weight_of(d->wt, i), own = d->b[i] - predict(&d->a[i * CPI_WEIGHTS], w);

		all[2 * p] += x * own;
		all[2 * p + 1] += x;
		if (!held[i]) {
			train[2 * p] += x * own;
			train[2 * p + 1] += x;
		}
	}
	for (i = 0; i < g->n; i++)
		level[i] = train[2 * i + 1] > 0 ? train[2 * i] / train[2 * i + 1] :
			   all[2 * i + 1] > 0 ? all[2 * i] / all[2 * i + 1] : 0;
	free(train);
	free(all);
	return 0;
}

/* R² of w within processes over the training rows (wa, wb: demeaned over
 * them) and its error over the held-out ones. */
static int score(const struct cpi_fit_data *d, const struct groups *g, const bool *held,
		 const double *wa, const double *wb, const double *w, struct cpi_fit_quality *q)
{
	double ss_tot = 0, ss_res = 0, err = 0, held_cpi = 0, w0[CPI_WEIGHTS];
	double *level = calloc(g->n ? g->n : 1, sizeof(*level));
	size_t i;

	memcpy(w0, w, sizeof(w0));
	w0[0] = 0;
	if (level == NULL || levels(d, g, held, w0, level) < 0) {
		free(level);
		return -ENOMEM;
	}
	for (i = 0; i < d->rows; i++) {
		double x = weight_of(d->wt, i);

		if (held[i]) {
			double p = level[g->ord[i]] + predict(&d->a[i * CPI_WEIGHTS], w0);

			err += x * fabs(d->b[i] - p);
			held_cpi += x * d->b[i];
		} else {
			double r = wb[i] - predict(&wa[i * CPI_WEIGHTS], w0);

			ss_res += x * r * r;
			ss_tot += x * wb[i] * wb[i];
		}
	}
	q->r2 = ss_tot > 0 ? 1.0 - ss_res / ss_tot : NAN;
	q->held_error = held_cpi > 0 ? err / held_cpi : NAN;
	free(level);
	return 0;
}

/* The inverse of the n x n matrix m into inv (Gauss-Jordan, partial
 * pivoting); false when singular. */
static bool invert(double m[CPI_WEIGHTS][CPI_WEIGHTS], unsigned n,
		   double inv[CPI_WEIGHTS][CPI_WEIGHTS])
{
	unsigned i, j, c;

	for (i = 0; i < n; i++)
		for (j = 0; j < n; j++)
			inv[i][j] = i == j;
	for (c = 0; c < n; c++) {
		unsigned p = c;
		double x;

		for (i = c + 1; i < n; i++)
			if (fabs(m[i][c]) > fabs(m[p][c]))
				p = i;
		if (!(fabs(m[p][c]) > 0))
			return false;
		for (j = 0; j < n; j++) {
			x = m[c][j], m[c][j] = m[p][j], m[p][j] = x;
			x = inv[c][j], inv[c][j] = inv[p][j], inv[p][j] = x;
		}
		x = m[c][c];
		for (j = 0; j < n; j++) {
			m[c][j] /= x;
			inv[c][j] /= x;
		}
		for (i = 0; i < n; i++) {
			double f = m[i][c];

			if (i == c || f == 0)
				continue;
			for (j = 0; j < n; j++) {
				m[i][j] -= f * m[c][j];
				inv[i][j] -= f * inv[c][j];
			}
		}
	}
	return true;
}

/* White's sandwich (X'WX)^-1 (sum w² r² x x') (X'WX)^-1 on the kept
 * columns, scaled by n / (n - penalties - processes) for the levels
 * fitted: the spread of each penalty whatever the rows' noise is. */
static void std_errors(const double *wa, const double *wb, const double *wt, size_t rows,
		       size_t processes, unsigned keep, const double *w, double se[CPI_WEIGHTS])
{
	double m[CPI_WEIGHTS][CPI_WEIGHTS] = { { 0 } }, v[CPI_WEIGHTS][CPI_WEIGHTS] = { { 0 } };
	double inv[CPI_WEIGHTS][CPI_WEIGHTS], dof;
	unsigned col[CPI_WEIGHTS] = { 0 }, n = 0, i, j, k, l;
	size_t r, used = 0;

	for (k = 0; k < CPI_WEIGHTS; k++)
		se[k] = NAN;
	for (k = 1; k < CPI_WEIGHTS; k++)
		if (keep & (1u << k))
			col[n++] = k;
	for (r = 0; r < rows; r++) {
		const double *x = &wa[r * CPI_WEIGHTS];
		double e = wb[r] - predict(x, w), s = weight_of(wt, r);

		bool in_use = wb[r] != 0;

		for (i = 0; i < n; i++)
			in_use = in_use || x[col[i]] != 0;
		used += in_use;
		for (i = 0; i < n; i++)
			for (j = 0; j < n; j++) {
				m[i][j] += s * x[col[i]] * x[col[j]];
				v[i][j] += s * s * e * e * x[col[i]] * x[col[j]];
			}
	}
	dof = (double)used - (double)n - (double)processes;
	if (n == 0 || !(dof > 0) || !invert(m, n, inv))
		return;
	for (i = 0; i < n; i++) {
		double c = 0;

		for (k = 0; k < n; k++)
			for (l = 0; l < n; l++)
				c += inv[i][k] * v[k][l] * inv[l][i];
		se[col[i]] = sqrt(c * (double)used / dof);
	}
}

/* The fit on every row: penalties, their errors, and the mean base. */
static int fit_all(const struct cpi_fit_data *d, const struct groups *g, unsigned keep,
		   double *wa, double *wb, double w[CPI_WEIGHTS], double se[CPI_WEIGHTS])
{
	double base = 0, sw = 0;
	size_t i;
	int r = demean(d, g, NULL, wa, wb);

	if (r == 0)
		r = solve(wa, wb, d->wt, d->rows, keep, w);
	if (r < 0)
		return r;
	w[0] = 0;
	std_errors(wa, wb, d->wt, d->rows, g->n_multi, keep, w, se);
	for (i = 0; i < d->rows; i++) {
		base += weight_of(d->wt, i) * (d->b[i] - predict(&d->a[i * CPI_WEIGHTS], w));
		sw += weight_of(d->wt, i);
	}
	w[0] = sw > 0 ? base / sw : NAN;
	return 0;
}

int cpi_fit_quality_grouped(const struct cpi_fit_data *d, unsigned keep, double w[CPI_WEIGHTS],
			    double se[CPI_WEIGHTS], struct cpi_fit_quality *q)
{
	size_t n = d->rows ? d->rows : 1;
	double *wa = malloc(n * CPI_WEIGHTS * sizeof(*wa)), *wb = malloc(n * sizeof(*wb));
	bool *held = calloc(n, sizeof(*held));
	double wt_train[CPI_WEIGHTS];
	struct groups g = { NULL, NULL, 0, 0, NULL };
	int r = -ENOMEM;

	memset(q, 0, sizeof(*q));
	q->rows = d->rows;
	q->r2 = q->held_error = NAN;
	if (wa == NULL || wb == NULL || held == NULL || groups_make(d, &g) < 0)
		goto out;
	q->processes = g.n_multi;
	r = -EINVAL;
	if (d->rows < 2 * CPI_WEIGHTS)
		goto out;
	choose_held(d, &g, held, q);
	for (n = 0; n < d->rows; n++)
		held[n] = !held[n];   /* the rows in use: the training ones */
	r = demean(d, &g, held, wa, wb);
	if (r == 0)
		r = solve(wa, wb, d->wt, d->rows, keep, wt_train);
	for (n = 0; n < d->rows; n++)
		held[n] = !held[n];
	if (r == 0)
		r = score(d, &g, held, wa, wb, wt_train, q);
	if (r == 0)
		r = fit_all(d, &g, keep, wa, wb, w, se);
	if (r == 0)
		find_collinear(wa, d->wt, d->rows, keep, q);
out:
	groups_free(&g);
	free(wa);
	free(wb);
	free(held);
	return r;
}

int cpi_fit_quality(const double *a, const double *b, size_t rows, struct cpi_fit_quality *q)
{
	const struct cpi_fit_data d = { a, b, NULL, NULL, rows };
	double w[CPI_WEIGHTS], se[CPI_WEIGHTS];

	return cpi_fit_quality_grouped(&d, (1u << CPI_WEIGHTS) - 1, w, se, q);
}
