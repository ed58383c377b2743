/*
 * sim_host.h - stackd's own pipeline on a simulated PMU (tests only): the
 * planner's groups opened by the real collector through simpmu's seam,
 * the real workers (rotation, attribution) driven tick by tick on the
 * virtual clock, the real flusher and store writing a SQLite file, and
 * the real query code reading it back.  Scripted tasks with known rates
 * run on the CPUs, so every per-process figure has a known truth.
 *
 * The CPU workers are tasks of the simulation too: at every rotation and
 * cut the CPU switches to its worker, as it does on a real host (the
 * worker is woken and runs there), so what attribution charges to stackd
 * is exactly the worker's own time and every scripted task keeps its own.
 */
#ifndef STACKD_SIM_HOST_H
#define STACKD_SIM_HOST_H

#include "simpmu.h"
#include "daemon/collect/collector.h"
#include "daemon/collect/flush.h"
#include "daemon/plan/plan.h"
#include "daemon/attribute/proctab.h"
#include "daemon/collect/worker.h"
#include "lib/model/model.h"
#include "lib/perfdb/perfdb.h"

#include <stdbool.h>
#include <stdint.h>

#define SIM_HOST_CPUS 2
#define SIM_HOST_TASKS 3
#define SIM_HOST_WORKER_PID 4242

struct sim_host {
	const struct model *model;
	/* A model made from perf's tables: its table and core type (NULL for
	 * a hand model), whose fields key the truth (sim_host_table.c). */
	const struct perfdb_table *table;
	const char *unit;
	unsigned width;                 /* slots per cycle of the truth's Top-Down rates */
	struct simpmu *sim;
	struct kernel_ops ops;
	struct plan plan;
	struct collector *col;
	struct worker workers[SIM_HOST_CPUS];
	struct proctab pt;
	struct flusher fl;
	struct store *store;
	char dir[64], db_path[96];
	struct simpmu_task *tasks[SIM_HOST_TASKS];
	struct simpmu_task *worker_task[SIM_HOST_CPUS];
	struct simpmu_task *init;       /* pid 1: the tasks' parent */
	uint64_t rotate_ns;
	uint64_t next_rotate, next_flush;
	unsigned slot[SIM_HOST_CPUS];   /* position in each CPU's schedule */
	struct simpmu_task *current[SIM_HOST_CPUS];
	uint64_t left[SIM_HOST_CPUS];   /* ms left of each CPU's current slice */
	/* Called with each interval before it is stored, as the daemon's
	 * interval_flush sees it (NULL: none). */
	void (*on_interval)(void *ctx, const struct interval_data *iv);
	void *on_interval_ctx;
};

/* The simulated PMU that stands for model m's hardware (NULL: none): a
 * libpfm4 PMU name for a hand model, perf's table directory for a model
 * made from one. */
const char *sim_host_pmu_of(const struct model *m);
/* Whether m is a model made from perf's tables, and which (sim_host_table.c). */
bool sim_host_table_of(const struct model *m, const struct perfdb_table **table,
		       const char **unit);
/* The bits the truth knows model event ev by: a table model's from its
 * table's fields (perfdb_encode), a hand model's from simpmu_encode of
 * its name.  0 or -errno. */
int sim_host_event_attr(const struct sim_host *h, const struct model_event *ev,
			struct perf_event_attr *attr);
/* Slots per cycle for the truth's Top-Down rates of table model m. */
unsigned sim_host_slot_width(const struct model *m, const struct perfdb_table *t,
			     const char *unit);

/* The host a scenario names: model m on simpmu's pmu, SMT, the watchdog and
 * `reserved` general counters held by another user on every CPU.  Plans,
 * opens, registers.  0; -ENOSPC when nothing of m fits (the plan's err
 * says why); other -errno with err. */
int sim_host_open(struct sim_host *h, const struct model *m, const char *sim_pmu, bool smt,
		  bool watchdog, unsigned reserved, char *err, size_t errlen);
/* The same on a host whose kernel refuses the model event whose column is
 * refuse ("column", or "column@CPU:ERRNO" for one CPU and errno; default
 * every CPU, ENOENT: a guest whose CPUID does not enumerate it): the
 * collector opens what opens, as the daemon's does, and h->plan says what
 * it left out. */
int sim_host_open_refusing(struct sim_host *h, const struct model *m, const char *sim_pmu,
			   bool smt, bool watchdog, unsigned reserved, const char *refuse,
			   char *err, size_t errlen);
void sim_host_close(struct sim_host *h);

/* Start: the workers enable their first groups, the tasks are born. */
void sim_host_start(struct sim_host *h);
/* Run the scripted tasks for ns of virtual time, rotating every 100 ms and
 * storing an interval every second; last: store what is left at the end. */
int sim_host_run(struct sim_host *h, uint64_t ns, bool last, char *err, size_t errlen);

/* The truth of task i as one struct group_sums per family: every event the
 * host's SMT state counts, over the task's whole run time (events it does
 * not count are missing, as in a recording without them). */
void sim_host_truth(const struct sim_host *h, unsigned i, struct group_sums *sums);
/* Read what the host stored back through the query code and hold it to the
 * truth: no group ever unschedulable, every task's CPU time exact (ns),
 * every metric the truth defines the same to 1e-9 (read with the stored
 * PMU's #slots, as readers do), Top-Down level 1 summing to 1 where all
 * four classes are defined.  0, or -1 with err saying what differs. */
int sim_host_verify(const struct sim_host *h, char *err, size_t errlen);
/* The same, setting checked[k] for every metric k of the model that was
 * compared (its truth valid) for some task. */
int sim_host_verify_metrics(const struct sim_host *h, bool checked[MODEL_MAX_METRICS],
			    char *err, size_t errlen);
int32_t sim_host_pid(unsigned i);

#endif
