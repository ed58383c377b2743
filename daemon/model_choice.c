/*
 * model_choice.c - see model_choice.h.
 */
#include "daemon/model_choice.h"
#include "daemon/collect/collector.h"
#include "daemon/collect/event_encode.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

int model_choose(const char *name, const struct model **ret, char *why, size_t len)
{
	char hw[256];
	const char *pmu;

	if (strcmp(name, "auto") != 0) {
		*ret = model_find(name);
		if (*ret == NULL) {
			snprintf(why, len, "unknown model '%s'", name);
			return -ENOENT;
		}
		snprintf(why, len, "model '%s' (from the configuration)", name);
		return 0;
	}
	pmu = event_encode_host_pmu();
	if (collector_probe_hardware(hw, sizeof(hw)) < 0) {
		snprintf(why, len, "no usable hardware PMU here (%s; libpfm4 sees %s): "
			 "using the software model", hw, pmu ? pmu : "no core PMU");
	} else if (pmu != NULL && model_for_pmu(pmu) != NULL) {
		*ret = model_for_pmu(pmu);
		snprintf(why, len, "hardware PMU '%s'", pmu);
		return 0;
	} else {
		snprintf(why, len, "hardware PMU '%s' has no model in this stackd: "
			 "using the software model", pmu ? pmu : "unknown");
	}
	*ret = &model_software;
	return 0;
}

