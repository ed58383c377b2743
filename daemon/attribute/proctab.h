/*
 * proctab.h - process generations: a process is (pid, start time), so a
 * reused pid is a new process.
 *
 * Generations come from FORK records, from the /proc scan at start, or from
 * /proc when a pid shows up that neither announced.  Samples are matched to
 * a generation by time: the newest one of that pid that started at or before
 * the sample.  Lifecycle records arrive from every CPU's ring, so the main
 * thread applies them in time order at each flush, before it resolves the
 * flush's samples.
 */
#ifndef STACKD_PROCTAB_H
#define STACKD_PROCTAB_H

#include "lib/pids.h"
#include "daemon/attribute/container.h"
#include "daemon/base/u64map.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct proc_gen {
	int32_t pid;
	uint64_t start_mono;   /* CLOCK_MONOTONIC: owns samples from here on */
	uint64_t start_ns;     /* identity: boot time ns at clock-tick resolution,
				* as /proc/PID/stat gives it (tools can match it) */
	bool exited;
	uint64_t exit_mono;
	char comm[16];
	int64_t uid;           /* -1 unknown */
	char *cmdline;
	char *unit;
	struct container *container;   /* NULL outside containers and pods */
	bool enriched;         /* /proc read (or found gone) */
	bool identity_fixed;   /* stored once: start_ns must not change any more */
	uint64_t last_charged; /* flush number that last charged it */
	struct proc_gen *older;
};

struct proctab {
	struct u64map by_pid;        /* pid -> slot in heads */
	struct proc_gen **heads;     /* newest generation first */
	size_t n_heads, cap_heads, empty_heads;
	uint64_t tick_ns;            /* NS_PER_SEC / sysconf(_SC_CLK_TCK) */
	int64_t boot_minus_mono_ns;  /* CLOCK_BOOTTIME - CLOCK_MONOTONIC */
	const char *proc_root;
	struct podnames *podnames;   /* containers' names; NULL: ids only */
	struct proc_gen idle, unattributed;
	size_t n_gens;
};

int proctab_init(struct proctab *pt, const char *proc_root, uint64_t tick_ns,
		 int64_t boot_minus_mono_ns);
void proctab_done(struct proctab *pt);

/* Name containers from the kubelet's log directory pods_dir (container.h)
 * from now on.  Returns 0 or -ENOMEM (then ids only). */
int proctab_set_pods_dir(struct proctab *pt, const char *pods_dir);

/* Startup: a process that already exists. */
int proctab_add_existing(struct proctab *pt, int32_t pid, uint64_t start_ticks,
			 const char *comm);
/* Scan proc_root for every existing process. */
int proctab_scan(struct proctab *pt);

/* Lifecycle records, applied in time order.  Each returns 0 or -ENOMEM. */
int proctab_fork(struct proctab *pt, int32_t pid, int32_t ppid, uint64_t t);
void proctab_exit(struct proctab *pt, int32_t pid, uint64_t t);
void proctab_comm(struct proctab *pt, int32_t pid, uint64_t t, const char *comm, bool exec);

/* The generation that owns samples of pid charged from first to last.
 * Returns 0 and *ret, -EAGAIN when a newer generation started inside the
 * span (it cannot be split: pid reused on this CPU within one flush), or
 * -ENOMEM.  A pid never announced is looked up in /proc (or made up with an
 * unknown start when /proc has a newer process or none). */
int proctab_resolve(struct proctab *pt, int32_t pid, uint64_t first, uint64_t last,
		    struct proc_gen **ret);

/* Read /proc for g if not done; keeps g's identity if /proc now shows
 * another process with that pid. */
void proctab_enrich(struct proctab *pt, struct proc_gen *g);

/* Forget generations that exited before horizon (CLOCK_MONOTONIC) and were
 * not charged at or after flush number keep_from. */
void proctab_gc(struct proctab *pt, uint64_t horizon, uint64_t keep_from);

/* Newest generation of pid, or NULL. */
struct proc_gen *proctab_newest(struct proctab *pt, int32_t pid);

#endif
