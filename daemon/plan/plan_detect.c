/*
 * plan_detect.c - the host's counter budget (plan.h, plan_host.h), from
 * procfs, sysfs, the kernel's config and, on this host, the CPU.
 *
 * Facts, from Linux 7.2.12 (paths in its tree):
 * - AMD: arch/x86/events/amd/core.c amd_core_pmu_init(): without
 *   X86_FEATURE_PERFCTR_CORE (CPUID 0x80000001 ECX[23], cpuinfo flag
 *   "perfctr_core") the PMU has AMD64_NUM_COUNTERS = 4 legacy counters;
 *   with it AMD64_NUM_COUNTERS_CORE = 6; with X86_FEATURE_PERFMON_V2
 *   ("perfmon_v2") CPUID 0x80000022 EBX[3:0] (num_core_pmc) of them.  The
 *   counters are per thread: SMT takes none.  A hypervisor that hides the
 *   extension leaves a guest 4.
 * - Intel: CPUID leaf 0xA EAX[15:8] (libpfm4's ix86arch PMU asks it).
 *   Neither count is in any file (the x86 PMU's caps/ holds max_precise
 *   and pmu_name only: arch/x86/events/core.c).
 * - Arm: the count is PMCR_EL0.N (drivers/perf/arm_pmuv3.c
 *   __armv8pmu_probe_pmu()), shown nowhere in sysfs (its caps/ are
 *   branches, slots, bus_slots, bus_width, threshold_max); arm_pmu.c logs
 *   it at boot ("N counters available").  The model's figure stands.
 * - The hard-lockup detector: kernel.nmi_watchdog reads 1 when a detector
 *   probed and is enabled (kernel/watchdog.c proc_watchdog_common() reads
 *   watchdog_enabled), whichever it is.  Which one is fixed at build time
 *   (lib/Kconfig.debug): HARDLOCKUP_DETECTOR_PERF holds a pinned cycles
 *   event on every CPU (kernel/watchdog_perf.c, "Permanently consumes one
 *   hw-PMU counter"), HARDLOCKUP_DETECTOR_BUDDY (Linux 6.5+, the arm64
 *   default without pseudo-NMI) holds none.  The kernel's config is read
 *   from /boot/config-RELEASE (RELEASE: /proc/sys/kernel/osrelease).
 *   Without it: x86 selects HAVE_HARDLOCKUP_DETECTOR_PERF and prefers it
 *   (buddy only with HARDLOCKUP_DETECTOR_PREFER_BUDDY, default n); arm64's
 *   perf detector needs the PMU interrupt to be an NMI
 *   (arch/arm64/kernel/watchdog_hld.c arch_perf_nmi_is_available()), i.e.
 *   pseudo-NMI turned on at boot (irqchip.gicv3_pseudo_nmi=1), so without
 *   that a running detector is the buddy.  nmi_watchdog=rHEX on the
 *   command line makes the perf detector count a raw event
 *   (kernel/watchdog.c hardlockup_panic_setup()): a general counter, not
 *   Intel's fixed cycles counter.
 * - Perf metrics: Intel's PMU shows events/slots only where it has them
 *   (arch/x86/events/intel/core.c td_is_visible()); a guest's vPMU that
 *   lacks them shows none.
 */
#include "daemon/plan/plan_host.h"

#include <perfmon/pfmlib.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#endif

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
	struct plan_host h;

	plan_host_read(root, false, &h);
	return h.watchdog_holds;
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

/* The first line of root/rel without its newline, or "" (false). */
static bool read_line(const char *root, const char *rel, char *buf, size_t len)
{
	char path[512];
	FILE *f;

	buf[0] = '\0';
	snprintf(path, sizeof(path), "%s%s", root, rel);
	f = fopen(path, "re");
	if (f == NULL)
		return false;
	if (fgets(buf, (int)len, f) == NULL)
		buf[0] = '\0';
	fclose(f);
	buf[strcspn(buf, "\n")] = '\0';
	return buf[0] != '\0';
}

/* Whether the space-separated words of line hold word (a flag, a boot
 * argument), or one starting with prefix when word ends in '='. */
static const char *find_word(const char *line, const char *word)
{
	size_t n = strlen(word);
	const char *p = line;

	while (*p != '\0') {
		size_t w = strcspn(p, " \t");

		if ((word[n - 1] == '=' ? w >= n : w == n) && strncmp(p, word, n) == 0)
			return p;
		p += w;
		p += strspn(p, " \t");
	}
	return NULL;
}

/* cpuinfo's first processor block: vendor_id and the flags line. */
static void read_cpuinfo(const char *root, char *vendor, size_t vlen, char *flags, size_t flen,
			 bool *arm)
{
	char path[512], line[4096];
	FILE *f;

	vendor[0] = flags[0] = '\0';
	*arm = false;
	snprintf(path, sizeof(path), "%s/proc/cpuinfo", root);
	f = fopen(path, "re");
	if (f == NULL)
		return;
	while (fgets(line, sizeof(line), f) != NULL && line[0] != '\n') {
		char *colon = strchr(line, ':');
		const char *v = colon != NULL ? colon + 1 + strspn(colon + 1, " ") : "";

		line[strcspn(line, "\n")] = '\0';
		if (strncmp(line, "vendor_id", 9) == 0)
			snprintf(vendor, vlen, "%s", v);
		else if (strncmp(line, "flags", 5) == 0)
			snprintf(flags, flen, "%s", v);
		else if (strncmp(line, "CPU implementer", 15) == 0)
			*arm = true;
	}
	fclose(f);
}

/* CPUID 0x80000022 EBX[3:0] of this CPU; 0 where it cannot be asked. */
static unsigned cpuid_amd_core_pmcs(void)
{
#if defined(__x86_64__) || defined(__i386__)
	unsigned a, b, c, d;

	if (__get_cpuid_count(0x80000022, 0, &a, &b, &c, &d))
		return b & 0xf;
#endif
	return 0;
}

static void amd_counters(const char *flags, bool live, struct plan_host *h)
{
	if (flags[0] == '\0') {
		snprintf(h->gp_from, sizeof(h->gp_from), "cpuinfo has no flags line to tell");
		return;
	}
	if (find_word(flags, "perfctr_core") == NULL) {
		h->gp = 4;
		snprintf(h->gp_from, sizeof(h->gp_from), "AMD legacy counters: no perfctr_core "
			 "(CPUID 0x80000001 ECX[23]) in cpuinfo flags");
		return;
	}
	h->gp = 6;
	snprintf(h->gp_from, sizeof(h->gp_from), "AMD perfctr_core (CPUID 0x80000001 ECX[23])");
	if (find_word(flags, "perfmon_v2") == NULL)
		return;
	/* cppcheck-suppress knownConditionTrueFalse ; x86 only */
	if (live && cpuid_amd_core_pmcs() > 0) {
		h->gp = cpuid_amd_core_pmcs();
		snprintf(h->gp_from, sizeof(h->gp_from), "AMD PerfMonV2: CPUID 0x80000022 EBX[3:0]");
	} else {
		h->gp = 0;
		snprintf(h->gp_from, sizeof(h->gp_from), "AMD PerfMonV2: the count is CPUID "
			 "0x80000022 EBX[3:0], in no file");
	}
}

static void read_counters(const char *root, bool live, const char *vendor, const char *flags,
			  bool arm, struct plan_host *h)
{
	char pmu[24] = "";

	if (strcmp(vendor, "AuthenticAMD") == 0 || strcmp(vendor, "HygonGenuine") == 0) {
		amd_counters(flags, live, h);
	} else if (strcmp(vendor, "GenuineIntel") == 0) {
		h->gp = live ? plan_host_counters(pmu, sizeof(pmu)) : 0;
		if (h->gp > 0)
			snprintf(h->gp_from, sizeof(h->gp_from), "CPUID 0xA via libpfm4 %s", pmu);
		else
			snprintf(h->gp_from, sizeof(h->gp_from), "Intel: the count is CPUID 0xA "
				 "EAX[15:8], in no file");
	} else if (arm) {
		snprintf(h->gp_from, sizeof(h->gp_from), "Arm: the count is PMCR_EL0.N, in no "
			 "file (the kernel logs it at boot)");
	}
	(void)root;
}

/* CONFIG_NAME=y in the kernel's config: 1, 0 (not set), -1 (no config). */
static int kernel_config(const char *root, const char *name)
{
	char release[128], path[512], line[256];
	size_t n = strlen(name);
	int r = 0;
	FILE *f;

	if (!read_line(root, "/proc/sys/kernel/osrelease", release, sizeof(release)))
		return -1;
	snprintf(path, sizeof(path), "%s/boot/config-%s", root, release);
	f = fopen(path, "re");
	if (f == NULL)
		return -1;
	while (r == 0 && fgets(line, sizeof(line), f) != NULL)
		r = strncmp(line, name, n) == 0 && strncmp(line + n, "=y", 2) == 0;
	fclose(f);
	return r;
}

static void read_watchdog(const char *root, bool arm, struct plan_host *h)
{
	char sysctl[16], cmdline[4096];
	const char *arg;
	int perf, buddy;

	read_line(root, "/proc/cmdline", cmdline, sizeof(cmdline));
	h->watchdog_running = read_line(root, "/proc/sys/kernel/nmi_watchdog", sysctl,
					sizeof(sysctl)) && sysctl[0] == '1';
	if (!h->watchdog_running) {
		snprintf(h->watchdog_from, sizeof(h->watchdog_from), "kernel.nmi_watchdog %s",
			 sysctl[0] != '\0' ? "= 0" : "not readable");
		return;
	}
	arg = find_word(cmdline, "nmi_watchdog=");
	h->watchdog_raw = arg != NULL && strchr(arg, 'r') != NULL;
	perf = kernel_config(root, "CONFIG_HARDLOCKUP_DETECTOR_PERF");
	buddy = kernel_config(root, "CONFIG_HARDLOCKUP_DETECTOR_BUDDY");
	if (perf == 1 || buddy == 1) {
		h->watchdog_holds = perf == 1;
		snprintf(h->watchdog_from, sizeof(h->watchdog_from), "kernel.nmi_watchdog = 1, "
			 "the kernel's config: the %s detector", perf == 1 ? "perf" : "buddy");
	} else if (perf == 0) {
		snprintf(h->watchdog_from, sizeof(h->watchdog_from), "kernel.nmi_watchdog = 1, "
			 "the kernel's config has no perf detector");
	} else if (arm) {
		h->watchdog_holds = find_word(cmdline, "irqchip.gicv3_pseudo_nmi=1") != NULL;
		snprintf(h->watchdog_from, sizeof(h->watchdog_from), "kernel.nmi_watchdog = 1, "
			 "no kernel config; arm64 %s pseudo-NMI: the %s detector",
			 h->watchdog_holds ? "with" : "without", h->watchdog_holds ? "perf" : "buddy");
	} else {
		h->watchdog_holds = true;
		snprintf(h->watchdog_from, sizeof(h->watchdog_from), "kernel.nmi_watchdog = 1, "
			 "no kernel config; x86 builds the perf detector");
	}
	h->watchdog_raw &= h->watchdog_holds;
}

/* events/slots of the Intel core PMU (cpu, or a hybrid's cpu_core). */
static void read_perf_metrics(const char *root, struct plan_host *h)
{
	static const char *const pmus[] = { "cpu", "cpu_core" };
	char path[512];
	struct stat st;
	unsigned i;

	for (i = 0; i < 2; i++) {
		snprintf(path, sizeof(path), "%s/sys/bus/event_source/devices/%s/caps/pmu_name",
			 root, pmus[i]);
		if (stat(path, &st) < 0)
			continue;
		h->perf_metrics_known = true;
		snprintf(path, sizeof(path), "%s/sys/bus/event_source/devices/%s/events/slots",
			 root, pmus[i]);
		h->perf_metrics = stat(path, &st) == 0;
		return;
	}
}

void plan_host_read(const char *root, bool live, struct plan_host *out)
{
	char vendor[32], flags[4096];
	bool arm;

	memset(out, 0, sizeof(*out));
	if (strcmp(root, "/") == 0)
		root = "";
	read_cpuinfo(root, vendor, sizeof(vendor), flags, sizeof(flags), &arm);
	read_counters(root, live, vendor, flags, arm, out);
	read_watchdog(root, arm, out);
	if (strcmp(vendor, "GenuineIntel") == 0)
		read_perf_metrics(root, out);
}

static bool uses_perf_metrics(const struct model *m)
{
	unsigned f, e;

	for (f = 0; f < m->n_groups; f++)
		for (e = 0; e < m->groups[f].n_events; e++)
			if (m->groups[f].events[e].fixed &&
			    (strstr(m->groups[f].events[e].name, "/slots/") != NULL ||
			     strstr(m->groups[f].events[e].name, "topdown-") != NULL))
				return true;
	return false;
}

void plan_host_budget(const struct model *m, const char *root, const struct plan_host *h,
		      int smt, int watchdog, unsigned reserved, struct plan_budget *out)
{
	bool smt_on = smt >= 0 ? smt == 1 : plan_root_smt_on(root);
	bool wd = watchdog >= 0 ? watchdog == 1 : h->watchdog_holds;
	char from[200];

	plan_budget_for(m, smt_on, wd, reserved, out);
	snprintf(out->watchdog_from, sizeof(out->watchdog_from), "%s",
		 watchdog >= 0 ? "--nmi-watchdog" : h->watchdog_from);
	/* A raw event takes a general counter even where cycles has a fixed
	 * one: the same cost as AMD's. */
	if (wd && watchdog < 0 && h->watchdog_raw && !out->watchdog_takes_gp) {
		out->cycles_on_fixed = m->fixed_counters > 0;
		out->watchdog_takes_gp = true;
		out->gp_free = out->gp_free > 0 ? out->gp_free - 1 : 0;
	}
	out->no_perf_metrics = h->perf_metrics_known && !h->perf_metrics && uses_perf_metrics(m);
	if (out->unlimited || h->gp == 0 || h->gp >= out->gp_total)
		return;
	/* Fewer than the model's figure: a hypervisor exposing fewer.  More:
	 * the model's SMT-aware figure (Intel's CPUID says it per thread). */
	snprintf(from, sizeof(from), "%s", h->gp_from);
	plan_budget_set_total(out, h->gp, from);
}

void plan_detect_budget(const struct model *m, unsigned reserved, struct plan_budget *out)
{
	struct plan_host h;

	plan_host_read("", true, &h);
	plan_host_budget(m, "", &h, -1, -1, reserved, out);
}

void plan_apply_host_counters(struct plan_budget *b)
{
	struct plan_host h;
	char from[200];

	if (b->unlimited)
		return;
	plan_host_read("", true, &h);
	if (h.gp == 0 || h.gp >= b->gp_total)
		return;
	snprintf(from, sizeof(from), "%s", h.gp_from);
	plan_budget_set_total(b, h.gp, from);
}
