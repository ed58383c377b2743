/*
 * demo.c - `stackd --demo`: the dashboard and the API over a constructed
 * Skylake host (demo_data.c), for looking at stackd without a PMU or root.
 *
 * The data is written at start into a temporary directory and removed at
 * exit; nothing is collected, and the configured database is never opened,
 * so constructed and measured data cannot mix.  The database's meta "demo"
 * says DEMO_DATA_LABEL, which /api/v1/system and the dashboard's header
 * show.  /metrics replays the host's seconds, one a second
 * (demo_data_replay), under stackd_info{demo="1"}: the recording rules,
 * alerts and Grafana board can be tried on it.
 */
#include "daemon/demo/demo.h"
#include "daemon/demo/demo_data.h"
#include "daemon/serve/http_server.h"
#include "daemon/base/log.h"
#include "daemon/serve/prom.h"
#include "daemon/attribute/interval.h"
#include "daemon/plan/plan.h"
#include "lib/clock.h"
#include "lib/model/model.h"
#include "lib/paths.h"
#include "lib/sampling_cost.h"
#include "lib/version.h"

#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define DEMO_DB "demo.db"
#define DEMO_NCPUS 4    /* the constructed host's CPUs */

/* The constructed host, its newest interval ending now. */
static int write_demo(const char *path, uint64_t now_ns, char *err, size_t errlen)
{
	char started[32], pid[16];
	const char *const kv[] = {
		"version", STACKD_VERSION, "host", "demo", "pid", pid, "started_ns", started,
		"interval", "1s", "rotate_period", "100ms",
		"model_reason", DEMO_DATA_LABEL " (a Skylake host built by stackd --demo)",
		"smt", "off", "switch_event", "member", "demo", DEMO_DATA_LABEL,
	};
	const struct demo_data_spec spec = {
		now_ns / NS_PER_SEC - 120, DEMO_NCPUS, "demo-boot", kv, sizeof(kv) / sizeof(kv[0]) / 2, NULL,
	};

	snprintf(started, sizeof(started), "%" PRIu64, now_ns);
	snprintf(pid, sizeof(pid), "%d", (int)getpid());
	return demo_data_write(path, &spec, err, errlen);
}

/* The temporary directory and what SQLite left in it. */
static void remove_demo(const char *dir)
{
	static const char *const files[] = { "", "-wal", "-shm", "-journal", ".lock" };
	char path[PATH_MAX + 32];
	size_t i;

	for (i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
		snprintf(path, sizeof(path), "%s/" DEMO_DB "%s", dir, files[i]);
		unlink(path);
	}
	if (rmdir(dir) < 0)
		log_warning("cannot remove %s: %s", dir, strerror(errno));
}

/* The TCP addresses of listen ("a,unix:/p,b" -> "a,b"), or the default
 * TCP one when it has none. */
static const char *demo_tcp_only(const char *listen, char *buf, size_t len)
{
	char copy[1024], *save = NULL, *a;
	size_t used = 0;

	snprintf(copy, sizeof(copy), "%s", listen);
	buf[0] = '\0';
	for (a = strtok_r(copy, ",", &save); a != NULL; a = strtok_r(NULL, ",", &save)) {
		if (strncmp(a, "unix:", 5) == 0 || strcmp(a, "none") == 0)
			continue;
		used += (size_t)snprintf(buf + used, used < len ? len - used : 0, "%s%s",
					 used ? "," : "", a);
	}
	if (buf[0] == '\0' || used >= len)
		snprintf(buf, len, "%s", STACKD_DEFAULT_TCP);
	return buf;
}

/* Whether the constructed host (SMT off, meta "smt") counts the event:
 * not those only an SMT-on host does (model.h, enum event_when). */
static bool demo_counts(const struct model *m, const char *column)
{
	unsigned i;

	for (i = 0; i < m->n_event_rules; i++)
		if (strcmp(m->event_rules[i].column, column) == 0)
			return m->event_rules[i].when != EVENT_SMT_ON;
	return true;
}

/* The groups /metrics prints for the demo: every family whole, as the
 * replay counts them, less the events an SMT-off host does not count
 * (zero counts there would read as "no thread active"). */
static void demo_plan(struct plan *out)
{
	const struct model *m = &model_skl;
	unsigned g, k, n;

	plan_whole(m, out);
	for (g = 0; g < out->n_groups; g++) {
		struct plan_group *pg = &out->groups[g];

		for (k = n = 0; k < pg->n_events; k++)
			if (demo_counts(m, m->groups[pg->family].events[pg->events[k]].column))
				pg->events[n++] = pg->events[k];
		pg->n_events = n;
	}
}

/* A replayed row's counts (the family's every event) as the plan's group
 * holds them. */
static void demo_row(const struct plan *plan, struct iv_row *r)
{
	const struct plan_group *pg = &plan->groups[r->group];
	uint64_t v[MODEL_MAX_EVENTS] = { 0 };
	unsigned k;

	for (k = 0; k < pg->n_events; k++)
		v[k] = r->v[pg->events[k]];
	memcpy(r->v, v, sizeof(v));
}

/* Until SIGTERM/SIGINT: a second of the constructed host into /metrics
 * every second, ending now (so its counters move, the recording rules
 * have rates, and stackd_last_interval_timestamp_seconds stays fresh).
 * Returns the signal. */
static int replay(struct prom *prom, const struct plan *plan, struct http_server *http,
		  const sigset_t *set)
{
	const struct timespec second = { 1, 0 };
	unsigned i = 0;
	size_t r;

	for (;;) {
		uint64_t now_s = clock_ns(CLOCK_REALTIME) / NS_PER_SEC;
		struct interval_data *iv = demo_data_replay(i++, now_s - 1, DEMO_NCPUS);
		int sig;

		if (iv != NULL) {
			for (r = 0; r < iv->n_rows; r++)
				demo_row(plan, &iv->rows[r]);
			prom_add_interval(prom, iv);
			interval_free(iv);
			http_server_data_changed(http);   /* the cached /metrics is old */
		}
		sig = sigtimedwait(set, NULL, &second);
		if (sig > 0)
			return sig;
	}
}

/* Serve until SIGTERM/SIGINT (blocked before any thread starts, so every
 * thread leaves them to sigwait). */
static int serve(const struct demo_options *opt, const char *path, uint64_t now_ns,
		 struct prom *prom, const struct plan *plan)
{
	struct http_config hc;
	struct http_server *http = NULL;
	char err[1024], tcp[1024];
	sigset_t set;
	int sig, r;

	memset(&hc, 0, sizeof(hc));
	/* TCP only: a Unix socket in listen is the real daemon's place, where
	 * stackctl would read constructed data as this host's */
	hc.listen = demo_tcp_only(opt->listen, tcp, sizeof(tcp));
	hc.web_dir = strcmp(opt->web_dir, "none") == 0 ? "" : opt->web_dir;
	hc.max_connections = opt->http_max_connections;
	hc.info.database = path;
	hc.info.model = &model_skl;
	hc.info.started_ns = now_ns;
	hc.info.interval_ns = NS_PER_SEC;
	hc.info.rotate_period_ns = NS_PER_SEC / 10;
	hc.info.in_daemon = true;
	hc.prom = prom;
	sigemptyset(&set);
	sigaddset(&set, SIGTERM);
	sigaddset(&set, SIGINT);
	pthread_sigmask(SIG_BLOCK, &set, NULL);
	r = http_server_open(&hc, &http, err, sizeof(err));
	if (r == 0)
		r = http_server_serve(http, err, sizeof(err));
	if (r < 0) {
		log_error("%s", err);
		http_server_stop(http);
		return r;
	}
	if (http == NULL) {
		log_error("--demo serves the dashboard and the API: it needs --listen");
		return -EINVAL;
	}
	log_info("%s: serving a constructed Skylake host on %s (dashboard at /) from %s, "
		 "removed at exit; nothing is collected", DEMO_DATA_LABEL, hc.listen, path);
	sig = replay(prom, plan, http, &set);
	log_info("%s: stopping", strsignal(sig));
	http_server_stop(http);
	return 0;
}

int demo_run(const struct demo_options *opt)
{
	const char *tmp = getenv("TMPDIR");
	uint64_t now_ns = clock_ns(CLOCK_REALTIME);
	char dir[PATH_MAX], path[PATH_MAX + 16], err[1024];
	struct prom *prom = NULL;
	struct plan plan;
	int r;

	snprintf(dir, sizeof(dir), "%s/stackd-demo.XXXXXX", tmp != NULL && *tmp ? tmp : "/tmp");
	if (mkdtemp(dir) == NULL) {
		log_error("cannot make a temporary directory %s: %s", dir, strerror(errno));
		return EXIT_FAILURE;
	}
	snprintf(path, sizeof(path), "%s/" DEMO_DB, dir);
	r = write_demo(path, now_ns, err, sizeof(err));
	if (r < 0)
		log_error("cannot build the demo database %s: %s", path, err);
	demo_plan(&plan);
	if (r == 0)
		r = prom_new(&model_skl, &plan, &opt->prom, &prom);
	if (r == 0) {
		/* nothing measured: the development VM's figure, as a daemon
		 * that could not measure it says (stackd:sampling_cost:ratio) */
		prom_set_sampling_cost(prom, (double)SWITCH_SAMPLE_COST_NS, false);
		r = serve(opt, path, now_ns, prom, &plan);
	}
	prom_free(prom);
	remove_demo(dir);
	return r < 0 ? EXIT_FAILURE : EXIT_SUCCESS;
}
