/*
 * query.c - a window of the stored data (query_window, query_health; see
 * query.h): its intervals' health, each counter family's time, who the
 * CPU time went to, and the samples summed per process.  The connection is
 * in query_db.c, the readers shared with the series in query_read.c.
 */
#include "lib/query_read.h"
#include "lib/sampling_mode.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static char *dup_column(sqlite3_stmt *st, int col)
{
	const unsigned char *t = sqlite3_column_text(st, col);

	return t != NULL ? strdup((const char *)t) : NULL;
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
			       " WHERE i.end_ns > ?1 AND i.end_ns <= ?2 AND " TIER_MATCH_COARSE("i.")
			       " GROUP BY group_id", -1, &st, NULL) != SQLITE_OK)
		return query_sql_fail(db, "cannot read group times", err, errlen);
	sqlite3_bind_int64(st, 1, lo);
	sqlite3_bind_int64(st, 2, hi);
	query_bind_tiers(st, t);
	while (sqlite3_step(st) == SQLITE_ROW) {
		const struct stored_group *sg = group_map_find(map, sqlite3_column_int64(st, 0));
		int g = sg != NULL ? sg->family : -1;

		if (g < 0)
			continue;
		w->groups[g].split |= !sg->whole && sqlite3_column_int64(st, 1) > 0;
		w->groups[g].enabled_ns += (uint64_t)sqlite3_column_int64(st, 1);
		w->groups[g].unschedulable += (uint64_t)sqlite3_column_int64(st, 2);
	}
	sqlite3_finalize(st);
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
	return query_read_splits(db, t, lo, hi, hi - lo, window_slot, w, err, errlen);
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

/* The samples statement's columns: the process's (p.id .. p.unit), then
 * group_id, task clock, context switches, the value columns, periodic time,
 * and the process's namespace, pod and container. */
enum {
	SAMPLES_GROUP = 7, SAMPLES_TC, SAMPLES_CS, SAMPLES_VALUES,
	SAMPLES_PERIODIC = SAMPLES_VALUES + STACKD_SAMPLE_VALUES,
	SAMPLES_NAMESPACE, SAMPLES_POD, SAMPLES_CONTAINER,
};

/* The window's samples (?1, ?2 and the tiers) summed per process and
 * stored group, by process. */
static int prepare_samples(struct db *db, sqlite3_stmt **st)
{
	char vals[DB_VALUE_LIST_MAX], sums[DB_VALUE_LIST_MAX];

	if (db_value_list(vals, sizeof(vals), "s.@", 0) < 0 ||
	    db_value_list(sums, sizeof(sums), "sum(@) AS @", 0) < 0)
		return SQLITE_TOOBIG;
	return query_prepare_printf(db, st,
		"SELECT p.id, p.pid, p.start_ns, p.comm, p.cmdline, p.uid, p.unit, s.group_id,"
		" s.tc, s.cs, %s, s.pn, p.pod_namespace, coalesce(p.pod_name, p.pod_uid),"
		" coalesce(p.container_name, substr(p.container_id, 1, 12))"
		" FROM (SELECT process_id, group_id, sum(task_clock_ns) AS tc,"
		"  sum(context_switches) AS cs, %s,"
		"  sum(sample.periodic_ns) AS pn"
		"  FROM interval AS i CROSS JOIN sample ON sample.interval_id = i.id"
		"  WHERE i.end_ns > ?1 AND i.end_ns <= ?2 AND " TIER_MATCH_COARSE("i.")
		"  GROUP BY process_id, group_id) AS s"
		" JOIN process AS p ON p.id = s.process_id"
		" ORDER BY p.id", vals, sums);
}

/* A new process at the end of w->procs (of *cap, grown as needed) from the
 * row's process columns; NULL when out of memory. */
static struct window_proc *add_proc(struct window *w, size_t *cap, sqlite3_stmt *st)
{
	struct window_proc *p;

	if (w->n_procs == *cap) {
		size_t ncap = *cap ? *cap * 2 : 64;
		struct window_proc *more = realloc(w->procs, ncap * sizeof(*more));

		if (more == NULL)
			return NULL;
		w->procs = more;
		*cap = ncap;
	}
	p = &w->procs[w->n_procs];
	memset(p, 0, sizeof(*p));
	p->sums = calloc(w->model != NULL && w->model->n_groups > 0 ? w->model->n_groups : 1,
			 sizeof(*p->sums));
	if (p->sums == NULL)
		return NULL;
	w->n_procs++;
	p->pid = sqlite3_column_int(st, 1);
	p->start_ns = (uint64_t)sqlite3_column_int64(st, 2);
	snprintf(p->comm, sizeof(p->comm), "%s", (const char *)sqlite3_column_text(st, 3));
	p->cmdline = dup_column(st, 4);
	p->uid = sqlite3_column_type(st, 5) == SQLITE_NULL ? -1 : sqlite3_column_int64(st, 5);
	p->unit = dup_column(st, 6);
	p->namespace_ = dup_column(st, SAMPLES_NAMESPACE);
	p->pod = dup_column(st, SAMPLES_POD);
	p->container = dup_column(st, SAMPLES_CONTAINER);
	return p;
}

/* One row's sums (a stored group's) into its process p: 0, or -ENOMEM. */
static int add_sample(const struct group_map *map, struct window_proc *p,
		      struct part_sums **parts, sqlite3_stmt *st)
{
	uint64_t tc = (uint64_t)sqlite3_column_int64(st, SAMPLES_TC);
	uint64_t cs = (uint64_t)sqlite3_column_int64(st, SAMPLES_CS);
	const struct stored_group *sg;
	uint64_t v[MODEL_MAX_EVENTS];

	p->task_clock_ns += tc;
	p->periodic_ns += (uint64_t)sqlite3_column_int64(st, SAMPLES_PERIODIC);
	p->context_switches += cs;
	sg = group_map_find(map, sqlite3_column_int64(st, SAMPLES_GROUP));
	if (sg == NULL)
		return 0;   /* unmapped (another model's): see recorded_under */
	query_read_values(st, SAMPLES_VALUES, v);
	return group_parts_add(map, sg, p->sums, parts, tc, cs, v) < 0 ? -ENOMEM : 0;
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

	if (prepare_samples(db, &st) != SQLITE_OK)
		return query_sql_fail(db, "cannot read samples", err, errlen);
	sqlite3_bind_int64(st, 1, lo);
	sqlite3_bind_int64(st, 2, hi);
	query_bind_tiers(st, tiers);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		int64_t proc_id = sqlite3_column_int64(st, 0);

		if (proc_id != last_proc) {
			if (w.n_procs > 0 && fold_parts(map, &w, &parts) < 0)
				break;
			if (add_proc(&w, &cap, st) == NULL) {
				sqlite3_finalize(st);
				free(parts);
				window_done(&w);
				return -ENOMEM;
			}
			last_proc = proc_id;
		}
		if (add_sample(map, &w.procs[w.n_procs - 1], &parts, st) < 0)
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
		return query_sql_fail(db, "cannot read samples", err, errlen);
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
	r = query_read_intervals(db, &t, window_ns, &w, &lo, &hi, err, errlen);
	if (r == 0 && window_ns >= QUERY_COARSE_MIN_NS)
		query_tiers_coarse(db, &t, lo);
	if (r == 0)
		r = query_map_groups(db, &w, map, err, errlen);
	if (r == 0)
		r = read_group_times(db, &t, &w, map, lo, hi, err, errlen);
	if (r == 0)
		r = read_cpu_split(db, &t, &w, lo, hi, err, errlen);
	if (r == 0)
		r = read_window_samples(db, &t, map, lo, hi, &w, &cap, err, errlen);
	if (r == 0) {
		r = query_read_recorded(db, &t, lo, hi, map, w.model, w.smt_on, w.recorded,
					RECORDED_UNDER_MAX, err, errlen);
		w.n_recorded = r > 0 ? (unsigned)r : 0;
		if (r < 0)
			window_done(&w);
		else
			r = 0;
	}
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
	r = query_read_intervals(db, &t, window_ns, out, &lo, &hi, err, errlen);
	if (r == 0)
		r = query_map_groups(db, out, map, err, errlen);
	if (r == 0)
		r = read_group_times(db, &t, out, map, lo, hi, err, errlen);
	if (r == 0)
		r = read_cpu_split(db, &t, out, lo, hi, err, errlen);
	free(map);
	return r;
}

void window_done(struct window *w)
{
	size_t i;

	for (i = 0; i < w->n_procs; i++) {
		free(w->procs[i].cmdline);
		free(w->procs[i].unit);
		free(w->procs[i].namespace_);
		free(w->procs[i].pod);
		free(w->procs[i].container);
		free(w->procs[i].sums);
	}
	free(w->procs);
	memset(w, 0, sizeof(*w));
}
