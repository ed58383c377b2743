/*
 * What readers title the models' stacks with: every stack node has a
 * short table title (so `stackctl top` can fit a family's columns), no
 * two columns of one model share a title, and the headings of stacks in
 * slots come from the model's slot stage and width, with a level 3 only
 * where the tree has one.
 */
#include "lib/model/model.h"
#include "test.h"

#include <errno.h>
#include <string.h>
#include <strings.h>

static void test_short_titles(void)
{
	const struct model *const *all;
	size_t n, i;
	unsigned k, j;

	all = model_all(&n);
	for (i = 0; i < n; i++) {
		const struct model *m = all[i];

		for (k = 0; k < m->n_metrics; k++) {
			const struct model_metric *mm = &m->metrics[k];

			if (mm->stack == NULL)
				continue;
			if (mm->title == NULL || strlen(mm->title) > 10)
				fprintf(stderr, "%s: %s: title '%s'\n", m->name, mm->name,
					mm->title ? mm->title : "(none)");
			CHECK(mm->title != NULL && strlen(mm->title) <= 10);
			/* `top --sort` takes a title for its column (after the
			 * names: "DSB" is dsb_coverage's title and the dsb node's
			 * name), so no two columns share one */
			for (j = 0; j < k; j++)
				CHECK(m->metrics[j].title == NULL ||
				      strcasecmp(m->metrics[j].title, mm->title) != 0);
		}
	}
}

/* Headings name the stage whose slots a stack is in, and each stack's own
 * stage.  Intel calls allocation into the backend "issue" (UOPS_ISSUED;
 * perf's skylake metrics: SLOTS, "Total issue-pipeline slots") and sending
 * uops from the scheduler to the ports "dispatch" (UOPS_DISPATCHED); the
 * multi-stage paper's issue stage is the latter, so on Intel both stages
 * are spelt out.  AMD's Top-Down is in dispatch slots (perf's amdzen4
 * metrics: "Total dispatch slots"), its second stage commit: no clash,
 * the plain names. */
static void test_stack_titles(void)
{
	char buf[256];

	CHECK(model_stack_title(&model_zen4, "topdown", buf, sizeof(buf)) == 0);
	CHECK_STR(buf, "Top-Down: share of dispatch slots (6 per cycle)");
	CHECK(model_stack_title(&model_zen4, "commit", buf, sizeof(buf)) == 0);
	CHECK_STR(buf, "Commit stage: share of Top-Down's dispatch slots (6 per cycle)");
	CHECK(model_stack_title(&model_skl, "topdown", buf, sizeof(buf)) == 0);
	CHECK_STR(buf, "Top-Down: share of issue (allocation into the backend) slots "
		  "(4 per cycle; level 3: share of cycles)");
	CHECK(model_stack_title(&model_skl, "issue", buf, sizeof(buf)) == 0);
	CHECK_STR(buf, "Execution-issue (scheduler to the ports: Intel's dispatch) stage: "
		  "share of Top-Down's issue slots (4 per cycle)");
	CHECK(model_stack_title(&model_arm_v1, "topdown", buf, sizeof(buf)) == 0);
	CHECK_STR(buf, "Top-Down: share of dispatch slots (8 per cycle)");
	/* the frontend thesis's cycle stack is in cycles on every model */
	CHECK(model_stack_title(&model_skl, "fe_cycles", buf, sizeof(buf)) == 0);
	CHECK_STR(buf, "Frontend cycles: share of cycles by the path delivering uops (and none)");
	/* other units, and a stack the model has not: the reader's */
	CHECK(model_stack_title(&model_zen4, "flops", buf, sizeof(buf)) == -ENOENT);
	CHECK(model_stack_title(&model_zen4, "issue", buf, sizeof(buf)) == -ENOENT);
	CHECK(model_stack_title(&model_zen3, "topdown", buf, sizeof(buf)) == -ENOENT);

	/* the ranges name both stages; a model with one stage has none */
	CHECK(model_ranges_title(&model_skl, buf, sizeof(buf)) == 0);
	CHECK_STR(buf, "Ranges: each loss at the issue (allocation into the backend) stage "
		  "(Top-Down) and the execution-issue (scheduler to the ports: Intel's dispatch) "
		  "stage, the smaller .. the larger (unknown: no counter for that stage)");
	CHECK(model_ranges_title(&model_zen4, buf, sizeof(buf)) == 0);
	CHECK_STR(buf, "Ranges: each loss at the dispatch stage (Top-Down) and the commit stage, "
		  "the smaller .. the larger (unknown: no counter for that stage)");
	CHECK(model_ranges_title(&model_arm_v1, buf, sizeof(buf)) == -ENOENT);
	CHECK(model_ranges_title(&model_zen3, buf, sizeof(buf)) == -ENOENT);
}

int main(void)
{
	test_short_titles();
	test_stack_titles();
	return 0;
}
