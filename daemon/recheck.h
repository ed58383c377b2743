/*
 * recheck.h - the per-switch sampling cost measured again when the host's
 * switch rate has moved a lot since the last measurement.
 */
#ifndef STACKD_RECHECK_H
#define STACKD_RECHECK_H

#include "daemon/daemon_state.h"

/* Whether the interval's busiest-CPU switch rate asks for a re-check of
 * the sampling cost (calibrate.h); one call per interval. */
bool recheck_due(struct daemon *d, const struct interval_data *iv);
/* Measure the cost again on the start's CPU, for the busiest-CPU rate
 * rate: d->calib, /metrics and meta take the new figure, the log says old
 * and new; on failure the old figure stays, said in the log. */
void recheck_cost(struct daemon *d, uint64_t rate);

#endif
