/*
 * status.c - `stackctl status`: is the collector healthy?  Which model, which
 * counter groups and how much of the time each one measured (rotation
 * coverage), what was lost, how costly sampling is on the busiest CPU.
 * Read from the database the daemon writes (the HTTP API will add live
 * figures).
 */
#include "cli.h"
#include "lib/duration.h"
#include "lib/paths.h"
#include "lib/query.h"
#include "lib/sampling_cost.h"

#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#define STATUS_DEFAULT_WINDOW_NS (60ULL * 1000000000ULL)

enum { OPT_DB = 0x100, OPT_WINDOW, OPT_JSON };

static void help(void)
{
	printf("Usage: stackctl status [OPTIONS]\n"
	       "\n"
	       "Collector health over the last window of stored data: model, counter\n"
	       "groups and the share of time each was measuring, lost and unattributed\n"
	       "samples, the busiest CPU's switch rate.\n"
	       "\n"
	       "  --db PATH      database (default $STACKD_DB, else /var/lib/stackd/stackd.db)\n"
	       "  --window DUR   how far back from the newest interval (default 60s)\n"
	       "  --json         one JSON object for scripts\n"
	       "  -h, --help     this help\n");
}

/* The daemon that wrote the database still runs under the pid it recorded. */
static bool daemon_running(struct db *db)
{
	char buf[64], path[64], comm[64] = "";
	FILE *f;
	long pid;

	if (query_meta(db, "pid", buf, sizeof(buf)) < 0)
		return false;
	pid = strtol(buf, NULL, 10);
	if (pid <= 0 || (kill((pid_t)pid, 0) < 0 && errno != EPERM))
		return false;
	snprintf(path, sizeof(path), "/proc/%ld/comm", pid);
	f = fopen(path, "re");
	if (f == NULL)
		return false;
	if (fgets(comm, sizeof(comm), f) == NULL)
		comm[0] = '\0';
	fclose(f);
	comm[strcspn(comm, "\n")] = '\0';
	return strcmp(comm, "stackd") == 0;
}

static double coverage(const struct window *w, unsigned g)
{
	double span = (double)(w->to_ns - w->from_ns) * (double)(w->ncpus ? w->ncpus : 1);

	return span > 0 ? (double)w->groups[g].enabled_ns / span : 0.0;
}

static void print_json(const char *path, struct db *db, const struct window *w, bool running,
		       long long size)
{
	static const char *const meta_keys[] = {
		"version", "pid", "started_ns", "model_reason", "interval", "rotate_period",
		"switch_event", "ring_pages",
	};
	char buf[1024];
	unsigned g;
	double cost = sampling_cost_fraction(w->max_cpu_switch_rate);
	size_t i;

	printf("{\"database\": ");
	json_print_string(stdout, path);
	printf(", \"database_bytes\": %lld, \"running\": %s", size, running ? "true" : "false");
	for (i = 0; i < sizeof(meta_keys) / sizeof(meta_keys[0]); i++) {
		if (query_meta(db, meta_keys[i], buf, sizeof(buf)) < 0)
			continue;
		printf(", ");
		json_print_string(stdout, meta_keys[i]);
		printf(": ");
		json_print_string(stdout, buf);
	}
	printf(", \"model\": ");
	json_print_string(stdout, w->model_name);
	printf(",\n \"window_from_ns\": %" PRIu64 ", \"window_to_ns\": %" PRIu64
	       ", \"intervals\": %u, \"ncpus\": %u,\n \"groups\": [", w->from_ns, w->to_ns,
	       w->n_intervals, w->ncpus);
	for (g = 0; g < w->n_groups; g++) {
		printf("%s{\"name\": ", g ? ", " : "");
		json_print_string(stdout, w->groups[g].name);
		printf(", \"enabled_ns\": %" PRIu64 ", \"coverage\": %.6f}", w->groups[g].enabled_ns,
		       coverage(w, g));
	}
	printf("],\n \"samples\": %" PRIu64 ", \"lost_records\": %" PRIu64
	       ", \"lost_samples\": %" PRIu64 ", \"throttles\": %" PRIu64
	       ", \"unsampled_switches\": %" PRIu64 ", \"unattributed_spans\": %" PRIu64
	       ", \"straddles\": %" PRIu64 ", \"late_cpus\": %" PRIu64 ", \"dropped\": %" PRIu64
	       ", \"unschedulable\": %" PRIu64
	       ", \"max_cpu_switch_rate\": %" PRIu64 ", \"busiest_cpu\": %d"
	       ", \"sampling_cost_fraction\": %.6f, \"sampling_costly\": %s}\n",
	       w->samples, w->lost_records, w->lost_samples, w->throttles, w->unsampled_switches,
	       w->unattributed_spans, w->straddles, w->late_cpus, w->dropped, w->unschedulable,
	       w->max_cpu_switch_rate, w->busiest_cpu, cost,
	       cost > SAMPLING_COSTLY_FRACTION ? "true" : "false");
}

static void print_text(const char *path, struct db *db, const struct window *w, bool running,
		       long long size)
{
	char buf[1024], interval[32], window[32];
	unsigned g;
	double cost;

	printf("database:      %s (%.1f MiB)\n", path, (double)size / 1048576.0);
	if (query_meta(db, "version", buf, sizeof(buf)) == 0) {
		char pid[32] = "?";

		(void)query_meta(db, "pid", pid, sizeof(pid));
		printf("daemon:        stackd %s, pid %s, %s\n", buf, pid,
		       running ? "running" : "NOT running (start it: stackd, or systemctl start stackd)");
	}
	printf("model:         %s", w->model_name);
	if (query_meta(db, "model_reason", buf, sizeof(buf)) == 0)
		printf(" (%s)", buf);
	printf("\n");
	duration_format_approx((double)(w->to_ns - w->from_ns), window, sizeof(window));
	interval[0] = '\0';
	(void)query_meta(db, "interval", interval, sizeof(interval));
	printf("window:        last %s: %u intervals of %s, %u CPUs\n", window, w->n_intervals,
	       interval, w->ncpus);
	if (query_meta(db, "rotate_period", buf, sizeof(buf)) == 0)
		printf("groups:        %u, one enabled at a time per CPU, rotating every %s\n",
		       w->n_groups, buf);
	for (g = 0; g < w->n_groups; g++)
		printf("  %-14s coverage %5.1f%%\n", w->groups[g].name, 100.0 * coverage(w, g));
	if (w->unschedulable > 0)
		printf("               %" PRIu64 " times a group could not count: its counters were "
		       "taken by another user of the PMU\n", w->unschedulable);
	cost = sampling_cost_fraction(w->max_cpu_switch_rate);
	printf("samples:       %" PRIu64 " context switches sampled; busiest: cpu %d at %" PRIu64
	       "/s, sampling costs about %.1f%% of it%s\n", w->samples, w->busiest_cpu,
	       w->max_cpu_switch_rate, 100.0 * cost,
	       cost > SAMPLING_COSTLY_FRACTION ? " - COSTLY: that CPU switches too often for cheap "
						 "per-switch sampling"
					       : "");
	printf("lost:          %" PRIu64 " samples in %" PRIu64 " ring overflows, %" PRIu64
	       " throttled, %" PRIu64 " late CPU flushes\n", w->lost_samples, w->lost_records,
	       w->throttles, w->late_cpus);
	printf("unattributed:  %" PRIu64 " spans covering %" PRIu64 " unsampled switches, %" PRIu64
	       " pid-reuse spans\n", w->unattributed_spans, w->unsampled_switches, w->straddles);
}

int verb_status(int argc, char **argv)
{
	static const struct option options[] = {
		{ "db", required_argument, NULL, OPT_DB },
		{ "window", required_argument, NULL, OPT_WINDOW },
		{ "json", no_argument, NULL, OPT_JSON },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	uint64_t window_ns = STATUS_DEFAULT_WINDOW_NS;
	const char *db_arg = NULL, *path;
	bool json = false, running;
	struct db *db = NULL;
	struct window w;
	struct stat st;
	char err[1024];
	int c, r;

	opterr = 0;
	optind = 1;
	while ((c = getopt_long(argc, argv, ":h", options, NULL)) != -1) {
		switch (c) {
		case OPT_DB:
			db_arg = optarg;
			break;
		case OPT_WINDOW:
			if (cli_parse_window("status", optarg, &window_ns) < 0)
				return EXIT_USAGE;
			break;
		case OPT_JSON:
			json = true;
			break;
		case 'h':
			help();
			return EXIT_SUCCESS;
		default:
			return cli_bad_option("status", c, argv);
		}
	}
	if (cli_no_arguments("status", argc, argv) != 0)
		return EXIT_USAGE;
	path = paths_database(db_arg);
	r = db_open(path, &db, err, sizeof(err));
	if (r < 0) {
		cli_error("status", "%s", err);
		return EXIT_FAILURE;
	}
	r = query_window(db, window_ns, &w, err, sizeof(err));
	if (r < 0) {
		cli_error("status", "%s", err);
		db_close(db);
		return EXIT_FAILURE;
	}
	running = daemon_running(db);
	if (stat(path, &st) < 0)
		st.st_size = 0;
	if (json)
		print_json(path, db, &w, running, (long long)st.st_size);
	else
		print_text(path, db, &w, running, (long long)st.st_size);
	window_done(&w);
	db_close(db);
	return EXIT_SUCCESS;
}
