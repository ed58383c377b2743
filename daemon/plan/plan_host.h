/*
 * plan_host.h - what a host's files say about its counter budget, read
 * under a root ("" for this host; a copy of another host's /proc, /sys and
 * /boot files for `stackd --plan --host DIR` and the test fixtures).
 *
 * Three facts (plan_detect.c names each one's source in the kernel):
 * - how many general counters each thread has: Intel's CPUID leaf 0xA,
 *   AMD's PerfCtrExtCore (CPUID 0x80000001 ECX[23], cpuinfo's
 *   "perfctr_core") and PerfMonV2 (0x80000022 EBX[3:0]); Arm does not say;
 * - whether a hard-lockup detector runs and whether it holds a counter
 *   (the perf detector does, the buddy detector of Linux 6.5+ does not:
 *   kernel.nmi_watchdog reads 1 for both);
 * - whether an Intel PMU offers perf metrics (`slots`, `topdown-*`), which
 *   a cloud guest's virtual PMU often does not.
 */
#ifndef STACKD_PLAN_HOST_H
#define STACKD_PLAN_HOST_H

#include "daemon/plan/plan.h"

#include <stdbool.h>

struct plan_host {
	unsigned gp;              /* general counters per thread; 0: the host does not say */
	char gp_from[200];        /* where gp comes from, or why the host does not say */
	bool watchdog_running;    /* a hard-lockup detector runs (kernel.nmi_watchdog) */
	bool watchdog_holds;      /* ... and holds a PMU counter (the perf detector) */
	bool watchdog_raw;        /* that counter is a raw event's (nmi_watchdog=r...): general */
	char watchdog_from[200];  /* how that was told */
	bool perf_metrics_known;  /* an Intel core PMU was found: the next is a fact */
	bool perf_metrics;        /* its sysfs has events/slots (td_is_visible()) */
};

/* Read the facts under root; live: root is this host, so the CPU itself
 * may be asked (CPUID) where no file says. */
void plan_host_read(const char *root, bool live, struct plan_host *out);

/* The budget of m on that host: SMT (smt: 1/0, -1 from the host's
 * sys/devices/system/cpu/smt/active), the watchdog (watchdog 1/0, -1: as
 * read), the counters (the host's figure when below the model's). */
void plan_host_budget(const struct model *m, const char *root, const struct plan_host *h,
		      int smt, int watchdog, unsigned reserved, struct plan_budget *out);

#endif
