/*
 * prom.h - the Prometheus view, added up in memory at every flush (so a
 * scrape costs no database work) and printed in the text exposition format.
 *
 * Sized for fleets (docs/operations.md: sizing): the host's raw events,
 * by counter group, for the recording rules; per command name, unit and
 * (off by default) process only the top N by CPU time, each with its CPU
 * time, switches, cycles and instructions, and its Top-Down nodes as CPU
 * seconds (the model's shares, computed here at each flush), the rest
 * added up under "[other]".  Who is in the top N changes only when the
 * ranking really does (a smoothed CPU time, a 1.5x margin): every new
 * label value is a new series in Prometheus.  Counters start at 0 when
 * stackd starts, or when a target enters the top N.
 */
#ifndef STACKD_PROM_H
#define STACKD_PROM_H

#include "daemon/attribute/interval.h"
#include "lib/writer_status.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

struct prom;

/* What /metrics holds (the prometheus_* settings, stackd.conf(5)). */
struct prom_limits {
	unsigned max_keys;       /* command names and units followed, each */
	unsigned top_comms, top_units, top_processes;   /* printed, each; 0: none */
	bool per_cpu;            /* stackd_cpu_sampling_periodic{cpu} */
	bool demo;               /* constructed data (stackd --demo): stackd_info says so */
};

/* plan: the groups opened (NULL: every family of m whole). */
int prom_new(const struct model *m, const struct plan *plan, const struct prom_limits *lim,
	     struct prom **ret);
void prom_free(struct prom *p);   /* NULL is a no-op */

/* The groups are plan's from now on (a SIGHUP re-planned them; main
 * thread).  A group in both plans keeps its counts, a group new to the
 * plan starts at 0, a group left out is no longer printed (Prometheus
 * sees its series end).  Safe while other threads render. */
void prom_replan(struct prom *p, const struct plan *plan);

/* What sampling one context switch costs here (measured at start, else
 * the development VM's figure: measured false), for
 * stackd_sampling_cost_seconds_per_switch. */
void prom_set_sampling_cost(struct prom *p, double ns_per_switch, bool measured);

/* Each CPU's sampling mode now (main thread, at each flush): cpus[i]
 * samples periodically when periodic[i], else every context switch; for
 * stackd_cpu_sampling_periodic{cpu="N"}.  Out of memory: the old list stays. */
void prom_set_cpu_modes(struct prom *p, const int *cpus, const bool *periodic, size_t n);

/* Add one flushed interval (main thread). */
void prom_add_interval(struct prom *p, const struct interval_data *iv);

/* Print every series (any thread), and the writer's state when writer is
 * not NULL.  full: the reader may see every process; otherwise only the
 * collector's own health is printed. */
void prom_render(struct prom *p, struct writer_status_box *writer, bool full, FILE *f);

#endif
