/*
 * query_series.c - one target's sums over time (query_series, query.h):
 * its samples summed per bucket of step ns by interval end, with the time
 * each bucket's intervals cover and the host's CPU time split per bucket.
 */
#include "lib/query_read.h"
#include "lib/clock.h"
#include "lib/pids.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

/* The sums statement's columns: bucket, group_id, task clock, context
 * switches, the value columns, periodic time. */
enum { SUMS_VALUES = 4, SUMS_PERIODIC = SUMS_VALUES + STACKD_SAMPLE_VALUES };

/* A series this long reads its processes' rows by process. */
#define SERIES_BY_PROCESS_NS (3600ULL * (uint64_t)NS_PER_SEC)

/* What a series asks for (query_series's arguments). */
struct series_ask {
	enum query_who who;
	const char *what;
	int64_t uid;
	uint64_t from_ns, to_ns, step_ns;
};

/* The buckets being filled, oldest first, from rows ordered by bucket. */
struct bucket_fill {
	const struct group_map *map;
	const struct model *m;          /* the data's; NULL: unknown to this build */
	struct series_bucket *out;
	size_t n, max;
	struct part_sums *parts;        /* the last bucket's parts of split families */
};

/* The bucket that starts at start: the last one, or a new one after it
 * (the one before folded into its families); NULL when they are full. */
static struct series_bucket *bucket_at(struct bucket_fill *f, uint64_t start)
{
	struct series_bucket *b;

	if (f->n > 0 && f->out[f->n - 1].start_ns == start)
		return &f->out[f->n - 1];
	if (f->n == f->max)
		return NULL;
	if (f->n > 0 && f->m != NULL)
		group_parts_combine(f->map, f->m, f->out[f->n - 1].sums, &f->parts);
	b = &f->out[f->n++];
	memset(b, 0, sizeof(*b));
	b->start_ns = start;
	return b;
}

/* One row of sums into its bucket: 0, 1 when the buckets are full,
 * -ENOMEM. */
static int add_row(struct bucket_fill *f, const struct series_ask *a, sqlite3_stmt *st)
{
	uint64_t start = a->from_ns + (uint64_t)sqlite3_column_int64(st, 0) * a->step_ns;
	struct series_bucket *b = bucket_at(f, start);
	const struct stored_group *sg;
	uint64_t v[MODEL_MAX_EVENTS];

	if (b == NULL)
		return 1;
	b->task_clock_ns += (uint64_t)sqlite3_column_int64(st, 2);
	b->periodic_ns += (uint64_t)sqlite3_column_int64(st, SUMS_PERIODIC);
	sg = group_map_find(f->map, sqlite3_column_int64(st, 1));
	if (sg == NULL)
		return 0;   /* unmapped (another model's): see recorded_under */
	query_read_values(st, SUMS_VALUES, v);
	if (group_parts_add(f->map, sg, b->sums, &f->parts, (uint64_t)sqlite3_column_int64(st, 2),
			    (uint64_t)sqlite3_column_int64(st, 3), v) < 0)
		return -ENOMEM;
	return 0;
}

/* The target's samples summed per bucket and group into f. */
static int read_bucket_sums(struct db *db, const struct tiers *t, const struct series_ask *a,
			    struct bucket_fill *f, char *err, size_t errlen)
{
	static const char *const match[] = {
		[WHO_PID] = "p.pid = CAST(?3 AS INTEGER)",
		[WHO_COMM] = "p.comm = ?3",
		[WHO_UNIT] = "p.unit = ?3",
		[WHO_HOST] = "p.pid <> " PIDS_STR(PID_IDLE),
	};
	/* The host is most of the window's samples: read them by interval
	 * (sample's key starts with interval_id).  A pid is one process or a
	 * few (pid reuse): find them first, then look each interval's row of
	 * theirs up by that key.  A comm or unit over an hour or more is a
	 * few processes: read theirs (sample_by_process: all they ever
	 * stored, a busy one's day of raw intervals included, so not for
	 * shorter spans, where every process's rows of the span are fewer).
	 * The store keeps no ANALYZE statistics, so SQLite cannot tell:
	 * before, a pid's year was read as every process's (29.6 M rows on
	 * the bench's store), then as every row the process ever stored. */
	static const char *const from[] = {
		" FROM interval AS i JOIN sample AS s ON s.interval_id = i.id"
		" JOIN process AS p ON p.id = s.process_id",
		" FROM process AS p CROSS JOIN sample AS s ON s.process_id = p.id"
		" CROSS JOIN interval AS i ON i.id = s.interval_id",
		" FROM interval AS i CROSS JOIN sample AS s ON s.interval_id = i.id"
		" AND s.process_id IN (SELECT id FROM process WHERE pid = CAST(?3 AS INTEGER))"
		" JOIN process AS p ON p.id = s.process_id",
	};
	char sums[DB_VALUE_LIST_MAX];
	sqlite3_stmt *st;
	int rc, r = 0;

	/* Buckets by interval end */
	if (db_value_list(sums, sizeof(sums), "sum(s.@)", 0) < 0 ||
	    query_prepare_printf(db, &st,
		 "SELECT (i.end_ns - ?1 - 1) / ?4 AS bucket, s.group_id, sum(s.task_clock_ns),"
		 " sum(s.context_switches), %s, sum(s.periodic_ns)%s"
		 " WHERE i.end_ns > ?1 AND i.end_ns <= ?2 AND " TIER_MATCH_COARSE("i.")
		 " AND %s AND (?5 < 0 OR p.uid = ?5)"
		 " GROUP BY bucket, s.group_id ORDER BY bucket", sums,
		 from[a->who == WHO_PID ? 2 :
		      a->who != WHO_HOST && a->to_ns - a->from_ns >= SERIES_BY_PROCESS_NS],
		 match[a->who]) != SQLITE_OK)
		return query_sql_fail(db, "cannot read the series", err, errlen);
	query_bind_tiers(st, t);
	sqlite3_bind_int64(st, 1, (int64_t)a->from_ns);
	sqlite3_bind_int64(st, 2, (int64_t)a->to_ns);
	sqlite3_bind_text(st, 3, a->what, -1, SQLITE_STATIC);
	sqlite3_bind_int64(st, 4, (int64_t)a->step_ns);
	sqlite3_bind_int64(st, 5, a->uid);
	while (r == 0 && (rc = sqlite3_step(st)) == SQLITE_ROW)
		r = add_row(f, a, st);
	if (r < 0)
		rc = SQLITE_NOMEM;
	sqlite3_finalize(st);
	if (f->n > 0 && f->m != NULL)
		group_parts_combine(f->map, f->m, f->out[f->n - 1].sums, &f->parts);
	if (rc != SQLITE_DONE && rc != SQLITE_ROW)
		return query_sql_fail(db, "cannot read the series", err, errlen);
	return 0;
}

/* How much time each bucket's intervals cover: a step is rarely a whole
 * number of intervals, and rates must not count one twice.  From the
 * finest level kept, even where the sums come from the rollups: an hour
 * rollup spans a gap in the recording (its first start to its last end),
 * which the raw intervals do not (interval rows only: cheap). */
static void read_bucket_spans(struct db *db, const struct tiers *t, const struct series_ask *a,
			      struct series_bucket *out, size_t n)
{
	sqlite3_stmt *st;
	size_t j = 0;

	if (sqlite3_prepare_v2(db->db, "SELECT (end_ns - ?1 - 1) / ?3, sum(end_ns - start_ns),"
			       " max(rollup_s), max(end_ns - start_ns) FROM interval"
			       " WHERE end_ns > ?1 AND end_ns <= ?2"
			       " AND " TIER_MATCH("") " GROUP BY 1", -1, &st, NULL) != SQLITE_OK)
		return;
	query_bind_tiers(st, t);
	sqlite3_bind_int64(st, 1, (int64_t)a->from_ns);
	sqlite3_bind_int64(st, 2, (int64_t)a->to_ns);
	sqlite3_bind_int64(st, 3, (int64_t)a->step_ns);
	while (sqlite3_step(st) == SQLITE_ROW) {
		uint64_t start = a->from_ns + (uint64_t)sqlite3_column_int64(st, 0) * a->step_ns;

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

/* The series buckets, oldest first, as read_bucket_splits() fills them. */
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
static int read_bucket_splits(struct db *db, const struct tiers *t, const struct series_ask *a,
			      struct series_bucket *b, size_t n, char *err, size_t errlen)
{
	struct bucket_list l = { b, n, a->from_ns, a->step_ns };

	return query_read_splits(db, t, (int64_t)a->from_ns, (int64_t)a->to_ns,
				 (int64_t)a->step_ns, bucket_slot, &l, err, errlen);
}

/* (*from, *to] cut to end at or before end (then empty if nothing is left). */
static void cut_range(int64_t *from, int64_t *to, int64_t end)
{
	if (*to > end)
		*to = end;
	if (*to <= *from)
		*from = *to = 0;
}

/* Whole minutes of the series from the minute rollups, whole hours from
 * the hour rollups when its step is whole hours, and whole days from the
 * day rollups when it is whole days: a rollup is the
 * exact sum of its bucket's rows, and a bucket of the series (from is a
 * multiple of step) then holds whole rollup buckets.  A day at 3 min
 * reads 1,440 rows per group where it read 86,400 raw ones. */
static void coarse_tiers(struct db *db, struct tiers *t, const struct series_ask *a)
{
	const int64_t minute = STACKD_ROLLUP_MINUTE_S * (int64_t)NS_PER_SEC;
	const int64_t hour = STACKD_ROLLUP_HOUR_S * (int64_t)NS_PER_SEC;
	const int64_t day = STACKD_ROLLUP_DAY_S * (int64_t)NS_PER_SEC;
	int64_t to = (int64_t)a->to_ns;

	if ((int64_t)a->step_ns % minute != 0)
		return;
	query_tiers_coarse(db, t, (int64_t)a->from_ns);
	cut_range(&t->minute_from, &t->minute_to, to - to % minute);
	if ((int64_t)a->step_ns % hour != 0)
		t->hour_from = t->hour_to = 0;
	else
		cut_range(&t->hour_from, &t->hour_to, to - to % hour);
	if ((int64_t)a->step_ns % day != 0)
		t->day_from = t->day_to = 0;
	else
		cut_range(&t->day_from, &t->day_to, to - to % day);
}

int query_series(struct db *db, enum query_who who, const char *what, int64_t uid,
		 uint64_t from_ns, uint64_t to_ns, uint64_t step_ns, struct series_bucket *out,
		 size_t max_buckets, const struct model **model, char *err, size_t errlen)
{
	struct series_ask a = { who, what, uid, from_ns, to_ns, step_ns };
	struct group_map *map = malloc(sizeof(*map));
	struct bucket_fill f = { map, NULL, out, 0, max_buckets, NULL };
	int64_t lo = 0, hi = -1;
	struct window w;
	struct tiers t;
	int r;

	memset(&w, 0, sizeof(w));
	if (map == NULL)
		return -ENOMEM;
	query_tiers(db, &t);
	r = query_read_intervals(db, &t, 1, &w, &lo, &hi, err, errlen);
	coarse_tiers(db, &t, &a);
	if (r == 0)
		r = query_map_groups(db, &w, map, err, errlen);
	if (r == 0) {
		*model = w.model;
		f.m = w.model;
		r = read_bucket_sums(db, &t, &a, &f, err, errlen);
	}
	free(f.parts);
	free(map);
	if (r < 0)
		return r;
	if (f.n > 0)
		read_bucket_spans(db, &t, &a, out, f.n);
	/* the host's attributed share per bucket: a point whose share is low
	 * may be missing some of the target's time */
	if (f.n > 0 && read_bucket_splits(db, &t, &a, out, f.n, err, errlen) < 0)
		return -EIO;
	return (int)f.n;
}

bool series_gap_before(const struct series_bucket *b, size_t i, uint64_t step)
{
	uint64_t d = i > 0 ? b[i].start_ns - b[i - 1].start_ns : 0;

	return i > 0 && d > step + step / 2 && d > b[i].longest_interval_ns + step;
}
