/*
 * store.h - the daemon's writer to SQLite.  The only code that writes the
 * database: owns the connection and the prepared statements; callers see
 * struct store and struct interval_data.  Does not log: returns -errno and
 * a one-line message in err.
 */
#ifndef STACKD_STORE_H
#define STACKD_STORE_H

#include "daemon/attribute/interval.h"
#include "daemon/plan/plan.h"
#include "lib/model/model.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct store;

/* Open (creating if needed) the database at path, in WAL mode, and apply
 * schema/ steps up to the newest.  A database from a newer stackd is refused
 * untouched; a database this call created is removed again if setup fails. */
int store_open(const char *path, struct store **ret, char *err, size_t errlen);
void store_close(struct store *s);   /* NULL is a no-op */

/* Register this boot and the planned groups (idempotent); plan NULL: every
 * family of m whole, as a host with counters to spare would have it. */
int store_register(struct store *s, const struct model *m, const struct plan *plan,
		   const char *boot_id, uint64_t booted_ns, char *err, size_t errlen);

/* Write one or more intervals (linked by ->next) in one transaction.  On
 * error nothing of them is stored and they can be written again later. */
int store_write_intervals(struct store *s, const struct interval_data *iv,
			  char *err, size_t errlen);

/* Whether a raw interval of boot boot_id spanning exactly start_ns ..
 * end_ns is stored: 1 or 0, or -errno. */
int store_has_interval(struct store *s, const char *boot_id, uint64_t start_ns,
		       uint64_t end_ns);

/* How long a write waits for a lock held by someone else before failing
 * with -EBUSY (default 200 ms: the caller keeps what it could not write
 * and tries again later, its loop never stalls). */
void store_set_busy_timeout(struct store *s, int ms);

/* Whether path no longer names the file s has open (one stat): deleted,
 * or replaced (a mv over it); why says which.  Writes to s then go to a
 * file nobody will read: close s and open path anew. */
bool store_file_replaced(const struct store *s, const char *path, char *why, size_t len);

/* Copy the WAL into the database, so the next transaction writes the WAL
 * from its start again (reusing its space) and pages freed by retention
 * leave the file; truncate: the WAL's space goes back to the filesystem
 * too. */
int store_checkpoint(struct store *s, bool truncate, char *err, size_t errlen);

/* Keep the WAL near bytes: checkpointed once it holds that much (SQLite's
 * default is 1000 pages, 4 MiB) and cut back to it after each checkpoint,
 * so that a transaction seldom has to grow it on a filesystem that has
 * no room to spare. */
void store_set_wal_limit(struct store *s, uint64_t bytes);

/* Remove path's -wal and -shm files: after the database file was deleted
 * or replaced under a closed store, they belong to the old file, and a new
 * file at path must not replay them. */
void store_remove_journal(const char *path);

/* Roll complete minutes of raw intervals into per-minute rollups, and
 * complete hours of those into per-hour rollups (schema/002-rollups.sql),
 * in one transaction, at most max_buckets rows and, past the first,
 * stopping once max_ns have gone.  Returns the number made, *more set when
 * more may be due (call again soon), or -errno with err. */
int store_rollup(struct store *s, unsigned max_buckets, uint64_t max_ns, bool *more,
		 char *err, size_t errlen);

/* What one store_rollup call may write, about (0, the default: no limit).
 * On a small filesystem a minute of a process storm rolls up into about
 * as much as it holds; a bucket that does not fit waits (not marked done)
 * while retention over the cap deletes its oldest rows. */
void store_set_rollup_room(struct store *s, uint64_t bytes);

/* The levels retention knows: raw intervals, minute, hour and day rollups. */
#define STORE_LEVELS 4

struct store_retention {
	uint64_t now_ns;                  /* CLOCK_REALTIME */
	uint64_t keep_ns[STORE_LEVELS];   /* how long each level is kept */
	uint64_t max_bytes;               /* size cap of the stored data; 0: none */
	uint64_t other_bytes;             /* counted with the data against it: the WAL */
	unsigned max_intervals;           /* rows of one level deleted per call, about */
	uint64_t max_delete_bytes;        /* and past the rules, about this much; 0: no limit */
};

/* Retention, one bounded step (a flush calls it; the collector's workers
 * never wait on it): delete each level's rows older than its keep time, in
 * whole buckets already rolled up (see store_prune.c), and, while the
 * stored data and other_bytes outgrow max_bytes, the oldest rows whatever
 * their age, raw intervals first, and past the rules if need be (down to
 * each level's newest row); with them the processes no row names any
 * more; then hand freed pages back to the filesystem.  Returns the number
 * of rows deleted, or -errno with err. */
int store_prune(struct store *s, const struct store_retention *r, char *err, size_t errlen);

/* Whether pruned space goes back to the filesystem (incremental
 * auto-vacuum); false for a large database made by an early stackd, whose
 * freed pages are reused instead, until VACUUMed by hand. */
bool store_reclaims_space(const struct store *s);
/* Set when store_open found the file damaged and moved it aside: what was
 * wrong and where it went (for the log), else NULL. */
const char *store_moved_aside(const struct store *s);

/* Set when store_open checked only what opening needs (the file is too
 * large to check whole before the start is done): the rest is for
 * store_check_start, after the start. */
bool store_check_deferred(const struct store *s);

/* A check of the whole database file at path, on a read-only connection
 * of its own, in a thread at the lowest CPU priority (store_check.c): the
 * writer goes on meanwhile. */
struct store_check;
int store_check_start(const char *path, struct store_check **ret);
/* 1 while it runs; 0 whole; -EBADMSG damaged (why says how); another
 * -errno when it could not check (why). */
int store_check_result(struct store_check *c, char *why, size_t len);
/* Stop it (a check still running is interrupted) and free it; NULL is a
 * no-op. */
void store_check_free(struct store_check *c);

/* Bytes the stored data takes (pages in use, not free ones). */
int store_used_bytes(struct store *s, uint64_t *ret);

/* The regression CPI stack fits kept (schema/007-cpi-fit.sql): 8 hours
 * of them at one per 10 minutes. */
#define STORE_CPIFIT_KEEP 48
#define STORE_CPIFIT_KEEP_FAILED 4   /* failed attempts kept: the newest says why */

/* What one fit attempt gave, for the log. */
struct store_cpifit_result {
	bool fitted;
	size_t rows;              /* process-intervals regressed on */
	double r2, held_error;
	unsigned n_dropped;
	uint64_t created_ns;
	uint64_t cost_ns;         /* CPU time to read the rows and fit */
	char error[512];          /* why not fitted */
};

/* Fit the host's regression CPI stack (lib/model/cpi_fit.h) over the
 * current model's raw intervals ending in the window_ns before the newest,
 * and store the attempt as a cpi_fit row made at now_ns (a failed one with
 * its reason), keeping the newest STORE_CPIFIT_KEEP fits and the newest
 * STORE_CPIFIT_KEEP_FAILED failed attempts.  Returns 1 when a row
 * was written, 0 when the model has no regression stack (nothing done),
 * or -errno with err. */
int store_cpifit(struct store *s, uint64_t now_ns, uint64_t window_ns,
		 struct store_cpifit_result *res, char *err, size_t errlen);

/* key/value facts for `stackctl status`: version, model, started, ... */
int store_set_meta(struct store *s, const char *const *kv, size_t n_pairs,
		   char *err, size_t errlen);

#endif
