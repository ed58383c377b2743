/*
 * run.h - the running daemon: open the counters and the store, start the
 * per-CPU workers, flush every interval, reload on SIGHUP, stop cleanly on
 * SIGTERM/SIGINT.
 */
#ifndef STACKD_RUN_H
#define STACKD_RUN_H

#include "daemon/config.h"

#include <stddef.h>

/* Re-reads the configuration the way startup did (file, then flags). */
typedef int (*config_reload_fn)(struct config *out, char *err, size_t errlen);

/* Returns the process exit status. */
int run_daemon(const struct config *cfg, config_reload_fn reload);

/* The model cfg asks for ("auto": the hardware model if the PMU counts,
 * else the software model).  why says what was chosen and why. */
int run_pick_model(const char *name, const struct model **ret, char *why, size_t len);

#endif
