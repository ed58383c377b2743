/*
 * perfdb_encode.c - perf table events as raw config bits, from the kernel's
 * format attributes (the sysfs format/ files perf itself encodes with).
 *
 * Sources, Linux 7.2:
 *   Intel: arch/x86/events/intel/core.c, PMU_FORMAT_ATTR event "config:0-7",
 *     umask "config:8-15" (umask2_show: "config:8-15,40-47" where the CPU
 *     has umask2; the JSON's UMask bits 8-15 go to config 40-47), edge
 *     "config:18", any "config:21" (intel_arch3_formats_attr; left out
 *     where AnyThread is deprecated), inv "config:23", cmask "config:24-31",
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
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#define INTEL_MSR_OFFCORE_RSP_0	0x1a6
#define INTEL_MSR_OFFCORE_RSP_1	0x1a7
#define INTEL_MSR_PEBS_LD_LAT	0x3f6
#define INTEL_MSR_PEBS_FRONTEND	0x3f7

struct format {
	const char *term;
	const char *bits;
};

static const struct format intel_formats[] = {
	{ "event", "config:0-7" }, { "umask", "config:8-15" }, { "edge", "config:18" },
	{ "any", "config:21" }, { "inv", "config:23" }, { "cmask", "config:24-31" },
	{ "offcore_rsp", "config1:0-63" }, { "ldlat", "config1:0-15" },
	{ "frontend", "config1:0-23" }, { NULL, NULL },
};
static const char intel_umask2[] = "config:8-15,40-47";

static const struct format amd_formats[] = {
	{ "event", "config:0-7,32-35" }, { "umask", "config:8-15" }, { "edge", "config:18" },
	{ "inv", "config:23" }, { "cmask", "config:24-31" }, { NULL, NULL },
};

static const struct format arm_formats[] = {
	{ "event", "config:0-15" }, { NULL, NULL },
};

static const struct format *formats_of(unsigned vendor)
{
	switch (vendor) {
	case PERFDB_INTEL:
		return intel_formats;
	case PERFDB_AMD:
		return amd_formats;
	case PERFDB_ARM:
		return arm_formats;
	default:
		return NULL;
	}
}

const char *perfdb_format(unsigned vendor, const char *term, bool umask2)
{
	const struct format *f = formats_of(vendor);

	if (vendor == PERFDB_INTEL && umask2 && strcmp(term, "umask") == 0)
		return intel_umask2;
	for (; f != NULL && f->term != NULL; f++)
		if (strcmp(f->term, term) == 0)
			return f->bits;
	return NULL;
}

const char *const *perfdb_format_terms(unsigned vendor)
{
	static const char *const intel[] = { "event", "umask", "edge", "any", "inv", "cmask",
					     "offcore_rsp", "ldlat", "frontend", NULL };
	static const char *const amd[] = { "event", "umask", "edge", "inv", "cmask", NULL };
	static const char *const arm[] = { "event", NULL };

	return vendor == PERFDB_INTEL ? intel : vendor == PERFDB_AMD ? amd :
	       vendor == PERFDB_ARM ? arm : NULL;
}

int perfdb_format_place(const char *format, uint64_t value, uint64_t *config,
			uint64_t *config1)
{
	const char *p = strchr(format, ':');
	uint64_t *field;

	if (p == NULL)
		return -EINVAL;
	if ((size_t)(p - format) == 6 && strncmp(format, "config", 6) == 0)
		field = config;
	else if ((size_t)(p - format) == 7 && strncmp(format, "config1", 7) == 0)
		field = config1;
	else
		return -EINVAL;
	while (*p == ':' || *p == ',') {
		char *end;
		unsigned long lo, hi, bit;

		lo = strtoul(p + 1, &end, 10);
		hi = *end == '-' ? strtoul(end + 1, &end, 10) : lo;
		if (end == p + 1 || hi < lo || hi > 63)
			return -EINVAL;
		for (bit = lo; bit <= hi; bit++, value >>= 1)
			*field |= (value & 1) << bit;
		p = end;
	}
	if (*p != '\0')
		return -EINVAL;
	return value == 0 ? 0 : -ERANGE;
}

bool perfdb_table_has_umask2(const struct perfdb_table *t)
{
	unsigned i;

	for (i = 0; t->vendor == PERFDB_INTEL && i < t->n_events; i++)
		if (t->events[i].umask > 0xff)
			return true;
	return false;
}

bool perfdb_table_has_any(const struct perfdb_table *t)
{
	unsigned i;

	for (i = 0; t->vendor == PERFDB_INTEL && i < t->n_events; i++)
		if (t->events[i].any)
			return true;
	return false;
}

static int refuse(const struct perfdb_event *e, const char *why, char *err, size_t len)
{
	snprintf(err, len, "%s: %s", e->name, why);
	return -EINVAL;
}

/* Field value into the bits of term's format; a refusal names the JSON field. */
static int put(unsigned vendor, const struct perfdb_event *e, const char *term, const char *field,
	       uint64_t value, uint64_t *config, uint64_t *config1, char *err, size_t len)
{
	const char *f = perfdb_format(vendor, term, vendor == PERFDB_INTEL && e->umask > 0xff);
	int r;

	if (value == 0)
		return 0;
	if (f == NULL) {
		snprintf(err, len, "%s: %s: no '%s' format on this PMU", e->name, field, term);
		return -EINVAL;
	}
	r = perfdb_format_place(f, value, config, config1);
	if (r < 0)
		snprintf(err, len, "%s: %s 0x%llx does not fit %s's %s", e->name, field,
			 (unsigned long long)value, term, f);
	return r < 0 ? -EINVAL : 0;
}

/* The config1 term an Intel MSRIndex feeds. */
static const char *intel_msr_term(uint32_t msr)
{
	switch (msr) {
	case INTEL_MSR_OFFCORE_RSP_0:
	case INTEL_MSR_OFFCORE_RSP_1:
		return "offcore_rsp";
	case INTEL_MSR_PEBS_LD_LAT:
		return "ldlat";
	case INTEL_MSR_PEBS_FRONTEND:
		return "frontend";
	default:
		return NULL;
	}
}

/* Every JSON field through its term's format.  Arm has the event number
 * alone; AMD has neither AnyThread nor the MSR terms: put() refuses them. */
static int encode_fields(unsigned vendor, const struct perfdb_event *e, uint64_t *config,
			 uint64_t *config1, char *err, size_t len)
{
	const char *msr = e->msr_index != 0 ? intel_msr_term(e->msr_index) : NULL;
	int r;

	*config = *config1 = 0;
	if (e->msr_index != 0 && (vendor != PERFDB_INTEL || msr == NULL))
		return refuse(e, "an MSRIndex no format attribute names", err, len);
	r = put(vendor, e, "event", "EventCode", e->event_code, config, config1, err, len);
	if (r == 0)
		r = put(vendor, e, "umask", "UMask", e->umask, config, config1, err, len);
	if (r == 0)
		r = put(vendor, e, "edge", "EdgeDetect", e->edge, config, config1, err, len);
	if (r == 0)
		r = put(vendor, e, "any", "AnyThread", e->any, config, config1, err, len);
	if (r == 0)
		r = put(vendor, e, "inv", "Invert", e->inv, config, config1, err, len);
	if (r == 0)
		r = put(vendor, e, "cmask", "CounterMask", e->cmask, config, config1, err, len);
	if (r == 0 && msr != NULL)
		r = put(vendor, e, msr, "MSRValue", e->msr_value, config, config1, err, len);
	return r;
}

int perfdb_encode(const struct perfdb_table *t, const struct perfdb_event *e,
		  uint64_t *config, uint64_t *config1, char *err, size_t len)
{
	uint64_t c, c1;
	int r;

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
	if (formats_of(t->vendor) == NULL)
		return refuse(e, "unknown vendor", err, len);
	r = encode_fields(t->vendor, e, &c, &c1, err, len);
	if (r < 0)
		return r;
	*config = c;
	*config1 = c1;
	return 0;
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
