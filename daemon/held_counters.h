/*
 * held_counters.h - re-plan around counters another PMU user holds
 * (daemon/plan/plan_held.h decides from each interval, in
 * interval_flush.c, which sets d->held_replan; the main loop then calls
 * this).
 */
#ifndef STACKD_HELD_COUNTERS_H
#define STACKD_HELD_COUNTERS_H

#include "daemon/daemon_state.h"

/* Plan again with the counters now held back, and switch to it; where the
 * switch does not happen, the reserve goes back to the running plan's.
 * 0, or -errno when no counter group is open any more: the daemon stops. */
int held_counters_apply(struct daemon *d);

#endif
