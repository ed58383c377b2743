/*
 * collector_degrade.h - open what opens: the collector for a plan, with
 * every family whose events this host refuses taken out of the plan (its
 * reason kept: daemon/plan/plan_drop.h) and the rest opened.
 */
#ifndef STACKD_COLLECTOR_DEGRADE_H
#define STACKD_COLLECTOR_DEGRADE_H

#include "daemon/collect/collector.h"

/* collector_open(p) of plan (p->plan and p->refusal are ours to set); a
 * family the kernel refuses (collector_refusal) is dropped from plan,
 * logged, and the rest opened again, one try per family at most.  Only
 * nothing opening at all fails, err naming the host (cpuid: perf's
 * PERF_CPUID of this CPU, "" unknown) and what it refused.  0, or -errno
 * with err and nothing open. */
int collector_open_what_opens(const struct collector_params *p, struct plan *plan,
			      const char *cpuid, struct collector **ret, char *err, size_t errlen);

#endif
