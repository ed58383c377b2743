/*
 * model_table_event.c - see model_table_event.h.
 */
#include "lib/model/model_table_event.h"
#include "lib/perfdb/perf_set.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

/* The kernel's sysfs terms for Intel's extra registers, by MSR (the
 * format attributes of arch/x86/events/intel/core.c: offcore_rsp for the
 * OFFCORE_RSP_0/1 MSRs 0x1a6/0x1a7, ldlat for PEBS_LD_LAT 0x3f6, frontend
 * for the frontend MSR 0x3f7). */
static const char *msr_term(uint32_t msr)
{
	switch (msr) {
	case 0x1a6:
	case 0x1a7:
		return "offcore_rsp";
	case 0x3f6:
		return "ldlat";
	case 0x3f7:
		return "frontend";
	default:
		return NULL;
	}
}

static void make_column(const char *perf_name, char *buf, size_t len)
{
	size_t i, o = 0;
	const char *p = perf_name;
	const char *slash = strchr(p, '/');

	if (slash != NULL && strchr(slash + 1, '=') == NULL)
		p = slash + 1;  /* "cpu_core/X/": X */
	for (i = 0; p[i] != '\0' && o + 1 < len; i++) {
		unsigned char c = (unsigned char)p[i];

		if (isalnum(c))
			buf[o++] = (char)tolower(c);
		else if (o > 0 && buf[o - 1] != '_')
			buf[o++] = '_';
	}
	while (o > 0 && buf[o - 1] == '_')
		o--;
	buf[o] = '\0';
}

static const char *pmu_of(const struct perfdb_table *t, const char *unit)
{
	return unit != NULL ? unit : t->vendor == PERFDB_ARM ? NULL : "cpu";
}

/* The collector's spelling of a raw event: perf's terms, placed by the
 * kernel's own format files (daemon/collect/sysfs_event.c). */
static int raw_spec(const struct perfdb_table *t, const char *unit, const struct perfdb_event *e,
		    char *buf, size_t len)
{
	const char *pmu = pmu_of(t, unit), *msr = msr_term(e->msr_index);
	size_t n;

	if (t->vendor == PERFDB_ARM) {
		snprintf(buf, len, "r%x", e->event_code);
		return 0;
	}
	if (e->msr_index != 0 && msr == NULL)
		return -ENOENT;
	n = (size_t)snprintf(buf, len, "%s/event=0x%x,umask=0x%x", pmu, e->event_code, e->umask);
	if (e->cmask && n < len)
		n += (size_t)snprintf(buf + n, len - n, ",cmask=0x%x", e->cmask);
	if (e->inv && n < len)
		n += (size_t)snprintf(buf + n, len - n, ",inv=1");
	if (e->edge && n < len)
		n += (size_t)snprintf(buf + n, len - n, ",edge=1");
	if (e->any && n < len)
		n += (size_t)snprintf(buf + n, len - n, ",any=1");
	if (msr != NULL && n < len)
		n += (size_t)snprintf(buf + n, len - n, ",%s=0x%llx", msr,
				      (unsigned long long)e->msr_value);
	if (n + 2 > len)
		return -ENOSPC;
	snprintf(buf + n, len - n, "/");
	return 0;
}

static int event_spec(const struct perfdb_table *t, const char *unit, const struct perfdb_event *e,
		      char *buf, size_t len)
{
	const char *pmu = pmu_of(t, unit), *colon;

	/* A modifier (":u", ":k") changes what is counted; the collector
	 * counts user and kernel alike, so such a metric is not offered. */
	colon = strchr(e->name, ':');
	if (colon != NULL || (strchr(e->name, '/') != NULL && e->name[strlen(e->name) - 1] != '/'))
		return -ENOENT;  /* "cpu_core/EV/u": the same, perf's other spelling */
	switch (e->kind) {
	case PERFDB_EV_RAW:
		return raw_spec(t, unit, e, buf, len);
	case PERFDB_EV_FIXED:
		snprintf(buf, len, "%s/event=0x%x,umask=0x%x/", pmu, e->event_code, e->umask);
		return 0;
	case PERFDB_EV_PERF_METRICS:
	case PERFDB_EV_GENERIC: {
		const char *slash = strchr(e->name, '/');
		char bare[128];

		if (pmu == NULL)
			return -ENOENT;
		snprintf(bare, sizeof(bare), "%s", slash ? slash + 1 : e->name);
		bare[strcspn(bare, "/")] = '\0';
		snprintf(buf, len, "%s/%s/", pmu, bare);
		return 0;
	}
	default:
		return -ENOENT;
	}
}

static void put(struct tevent_list *l, const char *spec, const char *column,
		const char *perf_name, bool fixed)
{
	struct tevent *e = &l->ev[l->n++];

	memset(e, 0, sizeof(*e));
	snprintf(e->spec, sizeof(e->spec), "%s", spec);
	snprintf(e->column, sizeof(e->column), "%s", column);
	snprintf(e->perf_name, sizeof(e->perf_name), "%s", perf_name);
	e->fixed = fixed;
	e->when = 3;
}

void tevent_list_init(struct tevent_list *l, const struct perfdb_table *t, const char *unit)
{
	bool intel = t->vendor == PERFDB_INTEL;
	unsigned i;

	memset(l, 0, sizeof(*l));
	for (i = 0; intel && i < t->n_events; i++)
		if (perf_event_same(t->events[i].name, "slots") &&
		    (unit == NULL || (t->events[i].pmu && !strcmp(t->events[i].pmu, unit)))) {
			char spec[64];

			snprintf(spec, sizeof(spec), "%s/slots/", pmu_of(t, unit));
			put(l, spec, "slots", "slots", true);
			l->leads = true;
			break;
		}
	/* Intel: fixed counters 1 and 0; Arm: the cycle counter.  On a hybrid
	 * every member must be of the core type's own PMU: a generic hardware
	 * event would land on another (the kernel's perf_init_event); the
	 * codes the kernel places on those fixed counters, 0x3c and 0xc0
	 * (intel_perfmon_event_map), under that PMU's name. */
	if (unit != NULL && intel) {
		char cyc[64], ins[64];

		snprintf(cyc, sizeof(cyc), "%s/event=0x3c,umask=0x0/", unit);
		snprintf(ins, sizeof(ins), "%s/event=0xc0,umask=0x0/", unit);
		put(l, cyc, "cycles", "cycles", true);
		put(l, ins, "instructions", "instructions", true);
	} else {
		put(l, "perf::CYCLES", "cycles", "cycles", t->vendor != PERFDB_AMD);
		put(l, "perf::INSTRUCTIONS", "instructions", "instructions", intel);
	}
	l->n_base = l->n;
}

int tevent_add(struct tevent_list *l, const struct perfdb_table *t, const char *unit,
	       const char *name, unsigned when)
{
	const struct perfdb_event *e = NULL;
	struct tevent *te;
	unsigned i;

	/* perf's tool event: the recording's seconds, never a counter (the
	 * formula finds it missing in the daemon, present in a recording) */
	if (strcmp(name, "duration_time") == 0)
		return 0;
	for (i = 0; i < l->n; i++)
		if (perf_event_same(name, l->ev[i].perf_name)) {
			l->ev[i].when |= when;
			return 0;
		}
	for (i = 0; i < t->n_events && e == NULL; i++)
		if (strcasecmp(t->events[i].name, name) == 0)
			e = &t->events[i];
	if (e == NULL)
		return -ENOENT;
	if (l->n == MODEL_MAX_EVENTS + 1)
		return -E2BIG;
	te = &l->ev[l->n];
	memset(te, 0, sizeof(*te));
	if (event_spec(t, unit, e, te->spec, sizeof(te->spec)) < 0)
		return -ENOENT;
	make_column(e->name, te->column, sizeof(te->column));
	snprintf(te->perf_name, sizeof(te->perf_name), "%s", e->name);
	te->fixed = e->kind == PERFDB_EV_FIXED || e->kind == PERFDB_EV_PERF_METRICS;
	/* the kernel pairs AMD's large-increment event 0x003 (amd/core.c,
	 * amd_is_pair_event_code) */
	te->paired = t->vendor == PERFDB_AMD && e->event_code == 0x003;
	te->counters = e->counters;
	te->when = when;
	l->n++;
	return 0;
}
