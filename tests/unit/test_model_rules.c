/*
 * The planner's facts in every model (model.h: ratio sets, event rules,
 * fixed counters) agree with the model's own families: every ratio set and
 * event rule names a family and columns that exist, no event is in two
 * sets of one family, no set holds a base event (cycles, instructions and
 * fixed-counter events ride in every part anyway), and every set fits the
 * tightest part any host leaves: 3 general counters (Skylake with SMT on
 * and the NMI watchdog: 4 per thread, cycles on one of them; Zen 4 and Arm
 * with the watchdog: 5, cycles and instructions on two), so no family is
 * ever left out for a set too big to place.  Counter masks stay within the
 * model's counters, and the fixed events a family names fit the fixed
 * counters the model declares.
 */
#include "lib/model/model.h"
#include "test.h"

#include <stdio.h>
#include <string.h>

#define PART_FREE_MIN 3   /* general counters a part has for non-base events, at worst */

static int column_in(const struct model_group *g, const char *column)
{
	unsigned e;

	for (e = 0; e < g->n_events; e++)
		if (strcmp(g->events[e].column, column) == 0)
			return (int)e;
	return -1;
}

static bool is_base(const struct model_event *ev)
{
	return ev->fixed || strcmp(ev->column, "cycles") == 0 ||
	       strcmp(ev->column, "instructions") == 0;
}

/* The columns of a set, split at commas into cols[]; returns how many. */
static unsigned split_columns(const char *list, char cols[][64], unsigned max)
{
	unsigned n = 0;
	const char *p = list;

	while (*p != '\0' && n < max) {
		size_t len = strcspn(p, ",");

		CHECK(len > 0 && len < 64);
		memcpy(cols[n], p, len);
		cols[n][len] = '\0';
		n++;
		p += len;
		if (*p == ',')
			p++;
	}
	CHECK(*p == '\0');
	return n;
}

static void check_ratio_sets(const struct model *m)
{
	/* per family, which events some set already claimed */
	bool claimed[MODEL_MAX_GROUPS][MODEL_MAX_EVENTS];
	unsigned s, k;

	memset(claimed, 0, sizeof(claimed));
	CHECK(m->n_ratio_sets == 0 || m->ratio_sets != NULL);
	for (s = 0; s < m->n_ratio_sets; s++) {
		const struct model_ratio_set *rs = &m->ratio_sets[s];
		int gi = model_group_index(m, rs->group);
		char cols[MODEL_MAX_EVENTS][64];
		unsigned n, gp = 0;

		if (gi < 0)
			fprintf(stderr, "%s: ratio set of unknown family '%s'\n", m->name, rs->group);
		CHECK(gi >= 0);
		n = split_columns(rs->columns, cols, MODEL_MAX_EVENTS);
		CHECK(n >= 2);  /* a set of one says nothing */
		for (k = 0; k < n; k++) {
			int e = column_in(&m->groups[gi], cols[k]);
			const struct model_event *ev;

			if (e < 0)
				fprintf(stderr, "%s/%s: ratio set names '%s', not in the family\n",
					m->name, rs->group, cols[k]);
			CHECK(e >= 0);
			ev = &m->groups[gi].events[e];
			CHECK(!is_base(ev));
			if (claimed[gi][e])
				fprintf(stderr, "%s/%s: '%s' in two sets\n", m->name, rs->group,
					cols[k]);
			CHECK(!claimed[gi][e]);
			claimed[gi][e] = true;
			gp += ev->paired ? 2 : 1;
		}
		if (gp > PART_FREE_MIN)
			fprintf(stderr, "%s/%s: set '%s' needs %u general counters\n", m->name,
				rs->group, rs->columns, gp);
		CHECK(gp <= PART_FREE_MIN);
	}
}

static void check_event_rules(const struct model *m)
{
	uint32_t all_smt = (1u << m->gp_counters_smt) - 1;
	uint32_t all_nosmt = (1u << m->gp_counters_nosmt) - 1;
	unsigned r, j, g;

	CHECK(m->n_event_rules == 0 || m->event_rules != NULL);
	for (r = 0; r < m->n_event_rules; r++) {
		const struct model_event_rule *er = &m->event_rules[r];
		bool found = false;

		for (g = 0; g < m->n_groups; g++) {
			int e = column_in(&m->groups[g], er->column);

			if (e < 0)
				continue;
			found = true;
			/* a restricted or SMT-only event is a general-counter one */
			CHECK(!m->groups[g].events[e].fixed);
		}
		if (!found)
			fprintf(stderr, "%s: rule for unknown column '%s'\n", m->name, er->column);
		CHECK(found);
		CHECK(er->when == EVENT_ALWAYS || er->when == EVENT_SMT_ON ||
		      er->when == EVENT_SMT_OFF);
		CHECK((er->counters_smt & ~all_smt) == 0);
		CHECK((er->counters_nosmt & ~all_nosmt) == 0);
		/* a rule says something: a restriction or an SMT state */
		CHECK(er->when != EVENT_ALWAYS || er->counters_smt != 0 || er->counters_nosmt != 0);
		for (j = 0; j < r; j++)
			CHECK(strcmp(m->event_rules[j].column, er->column) != 0);
	}
}

/* The distinct counter-hosted fixed events (not the perf-metrics pseudo
 * events, which read the slots counter) fit the fixed counters. */
static void check_fixed(const struct model *m)
{
	const char *seen[MODEL_MAX_EVENTS * MODEL_MAX_GROUPS];
	unsigned n = 0, g, e, k;

	if (m->vendor == VENDOR_NONE) {
		CHECK(m->fixed_counters == 0);
		return;
	}
	for (g = 0; g < m->n_groups; g++)
		for (e = 0; e < m->groups[g].n_events; e++) {
			const struct model_event *ev = &m->groups[g].events[e];
			bool dup = false;

			if (!ev->fixed || strncmp(ev->name, "cpu/topdown-", 12) == 0)
				continue;
			for (k = 0; k < n; k++)
				dup = dup || strcmp(seen[k], ev->column) == 0;
			if (!dup)
				seen[n++] = ev->column;
		}
	if (n > m->fixed_counters)
		fprintf(stderr, "%s: %u fixed events, %u fixed counters\n", m->name, n,
			m->fixed_counters);
	CHECK(n <= m->fixed_counters);
	/* a PMU without fixed counters has no event that needs none */
	CHECK(m->fixed_counters > 0 || n == 0);
}

int main(void)
{
	const struct model *const *all;
	size_t n, i;

	all = model_all(&n);
	for (i = 0; i < n; i++) {
		check_ratio_sets(all[i]);
		check_event_rules(all[i]);
		check_fixed(all[i]);
	}
	return 0;
}
