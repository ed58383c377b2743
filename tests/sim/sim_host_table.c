/*
 * sim_host_table.c - what sim_host needs to run a model made from perf's
 * tables (lib/model/model_table.h): which table and core type it is, the
 * bits its events are known by, and its slots per cycle.
 *
 * The truth is keyed by the table's own fields placed by the kernel's
 * formats (tests/sim/perfdb_encode.c), not by the strings the collector
 * opens: those go through the model's spec writer (model_table_event.c)
 * and the collector's sysfs resolver on the simulated host's sysfs tree,
 * and a count reaches the store only if both ways give the same bits.
 */
#include "sim_host.h"
#include "lib/model/model_table.h"
#include "lib/perfdb/perf_set.h"
#include "tests/sim/perfdb_encode.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

bool sim_host_table_of(const struct model *m, const struct perfdb_table **table,
		       const char **unit)
{
	unsigned t, u;

	for (t = 0; t < perfdb_n_tables; t++) {
		const char *units[2];
		unsigned n = model_table_core_types(&perfdb_tables[t], units);

		for (u = 0; u < n; u++) {
			char name[64];

			model_table_name(&perfdb_tables[t], units[u], name, sizeof(name));
			if (strcmp(name, m->name) == 0 &&
			    model_for_table(&perfdb_tables[t], units[u]) == m) {
				*table = &perfdb_tables[t];
				*unit = units[u];
				return true;
			}
		}
	}
	return false;
}

static bool same_unit(const struct perfdb_event *e, const char *unit)
{
	return unit == NULL ? e->pmu == NULL : e->pmu != NULL && strcmp(e->pmu, unit) == 0;
}

/* The table's event that perf_name names: the same spelling, else the
 * same count (perf_event_same: "slots" is TOPDOWN.SLOTS). */
static const struct perfdb_event *table_event(const struct sim_host *h, const char *perf_name)
{
	const struct perfdb_table *t = h->table;
	unsigned i;

	for (i = 0; i < t->n_events; i++)
		if (same_unit(&t->events[i], h->unit) && strcasecmp(t->events[i].name, perf_name) == 0)
			return &t->events[i];
	for (i = 0; i < t->n_events; i++)
		if (same_unit(&t->events[i], h->unit) && perf_event_same(t->events[i].name, perf_name))
			return &t->events[i];
	return NULL;
}

int sim_host_event_attr(const struct sim_host *h, const struct model_event *ev,
			struct perf_event_attr *attr)
{
	const struct perfdb_event *pe;

	memset(attr, 0, sizeof(*attr));
	if (h->table == NULL)
		return simpmu_encode(h->sim, ev->name, attr);
	pe = table_event(h, model_event_perf_name(ev));
	if (pe != NULL && pe->kind != PERFDB_EV_GENERIC && pe->kind != PERFDB_EV_RETIRE_LATENCY) {
		uint64_t c, c1;
		char err[256];

		if (perfdb_encode(h->table, pe, &c, &c1, err, sizeof(err)) < 0) {
			fprintf(stderr, "sim_host: %s\n", err);
			return -EINVAL;
		}
		attr->type = PERF_TYPE_RAW;
		attr->config = c;
		attr->config1 = c1;
		return 0;
	}
	/* Only the kernel's generic events (perf::CYCLES) are opened by a name
	 * the table does not hold; a term spec must be the table's. */
	if (strchr(ev->name, '/') != NULL) {
		fprintf(stderr, "sim_host: %s (%s) is in no table event\n", ev->name,
			model_event_perf_name(ev));
		return -ENOENT;
	}
	return simpmu_encode(h->sim, ev->name, attr);
}

static int one_each(void *ctx, const char *name, double *out)
{
	(void)ctx;
	(void)name;
	*out = 1.0;
	return 0;
}

/* One frontend slot stall per cycle and nothing else. */
static int one_frontend_stall(void *ctx, const char *name, double *out)
{
	(void)ctx;
	*out = strcasecmp(name, "STALL_SLOT_FRONTEND") == 0 ||
	       strcasecmp(name, "CPU_CYCLES") == 0 ? 1.0 : 0.0;
	return 0;
}

/* The value of metric name of set on the counts fn gives, #slots unknown;
 * 0 when it cannot be computed. */
static double eval_named(const struct perf_set *set, const char *name,
			 int (*fn)(void *, const char *, double *))
{
	struct perf_values v;
	double x;
	int k = perf_set_index(set, name);

	memset(&v, 0, sizeof(v));
	v.event = fn;
	if (k < 0 || perf_set_eval(set, (unsigned)k, &v, &x) < 0)
		return 0;
	return x;
}

unsigned sim_host_slot_width(const struct model *m, const struct perfdb_table *t,
			     const char *unit)
{
	const struct perf_set *set = perf_set_get(t, unit);
	double w;

	if (m->pipeline_width > 0)
		return m->pipeline_width;
	if (set == NULL)
		return 8;
	/* AMD's tables define the slots by a metric of cycles (perf's amdzen5
	 * pipeline.json: "total_dispatch_slots": "8 * ls_not_halted_cyc"),
	 * which the model's width does not read: its value at one cycle. */
	w = eval_named(set, "total_dispatch_slots", one_each);
	if (w >= 1 && w <= 16)
		return (unsigned)w;
	/* Arm tables that write the slots out where others read #slots
	 * (perf's neoverse-v3 frontend_bound: "(STALL_SLOT_FRONTEND / (10 *
	 * CPU_CYCLES) - STALL_FRONTEND_FLUSH / CPU_CYCLES) * 100"): a PMU whose
	 * caps/slots said otherwise would make its level 1 sum to another
	 * figure than 1.  One frontend slot stall per cycle gives 100 / W. */
	w = eval_named(set, "frontend_bound", one_frontend_stall);
	if (w >= 100.0 / 16 && w <= 100.0)
		return (unsigned)(100.0 / w + 0.5);
	/* Perf metrics and #slots formulas read the slots count itself: any
	 * whole width keeps every class a whole number of 255ths. */
	return 8;
}
