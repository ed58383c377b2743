/*
 * models.c - the registry: the list of models, and finding one by name,
 * PMU or metric.  On top of the model files (it names each model); what a
 * single model's tables say is in model_lookup.c, below them.
 */
#include "lib/model/model.h"

#include <string.h>

static const struct model *const registry[] = {
	&model_skl, &model_skx, &model_icl, &model_icx, &model_spr,
	&model_zen4, &model_zen3, &model_zen2,
	&model_arm_n2, &model_arm_v1, &model_arm_v2, &model_arm_n1, &model_software,
};

const struct model *const *model_all(size_t *n)
{
	*n = sizeof(registry) / sizeof(registry[0]);
	return registry;
}

const struct model *model_with_metric(const char *metric_name)
{
	size_t i;

	for (i = 0; i < sizeof(registry) / sizeof(registry[0]); i++)
		if (model_metric_index(registry[i], metric_name) >= 0)
			return registry[i];
	return NULL;
}

const struct model *model_find(const char *name)
{
	size_t i;

	for (i = 0; i < sizeof(registry) / sizeof(registry[0]); i++)
		if (strcmp(registry[i]->name, name) == 0)
			return registry[i];
	return NULL;
}

const struct model *model_for_pmu(const char *pmu)
{
	size_t i;
	const char *const *p;

	for (i = 0; i < sizeof(registry) / sizeof(registry[0]); i++)
		for (p = registry[i]->pmus; p != NULL && *p != NULL; p++)
			if (strcmp(*p, pmu) == 0)
				return registry[i];
	return NULL;
}
