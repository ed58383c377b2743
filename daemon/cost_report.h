/*
 * cost_report.h - what the cost budget does here, said in the log at start
 * and when a reload changes it.
 */
#ifndef STACKD_COST_REPORT_H
#define STACKD_COST_REPORT_H

#include "daemon/daemon_state.h"

/* What max_sampling_cost means on this host, and periodic mode's rate. */
void cost_report_log(const struct daemon *d);

#endif
