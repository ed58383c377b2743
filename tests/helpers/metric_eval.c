/*
 * metric_eval.c - lib/perfdb/metric_expr for a script: reads commands on
 * stdin, one per line, fields separated by tabs, and answers each with one
 * line on stdout (tests/oracle/expr_crosscheck.py drives it):
 *
 *	reset                     forget metrics, counts, literals, events
 *	def NAME EXPR             NAME is a metric with expression EXPR
 *	lit NAME=V ...            literal values ("smt_on=1")
 *	has NAME ...              the events has_event() finds
 *	cpuid 0|1                 what strcmp_cpuid_str() answers
 *	counts NAME=V ...         the event counts (canonical names)
 *	eval NAME                 the value of metric NAME
 *	expr EXPR NAME=V ...      the value of EXPR with these counts
 *
 * Answers: "ok", a value ("%.17g": nan, inf as printf writes them),
 * "ENOENT" (a needed name is missing), or "ERR <errno> <text>".  Names
 * match case-insensitively, as the tables' do.  A metric's value is
 * computed once per set of counts, as perf's expr__resolve_id() keeps it.
 */
#include "lib/perfdb/metric_expr.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#define SLOTS 8192      /* per hash table: more than any table's names */

struct entry {
	char *name;
	double v;               /* counts, literals */
	struct metric_expr *e;  /* metrics */
	int state, rc;          /* metrics: 0 not computed, 1 computing, 2 done */
};

struct map {
	struct entry slot[SLOTS];
};

static struct map metrics, counts, lits, has;
static int cpuid_match;

static unsigned hash(const char *s)
{
	unsigned h = 2166136261u;

	for (; *s != '\0'; s++)
		h = (h ^ (unsigned char)(*s | 0x20)) * 16777619u;
	return h;
}

/* The entry for name: found, or an empty one to fill (NULL: full). */
static struct entry *slot(struct map *m, const char *name)
{
	unsigned i, h = hash(name);

	for (i = 0; i < SLOTS; i++) {
		struct entry *en = &m->slot[(h + i) % SLOTS];

		if (en->name == NULL || strcasecmp(en->name, name) == 0)
			return en;
	}
	return NULL;
}

static struct entry *find(struct map *m, const char *name)
{
	struct entry *en = slot(m, name);

	return en != NULL && en->name != NULL ? en : NULL;
}

static void clear(struct map *m)
{
	unsigned i;

	for (i = 0; i < SLOTS; i++) {
		free(m->slot[i].name);
		metric_expr_free(m->slot[i].e);
	}
	memset(m, 0, sizeof(*m));
}

/* Metric values depend on everything else: forget them. */
static void forget_values(void)
{
	unsigned i;

	for (i = 0; i < SLOTS; i++)
		metrics.slot[i].state = 0;
}

static int put(struct map *m, const char *name, double v, struct metric_expr *e)
{
	struct entry *en = slot(m, name);

	if (en == NULL)
		return -ENOSPC;
	if (en->name == NULL)
		en->name = strdup(name);
	metric_expr_free(en->e);
	en->v = v;
	en->e = e;
	en->state = 0;
	return 0;
}

static int get(struct map *m, const char *name, double *v)
{
	const struct entry *en = find(m, name);

	if (en == NULL)
		return -ENOENT;
	*v = en->v;
	return 0;
}

static int cb_event(void *ctx, const char *name, double *v)
{
	(void)ctx;
	return get(&counts, name, v);
}

static int cb_literal(void *ctx, const char *name, double *v)
{
	(void)ctx;
	return get(&lits, name, v);
}

static int cb_has_event(void *ctx, const char *name)
{
	(void)ctx;
	return find(&has, name) != NULL;
}

static int cb_cpuid(void *ctx, const char *str)
{
	(void)ctx;
	(void)str;
	return cpuid_match;
}

/* source_count() of a counted event: 1, one PMU (core events only). */
static int cb_one(void *ctx, const char *name, double *v)
{
	(void)ctx;
	if (find(&counts, name) == NULL && find(&metrics, name) == NULL)
		return -ENOENT;
	*v = 1;
	return 0;
}

static int cb_metric(void *ctx, const char *name, double *v);

static const struct metric_expr_env env = {
	.event = cb_event,
	.metric = cb_metric,
	.literal = cb_literal,
	.has_event = cb_has_event,
	.strcmp_cpuid_str = cb_cpuid,
	.source_count = cb_one,
	.aggr_nr = cb_one,
};

static int cb_metric(void *ctx, const char *name, double *v)
{
	struct entry *en = find(&metrics, name);

	(void)ctx;
	if (en == NULL)
		return -ENOENT;
	if (en->state == 1)
		return -ELOOP;
	if (en->state == 0) {
		en->state = 1;
		en->rc = metric_expr_eval(en->e, &env, &en->v);
		en->state = 2;
	}
	*v = en->v;
	return en->rc;
}

/* "NAME=V" fields from f on; the name may hold '=' (cmask=1), the value
 * never does. */
static int put_values(struct map *m, char *f)
{
	char *tab;

	for (; f != NULL && *f != '\0'; f = tab) {
		char *eq;
		int rc;

		tab = strchr(f, '\t');
		if (tab != NULL)
			*tab++ = '\0';
		eq = strrchr(f, '=');
		if (eq == NULL)
			return -EINVAL;
		*eq = '\0';
		rc = put(m, f, strtod(eq + 1, NULL), NULL);
		if (rc < 0)
			return rc;
	}
	return 0;
}

static void answer(int rc, double v)
{
	if (rc == 0)
		printf("%.17g\n", v);
	else if (rc == -ENOENT)
		printf("ENOENT\n");
	else
		printf("ERR %d %s\n", -rc, strerror(-rc));
}

static int cmd_def(char *args)
{
	char *tab = strchr(args, '\t'), err[256];
	struct metric_expr *e;
	int rc;

	if (tab == NULL)
		return -EINVAL;
	*tab = '\0';
	rc = metric_expr_parse(tab + 1, &e, err, sizeof(err));
	if (rc < 0) {
		printf("ERR %d %s: %s\n", -rc, args, err);
		return 1;
	}
	return put(&metrics, args, 0, e);
}

static int cmd_expr(char *args)
{
	char *tab = strchr(args, '\t'), err[256];
	struct metric_expr *e;
	double v = 0;
	int rc;

	if (tab != NULL)
		*tab++ = '\0';
	clear(&counts);
	forget_values();
	rc = put_values(&counts, tab);
	if (rc < 0)
		return rc;
	rc = metric_expr_parse(args, &e, err, sizeof(err));
	if (rc < 0) {
		printf("ERR %d %s\n", -rc, err);
		return 1;
	}
	rc = metric_expr_eval(e, &env, &v);
	metric_expr_free(e);
	answer(rc, v);
	return 1;
}

/* One command; 0 to answer "ok", 1 when it answered, or -errno. */
static int command(char *line)
{
	char *args = strchr(line, '\t');
	double v = 0;
	int rc;

	if (args != NULL)
		*args++ = '\0';
	else
		args = line + strlen(line);
	if (strcmp(line, "reset") == 0) {
		clear(&metrics);
		clear(&counts);
		clear(&lits);
		clear(&has);
		cpuid_match = 0;
		return 0;
	}
	if (strcmp(line, "def") == 0)
		return cmd_def(args);
	if (strcmp(line, "expr") == 0)
		return cmd_expr(args);
	forget_values();
	if (strcmp(line, "lit") == 0)
		return put_values(&lits, args);
	if (strcmp(line, "counts") == 0) {
		clear(&counts);
		return put_values(&counts, args);
	}
	if (strcmp(line, "cpuid") == 0) {
		cpuid_match = atoi(args);
		return 0;
	}
	if (strcmp(line, "has") == 0) {
		char *name, *save = NULL;

		for (name = strtok_r(args, "\t", &save); name != NULL;
		     name = strtok_r(NULL, "\t", &save)) {
			rc = put(&has, name, 1, NULL);
			if (rc < 0)
				return rc;
		}
		return 0;
	}
	if (strcmp(line, "eval") == 0) {
		rc = cb_metric(NULL, args, &v);
		answer(rc, v);
		return 1;
	}
	return -EINVAL;
}

int main(void)
{
	char *line = NULL;
	size_t cap = 0;
	ssize_t n;

	while ((n = getline(&line, &cap, stdin)) > 0) {
		int rc;

		if (line[n - 1] == '\n')
			line[n - 1] = '\0';
		rc = command(line);
		if (rc == 0)
			printf("ok\n");
		else if (rc < 0)
			printf("ERR %d %s\n", -rc, strerror(-rc));
		fflush(stdout);
	}
	free(line);
	clear(&metrics);
	clear(&counts);
	clear(&lits);
	clear(&has);
	return 0;
}
