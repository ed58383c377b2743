/*
 * query_export.c - raw sample rows, page by page (see query.h).  Pages
 * follow the sample table's primary key, so each page is one index range
 * scan however large the database, and a reader never holds a read
 * transaction open across pages (the daemon's checkpoints go on).
 */
#include "lib/query_read.h"
#include "lib/pids.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

/* Split "a,b,c" (counter_group.events) into row->columns. */
static void split_columns(const char *events, struct export_row *row)
{
	const char *p = events ? events : "";
	unsigned n = 0;

	while (*p != '\0' && n < MODEL_MAX_EVENTS) {
		size_t len = strcspn(p, ",");

		snprintf(row->columns[n++], sizeof(row->columns[0]), "%.*s", (int)len, p);
		p += len;
		if (*p == ',')
			p++;
	}
	row->n_values = n;
}

/* The page statement's columns: the value columns from 15, then the
 * interval's rollup_s and periodic_ns. */
enum { PAGE_VALUES = 15, PAGE_ROLLUP = PAGE_VALUES + STACKD_SAMPLE_VALUES };

static const char *text(sqlite3_stmt *st, int col)
{
	return (const char *)sqlite3_column_text(st, col);
}

/* The page's statement: the rows after the cursor (?3 .. ?5) in the
 * window (?1, ?2), the target's (?6, when what is given) of uid ?7's (-1:
 * everyone's), at most ?8. */
static int prepare_page(struct db *db, enum query_who who, const char *what, sqlite3_stmt **st)
{
	static const char *const match[] = {
		[WHO_PID] = "p.pid = CAST(?6 AS INTEGER)",
		[WHO_COMM] = "p.comm = ?6",
		[WHO_UNIT] = "p.unit = ?6",
		[WHO_HOST] = "p.pid <> " PIDS_STR(PID_IDLE),
	};
	char vals[DB_VALUE_LIST_MAX];

	if (db_value_list(vals, sizeof(vals), "s.@", 0) < 0)
		return SQLITE_TOOBIG;
	/* The intervals by time (their ids need not follow it), and only from
	 * the cursor's on: SQLite seeks on the plain "id >=" but not on the
	 * row value, which alone would make every page rescan the window. */
	return query_prepare_printf(db, st,
		 "SELECT s.interval_id, s.process_id, s.group_id, i.start_ns, i.end_ns, p.pid,"
		 " p.start_ns, p.comm, p.unit, p.uid, g.model, g.name, g.events, s.task_clock_ns,"
		 " s.context_switches, %s, i.rollup_s, i.periodic_ns"
		 " FROM sample AS s JOIN interval AS i ON i.id = s.interval_id"
		 " JOIN process AS p ON p.id = s.process_id"
		 " JOIN counter_group AS g ON g.id = s.group_id"
		 " WHERE s.interval_id IN (SELECT id FROM interval WHERE end_ns > ?1"
		 "  AND end_ns <= ?2 AND id >= ?3 AND " TIER_MATCH("") ")"
		 " AND (s.interval_id, s.process_id, s.group_id) > (?3, ?4, ?5)"
		 " AND (?7 < 0 OR p.uid = ?7) %s%s"
		 " ORDER BY s.interval_id, s.process_id, s.group_id LIMIT ?8",
		 vals, what != NULL ? "AND " : "", what != NULL ? match[who] : "");
}

/* The page statement's row into row (its columns split again only when
 * the group is not the previous row's, *last_group). */
static void read_row(sqlite3_stmt *st, struct export_row *row, int64_t *last_group)
{
	row->key.interval_id = sqlite3_column_int64(st, 0);
	row->key.process_id = sqlite3_column_int64(st, 1);
	row->key.group_id = sqlite3_column_int64(st, 2);
	row->rollup_s = (unsigned)sqlite3_column_int(st, PAGE_ROLLUP);
	row->interval_periodic_ns = (uint64_t)sqlite3_column_int64(st, PAGE_ROLLUP + 1);
	row->interval_start_ns = (uint64_t)sqlite3_column_int64(st, 3);
	row->interval_end_ns = (uint64_t)sqlite3_column_int64(st, 4);
	row->pid = sqlite3_column_int(st, 5);
	row->start_ns = (uint64_t)sqlite3_column_int64(st, 6);
	row->comm = text(st, 7);
	row->unit = text(st, 8);
	row->uid = sqlite3_column_type(st, 9) == SQLITE_NULL ? -1 : sqlite3_column_int64(st, 9);
	row->model = text(st, 10);
	row->group = text(st, 11);
	if (row->key.group_id != *last_group) {
		split_columns(text(st, 12), row);
		*last_group = row->key.group_id;
	}
	row->task_clock_ns = (uint64_t)sqlite3_column_int64(st, 13);
	row->context_switches = (uint64_t)sqlite3_column_int64(st, 14);
	query_read_values(st, PAGE_VALUES, row->v);
}

int query_export(struct db *db, uint64_t from_ns, uint64_t to_ns, enum query_who who,
		 const char *what, int64_t uid, const struct export_cursor *after, size_t limit,
		 int (*fn)(const struct export_row *row, void *arg), void *arg, char *err,
		 size_t errlen)
{
	struct export_row row;
	struct tiers t;
	int64_t last_group = -1;
	sqlite3_stmt *st;
	size_t n = 0;
	int rc = SQLITE_DONE, r = 0;

	if (prepare_page(db, who, what, &st) != SQLITE_OK) {
		snprintf(err, errlen, "cannot read samples: %s", sqlite3_errmsg(db->db));
		return -EIO;
	}
	sqlite3_bind_int64(st, 1, (int64_t)from_ns);
	sqlite3_bind_int64(st, 2, (int64_t)to_ns);
	sqlite3_bind_int64(st, 3, after->interval_id);
	sqlite3_bind_int64(st, 4, after->process_id);
	sqlite3_bind_int64(st, 5, after->group_id);
	if (what != NULL)
		sqlite3_bind_text(st, 6, what, -1, SQLITE_STATIC);
	sqlite3_bind_int64(st, 7, uid);
	sqlite3_bind_int64(st, 8, (int64_t)limit);
	query_tiers(db, &t);
	query_bind_tiers(st, &t);
	memset(&row, 0, sizeof(row));
	while (r >= 0 && (rc = sqlite3_step(st)) == SQLITE_ROW) {
		read_row(st, &row, &last_group);
		r = fn(&row, arg);
		n++;
	}
	if (r >= 0 && rc != SQLITE_DONE && rc != SQLITE_ROW) {
		snprintf(err, errlen, "cannot read samples: %s", sqlite3_errmsg(db->db));
		r = -EIO;
	}
	sqlite3_finalize(st);
	return r < 0 ? r : (int)n;
}

int query_event_columns(struct db *db, char (*names)[64], size_t max)
{
	struct export_row split;
	sqlite3_stmt *st;
	size_t n = 0, i;
	unsigned k;

	if (sqlite3_prepare_v2(db->db, "SELECT events FROM counter_group ORDER BY id", -1, &st,
			       NULL) != SQLITE_OK)
		return -EIO;
	while (sqlite3_step(st) == SQLITE_ROW) {
		split_columns(text(st, 0), &split);
		for (k = 0; k < split.n_values; k++) {
			for (i = 0; i < n && strcmp(names[i], split.columns[k]) != 0; i++)
				;
			if (i == n && n < max)
				snprintf(names[n++], 64, "%s", split.columns[k]);
		}
	}
	sqlite3_finalize(st);
	return (int)n;
}
