/*
 * test_group_parts.c - stored parts of a split family fold back into the
 * family (lib/group_parts.c): each event is scaled to the family's whole
 * base so event / cycles is the rate its own part measured, ratios inside
 * one part stay exact, an event no part counted is missing (not 0),
 * groups of another formula version map by column name, and stored groups
 * of another model stay unmapped.
 */
#include "lib/group_parts.h"
#include "test.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static const struct model_event fam_events[] = {
	{ "c", "cycles", NULL, true, false },
	{ "i", "instructions", NULL, true, false },
	{ "a", "a", NULL, false, false },
	{ "b", "b", NULL, false, false },
	{ "d", "d", NULL, false, false },
};
static const struct model_group fam_groups[] = { { "fam", fam_events, 5, false } };

static struct model fake(void)
{
	struct model m = model_software;

	m.name = "fake";
	m.formula_version = 7;
	m.groups = fam_groups;
	m.n_groups = 1;
	return m;
}

static void test_map(void)
{
	struct model m = fake();
	static struct group_map map;

	memset(&map, 0, sizeof(map));
	group_map_add(&map, &m, 1, "fake", 7, "fam", "cycles,instructions,a,b,d");
	group_map_add(&map, &m, 2, "fake", 7, "fam", "cycles,instructions,a");
	group_map_add(&map, &m, 3, "fake", 6, "fam", "cycles,instructions,a");     /* old version */
	group_map_add(&map, &m, 4, "fake", 7, "fam", "cycles,zz");                 /* unknown column */
	group_map_add(&map, &m, 5, "fake", 7, "fam", "cycles,a,a");                /* repeated */
	group_map_add(&map, &m, 6, "other", 7, "fam", "cycles");
	group_map_add(&map, &m, 7, "fake", 7, "fam", "instructions,cycles,a,b,d"); /* reordered: a part */
	group_map_add(&map, &m, 8, "fake", 5, "fam", "zz,yy");      /* no column remains */
	group_map_add(&map, &m, 9, "fake", 5, "gone", "cycles");    /* no such family now */
	CHECK(group_map_find(&map, 1)->whole);
	CHECK(!group_map_find(&map, 2)->whole);
	CHECK_EQ_U(group_map_find(&map, 2)->slot, 0);
	/* another formula version maps by column name, as a part */
	CHECK(group_map_find(&map, 3) != NULL && !group_map_find(&map, 3)->whole);
	CHECK_EQ_U(group_map_find(&map, 3)->has, 0x7);
	/* a column the family no longer has is ignored, not a reason to drop */
	CHECK(group_map_find(&map, 4) != NULL);
	CHECK_EQ_U(group_map_find(&map, 4)->col[1], GROUP_COL_NONE);
	CHECK_EQ_U(group_map_find(&map, 4)->has, 0x1);
	CHECK(group_map_find(&map, 5) == NULL);
	CHECK(group_map_find(&map, 6) == NULL);
	CHECK(!group_map_find(&map, 7)->whole);
	CHECK(group_map_find(&map, 8) == NULL);
	CHECK(group_map_find(&map, 9) == NULL);
	CHECK(group_map_find(&map, 99) == NULL);
	CHECK_EQ_U(map.n_slots, 4);
	/* every (model, version) is known, mapped or not */
	CHECK_EQ_U(map.n_keys, 4);
	CHECK(!group_map_only(&map, &m));
}

static void test_fold(void)
{
	struct model m = fake();
	static struct group_map map;
	struct group_sums sums[MODEL_MAX_GROUPS];
	struct part_sums *parts = NULL;
	/* part 1: cycles, instructions, a; part 2: cycles, instructions, b */
	const uint64_t p1[] = { 100, 80, 50 }, p2[] = { 300, 270, 30 };

	memset(&map, 0, sizeof(map));
	memset(sums, 0, sizeof(sums));
	group_map_add(&map, &m, 1, "fake", 7, "fam", "cycles,instructions,a");
	group_map_add(&map, &m, 2, "fake", 7, "fam", "cycles,instructions,b");
	CHECK(group_parts_add(&map, group_map_find(&map, 1), sums, &parts, 1000, 3, p1) == 0);
	CHECK(group_parts_add(&map, group_map_find(&map, 2), sums, &parts, 2000, 4, p2) == 0);
	CHECK(parts != NULL);
	CHECK(!sums[0].present);   /* parts wait for the fold */
	group_parts_combine(&map, &m, sums, &parts);
	CHECK(parts == NULL);
	CHECK(sums[0].present);
	CHECK_EQ_U(sums[0].task_clock_ns, 3000);
	CHECK_EQ_U(sums[0].context_switches, 7);
	CHECK_EQ_U(sums[0].v[0], 400);                 /* cycles: in every part, summed */
	CHECK_EQ_U(sums[0].v[1], 350);                 /* instructions too */
	CHECK_EQ_U(sums[0].v[2], 200);                 /* a: 50 per 100 cycles -> of 400 */
	CHECK_EQ_U(sums[0].v[3], 40);                  /* b: 30 per 300 cycles */
	CHECK(sums[0].missing == 1u << 4);             /* d: counted by no part */
	CHECK_EQ_U(sums[0].covered_ns, 1000);          /* a: only part 1's 1000 ns */
	CHECK(fabs((double)sums[0].v[2] / (double)sums[0].v[0] - 0.5) < 1e-12);

	/* a whole group of the same family (an earlier plan) folds in as a part
	 * that counted everything */
	{
		const uint64_t whole[] = { 600, 500, 60, 60, 6 };

		memset(sums, 0, sizeof(sums));
		group_map_add(&map, &m, 3, "fake", 7, "fam", "cycles,instructions,a,b,d");
		CHECK(group_parts_add(&map, group_map_find(&map, 3), sums, &parts, 500, 1,
				      whole) == 0);
		CHECK(parts == NULL);   /* whole rows need no slot */
		CHECK(group_parts_add(&map, group_map_find(&map, 1), sums, &parts, 1000, 3,
				      p1) == 0);
		group_parts_combine(&map, &m, sums, &parts);
		CHECK_EQ_U(sums[0].v[0], 700);
		CHECK_EQ_U(sums[0].v[2], 110);   /* (60 + 50) of (600 + 100): whole base */
		CHECK_EQ_U(sums[0].v[3], 70);    /* 60 per 600 cycles -> of 700 */
		CHECK_EQ_U(sums[0].v[4], 7);
		CHECK(sums[0].missing == 0);
	}
}

/* A group of an older formula version: read by column name, its columns
 * the family dropped ignored, the family's columns it lacks missing (not
 * 0); and what readers are told of each (model, version). */
static void test_old_version(void)
{
	static const struct model_event_rule rules[] = { { "d", EVENT_SMT_ON, 0, 0 } };
	struct model m = fake();
	static struct group_map map;
	struct group_sums sums[MODEL_MAX_GROUPS];
	struct part_sums *parts = NULL;
	/* v6: cycles, a, gone (dropped since), instructions; no b, no d */
	const uint64_t old[] = { 1000, 300, 77, 900 };
	struct recorded_under r;

	m.event_rules = rules;
	m.n_event_rules = 1;
	memset(&map, 0, sizeof(map));
	memset(sums, 0, sizeof(sums));
	group_map_add(&map, &m, 1, "fake", 6, "fam", "cycles,a,gone,instructions");
	group_map_add(&map, &m, 2, "fake", 5, "fam", "cycles,instructions,a,b,d");
	group_map_add(&map, &m, 3, "other", 7, "fam", "cycles,instructions,a,b,d");
	group_map_add(&map, &m, 4, "fake", 7, "fam", "cycles,instructions,a,b,d");
	CHECK(group_parts_add(&map, group_map_find(&map, 1), sums, &parts, 2000, 5, old) == 0);
	group_parts_combine(&map, &m, sums, &parts);
	CHECK(sums[0].present);
	CHECK_EQ_U(sums[0].task_clock_ns, 2000);
	CHECK_EQ_U(sums[0].v[0], 1000);
	CHECK_EQ_U(sums[0].v[1], 900);
	CHECK_EQ_U(sums[0].v[2], 300);
	CHECK(sums[0].missing == (1u << 3 | 1u << 4));   /* b, d: never 0 */

	/* v6 lacks b (read in either SMT state) and d (read with SMT on) */
	snprintf(r.model, sizeof(r.model), "fake");
	r.formula_version = 6;
	group_map_judge(&map, &m, false, &r);
	CHECK(!r.recomputed);
	CHECK_STR(r.missing, "b");
	group_map_judge(&map, &m, true, &r);
	CHECK_STR(r.missing, "b,d");
	/* v5 had every column: recomputed */
	r.formula_version = 5;
	group_map_judge(&map, &m, true, &r);
	CHECK(r.recomputed);
	CHECK_STR(r.missing, "");
	/* another model: nothing computed from it, nothing named missing */
	snprintf(r.model, sizeof(r.model), "other");
	r.formula_version = 7;
	group_map_judge(&map, &m, false, &r);
	CHECK(!r.recomputed);
	CHECK_STR(r.missing, "");
	/* nor by a reader that does not know the data's model */
	snprintf(r.model, sizeof(r.model), "fake");
	group_map_judge(&map, NULL, false, &r);
	CHECK(!r.recomputed);
	CHECK(!group_map_only(&map, &m));
}

/* A part without cycles (a version that had none in the family) sums with
 * the others over task-clock, never cycles added to nanoseconds. */
static void test_base_without_cycles(void)
{
	struct model m = fake();
	static struct group_map map;
	struct group_sums sums[MODEL_MAX_GROUPS];
	struct part_sums *parts = NULL;
	const uint64_t p1[] = { 100, 50 }, p2[] = { 40 };

	memset(&map, 0, sizeof(map));
	memset(sums, 0, sizeof(sums));
	group_map_add(&map, &m, 1, "fake", 7, "fam", "cycles,a");
	group_map_add(&map, &m, 2, "fake", 6, "fam", "b");
	CHECK(group_parts_add(&map, group_map_find(&map, 1), sums, &parts, 1000, 1, p1) == 0);
	CHECK(group_parts_add(&map, group_map_find(&map, 2), sums, &parts, 3000, 1, p2) == 0);
	group_parts_combine(&map, &m, sums, &parts);
	CHECK_EQ_U(sums[0].v[2], 200);   /* a: 50 per 1000 ns, over 4000 ns */
	CHECK_EQ_U(sums[0].v[3], 53);    /* b: 40 per 3000 ns, over 4000 ns */
}

/* Processes summed (a comm): an event some did not measure (they ran only
 * while another part counted) is taken at the rate of those that did, over
 * the base of all; missing only when none measured it. */
static void test_sum_targets(void)
{
	struct model m = fake();
	struct group_sums a[1] = { { 0 } }, b[1] = { { 0 } }, absent[1] = { { 0 } }, t[1];
	static struct sums_acc acc;

	memset(&acc, 0, sizeof(acc));
	a[0].present = b[0].present = true;
	a[0].task_clock_ns = 1000;
	a[0].v[0] = 100;   /* cycles */
	a[0].v[2] = 10;    /* a */
	a[0].missing = 1u << 3 | 1u << 4;   /* b, d not measured */
	b[0].task_clock_ns = 3000;
	b[0].v[0] = 300;
	b[0].v[2] = 30;
	b[0].v[3] = 60;
	b[0].missing = 1u << 4;
	sums_acc_add(&acc, &m, a);
	sums_acc_add(&acc, &m, b);
	sums_acc_add(&acc, &m, absent);   /* did not run in this family's turns */
	sums_acc_finish(&acc, &m, t);
	CHECK(t[0].present);
	CHECK_EQ_U(t[0].task_clock_ns, 4000);
	CHECK_EQ_U(t[0].covered_ns, 3000);   /* b: counted only over b's 3000 ns */
	CHECK_EQ_U(t[0].v[0], 400);
	CHECK_EQ_U(t[0].v[2], 40);   /* both measured it */
	CHECK_EQ_U(t[0].v[3], 80);   /* 60 per 300 cycles, over 400 */
	CHECK(t[0].missing == 1u << 4);
}

int main(void)
{
	test_map();
	test_fold();
	test_old_version();
	test_base_without_cycles();
	test_sum_targets();
	return 0;
}
