/*
 * meta.h - the daemon's facts, in the store's meta table (read by the API,
 * stackctl status and the dashboard) and in the log.
 */
#ifndef STACKD_META_H
#define STACKD_META_H

#include "daemon/daemon_state.h"

/* What the plan says of each family not collected whole, in the log. */
void meta_log_plan(const struct plan *p);
/* The daemon's facts (meta): model, plan, groups, settings, the measured
 * sampling costs; a warning in the log when the store refuses them. */
void meta_write(struct daemon *d);

#endif
