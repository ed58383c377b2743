/*
 * libFuzzer harness for the metric expression parser and evaluator
 * (lib/perfdb/metric_expr*.c): any bytes in, never a crash, overflow,
 * leak or undefined behaviour (built with ASan and UBSan), and one
 * property that ties the two halves together: with exactly the names
 * metric_expr_names() lists present (and the same literal, has_event and
 * strcmp_cpuid_str answers), evaluation never says a name is missing.
 * make test runs it briefly; `make fuzz` runs it for FUZZ_SECONDS.
 */
#include "lib/perfdb/metric_expr.h"

#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define MAX_NAMES 64

struct names {
	unsigned n;
	char name[MAX_NAMES][64];
	int overflow;
};

static uint32_t hash(const char *s)
{
	uint32_t h = 2166136261u;

	for (; *s != '\0'; s++)
		h = (h ^ (unsigned char)*s) * 16777619u;
	return h;
}

/* A value decided by the name alone: 0, negatives, NaN and infinity
 * included, so every rule's odd cases come up. */
static double value_of(const char *name)
{
	static const double v[] = { 0, 1, 2, -1, 0.5, 1e9, NAN, INFINITY, -0.0, 3 };

	return v[hash(name) % (sizeof(v) / sizeof(v[0]))];
}

static int present(const struct names *ns, const char *name)
{
	unsigned i;

	for (i = 0; i < ns->n; i++)
		if (strcmp(ns->name[i], name) == 0)
			return 1;
	return 0;
}

static int cb_value(void *ctx, const char *name, double *v)
{
	if (!present(ctx, name))
		return -ENOENT;
	*v = value_of(name);
	return 0;
}

static int cb_metric(void *ctx, const char *name, double *v)
{
	(void)ctx;
	if (hash(name) & 1)
		return -ENOENT;
	return cb_value(ctx, name, v);
}

static int cb_literal(void *ctx, const char *name, double *v)
{
	(void)ctx;
	*v = value_of(name);
	return 0;
}

static int cb_flag(void *ctx, const char *name)
{
	(void)ctx;
	return (hash(name) >> 3) & 1;
}

static void add_name(void *ctx, const char *name)
{
	struct names *ns = ctx;

	if (ns->n >= MAX_NAMES || strlen(name) >= sizeof(ns->name[0])) {
		ns->overflow = 1;
		return;
	}
	strcpy(ns->name[ns->n++], name);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct names ns;
	const struct metric_expr_env env = {
		.ctx = &ns, .event = cb_value, .metric = cb_metric, .literal = cb_literal,
		.has_event = cb_flag, .strcmp_cpuid_str = cb_flag, .source_count = cb_value,
		.aggr_nr = cb_value,
	};
	struct metric_expr *e;
	char text[4096], err[256], canon[4096];
	double v;
	int n;

	if (size >= sizeof(text))
		size = sizeof(text) - 1;
	memcpy(text, data, size);
	text[size] = '\0';
	(void)metric_expr_canonical(text, canon, sizeof(canon));
	if (metric_expr_parse(text, &e, err, sizeof(err)) != 0)
		return 0;
	memset(&ns, 0, sizeof(ns));
	n = metric_expr_names(e, &env, add_name, &ns);
	if (n >= 0 && !ns.overflow) {
		if ((unsigned)n != ns.n)
			abort();
		if (metric_expr_eval(e, &env, &v) == -ENOENT)
			abort();
	}
	metric_expr_free(e);
	return 0;
}
