/*
 * plan_detect.c - the host's counter budget (plan.h), from sysfs and procfs.
 */
#include "daemon/plan/plan.h"

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

static bool file_under_says_on(const char *root, const char *rel)
{
	char path[512];

	snprintf(path, sizeof(path), "%s%s", root, rel);
	return file_says_on(path);
}

bool plan_root_smt_on(const char *root)
{
	return file_under_says_on(root, "/sys/devices/system/cpu/smt/active");
}

bool plan_root_watchdog_on(const char *root)
{
	return file_under_says_on(root, "/proc/sys/kernel/nmi_watchdog");
}

bool plan_host_smt_on(void)
{
	return plan_root_smt_on("");
}

bool plan_host_watchdog_on(void)
{
	return plan_root_watchdog_on("");
}

/* General counters per logical CPU as CPUID leaf 0xA reports them, through
 * libpfm4's architectural Intel PMU ("ix86arch"): the only one of its PMUs
 * that asks the CPU.  Its model PMUs (skl, icl, ...) report their tables'
 * figures, whatever SMT or a hypervisor leave (Skylake's says 8, the count
 * with SMT off; Ice Lake's 16), so they are not asked.  0 when there is no
 * such PMU (AMD, Arm, no PMU) or libpfm4 was told to pretend
 * (LIBPFM_FORCE_PMU). */
unsigned plan_host_counters(char *name, size_t len)
{
	pfm_pmu_info_t info;

	if (getenv("LIBPFM_FORCE_PMU") != NULL || pfm_initialize() != PFM_SUCCESS)
		return 0;
	memset(&info, 0, sizeof(info));
	info.size = sizeof(info);
	if (pfm_get_pmu_info(PFM_PMU_INTEL_X86_ARCH, &info) != PFM_SUCCESS || !info.is_present ||
	    info.num_cntrs <= 0)
		return 0;
	snprintf(name, len, "%s", info.name);
	return (unsigned)info.num_cntrs;
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
	/* Fewer than the model's figure: a hypervisor exposing fewer.  More:
	 * trust the model's SMT-aware figure. */
	if (gp == 0 || gp >= b->gp_total)
		return;
	snprintf(from, sizeof(from), "CPUID via libpfm4 %s", pmu);
	plan_budget_set_total(b, gp, from);
}
