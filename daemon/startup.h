/*
 * startup.h - the daemon's start, in an order that fails before anything
 * is written where it can, and its stop.
 */
#ifndef STACKD_STARTUP_H
#define STACKD_STARTUP_H

#include "daemon/daemon_state.h"

/* Everything up to READY=1 (claim, counters, store, API, privileges
 * dropped, workers calibrated).  0, or -errno with the error logged;
 * startup_close() undoes what was made either way. */
int startup_open(struct daemon *d, const struct config *cfg, config_reload_fn reload_fn);
/* Undo what startup_open() made, however far it got. */
void startup_close(struct daemon *d);

#endif
