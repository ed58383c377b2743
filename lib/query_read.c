/*
 * query_read.c - what the readers share (query_read.h): the window's
 * intervals and model, the stored counter groups, who the CPU time went
 * to, and the statements and rows of the sample table's value columns.
 */
#include "lib/query_read.h"
#include "lib/db.h"
#include "lib/pids.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int query_sql_fail(struct db *db, const char *what, char *err, size_t errlen)
{
	snprintf(err, errlen, "%s: %s", what, sqlite3_errmsg(db->db));
	return -EIO;
}

int query_prepare_printf(struct db *db, sqlite3_stmt **st, const char *fmt, ...)
{
	char sql[QUERY_SQL_MAX];
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(sql, sizeof(sql), fmt, ap);
	va_end(ap);
	if (n < 0 || (size_t)n >= sizeof(sql))
		return SQLITE_TOOBIG;
	return sqlite3_prepare_v2(db->db, sql, -1, st, NULL);
}

void query_read_values(sqlite3_stmt *st, int col, uint64_t v[MODEL_MAX_EVENTS])
{
	int k;

	for (k = 0; k < STACKD_SAMPLE_VALUES; k++)
		v[k] = (uint64_t)sqlite3_column_int64(st, col + k);
}

int query_map_groups(struct db *db, const struct window *w, struct group_map *map, char *err,
		     size_t errlen)
{
	sqlite3_stmt *st;

	memset(map, 0, sizeof(*map));
	if (sqlite3_prepare_v2(db->db, "SELECT id, model, formula_version, name, events"
			       " FROM counter_group ORDER BY id", -1, &st, NULL) != SQLITE_OK)
		return query_sql_fail(db, "cannot read counter groups", err, errlen);
	while (sqlite3_step(st) == SQLITE_ROW)
		group_map_add(map, w->model, sqlite3_column_int64(st, 0),
			      (const char *)sqlite3_column_text(st, 1),
			      (unsigned)sqlite3_column_int(st, 2),
			      (const char *)sqlite3_column_text(st, 3),
			      (const char *)sqlite3_column_text(st, 4));
	sqlite3_finalize(st);
	return 0;
}

int query_read_recorded(struct db *db, const struct tiers *t, int64_t lo, int64_t hi,
			const struct group_map *map, const struct model *m, bool smt_on,
			struct recorded_under *out, size_t max, char *err, size_t errlen)
{
	sqlite3_stmt *st;
	size_t n = 0;
	int rc;

	if (group_map_only(map, m))
		return 0;   /* the usual case: nothing else is stored */
	rc = sqlite3_prepare_v2(db->db, "SELECT g.model, g.formula_version, count(DISTINCT i.id)"
				" FROM interval AS i CROSS JOIN interval_group AS ig"
				" ON ig.interval_id = i.id JOIN counter_group AS g ON g.id = ig.group_id"
				" WHERE i.end_ns > ?1 AND i.end_ns <= ?2 AND " TIER_MATCH("i.")
				" GROUP BY g.model, g.formula_version ORDER BY 3 DESC, 1, 2",
				-1, &st, NULL);
	if (rc != SQLITE_OK)
		return query_sql_fail(db, "cannot read the intervals' formula versions", err, errlen);
	sqlite3_bind_int64(st, 1, lo);
	sqlite3_bind_int64(st, 2, hi);
	query_bind_tiers(st, t);
	while (n < max && (rc = sqlite3_step(st)) == SQLITE_ROW) {
		struct recorded_under *r = &out[n];
		const char *model = (const char *)sqlite3_column_text(st, 0);
		unsigned version = (unsigned)sqlite3_column_int(st, 1);

		if (model == NULL || (m != NULL && version == m->formula_version &&
				      strcmp(model, m->name) == 0))
			continue;
		memset(r, 0, sizeof(*r));
		snprintf(r->model, sizeof(r->model), "%s", model);
		r->formula_version = version;
		r->intervals = (unsigned)sqlite3_column_int(st, 2);
		group_map_judge(map, m, smt_on, r);
		n++;
	}
	if (n < max && rc != SQLITE_DONE) {
		sqlite3_finalize(st);
		return query_sql_fail(db, "cannot read the intervals' formula versions", err, errlen);
	}
	sqlite3_finalize(st);
	return (int)n;
}

int query_recorded_under(struct db *db, const struct model *m, bool smt_on, uint64_t from_ns,
			 uint64_t to_ns, struct recorded_under *out, size_t max, char *err,
			 size_t errlen)
{
	struct group_map *map = malloc(sizeof(*map));
	struct window w;
	struct tiers t;
	int r;

	if (map == NULL)
		return -ENOMEM;
	memset(&w, 0, sizeof(w));
	w.model = m;
	query_tiers(db, &t);
	r = query_map_groups(db, &w, map, err, errlen);
	if (r == 0)
		r = query_read_recorded(db, &t, (int64_t)from_ns, (int64_t)to_ns, map, m, smt_on,
					out, max, err, errlen);
	free(map);
	return r;
}

int query_read_intervals(struct db *db, const struct tiers *t, uint64_t window_ns,
			 struct window *w, int64_t *lo, int64_t *hi, char *err, size_t errlen)
{
	sqlite3_stmt *st;
	int64_t newest;
	int rc;

	rc = sqlite3_prepare_v2(db->db, "SELECT end_ns, model FROM interval"
				" ORDER BY end_ns DESC LIMIT 1", -1, &st, NULL);
	if (rc != SQLITE_OK)
		return query_sql_fail(db, "cannot read intervals", err, errlen);
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
		w->slots = query_meta(db, "pmu_slots", smt, sizeof(smt)) == 0 ?
			   (unsigned)strtoul(smt, NULL, 10) : 0;
		if (query_meta(db, "cpuid", w->cpuid, sizeof(w->cpuid)) < 0)
			w->cpuid[0] = '\0';
	}

	rc = sqlite3_prepare_v2(db->db,
				"SELECT min(start_ns), max(end_ns), count(*), max(ncpus), max(rollup_s)"
				HEALTH_FIELDS(HEALTH_SQL_COMBINE)
				" FROM interval WHERE end_ns > ?1 AND end_ns <= ?2 AND " TIER_MATCH(""),
				-1, &st, NULL);
	if (rc != SQLITE_OK)
		return query_sql_fail(db, "cannot read intervals", err, errlen);
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

int query_read_splits(struct db *db, const struct tiers *t, int64_t lo, int64_t hi,
		      int64_t step, query_split_slot_fn slot, void *arg, char *err, size_t errlen)
{
	static const char *const sql[2] = {
		/* at each moment's finest level, not the coarse ranges: a
		 * rollup spans its first start to its last end at its largest
		 * ncpus, so an hour with a gap (a restart, a suspend) or a CPU
		 * brought online would count CPU time nobody measured.  This
		 * reads interval rows only: cheap at any level. */
		"SELECT (i.end_ns - ?1 - 1) / ?3, sum(i.ncpus * (i.end_ns - i.start_ns)),"
		" sum(i.samples + i.unsampled_switches), sum(i.periodic_ns)"
		" FROM interval AS i WHERE i.end_ns > ?1 AND i.end_ns <= ?2 AND " TIER_MATCH("i.")
		" GROUP BY 1",
		/* [idle] and [unattributed] are a process or two per boot with a
		 * row in nearly every interval: each of the window's intervals
		 * looked up by sample's key.  (Read by process, their rows of
		 * every interval stored were read: 2.2 s a request on the bench's
		 * year, whatever the window.) */
		"WITH sp AS MATERIALIZED (SELECT id, pid FROM process WHERE pid IN ("
		PIDS_STR(PID_IDLE) ", " PIDS_STR(PID_UNATTRIBUTED) "))"
		" SELECT (i.end_ns - ?1 - 1) / ?3,"
		" coalesce(sum(CASE WHEN p.pid = " PIDS_STR(PID_IDLE) " THEN s.task_clock_ns END), 0),"
		" coalesce(sum(CASE WHEN p.pid = " PIDS_STR(PID_UNATTRIBUTED)
		" THEN s.task_clock_ns END), 0),"
		" coalesce(sum(CASE WHEN p.pid = " PIDS_STR(PID_UNATTRIBUTED)
		" THEN s.context_switches END), 0)"
		" FROM interval AS i CROSS JOIN sp AS p CROSS JOIN sample AS s"
		" ON s.interval_id = i.id AND s.process_id = p.id"
		" WHERE i.end_ns > ?1 AND i.end_ns <= ?2 AND " TIER_MATCH_COARSE("i.") " GROUP BY 1",
	};
	int k;

	for (k = 0; k < 2; k++) {
		sqlite3_stmt *st;

		if (sqlite3_prepare_v2(db->db, sql[k], -1, &st, NULL) != SQLITE_OK)
			return query_sql_fail(db, "cannot read the CPU time split", err, errlen);
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
