/*
 * writer.h - the daemon's database writer, run by the main thread at every
 * flush: the intervals that wait to be written (up to retry_buffer of them
 * while the database fails, the oldest dropped beyond), the size cap
 * (max_database_mb, or less when that does not fit on the filesystem),
 * rollups and retention in bounded steps, the database file deleted or
 * replaced under it (reopened), and what the API shows about all that
 * (lib/writer_status.h).  Logs, throttled to once a minute per kind where
 * an outage would repeat a line at every flush.
 */
#ifndef STACKD_WRITER_H
#define STACKD_WRITER_H

#include "daemon/attribute/interval.h"
#include "daemon/store/store.h"
#include "lib/writer_status.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* What the writer takes from the configuration (the fields of the same
 * names in the daemon's), filled by its caller. */
struct writer_options {
	const char *database;            /* outlives the writer, read at each reopen */
	unsigned retry_buffer;           /* intervals kept while the database fails */
	unsigned max_database_mb;        /* size cap; 0: none */
	uint64_t retention_ns[STORE_LEVELS];   /* raw intervals, minute, hour and day rollups kept */
};

/* Whom the writer tells what changed in the database (the HTTP API, whose
 * cached answers and open connections depend on it).  Each callback may
 * be NULL; they run on the writer's thread. */
struct writer_listener {
	void (*data_changed)(void *ctx);        /* new data: cached answers are stale */
	void (*database_replaced)(void *ctx);   /* another file: drop connections to the old */
	void *ctx;
};

struct writer {
	struct store *store;             /* NULL while the file cannot be reopened */
	const char *database;            /* the configuration's path; outlives the writer */
	unsigned retry_buffer;
	unsigned max_database_mb;
	uint64_t retention_ns[STORE_LEVELS];
	const struct model *model;       /* registered again in a reopened file */
	const struct plan *plan;         /* the caller's, changed in place by a re-plan */
	bool register_due;               /* a re-planned plan is not registered yet */
	bool spill_due;                  /* intervals a stop saved wait to be written (spill.h) */
	bool check_due;                  /* the file is to be checked whole after the start */
	struct store_check *check;       /* that check, while it runs */
	char boot_id[64];
	uint64_t booted_ns;
	struct writer_listener listener; /* told when the file or the data change */
	void (*reopened)(void *ctx);     /* records the daemon's facts in a reopened file */
	void *reopened_ctx;
	struct interval_data *pending, *pending_tail;
	size_t n_pending;
	uint64_t written;
	uint64_t written_unchecked;      /* since the file was last seen in place */
	uint64_t dropped_unlogged;       /* dropped since the last line saying so */
	struct writer_status ws;         /* published to ws_box after each flush */
	struct writer_status_box ws_box;
	uint64_t warned_write, warned_drop, warned_full, warned_rollup, warned_prune;
	uint64_t next_prune_ns;          /* CLOCK_MONOTONIC */
	uint64_t fs_share;               /* what the filesystem lets the store have (writer_space.c) */
	uint64_t wal_limit;              /* the WAL's allowance, and the reserve's size */
	bool reserve_missing;            /* spent, or could not be made: made again when it can */
	uint64_t next_cpifit_ns;         /* CLOCK_MONOTONIC: the next regression fit */
};

/* No store yet, nobody told yet; the path and the limits from o (its
 * database must outlive w).  reopened(ctx) is called when the file was
 * reopened, before the write. */
void writer_init(struct writer *w, const struct writer_options *o,
		 void (*reopened)(void *ctx), void *ctx);
/* The limits again (a reload): retry_buffer, retention, max_database_mb;
 * o->database is not read (the path stays).  A cap the filesystem imposed
 * is forgotten (said again if it still holds) and retention runs at the
 * next flush. */
void writer_configure(struct writer *w, const struct writer_options *o);
/* Open the database (its default directory made), registered for this
 * boot with model m.  *started_ns: CLOCK_REALTIME taken right before the
 * registration, the start of this daemon's data.  Logs its error. */
int writer_open(struct writer *w, const struct model *m, const struct plan *plan,
		uint64_t *started_ns);
/* The plan w->plan points to changed (a SIGHUP re-planned it): register
 * its groups, so intervals written from now on are stored under them.
 * Nothing queued may be of the old plan (rows name groups by index).
 * When the database cannot take it now, err says why and the next write
 * registers it first; -errno. */
int writer_replan(struct writer *w, char *err, size_t errlen);
/* Whom to tell, once the API that reads the store runs: *l is copied
 * (NULL: nobody). */
void writer_attach(struct writer *w, const struct writer_listener *l);
/* Frees what writer_init and writer_open made; the listener must be done
 * (the API stopped). */
void writer_close(struct writer *w);

/* Queue iv (the writer's from now on, freed once written or dropped). */
void writer_add(struct writer *w, struct interval_data *iv);
/* Write what is queued, after checking the file is still in place. */
void writer_flush(struct writer *w);
/* Rollups and retention, one bounded step when due. */
void writer_maintain(struct writer *w);
/* Tell the API how the writer is doing. */
void writer_publish(struct writer *w);
/* At the stop, after the last flush: what was written or lost.  True when
 * nothing is left unwritten. */
bool writer_final_report(struct writer *w);

struct store *writer_store(const struct writer *w);   /* NULL: being reopened */
struct writer_status_box *writer_box(struct writer *w);
size_t writer_pending(const struct writer *w);
uint64_t writer_written(const struct writer *w);

#endif
