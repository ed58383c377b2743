/*
 * metric_expr.h - Linux perf's metric expression language (the MetricExpr
 * and MetricThreshold strings of tools/perf/pmu-events/arch JSON), parsed
 * once and evaluated many times, with the meaning perf 7.2 gives it in
 * tools/perf/util/expr.l, expr.y and expr.c.  Our own code: only the
 * language's facts carry over.
 *
 * Why a parse step: a metric is evaluated per query row, hundreds of
 * metrics per row, so the text is lexed and its names canonicalised once;
 * evaluation then walks a compact array of nodes without allocating.
 * Nothing here writes a global: a parsed expression is read-only and may be
 * evaluated from any number of threads at once.
 *
 * The language, as expr.y defines it (lowest precedence first, all
 * operators left-associative):
 *
 *	A if C else B     only at the top or inside ( ); A and C are plain
 *	                  expressions, B may be another if (right-nested):
 *	                  "a if c else b if d else e" is a if c else (b if d else e)
 *	|   ^   &         logical, not bitwise: operands are true when non-zero,
 *	                  the result is 0 or 1 (but see NaN below)
 *	<   >             1 or 0
 *	+   -
 *	*   /   %         % truncates both operands to long first
 *	- x               unary minus binds tighter than any operator
 *
 * and primaries: numbers ("12", "1.5", ".5", "5.", "1e9", "2.5e-3"; only a
 * lower-case e; "NaN"), names of events or metrics, #literals,
 * ( if-expression ), min(x, y), max(x, y), d_ratio(x, y) (x, y plain
 * expressions, not ifs), has_event(NAME), strcmp_cpuid_str(NAME),
 * source_count(NAME), aggr_nr(NAME).  Characters the lexer does not know
 * (blanks, '!', '=', '"', a '\' that escapes nothing, ...) are skipped,
 * as perf's catch-all rule does.
 *
 * Values follow expr.y's evaluation (expr__parse):
 *  - x / 0 is NaN (not an error); d_ratio(x, 0) is 0; x % 0 makes perf drop
 *    the whole expression (YYABORT): here -EDOM.
 *  - NaN in + - * < > gives NaN; comparisons with NaN are NaN, not 0.
 *  - if: a condition equal to 0 takes the else side, anything else,
 *    NaN included, the if side.
 *  - min(x, y) is "x < y ? x : y" and max "x > y ? x : y", so a NaN in the
 *    first operand gives the second and a NaN in the second gives NaN.
 *  - |, &: when one side is finite and decides (a non-zero for |, a zero
 *    for &) the other side does not matter; when one side is finite and
 *    does not decide, the result is the other side's value as it is (not
 *    turned into 0/1); when neither side is finite, NaN.  ^ is NaN unless
 *    both sides are finite.
 */
#ifndef STACKD_METRIC_EXPR_H
#define STACKD_METRIC_EXPR_H

#include <stddef.h>

struct metric_expr;     /* opaque: the parsed expression */

/*
 * Names.  An event or metric name is one lexer token: a run of
 * [0-9a-zA-Z_.:@?] and of the escapes \- \, \= (expr.l: sym, spec), that
 * is not a keyword and does not lex as a number ("2_PORTS" is a name,
 * "1e5" a number).  Callbacks receive it, and the event tables must spell
 * it, in this canonical form:
 *  1. each escape \X is written X:   topdown\-fe\-bound -> topdown-fe-bound
 *  2. '?', perf's runtime parameter (POWER's nest metrics only), is
 *     written 0, the value perf uses when a metric is not expanded;
 *  3. in a name holding '@', the first and the last '@' are written '/'
 *     (expr.c: expr__has_event; metricgroup.c builds the event string the
 *     same way):  cpu_core@INT_MISC.UOP_DROPPING@ -> cpu_core/INT_MISC.UOP_DROPPING/,
 *     cpu@UOPS_ISSUED.ANY\,cmask\=1@ -> cpu/UOPS_ISSUED.ANY,cmask=1/,
 *     msr@tsc@ -> msr/tsc/; a lone '@' becomes one '/';
 *  4. nothing else changes: case is kept (perf compares ids exactly; a
 *     table may match case-insensitively), and a ":modifier" stays part of
 *     the name (BR_INST_RETIRED.FAR_BRANCH:u; metricgroup.c opens the part
 *     before ':' with the modifier after it).
 * duration_time is an ordinary name here; perf gives it in seconds.
 *
 * Literals (#smt_on) are perf's tool-PMU constants (tool_pmu.c), matched
 * case-insensitively (#SMT_on = #smt_on) and passed to the literal
 * callback lower-case without '#': has_pmem, num_cores, num_cpus,
 * num_cpus_online, num_dies, num_packages, slots, smt_on,
 * system_tsc_freq, core_wide, target_cpu.  Any other #name is a parse
 * error, as perf's lexer makes it one.  (perf itself refuses #slots off
 * arm64 and #system_tsc_freq off x86: that is the literal callback's call.)
 */

/* Canonical form (above) of token, one name as written in an expression
 * ("cpu@UOPS_ISSUED.ANY\,cmask\=1@").  Returns the length written to buf
 * (NUL-terminated), -ENOSPC when buf is too small, -EINVAL when token is
 * not exactly one name token. */
int metric_expr_canonical(const char *token, char *buf, size_t len);

/* Parse text into *out (heap; free with metric_expr_free).  Returns 0, or
 * -EINVAL with a one-line reason naming the byte offset in err ("offset
 * 12: expected ')', found 'else'"), -ENOMEM, -E2BIG when nested deeper
 * than METRIC_EXPR_MAX_DEPTH.  *out is written only on success.
 * The depth bound keeps parsing and evaluation (both recursive) within a
 * few tens of kilobytes of stack on any thread; perf's deepest metric in
 * Linux 7.2 is 18 levels. */
#define METRIC_EXPR_MAX_DEPTH 128
int metric_expr_parse(const char *text, struct metric_expr **out, char *err, size_t len);
void metric_expr_free(struct metric_expr *e);          /* NULL is a no-op */

/*
 * What an expression reads, supplied by the caller.  Every callback gets
 * ctx first and a canonical name; a NULL callback is one the caller
 * cannot answer (see metric_expr_eval and metric_expr_names).
 */
struct metric_expr_env {
	void *ctx;
	/* An event's count (0 and *value), or -ENOENT when it was not
	 * counted.  Give NaN, not -ENOENT, to copy perf exactly for an
	 * event that was opened but not supported (stat-shadow.c). */
	int (*event)(void *ctx, const char *name, double *value);
	/* Another metric's value, or -ENOENT when name is no metric.  Asked
	 * before event(): metricgroup.c turns every name that is a metric of
	 * the table into a metric reference.  Recursion is the caller's (it
	 * may call metric_expr_eval with this env); -ENOENT from it is
	 * "missing" like a missing event. */
	int (*metric)(void *ctx, const char *name, double *value);
	/* A literal's value (name as above: "smt_on"), or a negative errno
	 * when this host or model has none; -ENOENT is reported as -EINVAL
	 * so that -ENOENT keeps meaning "a name is missing". */
	int (*literal)(void *ctx, const char *name, double *value);
	/* has_event(NAME): 1 when the event exists, 0 when not, or a
	 * negative errno.  perf answers at setup "does it parse on this
	 * host's PMUs" and when evaluating "was it opened for this metric";
	 * answer both the same way (it is in this CPU's table). */
	int (*has_event)(void *ctx, const char *name);
	/* strcmp_cpuid_str(STR): 1 when this CPU is STR as perf's arch
	 * strcmp_cpuid_str() decides (arm64: same MIDR part, variant and
	 * revision at least STR's; x86: STR is a regex matching the cpuid),
	 * 0 when not, or a negative errno.  STR has its escapes removed but
	 * keeps any '@'. */
	int (*strcmp_cpuid_str)(void *ctx, const char *str);
	/* source_count(NAME) and aggr_nr(NAME): how many PMUs / CPUs were
	 * aggregated into the event's count (uncore metrics); -ENOENT when
	 * the event was not counted.  perf gives 1 for a metric name. */
	int (*source_count)(void *ctx, const char *name, double *value);
	int (*aggr_nr)(void *ctx, const char *name, double *value);
};

/*
 * Evaluate e.  Returns 0 with *value (which may be NaN or infinite, as in
 * perf), or
 *   -ENOENT     a name the value needs is missing (event() and metric()
 *               both said -ENOENT, or source_count()/aggr_nr() did).  Only
 *               the side of an if that the condition takes is evaluated,
 *               and a missing name does not count where perf's own
 *               id computation (expr__find_ids) would not need it: the
 *               operand of a / or d_ratio() whose divisor is 0, the side
 *               of | or & that the other, finite side decides, a
 *               condition whose two sides are the same number.  Elsewhere
 *               a missing name acts as perf's NaN would, and -ENOENT is
 *               returned when it reaches the result;
 *   -EDOM       x % y with y == 0 (perf drops the expression) or
 *               0 < |y| < 1 (perf's (long) cast would divide by zero);
 *   -EINVAL     a literal the literal callback cannot give;
 *   -EOPNOTSUPP e needs a callback that env leaves NULL;
 *   any other negative errno a callback returned.
 * *value is written only on success.
 *
 * One difference from perf, which evaluates both sides of every if: an
 * error (a % by 0) inside the side not taken is not seen here, where perf
 * would drop the whole expression.
 */
int metric_expr_eval(const struct metric_expr *e, const struct metric_expr_env *env,
		     double *value);

/*
 * Call fn once for each event or metric name e needs, in order of first
 * appearance, as perf's expr__find_ids() collects them: an if whose
 * condition is constant (numbers, literals, has_event(),
 * strcmp_cpuid_str()) contributes only the side it takes, | and & with a
 * constant deciding side drop the other, x / 0 and d_ratio(x, 0) drop x,
 * an if whose two sides are the same constant needs nothing; min() and
 * max() are never constant (expr.y unions both operands).  Names inside
 * has_event() and strcmp_cpuid_str() are not needed; those in
 * source_count() and aggr_nr() are.
 *
 * Only env's literal, has_event and strcmp_cpuid_str are called; env (or
 * one of those) may be NULL, and the unknown value is then treated as not
 * constant, so both sides are named (a superset).  Returns the number of
 * names, -EDOM for a constant x % 0 (perf refuses the metric), -ENOMEM, or
 * a callback's negative errno (-ENOENT from literal() as -EINVAL).
 */
int metric_expr_names(const struct metric_expr *e, const struct metric_expr_env *literals_only,
		      void (*fn)(void *ctx, const char *name), void *ctx);

#endif
