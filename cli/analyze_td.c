/*
 * analyze_td.c - perf 5.10-6.2's built-in Top-Down (see analyze_td.h).
 *
 * The nodes and their figures' names are perf's (stat-shadow.c of Linux
 * 5.13-6.2: level 2 came with 5.13, the capitalised names with 6.0; 5.x
 * printed them in lower case, "Core bound" aside): each is one topdown-*
 * count over retiring + bad-spec + fe-bound + be-bound, or a level-1 node
 * less its level-2 child.  perf 7.2's metric of the same quantity is named
 * beside each.
 */
#include "cli/analyze_td.h"
#include "cli/event_id.h"

#include <errno.h>
#include <stddef.h>
#include <string.h>
#include <strings.h>

struct td_builtin {
	const char *metric;    /* perf 7.2's name */
	const char *printed;   /* perf 6.0-6.2's figure (5.x: the same in lower case) */
	const char *count;     /* topdown-* over the level-1 sum */
	const char *less;      /* a sibling: minus this topdown-* over the sum */
};

static const struct td_builtin nodes[] = {
	{ "tma_retiring", "Retiring", "topdown-retiring", NULL },
	{ "tma_bad_speculation", "Bad Speculation", "topdown-bad-spec", NULL },
	{ "tma_frontend_bound", "Frontend Bound", "topdown-fe-bound", NULL },
	{ "tma_backend_bound", "Backend Bound", "topdown-be-bound", NULL },
	{ "tma_heavy_operations", "Heavy Operations", "topdown-heavy-ops", NULL },
	{ "tma_light_operations", "Light Operations", "topdown-retiring", "topdown-heavy-ops" },
	{ "tma_branch_mispredicts", "Branch Mispredict", "topdown-br-mispredict", NULL },
	{ "tma_machine_clears", "Machine Clears", "topdown-bad-spec", "topdown-br-mispredict" },
	{ "tma_fetch_latency", "Fetch Latency", "topdown-fetch-lat", NULL },
	{ "tma_fetch_bandwidth", "Fetch Bandwidth", "topdown-fe-bound", "topdown-fetch-lat" },
	{ "tma_memory_bound", "Memory Bound", "topdown-mem-bound", NULL },
	{ "tma_core_bound", "Core Bound", "topdown-be-bound", "topdown-mem-bound" },
};

#define N_NODES (sizeof(nodes) / sizeof(nodes[0]))

const char td_builtin_formula[] =
	"perf 5.10-6.2's built-in Top-Down (topdown-* over the sum of the four level-1 ones)";

const struct td_builtin *td_builtin_of_metric(const char *metric)
{
	size_t i;

	for (i = 0; i < N_NODES; i++)
		if (strcmp(nodes[i].metric, metric) == 0)
			return &nodes[i];
	return NULL;
}

const struct td_builtin *td_builtin_of_printed(const char *printed)
{
	size_t i;

	for (i = 0; i < N_NODES; i++)
		if (strcasecmp(nodes[i].printed, printed) == 0)
			return &nodes[i];
	return NULL;
}

int td_builtin_eval(const struct td_builtin *b, int (*event)(void *ctx, const char *name,
							     double *out),
		    void *ctx, double *out)
{
	static const char *const level1[] = {
		"topdown-retiring", "topdown-bad-spec", "topdown-fe-bound", "topdown-be-bound",
	};
	double sum = 0, v, less = 0;
	size_t i;

	for (i = 0; i < 4; i++) {
		if (event(ctx, level1[i], &v) < 0)
			return -ENOENT;
		sum += v;
	}
	if (sum <= 0 || event(ctx, b->count, &v) < 0 ||
	    (b->less != NULL && event(ctx, b->less, &less) < 0))
		return -ENOENT;
	*out = (v - less) / sum;
	return 0;
}

unsigned td_older_event(const char *name)
{
	char key[160];

	event_id_normalise(name, key, sizeof(key));
	if (strcmp(key, "int_misc.uop_dropping") == 0)
		return TD_NO_UOP_DROPPING;
	if (strcmp(key, "int_misc.clears_count") == 0)
		return TD_NO_CLEARS_COUNT;
	return 0;
}

const char *td_older_label(unsigned missing)
{
	switch (missing & (TD_NO_UOP_DROPPING | TD_NO_CLEARS_COUNT)) {
	case TD_NO_UOP_DROPPING:
		return "perf 5.10-6.2's built-in Top-Down: the recording has no "
		       "INT_MISC.UOP_DROPPING";
	case TD_NO_CLEARS_COUNT:
		return "perf 5.10-6.2's built-in Top-Down: the recording has no "
		       "INT_MISC.CLEARS_COUNT";
	case TD_NO_UOP_DROPPING | TD_NO_CLEARS_COUNT:
		return "perf 5.10-6.2's built-in Top-Down: the recording has no "
		       "INT_MISC.UOP_DROPPING, INT_MISC.CLEARS_COUNT";
	default:
		return "perf 7.2's";
	}
}
