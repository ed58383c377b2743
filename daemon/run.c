/*
 * run.c - the running daemon.  See run.h.
 *
 * Threads: one worker per CPU (worker.c) samples and attributes; this, the
 * main thread, flushes every interval, writes SQLite and handles signals.
 * A slow or failing database therefore never stalls sampling: intervals
 * that cannot be written wait in memory (up to retry_buffer of them) and go
 * out with the next write that succeeds.
 */
#include "run.h"
#include "lib/clock.h"
#include "collector.h"
#include "event_encode.h"
#include "exclude.h"
#include "families.h"
#include "flush.h"
#include "http_server.h"
#include "instance.h"
#include "log.h"
#include "proctab.h"
#include "notify.h"
#include "privilege.h"
#include "prom.h"
#include "store.h"
#include "worker.h"
#include "lib/db.h"
#include "lib/duration.h"
#include "lib/sampling_cost.h"
#include "lib/version.h"
#include "lib/writer_status.h"

#include <errno.h>
#include <inttypes.h>
#include <libgen.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/signalfd.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/timerfd.h>
#include <unistd.h>

#define WARN_EVERY_NS (60ULL * NS_PER_SEC)

struct daemon {
	struct config cfg;
	config_reload_fn reload;
	const struct model *model;
	char model_why[512];
	struct collector *col;
	struct store *store;
	struct proctab pt;
	bool pt_ready;
	struct worker *workers;
	size_t n_workers;
	struct flusher fl;
	bool fl_ready;
	struct interval_data *pending, *pending_tail;
	size_t n_pending;
	uint64_t written;
	uint64_t written_unchecked;      /* since the file was last seen in place */
	uint64_t dropped_unlogged;       /* dropped since the last line saying so */
	struct writer_status ws;         /* published to ws_box after each flush */
	struct writer_status_box ws_box;
	char boot_id[64];
	uint64_t booted_ns;
	uint64_t warned_write, warned_drop, warned_full, warned_lost, warned_rate, warned_late,
		 warned_straddle, warned_rollup, warned_prune;
	uint64_t started_ns;
	uint64_t next_prune_ns;          /* CLOCK_MONOTONIC */
	int sfd, tfd;
	int instance_fd;              /* the host's stackd name (instance.h), or -1 */
	struct exclusions excl;
	struct prom *prom;
	struct http_server *http;
	struct notifier notify;
};

int run_pick_model(const char *name, const struct model **ret, char *why, size_t len)
{
	char hw[256];
	const char *pmu;

	if (strcmp(name, "auto") != 0) {
		*ret = model_find(name);
		if (*ret == NULL) {
			snprintf(why, len, "unknown model '%s'", name);
			return -ENOENT;
		}
		snprintf(why, len, "model '%s' (from the configuration)", name);
		return 0;
	}
	pmu = event_encode_host_pmu();
	if (collector_probe_hardware(hw, sizeof(hw)) < 0) {
		snprintf(why, len, "no usable hardware PMU here (%s; libpfm4 sees %s): "
			 "using the software model", hw, pmu ? pmu : "no core PMU");
	} else if (pmu != NULL && model_for_pmu(pmu) != NULL) {
		*ret = model_for_pmu(pmu);
		snprintf(why, len, "hardware PMU '%s'", pmu);
		return 0;
	} else {
		snprintf(why, len, "hardware PMU '%s' has no model in this stackd: "
			 "using the software model", pmu ? pmu : "unknown");
	}
	*ret = &model_software;
	return 0;
}

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

/* "1" in a one-line sysfs/procfs file ("on" for smt/control's sibling). */
static bool file_says_on(const char *path)
{
	char buf[16] = "";
	FILE *f = fopen(path, "re");

	if (f == NULL)
		return false;
	if (fgets(buf, sizeof(buf), f) == NULL)
		buf[0] = '\0';
	fclose(f);
	return buf[0] == '1';
}

static bool host_smt_on(void)
{
	return file_says_on("/sys/devices/system/cpu/smt/active");
}

/* A group that needs more general counters than this host offers cannot
 * be scheduled (leaders are pinned): say which and why, once, at start. */
static void check_counter_budget(const struct model *m)
{
	bool smt = host_smt_on(), watchdog = file_says_on("/proc/sys/kernel/nmi_watchdog");
	unsigned budget = model_gp_budget(m, smt, watchdog), g;

	if (m->vendor == VENDOR_NONE)
		return;
	for (g = 0; g < m->n_groups; g++) {
		unsigned need = model_group_gp_needed(&m->groups[g]);

		if (need > budget)
			log_warning("group '%s' needs %u general counters, this host offers %u "
				    "(SMT %s, NMI watchdog %s)%s: it will be reported unschedulable",
				    m->groups[g].name, need, budget, smt ? "on" : "off",
				    watchdog ? "on" : "off",
				    watchdog ? "; sysctl kernel.nmi_watchdog=0 frees one" : "");
	}
}

static void write_meta(struct daemon *d)
{
	char interval[32], rotate[32], started[32], pid[16], ncpus[16], ring[16], groups[512];
	char host[256] = "";
	size_t used = 0;
	unsigned g;

	gethostname(host, sizeof(host) - 1);

	duration_format(d->cfg.interval_ns, interval, sizeof(interval));
	duration_format(d->cfg.rotate_period_ns, rotate, sizeof(rotate));
	snprintf(started, sizeof(started), "%" PRIu64, d->started_ns);
	snprintf(pid, sizeof(pid), "%d", (int)getpid());
	snprintf(ncpus, sizeof(ncpus), "%zu", d->n_workers);
	snprintf(ring, sizeof(ring), "%u", d->cfg.ring_pages);
	groups[0] = '\0';
	for (g = 0; g < d->model->n_groups; g++) {
		int n;

		if (!d->col->group_on[g])
			continue;   /* "groups": the ones collected */
		n = snprintf(groups + used, sizeof(groups) - used, "%s%s", used ? "," : "",
			     d->model->groups[g].name);
		if (n > 0 && (size_t)n < sizeof(groups) - used)
			used += (size_t)n;
	}
	{
		const char *kv[] = {
			"version", STACKD_VERSION,
			"model", d->model->name,
			"model_reason", d->model_why,
			"groups", groups,
			"interval", interval,
			"rotate_period", rotate,
			"ring_pages", ring,
			"switch_event", d->cfg.switch_event == SWITCH_MEMBER ? "member" : "leader",
			"count_modes", d->cfg.count_modes,
			"exclude_comm", d->cfg.exclude_comm,
			"exclude_unit", d->cfg.exclude_unit,
			"exclude_user", d->cfg.exclude_user,
			"ncpus", ncpus,
			"smt", host_smt_on() ? "on" : "off",
			"pid", pid,
			"started_ns", started,
			"host", host,
		};
		char err[512];

		if (d->store == NULL)
			return;   /* written when the store is open again */
		if (store_set_meta(d->store, kv, sizeof(kv) / sizeof(kv[0]) / 2, err,
				   sizeof(err)) < 0)
			log_warning("cannot record daemon facts in the database: %s", err);
	}
}

/* Everything that needs root is open: become cfg.user with CAP_PERFMON
 * only.  Our state files (and the default directories we made) go with
 * us, so the API's readers and the next start as that user can use them. */
static int become_user(struct daemon *d)
{
	char wal[PATH_MAX + 8], shm[PATH_MAX + 8], lock[PATH_MAX + 8], err[1024];
	const char *paths[8];
	size_t n = 0;
	int r;

	snprintf(wal, sizeof(wal), "%s-wal", d->cfg.database);
	snprintf(shm, sizeof(shm), "%s-shm", d->cfg.database);
	paths[n++] = d->cfg.database;
	paths[n++] = wal;
	paths[n++] = shm;
	snprintf(lock, sizeof(lock), "%s.lock", d->cfg.database);
	paths[n++] = lock;
	if (strncmp(d->cfg.database, STACKD_STATE_DIR "/", sizeof(STACKD_STATE_DIR)) == 0)
		paths[n++] = STACKD_STATE_DIR;
	if (strstr(d->cfg.listen, "unix:" STACKD_RUNTIME_DIR "/") != NULL)
		paths[n++] = STACKD_RUNTIME_DIR;
	paths[n] = NULL;
	r = privilege_drop(d->cfg.user, paths, err, sizeof(err));
	if (r < 0)
		log_error("%s", err);
	else
		log_info("running as %s with CAP_PERFMON only", d->cfg.user);
	return r;
}

static bool due(uint64_t *last, uint64_t now)
{
	if (*last != 0 && now - *last < WARN_EVERY_NS)
		return false;
	*last = now;
	return true;
}

/* Say what went wrong with collection, at most once a minute per kind. */
static void report_health(struct daemon *d, const struct interval_data *iv)
{
	uint64_t now = monotonic_ns();

	if (iv->st.lost_records > 0 && due(&d->warned_lost, now))
		log_warning("ring buffers overflowed: %" PRIu64 " samples lost in %" PRIu64
			    " records this interval; their counts are stored as unattributed "
			    "(raise ring_pages, now %u)", iv->st.lost_samples, iv->st.lost_records,
			    d->cfg.ring_pages);
	if (d->cfg.switch_rate_warning > 0 && iv->st.max_cpu_switch_rate > d->cfg.switch_rate_warning &&
	    due(&d->warned_rate, now))
		log_warning("cpu %d: %" PRIu64 " context switches/s; sampling each costs about "
			    "%.0f%% of that CPU (about %llu ns per switch)", iv->st.busiest_cpu,
			    iv->st.max_cpu_switch_rate,
			    100.0 * sampling_cost_fraction(iv->st.max_cpu_switch_rate),
			    SWITCH_SAMPLE_COST_NS);
	if (iv->st.late_cpus > 0 && due(&d->warned_late, now))
		log_warning("%" PRIu64 " CPU worker(s) missed the flush; their counts go into "
			    "the next interval", iv->st.late_cpus);
	if (iv->st.straddles > 0 && due(&d->warned_straddle, now))
		log_info("%" PRIu64 " spans of a reused pid could not be split between its "
			 "processes; stored as unattributed", iv->st.straddles);
}

static void drop_oldest_pending(struct daemon *d)
{
	struct interval_data *old = d->pending;

	d->pending = old->next;
	if (d->pending == NULL)
		d->pending_tail = NULL;
	old->next = NULL;
	interval_free(old);
	d->n_pending--;
	d->ws.dropped++;
	d->dropped_unlogged++;
}

/* One line a minute at most, with counts: during a long outage every flush
 * drops one. */
static void report_drops(struct daemon *d, bool now)
{
	if (d->dropped_unlogged == 0 || (!due(&d->warned_drop, monotonic_ns()) && !now))
		return;
	log_error("dropped %" PRIu64 " unwritten interval(s) since the last report (%" PRIu64
		  " in all): the database has been failing for longer than retry_buffer (%u)",
		  d->dropped_unlogged, d->ws.dropped, d->cfg.retry_buffer);
	d->dropped_unlogged = 0;
}

/* The store again at the configured path, after its file was deleted or
 * replaced: a new file with the schema (or the file put there), the lock
 * taken anew, this boot registered, the daemon's facts recorded. */
static int reopen_store(struct daemon *d, char *err, size_t errlen)
{
	int r;

	r = store_open(d->cfg.database, &d->store, err, errlen);
	if (r == 0)
		r = store_register(d->store, d->model, d->boot_id, d->booted_ns, err, errlen);
	if (r < 0) {
		store_close(d->store);
		d->store = NULL;
		return r;
	}
	if (store_moved_aside(d->store) != NULL)
		log_warning("%s", store_moved_aside(d->store));
	write_meta(d);
	http_server_database_replaced(d->http);
	log_info("writing to a new %s from now on", d->cfg.database);
	return 0;
}

/* One stat per flush: a database deleted or replaced under us would take
 * every later interval with it, unseen (the API answers from the path). */
static void check_database_file(struct daemon *d)
{
	char why[64];

	if (d->store == NULL)
		return;
	if (!store_file_replaced(d->store, d->cfg.database, why, sizeof(why))) {
		d->written_unchecked = 0;
		return;
	}
	d->ws.replaced++;
	d->ws.lost_in_replaced += d->written_unchecked;
	log_error("%s was %s while stackd wrote it: %" PRIu64 " interval(s) written since it "
		  "was last seen in place went to the old file and are lost; opening it anew",
		  d->cfg.database, why, d->written_unchecked);
	d->written_unchecked = 0;
	/* Readers first: they must not keep the old file open, or the -wal. */
	http_server_database_replaced(d->http);
	store_close(d->store);
	d->store = NULL;
	store_remove_journal(d->cfg.database);
}

static uint64_t file_bytes(const char *path, const char *suffix)
{
	char file[PATH_MAX + 8];
	struct stat st;

	snprintf(file, sizeof(file), "%s%s", path, suffix);
	return stat(file, &st) == 0 ? (uint64_t)st.st_size : 0;
}

/* SQLite checkpoints the WAL at 1000 pages (4 MiB of 4 KiB pages): it grows
 * to about that before its space is reused.  On a filesystem too small for
 * max_database_mb the WAL is truncated after every write instead
 * (keep_wal_small), so it needs room for about one flush. */
#define WAL_ROOM_BYTES (4ULL << 20)
#define WAL_ROOM_TIGHT_BYTES (1ULL << 20)

/* What the stored data can grow to on its filesystem: everything the store
 * holds or could take (the database file with its free pages, the WAL and
 * the filesystem's free space), less room for the WAL at its largest, less
 * an eighth to spare.  A database that fills its filesystem cannot even
 * delete (that writes the WAL) nor checkpoint (that may grow the file
 * while the WAL still holds its space), so the cap must hold before, not
 * after.  0: cannot tell. */
static uint64_t space_fit(const struct daemon *d)
{
	uint64_t wal = file_bytes(d->cfg.database, "-wal"), fit;
	uint64_t room = d->ws.space_cap_bytes != 0 ? WAL_ROOM_TIGHT_BYTES : WAL_ROOM_BYTES;
	char *copy = strdup(d->cfg.database);
	struct statvfs vfs;
	int r;

	if (copy == NULL)
		return 0;
	r = statvfs(dirname(copy), &vfs);
	free(copy);
	if (r < 0)
		return 0;
	fit = file_bytes(d->cfg.database, "") + wal + (uint64_t)vfs.f_bavail * vfs.f_frsize;
	fit = fit > room ? fit - room : 0;
	fit -= fit / 8;
	return fit > 0 ? fit : 1;
}

/* The size cap retention keeps: max_database_mb, or less when that does
 * not fit on the filesystem. */
static uint64_t size_cap(const struct daemon *d)
{
	uint64_t cap = (uint64_t)d->cfg.max_database_mb << 20, fit = space_fit(d);

	return fit != 0 && (cap == 0 || fit < cap) ? fit : cap;
}

/* Over the size cap now: retention is due at once, not in a minute.  The
 * first time the filesystem is what caps, say so (and status shows it). */
static bool over_cap(struct daemon *d)
{
	uint64_t used = 0, cap = size_cap(d);

	if (cap == 0 || store_used_bytes(d->store, &used) < 0 || used <= cap)
		return false;
	if (cap < (uint64_t)d->cfg.max_database_mb << 20 || d->cfg.max_database_mb == 0) {
		if (due(&d->warned_full, monotonic_ns()))
			log_warning("max_database_mb = %u does not fit on the filesystem of %s: "
				    "keeping the database under %.1f MiB", d->cfg.max_database_mb,
				    d->cfg.database, (double)cap / 1048576.0);
		d->ws.space_cap_bytes = cap;
	}
	return true;
}

#define PRUNE_EVERY_NS (60ULL * NS_PER_SEC)
#define PRUNE_BATCH_INTERVALS 60
#define ROLLUP_BATCH_BUCKETS 30
/* A flush is due every interval: roll up for at most this long per call. */
#define ROLLUP_BUDGET_NS (100ULL * NS_PER_MSEC)
/* Making room on a full filesystem: prune for at most this long per flush. */
#define MAKE_ROOM_BUDGET_NS (300ULL * NS_PER_MSEC)

/* One bounded retention step (store_prune): rows deleted or -errno. */
static int prune_step(struct daemon *d, char *err, size_t errlen)
{
	struct store_retention ret;

	memset(&ret, 0, sizeof(ret));
	ret.now_ns = clock_ns(CLOCK_REALTIME);
	memcpy(ret.keep_ns, d->cfg.retention_ns, sizeof(ret.keep_ns));
	ret.max_bytes = size_cap(d);
	ret.max_intervals = PRUNE_BATCH_INTERVALS;
	return store_prune(d->store, &ret, err, errlen);
}

/* The filesystem is full (a write failed with ENOSPC; something else
 * filled it, or it filled faster than retention ran): the WAL's space goes
 * back to the filesystem if it can, retention makes room at once (oldest
 * raw data first, down to what fits), and the WAL is truncated again. */
static void make_room(struct daemon *d)
{
	uint64_t used = 0, start = monotonic_ns();
	char err[1024];
	int n = 0;

	(void)store_checkpoint(d->store, err, sizeof(err));
	do {
		n = prune_step(d, err, sizeof(err));
	} while (n > 0 && monotonic_ns() - start < MAKE_ROOM_BUDGET_NS &&
		 store_used_bytes(d->store, &used) == 0 && used > size_cap(d));
	(void)store_checkpoint(d->store, err, sizeof(err));
	/* What is left over the cap goes at the next flushes. */
	d->next_prune_ns = 0;
}

static int try_write(struct daemon *d, char *err, size_t errlen)
{
	if (d->store == NULL) {
		int r = reopen_store(d, err, errlen);

		if (r < 0)
			return r;
	}
	return store_write_intervals(d->store, d->pending, err, errlen);
}

/* On a filesystem that caps the database (space_cap_bytes set by
 * over_cap), the WAL goes back to the filesystem after every write: left
 * to grow to SQLite's 4 MiB checkpoint size it could take the space a
 * checkpoint or a delete needs. */
static void keep_wal_small(struct daemon *d)
{
	if (d->ws.space_cap_bytes != 0) {
		char err[1024];

		(void)store_checkpoint(d->store, err, sizeof(err));
	}
}

static void write_done(struct daemon *d)
{
	if (d->ws.failing_since_ns != 0)
		log_info("database writable again: wrote %zu delayed interval(s) after %" PRIu64
			 " failed write(s) in all", d->n_pending, d->ws.write_errors);
	report_drops(d, true);
	d->written += d->n_pending;
	d->written_unchecked += d->n_pending;
	while (d->pending != NULL) {
		struct interval_data *next = d->pending->next;

		interval_free(d->pending);
		d->pending = next;
	}
	d->pending_tail = NULL;
	d->n_pending = 0;
	d->ws.last_write_ns = clock_ns(CLOCK_REALTIME);
	d->ws.failing_since_ns = 0;
	d->ws.last_error[0] = '\0';
	keep_wal_small(d);
}

static void write_failed(struct daemon *d, const char *err)
{
	d->ws.write_errors++;
	if (d->ws.failing_since_ns == 0)
		d->ws.failing_since_ns = clock_ns(CLOCK_REALTIME);
	snprintf(d->ws.last_error, sizeof(d->ws.last_error), "%.*s",
		 (int)sizeof(d->ws.last_error) - 1, err);
	if (due(&d->warned_write, monotonic_ns()))
		log_warning("cannot write to %s: %s; keeping %zu interval(s) in memory (up to %u); "
			    "%" PRIu64 " failed write(s) so far", d->cfg.database, err, d->n_pending,
			    d->cfg.retry_buffer, d->ws.write_errors);
	while (d->n_pending > d->cfg.retry_buffer)
		drop_oldest_pending(d);
	report_drops(d, false);
}

static void write_pending(struct daemon *d)
{
	char err[1024];
	int r;

	if (d->pending == NULL)
		return;
	r = try_write(d, err, sizeof(err));
	if (r == -ENOSPC) {
		make_room(d);
		r = try_write(d, err, sizeof(err));
	}
	if (r == 0)
		write_done(d);
	else
		write_failed(d, err);
}

/* Rollups and retention in small steps after a flush: once a minute, or at
 * every flush while a backlog is left (a migrated database, a lowered
 * retention, a database over its cap).  The collector's workers go on
 * counting meanwhile; only the next flush can start a little late.  Also
 * while writes fail: a database that filled its filesystem needs room. */
static void roll_and_prune(struct daemon *d)
{
	uint64_t now = monotonic_ns();
	char err[1024];
	bool more = false;
	int made, n;

	if (d->store == NULL || (now < d->next_prune_ns && !over_cap(d)))
		return;
	made = store_rollup(d->store, ROLLUP_BATCH_BUCKETS, ROLLUP_BUDGET_NS, &more, err,
			    sizeof(err));
	/* Over the cap retention runs at every flush: say a failure once a
	 * minute, not every time. */
	if (made < 0) {
		if (due(&d->warned_rollup, now))
			log_warning("rollups: %s; trying again (said once a minute)", err);
		made = 0;
	}
	n = prune_step(d, err, sizeof(err));
	if (n < 0) {
		if (due(&d->warned_prune, now))
			log_warning("retention: %s; trying again (said once a minute)", err);
		n = 0;
	} else if (n > 0 || made > 0) {
		log_debug("retention: %d rollups made, %d old rows deleted", made, n);
	}
	d->next_prune_ns = n >= PRUNE_BATCH_INTERVALS || more ? now : now + PRUNE_EVERY_NS;
}

/* What the API and /metrics say about the writer: live, so an outage
 * shows while it lasts; a change makes cached answers stale. */
static void publish_writer(struct daemon *d)
{
	d->ws.pending = d->n_pending;
	if (writer_status_publish(&d->ws_box, &d->ws))
		http_server_data_changed(d->http);
}

static void flush(struct daemon *d, bool final)
{
	struct interval_data *iv = NULL;
	size_t ran;
	int r;

	r = flush_run(&d->fl, final, &iv);
	if (r < 0) {
		log_error_r(r, "flush failed; the counts of this interval are lost");
		return;
	}
	if (exclude_apply(&d->excl, iv) < 0)
		log_warning("out of memory folding excluded processes: this interval stores them "
			    "one by one");
	report_health(d, iv);
	prom_add_interval(d->prom, iv);
	iv->next = NULL;
	if (d->pending_tail != NULL)
		d->pending_tail->next = iv;
	else
		d->pending = iv;
	d->pending_tail = iv;
	d->n_pending++;
	ran = iv->n_procs;   /* iv is freed once written */
	check_database_file(d);
	write_pending(d);
	if (!final)
		roll_and_prune(d);
	publish_writer(d);
	notify_send(&d->notify, "STATUS=model %s: %zu processes ran in the last interval; "
		    "%" PRIu64 " intervals written%s", d->model->name, ran, d->written,
		    d->n_pending > 0 ? ", some waiting: the database cannot be written" : "");
}

/* The API, /metrics and the dashboard, in their own threads. */
static int start_http(struct daemon *d)
{
	struct http_config hc;
	char err[1024];
	int r;

	memset(&hc, 0, sizeof(hc));
	r = prom_new(d->model, d->cfg.prometheus_max_keys, d->cfg.prometheus_top_processes,
		     &d->prom);
	if (r < 0)
		return log_error_r(r, "startup");
	hc.listen = d->cfg.listen;
	hc.web_dir = strcmp(d->cfg.web_dir, "none") == 0 ? "" : d->cfg.web_dir;
	hc.max_connections = d->cfg.http_max_connections;
	hc.anonymous_full = strcmp(d->cfg.http_anonymous, "all") == 0;
	r = config_full_access_uids(&d->cfg, hc.full_uids, HTTP_MAX_USERS, &hc.n_full_uids, err,
				    sizeof(err));
	if (r < 0) {
		log_error("http_full_access: %s", err);
		return r;
	}
	hc.info.database = d->cfg.database;
	hc.info.model = d->model;
	hc.info.started_ns = d->started_ns;
	hc.info.interval_ns = d->cfg.interval_ns;
	hc.info.rotate_period_ns = d->cfg.rotate_period_ns;
	hc.prom = d->prom;
	hc.info.in_daemon = true;
	hc.info.writer = &d->ws_box;
	r = http_server_start(&hc, &d->http, err, sizeof(err));
	if (r < 0) {
		log_error("%s (change it with --listen, or --listen none)", err);
		return r;
	}
	if (d->http != NULL)
		log_info("HTTP API, /metrics and the dashboard on %s", d->cfg.listen);
	return 0;
}

static int arm_timer(struct daemon *d)
{
	struct itimerspec its;
	uint64_t ns = d->cfg.interval_ns;

	its.it_interval.tv_sec = (time_t)(ns / NS_PER_SEC);
	its.it_interval.tv_nsec = (long)(ns % NS_PER_SEC);
	its.it_value = its.it_interval;
	return timerfd_settime(d->tfd, 0, &its, NULL) < 0 ? -errno : 0;
}

static void reload(struct daemon *d)
{
	struct config n;
	char err[2048];

	notify_send(&d->notify, "RELOADING=1");
	if (d->reload(&n, err, sizeof(err)) < 0) {
		log_error("reload: %s; keeping the running configuration", err);
		notify_send(&d->notify, "READY=1\nSTATUS=reload failed: %s", err);
		return;
	}
	if (strcmp(n.database, d->cfg.database) != 0 || strcmp(n.model, d->cfg.model) != 0 ||
	    n.ring_pages != d->cfg.ring_pages || n.switch_event != d->cfg.switch_event)
		log_warning("reload: %s take effect only at a restart; ignoring their change",
			    CONFIG_RESTART_KEYS);
	if (strcmp(n.families, d->cfg.families) != 0 || strcmp(n.count_modes, d->cfg.count_modes) != 0)
		log_warning("reload: families and count_modes take effect only at a restart; "
			    "ignoring their change");
	{
		struct exclusions x;

		if (exclude_parse(&x, n.exclude_comm, n.exclude_unit, n.exclude_user, err,
				  sizeof(err)) < 0) {
			log_error("reload: %s; keeping the running configuration", err);
			notify_send(&d->notify, "READY=1\nSTATUS=reload failed: %s", err);
			return;
		}
		d->excl = x;
		memcpy(d->cfg.exclude_comm, n.exclude_comm, sizeof(n.exclude_comm));
		memcpy(d->cfg.exclude_unit, n.exclude_unit, sizeof(n.exclude_unit));
		memcpy(d->cfg.exclude_user, n.exclude_user, sizeof(n.exclude_user));
	}
	d->cfg.log_level = n.log_level;
	log_set_level(n.log_level);
	d->cfg.retry_buffer = n.retry_buffer;
	memcpy(d->cfg.retention_ns, n.retention_ns, sizeof(n.retention_ns));
	d->cfg.max_database_mb = n.max_database_mb;
	d->ws.space_cap_bytes = 0;   /* said again if the filesystem is still too small */
	d->next_prune_ns = 0;
	d->cfg.switch_rate_warning = n.switch_rate_warning;
	if (n.rotate_period_ns != d->cfg.rotate_period_ns) {
		size_t i;

		d->cfg.rotate_period_ns = n.rotate_period_ns;
		for (i = 0; i < d->n_workers; i++)
			worker_set_rotate(&d->workers[i], n.rotate_period_ns);
	}
	if (n.interval_ns != d->cfg.interval_ns) {
		d->cfg.interval_ns = n.interval_ns;
		if (arm_timer(d) < 0)
			log_error("reload: cannot re-arm the flush timer");
	}
	write_meta(d);
	log_info("configuration reloaded");
	notify_send(&d->notify, "READY=1");
}

static int start_workers(struct daemon *d)
{
	size_t i;
	int r;

	d->workers = calloc(d->col->n_cpus, sizeof(*d->workers));
	if (d->workers == NULL)
		return -ENOMEM;
	for (i = 0; i < d->col->n_cpus; i++) {
		r = worker_init(&d->workers[i], d->col, &d->col->cpus[i], d->cfg.rotate_period_ns,
				(int32_t)getpid());
		if (r < 0)
			return r;
		d->n_workers++;
	}
	for (i = 0; i < d->n_workers; i++) {
		r = worker_start(&d->workers[i]);
		if (r < 0)
			return r;
	}
	return 0;
}

static void report_workers(struct daemon *d)
{
	size_t i;
	int fifo = 0, setup = 0;

	/* Give the threads a moment to pin themselves before we look. */
	usleep(20000);
	for (i = 0; i < d->n_workers; i++) {
		if (d->workers[i].fifo_error != 0)
			fifo = d->workers[i].fifo_error;
		if (d->workers[i].setup_error != 0)
			setup = d->workers[i].setup_error;
	}
	if (setup != 0)
		log_warning("a CPU worker could not pin itself to its CPU (%s): group rotation "
			    "remainders may be misattributed", strerror(setup));
	if (fifo != 0)
		log_info("CPU workers run without SCHED_FIFO (%s): reads may come late on busy "
			 "CPUs (grant CAP_SYS_NICE to fix)", strerror(fifo));
}

static int setup_signals(struct daemon *d)
{
	sigset_t set;

	sigemptyset(&set);
	sigaddset(&set, SIGTERM);
	sigaddset(&set, SIGINT);
	sigaddset(&set, SIGHUP);
	/* Blocked before the workers start, so only signalfd sees them. */
	if (pthread_sigmask(SIG_BLOCK, &set, NULL) != 0)
		return -EINVAL;
	signal(SIGPIPE, SIG_IGN);
	d->sfd = signalfd(-1, &set, SFD_CLOEXEC);
	if (d->sfd < 0)
		return -errno;
	d->tfd = timerfd_create(CLOCK_MONOTONIC, TFD_CLOEXEC | TFD_NONBLOCK);
	if (d->tfd < 0)
		return -errno;
	return arm_timer(d);
}

static int loop(struct daemon *d)
{
	struct pollfd pfd[2] = { { d->sfd, POLLIN, 0 }, { d->tfd, POLLIN, 0 } };

	for (;;) {
		/* The watchdog hears from this loop, so a stuck loop stops the pings. */
		int n = poll(pfd, 2, notify_poll_timeout_ms(&d->notify, monotonic_ns()));

		notify_watchdog(&d->notify, monotonic_ns());
		if (n < 0) {
			if (errno == EINTR)
				continue;
			return log_error_r(-errno, "poll");
		}
		if (pfd[1].revents & POLLIN) {
			uint64_t expirations;

			if (read(d->tfd, &expirations, sizeof(expirations)) > 0)
				flush(d, false);
		}
		if (pfd[0].revents & POLLIN) {
			struct signalfd_siginfo si;

			if (read(d->sfd, &si, sizeof(si)) != sizeof(si))
				continue;
			if (si.ssi_signo == SIGHUP) {
				reload(d);
				continue;
			}
			log_info("%s: writing the interval in flight and stopping",
				 strsignal((int)si.ssi_signo));
			notify_send(&d->notify, "STOPPING=1");
			return 0;
		}
	}
}

/* Undo what run_open() made, however far it got. */
static void run_close(struct daemon *d)
{
	size_t i;

	http_server_stop(d->http);   /* its threads read the store: first */
	if (d->instance_fd >= 0)
		close(d->instance_fd);
	if (d->fl_ready)
		flush_done(&d->fl);
	for (i = 0; i < d->n_workers; i++)
		worker_done(&d->workers[i]);
	free(d->workers);
	while (d->pending != NULL) {
		struct interval_data *next = d->pending->next;

		interval_free(d->pending);
		d->pending = next;
	}
	store_close(d->store);
	prom_free(d->prom);
	writer_status_done(&d->ws_box);
	collector_close(d->col);
	if (d->pt_ready)
		proctab_done(&d->pt);
	notify_done(&d->notify);
	if (d->sfd >= 0)
		close(d->sfd);
	if (d->tfd >= 0)
		close(d->tfd);
}

/* The model's counter groups, as configured; the exclusions. */
static int open_counters(struct daemon *d)
{
	struct collector_params params;
	char err[2048];
	int r;

	check_counter_budget(d->model);
	memset(&params, 0, sizeof(params));
	params.model = d->model;
	params.switch_position = d->cfg.switch_event;
	params.ring_pages = d->cfg.ring_pages;
	config_count_modes(&d->cfg, &params.count_user, &params.count_kernel);
	r = families_parse(d->model, d->cfg.families, params.group_off, err, sizeof(err));
	if (r < 0) {
		log_error("families: %s", err);
		return r;
	}
	r = exclude_parse(&d->excl, d->cfg.exclude_comm, d->cfg.exclude_unit,
			  d->cfg.exclude_user, err, sizeof(err));
	if (r < 0) {
		log_error("%s", err);
		return r;
	}
	r = collector_open(&params, &d->col, err, sizeof(err));
	if (r < 0)
		log_error("%s", err);
	return r;
}

/* The database, registered for this boot; sets started_ns. */
static int open_store(struct daemon *d)
{
	const char *db = d->cfg.database;
	char err[2048];
	int r;

	/* The store holds every user's command lines: files we create are not
	 * world-readable (0640); group access is for an operator group. */
	umask(027);
	make_default_dir(db);
	r = store_open(db, &d->store, err, sizeof(err));
	if (r < 0) {
		log_error("%s", err);
		return r;
	}
	if (store_moved_aside(d->store) != NULL)
		log_warning("%s", store_moved_aside(d->store));
	if (!store_reclaims_space(d->store))
		log_info("%s was made by an early stackd: space freed by retention is reused, not "
			 "returned; to return it, stop stackd and run: sqlite3 %s 'PRAGMA auto_vacuum "
			 "= INCREMENTAL; VACUUM'", db, db);
	if (read_boot_id(d->boot_id, sizeof(d->boot_id)) < 0)
		snprintf(d->boot_id, sizeof(d->boot_id), "unknown");
	d->started_ns = clock_ns(CLOCK_REALTIME);
	d->booted_ns = d->started_ns - clock_ns(CLOCK_BOOTTIME);
	r = store_register(d->store, d->model, d->boot_id, d->booted_ns, err, sizeof(err));
	if (r < 0)
		log_error("%s: %s", db, err);
	return r;
}

/* The process table, filled from /proc. */
static int open_proctab(struct daemon *d)
{
	long hz = sysconf(_SC_CLK_TCK);
	int64_t boot_minus_mono = (int64_t)(clock_ns(CLOCK_BOOTTIME) - monotonic_ns());
	int r;

	r = proctab_init(&d->pt, "/proc", hz > 0 ? NS_PER_SEC / (uint64_t)hz : 10 * NS_PER_MSEC,
			 boot_minus_mono);
	if (r < 0)
		return log_error_r(-ENOMEM, "startup");
	d->pt_ready = true;
	/* The side-band events are already on, so nothing starting from now
	 * is missed; the scan names what was there before. */
	r = proctab_scan(&d->pt);
	if (r < 0)
		log_error_r(r, "cannot scan /proc");
	return r;
}

/* Signals, the API, the workers and the flusher: from here on we collect. */
static int start_collecting(struct daemon *d)
{
	int r;

	r = setup_signals(d);
	if (r < 0)
		return log_error_r(r, "cannot set up signal handling and the flush timer");
	/* After the signal mask: its threads must leave SIGTERM to us. */
	r = start_http(d);
	if (r < 0)
		return r;
	r = start_workers(d);
	if (r < 0)
		return log_error_r(r, "cannot start the CPU workers");
	r = flush_init(&d->fl, d->col, d->workers, d->n_workers, &d->pt, d->started_ns);
	if (r < 0)
		return log_error_r(-ENOMEM, "startup");
	d->fl_ready = true;
	return 0;
}

/* Said only once started, so a failed start prints its one error line alone. */
static void announce(struct daemon *d, int drop)
{
	char interval[32], rotate[32];

	log_info("%s", d->model_why);
	if (geteuid() == 0 && drop == 0)
		log_warning("running as root with every capability (user = root); CAP_PERFMON "
			    "alone is enough: see --user");
	report_workers(d);
	duration_format(d->cfg.interval_ns, interval, sizeof(interval));
	duration_format(d->cfg.rotate_period_ns, rotate, sizeof(rotate));
	log_info("collecting on %zu CPUs: model '%s', %u counter groups rotating every "
		 "%s, one interval every %s, into %s", d->n_workers, d->model->name,
		 d->model->n_groups, rotate, interval, d->cfg.database);
	/* Ready: counters open, store written to, API listening. */
	notify_send(&d->notify, "READY=1\nSTATUS=collecting on %zu CPUs: model %s, %u "
		    "counter groups", d->n_workers, d->model->name, d->model->n_groups);
}

/* Everything up to READY=1, in an order that fails before anything is
 * written where it can: model, privileges, counters, then the store.  On
 * failure the error is logged and run_close() undoes what was made. */
/* One stackd per host, unless --allow-second (instance.h). */
static int claim_host(struct daemon *d)
{
	char err[512];
	pid_t holder;
	int r;

	r = instance_claim(d->cfg.allow_second, &d->instance_fd, &holder, err, sizeof(err));
	if (r < 0)
		log_error("%s", err);
	else if (holder != 0 || d->instance_fd < 0)
		log_warning("%s", err);
	return r;
}

static int run_open(struct daemon *d, const struct config *cfg, config_reload_fn reload_fn)
{
	char err[2048];
	int r, drop;

	memset(d, 0, sizeof(*d));
	d->cfg = *cfg;
	d->reload = reload_fn;
	d->sfd = d->tfd = d->instance_fd = -1;
	writer_status_init(&d->ws_box);
	r = notify_init(&d->notify);
	if (r < 0)
		log_warning("NOTIFY_SOCKET='%s' cannot be used (%s); not telling systemd",
			    getenv("NOTIFY_SOCKET"), strerror(-r));
	r = run_pick_model(cfg->model, &d->model, d->model_why, sizeof(d->model_why));
	if (r < 0) {
		log_error("model: %s", d->model_why);
		return r;
	}
	/* Started as root: make sure we can become the configured user before
	 * anything is opened or written. */
	drop = privilege_check(cfg->user, err, sizeof(err));
	if (drop < 0) {
		log_error("%s", err);
		return drop;
	}
	r = claim_host(d);
	if (r < 0)
		return r;
	/* Counters first: a host where we may not count gets a clear error
	 * before anything is written to disk. */
	r = open_counters(d);
	if (r >= 0)
		r = open_store(d);
	if (r >= 0)
		r = open_proctab(d);
	if (r >= 0)
		r = start_collecting(d);
	if (r < 0)
		return r;
	write_meta(d);
	if (drop > 0) {
		r = become_user(d);
		if (r < 0)
			return r;
	}
	announce(d, drop);
	return 0;
}

/* Collect until SIGTERM/SIGINT, then write what is in flight; the exit
 * status says whether everything reached the database. */
static int run_serve(struct daemon *d)
{
	int r;

	r = loop(d);
	flush(d, true);
	report_drops(d, true);
	if (d->n_pending > 0)
		log_error("%zu interval(s) could not be written to %s and are lost (%s)",
			  d->n_pending, d->cfg.database, d->ws.last_error);
	else
		log_info("stopped; %" PRIu64 " intervals written", d->written);
	return r < 0 || d->n_pending > 0 ? EXIT_FAILURE : EXIT_SUCCESS;
}

int run_daemon(const struct config *cfg, config_reload_fn reload_fn)
{
	struct daemon d;
	int status = EXIT_FAILURE;

	if (run_open(&d, cfg, reload_fn) == 0)
		status = run_serve(&d);
	run_close(&d);
	return status;
}
