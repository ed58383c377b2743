/*
 * models.c - the registry: the list of models, and finding one by name,
 * PMU or metric.  On top of the model files (it names each model); what a
 * single model's tables say is in model_lookup.c, below them.
 */
#include "lib/model/model.h"
#include "lib/model/model_hand_tables.h"
#include "lib/model/model_hybrid.h"
#include "lib/model/model_perf.h"
#include "lib/model/model_table.h"

#include <pthread.h>
#include <stdio.h>
#include <string.h>

static const struct model *table_model_named(const char *name);

static const struct model *const registry[] = {
	&model_skl, &model_skx, &model_icl, &model_icx, &model_spr,
	&model_zen4, &model_zen3, &model_zen2,
	&model_arm_n2, &model_arm_v1, &model_arm_v2, &model_arm_n1, &model_software,
};

/* The generic hardware models (model_hwgeneric.c), found by name only:
 * the model choice names them for a CPU with no table; they are not in
 * the registry, whose every model reads a CPU's own events. */
static const struct model *const generic_models[] = {
	&model_hw_generic, &model_hw_generic_td, &model_hw_generic_stalls,
};

#define N_REGISTRY (sizeof(registry) / sizeof(registry[0]))

/* Each hand model with perf's metrics of its CPU added (model_perf.h), as
 * every reader gets it; built on first use, one at a time: making one
 * parses its CPU's whole table, which a daemon starting on the software
 * model must not pay for all twelve. */
static const struct model *augmented[N_REGISTRY];
static pthread_mutex_t augment_lock = PTHREAD_MUTEX_INITIALIZER;

static const struct model *hand_model(size_t i)
{
	const struct model *m;

	pthread_mutex_lock(&augment_lock);
	m = augmented[i];
	if (m == NULL) {
		const struct perfdb_table *t = model_perf_table(registry[i]);
		const struct perf_set *s = t != NULL ? perf_set_get(t, NULL) : NULL;

		m = s != NULL ? model_perf_attach(registry[i], s, NULL) : NULL;
		if (m == NULL)
			m = registry[i];
		augmented[i] = m;
	}
	pthread_mutex_unlock(&augment_lock);
	return m;
}

static const struct model *const *hand_models(void)
{
	size_t i;

	for (i = 0; i < N_REGISTRY; i++)
		hand_model(i);
	return augmented;
}

const struct model *const *model_all(size_t *n)
{
	*n = N_REGISTRY;
	return hand_models();
}

const struct model *model_with_metric(const char *metric_name)
{
	const struct model *const *all = hand_models();
	size_t i;

	for (i = 0; i < N_REGISTRY; i++)
		if (model_metric_index(all[i], metric_name) >= 0)
			return all[i];
	return NULL;
}

const struct model *model_find(const char *name)
{
	size_t i;

	for (i = 0; i < N_REGISTRY; i++)
		if (strcmp(registry[i]->name, name) == 0)
			return hand_model(i);
	for (i = 0; i < sizeof(generic_models) / sizeof(generic_models[0]); i++)
		if (strcmp(generic_models[i]->name, name) == 0)
			return generic_models[i];
	return table_model_named(name);
}

const struct model *model_for_pmu(const char *pmu)
{
	size_t i;
	const char *const *p;

	for (i = 0; i < N_REGISTRY; i++)
		for (p = registry[i]->pmus; p != NULL && *p != NULL; p++)
			if (strcmp(*p, pmu) == 0)
				return hand_model(i);
	return NULL;
}

/* --- models of perf's tables (model_table.h) -------------------------- */

/* Built on first use, one per table and core type, kept for the life of
 * the process: with the hybrid models made of them (hybrid_of), the only
 * state the registry writes, under this lock. */
static pthread_mutex_t built_lock = PTHREAD_MUTEX_INITIALIZER;
static struct built {
	const struct perfdb_table *table;
	const char *unit;
	const struct model *model;   /* NULL: out of memory */
	char name[64];
} built[256];
static unsigned n_built;

/* The core types of table t: NULL for one, or "cpu_core" and "cpu_atom"
 * (its metrics say which PMU they are for). */
static unsigned table_units(const struct perfdb_table *t, const char *units[2])
{
	bool core = false, atom = false;
	unsigned i, n = 0;

	for (i = 0; i < t->n_metrics; i++) {
		core |= t->metrics[i].pmu != NULL && strcmp(t->metrics[i].pmu, "cpu_core") == 0;
		atom |= t->metrics[i].pmu != NULL && strcmp(t->metrics[i].pmu, "cpu_atom") == 0;
	}
	if (core)
		units[n++] = "cpu_core";
	if (atom)
		units[n++] = "cpu_atom";
	if (n == 0)
		units[n++] = NULL;
	return n;
}

void model_table_name(const struct perfdb_table *t, const char *unit, char *buf, size_t len)
{
	const char *slash = strrchr(t->name, '/');

	snprintf(buf, len, "%s%s%s", slash ? slash + 1 : t->name, unit ? "_" : "",
		 unit ? unit : "");
}

const struct model *model_for_table(const struct perfdb_table *t, const char *unit)
{
	const struct model *m = NULL;
	unsigned i;

	pthread_mutex_lock(&built_lock);
	for (i = 0; i < n_built; i++)
		if (built[i].table == t && (built[i].unit == unit ||
					    (built[i].unit && unit && !strcmp(built[i].unit, unit)))) {
			m = built[i].model;
			goto out;
		}
	if (n_built == sizeof(built) / sizeof(built[0]))
		goto out;
	model_table_name(t, unit, built[n_built].name, sizeof(built[n_built].name));
	m = model_table_build(t, unit, built[n_built].name);
	/* No Top-Down, frontend or FLOPS family in perf's table (Clearwater
	 * Forest's has power and SMI metrics only): the generic model's
	 * groups, with whatever of perf's metrics those allow, under the
	 * table's name. */
	if (m == NULL && perf_set_get(t, unit) != NULL && perf_set_count(perf_set_get(t, unit)) > 0)
		m = model_perf_attach(&model_hw_generic, perf_set_get(t, unit), built[n_built].name);
	built[n_built].table = t;
	built[n_built].unit = unit;
	built[n_built].model = m;
	n_built++;
out:
	pthread_mutex_unlock(&built_lock);
	return m;
}

/* The hybrid model of table t (two core types), built on first use. */
static const struct model *hybrid_of(const struct perfdb_table *t, const char *units[2])
{
	static struct { const struct perfdb_table *table; const struct model *model; } made[16];
	static unsigned n_made;
	const struct model *parts[2], *m = NULL;
	char name[64];
	unsigned i;

	parts[0] = model_for_table(t, units[0]);
	parts[1] = model_for_table(t, units[1]);
	if (parts[0] == NULL || parts[1] == NULL)
		return NULL;
	pthread_mutex_lock(&built_lock);
	for (i = 0; i < n_made; i++)
		if (made[i].table == t) {
			m = made[i].model;
			goto out;
		}
	model_table_name(t, NULL, name, sizeof(name));
	m = model_hybrid_build(name, parts, units, 2);
	if (n_made < sizeof(made) / sizeof(made[0])) {
		made[n_made].table = t;
		made[n_made++].model = m;
	}
out:
	pthread_mutex_unlock(&built_lock);
	return m;
}

const struct model *model_for_hybrid_table(const struct perfdb_table *t)
{
	const char *units[2];

	return table_units(t, units) == 2 ? hybrid_of(t, units) : NULL;
}

/* A table model by its name ("graniterapids", "alderlake_cpu_atom"; a
 * hybrid table's name alone, "alderlake", is both core types). */
static const struct model *table_model_named(const char *name)
{
	unsigned t, u;

	for (t = 0; t < perfdb_n_tables; t++) {
		const char *units[2];
		unsigned n = table_units(&perfdb_tables[t], units);

		if (n == 2) {
			char whole[64];

			model_table_name(&perfdb_tables[t], NULL, whole, sizeof(whole));
			if (strcmp(whole, name) == 0)
				return hybrid_of(&perfdb_tables[t], units);
		}
		for (u = 0; u < n; u++) {
			char want[64];

			model_table_name(&perfdb_tables[t], units[u], want, sizeof(want));
			if (strcmp(want, name) == 0)
				return model_for_table(&perfdb_tables[t], units[u]);
		}
	}
	return NULL;
}

size_t model_tables_all(const struct model **out, size_t max)
{
	unsigned t, u;
	size_t k = 0;

	for (t = 0; t < perfdb_n_tables; t++) {
		const char *units[2];
		unsigned n = table_units(&perfdb_tables[t], units);

		for (u = 0; u < n; u++) {
			const struct model *m = model_for_table(&perfdb_tables[t], units[u]);

			if (m != NULL && k < max)
				out[k++] = m;
		}
	}
	return k;
}

unsigned model_table_core_types(const struct perfdb_table *t, const char *units[2])
{
	return table_units(t, units);
}
