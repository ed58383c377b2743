/*
 * model_cpu.c - see model_cpu.h.
 */
#include "lib/model/model_cpu.h"
#include "lib/model/model_hand_tables.h"
#include "lib/model/model_table.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

static bool pmu_served(const struct model *m, const char *pfm_pmu)
{
	const char *const *p;

	for (p = m->pmus; pfm_pmu != NULL && p != NULL && *p != NULL; p++)
		if (strcmp(*p, pfm_pmu) == 0)
			return true;
	return false;
}

/* Our model of the CPU, where we wrote one (model_hand_tables.h): it
 * reads its events through libpfm4's table of that CPU, so it is chosen
 * where libpfm4 knows the host, or for a --cpuid. */
static const struct model *hand_model(const struct perfdb_table *t, const struct host_cpu *c,
				      const char *pfm_pmu)
{
	const struct hand_table *rows;
	size_t i, n;

	rows = model_hand_tables(&n);
	for (i = 0; i < n; i++) {
		const struct hand_table *h = &rows[i];

		if (strcmp(h->table, t->name) != 0)
			continue;
		if (h->midr != NULL && !host_cpu_id_matches(h->midr, c->cpuid))
			continue;
		if (c->hypothetical || pmu_served(h->model, pfm_pmu))
			return model_find(h->model->name);  /* with perf's metrics */
	}
	return NULL;
}

/* A CPU with a PMU but no table of perf's: what the architecture defines. */
const struct model *model_generic_for(const struct host_cpu *c)
{
	unsigned i;

	/* Intel's perf metrics are architectural where the kernel shows them;
	 * the stalled-cycles events are not on every CPU (AMD from Zen 2 has
	 * no backend one: arch/x86/events/amd/core.c), so generic_stalls is
	 * chosen only by name. */
	for (i = 0; i < c->n_pmus; i++)
		if (c->pmus[i].perf_metrics && strcmp(c->pmus[i].name, "cpu") == 0)
			return model_find("generic_td");
	return model_find("generic");
}

/* CPUs perf's map leaves out whose table is another id's, with the
 * evidence.  Neoverse V3 (part 0xd84): perf 7.2's mapfile.csv gives its
 * directory arm/neoverse-v3 to part 0xd83 only, which the kernel names
 * Neoverse V3AE (arch/arm64/include/asm/cputype.h); the kernel treats the
 * two as one core, applying each erratum workaround to both
 * (arch/arm64/kernel/cpu_errata.c), so V3 takes that table too. */
static const struct {
	const char *cpuid, *as;
} map_aliases[] = {
	{ "0x00000000410fd840", "0x00000000410fd830" },
};

static const struct perfdb_map *match(const struct host_cpu *c, bool *aliased)
{
	const struct perfdb_map *map = host_cpu_match(c);
	size_t i;

	*aliased = false;
	for (i = 0; map == NULL && i < sizeof(map_aliases) / sizeof(map_aliases[0]); i++)
		if (host_cpu_id_matches(map_aliases[i].cpuid, c->cpuid)) {
			map = host_cpu_match_id_in(perfdb_maps, perfdb_n_maps, map_aliases[i].as);
			*aliased = map != NULL;
		}
	return map;
}

int model_for_cpu(const struct host_cpu *c, const char *pfm_pmu, const struct model **ret,
		     const struct model *models[2], const char *units[2], unsigned *n_types,
		     char *why, size_t len)
{
	bool aliased;
	const struct perfdb_map *map = match(c, &aliased);
	const struct perfdb_table *t = map ? &perfdb_tables[map->table] : NULL;
	const struct model *m = NULL;
	unsigned n = 1, i;

	units[0] = units[1] = NULL;
	if (t != NULL && (m = hand_model(t, c, pfm_pmu)) != NULL) {
		snprintf(why, len, "CPU %s: perf's table %s; stackd's own model %s, with perf's "
			 "metrics", c->cpuid, t->name, m->name);
	} else if (t != NULL) {
		n = model_table_core_types(t, units);
		for (i = 0; i < n; i++)
			models[i] = model_for_table(t, units[i]);
		m = models[0];
		if (m != NULL)
			snprintf(why, len, "CPU %s: perf's table %s (Linux %s)%s%s", c->cpuid,
				 t->name, perfdb_source.linux_version,
				 aliased ? ", which perf maps to a sibling core only" : "",
				 n > 1 ? ", one model per core type" : "");
	}
	if (m == NULL) {
		m = model_generic_for(c);
		n = 1;
		if (t != NULL)
			snprintf(why, len, "CPU %s: generic hardware model %s: perf's table %s "
				 "(Linux %s) has no Top-Down, frontend or FLOPS metric", c->cpuid,
				 m ? m->name : "?", t->name, perfdb_source.linux_version);
		else
			snprintf(why, len, "CPU %s: generic hardware model %s: this CPU has no "
				 "table in Linux perf %s", c->cpuid, m ? m->name : "?",
				 perfdb_source.linux_version);
	}
	if (m == NULL)
		return -ENOENT;
	if (n == 1)
		models[0] = m;
	else if (model_for_hybrid_table(t) != NULL)
		m = model_for_hybrid_table(t);   /* both core types, each on its PMU */
	*n_types = n;
	*ret = m;
	return 0;
}

