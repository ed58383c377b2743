/*
 * query.c - see query.h.
 */
#include "lib/query.h"
#include "lib/group_parts.h"
#include "lib/db.h"
#include "lib/db_private.h"
#include "lib/pids.h"
#include "lib/sampling_mode.h"

#include <errno.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define QUERY_BUSY_TIMEOUT_MS 2000

static int sql_fail(struct db *db, const char *what, char *err, size_t errlen)
{
	snprintf(err, errlen, "%s: %s", what, sqlite3_errmsg(db->db));
	return -EIO;
}

int db_open(const char *path, struct db **ret, char *err, size_t errlen)
{
	struct db *db;
	sqlite3_stmt *st = NULL;
	int version = -1;
	int rc;

	if (access(path, F_OK) != 0) {
		snprintf(err, errlen, "no database at '%s' (is stackd running? start it with "
			 "'stackd' or 'systemctl start stackd', or name one with --db)", path);
		return -ENOENT;
	}
	if (access(path, R_OK) != 0) {
		snprintf(err, errlen, "cannot read database '%s': %s", path, strerror(errno));
		return -EACCES;
	}
	db = calloc(1, sizeof(*db));
	if (db == NULL)
		return -ENOMEM;
	rc = sqlite3_open_v2(path, &db->db, SQLITE_OPEN_READONLY | SQLITE_OPEN_NOMUTEX, NULL);
	if (rc != SQLITE_OK) {
		snprintf(err, errlen, "cannot open database '%s': %s", path,
			 db->db ? sqlite3_errmsg(db->db) : sqlite3_errstr(rc));
		db_close(db);
		return -EIO;
	}
	sqlite3_busy_timeout(db->db, QUERY_BUSY_TIMEOUT_MS);
	rc = sqlite3_prepare_v2(db->db, "PRAGMA user_version", -1, &st, NULL);
	if (rc == SQLITE_OK && sqlite3_step(st) == SQLITE_ROW)
		version = sqlite3_column_int(st, 0);
	sqlite3_finalize(st);
	if (version < 0) {
		snprintf(err, errlen, "'%s' is not a SQLite database (or cannot be read: %s)", path,
			 sqlite3_errmsg(db->db));
		db_close(db);
		return -EBADMSG;
	}
	if (version == 0) {
		snprintf(err, errlen, "'%s' is not a stackd database", path);
		db_close(db);
		return -EBADMSG;
	}
	if (version < STACKD_SCHEMA_VERSION) {
		snprintf(err, errlen, "'%s' was written by an older stackd (schema %d; this "
			 "stackctl reads %d): start the new stackd on it once to upgrade it", path,
			 version, STACKD_SCHEMA_VERSION);
		db_close(db);
		return -EPROTO;
	}
	if (version > STACKD_SCHEMA_VERSION) {
		snprintf(err, errlen, "'%s' was written by a newer stackd (schema %d; this "
			 "stackctl reads up to %d)", path, version, STACKD_SCHEMA_VERSION);
		db_close(db);
		return -EPROTO;
	}
	*ret = db;
	return 0;
}

void db_close(struct db *db)
{
	if (db == NULL)
		return;
	if (db->db != NULL)
		sqlite3_close(db->db);
	free(db);
}

int query_meta(struct db *db, const char *key, char *buf, size_t len)
{
	sqlite3_stmt *st;
	int r = -ENOENT;

	if (sqlite3_prepare_v2(db->db, "SELECT value FROM meta WHERE key = ?1", -1, &st, NULL)
	    != SQLITE_OK)
		return -EIO;
	sqlite3_bind_text(st, 1, key, -1, SQLITE_STATIC);
	if (sqlite3_step(st) == SQLITE_ROW) {
		snprintf(buf, len, "%s", (const char *)sqlite3_column_text(st, 0));
		r = 0;
	}
	sqlite3_finalize(st);
	return r;
}

static int map_groups(struct db *db, struct window *w, struct group_map *map, char *err,
		      size_t errlen)
{
	sqlite3_stmt *st;

	memset(map, 0, sizeof(*map));
	if (sqlite3_prepare_v2(db->db, "SELECT id, model, formula_version, name, events"
			       " FROM counter_group ORDER BY id", -1, &st, NULL) != SQLITE_OK)
		return sql_fail(db, "cannot read counter groups", err, errlen);
	while (sqlite3_step(st) == SQLITE_ROW)
		group_map_add(map, w->model, sqlite3_column_int64(st, 0),
			      (const char *)sqlite3_column_text(st, 1),
			      (unsigned)sqlite3_column_int(st, 2),
			      (const char *)sqlite3_column_text(st, 3),
			      (const char *)sqlite3_column_text(st, 4));
	sqlite3_finalize(st);
	return 0;
}

static int group_index(const struct group_map *map, int64_t id)
{
	const struct stored_group *sg = group_map_find(map, id);

	return sg != NULL ? sg->family : -1;
}

static char *dup_column(sqlite3_stmt *st, int col)
{
	const unsigned char *t = sqlite3_column_text(st, col);

	return t != NULL ? strdup((const char *)t) : NULL;
}

/* The window is the intervals whose end is in (*lo, *hi] (CLOCK_REALTIME
 * ns).  Readers select intervals by time, never by an id range: ids follow
 * time only while the clock does (a clock stepped back, or a store built by
 * hand, interleaves them), and an id range would then scan the whole store.
 * "interval CROSS JOIN sample" keeps SQLite walking the intervals by end
 * time and seeking each one's samples by key (measured: 4x faster than the
 * skip-scan it picks for "interval_id IN (...)" on a 7M-row store). */
static int read_intervals(struct db *db, const struct tiers *t, uint64_t window_ns,
			  struct window *w, int64_t *lo, int64_t *hi, char *err, size_t errlen)
{
	sqlite3_stmt *st;
	int64_t newest;
	int rc;

	rc = sqlite3_prepare_v2(db->db, "SELECT end_ns, model FROM interval"
				" ORDER BY end_ns DESC LIMIT 1", -1, &st, NULL);
	if (rc != SQLITE_OK)
		return sql_fail(db, "cannot read intervals", err, errlen);
	if (sqlite3_step(st) != SQLITE_ROW) {
		sqlite3_finalize(st);
		snprintf(err, errlen, "no data yet: stackd has not stored an interval");
		return -ENODATA;
	}
	newest = sqlite3_column_int64(st, 0);
	snprintf(w->model_name, sizeof(w->model_name), "%s",
		 (const char *)sqlite3_column_text(st, 1));
	w->model = model_find(w->model_name);
	sqlite3_finalize(st);
	{
		char smt[8];

		w->smt_on = query_meta(db, "smt", smt, sizeof(smt)) == 0 && strcmp(smt, "on") == 0;
	}

	rc = sqlite3_prepare_v2(db->db,
				"SELECT min(start_ns), max(end_ns), count(*), max(ncpus), max(rollup_s)"
				HEALTH_FIELDS(HEALTH_SQL_COMBINE)
				" FROM interval WHERE end_ns > ?1 AND end_ns <= ?2 AND " TIER_MATCH(""),
				-1, &st, NULL);
	if (rc != SQLITE_OK)
		return sql_fail(db, "cannot read intervals", err, errlen);
	*lo = newest - (int64_t)window_ns;
	*hi = newest;
	w->asked_ns = window_ns;
	sqlite3_bind_int64(st, 1, *lo);
	sqlite3_bind_int64(st, 2, *hi);
	query_bind_tiers(st, t);
	if (sqlite3_step(st) == SQLITE_ROW) {
		int k = 5;

		w->from_ns = (uint64_t)sqlite3_column_int64(st, 0);
		w->to_ns = (uint64_t)sqlite3_column_int64(st, 1);
		w->n_intervals = (unsigned)sqlite3_column_int(st, 2);
		w->ncpus = (unsigned)sqlite3_column_int(st, 3);
		w->resolution_s = (unsigned)sqlite3_column_int(st, 4);
#define READ_FIELD(name, ...) w->name = (uint64_t)sqlite3_column_int64(st, k++);
		HEALTH_FIELDS(READ_FIELD)
#undef READ_FIELD
	}
	sqlite3_finalize(st);
	w->busiest_cpu = -1;
	rc = sqlite3_prepare_v2(db->db, "SELECT busiest_cpu FROM interval WHERE end_ns > ?1"
				" AND end_ns <= ?2 AND " TIER_MATCH("") " ORDER BY max_cpu_switch_rate"
				" DESC LIMIT 1", -1, &st, NULL);
	if (rc == SQLITE_OK) {
		sqlite3_bind_int64(st, 1, *lo);
		sqlite3_bind_int64(st, 2, *hi);
		query_bind_tiers(st, t);
		if (sqlite3_step(st) == SQLITE_ROW)
			w->busiest_cpu = sqlite3_column_int(st, 0);
		sqlite3_finalize(st);
	}
	return 0;
}

static int read_group_times(struct db *db, const struct tiers *t, struct window *w,
			    const struct group_map *map, int64_t lo, int64_t hi,
			    char *err, size_t errlen)
{
	sqlite3_stmt *st;

	if (w->model == NULL)
		return 0;
	w->n_groups = w->model->n_groups;
	for (unsigned g = 0; g < w->n_groups; g++)
		snprintf(w->groups[g].name, sizeof(w->groups[g].name), "%s",
			 w->model->groups[g].name);
	if (sqlite3_prepare_v2(db->db, "SELECT group_id, sum(enabled_ns), sum(interval_group.unschedulable)"
			       " FROM interval AS i CROSS JOIN interval_group ON interval_id = i.id"
			       " WHERE i.end_ns > ?1 AND i.end_ns <= ?2 AND " TIER_MATCH("i.")
			       " GROUP BY group_id", -1, &st, NULL) != SQLITE_OK)
		return sql_fail(db, "cannot read group times", err, errlen);
	sqlite3_bind_int64(st, 1, lo);
	sqlite3_bind_int64(st, 2, hi);
	query_bind_tiers(st, t);
	while (sqlite3_step(st) == SQLITE_ROW) {
		int g = group_index(map, sqlite3_column_int64(st, 0));

		if (g < 0)
			continue;
		w->groups[g].enabled_ns += (uint64_t)sqlite3_column_int64(st, 1);
		w->groups[g].unschedulable += (uint64_t)sqlite3_column_int64(st, 2);
	}
	sqlite3_finalize(st);
	return 0;
}

/* Where a bucket's split goes (NULL: a bucket nobody asked for). */
typedef struct cpu_split *(*split_slot_fn)(void *arg, uint64_t bucket);

/* Who the CPU time went to per bucket of step ns by interval end, from lo
 * (exclusive) to hi, into slot(bucket).  The whole is read from the
 * intervals (CPUs x length; the switches sampled and unsampled; the time
 * measured periodically), the idle and unattributed parts from the two
 * pseudo-processes' rows through their index: never a scan of every
 * process's samples, which made a series of an hour four times dearer.
 * The samples of an interval add up to its CPUs x length within 0.02%
 * (the daemon charges all of every CPU's time to someone), so the whole
 * is the same either way. */
static int read_splits(struct db *db, const struct tiers *t, int64_t lo, int64_t hi,
		       int64_t step, split_slot_fn slot, void *arg, char *err, size_t errlen)
{
	static const char *const sql[2] = {
		"SELECT (i.end_ns - ?1 - 1) / ?3, sum(i.ncpus * (i.end_ns - i.start_ns)),"
		" sum(i.samples + i.unsampled_switches), sum(i.periodic_ns)"
		" FROM interval AS i WHERE i.end_ns > ?1 AND i.end_ns <= ?2 AND " TIER_MATCH("i.")
		" GROUP BY 1",
		"SELECT (i.end_ns - ?1 - 1) / ?3,"
		" coalesce(sum(CASE WHEN p.pid = " PIDS_STR(PID_IDLE) " THEN s.task_clock_ns END), 0),"
		" coalesce(sum(CASE WHEN p.pid = " PIDS_STR(PID_UNATTRIBUTED)
		" THEN s.task_clock_ns END), 0),"
		" coalesce(sum(CASE WHEN p.pid = " PIDS_STR(PID_UNATTRIBUTED)
		" THEN s.context_switches END), 0)"
		" FROM process AS p CROSS JOIN sample AS s ON s.process_id = p.id"
		" CROSS JOIN interval AS i ON i.id = s.interval_id"
		" WHERE p.pid IN (" PIDS_STR(PID_IDLE) ", " PIDS_STR(PID_UNATTRIBUTED) ")"
		" AND i.end_ns > ?1 AND i.end_ns <= ?2 AND " TIER_MATCH("i.") " GROUP BY 1",
	};
	int k;

	for (k = 0; k < 2; k++) {
		sqlite3_stmt *st;

		if (sqlite3_prepare_v2(db->db, sql[k], -1, &st, NULL) != SQLITE_OK)
			return sql_fail(db, "cannot read the CPU time split", err, errlen);
		sqlite3_bind_int64(st, 1, lo);
		sqlite3_bind_int64(st, 2, hi);
		sqlite3_bind_int64(st, 3, step > 0 ? step : 1);
		query_bind_tiers(st, t);
		while (sqlite3_step(st) == SQLITE_ROW) {
			struct cpu_split *s = slot(arg, (uint64_t)sqlite3_column_int64(st, 0));

			if (s == NULL)
				continue;
			if (k == 0) {
				s->cpu_ns = (uint64_t)sqlite3_column_int64(st, 1);
				s->switches = (uint64_t)sqlite3_column_int64(st, 2);
				s->periodic_ns = (uint64_t)sqlite3_column_int64(st, 3);
			} else {
				s->idle_ns = (uint64_t)sqlite3_column_int64(st, 1);
				s->unattributed_ns = (uint64_t)sqlite3_column_int64(st, 2);
				s->unattributed_switches = (uint64_t)sqlite3_column_int64(st, 3);
			}
		}
		sqlite3_finalize(st);
	}
	return 0;
}

static struct cpu_split *window_slot(void *arg, uint64_t bucket)
{
	return bucket == 0 ? &((struct window *)arg)->split : NULL;
}

/* Who the window's CPU time went to: one bucket as long as the window. */
static int read_cpu_split(struct db *db, const struct tiers *t, struct window *w, int64_t lo,
			  int64_t hi, char *err, size_t errlen)
{
	return read_splits(db, t, lo, hi, hi - lo, window_slot, w, err, errlen);
}

/* The series buckets being filled, oldest first. */
struct bucket_list {
	struct series_bucket *b;
	size_t n;
	uint64_t from_ns, step_ns;
};

static struct cpu_split *bucket_slot(void *arg, uint64_t bucket)
{
	const struct bucket_list *l = arg;
	uint64_t start = l->from_ns + bucket * l->step_ns;
	size_t lo = 0, hi = l->n;

	while (lo < hi) {   /* the buckets are sorted by start */
		size_t mid = lo + (hi - lo) / 2;

		if (l->b[mid].start_ns < start)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < l->n && l->b[lo].start_ns == start ? &l->b[lo].host : NULL;
}

/* The host's split into each of the n series buckets (by start time). */
static int read_bucket_splits(struct db *db, const struct tiers *t, uint64_t from_ns,
			      uint64_t to_ns, uint64_t step_ns, struct series_bucket *b, size_t n,
			      char *err, size_t errlen)
{
	struct bucket_list l = { b, n, from_ns, step_ns };

	return read_splits(db, t, (int64_t)from_ns, (int64_t)to_ns, (int64_t)step_ns, bucket_slot,
			   &l, err, errlen);
}

double cpu_split_attributed_cpu(const struct cpu_split *s)
{
	uint64_t busy = s->cpu_ns > s->idle_ns ? s->cpu_ns - s->idle_ns : 0;

	if (busy == 0)
		return 1.0;
	return 1.0 - (double)(s->unattributed_ns < busy ? s->unattributed_ns : busy) / (double)busy;
}

double cpu_split_attributed_switches(const struct cpu_split *s)
{
	if (s->switches == 0)
		return 1.0;
	return 1.0 - (double)(s->unattributed_switches < s->switches ? s->unattributed_switches :
			      s->switches) / (double)s->switches;
}

bool cpu_split_low(const struct cpu_split *s)
{
	return attribution_is_low(cpu_split_attributed_cpu(s),
				  s->cpu_ns > 0 ? (double)s->unattributed_ns / (double)s->cpu_ns : 0.0,
				  cpu_split_attributed_switches(s));
}

double cpu_split_periodic_share(const struct cpu_split *s)
{
	return sampling_mode_share(s->periodic_ns, s->cpu_ns);
}

/* The newest process's parts (of split families) into its family sums. */
static int fold_parts(const struct group_map *map, struct window *w, struct part_sums **parts)
{
	if (*parts != NULL && w->model != NULL)
		group_parts_combine(map, w->model, w->procs[w->n_procs - 1].sums, parts);
	free(*parts);
	*parts = NULL;
	return 0;
}

/* The window's samples summed per process and stored group, into w->procs. */
static int read_window_samples(struct db *db, const struct tiers *tiers,
			       const struct group_map *map, int64_t lo, int64_t hi,
			       struct window *wp, size_t *capp, char *err, size_t errlen)
{
	struct window w = *wp;
	size_t cap = *capp;
	struct part_sums *parts = NULL;
	int64_t last_proc = -1;
	sqlite3_stmt *st;
	int rc;

	rc = sqlite3_prepare_v2(db->db,
		"SELECT p.id, p.pid, p.start_ns, p.comm, p.cmdline, p.uid, p.unit, s.group_id,"
		" s.tc, s.cs, s.v0, s.v1, s.v2, s.v3, s.v4, s.v5, s.v6, s.v7, s.v8, s.v9,"
		" s.v10, s.v11, s.v12, s.v13, s.v14, s.v15, s.pn"
		" FROM (SELECT process_id, group_id, sum(task_clock_ns) AS tc,"
		"  sum(context_switches) AS cs, sum(v0) AS v0, sum(v1) AS v1, sum(v2) AS v2,"
		"  sum(v3) AS v3, sum(v4) AS v4, sum(v5) AS v5, sum(v6) AS v6, sum(v7) AS v7,"
		"  sum(v8) AS v8, sum(v9) AS v9, sum(v10) AS v10, sum(v11) AS v11,"
		"  sum(v12) AS v12, sum(v13) AS v13, sum(v14) AS v14, sum(v15) AS v15,"
		"  sum(sample.periodic_ns) AS pn"
		"  FROM interval AS i CROSS JOIN sample ON sample.interval_id = i.id"
		"  WHERE i.end_ns > ?1 AND i.end_ns <= ?2 AND " TIER_MATCH("i.")
		"  GROUP BY process_id, group_id) AS s"
		" JOIN process AS p ON p.id = s.process_id"
		" ORDER BY p.id", -1, &st, NULL);
	if (rc != SQLITE_OK)
		return sql_fail(db, "cannot read samples", err, errlen);
	sqlite3_bind_int64(st, 1, lo);
	sqlite3_bind_int64(st, 2, hi);
	query_bind_tiers(st, tiers);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		int64_t proc_id = sqlite3_column_int64(st, 0);
		const struct stored_group *sg;
		uint64_t v[MODEL_MAX_EVENTS];
		struct window_proc *p;
		int k;

		if (proc_id != last_proc) {
			if (w.n_procs > 0 && fold_parts(map, &w, &parts) < 0)
				break;
			if (w.n_procs == cap) {
				size_t ncap = cap ? cap * 2 : 64;
				struct window_proc *more = realloc(w.procs, ncap * sizeof(*more));

				if (more == NULL) {
					sqlite3_finalize(st);
					free(parts);
					window_done(&w);
					return -ENOMEM;
				}
				w.procs = more;
				cap = ncap;
			}
			p = &w.procs[w.n_procs++];
			memset(p, 0, sizeof(*p));
			p->pid = sqlite3_column_int(st, 1);
			p->start_ns = (uint64_t)sqlite3_column_int64(st, 2);
			snprintf(p->comm, sizeof(p->comm), "%s",
				 (const char *)sqlite3_column_text(st, 3));
			p->cmdline = dup_column(st, 4);
			p->uid = sqlite3_column_type(st, 5) == SQLITE_NULL ? -1 :
				 sqlite3_column_int64(st, 5);
			p->unit = dup_column(st, 6);
			last_proc = proc_id;
		}
		p = &w.procs[w.n_procs - 1];
		p->task_clock_ns += (uint64_t)sqlite3_column_int64(st, 8);
		p->periodic_ns += (uint64_t)sqlite3_column_int64(st, 26);
		p->context_switches += (uint64_t)sqlite3_column_int64(st, 9);
		sg = group_map_find(map, sqlite3_column_int64(st, 7));
		if (sg == NULL)
			continue;   /* a group of another model or formula version */
		for (k = 0; k < MODEL_MAX_EVENTS; k++)
			v[k] = (uint64_t)sqlite3_column_int64(st, 10 + k);
		if (group_parts_add(map, sg, p->sums, &parts, (uint64_t)sqlite3_column_int64(st, 8),
				    (uint64_t)sqlite3_column_int64(st, 9), v) < 0)
			break;
	}
	sqlite3_finalize(st);
	if (rc == SQLITE_ROW || (w.n_procs > 0 && fold_parts(map, &w, &parts) < 0)) {
		free(parts);
		window_done(&w);
		return -ENOMEM;
	}
	if (rc != SQLITE_DONE) {
		window_done(&w);
		return sql_fail(db, "cannot read samples", err, errlen);
	}
	*wp = w;
	*capp = cap;
	return 0;
}

int query_window(struct db *db, uint64_t window_ns, struct window *out, char *err,
		 size_t errlen)
{
	struct group_map *map = malloc(sizeof(*map));
	size_t cap = 0;
	struct window w;
	struct tiers t;
	int64_t lo = 0, hi = -1;
	int r;

	memset(&w, 0, sizeof(w));
	if (map == NULL)
		return -ENOMEM;
	query_tiers(db, &t);
	r = read_intervals(db, &t, window_ns, &w, &lo, &hi, err, errlen);
	if (r == 0)
		r = map_groups(db, &w, map, err, errlen);
	if (r == 0)
		r = read_group_times(db, &t, &w, map, lo, hi, err, errlen);
	if (r == 0)
		r = read_cpu_split(db, &t, &w, lo, hi, err, errlen);
	if (r == 0)
		r = read_window_samples(db, &t, map, lo, hi, &w, &cap, err, errlen);
	if (r == 0 && query_cpi_fit(db, w.model, &w.cpi_fit) < 0)
		snprintf(w.cpi_fit.reason, sizeof(w.cpi_fit.reason), "no regression fit: cannot "
			 "read the stored fits: %s", sqlite3_errmsg(db->db));
	free(map);
	if (r < 0)
		return r;
	*out = w;
	return 0;
}

int query_health(struct db *db, uint64_t window_ns, struct window *out, char *err,
		 size_t errlen)
{
	struct group_map *map = malloc(sizeof(*map));
	int64_t lo = 0, hi = -1;
	struct tiers t;
	int r;

	memset(out, 0, sizeof(*out));
	if (map == NULL)
		return -ENOMEM;
	query_tiers(db, &t);
	r = read_intervals(db, &t, window_ns, out, &lo, &hi, err, errlen);
	if (r == 0)
		r = map_groups(db, out, map, err, errlen);
	if (r == 0)
		r = read_group_times(db, &t, out, map, lo, hi, err, errlen);
	if (r == 0)
		r = read_cpu_split(db, &t, out, lo, hi, err, errlen);
	free(map);
	return r;
}

int query_span(struct db *db, uint64_t *oldest_ns, uint64_t *newest_ns)
{
	sqlite3_stmt *st;
	int r = -ENODATA;

	if (sqlite3_prepare_v2(db->db, "SELECT min(start_ns), max(end_ns), count(*) FROM interval",
			       -1, &st, NULL) != SQLITE_OK)
		return -EIO;
	if (sqlite3_step(st) == SQLITE_ROW && sqlite3_column_int64(st, 2) > 0) {
		*oldest_ns = (uint64_t)sqlite3_column_int64(st, 0);
		*newest_ns = (uint64_t)sqlite3_column_int64(st, 1);
		r = 0;
	}
	sqlite3_finalize(st);
	return r;
}

int query_series(struct db *db, enum query_who who, const char *what, int64_t uid,
		 uint64_t from_ns, uint64_t to_ns, uint64_t step_ns, struct series_bucket *out,
		 size_t max_buckets, const struct model **model, char *err, size_t errlen)
{
	static const char *const match[] = {
		[WHO_PID] = "p.pid = CAST(?3 AS INTEGER)",
		[WHO_COMM] = "p.comm = ?3",
		[WHO_UNIT] = "p.unit = ?3",
		[WHO_HOST] = "p.pid <> " PIDS_STR(PID_IDLE),
	};
	struct group_map *map = malloc(sizeof(*map));
	struct part_sums *parts = NULL;
	size_t n = 0;
	struct window w;
	sqlite3_stmt *st;
	char sql[1600];
	struct tiers t;
	int64_t lo = 0, hi = -1;
	int r, rc;

	memset(&w, 0, sizeof(w));
	if (map == NULL)
		return -ENOMEM;
	query_tiers(db, &t);
	r = read_intervals(db, &t, 1, &w, &lo, &hi, err, errlen);
	if (r == 0)
		r = map_groups(db, &w, map, err, errlen);
	if (r < 0) {
		free(map);
		return r;
	}
	*model = w.model;
	/* Buckets by interval end; the subquery picks the intervals first, so
	 * the scan is of the window's samples only (sample's key starts with
	 * interval_id). */
	snprintf(sql, sizeof(sql),
		 "SELECT (i.end_ns - ?1 - 1) / ?4 AS bucket, s.group_id, sum(s.task_clock_ns),"
		 " sum(s.context_switches), sum(s.v0), sum(s.v1), sum(s.v2), sum(s.v3),"
		 " sum(s.v4), sum(s.v5), sum(s.v6), sum(s.v7), sum(s.v8), sum(s.v9), sum(s.v10),"
		 " sum(s.v11), sum(s.v12), sum(s.v13), sum(s.v14), sum(s.v15), sum(s.periodic_ns)"
		 " FROM interval AS i JOIN sample AS s ON s.interval_id = i.id"
		 " JOIN process AS p ON p.id = s.process_id"
		 " WHERE i.end_ns > ?1 AND i.end_ns <= ?2 AND " TIER_MATCH("i.")
		 " AND %s AND (?5 < 0 OR p.uid = ?5)"
		 " GROUP BY bucket, s.group_id ORDER BY bucket", match[who]);
	if (sqlite3_prepare_v2(db->db, sql, -1, &st, NULL) != SQLITE_OK) {
		free(map);
		return sql_fail(db, "cannot read the series", err, errlen);
	}
	query_bind_tiers(st, &t);
	sqlite3_bind_int64(st, 1, (int64_t)from_ns);
	sqlite3_bind_int64(st, 2, (int64_t)to_ns);
	sqlite3_bind_text(st, 3, what, -1, SQLITE_STATIC);
	sqlite3_bind_int64(st, 4, (int64_t)step_ns);
	sqlite3_bind_int64(st, 5, uid);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		uint64_t start = from_ns + (uint64_t)sqlite3_column_int64(st, 0) * step_ns;
		const struct stored_group *sg;
		uint64_t v[MODEL_MAX_EVENTS];
		struct series_bucket *b;
		int k;

		if (n == 0 || out[n - 1].start_ns != start) {
			if (n == max_buckets)
				break;
			if (n > 0 && w.model != NULL)
				group_parts_combine(map, w.model, out[n - 1].sums, &parts);
			b = &out[n++];
			memset(b, 0, sizeof(*b));
			b->start_ns = start;
		}
		b = &out[n - 1];
		b->task_clock_ns += (uint64_t)sqlite3_column_int64(st, 2);
		b->periodic_ns += (uint64_t)sqlite3_column_int64(st, 20);
		sg = group_map_find(map, sqlite3_column_int64(st, 1));
		if (sg == NULL)
			continue;
		for (k = 0; k < MODEL_MAX_EVENTS; k++)
			v[k] = (uint64_t)sqlite3_column_int64(st, 4 + k);
		if (group_parts_add(map, sg, b->sums, &parts, (uint64_t)sqlite3_column_int64(st, 2),
				    (uint64_t)sqlite3_column_int64(st, 3), v) < 0) {
			rc = SQLITE_NOMEM;
			break;
		}
	}
	sqlite3_finalize(st);
	if (n > 0 && w.model != NULL)
		group_parts_combine(map, w.model, out[n - 1].sums, &parts);
	free(parts);
	free(map);
	if (rc != SQLITE_DONE && rc != SQLITE_ROW)
		return sql_fail(db, "cannot read the series", err, errlen);
	/* How much time each bucket's intervals cover: a step is rarely a
	 * whole number of intervals, and rates must not count one twice. */
	if (n > 0 && sqlite3_prepare_v2(db->db, "SELECT (end_ns - ?1 - 1) / ?3, sum(end_ns - start_ns),"
					" max(rollup_s), max(end_ns - start_ns) FROM interval"
					" WHERE end_ns > ?1 AND end_ns <= ?2"
					" AND " TIER_MATCH("") " GROUP BY 1", -1, &st, NULL) == SQLITE_OK) {
		size_t j = 0;

		query_bind_tiers(st, &t);
		sqlite3_bind_int64(st, 1, (int64_t)from_ns);
		sqlite3_bind_int64(st, 2, (int64_t)to_ns);
		sqlite3_bind_int64(st, 3, (int64_t)step_ns);
		while (sqlite3_step(st) == SQLITE_ROW) {
			uint64_t start = from_ns + (uint64_t)sqlite3_column_int64(st, 0) * step_ns;

			while (j < n && out[j].start_ns < start)
				j++;
			if (j < n && out[j].start_ns == start) {
				out[j].span_ns = (uint64_t)sqlite3_column_int64(st, 1);
				out[j].resolution_s = (unsigned)sqlite3_column_int(st, 2);
				out[j].longest_interval_ns = (uint64_t)sqlite3_column_int64(st, 3);
			}
		}
		sqlite3_finalize(st);
	}
	/* the host's attributed share per bucket: a point whose share is low
	 * may be missing some of the target's time */
	if (n > 0 && read_bucket_splits(db, &t, from_ns, to_ns, step_ns, out, n, err, errlen) < 0)
		return -EIO;
	return (int)n;
}

void window_done(struct window *w)
{
	size_t i;

	for (i = 0; i < w->n_procs; i++) {
		free(w->procs[i].cmdline);
		free(w->procs[i].unit);
	}
	free(w->procs);
	memset(w, 0, sizeof(*w));
}

bool series_gap_before(const struct series_bucket *b, size_t i, uint64_t step)
{
	uint64_t d = i > 0 ? b[i].start_ns - b[i - 1].start_ns : 0;

	return i > 0 && d > step + step / 2 && d > b[i].longest_interval_ns + step;
}
