/*
 * replan.h - a SIGHUP that changes the counter groups.
 */
#ifndef STACKD_REPLAN_H
#define STACKD_REPLAN_H

#include "daemon/daemon_state.h"

/* SIGHUP with configuration n, whose families and count_modes gave the
 * plan next (counting_make_plan): keep the groups when next opens the same
 * ones with the same count modes, else switch to next.  1 when next is the
 * plan in force (the same groups, or switched to), 0 when counting goes on
 * with the running groups (next could not be opened, or the database holds
 * intervals of the running plan); -errno when no groups could be opened at
 * all: the daemon must stop. */
int replan_apply(struct daemon *d, const struct config *n, const struct plan *next);

#endif
