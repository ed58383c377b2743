/*
 * test_plan_held.c - counters another PMU user holds, found from the
 * running plan's groups (daemon/plan/plan_held.h): a group refused twice
 * without counting in between asks for one more counter held back; one
 * refusal (a burst of another tool's) does not; a long calm gives one
 * back; a budget with one counter left, or software events, never move.
 * The simulated PMU's scenario (another user holding 2 counters) is in
 * test_sim_held.c.
 */
#include "test.h"
#include "daemon/plan/plan_held.h"

#include <string.h>

static struct plan plan_with(unsigned gp_free, bool unlimited)
{
	struct plan p;

	memset(&p, 0, sizeof(p));
	p.model = &model_software;
	p.n_groups = 3;
	p.budget.gp_free = gp_free;
	p.budget.unlimited = unlimited;
	return p;
}

int main(void)
{
	struct plan p = plan_with(4, false);
	struct plan_held h = { 0 };
	uint64_t ran[3] = { 100, 100, 100 }, dark[3] = { 100, 0, 100 };
	uint32_t none[3] = { 0, 0, 0 }, refused[3] = { 0, 1, 0 };
	unsigned i;

	/* refused, benched (dark, no refusal), refused again: starved */
	CHECK(plan_held_review(&h, &p, dark, refused, 3, 1) == 0);
	for (i = 0; i < 9; i++)
		CHECK(plan_held_review(&h, &p, dark, none, 3, 1) == 0);
	CHECK(plan_held_review(&h, &p, dark, refused, 3, 1) == 1);
	CHECK(h.starved == 1);
	CHECK_EQ_U(h.extra, 1);
	/* a burst: refused once, then it ran: nothing to do */
	CHECK(plan_held_review(&h, &p, dark, refused, 3, 1) == 0);
	CHECK(plan_held_review(&h, &p, ran, none, 3, 1) == 0);
	CHECK(plan_held_review(&h, &p, dark, refused, 3, 1) == 0);
	CHECK(plan_held_review(&h, &p, ran, none, 3, 1) == 0);
	CHECK_EQ_U(h.extra, 1);
	/* calm: one counter back after PLAN_HELD_CALM intervals without a
	 * refusal (the last one above is the first), no sooner */
	for (i = 2; i < PLAN_HELD_CALM; i++)
		CHECK(plan_held_review(&h, &p, ran, none, 3, 1) == 0);
	CHECK(plan_held_review(&h, &p, ran, none, 3, 1) == -1);
	CHECK_EQ_U(h.extra, 0);
	CHECK(plan_held_review(&h, &p, ran, none, 3, 1) == 0);
	/* one general counter left: nothing more to hold back */
	p = plan_with(1, false);
	for (i = 0; i < 4; i++)
		CHECK(plan_held_review(&h, &p, dark, refused, 3, 1) == 0);
	/* software events hold no counter */
	memset(&h, 0, sizeof(h));
	p = plan_with(0, true);
	for (i = 0; i < 4; i++)
		CHECK(plan_held_review(&h, &p, dark, refused, 3, 1) == 0);
	printf("test_plan_held: ok\n");
	return 0;
}
