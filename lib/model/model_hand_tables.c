/*
 * model_hand_tables.c - see model_hand_tables.h.
 */
#include "lib/model/model_hand_tables.h"
#include "lib/model/model_perf.h"

#include <string.h>

/* Each hand model reads its events through libpfm4's table of the same CPU
 * (its `pmus`); the perf tables by perf's mapfile.csv. */
static const struct hand_table rows[] = {
	{ "skylake", NULL, &model_skl },
	{ "skylakex", NULL, &model_skx },
	{ "icelake", NULL, &model_icl },
	{ "icelakex", NULL, &model_icx },
	{ "sapphirerapids", NULL, &model_spr },
	{ "amdzen4", NULL, &model_zen4 },
	{ "amdzen3", NULL, &model_zen3 },
	{ "amdzen2", NULL, &model_zen2 },
	{ "arm/neoverse-n1", NULL, &model_arm_n1 },
	{ "arm/neoverse-n2-v2", "0x00000000410fd490", &model_arm_n2 },
	{ "arm/neoverse-n2-v2", "0x00000000410fd4f0", &model_arm_v2 },
	{ "arm/neoverse-v1", NULL, &model_arm_v1 },
};

const struct hand_table *model_hand_tables(size_t *n)
{
	*n = sizeof(rows) / sizeof(rows[0]);
	return rows;
}

const struct perfdb_table *perfdb_table_named(const char *name)
{
	unsigned i;

	for (i = 0; i < perfdb_n_tables; i++)
		if (strcmp(perfdb_tables[i].name, name) == 0)
			return &perfdb_tables[i];
	return NULL;
}

const struct perfdb_table *model_perf_table(const struct model *m)
{
	const struct perf_set *s = model_perf_set(m);
	size_t i;

	if (s != NULL)
		return perf_set_table(s);
	for (i = 0; i < sizeof(rows) / sizeof(rows[0]); i++)
		if (rows[i].model == m)
			return perfdb_table_named(rows[i].table);
	return NULL;
}
