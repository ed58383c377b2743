/*
 * writer.c - the daemon's database writer.  See writer.h.
 *
 * Intervals that cannot be written wait in memory (up to retry_buffer of
 * them) and go out with the next write that succeeds; a store over its cap
 * on a full filesystem makes room at once, a full filesystem someone else
 * filled is waited out (writer_space.c); a database file deleted or
 * replaced under us is opened anew.
 */
#include "daemon/store/writer.h"
#include "daemon/store/spill.h"
#include "daemon/store/store_guard.h"
#include "daemon/store/writer_space.h"
#include "daemon/base/log.h"
#include "lib/clock.h"
#include "lib/db.h"

#include <errno.h>
#include <inttypes.h>
#include <libgen.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static int read_boot_id(char *buf, size_t len)
{
	FILE *f = fopen("/proc/sys/kernel/random/boot_id", "re");

	if (f == NULL)
		return -errno;
	if (fgets(buf, (int)len, f) == NULL) {
		fclose(f);
		return -EIO;
	}
	fclose(f);
	buf[strcspn(buf, "\n")] = '\0';
	return 0;
}

/* The default database lives in /var/lib/stackd: create that one directory
 * (only for the default path; a path the user names must already exist). */
static void make_default_dir(const char *db)
{
	char *copy;

	if (strcmp(db, STACKD_DEFAULT_DB) != 0)
		return;
	copy = strdup(db);
	if (copy == NULL)
		return;
	if (mkdir(dirname(copy), 0750) < 0 && errno != EEXIST)
		log_debug("cannot create the directory of %s: %s", db, strerror(errno));
	free(copy);
}

static void tell_data_changed(const struct writer *w)
{
	if (w->listener.data_changed != NULL)
		w->listener.data_changed(w->listener.ctx);
}

static void tell_database_replaced(const struct writer *w)
{
	if (w->listener.database_replaced != NULL)
		w->listener.database_replaced(w->listener.ctx);
}

static void drop_oldest_pending(struct writer *w)
{
	struct interval_data *old = w->pending;

	w->pending = old->next;
	if (w->pending == NULL)
		w->pending_tail = NULL;
	old->next = NULL;
	interval_free(old);
	w->n_pending--;
	w->ws.dropped++;
	w->dropped_unlogged++;
}

/* One line a minute at most, with counts: during a long outage every flush
 * drops one. */
static void report_drops(struct writer *w, bool now)
{
	if (w->dropped_unlogged == 0 || (!log_throttle(&w->warned_drop, monotonic_ns()) && !now))
		return;
	log_error("dropped %" PRIu64 " unwritten interval(s) since the last report (%" PRIu64
		  " in all): the database has been failing for longer than retry_buffer (%u)",
		  w->dropped_unlogged, w->ws.dropped, w->retry_buffer);
	w->dropped_unlogged = 0;
}

/* The store again at the configured path, after its file was deleted or
 * replaced: a new file with the schema (or the file put there), the lock
 * taken anew, this boot registered, the daemon's facts recorded. */
static int reopen_store(struct writer *w, char *err, size_t errlen)
{
	int r;

	r = store_open(w->database, &w->store, err, errlen);
	if (r == 0)
		r = store_register(w->store, w->model, w->plan, w->boot_id, w->booted_ns, err,
				   errlen);
	if (r < 0) {
		store_close(w->store);
		w->store = NULL;
		return r;
	}
	w->register_due = false;
	w->check_due = store_check_deferred(w->store);
	writer_space_open(w);
	if (store_moved_aside(w->store) != NULL)
		log_warning("%s", store_moved_aside(w->store));
	w->reopened(w->reopened_ctx);
	tell_database_replaced(w);
	log_info("writing to a new %s from now on", w->database);
	return 0;
}

/* One stat per flush: a database deleted or replaced under us would take
 * every later interval with it, unseen (the API answers from the path). */
static void check_database_file(struct writer *w)
{
	char why[64];

	if (w->store == NULL)
		return;
	if (!store_file_replaced(w->store, w->database, why, sizeof(why))) {
		w->written_unchecked = 0;
		return;
	}
	w->ws.replaced++;
	w->ws.lost_in_replaced += w->written_unchecked;
	log_error("%s was %s while stackd wrote it: %" PRIu64 " interval(s) written since it "
		  "was last seen in place went to the old file and are lost; opening it anew",
		  w->database, why, w->written_unchecked);
	w->written_unchecked = 0;
	/* Readers first: they must not keep the old file open, or the -wal. */
	tell_database_replaced(w);
	store_close(w->store);
	w->store = NULL;
	store_remove_journal(w->database);
}

#define PRUNE_EVERY_NS (60ULL * NS_PER_SEC)
#define PRUNE_BATCH_INTERVALS 60
#define ROLLUP_BATCH_BUCKETS 30
/* A flush is due every interval: roll up for at most this long per call. */
#define ROLLUP_BUDGET_NS (100ULL * NS_PER_MSEC)

/* What a stop saved in the spill file (spill.c), written before anything
 * newer: 0 when done (or nothing to do); -errno with err when the store
 * cannot take it now (try again at the next write).  A damaged file is
 * kept aside, logged, and not tried again. */
static int replay_spill(struct writer *w, char *err, size_t errlen)
{
	char why[1024];
	size_t n = 0;
	int r;

	if (!w->spill_due)
		return 0;
	r = spill_replay(w->store, w->database, &n, why, sizeof(why));
	/* Back to our own plan, whatever the file's batches registered. */
	w->register_due = true;
	if (r == -EBADMSG) {
		log_error("intervals saved at a stop cannot be written: %s", why);
	} else if (r < 0) {
		snprintf(err, errlen, "%s", why);
		return r;
	}
	if (n > 0)
		log_info("wrote %zu interval(s) a stop had saved in %s%s", n, w->database,
			 SPILL_SUFFIX);
	w->written += n;
	w->spill_due = false;
	return 0;
}

static int try_write(struct writer *w, char *err, size_t errlen)
{
	int r;

	if (w->store == NULL) {
		r = reopen_store(w, err, errlen);
		if (r < 0)
			return r;
	}
	r = replay_spill(w, err, errlen);
	if (r < 0)
		return r;
	if (w->register_due) {
		r = writer_replan(w, err, errlen);
		if (r < 0)
			return r;
	}
	return w->pending != NULL ? store_write_intervals(w->store, w->pending, err, errlen) : 0;
}

static void write_done(struct writer *w)
{
	if (w->ws.failing_since_ns != 0)
		log_info("database writable again: wrote %zu delayed interval(s) after %" PRIu64
			 " failed write(s) in all", w->n_pending, w->ws.write_errors);
	report_drops(w, true);
	w->written += w->n_pending;
	w->written_unchecked += w->n_pending;
	while (w->pending != NULL) {
		struct interval_data *next = w->pending->next;

		interval_free(w->pending);
		w->pending = next;
	}
	w->pending_tail = NULL;
	w->n_pending = 0;
	w->ws.last_write_ns = clock_ns(CLOCK_REALTIME);
	w->ws.failing_since_ns = 0;
	w->ws.last_error[0] = '\0';
}

static void write_failed(struct writer *w, const char *err)
{
	w->ws.write_errors++;
	if (w->ws.failing_since_ns == 0)
		w->ws.failing_since_ns = clock_ns(CLOCK_REALTIME);
	snprintf(w->ws.last_error, sizeof(w->ws.last_error), "%.*s",
		 (int)sizeof(w->ws.last_error) - 1, err);
	if (log_throttle(&w->warned_write, monotonic_ns()))
		log_warning("cannot write to %s: %s; keeping %zu interval(s) in memory (up to %u); "
			    "%" PRIu64 " failed write(s) so far", w->database, err, w->n_pending,
			    w->retry_buffer, w->ws.write_errors);
	while (w->n_pending > w->retry_buffer)
		drop_oldest_pending(w);
	report_drops(w, false);
}

static void write_pending(struct writer *w)
{
	char err[1024];
	int r;

	if (w->pending == NULL)
		return;
	r = try_write(w, err, sizeof(err));
	/* (not when the store itself could not be reopened: nothing to prune) */
	if (r == -ENOSPC && w->store != NULL && writer_space_full(w, err, sizeof(err)))
		r = try_write(w, err, sizeof(err));
	if (r == 0)
		write_done(w);
	else
		write_failed(w, err);
}

/* Rollups and retention in small steps after a flush: once a minute, or at
 * every flush while a backlog is left (a migrated database, a lowered
 * retention, a database over its cap).  The collector's workers go on
 * counting meanwhile; only the next flush can start a little late.  Also
 * while writes fail: a database that filled its filesystem needs room. */
static void roll_and_prune(struct writer *w)
{
	uint64_t now = monotonic_ns();
	char err[1024];
	bool more = false, over;
	int made = 0, n;

	/* (nor before a stop's saved intervals are in: rollups would pass them) */
	if (w->store == NULL || w->spill_due)
		return;
	if (w->reserve_missing)
		writer_space_restore(w);
	over = writer_space_over_cap(w);
	if (now < w->next_prune_ns && !over)
		return;
	/* Over the cap deleting goes first and rollups wait: in a storm of
	 * new processes a minute's rollup writes about as much as the minute
	 * holds, more than a small filesystem has to spare. */
	if (!over) {
		store_set_rollup_room(w->store, writer_space_rollup_room(w));
		made = store_rollup(w->store, ROLLUP_BATCH_BUCKETS, ROLLUP_BUDGET_NS, &more, err,
				    sizeof(err));
	}
	/* Over the cap retention runs at every flush: say a failure once a
	 * minute, not every time. */
	if (made < 0) {
		if (log_throttle(&w->warned_rollup, now))
			log_warning("rollups: %s; trying again (said once a minute)", err);
		made = 0;
	}
	n = writer_space_prune(w, err, sizeof(err));
	if (n < 0) {
		if (log_throttle(&w->warned_prune, now))
			log_warning("retention: %s; trying again (said once a minute)", err);
		n = 0;
	} else if (n > 0 || made > 0) {
		log_debug("retention: %d rollups made, %d old rows deleted", made, n);
	}
	w->next_prune_ns = n >= PRUNE_BATCH_INTERVALS || more || over ? now :
			   now + PRUNE_EVERY_NS;
}

/* A database too large to check whole at start (store_check_deferred) is
 * checked after it, in the background; found damaged, it goes aside as
 * at a start (named in the log, with what was written to it since), and
 * the next flush opens a new one. */
static void check_store(struct writer *w)
{
	char why[1024], moved[4096];
	int r;

	if (!w->check_due || w->store == NULL)
		return;
	if (w->check == NULL && store_check_start(w->database, &w->check) < 0) {
		w->check_due = false;
		return;
	}
	r = store_check_result(w->check, why, sizeof(why));
	if (r == 1)
		return;
	store_check_free(w->check);
	w->check = NULL;
	w->check_due = false;
	if (r == 0) {
		log_info("%s checked whole after the start: no damage", w->database);
		return;
	}
	if (r != -EBADMSG) {
		log_warning("%s; not checked whole this time", why);
		return;
	}
	tell_database_replaced(w);
	store_close(w->store);
	w->store = NULL;
	r = store_guard_move_aside(w->database, moved, sizeof(moved));
	log_error("%s (found after the start): %s '%s' with the %" PRIu64 " interval(s) written "
		  "since; a new database from the next interval on", why,
		  r == 0 ? "moved to" : "cannot move it aside, leaving it at", r == 0 ? moved :
		  w->database, w->written);
}

/* The regression CPI stack's fit (store_cpifit): the first two minutes
 * after start, then every ten minutes over the last hour of raw intervals;
 * again after two while there are too few.  It runs here, after a flush,
 * off the sampling path: measured (release build), 52 ms of CPU for
 * 17,850 process-intervals (50 processes, 357 intervals), 168 ms for
 * 53,550; about 3 us a row, nearly all of it reading the rows, which
 * store_cpifit caps at 50,000. */
#define CPIFIT_FIRST_NS (120ULL * NS_PER_SEC)
#define CPIFIT_EVERY_NS (600ULL * NS_PER_SEC)
#define CPIFIT_WINDOW_NS (3600ULL * NS_PER_SEC)

static void fit_cpi(struct writer *w)
{
	struct store_cpifit_result res;
	uint64_t now = monotonic_ns();
	char err[1024];
	int r;

	if (w->store == NULL || now < w->next_cpifit_ns)
		return;
	r = store_cpifit(w->store, clock_ns(CLOCK_REALTIME), CPIFIT_WINDOW_NS, &res, err,
			 sizeof(err));
	w->next_cpifit_ns = now + (r == 1 && !res.fitted ? CPIFIT_FIRST_NS : CPIFIT_EVERY_NS);
	if (r < 0)
		log_warning("regression CPI stack: %s; trying again in 10 min", err);
	else if (r == 1 && res.fitted)
		log_debug("regression CPI stack: fitted on %zu process-intervals, R2 %.3f, "
			  "held-out error %.1f%%, %u regressor(s) dropped, %.1f ms", res.rows,
			  res.r2, 100.0 * res.held_error, res.n_dropped,
			  (double)res.cost_ns / (double)NS_PER_MSEC);
	else if (r == 1)
		log_debug("regression CPI stack: no fit yet: %s", res.error);
	if (r == 1)
		tell_data_changed(w);
}

/* What the API and /metrics say about the writer: live, so an outage
 * shows while it lasts; a change makes cached answers stale. */
void writer_publish(struct writer *w)
{
	w->ws.pending = w->n_pending;
	if (writer_status_publish(&w->ws_box, &w->ws))
		tell_data_changed(w);
}

void writer_add(struct writer *w, struct interval_data *iv)
{
	iv->next = NULL;
	if (w->pending_tail != NULL)
		w->pending_tail->next = iv;
	else
		w->pending = iv;
	w->pending_tail = iv;
	w->n_pending++;
}

void writer_flush(struct writer *w)
{
	check_database_file(w);
	write_pending(w);
}

void writer_maintain(struct writer *w)
{
	check_store(w);
	roll_and_prune(w);
	fit_cpi(w);
}

/* At the stop, what could not be written: one more try, waiting for a lock
 * up to STOP_WAIT_MS, then saved in the spill file for the next start. */
#define STOP_WAIT_MS 1000

static bool spill_pending(struct writer *w)
{
	struct spill_context ctx = {
		.model = w->model, .plan = w->plan, .boot_id = w->boot_id,
		.booted_ns = w->booted_ns,
	};
	struct plan whole;
	char err[1024];

	if (w->store != NULL && !w->spill_due) {
		store_set_busy_timeout(w->store, STOP_WAIT_MS);
		write_pending(w);
		if (w->n_pending == 0)
			return true;
	}
	if (w->model == NULL)
		return false;   /* never opened: nothing was registered */
	if (w->plan == NULL) {   /* as store_register takes it */
		plan_whole(w->model, &whole);
		ctx.plan = &whole;
	}
	if (spill_save(w->database, &ctx, w->pending, err, sizeof(err)) < 0) {
		log_error("%s", err);
		return false;
	}
	log_warning("%zu interval(s) could not be written to %s (%s): saved in %s%s, written "
		    "there at the next start", w->n_pending, w->database, w->ws.last_error,
		    w->database, SPILL_SUFFIX);
	return true;
}

bool writer_final_report(struct writer *w)
{
	report_drops(w, true);
	if (w->n_pending > 0 && !spill_pending(w)) {
		log_error("%zu interval(s) could not be written to %s and are lost (%s)",
			  w->n_pending, w->database, w->ws.last_error);
		return false;
	}
	log_info("stopped; %" PRIu64 " intervals written", w->written);
	return true;
}

void writer_configure(struct writer *w, const struct writer_options *o)
{
	_Static_assert(sizeof(w->retention_ns) == sizeof(o->retention_ns), "retention levels");
	w->retry_buffer = o->retry_buffer;
	memcpy(w->retention_ns, o->retention_ns, sizeof(o->retention_ns));
	w->max_database_mb = o->max_database_mb;
	w->ws.space_cap_bytes = 0;   /* said again if the filesystem is still too small */
	w->next_prune_ns = 0;
}

void writer_init(struct writer *w, const struct writer_options *o,
		 void (*reopened)(void *ctx), void *ctx)
{
	memset(w, 0, sizeof(*w));
	w->database = o->database;
	w->reopened = reopened;
	w->reopened_ctx = ctx;
	writer_configure(w, o);
	writer_status_init(&w->ws_box);
}

int writer_open(struct writer *w, const struct model *m, const struct plan *plan,
		uint64_t *started_ns)
{
	const char *db = w->database;
	char err[2048];
	int r;

	/* The store holds every user's command lines: files we create are not
	 * world-readable (0640); group access is for an operator group. */
	umask(027);
	make_default_dir(db);
	r = store_open(db, &w->store, err, sizeof(err));
	if (r < 0) {
		log_error("%s", err);
		return r;
	}
	writer_space_open(w);
	w->check_due = store_check_deferred(w->store);
	if (store_moved_aside(w->store) != NULL)
		log_warning("%s", store_moved_aside(w->store));
	if (!store_reclaims_space(w->store))
		log_info("%s was made by an early stackd: space freed by retention is reused, not "
			 "returned; to return it, stop stackd and run: sqlite3 %s 'PRAGMA auto_vacuum "
			 "= INCREMENTAL; VACUUM'", db, db);
	if (read_boot_id(w->boot_id, sizeof(w->boot_id)) < 0)
		snprintf(w->boot_id, sizeof(w->boot_id), "unknown");
	*started_ns = clock_ns(CLOCK_REALTIME);
	w->booted_ns = *started_ns - clock_ns(CLOCK_BOOTTIME);
	w->model = m;
	w->plan = plan;
	w->next_cpifit_ns = monotonic_ns() + CPIFIT_FIRST_NS;
	r = store_register(w->store, m, plan, w->boot_id, w->booted_ns, err, sizeof(err));
	if (r < 0) {
		log_error("%s: %s", db, err);
		return r;
	}
	/* Intervals a stop saved: written now, before anything newer, or with
	 * the first write that can. */
	w->spill_due = spill_exists(db);
	if (w->spill_due && try_write(w, err, sizeof(err)) < 0)
		log_warning("intervals saved at a stop in %s%s cannot be written yet: %s; trying "
			    "again with the next write", db, SPILL_SUFFIX, err);
	return 0;
}

int writer_replan(struct writer *w, char *err, size_t errlen)
{
	int r;

	w->register_due = false;
	if (w->store == NULL)
		return 0;   /* reopen_store registers w->plan */
	r = store_register(w->store, w->model, w->plan, w->boot_id, w->booted_ns, err, errlen);
	if (r < 0)
		w->register_due = true;
	return r;
}

void writer_attach(struct writer *w, const struct writer_listener *l)
{
	if (l != NULL)
		w->listener = *l;
	else
		memset(&w->listener, 0, sizeof(w->listener));
}

void writer_close(struct writer *w)
{
	while (w->pending != NULL) {
		struct interval_data *next = w->pending->next;

		interval_free(w->pending);
		w->pending = next;
	}
	store_check_free(w->check);
	store_close(w->store);
	writer_status_done(&w->ws_box);
}

struct store *writer_store(const struct writer *w)
{
	return w->store;
}

struct writer_status_box *writer_box(struct writer *w)
{
	return &w->ws_box;
}

size_t writer_pending(const struct writer *w)
{
	return w->n_pending;
}

uint64_t writer_written(const struct writer *w)
{
	return w->written;
}
