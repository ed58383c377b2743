/*
 * metric_expr_names.c - the names a metric expression needs, as Linux
 * 7.2's tools/perf/util/expr.y collects them when compute_ids is true
 * (expr__find_ids, which metricgroup.c uses to choose the events to open).
 *
 * There, every node gets a value that is either a constant or "bottom"
 * (NaN: any value), and a set of ids; a name is bottom with itself as its
 * set.  Constants fold (numbers, #literals, has_event() and
 * strcmp_cpuid_str(), which perf answers at setup), and where a constant
 * decides, the other operand's ids are dropped: the side of an if not
 * taken, the side of | or & that a finite other side decides, the
 * dividend of x / 0 and d_ratio(x, 0), all three parts of an if whose
 * sides are the same constant.  min() and max() are always bottom.
 *
 * Two passes: values for every node in array order (the parser's post
 * order puts operands first), which also meets every error perf's parser
 * meets wherever it is (a constant % 0, a literal the host lacks); then a
 * walk from the root marking the names on the kept sides.
 */
#include "lib/perfdb/metric_expr.h"
#include "lib/perfdb/metric_expr_int.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>

#define BOTTOM NAN

/* A callback's constant, or bottom when the caller gave none. */
static int leaf_value(const struct metric_expr *e, const struct mx_node *n,
		      const struct metric_expr_env *env, double *v)
{
	int rc;

	*v = BOTTOM;
	if (n->op == MX_NUM) {
		*v = n->u.num;
	} else if (n->op == MX_LITERAL && env != NULL && env->literal != NULL) {
		rc = env->literal(env->ctx, mx_literal_names[n->u.lit], v);
		if (rc < 0)
			return rc == -ENOENT ? -EINVAL : rc;
	} else if (n->op == MX_HAS_EVENT && env != NULL && env->has_event != NULL) {
		rc = env->has_event(env->ctx, mx_str(e, n->u.str));
		if (rc < 0)
			return rc;
		*v = rc > 0 ? 1.0 : 0.0;
	} else if (n->op == MX_STRCMP_CPUID && env != NULL && env->strcmp_cpuid_str != NULL) {
		rc = env->strcmp_cpuid_str(env->ctx, mx_str(e, n->u.str));
		if (rc < 0)
			return rc;
		*v = rc > 0 ? 1.0 : 0.0;
	}
	return 0;
}

/* The if_expr rule: a zero condition gives the else side, another
 * constant the if side, else equal constant sides that constant. */
static double if_value(double cond, double a, double c)
{
	if (cond == 0.0)
		return c;
	if (isfinite(cond))
		return a;
	return a == c ? a : BOTTOM;
}

/* The node's value when its operands' are va and vb. */
static int node_value(const struct mx_node *n, double va, double vb, double *v)
{
	struct mx_val a = { va, false }, b = { vb, false };
	bool both = isfinite(va) && isfinite(vb);

	*v = BOTTOM;
	switch (n->op) {
	case MX_NEG:
		*v = -va;
		return 0;
	case MX_OR:
	case MX_AND:
	case MX_XOR:
		*v = mx_logic(n->op, a, b).v;
		return 0;
	case MX_MIN:
	case MX_MAX:
		return 0;
	case MX_DIV:
	case MX_D_RATIO:
	case MX_MOD:
		/* a zero divisor decides (% then fails: YYABORT) */
		if (vb == 0.0)
			return mx_arith(n->op, va, vb, v);
		/* fall through */
	default:
		return both ? mx_arith(n->op, va, vb, v) : 0;
	}
}

static int fold(const struct metric_expr *e, const struct metric_expr_env *env, double *cv)
{
	uint32_t i;
	int rc;

	for (i = 0; i < e->n_nodes; i++) {
		const struct mx_node *n = &e->nodes[i];

		switch (n->op) {
		case MX_NUM: case MX_LITERAL: case MX_ID: case MX_SOURCE_COUNT:
		case MX_AGGR_NR: case MX_HAS_EVENT: case MX_STRCMP_CPUID:
			rc = leaf_value(e, n, env, &cv[i]);
			break;
		case MX_IF:
			cv[i] = if_value(cv[n->b], cv[n->a], cv[n->c]);
			rc = 0;
			break;
		default:
			rc = node_value(n, cv[n->a], n->op == MX_NEG ? 0.0 : cv[n->b], &cv[i]);
			break;
		}
		if (rc < 0)
			return rc;
	}
	return 0;
}

static void collect(const struct metric_expr *e, uint32_t i, const double *cv,
		    unsigned char *mark);

/* | and &: a finite side that decides drops the other; one that does not
 * keeps the other; two finite sides need nothing. */
static void collect_logic(const struct metric_expr *e, const struct mx_node *n,
			  const double *cv, unsigned char *mark)
{
	double a = cv[n->a], b = cv[n->b];
	bool fa = isfinite(a), fb = isfinite(b);
	bool keep_if_zero = n->op == MX_OR;

	if (fa && fb)
		return;
	if (fa) {
		if ((a == 0.0) == keep_if_zero)
			collect(e, n->b, cv, mark);
	} else if (fb) {
		if ((b == 0.0) == keep_if_zero)
			collect(e, n->a, cv, mark);
	} else {
		collect(e, n->a, cv, mark);
		collect(e, n->b, cv, mark);
	}
}

static void collect(const struct metric_expr *e, uint32_t i, const double *cv,
		    unsigned char *mark)
{
	const struct mx_node *n = &e->nodes[i];
	double cond;

	switch (n->op) {
	case MX_ID: case MX_SOURCE_COUNT: case MX_AGGR_NR:
		mark[n->u.str] = 1;
		return;
	case MX_NUM: case MX_LITERAL: case MX_HAS_EVENT: case MX_STRCMP_CPUID:
		return;
	case MX_NEG:
		collect(e, n->a, cv, mark);
		return;
	case MX_OR: case MX_AND:
		collect_logic(e, n, cv, mark);
		return;
	case MX_IF:
		cond = cv[n->b];
		if (cond == 0.0) {
			collect(e, n->c, cv, mark);
		} else if (isfinite(cond)) {
			collect(e, n->a, cv, mark);
		} else if (!(cv[n->a] == cv[n->c])) {
			collect(e, n->a, cv, mark);
			collect(e, n->b, cv, mark);
			collect(e, n->c, cv, mark);
		}
		return;
	case MX_DIV: case MX_D_RATIO:
		if (cv[n->b] == 0.0)
			return;
		/* fall through */
	default:
		collect(e, n->a, cv, mark);
		collect(e, n->b, cv, mark);
		return;
	}
}

int metric_expr_names(const struct metric_expr *e, const struct metric_expr_env *literals_only,
		      void (*fn)(void *ctx, const char *name), void *ctx)
{
	unsigned char *mark;
	double *cv;
	uint32_t i;
	int rc, count = 0;

	if (e == NULL)
		return -EINVAL;
	cv = malloc(e->n_nodes * sizeof(*cv) + e->n_strs + 1);
	if (cv == NULL)
		return -ENOMEM;
	mark = (unsigned char *)(cv + e->n_nodes);
	for (i = 0; i < e->n_strs; i++)
		mark[i] = 0;
	rc = fold(e, literals_only, cv);
	if (rc == 0) {
		collect(e, e->root, cv, mark);
		for (i = 0; i < e->n_strs; i++) {
			if (!mark[i])
				continue;
			if (fn != NULL)
				fn(ctx, mx_str(e, i));
			count++;
		}
	}
	free(cv);
	return rc < 0 ? rc : count;
}
