/*
 * perfstat_parts.c - a hybrid recording's core PMUs and each one's part
 * (perfstat.h), and the SMT state a recording's events imply.
 */
#include "cli/perfstat.h"
#include "cli/event_id.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

/* The core PMU prefix of a spelling ("cpu_core" of "cpu_core/cycles/"). */
static size_t core_prefix(const char *s)
{
	size_t n = strcspn(s, "/");

	return strncmp(s, "cpu_", 4) == 0 && s[n] == '/' ? n : 0;
}

unsigned perfstat_core_pmus(const struct ps_recording *rec, char (*pmus)[16], unsigned max)
{
	unsigned n = 0, k;
	size_t i;

	for (i = 0; i < rec->n_names + rec->n_printed; i++) {
		char pmu[16];

		if (i < rec->n_names) {
			size_t len = core_prefix(rec->names[i].spelling);
			snprintf(pmu, sizeof(pmu), "%.*s", (int)len, rec->names[i].spelling);
		} else {
			snprintf(pmu, sizeof(pmu), "%s", rec->printed[i - rec->n_names].pmu);
		}
		if (pmu[0] == '\0')
			continue;
		for (k = 0; k < n && strcmp(pmus[k], pmu) != 0; k++)
			;
		if (k == n && n < max)
			snprintf(pmus[n++], sizeof(pmus[0]), "%s", pmu);
	}
	return n;
}

/* "cpu_core/slots:u/" and "cpu_core/cycles/u" as the plain core PMU's
 * "cpu/slots/u", "cpu/cycles/u" (perf 6.1-6.2 put the modifier inside). */
static void strip_pmu(const char *spelling, size_t prefix, char *out, size_t len)
{
	const char *inside = spelling + prefix + 1;
	const char *colon = strchr(inside, ':');
	size_t n = strcspn(inside, "/");

	if (colon != NULL && colon < inside + n)
		snprintf(out, len, "cpu/%.*s/%.*s", (int)(colon - inside), inside,
			 (int)(inside + n - colon - 1), colon + 1);
	else
		snprintf(out, len, "cpu/%s", inside);
}

/* sub's names: rec's, one for one; pmu's without the prefix, other core
 * PMUs' kept apart under a key nothing matches. */
static int part_names(const struct ps_recording *rec, const char *pmu, struct ps_recording *sub)
{
	size_t i;

	sub->names = calloc(rec->n_names + 1, sizeof(*sub->names));
	if (sub->names == NULL)
		return -ENOMEM;
	sub->n_names = sub->cap_names = rec->n_names;
	for (i = 0; i < rec->n_names; i++) {
		struct ps_name *nm = &sub->names[i];
		size_t n = core_prefix(rec->names[i].spelling);

		*nm = rec->names[i];
		if (n == 0)
			continue;
		if (strlen(pmu) != n || strncmp(rec->names[i].spelling, pmu, n) != 0) {
			snprintf(nm->key, sizeof(nm->key), " other pmu");
			continue;
		}
		strip_pmu(rec->names[i].spelling, n, nm->spelling, sizeof(nm->spelling));
		event_id_normalise(nm->spelling, nm->key, sizeof(nm->key));
	}
	return 0;
}

int perfstat_pmu_part(const struct ps_recording *rec, const char *pmu, struct ps_recording *sub)
{
	size_t i, k;

	memset(sub, 0, sizeof(*sub));
	sub->interval_mode = rec->interval_mode;
	sub->elapsed = rec->elapsed;
	memcpy(sub->modifiers, rec->modifiers, sizeof(sub->modifiers));
	sub->n_modifiers = rec->n_modifiers;
	memcpy(sub->cpuid, rec->cpuid, sizeof(sub->cpuid));
	sub->iv = calloc(rec->n + 1, sizeof(*sub->iv));
	sub->printed = calloc(rec->n_printed + 1, sizeof(*sub->printed));
	if (sub->iv == NULL || sub->printed == NULL || part_names(rec, pmu, sub) < 0)
		goto oom;
	sub->n = sub->cap = rec->n;
	for (i = 0; i < rec->n; i++) {
		const struct ps_interval *iv = &rec->iv[i];

		sub->iv[i].time = iv->time;
		sub->iv[i].counts = calloc(iv->n + 1, sizeof(*iv->counts));
		if (sub->iv[i].counts == NULL)
			goto oom;
		for (k = 0; k < iv->n; k++)
			if (strcmp(sub->names[iv->counts[k].name].key, " other pmu") != 0)
				sub->iv[i].counts[sub->iv[i].n++] = iv->counts[k];
		sub->iv[i].cap = iv->n + 1;
	}
	for (i = 0; i < rec->n_printed; i++)
		if (rec->printed[i].pmu[0] == '\0' || strcmp(rec->printed[i].pmu, pmu) == 0)
			sub->printed[sub->n_printed++] = rec->printed[i];
	sub->cap_printed = rec->n_printed + 1;
	return 0;
oom:
	perfstat_free(sub);
	return -ENOMEM;
}

/* Intel's events that count both threads of a core, which perf's metrics
 * read only when #SMT_on (skylake/skl-metrics.json: CPU_CLK_UNHALTED.
 * THREAD_ANY, INT_MISC.RECOVERY_CYCLES_ANY; later cores'
 * CPU_CLK_UNHALTED.ONE_THREAD_ACTIVE, .REF_XCLK_ANY), and the any=1 term
 * (AnyThread).  AMD's "_any" events (ic_stall_any) are another thing. */
static bool counts_both_threads(const char *key)
{
	static const char *const ends[] = { ".thread_any", ".recovery_cycles_any",
		".ref_xclk_any", ".one_thread_active" };
	size_t n = strlen(key), i;

	if (strstr(key, "any=1") != NULL)
		return true;
	for (i = 0; i < sizeof(ends) / sizeof(ends[0]); i++) {
		size_t e = strlen(ends[i]);

		if (n >= e && strcmp(key + n - e, ends[i]) == 0)
			return true;
	}
	return false;
}

bool perfstat_smt_evidence(const struct ps_recording *rec, char *which, size_t len)
{
	size_t i;

	for (i = 0; i < rec->n_names; i++)
		if (counts_both_threads(rec->names[i].key)) {
			snprintf(which, len, "%s", rec->names[i].spelling);
			return true;
		}
	return false;
}
