/*
 * query.h - read-only questions to the database, shared by stackctl and the
 * daemon's HTTP API.  Sums the additive counts of a window per process and
 * counter group; the model's formulas then run on the sums.
 * Opens read-only: a reader can never damage or lock out the daemon.
 */
#ifndef STACKD_QUERY_H
#define STACKD_QUERY_H

#include "lib/group_parts.h"
#include "lib/health_fields.h"
#include "lib/model/model.h"
#include "lib/model/model_generic.h"

#include <stddef.h>
#include <stdint.h>

struct db;

/* Open path read-only and check it is a stackd database this build can
 * read.  Returns 0, -ENOENT (no such file), -EACCES, -EPROTO (newer schema),
 * -EPROTO (older schema: the daemon upgrades it at start),
 * -EBADMSG (not a stackd database); err says which, in one line. */
int db_open(const char *path, struct db **ret, char *err, size_t errlen);
void db_close(struct db *db);   /* NULL is a no-op */
/* Call stop(ctx) every few thousand steps of any statement on db; when it
 * returns nonzero the statement fails (SQLITE_INTERRUPT) and so does the
 * query.  stop NULL: never stopped (the default).  The daemon's API bounds
 * the CPU time of one answer with it (daemon/serve/http_request.c). */
void db_set_stop(struct db *db, int (*stop)(void *ctx), void *ctx);

struct window_proc {
	int32_t pid;                 /* > 0, or a pseudo pid (pids.h) */
	uint64_t start_ns;           /* since boot */
	char comm[64];
	int64_t uid;                 /* -1 unknown */
	char *cmdline;
	char *unit;
	/* Kubernetes' names (schema/011-containers.sql), NULL outside: the
	 * pod's uid while its name is unknown, the container's id's first
	 * 12 digits likewise (a Docker or podman container has no pod) */
	char *namespace_, *pod, *container;
	uint64_t task_clock_ns;      /* over all groups: full coverage */
	uint64_t periodic_ns;        /* of it, measured in periodic mode */
	uint64_t context_switches;
	/* By model group index, the window model's n_groups of them (at
	 * least one): allocated with the process, freed by window_done.
	 * Not an array of MODEL_MAX_GROUPS: at 168 bytes a group that made
	 * 2.7 kB a process, 320 MB for the 120,000 processes of a 60 s
	 * window under a storm of 2,000 forks/s (issue 34). */
	struct group_sums *sums;
};

struct window_group {
	char name[64];
	uint64_t enabled_ns;         /* summed over CPUs and intervals (all parts) */
	uint64_t unschedulable;      /* times found in error state, summed */
	/* counted in parts (the plan split the family over groups): its
	 * figures combine groups counted at different times */
	bool split;
};

/* Who the CPU time went to, summed over CPUs: all of it, the idle task's,
 * and what no process could be charged with; and the context switches,
 * all and those no process owns; and how much of the time was measured in
 * periodic (statistical) mode rather than per switch (sampling_mode.h). */
struct cpu_split {
	uint64_t cpu_ns, idle_ns, unattributed_ns;
	uint64_t switches, unattributed_switches;
	uint64_t periodic_ns;
};

/* The share of the busy CPU time (idle excluded) charged to processes; 1
 * when nothing ran. */
double cpu_split_attributed_cpu(const struct cpu_split *s);
/* The share of the context switches charged to a process (each sampled,
 * or placed by a split at the kernel's switch records); 1 when none. */
double cpu_split_attributed_switches(const struct cpu_split *s);
/* Either share below ATTRIBUTED_WARN_BELOW (the CPU time's only when the
 * time lost is ATTRIBUTED_MIN_LOST of all the CPUs' too): figures may be
 * missing time. */
bool cpu_split_low(const struct cpu_split *s);
/* The share of all the CPU time (idle included) measured in periodic
 * mode: 0 when every switch was sampled (sampling_mode_share()). */
double cpu_split_periodic_share(const struct cpu_split *s);

/* The regression CPI stack fit readers apply (schema/007-cpi-fit.sql):
 * the newest of the data's model, else why there is none. */
struct query_cpi_fit {
	bool generic;                   /* the model has a regression CPI stack */
	bool fitted;                    /* else reason says why not */
	double weights[CPI_WEIGHTS];    /* base, cycles per event; NaN: dropped */
	double errors[CPI_WEIGHTS];     /* each penalty's standard error; NaN: none */
	size_t rows, train_rows, held_rows;
	size_t processes, held_processes;  /* behind the fit; of them held out */
	double r2, held_error, condition;
	uint64_t created_ns, from_ns, to_ns;
	unsigned fit_version;
	char dropped[1600];             /* "column: reason" lines */
	char reason[768];               /* "no regression fit yet: ..." */
};

/* m's newest fit into f (f->generic false for a model without the stack).
 * Returns 0 or -EIO. */
int query_cpi_fit(struct db *db, const struct model *m, struct query_cpi_fit *f);

struct window {
	uint64_t from_ns, to_ns;     /* CLOCK_REALTIME, as covered by the intervals */
	uint64_t asked_ns;           /* the window asked for (to_ns - from_ns may be less) */
	unsigned n_intervals;
	unsigned ncpus;
	const struct model *model;   /* of the newest interval; NULL if unknown */
	char model_name[64];
	bool smt_on;                 /* the host had SMT on (meta "smt") */
	unsigned slots;              /* its PMU's slots per cycle (meta "pmu_slots"), 0 unknown */
	char cpuid[64];              /* its CPU as perf names it (meta "cpuid"), "" unknown */
	struct window_group groups[MODEL_MAX_GROUPS];
	unsigned n_groups;
	/* collector health over the window, each field as it combines */
	HEALTH_FIELDS(HEALTH_DECLARE)
	int busiest_cpu;
	unsigned resolution_s;       /* coarsest level read: 0 raw, 60, 3600, 86400 rollups */
	struct cpu_split split;       /* the window's CPU time and switches */
	struct window_proc *procs;
	size_t n_procs;
	struct query_cpi_fit cpi_fit;  /* the model's regression fit (query_window) */
	/* Intervals recorded under another model or formula version than
	 * model's (query_window; query_recorded_under), most intervals first:
	 * recomputed with model's formulas where their events allow. */
	struct recorded_under recorded[RECORDED_UNDER_MAX];
	unsigned n_recorded;
	/* Sort orders kept with the window while requests share it
	 * (lib/top_rank.h); NULL: each request ranks for itself.  Made and
	 * freed by the window's owner (daemon/serve/window_share.c). */
	struct top_ranks *ranks;
};

/* The last window_ns of data, ending at the newest interval stored.
 * Returns 0, -ENODATA (no interval stored yet) or -EIO with err. */
int query_window(struct db *db, uint64_t window_ns, struct window *out, char *err,
		 size_t errlen);
void window_done(struct window *w);


/* The window's intervals, groups and collector health, without the
 * per-process sums (n_procs is 0): cheap enough for every status request. */
int query_health(struct db *db, uint64_t window_ns, struct window *out, char *err,
		 size_t errlen);

/* Which processes a series or a detail view adds up.  WHO_HOST: every
 * process but [idle] (the host's busy CPU, [unattributed] and [excluded]
 * included); its what is unused. */
enum query_who { WHO_PID, WHO_COMM, WHO_UNIT, WHO_HOST };

/* Sums of one time bucket of a series. */
struct series_bucket {
	uint64_t start_ns;                          /* bucket start, CLOCK_REALTIME */
	uint64_t span_ns;                           /* length of the intervals in it */
	unsigned resolution_s;                      /* 0 raw, 60/3600/86400 from rollups */
	uint64_t longest_interval_ns;               /* of the intervals in it */
	uint64_t task_clock_ns;
	uint64_t periodic_ns;                       /* of task_clock_ns, measured periodically */
	struct group_sums sums[MODEL_MAX_GROUPS];   /* by the model's group index */
	struct cpu_split host;                      /* every process's, not the target's */
};

/* The matching processes' counts from from_ns to to_ns in buckets of
 * step_ns (by interval end), oldest first, at most max_buckets.  *model is
 * the model of the newest interval; buckets hold its groups, and those of
 * its other formula versions mapped onto them (group_parts.h).
 * uid >= 0 keeps that user's processes only.  Returns the number of
 * buckets filled (possibly 0), or -EIO / -ENODATA with err. */
int query_series(struct db *db, enum query_who who, const char *what, int64_t uid,
		 uint64_t from_ns, uint64_t to_ns, uint64_t step_ns, struct series_bucket *out,
		 size_t max_buckets, const struct model **model, char *err, size_t errlen);

/* The intervals ending in (from_ns, to_ns] recorded under another model or
 * formula version than m (NULL: a model this build does not know: every
 * one), into out[max], most intervals first, each judged with the host's
 * SMT state (group_map_judge).  Returns how many, or -EIO / -ENOMEM. */
int query_recorded_under(struct db *db, const struct model *m, bool smt_on, uint64_t from_ns,
			 uint64_t to_ns, struct recorded_under *out, size_t max, char *err,
			 size_t errlen);

/* Bucket i follows a stretch with no data: more than one step and a half
 * after bucket i - 1, and more than one of its intervals' length (and a
 * step for where their ends fall) - a step shorter than the intervals (10 s
 * ones, or hour rollups, at a 2 s step) leaves buckets empty that are not
 * a gap. */
bool series_gap_before(const struct series_bucket *b, size_t i, uint64_t step);

/* ---- raw rows, for `stackctl export` and /api/v1/export ---------------- */

/* Where an export page ended: the sample key of its last row. */
struct export_cursor {
	int64_t interval_id, process_id, group_id;
};

/* One stored sample row: one group's counts for one process over one
 * interval.  Strings point into the query; copy what you keep. */
struct export_row {
	uint64_t interval_start_ns, interval_end_ns;
	unsigned rollup_s;             /* 0 a raw interval, 60/3600/86400 a rollup */
	uint64_t interval_periodic_ns; /* the interval's CPU time (all CPUs) sampled
					* periodically: its figures are statistical */
	int32_t pid;
	uint64_t start_ns;
	const char *comm, *unit;       /* unit may be NULL */
	int64_t uid;                   /* -1 unknown */
	const char *model, *group;
	uint64_t task_clock_ns, context_switches;
	unsigned n_values;
	char columns[MODEL_MAX_EVENTS][64];   /* what v[k] counts, as stored */
	uint64_t v[MODEL_MAX_EVENTS];
	struct export_cursor key;
};

/* Call fn for each row whose interval ends in (from_ns, to_ns], after the
 * cursor (all zero: from the start), in key order, at most limit rows.
 * who/what as query_series (what NULL: every process); uid >= 0 keeps that
 * user's processes.  Returns the number of rows (== limit: ask again from
 * the last row's key), or -EIO with err, or fn's negative return. */
int query_export(struct db *db, uint64_t from_ns, uint64_t to_ns, enum query_who who,
		 const char *what, int64_t uid, const struct export_cursor *after, size_t limit,
		 int (*fn)(const struct export_row *row, void *arg), void *arg, char *err,
		 size_t errlen);

/* Every event column name any stored counter group has, in first-stored
 * order, into names[max] (copied); returns how many, or -EIO. */
int query_event_columns(struct db *db, char (*names)[64], size_t max);

/* The oldest and newest interval times stored; -ENODATA when none. */
int query_span(struct db *db, uint64_t *oldest_ns, uint64_t *newest_ns);

/* A fact the daemon recorded (meta table) into buf; -ENOENT if absent. */
int query_meta(struct db *db, const char *key, char *buf, size_t len);

#endif
