/*
 * metric_expr_eval.c - the value of a parsed metric expression, with the
 * arithmetic of Linux 7.2's tools/perf/util/expr.y when it evaluates
 * (expr__parse, compute_ids false), and a "missing" mark that says when a
 * name the value needs was not there (metric_expr.h says which names
 * count as needed).
 *
 * A missing name is perf's NaN (handle_id() gives NaN for an unknown id)
 * carrying the mark.  The mark follows the value through every operator,
 * and drops out exactly where expr.y's id computation drops the operand:
 * a divisor of 0 in / and d_ratio(), a finite side of | or & that decides,
 * an if whose condition is missing but whose two sides are the same
 * number.  So, with the same literal, has_event() and strcmp_cpuid_str()
 * answers, a name metric_expr_names() does not list can never make
 * evaluation return -ENOENT (tests/fuzz/fuzz_metric_expr.c checks it).
 *
 * Only the side of an if that the condition takes is evaluated: perf
 * evaluates both and keeps one, which differs only when the other holds a
 * '%' by 0 (perf then drops the whole expression) or a callback that
 * would fail.  No allocation, no
 * global state: recursion depth is bounded by METRIC_EXPR_MAX_DEPTH.
 */
#include "lib/perfdb/metric_expr.h"
#include "lib/perfdb/metric_expr_int.h"

#include <errno.h>
#include <math.h>
#include <stdbool.h>

static const struct mx_val MISSING = { NAN, true };

static bool is_finite(struct mx_val x)
{
	return isfinite(x.v);   /* a missing value is NaN, so never finite */
}

/* expr.y's '%': (long)a % (long)b.  The cases where that C expression is
 * undefined get a defined answer: a non-finite or out-of-range operand is
 * NaN, a divisor that truncates to 0 is -EDOM (perf divides by zero), and
 * a divisor of -1 is 0 (LONG_MIN % -1 traps). */
static int mod(double a, double b, double *r)
{
	long la, lb;

	if (!isfinite(a) || !isfinite(b) || fabs(a) >= 0x1p63 || fabs(b) >= 0x1p63) {
		*r = NAN;
		return 0;
	}
	la = (long)a;
	lb = (long)b;
	if (lb == 0)
		return -EDOM;
	*r = lb == -1 ? 0.0 : (double)(la % lb);
	return 0;
}

/* BINARY_OP, '/', '%' and d_ratio() of expr.y on two plain numbers. */
int mx_arith(int op, double a, double b, double *r)
{
	switch (op) {
	case MX_DIV:
		*r = b == 0.0 ? NAN : a / b;
		return 0;
	case MX_D_RATIO:
		*r = b == 0.0 ? 0.0 : a / b;
		return 0;
	case MX_MOD:
		if (b == 0.0)
			return -EDOM;
		return mod(a, b, r);
	default:
		break;
	}
	if (isnan(a) || isnan(b)) {
		*r = NAN;
		return 0;
	}
	switch (op) {
	case MX_ADD: *r = a + b; break;
	case MX_SUB: *r = a - b; break;
	case MX_MUL: *r = a * b; break;
	case MX_LT: *r = a < b ? 1.0 : 0.0; break;
	case MX_GT: *r = a > b ? 1.0 : 0.0; break;
	default: return -EINVAL;
	}
	return 0;
}

/* expr.y's '|', '&' and '^', where "constant" is "finite" (is_const()):
 * a finite side that decides gives 0 or 1, a finite side that does not
 * passes the other side on as it is, two non-finite sides give NaN (here
 * missing when either is). */
struct mx_val mx_logic(int op, struct mx_val a, struct mx_val b)
{
	struct mx_val r = { NAN, a.missing || b.missing };
	bool za = a.v == 0.0, zb = b.v == 0.0;

	if (is_finite(a) && is_finite(b)) {
		r.missing = false;
		if (op == MX_OR)
			r.v = za && zb ? 0.0 : 1.0;
		else if (op == MX_AND)
			r.v = !za && !zb ? 1.0 : 0.0;
		else
			r.v = za != zb ? 1.0 : 0.0;
		return r;
	}
	if (op == MX_XOR)
		return r;
	if (is_finite(a) || is_finite(b)) {
		bool z = is_finite(a) ? za : zb;
		struct mx_val other = is_finite(a) ? b : a;

		if (op == MX_OR)
			return z ? other : (struct mx_val){ 1.0, false };
		return z ? (struct mx_val){ 0.0, false } : other;
	}
	return r;
}

/* Two evaluated operands into the node's value. */
static int combine(int op, struct mx_val a, struct mx_val b, struct mx_val *r)
{
	switch (op) {
	case MX_OR:
	case MX_XOR:
	case MX_AND:
		*r = mx_logic(op, a, b);
		return 0;
	case MX_MIN:
	case MX_MAX:
		/* expr.y: $3 < $5 ? $3 : $5, NaN compares false */
		if (a.missing || b.missing)
			*r = MISSING;
		else if (op == MX_MIN)
			*r = (struct mx_val){ a.v < b.v ? a.v : b.v, false };
		else
			*r = (struct mx_val){ a.v > b.v ? a.v : b.v, false };
		return 0;
	case MX_DIV:
	case MX_D_RATIO:
	case MX_MOD:
		/* a divisor of 0 decides before a missing dividend matters */
		if (!b.missing && b.v == 0.0)
			break;
		/* fall through */
	default:
		if (a.missing || b.missing) {
			*r = MISSING;
			return 0;
		}
		break;
	}
	r->missing = false;
	return mx_arith(op, a.v, b.v, &r->v);
}

/* A callback's answer for a name: -ENOENT is the missing mark. */
static int answer(int rc, double v, struct mx_val *r)
{
	if (rc == -ENOENT) {
		*r = MISSING;
		return 0;
	}
	if (rc < 0)
		return rc;
	*r = (struct mx_val){ v, false };
	return 0;
}

/* handle_id(): a metric first (metricgroup.c makes every name that is a
 * metric a reference), then an event. */
static int eval_name(const char *name, const struct metric_expr_env *env, struct mx_val *r)
{
	double v = NAN;
	int rc = -ENOENT;

	if (env->metric != NULL)
		rc = env->metric(env->ctx, name, &v);
	if (rc == -ENOENT) {
		if (env->event == NULL)
			return -EOPNOTSUPP;
		rc = env->event(env->ctx, name, &v);
	}
	return answer(rc, v, r);
}

static int eval_leaf(const struct metric_expr *e, const struct mx_node *n,
		     const struct metric_expr_env *env, struct mx_val *r)
{
	double v = NAN;
	int rc;

	switch (n->op) {
	case MX_NUM:
		*r = (struct mx_val){ n->u.num, false };
		return 0;
	case MX_ID:
		return eval_name(mx_str(e, n->u.str), env, r);
	case MX_LITERAL:
		if (env->literal == NULL)
			return -EOPNOTSUPP;
		rc = env->literal(env->ctx, mx_literal_names[n->u.lit], &v);
		if (rc < 0)
			return rc == -ENOENT ? -EINVAL : rc;
		break;
	case MX_SOURCE_COUNT:
	case MX_AGGR_NR:
		if (n->op == MX_SOURCE_COUNT ? env->source_count == NULL : env->aggr_nr == NULL)
			return -EOPNOTSUPP;
		rc = (n->op == MX_SOURCE_COUNT ? env->source_count : env->aggr_nr)(env->ctx,
				mx_str(e, n->u.str), &v);
		return answer(rc, v, r);
	case MX_HAS_EVENT:
	case MX_STRCMP_CPUID:
		if (n->op == MX_HAS_EVENT ? env->has_event == NULL : env->strcmp_cpuid_str == NULL)
			return -EOPNOTSUPP;
		rc = (n->op == MX_HAS_EVENT ? env->has_event : env->strcmp_cpuid_str)(env->ctx,
				mx_str(e, n->u.str));
		if (rc < 0)
			return rc;
		v = rc > 0 ? 1.0 : 0.0;
		break;
	default:
		return -EINVAL;
	}
	*r = (struct mx_val){ v, false };
	return 0;
}

static int eval_node(const struct metric_expr *e, uint32_t i, const struct metric_expr_env *env,
		     struct mx_val *r);

/* if_expr: a condition of 0 takes the else side, anything else (NaN too)
 * the if side.  A missing condition is missing, unless both sides are
 * the same number (expr.y then needs no id at all). */
static int eval_if(const struct metric_expr *e, const struct mx_node *n,
		   const struct metric_expr_env *env, struct mx_val *r)
{
	struct mx_val c, a, b;
	int rc;

	rc = eval_node(e, n->b, env, &c);
	if (rc < 0)
		return rc;
	if (!c.missing)
		return eval_node(e, c.v == 0.0 ? n->c : n->a, env, r);
	rc = eval_node(e, n->a, env, &a);
	if (rc == 0)
		rc = eval_node(e, n->c, env, &b);
	if (rc < 0)
		return rc;
	*r = !a.missing && !b.missing && a.v == b.v ? a : MISSING;
	return 0;
}

static int eval_node(const struct metric_expr *e, uint32_t i, const struct metric_expr_env *env,
		     struct mx_val *r)
{
	const struct mx_node *n = &e->nodes[i];
	struct mx_val a, b;
	int rc;

	switch (n->op) {
	case MX_IF:
		return eval_if(e, n, env, r);
	case MX_NEG:
		rc = eval_node(e, n->a, env, &a);
		if (rc == 0)
			*r = (struct mx_val){ -a.v, a.missing };
		return rc;
	case MX_OR: case MX_XOR: case MX_AND: case MX_LT: case MX_GT:
	case MX_ADD: case MX_SUB: case MX_MUL: case MX_DIV: case MX_MOD:
	case MX_D_RATIO: case MX_MIN: case MX_MAX:
		rc = eval_node(e, n->a, env, &a);
		if (rc == 0)
			rc = eval_node(e, n->b, env, &b);
		if (rc == 0)
			rc = combine(n->op, a, b, r);
		return rc;
	default:
		return eval_leaf(e, n, env, r);
	}
}

int metric_expr_eval(const struct metric_expr *e, const struct metric_expr_env *env,
		     double *value)
{
	static const struct metric_expr_env none;
	struct mx_val r;
	int rc;

	if (e == NULL || value == NULL)
		return -EINVAL;
	rc = eval_node(e, e->root, env != NULL ? env : &none, &r);
	if (rc < 0)
		return rc;
	if (r.missing)
		return -ENOENT;
	*value = r.v;
	return 0;
}
