/*
 * model_choice.c - see model_choice.h.
 */
#include "daemon/model_choice.h"
#include "daemon/collect/collector.h"
#include "daemon/collect/event_encode.h"
#include "daemon/collect/sysfs_event.h"
#include "lib/model/model_cpu.h"
#include "daemon/plan/host_cpu_read.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Whether m names a PMU event or term this kernel's sysfs does not have
 * (an older kernel than the CPU: no topdown-* events, no "frontend" or
 * umask2 format): opening it would stop the daemon, so the CPU's generic
 * model counts instead.  what: the event and the reason. */
static bool unopenable(const struct model *m, char *what, size_t len)
{
	unsigned g, e;

	for (g = 0; g < m->n_groups; g++)
		for (e = 0; e < m->groups[g].n_events; e++) {
			const char *spec = m->groups[g].events[e].name;
			struct perf_event_attr a;

			memset(&a, 0, sizeof(a));
			if (sysfs_event_is_spec(spec) &&
			    sysfs_event_resolve(SYSFS_EVENT_ROOT, spec, &a, what, len) < 0)
				return true;
		}
	return false;
}

int model_choose(const char *name, const struct model **ret, char *why, size_t len)
{
	const struct model *models[2];
	const char *units[2];
	struct host_cpu c;
	char hw[256], err[256];
	unsigned n;

	if (strcmp(name, "auto") != 0) {
		*ret = model_find(name);
		if (*ret == NULL) {
			snprintf(why, len, "unknown model '%s'", name);
			return -ENOENT;
		}
		snprintf(why, len, "model '%s' (from the configuration)", name);
		return 0;
	}
	*ret = &model_software;
	if (host_cpu_read("/", &c, err, sizeof(err)) < 0) {
		snprintf(why, len, "cannot tell this CPU (%s): using the software model", err);
		return 0;
	}
	if (!c.has_core_pmu || collector_probe_hardware(hw, sizeof(hw)) < 0) {
		snprintf(why, len, "no usable hardware PMU here (%s): using the software model",
			 c.has_core_pmu ? hw : "no core PMU in /sys/bus/event_source/devices");
		return 0;
	}
	if (model_for_cpu(&c, event_encode_host_pmu(), ret, models, units, &n, why, len) < 0)
		return 0;
	if (n > 1 && unopenable(*ret, err, sizeof(err))) {
		/* A kernel without one core type's events: what every core
		 * type counts alike (generic events) rather than nothing. */
		*ret = model_find("generic");
		snprintf(why + strlen(why), len - strlen(why), "; but this kernel cannot open %s: "
			 "the generic model on every core instead", err);
	} else if (n > 1) {
		snprintf(why + strlen(why), len - strlen(why), "; a hybrid CPU: model %s counts "
			 "each core type's groups on its own CPUs", (*ret)->name);
	} else if (unopenable(*ret, err, sizeof(err))) {
		*ret = model_generic_for(&c);
		snprintf(why + strlen(why), len - strlen(why), "; but this kernel cannot open %s: "
			 "the generic model %s instead", err, (*ret)->name);
	}
	return 0;
}

unsigned model_choice_host_facts(char *cpuid, size_t len)
{
	struct host_cpu c;
	char err[256];

	cpuid[0] = '\0';
	if (host_cpu_read("/", &c, err, sizeof(err)) < 0)
		return 0;
	snprintf(cpuid, len, "%s", c.cpuid);
	return c.n_pmus > 0 ? c.pmus[0].slots : 0;
}
