/*
 * run.h - the running daemon: open the counters and the store, start the
 * per-CPU workers, flush every interval, reload on SIGHUP, stop cleanly on
 * SIGTERM/SIGINT.
 */
#ifndef STACKD_RUN_H
#define STACKD_RUN_H

#include "daemon/daemon_state.h"

/* Returns the process exit status. */
int run_daemon(const struct config *cfg, config_reload_fn reload);

#endif
