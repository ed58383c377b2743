/*
 * test_plan.c - the planner (daemon/plan/plan.c) on every model and host state
 * the issue names: every planned group fits its budget, a family is only
 * split along its ratio sets, every counted event of a collected family is
 * in some part with the family's base, and what cannot fit is left out
 * with a reason.  Counter masks are honoured (a fake model whose events
 * share one allowed counter), and the hosts users need most get Top-Down
 * L1: Zen 4 with the watchdog on, Skylake with SMT and the watchdog on.
 */
#include "daemon/plan/plan.h"
#include "test.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

static int part_of(const struct plan *p, unsigned family, unsigned event, unsigned from)
{
	unsigned g, i;

	for (g = from; g < p->n_groups; g++)
		for (i = 0; p->groups[g].family == family && i < p->groups[g].n_events; i++)
			if (p->groups[g].events[i] == event)
				return (int)g;
	return -1;
}

static int column(const struct model_group *mg, const char *name, size_t len)
{
	for (unsigned i = 0; i < mg->n_events; i++)
		if (strlen(mg->events[i].column) == len &&
		    strncmp(mg->events[i].column, name, len) == 0)
			return (int)i;
	return -1;
}

/* Every event of a ratio set in one part (each part holding one holds all). */
static void check_sets_whole(const struct model *m, const struct plan *p)
{
	for (unsigned s = 0; s < m->n_ratio_sets; s++) {
		int f = model_group_index(m, m->ratio_sets[s].group);
		const char *c = m->ratio_sets[s].columns;
		int part = -2;

		CHECK(f >= 0);
		if (!p->families[f].collected)
			continue;
		while (*c != '\0') {
			size_t len = strcspn(c, ",");
			int e = column(&m->groups[f], c, len);
			int g;

			CHECK(e >= 0);
			g = part_of(p, (unsigned)f, (unsigned)e, 0);
			if (g >= 0) {   /* counted in this SMT state */
				CHECK(part == -2 || part == g);
				CHECK(part_of(p, (unsigned)f, (unsigned)e, (unsigned)g + 1) < 0);
				part = g;
			}
			c += len + (c[len] == ',');
		}
	}
}

static void check_plan(const struct model *m, const struct plan *p)
{
	const struct plan_budget *b = &p->budget;

	for (unsigned g = 0; g < p->n_groups; g++) {
		const struct plan_group *pg = &p->groups[g];
		const struct model_group *mg = &m->groups[pg->family];

		CHECK(b->unlimited || pg->gp_needed <= b->gp_free);
		/* the base (fixed-counter events) is in every part */
		for (unsigned e = 0; e < mg->n_events; e++)
			if (mg->events[e].fixed && strcmp(mg->events[e].column, "cycles") != 0)
				CHECK(part_of(p, pg->family, e, g) == (int)g ||
				      part_of(p, pg->family, e, 0) < 0);
		for (unsigned i = 1; i < pg->n_events; i++)
			CHECK(pg->events[i - 1] < pg->events[i]);   /* model order */
	}
	for (unsigned f = 0; f < m->n_groups; f++) {
		const struct plan_family *pf = &p->families[f];

		CHECK(pf->wanted);
		if (!pf->collected) {
			CHECK(strncmp(pf->why, "left out", 8) == 0);
			CHECK(part_of(p, f, 0, 0) < 0);
		}
		if (pf->n_parts > 1)
			CHECK(strncmp(pf->why, "split in", 8) == 0);
	}
	check_sets_whole(m, p);
}

static void test_every_model(void)
{
	const struct model *const *all;
	bool off[MODEL_MAX_GROUPS] = { false };
	size_t n;

	all = model_all(&n);
	for (size_t i = 0; i < n; i++)
		for (int smt = 0; smt < 2; smt++)
			for (int wd = 0; wd < 2; wd++)
				for (unsigned res = 0; res < 3; res++) {
					struct plan_budget b;
					struct plan p;
					char err[512];
					int r;

					plan_budget_for(all[i], smt, wd, res, &b);
					r = plan_make(all[i], off, &b, &p, err, sizeof(err));
					CHECK(r == 0 || r == -ENOSPC);
					if (r == 0)
						check_plan(all[i], &p);
					/* with no other user, something always fits */
					CHECK(res > 0 || r == 0);
				}
}

static bool collected(const char *model, const char *family, bool smt, bool wd)
{
	const struct model *m = model_find(model);
	bool off[MODEL_MAX_GROUPS] = { false };
	struct plan_budget b;
	struct plan p;
	char err[512];

	CHECK(m != NULL);
	plan_budget_for(m, smt, wd, 0, &b);
	CHECK(plan_make(m, off, &b, &p, err, sizeof(err)) == 0);
	CHECK(model_group_index(m, family) >= 0);
	return p.families[model_group_index(m, family)].collected;
}

static void test_hosts_users_need(void)
{
	static const char *const cyc[] = { "skl", "skx", "icl", "icx", "spr" };

	CHECK(collected("amd64_fam19h_zen4", "td_l1", true, true));
	CHECK(collected("skl", "td_l1", true, true));
	CHECK(collected("skx", "td_l1", true, true));
	/* the cycle-accounted CPI stack's family is placed in every host
	 * state (split where it must be: test_every_model checks the parts) */
	for (size_t i = 0; i < sizeof(cyc) / sizeof(cyc[0]); i++)
		for (int smt = 0; smt < 2; smt++)
			for (int wd = 0; wd < 2; wd++)
				CHECK(collected(cyc[i], "cyc_cpi", smt, wd));
	CHECK(collected("amd64_fam19h_zen4", "commit", true, true));
}

/* Skylake with SMT off and no watchdog counts cyc_cpi whole (8 general
 * events on 8 counters); with SMT on (4) it is split, never apart from
 * its ratio sets (check_sets_whole). */
static void test_cyc_cpi_parts(void)
{
	bool off[MODEL_MAX_GROUPS] = { false };
	int f = model_group_index(&model_skl, "cyc_cpi");
	struct plan_budget b;
	struct plan p;
	char err[512];

	CHECK(f >= 0);
	plan_budget_for(&model_skl, false, false, 0, &b);
	CHECK(plan_make(&model_skl, off, &b, &p, err, sizeof(err)) == 0);
	CHECK_EQ_U(p.families[f].n_parts, 1);
	plan_budget_for(&model_skl, true, true, 0, &b);
	CHECK(plan_make(&model_skl, off, &b, &p, err, sizeof(err)) == 0);
	CHECK(p.families[f].n_parts > 1);
	CHECK(p.families[f].collected);
	check_plan(&model_skl, &p);
}

/* A host whose PMU reports fewer counters than the model's figure (a VM
 * exposing 4): planned for what it has, no group needing more than the 3
 * free; without a PMU libpfm4 can see, the model's figure stays. */
static void test_host_counters(void)
{
	const struct model *m = model_find("amd64_fam19h_zen4");
	bool off[MODEL_MAX_GROUPS] = { false };
	struct plan_budget b;
	struct plan p;
	char err[512], name[24];
	unsigned g;

	CHECK(m != NULL);
	plan_budget_for(m, false, true, 0, &b);
	CHECK_EQ_U(b.gp_total, m->gp_counters_nosmt);
	CHECK(strcmp(b.counters_from, "the model's figure") == 0);
	plan_budget_set_total(&b, 4, "the host's PMU (test)");
	CHECK_EQ_U(b.gp_total, 4);
	CHECK_EQ_U(b.gp_free, 3);   /* the watchdog holds one on AMD */
	CHECK(plan_make(m, off, &b, &p, err, sizeof(err)) == 0);
	for (g = 0; g < p.n_groups; g++)
		CHECK(p.groups[g].gp_needed <= 3);
	/* An Intel CPU (not the development VM) names the PMU that asked it;
	 * a forced one is libpfm4's table, never taken for the CPU's. */
	name[0] = '\0';
	if (plan_host_counters(name, sizeof(name)) > 0)
		CHECK(name[0] != '\0');
	setenv("LIBPFM_FORCE_PMU", "icl", 1);
	CHECK_EQ_U(plan_host_counters(name, sizeof(name)), 0);
	unsetenv("LIBPFM_FORCE_PMU");
}

/* Two events that only counter 2 can host never share a group. */
static const struct model_event fake_events[] = {
	{ "CPU_CLK_UNHALTED:THREAD_P", "cycles", "cycles", true, false },
	{ "INST_RETIRED:ANY_P", "instructions", "instructions", true, false },
	{ "r01a1", "a", "A", false, false },
	{ "r02a1", "b", "B", false, false },
	{ "r04a1", "c", "C", false, false },
};
static const struct model_group fake_groups[] = { { "g", fake_events, 5, false } };
static const struct model_event_rule fake_rules[] = {
	{ "a", EVENT_ALWAYS, 0x4, 0x4 },
	{ "b", EVENT_ALWAYS, 0x4, 0x4 },
	{ "c", EVENT_SMT_OFF, 0, 0 },
};

static void test_masks(void)
{
	struct model m = model_skl;
	bool off[MODEL_MAX_GROUPS] = { false };
	struct plan_budget b;
	struct plan p;
	char err[512];

	m.groups = fake_groups;
	m.n_groups = 1;
	m.ratio_sets = NULL;
	m.n_ratio_sets = 0;
	m.event_rules = fake_rules;
	m.n_event_rules = 3;
	m.fixed_counters = 3;
	plan_budget_for(&m, true, false, 0, &b);
	CHECK(plan_make(&m, off, &b, &p, err, sizeof(err)) == 0);
	CHECK_EQ_U(p.n_groups, 2);            /* a and b apart; c not counted with SMT on */
	CHECK(part_of(&p, 0, 2, 0) != part_of(&p, 0, 3, 0));
	CHECK(part_of(&p, 0, 4, 0) < 0);
	CHECK_EQ_U(p.groups[0].gp_needed, 1);   /* cycles on its fixed counter */
	/* as a ratio set they cannot be counted at all */
	{
		static const struct model_ratio_set set[] = { { "g", "a,b" } };

		m.ratio_sets = set;
		m.n_ratio_sets = 1;
		CHECK(plan_make(&m, off, &b, &p, err, sizeof(err)) == -ENOSPC);
		CHECK(strstr(p.families[0].why, "a+b") != NULL);
		/* a set naming no event of its family is the model's bug */
		static const struct model_ratio_set bad[] = { { "g", "a,zz" } };

		m.ratio_sets = bad;
		CHECK(plan_make(&m, off, &b, &p, err, sizeof(err)) == -EINVAL);
		CHECK(strstr(err, "zz") != NULL);
	}
}

static void test_whole(void)
{
	struct plan p;
	char cols[1024], names[2048], want[1024];

	plan_whole(&model_skl, &p);
	CHECK_EQ_U(p.n_groups, model_skl.n_groups);
	for (unsigned g = 0; g < p.n_groups; g++) {
		plan_group_columns(&p, g, cols, sizeof(cols), names, sizeof(names));
		model_group_columns(&model_skl.groups[g], want, sizeof(want));
		CHECK_STR(cols, want);
	}
}

/* What a SIGHUP compares: the same groups whatever the budget's figures
 * say, not the same once a family is left out or split differently; a
 * group is found at its new index. */
static void test_equal(void)
{
	bool none[MODEL_MAX_GROUPS] = { false }, off[MODEL_MAX_GROUPS] = { false };
	struct plan_budget b, smt;
	struct plan a, same, fewer, split;
	char err[512];

	plan_budget_for(&model_skl, false, false, 0, &b);
	CHECK(plan_make(&model_skl, none, &b, &a, err, sizeof(err)) == 0);
	CHECK(plan_make(&model_skl, none, &b, &same, err, sizeof(err)) == 0);
	same.budget.smt_on = !a.budget.smt_on;   /* reasons and budget do not count */
	CHECK(plan_groups_equal(&a, &same));
	off[0] = true;
	CHECK(plan_make(&model_skl, off, &b, &fewer, err, sizeof(err)) == 0);
	CHECK(!plan_groups_equal(&a, &fewer));
	CHECK(plan_find_group(&fewer, &a.groups[0]) == -1);
	CHECK(plan_find_group(&fewer, &a.groups[1]) == 0);
	CHECK(plan_find_group(&a, &fewer.groups[0]) == 1);
	/* SMT on halves the counters: some family is split, so not equal */
	plan_budget_for(&model_skl, true, true, 0, &smt);
	CHECK(plan_make(&model_skl, none, &smt, &split, err, sizeof(err)) == 0);
	CHECK(split.n_groups != a.n_groups);
	CHECK(!plan_groups_equal(&a, &split));
	plan_whole(&model_software, &same);
	CHECK(!plan_groups_equal(&a, &same));   /* another model */
}

int main(void)
{
	test_equal();
	test_every_model();
	test_hosts_users_need();
	test_cyc_cpi_parts();
	test_masks();
	test_whole();
	test_host_counters();
	return 0;
}
