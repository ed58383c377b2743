/*
 * test_model.h - constructed counts in, a model's metrics out: the helpers
 * of the model tests (test_model_formulas, test_model_fe_l3,
 * test_model_stacks).
 */
#ifndef STACKD_TEST_MODEL_H
#define STACKD_TEST_MODEL_H

#include "lib/model/model.h"
#include "test.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* column's count v in every group that has it (the same event in several
 * groups gets the same count), each group counted for 1 s */
static inline void set(const struct model *m, struct group_sums *s, const char *column, double v)
{
	unsigned g, e;

	for (g = 0; g < m->n_groups; g++)
		for (e = 0; e < m->groups[g].n_events; e++)
			if (strcmp(m->groups[g].events[e].column, column) == 0) {
				s[g].present = true;
				s[g].task_clock_ns = 1000000000;
				s[g].v[e] = (uint64_t)v;
			}
}

static inline int col(const struct model *m, const char *group, const char *column)
{
	int g = model_group_index(m, group);
	unsigned e;

	CHECK(g >= 0);
	for (e = 0; e < m->groups[g].n_events; e++)
		if (strcmp(m->groups[g].events[e].column, column) == 0)
			return (int)e;
	CHECK(0);
	return -1;
}

/* The family counted the target but not this event (model.h, missing). */
static inline void missing(const struct model *m, struct group_sums *s, const char *group,
			   const char *column)
{
	int g = model_group_index(m, group), e = col(m, group, column);

	s[g].v[e] = 0;
	s[g].missing |= 1u << e;
}

static inline bool valid(const struct model *m, const struct metric_value *out, const char *name)
{
	int i = model_metric_index(m, name);

	CHECK(i >= 0);
	return out[i].valid;
}

/* The metric's value, which must be valid. */
static inline double get(const struct model *m, const struct metric_value *out, const char *name)
{
	int i = model_metric_index(m, name);

	CHECK(i >= 0);
	if (!out[i].valid)
		fprintf(stderr, "%s: %s not valid\n", m->name, name);
	CHECK(out[i].valid);
	return out[i].value;
}

#define NEAR(a, b) do { double _a = (a), _b = (b); if (fabs(_a - _b) > 1e-9) { \
	fprintf(stderr, "%s:%d: %s = %.12f, want %.12f\n", __FILE__, __LINE__, #a, _a, _b); \
	exit(1); } } while (0)

#endif
