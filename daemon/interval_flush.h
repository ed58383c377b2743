/*
 * interval_flush.h - one interval out: cut from the workers, exclusions
 * folded, health said in the log, then to /metrics and the store; the
 * sampling cost re-checked after it when the switch rate asks.
 */
#ifndef STACKD_INTERVAL_FLUSH_H
#define STACKD_INTERVAL_FLUSH_H

#include "daemon/daemon_state.h"

/* One interval from what the workers hold, to the store and /metrics.
 * final: the workers make their last cut and stop (joined). */
void interval_flush(struct daemon *d, bool final);

#endif
