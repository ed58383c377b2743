/*
 * perf_names.h - Linux perf's names for the metrics that are the same
 * quantity as one of ours, so a user can diff stackd against `perf stat -M`
 * line by line.  Every claim is checked: tests/oracle (system test 260)
 * evaluates each named perf metric with perf's own formula on the same
 * counts and fails unless stackd agrees to 1e-9.
 */
#ifndef STACKD_PERF_NAMES_H
#define STACKD_PERF_NAMES_H

#include "lib/model/model.h"

#define PERF_NAMES_MAX 2

/* perf's names of metric `metric` of model m, oldest perf first (perf 6.1
 * as Debian 12 ships it, then the tma_info_* name perf 6.6 and later use
 * where it changed; AMD and Arm: the name in the kernel file the oracle
 * copies, tests/oracle/tables/); the rest of names[] is NULL.  Returns how
 * many. */
unsigned perf_names_of(const struct model *m, const char *metric,
		       const char *names[PERF_NAMES_MAX]);

#endif
