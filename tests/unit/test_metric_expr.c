/*
 * The metric expression evaluator (lib/perfdb/metric_expr*.c) against the
 * facts of Linux 7.2's tools/perf/util/expr.l, expr.y and expr.c:
 *  - perf's own test cases (tools/perf/tests/expr.c, "Simple expression
 *    parser"), values and id sets as perf asserts them;
 *  - one case per grammar fact, each naming the expr.y / expr.l rule that
 *    decides it, chosen so that the other reading gives another answer;
 *  - every MetricExpr and MetricThreshold of every table in
 *    lib/perfdb/perf_tables.c parses, every name it needs (SMT on and
 *    off, either cpuid answer) is a metric, or an event, of its table, and
 *    with just those names present evaluation finds nothing missing.
 * The values themselves are checked against a separate evaluator by
 * tests/oracle/expr_crosscheck.py (tests/system/262-metric-expr-crosscheck.sh).
 */
#include "lib/perfdb/metric_expr.h"
#include "lib/perfdb/perfdb.h"
#include "test.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <string.h>
#include <strings.h>

/* The environment of the cases: perf's test has FOO = 1, BAR = 2. */
struct case_env {
	bool smt_on, core_wide;
	int cpuid_match;
	unsigned calls;                 /* event() calls, to see laziness */
	char names[16][64];             /* metric_expr_names() output */
	unsigned n_names;
	char last_cpuid[64];
};

static const struct {
	const char *name;
	double v;
} counts[] = {
	{ "FOO", 1 }, { "BAR", 2 }, { "EVENT1", 150 }, { "EVENT2", 7 }, { "cycles", 2 },
	{ "topdown-fe-bound", 0.25 }, { "cpu_core/INT_MISC.UOP_DROPPING/", 11 },
	{ "cpu/UOPS_ISSUED.ANY,cmask=1/", 12 }, { "msr/tsc/", 13 }, { "a/b@c/", 14 },
	{ "BR_INST_RETIRED.FAR_BRANCH:u", 15 }, { "2_PORTS", 16 }, { "1e5x", 17 },
	{ "1E5", 18 }, { "iffy", 19 }, { "nan", 20 }, { "duration_time", 0.5 },
	{ "EVENT1,param=0/", 21 }, { "ZERO", 0 }, { "BOTH", 1 },
};

static int ev_event(void *ctx, const char *name, double *v)
{
	struct case_env *ce = ctx;
	size_t i;

	ce->calls++;
	for (i = 0; i < sizeof(counts) / sizeof(counts[0]); i++) {
		if (strcmp(counts[i].name, name) == 0) {
			*v = counts[i].v;
			return 0;
		}
	}
	return -ENOENT;
}

static int ev_metric(void *ctx, const char *name, double *v)
{
	(void)ctx;
	if (strcmp(name, "IPC") == 0 || strcmp(name, "BOTH") == 0) {
		*v = 2.5;
		return 0;
	}
	return -ENOENT;
}

/* Literal values chosen distinct, so a mix-up shows. */
static int ev_literal(void *ctx, const char *name, double *v)
{
	static const struct { const char *name; double v; } lits[] = {
		{ "num_cpus_online", 6 }, { "num_cpus", 8 }, { "num_cores", 4 },
		{ "num_dies", 2 }, { "num_packages", 1 }, { "system_tsc_freq", 2.1e9 },
		{ "slots", 5 }, { "has_pmem", 0 }, { "target_cpu", 0 },
	};
	const struct case_env *ce = ctx;
	size_t i;

	if (strcmp(name, "smt_on") == 0) {
		*v = ce->smt_on;
		return 0;
	}
	if (strcmp(name, "core_wide") == 0) {
		*v = ce->core_wide;
		return 0;
	}
	for (i = 0; i < sizeof(lits) / sizeof(lits[0]); i++) {
		if (strcmp(lits[i].name, name) == 0) {
			*v = lits[i].v;
			return 0;
		}
	}
	return -ENOENT;
}

static int ev_has_event(void *ctx, const char *name)
{
	double v;

	return ev_event(ctx, name, &v) == 0;
}

static int ev_cpuid(void *ctx, const char *str)
{
	struct case_env *ce = ctx;

	snprintf(ce->last_cpuid, sizeof(ce->last_cpuid), "%s", str);
	return ce->cpuid_match;
}

static int ev_source_count(void *ctx, const char *name, double *v)
{
	int rc = ev_event(ctx, name, v);

	if (rc == 0)
		*v = 3;
	return rc;
}

static struct case_env the_env;
static const struct metric_expr_env env = {
	.ctx = &the_env,
	.event = ev_event,
	.metric = ev_metric,
	.literal = ev_literal,
	.has_event = ev_has_event,
	.strcmp_cpuid_str = ev_cpuid,
	.source_count = ev_source_count,
};

/* Parse and evaluate: the return code, and *v on success. */
static int eval(const char *text, double *v)
{
	struct metric_expr *e;
	char err[128];
	int rc;

	rc = metric_expr_parse(text, &e, err, sizeof(err));
	if (rc < 0)
		return rc;
	rc = metric_expr_eval(e, &env, v);
	metric_expr_free(e);
	return rc;
}

static void check_value(const char *text, double want, int line)
{
	double v = -12345;
	int rc = eval(text, &v);

	if (rc != 0 || !(v == want || (isnan(v) && isnan(want)))) {
		fprintf(stderr, "line %d: '%s': rc %d value %.17g, want %.17g\n", line, text, rc,
			v, want);
		exit(1);
	}
}

static void check_rc(const char *text, int want, int line)
{
	double v;
	int rc = eval(text, &v);

	if (rc != want) {
		fprintf(stderr, "line %d: '%s': rc %d, want %d\n", line, text, rc, want);
		exit(1);
	}
}

#define VALUE(text, want) check_value(text, want, __LINE__)
#define RC(text, want) check_rc(text, want, __LINE__)

/* tools/perf/tests/expr.c, test__expr(): expr__parse() values with
 * FOO = 1, BAR = 2. */
static void perf_test_values(void)
{
	VALUE("1+1", 2);
	VALUE("FOO+BAR", 3);
	VALUE("(BAR/2)%2", 1);
	VALUE("1 - -4", 5);
	VALUE("(FOO-1)*2 + (BAR/2)%2 - -4", 5);
	VALUE("1-1 | 1", 1);
	VALUE("1-1 & 1", 0);
	VALUE("min(1,2) + 1", 2);
	VALUE("max(1,2) + 1", 3);
	VALUE("1+1 if 3*4 else 0", 2);
	VALUE("100 if 1 else 200 if 1 else 300", 100);
	VALUE("100 if 0 else 200 if 1 else 300", 200);
	VALUE("100 if 1 else 200 if 0 else 300", 100);
	VALUE("100 if 0 else 200 if 0 else 300", 300);
	VALUE("1.1 + 2.1", 3.2);
	VALUE(".1 + 2.", 2.1);
	VALUE("d_ratio(1, 2)", 0.5);
	VALUE("d_ratio(2.5, 0)", 0);
	VALUE("1.1 < 2.2", 1);
	VALUE("2.2 > 1.1", 1);
	VALUE("1.1 < 1.1", 0);
	VALUE("2.2 > 2.2", 0);
	VALUE("2.2 < 1.1", 0);
	VALUE("1.1 > 2.2", 0);
	VALUE("1.1e10 < 1.1e100", 1);
	VALUE("1.1e2 > 1.1e-2", 1);
	VALUE("FOO/0", NAN);            /* "division by zero": parses, NaN */
	RC("BAR/", -EINVAL);            /* "missing operand" */
	the_env.cpuid_match = 0;
	VALUE("strcmp_cpuid_str(0x0)", 0);
	VALUE("has_event(cycles)", 1);
}

static void collect_name(void *ctx, const char *name)
{
	struct case_env *e = ctx;

	CHECK(e->n_names < 16);
	snprintf(e->names[e->n_names++], sizeof(e->names[0]), "%s", name);
}

/* metric_expr_names() of text must be exactly the names listed (NULL
 * terminated), in order of first appearance. */
static void check_names(const char *text, const struct metric_expr_env *lits, int line, ...)
{
	struct metric_expr *e;
	const char *want;
	unsigned i = 0;
	va_list ap;
	int n;

	CHECK(metric_expr_parse(text, &e, NULL, 0) == 0);
	the_env.n_names = 0;
	n = metric_expr_names(e, lits, collect_name, &the_env);
	metric_expr_free(e);
	va_start(ap, line);
	for (want = va_arg(ap, const char *); want != NULL; want = va_arg(ap, const char *), i++) {
		if (i >= the_env.n_names || strcmp(the_env.names[i], want) != 0) {
			fprintf(stderr, "line %d: '%s': name %u is '%s', want '%s'\n", line, text, i,
				i < the_env.n_names ? the_env.names[i] : "(none)", want);
			exit(1);
		}
	}
	va_end(ap);
	if (n < 0 || (unsigned)n != i || the_env.n_names != i) {
		fprintf(stderr, "line %d: '%s': %d names, want %u\n", line, text, n, i);
		exit(1);
	}
}

#define NAMES(text, ...) check_names(text, &env, __LINE__, __VA_ARGS__, (const char *)NULL)
#define NONE (const char *)NULL

/* tools/perf/tests/expr.c: the id sets expr__find_ids() must give. */
static void perf_test_ids(void)
{
	NAMES("FOO + BAR + BAZ + BOZO", "FOO", "BAR", "BAZ", "BOZO");
	/* perf's test (runtime 3) finds "EVENT1,param=3@": escapes gone;
	 * here the runtime is 0 and the lone '@' is written '/' */
	NAMES("EVENT1\\,param\\=?@ + EVENT2\\,param\\=?@", "EVENT1,param=0/", "EVENT2,param=0/");
	NAMES("dash\\-event1 - dash\\-event2", "dash-event1", "dash-event2");
	the_env.smt_on = true;
	NAMES("EVENT1 if #smt_on else EVENT2", "EVENT1");
	the_env.smt_on = false;
	NAMES("EVENT1 if #smt_on else EVENT2", "EVENT2");
	the_env.core_wide = true;
	NAMES("EVENT1 if #core_wide else EVENT2", "EVENT1");
	the_env.core_wide = false;
	NAMES("EVENT1 if #core_wide else EVENT2", "EVENT2");
	NAMES("1.0 if EVENT1 > 100.0 else 1.0", NONE);
	NAMES("0 & EVENT1 > 0", NONE);
	NAMES("EVENT1 > 0 & 0", NONE);
	NAMES("1 & EVENT1 > 0", "EVENT1");
	NAMES("EVENT1 > 0 & 1", "EVENT1");
	NAMES("1 | EVENT1 > 0", NONE);
	NAMES("EVENT1 > 0 | 1", NONE);
	NAMES("0 | EVENT1 > 0", "EVENT1");
	NAMES("EVENT1 > 0 | 0", "EVENT1");
	NAMES("source_count(EVENT1)", "EVENT1");
}

/* expr.y's %left lines, lowest first: IF; '|'; '^'; '&'; '<' '>';
 * '-' '+'; '*' '/' '%'; NEG.  Each case has another value under the
 * other order. */
static void precedence(void)
{
	VALUE("1 + 2 * 3", 7);                 /* '*' above '+' */
	VALUE("2 - 1 - 1", 0);                 /* %left '-': (2-1)-1 */
	VALUE("8 / 4 / 2", 1);                 /* %left '/' */
	VALUE("7 % 4 % 2", 1);                 /* %left '%': 7%(4%2) would fail */
	VALUE("3 > 2 + 2", 0);                 /* '+' above '>' */
	VALUE("2 > 1 & 0", 0);                 /* '>' above '&' */
	VALUE("1 ^ 1 & 0", 1);                 /* '&' above '^' */
	VALUE("1 | 1 ^ 1", 1);                 /* '^' above '|' */
	VALUE("4 > 3 > 2", 0);                 /* %left '>': (4>3)>2 */
	VALUE("- 2 - 3", -5);                  /* NEG above '-' */
	VALUE("- - 2", 2);
	VALUE("2 * -3", -6);
	VALUE("-(1 if 0 else 2)", -2);
	/* if_expr: expr IF expr ELSE if_expr, IF lowest: both the if side and
	 * the condition are whole expressions, the else side nests */
	VALUE("1 + 2 if 0 else 5 + 1", 6);
	VALUE("2 if 1 else 3 + 10", 2);
	VALUE("0 if 0 else 3 + 10", 13);
	VALUE("10 if 1 - 1 else 20", 20);
	VALUE("10 if 2 > 3 else 20", 20);
	VALUE("10 if 0 | 1 else 20", 10);
	VALUE("(1 if 0 else 2) if 1 else 5", 2);
	RC("1 if 2 if 3 else 4 else 5", -EINVAL);      /* if side is expr, not if_expr */
	RC("min(1 if 1 else 2, 3)", -EINVAL);          /* MIN '(' expr ',' expr ')' */
	RC("d_ratio(1, 2 if 1 else 3)", -EINVAL);
	RC("1 + (2", -EINVAL);
	RC("", -EINVAL);                               /* start: if_expr */
	RC("has_event(1)", -EINVAL);                   /* HAS_EVENT '(' ID ')' */
	RC("source_count(a + b)", -EINVAL);
	RC("min", -EINVAL);
}

/* The actions of expr.y's rules when evaluating (compute_ids false). */
static void semantics(void)
{
	VALUE("2 & 1", 1);              /* '&', '|', '^' are logical: 0 or 1 */
	VALUE("2 | 4", 1);
	VALUE("2 ^ 1", 0);
	VALUE("0 ^ 3", 1);
	VALUE("-7 % 3", -1);            /* '%': (long)$1 % (long)$3, C truncates */
	VALUE("7.9 % 3", 1);
	RC("5 % 0", -EDOM);             /* '%' by zero: YYABORT */
	RC("5 % 0.5", -EDOM);           /* (long)0.5 == 0: perf divides by 0 */
	VALUE("1 / 0", NAN);            /* '/' by zero: NAN */
	VALUE("d_ratio(FOO, 0)", 0);    /* D_RATIO by zero: 0 */
	VALUE("d_ratio(NaN, 0)", 0);
	VALUE("min(NaN, 1)", 1);        /* MIN: $3 < $5 ? $3 : $5 */
	VALUE("min(1, NaN)", NAN);
	VALUE("max(NaN, 1)", 1);        /* MAX: $3 > $5 ? $3 : $5 */
	VALUE("max(1, NaN)", NAN);
	VALUE("NaN > 1", NAN);          /* BINARY_OP: isnan either -> NAN */
	VALUE("NaN < 1", NAN);
	VALUE("NaN * 0", NAN);
	VALUE("1 if NaN else 2", 1);    /* if_expr: only FP_ZERO takes else */
	VALUE("1 if -0.0 else 2", 2);   /* -0 is FP_ZERO too (fpclassify) */
	VALUE("0 | NaN", NAN);          /* '|': finite 0 passes $3 on */
	VALUE("1 | NaN", 1);
	VALUE("NaN | 3", 1);
	VALUE("NaN & 0", 0);            /* '&': finite 0 decides */
	VALUE("NaN & 2", NAN);          /* finite non-0 passes $1 on */
	VALUE("NaN ^ 1", NAN);          /* '^': NaN unless both finite */
	VALUE("NaN | NaN", NAN);
	VALUE("0 | 1e308 * 10", INFINITY);  /* passed on as it is, not 0/1 */
}

/* expr.l: number, symbol, literal, keywords, escapes, skipped input. */
static void lexing(void)
{
	VALUE("1e3", 1000);
	VALUE("2.5e-3", 0.0025);
	VALUE("5.e1", 50);
	VALUE(".5e1", 5);
	VALUE("1e5x", 17);              /* a longer symbol beats the number */
	VALUE("1E5", 18);               /* only 'e' is an exponent */
	VALUE("2_PORTS", 16);
	VALUE("iffy", 19);              /* longer than the keyword "if" */
	VALUE("NaN", NAN);              /* the NaN rule */
	VALUE("nan", 20);               /* but "nan" is a name */
	RC("1e999", -EINVAL);           /* strtod range error: EXPR_ERROR */
	VALUE("1 ! + \"2", 3);          /* ". { }": unknown characters skipped */
	VALUE("1\n+\t2", 3);
	RC("FOO \\. BAR", -EINVAL);     /* '\' escapes only - , =: two names */
	VALUE("topdown\\-fe\\-bound", 0.25);
	VALUE("cpu_core@INT_MISC.UOP_DROPPING@", 11);
	VALUE("cpu@UOPS_ISSUED.ANY\\,cmask\\=1@", 12);
	VALUE("msr@tsc@", 13);
	VALUE("a@b@c@", 14);            /* first and last '@' only */
	VALUE("BR_INST_RETIRED.FAR_BRANCH:u", 15);
	VALUE("duration_time", 0.5);
	VALUE("#SMT_on + #smt_on", 0);  /* tool_pmu__str_to_event: strcasecmp */
	VALUE("#num_cpus_online", 6);
	VALUE("#num_cpus", 8);
	VALUE("#num_cores", 4);
	VALUE("#num_dies", 2);
	VALUE("#num_packages", 1);
	VALUE("#system_tsc_freq", 2.1e9);
	VALUE("#SYSTEM_TSC_FREQ", 2.1e9);
	VALUE("#slots", 5);
	VALUE("#core_wide + #has_pmem + #target_cpu", 0);
	RC("#foo", -EINVAL);            /* unknown literal: EXPR_ERROR */
	RC("#duration_time", -EINVAL);  /* no value without an evsel */
	VALUE("source_count(EVENT1)", 3);
	the_env.cpuid_match = 1;
	VALUE("strcmp_cpuid_str(GenuineIntel\\-6\\-8F)", 1);
	CHECK_STR(the_env.last_cpuid, "GenuineIntel-6-8F");
}

static void canonical(void)
{
	char buf[64];

	CHECK(metric_expr_canonical("cpu_core@INT_MISC.UOP_DROPPING@", buf, sizeof(buf)) == 31);
	CHECK_STR(buf, "cpu_core/INT_MISC.UOP_DROPPING/");
	CHECK(metric_expr_canonical("cpu@UOPS_ISSUED.ANY\\,cmask\\=1@", buf, sizeof(buf)) > 0);
	CHECK_STR(buf, "cpu/UOPS_ISSUED.ANY,cmask=1/");
	CHECK(metric_expr_canonical("topdown\\-fe\\-bound", buf, sizeof(buf)) > 0);
	CHECK_STR(buf, "topdown-fe-bound");
	CHECK(metric_expr_canonical("INST_RETIRED.ANY", buf, 16) == -ENOSPC);
	CHECK(metric_expr_canonical("a b", buf, sizeof(buf)) == -EINVAL);
	CHECK(metric_expr_canonical("1e5", buf, sizeof(buf)) == -EINVAL);
	CHECK(metric_expr_canonical("if", buf, sizeof(buf)) == -EINVAL);
	CHECK(metric_expr_canonical(" x", buf, sizeof(buf)) == -EINVAL);
}

/* -ENOENT only where a missing name decides, as documented. */
static void missing(void)
{
	RC("MISSING + 1", -ENOENT);
	VALUE("1 if 1 else MISSING", 1);
	VALUE("MISSING if 0 else 2", 2);
	VALUE("0 & MISSING", 0);
	VALUE("MISSING | 1", 1);
	RC("MISSING | 0", -ENOENT);
	VALUE("MISSING / 0", NAN);
	VALUE("d_ratio(MISSING, 0)", 0);
	RC("min(MISSING, 1)", -ENOENT);
	VALUE("1 if MISSING > 0 else 1", 1);
	RC("1 if MISSING > 0 else 2", -ENOENT);
	RC("MISSING % 0", -EDOM);
	VALUE("IPC * 2", 5);            /* a metric */
	VALUE("BOTH", 2.5);             /* metric before event (metricgroup.c) */
	the_env.calls = 0;
	VALUE("FOO if 1 else BAR + EVENT1", 1);
	CHECK(the_env.calls == 1);      /* the side not taken is not read */
}

/* Constant folding of expr.y's compute_ids actions. */
static void names(void)
{
	struct metric_expr *e;

	NAMES("X if has_event(cycles) else Z", "X");
	NAMES("X if has_event(nope) else Z", "Z");
	check_names("X if has_event(Y) else Z", NULL, __LINE__, "X", "Z", NONE);
	NAMES("X if min(1, 2) else Y", "X", "Y");      /* MIN: union_expr, bottom */
	NAMES("X / 0", NONE);
	NAMES("d_ratio(X, 0) + d_ratio(Y, 1)", "Y");
	NAMES("X + X * IPC", "X", "IPC");             /* once each */
	NAMES("aggr_nr(A) + source_count(B)", "A", "B");
	NAMES("X if 2 > 1 else Y", "X");
	NAMES("X if #num_cpus - 8 else Y", "Y");
	NAMES("X if (1 if 0 else 0) else Y", "Y");
	NAMES("cpu@A\\,cmask\\=1@ + B", "cpu/A,cmask=1/", "B");
	the_env.cpuid_match = 1;
	NAMES("X if strcmp_cpuid_str(Y) else Z", "X");
	the_env.cpuid_match = 0;
	NAMES("X if strcmp_cpuid_str(Y) else Z", "Z");
	/* a constant % 0 anywhere, even on a side not taken: YYABORT */
	CHECK(metric_expr_parse("X if 1 else 1 % 0", &e, NULL, 0) == 0);
	CHECK(metric_expr_names(e, &env, NULL, NULL) == -EDOM);
	metric_expr_free(e);
}

static void errors(void)
{
	struct metric_expr *e = NULL;
	char err[128], deep[2100];
	int i;

	CHECK(metric_expr_parse("1 + (2", &e, err, sizeof(err)) == -EINVAL);
	CHECK(e == NULL);
	CHECK(strstr(err, "offset 6") != NULL);
	CHECK(metric_expr_parse("1 if 2", &e, err, sizeof(err)) == -EINVAL);
	CHECK(strstr(err, "'else'") != NULL);
	CHECK(metric_expr_parse("#smt", &e, err, sizeof(err)) == -EINVAL);
	CHECK(strstr(err, "unknown literal") != NULL);
	for (i = 0; i < 1000; i++)
		deep[i] = '(';
	deep[i] = '1';
	for (i = 1001; i < 2001; i++)
		deep[i] = ')';
	deep[i] = '\0';
	CHECK(metric_expr_parse(deep, &e, err, sizeof(err)) == -E2BIG);
	for (i = 0; i < 2000; i += 2) {
		deep[i] = '1';
		deep[i + 1] = '+';
	}
	deep[i - 1] = '\0';
	CHECK(metric_expr_parse(deep, &e, err, sizeof(err)) == -E2BIG);
}

/* --- every expression of lib/perfdb/perf_tables.c ------------------- */

struct table_ctx {
	const struct perfdb_table *t;
	bool smt_on;
	int cpuid_match;
	const char *metric;             /* whose names are being checked */
	unsigned bad;
	unsigned long names;            /* names checked */
	const char *need[128];          /* the expression's names */
	unsigned n_need;
};

static bool table_event(const struct perfdb_table *t, const char *name)
{
	unsigned i;

	for (i = 0; i < t->n_events; i++)
		if (strcasecmp(t->events[i].name, name) == 0)
			return true;
	return false;
}

static bool table_metric(const struct perfdb_table *t, const char *name)
{
	unsigned i;

	for (i = 0; i < t->n_metrics; i++)
		if (strcasecmp(t->metrics[i].name, name) == 0)
			return true;
	return false;
}

/* Every literal has some value: which one only moves the if pruning,
 * and smt_on is tried both ways. */
static int tab_literal(void *ctx, const char *name, double *v)
{
	const struct table_ctx *tc = ctx;

	*v = strcmp(name, "smt_on") == 0 ? tc->smt_on : strcmp(name, "slots") == 0 ? 5 : 1;
	return 0;
}

static int tab_has_event(void *ctx, const char *name)
{
	const struct table_ctx *tc = ctx;

	return table_event(tc->t, name);
}

static int tab_cpuid(void *ctx, const char *str)
{
	const struct table_ctx *tc = ctx;

	(void)str;
	return tc->cpuid_match;
}

static void tab_name(void *ctx, const char *name)
{
	struct table_ctx *tc = ctx;

	tc->names++;
	if (tc->n_need < sizeof(tc->need) / sizeof(tc->need[0]))
		tc->need[tc->n_need++] = name;
	if (table_metric(tc->t, name) || table_event(tc->t, name))
		return;
	if (tc->bad++ < 40)
		fprintf(stderr, "%s: %s needs '%s' (smt_on %d, cpuid %d): no metric or event\n",
			tc->t->name, tc->metric, name, tc->smt_on, tc->cpuid_match);
}

/* Only the names metric_expr_names() gave are there (as counts). */
static int tab_needed(void *ctx, const char *name, double *v)
{
	const struct table_ctx *tc = ctx;
	unsigned i;

	for (i = 0; i < tc->n_need; i++) {
		if (strcmp(tc->need[i], name) == 0) {
			*v = 1000 + i;
			return 0;
		}
	}
	return -ENOENT;
}

/* Parse text; check its names under every literal answer, and that with
 * just those names evaluation finds nothing missing.  Returns the number
 * of problems. */
static unsigned check_expr(struct table_ctx *tc, const char *what, const char *text)
{
	const struct metric_expr_env tenv = {
		.ctx = tc, .event = tab_needed, .literal = tab_literal,
		.has_event = tab_has_event, .strcmp_cpuid_str = tab_cpuid,
		.source_count = tab_needed, .aggr_nr = tab_needed,
	};
	double v;
	struct metric_expr *e;
	char err[160];
	unsigned before = tc->bad;
	int rc, smt, cpuid;

	rc = metric_expr_parse(text, &e, err, sizeof(err));
	if (rc < 0) {
		fprintf(stderr, "%s: %s %s: %s\n  %s\n", tc->t->name, tc->metric, what, err, text);
		return 1;
	}
	for (smt = 0; smt < 2; smt++) {
		for (cpuid = 0; cpuid < 2; cpuid++) {
			tc->smt_on = smt;
			tc->cpuid_match = cpuid;
			tc->n_need = 0;
			rc = metric_expr_names(e, &tenv, tab_name, tc);
			if (rc >= 0 && tc->n_need == (unsigned)rc)
				rc = metric_expr_eval(e, &tenv, &v);
			if (rc < 0) {
				fprintf(stderr, "%s: %s %s: names or eval: %d\n", tc->t->name,
					tc->metric, what, rc);
				tc->bad++;
			}
		}
	}
	metric_expr_free(e);
	return tc->bad - before;
}

static void all_tables(void)
{
	unsigned t, m, n_expr = 0, n_bad = 0;
	unsigned long n_names = 0;

	for (t = 0; t < perfdb_n_tables; t++) {
		struct table_ctx tc = { .t = &perfdb_tables[t] };

		for (m = 0; m < tc.t->n_metrics; m++) {
			const struct perfdb_metric *pm = &tc.t->metrics[m];

			tc.metric = pm->name;
			n_bad += check_expr(&tc, "MetricExpr", pm->expr) ? 1 : 0;
			n_expr++;
			if (pm->threshold != NULL) {
				n_bad += check_expr(&tc, "MetricThreshold", pm->threshold) ? 1 : 0;
				n_expr++;
			}
		}
		n_names += tc.names;
	}
	printf("perf_tables.c: %u tables, %u expressions, %lu names checked, %u with a problem\n",
	       perfdb_n_tables, n_expr, n_names, n_bad);
	CHECK(n_expr > 1000);
	CHECK(n_bad == 0);
}

int main(void)
{
	perf_test_values();
	perf_test_ids();
	precedence();
	semantics();
	lexing();
	canonical();
	missing();
	names();
	errors();
	all_tables();
	return 0;
}
