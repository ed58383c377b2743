/*
 * plan_detect.c - the host's counter budget (plan.h), from sysfs and procfs.
 */
#include "plan.h"

#include <stdio.h>

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

void plan_detect_budget(const struct model *m, unsigned reserved, struct plan_budget *out)
{
	plan_budget_for(m, plan_host_smt_on(), plan_host_watchdog_on(), reserved, out);
}
