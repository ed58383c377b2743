/*
 * plan_detect.c - the host's counter budget (plan.h), from sysfs and procfs.
 */
#include "plan.h"

#include <perfmon/pfmlib.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* "1" (or "on") in a one-line sysfs/procfs file. */
static bool file_says_on(const char *path)
{
	char buf[16] = "";
	FILE *f = fopen(path, "re");

	if (f == NULL)
		return false;
	if (fgets(buf, sizeof(buf), f) == NULL)
		buf[0] = '\0';
	fclose(f);
	return buf[0] == '1' || (buf[0] == 'o' && buf[1] == 'n');
}

bool plan_host_smt_on(void)
{
	return file_says_on("/sys/devices/system/cpu/smt/active");
}

bool plan_host_watchdog_on(void)
{
	return file_says_on("/proc/sys/kernel/nmi_watchdog");
}

/* General counters per logical CPU of the host's core PMU, as libpfm4
 * finds it; 0 when none is present, or when libpfm4 was told to pretend
 * (LIBPFM_FORCE_PMU: its tables' figures, not this host's - a forced Ice
 * Lake claims 16).  A hybrid CPU has several core PMUs: the smallest
 * counts, since every group opens on every CPU. */
unsigned plan_host_counters(char *name, size_t len)
{
	unsigned best = 0;
	pfm_pmu_t pmu;

	if (getenv("LIBPFM_FORCE_PMU") != NULL || pfm_initialize() != PFM_SUCCESS)
		return 0;
	pfm_for_all_pmus(pmu) {
		pfm_pmu_info_t info;

		memset(&info, 0, sizeof(info));
		info.size = sizeof(info);
		if (pfm_get_pmu_info(pmu, &info) != PFM_SUCCESS || !info.is_present ||
		    info.type != PFM_PMU_TYPE_CORE || info.num_cntrs <= 0)
			continue;
		if (best == 0 || (unsigned)info.num_cntrs < best) {
			best = (unsigned)info.num_cntrs;
			snprintf(name, len, "%s", info.name);
		}
	}
	return best;
}

void plan_detect_budget(const struct model *m, unsigned reserved, struct plan_budget *out)
{
	plan_budget_for(m, plan_host_smt_on(), plan_host_watchdog_on(), reserved, out);
	plan_apply_host_counters(out);
}

void plan_apply_host_counters(struct plan_budget *b)
{
	char pmu[24] = "", from[64];
	unsigned gp;

	if (b->unlimited)
		return;
	gp = plan_host_counters(pmu, sizeof(pmu));
	if (gp == 0)
		return;
	snprintf(from, sizeof(from), "the host's PMU (%s, libpfm4)", pmu);
	plan_budget_set_total(b, gp, from);
}
