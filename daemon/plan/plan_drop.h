/*
 * plan_drop.h - a family taken out of a plan because this host refused it:
 * the kernel would not open one of its events (an architectural event the
 * CPU, or a hypervisor's CPUID, says is not there: ENOENT; a sysfs event
 * or format this kernel lacks; a group the PMU can never hold: EINVAL
 * from the kernel's group validation), so the rest is counted.  An event
 * a hypervisor filters (KVM's PMU event filter) opens and reads 0: no
 * refusal shows that.
 */
#ifndef STACKD_PLAN_DROP_H
#define STACKD_PLAN_DROP_H

#include "daemon/plan/plan.h"

/* Take every group of family f out of p; the family says why (status,
 * /api/v1/system, /metrics read it).  Returns the groups left. */
unsigned plan_drop_family(struct plan *p, unsigned family, const char *why);

/* Every family from refused (a plan of the same model) dropped from p too,
 * with its reason: a re-plan does not ask the host again what it refused
 * (each try would reopen every group and warn again). */
void plan_copy_refusals(struct plan *p, const struct plan *from);

/* How many families p wanted that were dropped (plan_drop_family), and
 * the first one's index (-1: none). */
unsigned plan_dropped_families(const struct plan *p, int *first);

#endif
