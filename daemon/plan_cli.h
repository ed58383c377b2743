/*
 * plan_cli.h - `stackd --plan`: the counter groups stackd would open, planned
 * for this host or for the one the options describe, without opening
 * anything.
 */
#ifndef STACKD_PLAN_CLI_H
#define STACKD_PLAN_CLI_H

#include "daemon/config.h"
#include "lib/model/model.h"

#include <stdbool.h>

struct plan_args {
	bool on;             /* --plan given */
	int smt;             /* --smt on|off: 1/0; -1: this host's */
	int watchdog;        /* --nmi-watchdog on|off: 1/0; -1: this host's */
	int counters;        /* --counters N: general counters per thread; -1: the host's */
	bool no_perf_metrics;  /* --vpmu no-perf-metrics: no slots/topdown-* (a guest) */
	bool json;
	const char *cpuid;   /* --cpuid ID: plan for that CPU (perf's PERF_CPUID), or NULL */
	/* --host DIR: plan for the host whose /proc and /sys files are copied
	 * under DIR (its CPU, PMUs, SMT and watchdog), or NULL */
	const char *host_root;
};

/* Parse "on"/"off" for --smt and --nmi-watchdog; -1 when neither. */
int plan_args_on_off(const char *v);

/*
 * The models `--plan --cpuid ID` or `--plan --host DIR` plans (host_root
 * wins): the CPU's, as lib/model/model_cpu.h chooses them with libpfm4
 * taken as knowing it, one per core type on a hybrid (*n 2, units[] the
 * PMUs); the software model for a host with no core PMU.  why says what was
 * chosen.  0, or -EINVAL (an id or host that cannot be read), -ENOENT.
 */
int plan_cpu_models(const char *cpuid, const char *host_root, const struct model *models[2],
		    const char *units[2], unsigned *n, char *why, size_t len);

/* Print the plan for cfg's model and families; the exit status. */
int plan_cli_run(const struct config *cfg, const struct plan_args *a);

#endif
