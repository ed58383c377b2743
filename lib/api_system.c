/*
 * api_system.c - GET /api/v1/system: the collector's identity and health:
 * version, uptime, model, groups and their coverage over the last minute,
 * losses, database size and the oldest record.  Asked of a database file
 * (stackctl --db), the daemon's facts come from what it recorded in meta.
 */
#include "api_out.h"
#include "clock.h"
#include "duration.h"
#include "sampling_cost.h"
#include "version.h"

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

static void print_identity(FILE *f, const struct api_info *info, struct db *db,
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
	fputs("{\"version\": ", f);
	json_print_string(f, info->in_daemon || query_meta(db, "version", buf, sizeof(buf)) < 0 ?
			  STACKD_VERSION : buf);
	fputs(", \"host\": ", f);
	json_print_string(f, host);
	fprintf(f, ", \"running\": %s, \"pid\": %" PRIu64 ", \"started_ns\": %" PRIu64
		", \"uptime_s\": ", running ? "true" : "false",
		info->in_daemon ? (uint64_t)getpid() : meta_u64(db, "pid"), started);
	if (running && started > 0 && now > started)
		fprintf(f, "%.3f", (double)(now - started) / (double)NS_PER_SEC);
	else
		fputs("null", f);
	fputs(",\n \"model\": ", f);
	json_print_string(f, m != NULL ? m->name : w->model_name);
	fputs(", \"model_description\": ", f);
	json_string_or_null(f, m != NULL ? m->description : NULL);
	fputs(", \"model_reason\": ", f);
	json_string_or_null(f, query_meta(db, "model_reason", buf, sizeof(buf)) == 0 ? buf : NULL);
	fprintf(f, ", \"formula_version\": %u, \"pipeline_width\": %u,\n \"interval_ns\": %"
		PRIu64 ", \"rotate_period_ns\": %" PRIu64 ", \"switch_event\": ",
		m ? m->formula_version : 0, m ? m->pipeline_width : 0, interval, rotate);
	json_string_or_null(f, query_meta(db, "switch_event", buf, sizeof(buf)) == 0 ? buf : NULL);
	fputs(", \"count_modes\": ", f);
	json_string_or_null(f, query_meta(db, "count_modes", buf, sizeof(buf)) == 0 ? buf : NULL);
	fputs(", \"exclusions\": {", f);
	{
		static const char *const kinds[] = { "comm", "unit", "user" };

		for (unsigned k = 0; k < 3; k++) {
			char key[32];

			snprintf(key, sizeof(key), "exclude_%s", kinds[k]);
			fprintf(f, "%s\"%s\": ", k ? ", " : "", kinds[k]);
			json_print_string(f, query_meta(db, key, buf, sizeof(buf)) == 0 ? buf : "");
		}
	}
	fputc('}', f);
	/* meta "groups": the families the daemon collects (families =) */
	if (query_meta(db, "groups", buf, sizeof(buf)) != 0)
		buf[0] = '\0';
	fputs(",\n \"families\": [", f);
	for (unsigned g = 0; m != NULL && g < m->n_groups; g++) {
		fprintf(f, "%s{\"name\": \"%s\", \"collected\": %s, \"events\": [", g ? ", " : "",
			m->groups[g].name,
			buf[0] == '\0' || list_has(buf, m->groups[g].name) ? "true" : "false");
		for (unsigned k = 0; k < m->groups[g].n_events; k++)
			fprintf(f, "%s\"%s\"", k ? ", " : "", m->groups[g].events[k].column);
		fputs("]}", f);
	}
	fputs("],\n ", f);
}

int api_system(const struct api_info *info, struct db *db, const char *query,
	       struct api_response *resp)
{
	static const char *const keys[] = { "window", NULL };
	uint64_t oldest = 0, newest = 0, window_ns = API_DEFAULT_WINDOW_NS;
	struct http_query q;
	struct api_out o;
	struct window w;
	char err[1024];
	double cost;
	bool have;

	if (http_query_parse(query, keys, &q, err, sizeof(err)) < 0 ||
	    http_query_duration(&q, "window", API_MAX_WINDOW_NS, &window_ns, err, sizeof(err)) < 0)
		return api_error(resp, 400, "%s", err);
	have = query_span(db, &oldest, &newest) == 0;
	memset(&w, 0, sizeof(w));
	w.busiest_cpu = -1;
	if (have && query_health(db, window_ns, &w, err, sizeof(err)) < 0)
		return api_error(resp, 500, "%s", err);
	if (api_out_open(&o) < 0)
		return -ENOMEM;
	print_identity(o.f, info, db, &w);
	api_print_window_health(o.f, &w);
	cost = sampling_cost_fraction(w.max_cpu_switch_rate);
	fputs(",\n \"sampling_cost_fraction\": ", o.f);
	json_double(o.f, cost);
	fprintf(o.f, ", \"sampling_costly\": %s,\n \"database\": {\"path\": ",
		cost > SAMPLING_COSTLY_FRACTION ? "true" : "false");
	json_print_string(o.f, info->database);
	fprintf(o.f, ", \"bytes\": %" PRIu64 ", \"oldest_ns\": ",
		file_size(info->database, "") + file_size(info->database, "-wal"));
	if (have)
		fprintf(o.f, "%" PRIu64 ", \"newest_ns\": %" PRIu64 "}}\n", oldest, newest);
	else
		fputs("null, \"newest_ns\": null}}\n", o.f);
	return api_out_finish(&o, 200, true, resp);
}
