/*
 * api_system.c - GET /api/v1/system: the collector's identity and health:
 * version, uptime, model, groups and their coverage over the last minute,
 * losses, database size and the oldest record.  Asked of a database file
 * (stackctl --db), the daemon's facts come from what it recorded in meta.
 */
#include "lib/api_endpoints.h"
#include "lib/clock.h"
#include "lib/duration.h"
#include "lib/sampling_cost.h"
#include "lib/version.h"

#include <errno.h>
#include <inttypes.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* Whether comma-separated list holds name. */
static bool list_has(const char *list, const char *name)
{
	size_t n = strlen(name);
	const char *p = list;

	while ((p = strstr(p, name)) != NULL) {
		if ((p == list || p[-1] == ',') && (p[n] == ',' || p[n] == '\0'))
			return true;
		p += n;
	}
	return false;
}

static uint64_t file_size(const char *path, const char *suffix)
{
	char p[4200];
	struct stat st;

	snprintf(p, sizeof(p), "%s%s", path, suffix);
	return stat(p, &st) == 0 ? (uint64_t)st.st_size : 0;
}

static uint64_t meta_u64(struct db *db, const char *key)
{
	char buf[64];

	return query_meta(db, key, buf, sizeof(buf)) == 0 ? strtoull(buf, NULL, 10) : 0;
}

static uint64_t meta_duration(struct db *db, const char *key)
{
	char buf[64];
	uint64_t ns = 0;

	if (query_meta(db, key, buf, sizeof(buf)) == 0 && duration_parse(buf, &ns) < 0)
		ns = 0;
	return ns;
}

/* The daemon that wrote the database still runs under the pid it recorded. */
static bool writer_running(struct db *db)
{
	char path[64], comm[64] = "";
	uint64_t pid = meta_u64(db, "pid");
	FILE *f;

	if (pid == 0 || pid > INT32_MAX || (kill((pid_t)pid, 0) < 0 && errno != EPERM))
		return false;
	snprintf(path, sizeof(path), "/proc/%" PRIu64 "/comm", pid);
	f = fopen(path, "re");
	if (f == NULL)
		return false;
	if (fgets(comm, sizeof(comm), f) == NULL)
		comm[0] = '\0';
	fclose(f);
	comm[strcspn(comm, "\n")] = '\0';
	return strcmp(comm, "stackd") == 0;
}

/* A meta value, NULL when the database has none. */
static const char *meta_or_null(struct db *db, const char *key, char *buf, size_t len)
{
	return query_meta(db, key, buf, len) == 0 ? buf : NULL;
}

static void print_exclusions(struct jsonw *j, struct db *db)
{
	static const char *const kinds[] = { "comm", "unit", "user" };
	char key[32], buf[512];

	jsonw_key(j, "exclusions");
	jsonw_object_begin(j);
	for (unsigned k = 0; k < 3; k++) {
		snprintf(key, sizeof(key), "exclude_%s", kinds[k]);
		jsonw_field_string(j, kinds[k], query_meta(db, key, buf, sizeof(buf)) == 0 ? buf : "");
	}
	jsonw_object_end(j);
}

/* The counter groups the daemon planned for its host's PMU (meta "plan",
 * JSON it wrote itself: daemon/plan/plan_print.c): the budget, each group, and
 * each family split or left out with the reason.  null from a daemon
 * older than the planner. */
static void print_plan(struct jsonw *j, struct db *db)
{
	char *buf = malloc(65536);
	size_t n = 0;

	jsonw_key(j, "plan");
	/* (the daemon's JSON writer ends its text with a newline) */
	if (buf != NULL && query_meta(db, "plan", buf, 65536) == 0) {
		n = strlen(buf);
		while (n > 0 && (buf[n - 1] == '\n' || buf[n - 1] == ' '))
			buf[--n] = '\0';
	}
	if (n > 0 && buf[0] == '{' && buf[n - 1] == '}')
		jsonw_raw(j, buf);
	else
		jsonw_null(j);
	free(buf);
}

static void print_families(struct jsonw *j, struct db *db, const struct model *m)
{
	char buf[512];

	/* meta "groups": the families the daemon collects (families =) */
	if (query_meta(db, "groups", buf, sizeof(buf)) != 0)
		buf[0] = '\0';
	jsonw_break(j, 1);
	jsonw_key(j, "families");
	jsonw_array_begin(j);
	for (unsigned g = 0; m != NULL && g < m->n_groups; g++) {
		jsonw_object_begin(j);
		jsonw_field_string(j, "name", m->groups[g].name);
		jsonw_field_bool(j, "collected", buf[0] == '\0' || list_has(buf, m->groups[g].name));
		jsonw_key(j, "events");
		jsonw_array_begin(j);
		for (unsigned k = 0; k < m->groups[g].n_events; k++)
			jsonw_string(j, m->groups[g].events[k].column);
		jsonw_array_end(j);
		jsonw_object_end(j);
	}
	jsonw_array_end(j);
	jsonw_break(j, 1);
	print_plan(j, db);
}

static void print_identity(struct jsonw *j, const struct api_info *info, struct db *db,
			   const struct window *w)
{
	const struct model *m = info->model ? info->model : w->model;
	uint64_t started = info->started_ns ? info->started_ns : meta_u64(db, "started_ns");
	uint64_t interval = info->interval_ns ? info->interval_ns : meta_duration(db, "interval");
	uint64_t rotate = info->rotate_period_ns ? info->rotate_period_ns :
			  meta_duration(db, "rotate_period");
	bool running = info->in_daemon || writer_running(db);
	char buf[512], host[256];
	uint64_t now = clock_ns(CLOCK_REALTIME);

	api_host(db, host, sizeof(host));
	jsonw_object_begin(j);
	jsonw_field_string(j, "version", info->in_daemon ||
			   query_meta(db, "version", buf, sizeof(buf)) < 0 ? STACKD_VERSION : buf);
	jsonw_field_string(j, "host", host);
	/* a constructed database (stackd --demo): its label, on every answer */
	jsonw_field_string_or_null(j, "demo", meta_or_null(db, "demo", buf, sizeof(buf)));
	jsonw_field_bool(j, "running", running);
	jsonw_field_uint(j, "pid", info->in_daemon ? (uint64_t)getpid() : meta_u64(db, "pid"));
	jsonw_field_uint(j, "started_ns", started);
	jsonw_key(j, "uptime_s");
	if (running && started > 0 && now > started)
		jsonw_double_f(j, (double)(now - started) / (double)NS_PER_SEC, 3);
	else
		jsonw_null(j);
	jsonw_break(j, 1);
	jsonw_field_string(j, "model", m != NULL ? m->name : w->model_name);
	jsonw_field_string_or_null(j, "model_description", m != NULL ? m->description : NULL);
	jsonw_field_string_or_null(j, "model_reason",
				   meta_or_null(db, "model_reason", buf, sizeof(buf)));
	jsonw_field_uint(j, "formula_version", m ? m->formula_version : 0);
	jsonw_field_uint(j, "pipeline_width", m ? m->pipeline_width : 0);
	jsonw_break(j, 1);
	jsonw_field_uint(j, "interval_ns", interval);
	jsonw_field_uint(j, "rotate_period_ns", rotate);
	jsonw_field_string_or_null(j, "switch_event",
				   meta_or_null(db, "switch_event", buf, sizeof(buf)));
	jsonw_field_string_or_null(j, "count_modes",
				   meta_or_null(db, "count_modes", buf, sizeof(buf)));
	print_exclusions(j, db);
	print_families(j, db, m);
}

/* The daemon's writer as it is now (not as of the last stored interval):
 * an outage shows while it lasts. */
static void print_writer(struct jsonw *j, struct writer_status_box *box)
{
	struct writer_status ws;

	writer_status_read(box, &ws);
	jsonw_break(j, 1);
	jsonw_key(j, "writer");
	jsonw_object_begin(j);
	jsonw_field_bool(j, "failing", ws.failing_since_ns != 0);
	jsonw_key(j, "failing_since_ns");
	if (ws.failing_since_ns != 0)
		jsonw_uint(j, ws.failing_since_ns);
	else
		jsonw_null(j);
	jsonw_field_string_or_null(j, "last_error", ws.last_error[0] ? ws.last_error : NULL);
	jsonw_key(j, "last_write_ns");
	if (ws.last_write_ns != 0)
		jsonw_uint(j, ws.last_write_ns);
	else
		jsonw_null(j);
	jsonw_break(j, 2);
	jsonw_field_uint(j, "write_errors", ws.write_errors);
	jsonw_field_uint(j, "pending_intervals", ws.pending);
	jsonw_field_uint(j, "dropped_intervals", ws.dropped);
	jsonw_field_uint(j, "database_replaced", ws.replaced);
	jsonw_field_uint(j, "lost_in_replaced_intervals", ws.lost_in_replaced);
	jsonw_field_uint(j, "space_cap_bytes", ws.space_cap_bytes);
	jsonw_object_end(j);
}

/* field: meta key meta as a number, null when absent or empty; returns
 * it, -1 when null. */
static double print_meta_number(struct jsonw *j, struct db *db, const char *meta,
				const char *field)
{
	char v[32] = "";
	double x;

	jsonw_key(j, field);
	if (query_meta(db, meta, v, sizeof(v)) < 0 || v[0] == '\0') {
		jsonw_null(j);
		return -1;
	}
	x = strtod(v, NULL);
	jsonw_double(j, x);
	return x;
}

/* In "sampling_cost": periodic mode's costs (null: not measured, or a
 * daemon too old to say) and how they were found, and the rate periodic
 * mode samples at; *out what periodic mode costs a CPU switching rate
 * times a second (-1: unknown). */
static void print_periodic_costs(struct jsonw *j, struct db *db, uint64_t rate, double *out)
{
	char method[256] = "";
	double clock = print_meta_number(j, db, "clock_sample_cost_ns", "ns_per_clock_sample");
	double count = print_meta_number(j, db, "switch_count_cost_ns", "ns_per_counted_switch");
	double hz = print_meta_number(j, db, "periodic_hz", "periodic_hz");

	if (query_meta(db, "clock_sample_cost_method", method, sizeof(method)) < 0)
		method[0] = '\0';
	jsonw_field_string_or_null(j, "periodic_cost_method", method[0] != '\0' ? method : NULL);
	*out = clock >= 0 && count >= 0 && hz > 0 ? periodic_cost_fraction(rate, count, hz, clock)
						   : -1;
}

/* "sampling_cost": what sampling one context switch costs on this host,
 * as the daemon last measured it (meta: at start, or re-checked when the
 * switch rate moved; calibrated_at says when, RFC 3339, null when never),
 * else the development VM's figure, saying which; returns the ns per
 * switch. */
static double print_sampling_cost(struct jsonw *j, struct db *db, uint64_t rate,
				  double *periodic_cost)
{
	char ns[32] = "", method[512] = "", when[40] = "";
	bool measured = query_meta(db, "sampling_cost_ns", ns, sizeof(ns)) == 0 && ns[0] != '\0';
	double cost = measured ? strtod(ns, NULL) : (double)SWITCH_SAMPLE_COST_NS;

	if (query_meta(db, "sampling_cost_method", method, sizeof(method)) < 0 || !measured) {
		size_t at = strnlen(method, 400);

		/* the daemon's reason when it gave one ("the ping-pong threads
		 * could not run on cpu N"), and the figure standing in */
		snprintf(method + at, sizeof(method) - at, "%sNOT MEASURED on this host: make "
			 "bench's figure on the development VM", at ? "; " : "");
	}
	jsonw_break(j, 1);
	jsonw_key(j, "sampling_cost");
	jsonw_object_begin(j);
	jsonw_field_double(j, "ns_per_switch", cost);
	jsonw_field_bool(j, "measured", measured);
	jsonw_field_string(j, "method", method);
	if (!measured || query_meta(db, "sampling_cost_calibrated_at", when, sizeof(when)) < 0)
		when[0] = '\0';
	jsonw_field_string_or_null(j, "calibrated_at", when[0] != '\0' ? when : NULL);
	print_periodic_costs(j, db, rate, periodic_cost);
	jsonw_object_end(j);
	return cost;
}

int api_system(const struct api_request *rq, struct api_response *resp)
{
	static const char *const keys[] = { "window", NULL };
	const struct api_info *info = rq->info;
	struct db *db = rq->db;
	uint64_t oldest = 0, newest = 0, window_ns = API_DEFAULT_WINDOW_NS;
	struct http_query q;
	struct api_out o;
	struct window w;
	char err[1024];
	double cost, periodic;
	bool have;

	if (http_query_parse(rq->query, keys, &q, err, sizeof(err)) < 0 ||
	    http_query_duration(&q, "window", API_MAX_WINDOW_NS, &window_ns, err, sizeof(err)) < 0)
		return api_error(resp, 400, "%s", err);
	have = query_span(db, &oldest, &newest) == 0;
	memset(&w, 0, sizeof(w));
	w.busiest_cpu = -1;
	if (have && query_health(db, window_ns, &w, err, sizeof(err)) < 0)
		return api_error(resp, 500, "%s", err);
	if (api_out_open(&o) < 0)
		return -ENOMEM;
	print_identity(&o.w, info, db, &w);
	api_print_window_health(&o.w, &w);
	cost = sampling_cost_fraction(w.max_cpu_switch_rate,
				      print_sampling_cost(&o.w, db, w.max_cpu_switch_rate, &periodic));
	jsonw_break(&o.w, 1);
	jsonw_field_double(&o.w, "sampling_cost_fraction", cost);
	jsonw_key(&o.w, "periodic_cost_fraction");
	if (periodic >= 0)
		jsonw_double(&o.w, periodic);
	else
		jsonw_null(&o.w);
	jsonw_field_bool(&o.w, "sampling_costly", cost > SAMPLING_COSTLY_FRACTION);
	jsonw_break(&o.w, 1);
	jsonw_key(&o.w, "database");
	jsonw_object_begin(&o.w);
	jsonw_field_string(&o.w, "path", info->database);
	jsonw_field_uint(&o.w, "bytes", file_size(info->database, "") +
			 file_size(info->database, "-wal"));
	if (have) {
		jsonw_field_uint(&o.w, "oldest_ns", oldest);
		jsonw_field_uint(&o.w, "newest_ns", newest);
	} else {
		jsonw_key(&o.w, "oldest_ns");
		jsonw_null(&o.w);
		jsonw_key(&o.w, "newest_ns");
		jsonw_null(&o.w);
	}
	jsonw_object_end(&o.w);
	if (info->writer != NULL)
		print_writer(&o.w, info->writer);
	jsonw_object_end(&o.w);
	return api_out_finish(&o, 200, true, resp);
}
