/*
 * perfdb_encode.c - perf table events as raw config bits, from the kernel's
 * format attributes (the sysfs format/ files perf itself encodes with).
 *
 * Sources, Linux 7.2:
 *   Intel: arch/x86/events/intel/core.c, PMU_FORMAT_ATTR event "config:0-7",
 *     umask "config:8-15" (umask2_show: "config:8-15,40-47" where the CPU
 *     has umask2; the JSON's UMask bits 8-15 go to config 40-47), edge
 *     "config:18", any "config:21", inv "config:23", cmask "config:24-31",
 *     offcore_rsp "config1:0-63", ldlat "config1:0-15", frontend
 *     "config1:0-23".  Which MSR a JSON MSRIndex stands for:
 *     tools/perf/pmu-events/jevents.py lookup_msr() (0x1a6 and 0x1a7
 *     offcore_rsp, 0x3f6 ldlat, 0x3f7 frontend).
 *   AMD: arch/x86/events/amd/core.c, PMU_FORMAT_ATTR event "config:0-7,32-35",
 *     umask "config:8-15", edge "config:18", inv "config:23", cmask
 *     "config:24-31" (no any, no config1).
 *   Arm: drivers/perf/arm_pmuv3.c, ATTR_CFG_FLD_event "config" bits 0-15
 *     (the rest of the JSON's fields do not exist there).
 */
#include "tests/sim/perfdb_encode.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#define INTEL_MSR_OFFCORE_RSP_0	0x1a6
#define INTEL_MSR_OFFCORE_RSP_1	0x1a7
#define INTEL_MSR_PEBS_LD_LAT	0x3f6
#define INTEL_MSR_PEBS_FRONTEND	0x3f7

static int refuse(const struct perfdb_event *e, const char *why, char *err, size_t len)
{
	snprintf(err, len, "%s: %s", e->name, why);
	return -EINVAL;
}

/* The config1 field an Intel MSRIndex feeds, checked against its width. */
static int intel_config1(const struct perfdb_event *e, uint64_t *config1, char *err,
			 size_t len)
{
	uint64_t max;

	switch (e->msr_index) {
	case 0:
		*config1 = 0;
		return 0;
	case INTEL_MSR_OFFCORE_RSP_0:
	case INTEL_MSR_OFFCORE_RSP_1:
		max = UINT64_MAX;       /* offcore_rsp: config1:0-63 */
		break;
	case INTEL_MSR_PEBS_LD_LAT:
		max = 0xffff;           /* ldlat: config1:0-15 */
		break;
	case INTEL_MSR_PEBS_FRONTEND:
		max = 0xffffff;         /* frontend: config1:0-23 */
		break;
	default:
		return refuse(e, "an MSRIndex no format attribute names", err, len);
	}
	if (e->msr_value > max)
		return refuse(e, "MSRValue wider than its format field", err, len);
	*config1 = e->msr_value;
	return 0;
}

static int encode_intel(const struct perfdb_event *e, uint64_t *config, uint64_t *config1,
			char *err, size_t len)
{
	uint64_t c;

	if (e->event_code > 0xff)
		return refuse(e, "EventCode wider than config:0-7", err, len);
	c = e->event_code;
	c |= (uint64_t)(e->umask & 0xff) << 8;
	c |= (uint64_t)(e->umask >> 8) << 40;       /* umask2 */
	c |= (uint64_t)(e->edge & 1) << 18;
	c |= (uint64_t)(e->any & 1) << 21;
	c |= (uint64_t)(e->inv & 1) << 23;
	c |= (uint64_t)e->cmask << 24;
	*config = c;
	return intel_config1(e, config1, err, len);
}

static int encode_amd(const struct perfdb_event *e, uint64_t *config, uint64_t *config1,
		      char *err, size_t len)
{
	uint64_t c;

	if (e->event_code > 0xfff)
		return refuse(e, "EventCode wider than config:0-7,32-35", err, len);
	if (e->umask > 0xff)
		return refuse(e, "UMask wider than config:8-15", err, len);
	if (e->any || e->msr_index)
		return refuse(e, "AnyThread or MSRIndex: no such AMD format", err, len);
	c = e->event_code & 0xff;
	c |= (uint64_t)(e->event_code >> 8) << 32;
	c |= (uint64_t)e->umask << 8;
	c |= (uint64_t)(e->edge & 1) << 18;
	c |= (uint64_t)(e->inv & 1) << 23;
	c |= (uint64_t)e->cmask << 24;
	*config = c;
	*config1 = 0;
	return 0;
}

static int encode_arm(const struct perfdb_event *e, uint64_t *config, uint64_t *config1,
		      char *err, size_t len)
{
	if (e->umask || e->cmask || e->inv || e->edge || e->any || e->msr_index)
		return refuse(e, "a field arm_pmuv3 has no format for", err, len);
	*config = e->event_code;
	*config1 = 0;
	return 0;
}

int perfdb_encode(const struct perfdb_table *t, const struct perfdb_event *e,
		  uint64_t *config, uint64_t *config1, char *err, size_t len)
{
	switch (e->kind) {
	case PERFDB_EV_RAW:
	case PERFDB_EV_FIXED:
	case PERFDB_EV_PERF_METRICS:
		break;
	case PERFDB_EV_GENERIC:
		return refuse(e, "a generic or named event: open it by name", err, len);
	case PERFDB_EV_RETIRE_LATENCY:
		return refuse(e, "a retirement latency, not a counter", err, len);
	default:
		return refuse(e, "unknown kind", err, len);
	}
	switch (t->vendor) {
	case PERFDB_INTEL:
		return encode_intel(e, config, config1, err, len);
	case PERFDB_AMD:
		return encode_amd(e, config, config1, err, len);
	case PERFDB_ARM:
		return encode_arm(e, config, config1, err, len);
	default:
		return refuse(e, "unknown vendor", err, len);
	}
}

int perfdb_find_event(const struct perfdb_table *t, const char *name, const char *pmu)
{
	unsigned i;

	for (i = 0; i < t->n_events; i++) {
		const struct perfdb_event *e = &t->events[i];

		if (strcasecmp(e->name, name) != 0)
			continue;
		if (pmu == NULL ? e->pmu == NULL : e->pmu != NULL && strcmp(e->pmu, pmu) == 0)
			return (int)i;
	}
	return -1;
}

const struct perfdb_table *perfdb_table_by_name(const char *name)
{
	unsigned i;

	for (i = 0; i < perfdb_n_tables; i++)
		if (strcmp(perfdb_tables[i].name, name) == 0)
			return &perfdb_tables[i];
	return NULL;
}
