/*
 * demo.c - `stackd --demo`: the dashboard and the API over a constructed
 * Skylake host (demo_data.c), for looking at stackd without a PMU or root.
 *
 * The data is written at start into a temporary directory and removed at
 * exit; nothing is collected, and the configured database is never opened,
 * so constructed and measured data cannot mix.  The database's meta "demo"
 * says DEMO_DATA_LABEL, which /api/v1/system and the dashboard's header
 * show.
 */
#include "daemon/demo/demo.h"
#include "daemon/demo/demo_data.h"
#include "daemon/serve/http_server.h"
#include "daemon/base/log.h"
#include "daemon/serve/prom.h"
#include "lib/clock.h"
#include "lib/model/model.h"
#include "lib/paths.h"
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
		now_ns / NS_PER_SEC - 120, 4, "demo-boot", kv, sizeof(kv) / sizeof(kv[0]) / 2, NULL,
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

/* Serve until SIGTERM/SIGINT (blocked before any thread starts, so every
 * thread leaves them to sigwait). */
static int serve(const struct demo_options *opt, const char *path, uint64_t now_ns,
		 struct prom *prom)
{
	struct http_config hc;
	struct http_server *http = NULL;
	char err[1024], tcp[1024];
	sigset_t set;
	int sig = 0, r;

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
	while (sigwait(&set, &sig) != 0)
		;
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
	if (r == 0)
		r = prom_new(&model_skl, NULL, opt->prometheus_max_keys,
			     opt->prometheus_top_processes, &prom);
	if (r == 0)
		r = serve(opt, path, now_ns, prom);
	prom_free(prom);
	remove_demo(dir);
	return r < 0 ? EXIT_FAILURE : EXIT_SUCCESS;
}
