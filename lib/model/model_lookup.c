/*
 * model_lookup.c - what one model's tables say (model.h): the index of a
 * metric or group by name, the counters a group needs and the PMU offers,
 * the heading of a stack, an event's perf name, a group's columns.  The
 * model files, the registry (models.c) and readers use these; they call
 * nothing above them.
 */
#include "lib/model/model.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>

int model_metric_index(const struct model *m, const char *metric_name)
{
	unsigned i;

	for (i = 0; i < m->n_metrics; i++)
		if (strcmp(m->metrics[i].name, metric_name) == 0)
			return (int)i;
	return -1;
}

unsigned model_group_gp_needed(const struct model_group *g)
{
	unsigned i, n = 0;

	for (i = 0; i < g->n_events; i++)
		if (!g->events[i].fixed)
			n += g->events[i].paired ? 2 : 1;
	return n;
}

unsigned model_gp_budget(const struct model *m, bool smt_on, bool watchdog_on)
{
	unsigned n = smt_on ? m->gp_counters_smt : m->gp_counters_nosmt;

	return watchdog_on && n > 0 ? n - 1 : n;
}

const char *model_event_perf_name(const struct model_event *e)
{
	return e->perf_name != NULL ? e->perf_name : e->name;
}

uint64_t model_total_task_clock(const struct model *m, const struct group_sums *sums)
{
	uint64_t total = 0;
	unsigned i;

	for (i = 0; i < m->n_groups; i++)
		if (sums[i].present)
			total += sums[i].task_clock_ns;
	return total;
}

int model_group_index(const struct model *m, const char *group_name)
{
	unsigned i;

	for (i = 0; i < m->n_groups; i++)
		if (strcmp(m->groups[i].name, group_name) == 0)
			return (int)i;
	return -1;
}

int model_event_index(const struct model_group *g, const char *column)
{
	unsigned i;

	for (i = 0; i < g->n_events; i++)
		if (strcmp(g->events[i].column, column) == 0)
			return (int)i;
	return -1;
}

void model_group_columns(const struct model_group *g, char *buf, size_t len)
{
	size_t used = 0;
	unsigned i;

	if (len == 0)
		return;
	buf[0] = '\0';
	for (i = 0; i < g->n_events && used < len; i++) {
		int n = snprintf(buf + used, len - used, "%s%s", i ? "," : "", g->events[i].column);
		if (n < 0)
			break;
		used += (size_t)n;
	}
}

/* Depth of a node in its stack's tree: 1 at the top. */
static unsigned metric_depth(const struct model *m, const struct model_metric *mm)
{
	unsigned depth = 1;
	int p;

	while (mm->parent != NULL && depth < 8 && (p = model_metric_index(m, mm->parent)) >= 0) {
		mm = &m->metrics[p];
		depth++;
	}
	return depth;
}

/* Whether one of the model's multi-stage stacks has the slot stage's own
 * name: Intel calls allocation "issue" (UOPS_ISSUED, Top-Down's slots),
 * and Eyerman et al. call "issue" the step from the scheduler to the
 * ports, which Intel calls dispatch; both are named "issue" in the tree. */
static bool stage_name_clash(const struct model *m)
{
	const char *const *s;

	for (s = m->stage_stacks; s != NULL && *s != NULL; s++)
		if (strcmp(*s, m->slot_stage) == 0)
			return true;
	return false;
}

/* A stage as a heading names it: Top-Down's (slot) stage, or a stack's. */
static const char *stage_words(const struct model *m, const char *stage, bool slot_stage)
{
	if (!stage_name_clash(m) || strcmp(stage, m->slot_stage) != 0)
		return stage;
	return slot_stage ? "issue (allocation into the backend)"
			  : "execution-issue (scheduler to the ports: Intel's dispatch)";
}

int model_stack_title(const struct model *m, const char *stack, char *buf, size_t len)
{
	const char *const *s;

	/* the frontend thesis's eq. 3.2: not slots, whatever the model */
	if (strcmp(stack, "fe_cycles") == 0) {
		snprintf(buf, len, "Frontend cycles: share of cycles by the path delivering uops "
			 "(and none)");
		return 0;
	}
	if (m->slot_stage == NULL || m->pipeline_width == 0)
		return -ENOENT;
	if (strcmp(stack, "topdown") == 0) {
		bool level3 = false;
		unsigned k;

		/* perf's level-3 nodes are shares of cycles, not of slots */
		for (k = 0; k < m->n_metrics; k++)
			level3 |= m->metrics[k].stack != NULL &&
				  strcmp(m->metrics[k].stack, "topdown") == 0 &&
				  metric_depth(m, &m->metrics[k]) >= 3;
		snprintf(buf, len, "Top-Down: share of %s slots (%u per cycle%s)",
			 stage_words(m, m->slot_stage, true), m->pipeline_width,
			 level3 ? "; level 3: share of cycles" : "");
		return 0;
	}
	for (s = m->stage_stacks; s != NULL && *s != NULL; s++)
		if (strcmp(*s, stack) == 0) {
			const char *w = stage_words(m, stack, false);

			snprintf(buf, len, "%c%s stage: share of Top-Down's %s slots (%u per cycle)",
				 toupper((unsigned char)w[0]), w + 1, m->slot_stage,
				 m->pipeline_width);
			return 0;
		}
	return -ENOENT;
}

int model_ranges_title(const struct model *m, char *buf, size_t len)
{
	if (m->slot_stage == NULL || m->stage_stacks == NULL || m->stage_stacks[0] == NULL)
		return -ENOENT;
	snprintf(buf, len, "Ranges: each loss at the %s stage (Top-Down) and the %s stage, "
		 "the smaller .. the larger (unknown: no counter for that stage)",
		 stage_words(m, m->slot_stage, true), stage_words(m, m->stage_stacks[0], false));
	return 0;
}
