/*
 * status.c - `stackctl status`: is the collector healthy?  Version and
 * uptime, which model, which counter groups and how much of the time each
 * one measured (rotation coverage), what was lost, how costly sampling is
 * on the busiest CPU, the database.  The API's GET /api/v1/system; --json
 * prints that answer as it is.
 */
#include "cli/cli.h"
#include "cli/source.h"
#include "lib/duration.h"
#include "lib/clock.h"
#include "lib/health_fields.h"
#include "lib/sampling_mode.h"

#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

enum { OPT_WINDOW = 0x100, OPT_JSON };

static void help(void)
{
	printf("Usage: stackctl status [OPTIONS]\n"
	       "\n"
	       "Daemon health: version and uptime, model, counter groups and the share of\n"
	       "time each was measuring, lost and unattributed samples, the busiest CPU's\n"
	       "switch rate, the database's size and oldest record, and whether the daemon\n"
	       "can write it (failed writes, intervals waiting or dropped).\n"
	       "\n"
	       "  --window DUR     health over how much of the newest data (default 60s)\n"
	       "  --json           the API's answer (GET /api/v1/system) for scripts\n"
	       SOURCE_HELP
	       "  -h, --help       this help\n");
}

static uint64_t u64(const json_t *o, const char *key)
{
	return (uint64_t)json_integer_value(json_object_get(o, key));
}

static const char *str(const json_t *o, const char *key)
{
	const char *s = json_string_value(json_object_get(o, key));

	return s ? s : "?";
}

/* A string the daemon may not have sent (older daemons): "" then. */
static const char *opt_str(const json_t *o, const char *key)
{
	const char *s = json_string_value(json_object_get(o, key));

	return s ? s : "";
}

static const char *format_time(uint64_t ns, char *buf, size_t len)
{
	time_t t = (time_t)(ns / NS_PER_SEC);
	struct tm tm;

	strftime(buf, len, "%Y-%m-%d %H:%M:%S %Z", localtime_r(&t, &tm));
	return buf;
}

static void print_time(const char *label, uint64_t ns)
{
	char buf[64];

	printf("%s%s\n", label, format_time(ns, buf, sizeof(buf)));
}

/* The running daemon's writer (absent when reading a file): an outage
 * shows while it lasts. */
static void print_writer(const json_t *w)
{
	char t[64];

	if (!json_is_object(w))
		return;
	if (json_is_true(json_object_get(w, "failing")))
		printf("writes:        WRITES FAILING since %s: %s; %" PRIu64 " interval(s) waiting "
		       "in memory\n", format_time(u64(w, "failing_since_ns"), t, sizeof(t)),
		       str(w, "last_error"), u64(w, "pending_intervals"));
	else if (json_is_integer(json_object_get(w, "last_write_ns")))
		printf("writes:        ok, last at %s\n",
		       format_time(u64(w, "last_write_ns"), t, sizeof(t)));
	else
		printf("writes:        none yet\n");
	if (u64(w, "write_errors") > 0 || u64(w, "dropped_intervals") > 0)
		printf("               %" PRIu64 " failed write(s), %" PRIu64 " interval(s) dropped "
		       "unwritten since the start\n", u64(w, "write_errors"),
		       u64(w, "dropped_intervals"));
	if (u64(w, "database_replaced") > 0)
		printf("               the database file was deleted or replaced %" PRIu64 " time(s) "
		       "and opened anew; %" PRIu64 " interval(s) went to the old file\n",
		       u64(w, "database_replaced"), u64(w, "lost_in_replaced_intervals"));
	if (u64(w, "space_cap_bytes") > 0)
		printf("               its filesystem filled up: the database is kept under %.1f MiB\n",
		       (double)u64(w, "space_cap_bytes") / 1048576.0);
}

/* The plan in force: the budget it was made for, and each family split
 * or left out with the reason (from /api/v1/system "plan"). */
static void print_plan(const json_t *plan)
{
	const json_t *b = json_object_get(plan, "budget"), *f;
	size_t i;

	if (!json_is_object(plan))
		return;
	if (json_is_true(json_object_get(b, "counter_limits")))
		printf("plan:          %zu counter groups for %" PRIu64 " general counters per "
		       "thread (%s; %" PRIu64 " free: SMT %s, NMI watchdog %s, %" PRIu64 " held by "
		       "others)\n", json_array_size(json_object_get(plan, "groups")),
		       u64(b, "general_counters"), opt_str(b, "general_counters_from"),
		       u64(b, "general_free"),
		       json_is_true(json_object_get(b, "smt")) ? "on" : "off",
		       json_is_true(json_object_get(b, "nmi_watchdog")) ? "on" : "off",
		       u64(b, "held_by_others"));
	else
		printf("plan:          %zu counter groups (software events: no counter budget)\n",
		       json_array_size(json_object_get(plan, "groups")));
	json_array_foreach(json_object_get(plan, "families"), i, f)
		if (json_is_string(json_object_get(f, "why")))
			printf("  %-14s %s%s\n", str(f, "name"),
			       json_is_true(json_object_get(f, "collected")) ? "" : "NOT COLLECTED: ",
			       str(f, "why"));
}

/* The headline: how much of what happened stackd could charge to a
 * process (/api/v1/system "attribution"; absent from an older daemon). */
static void print_attribution(const json_t *at)
{
	if (!json_is_object(at))
		return;
	printf("attributed:    %.1f%% of busy CPU time (%.2f s of %.2f s went to no process); "
	       "%.1f%% of context switches charged to a process\n",
	       100.0 * json_number_value(json_object_get(at, "cpu_share")),
	       (double)u64(at, "unattributed_cpu_ns") / 1e9, (double)u64(at, "busy_cpu_ns") / 1e9,
	       100.0 * json_number_value(json_object_get(at, "switch_share")));
	if (json_is_true(json_object_get(at, "low")))
		printf("               LOW: below %.0f%%, so every figure over this window misses part "
		       "of the host's work (the health counts below say where it went)\n",
		       100.0 * json_number_value(json_object_get(at, "warn_below")));
}

/* Which mode measured the window, always: "per-switch (exact)" is worth
 * reading here (/api/v1/system "sampling_mode"; absent from an older
 * daemon). */
static void print_sampling_mode(const json_t *sm)
{
	if (!json_is_object(sm))
		return;
	printf("sampling:      %s over the window%s\n", str(sm, "text"),
	       sampling_mode_of(json_number_value(json_object_get(sm, "periodic_share"))) !=
	       SAMPLING_PER_SWITCH ? ": periodic figures are estimates, fair over time" : "");
}

/* One health count, and for the losses that have one, its share of the
 * switches or samples it was lost from; for the CPU time measured
 * periodically, its share of all the CPUs' time (sm: "sampling_mode"). */
static void print_health_field(const json_t *col, const json_t *sm, const char *name,
			       const char *label)
{
	uint64_t v = u64(col, name), samples = u64(col, "samples");
	uint64_t switches = samples + u64(col, "unsampled_switches");
	uint64_t of = 0;
	const char *what = "";

	if (strcmp(name, "periodic_ns") == 0) {
		of = u64(sm, "cpu_ns");
		what = "CPU time";
	} else if (strcmp(name, "unsampled_switches") == 0) {
		of = switches;
		what = "switches";
	} else if (strcmp(name, "unattributed_spans") == 0 || strcmp(name, "foreign_id_samples") == 0 ||
		   strcmp(name, "unknown_id_samples") == 0 || strcmp(name, "backwards_reads") == 0 ||
		   strcmp(name, "split_spans") == 0) {
		of = samples;
		what = "samples";
	}
	printf("  %-38s %12" PRIu64, label, v);
	if (of > 0)
		printf("  %6.2f%% of %s", 100.0 * (double)v / (double)of, what);
	printf("\n");
}

/* What periodic mode costs here, and the rate it samples at (absent: an
 * older daemon). */
static void print_periodic_costs(const json_t *c)
{
	const json_t *clock = json_object_get(c, "ns_per_clock_sample");
	const json_t *count = json_object_get(c, "ns_per_counted_switch");
	const json_t *hz = json_object_get(c, "periodic_hz");
	const char *how = json_string_value(json_object_get(c, "periodic_cost_method"));

	if (!json_is_number(hz))
		return;
	if (json_is_number(clock) && json_is_number(count))
		printf("               periodic mode: %.0f Hz per CPU, %.1f us per clock sample, "
		       "%.0f ns per counted switch (measured: %s)\n", json_number_value(hz),
		       json_number_value(clock) / 1e3, json_number_value(count),
		       how != NULL ? how : "");
	else
		printf("               periodic mode: %.0f Hz per CPU (its cost %s)\n",
		       json_number_value(hz), how != NULL ? how : "not measured");
}

/* What one sampled switch costs here, and how that was found. */
static void print_sampling_cost(const json_t *c)
{
	if (c == NULL)
		return;   /* an older daemon */
	const char *at = json_string_value(json_object_get(c, "calibrated_at"));

	printf("               %.0f ns per sampled context switch (%s%s)\n",
	       json_number_value(json_object_get(c, "ns_per_switch")),
	       json_is_true(json_object_get(c, "measured")) ? "measured: " : "", str(c, "method"));
	if (at != NULL)
		printf("               calibrated at %s\n", at);
	print_periodic_costs(c);
}

/* Which daemon answered, where it was asked, which model it runs. */
static void print_daemon(const json_t *a, const struct source *src)
{
	const json_t *up = json_object_get(a, "uptime_s");
	char where[600];

	source_describe(src, where, sizeof(where));
	printf("daemon:        stackd %s on %s, pid %" PRIu64 ", %s", str(a, "version"),
	       str(a, "host"), u64(a, "pid"),
	       json_is_true(json_object_get(a, "running")) ? "running" :
	       "NOT running (start it: systemctl start stackd)");
	if (json_is_number(up)) {
		char a1[32];

		duration_format_approx(json_number_value(up) * (double)NS_PER_SEC, a1, sizeof(a1));
		printf(", up %s", a1);
	}
	printf("\nasked:         %s\n", where);
	printf("model:         %s", str(a, "model"));
	if (json_is_string(json_object_get(a, "model_reason")))
		printf(" (%s)", str(a, "model_reason"));
	printf("\n");
}

/* The window, each counter group's coverage, the plan, what is counted and
 * what is excluded. */
static void print_window(const json_t *a)
{
	const json_t *win = json_object_get(a, "window"), *col = json_object_get(a, "collector");
	const json_t *g, *x = json_object_get(a, "exclusions");
	const char *c = opt_str(x, "comm"), *u = opt_str(x, "unit"), *us = opt_str(x, "user");
	char a1[32], a2[32];
	size_t i;

	duration_format_approx((double)(u64(win, "to_ns") - u64(win, "from_ns")), a1, sizeof(a1));
	duration_format((uint64_t)u64(a, "interval_ns"), a2, sizeof(a2));
	printf("window:        last %s: %" PRIu64 " intervals of %s, %" PRIu64 " CPUs\n", a1,
	       u64(win, "intervals"), a2, u64(win, "ncpus"));
	duration_format(u64(a, "rotate_period_ns"), a1, sizeof(a1));
	printf("groups:        %zu, one enabled at a time per CPU, rotating every %s\n",
	       json_array_size(json_object_get(a, "groups")), a1);
	json_array_foreach(json_object_get(a, "groups"), i, g) {
		printf("  %-14s coverage %5.1f%%", str(g, "name"),
		       100.0 * json_number_value(json_object_get(g, "coverage")));
		if (u64(g, "unschedulable") > 0)
			printf("  UNSCHEDULABLE %" PRIu64 " times: out of rotation while another "
			       "user holds its counters", u64(g, "unschedulable"));
		printf("\n");
	}
	print_plan(json_object_get(a, "plan"));
	if (u64(col, "unschedulable") > 0)
		printf("               %" PRIu64 " times a group could not count: its counters were "
		       "taken by another user of the PMU\n", u64(col, "unschedulable"));
	if (*opt_str(a, "count_modes") != '\0')
		printf("counting:      %s mode%s\n", opt_str(a, "count_modes"),
		       strchr(opt_str(a, "count_modes"), ',') ? "s" : " only");
	if (*c != '\0' || *u != '\0' || *us != '\0')
		printf("excluded:      into [excluded]:%s%s%s%s%s%s\n", *c ? " comm " : "", c,
		       *u ? " unit " : "", u, *us ? " user " : "", us);
}

/* The switches sampled on the busiest CPU and what sampling costs there. */
static void print_samples(const json_t *a)
{
	const json_t *col = json_object_get(a, "collector");
	double cost = json_number_value(json_object_get(a, "sampling_cost_fraction"));
	bool periodic;

	periodic = strcmp(opt_str(json_object_get(a, "sampling_mode"), "mode"), "per-switch") != 0 &&
		   *opt_str(json_object_get(a, "sampling_mode"), "mode") != '\0';
	printf("samples:       %" PRIu64 " context switches sampled; busiest: cpu %d at %" PRIu64
	       "/s, sampling %s about %.1f%% of it%s\n", u64(col, "samples"),
	       (int)json_integer_value(json_object_get(col, "busiest_cpu")),
	       u64(col, "max_cpu_switch_rate"), periodic ? "every switch would cost" : "costs",
	       100.0 * cost,
	       periodic ? " - the cost budget sampled periodically instead (see sampling:)" :
	       json_is_true(json_object_get(a, "sampling_costly")) ?
	       " - COSTLY: that CPU switches too often for cheap per-switch sampling" : "");
	if (periodic && json_is_number(json_object_get(a, "periodic_cost_fraction")))
		printf("               periodic sampling itself costs about %.1f%% of that CPU "
		       "(counting its switches and the clock samples; see below)\n",
		       100.0 * json_number_value(json_object_get(a, "periodic_cost_fraction")));
	print_sampling_cost(json_object_get(a, "sampling_cost"));
}

static void print_text(const json_t *a, const struct source *src)
{
	const json_t *col = json_object_get(a, "collector"), *db = json_object_get(a, "database");

	print_daemon(a, src);
	print_window(a);
	print_samples(a);
	print_attribution(json_object_get(a, "attribution"));
	print_sampling_mode(json_object_get(a, "sampling_mode"));
	/* every health field (lib/health_fields.h); an older daemon's missing ones read 0 */
	printf("health:        over the window\n");
#define PRINT_FIELD(name, combine, prom, help, label) \
	print_health_field(col, json_object_get(a, "sampling_mode"), #name, label);
	HEALTH_FIELDS(PRINT_FIELD)
#undef PRINT_FIELD
	printf("database:      %s (%.1f MiB)\n", str(db, "path"),
	       (double)u64(db, "bytes") / 1048576.0);
	if (json_is_integer(json_object_get(db, "oldest_ns")))
		print_time("oldest record: ", u64(db, "oldest_ns"));
	print_writer(json_object_get(a, "writer"));
}

int verb_status(int argc, char **argv)
{
	static const struct option options[] = {
		{ "window", required_argument, NULL, OPT_WINDOW },
		{ "json", no_argument, NULL, OPT_JSON },
		{ NULL, 0, NULL, 0 },
	};
	struct cli_getopt o = { .verb = "status", .options = options, .common = CLI_SOURCE,
				.help = help };
	uint64_t window_ns = 60ULL * NS_PER_SEC;
	char target[128], num[32];
	struct source src;
	bool json = false;
	json_t *a = NULL;
	int c, r;

	while ((c = cli_getopt(&o, argc, argv)) >= 0) {
		switch (c) {
		case OPT_WINDOW:
			if (cli_parse_window("status", optarg, &window_ns) < 0)
				return EXIT_USAGE;
			break;
		case OPT_JSON:
			json = true;
			break;
		}
	}
	if (c == CLI_GETOPT_EXIT)
		return o.status;
	if (cli_no_arguments("status", argc, argv) != 0)
		return EXIT_USAGE;
	if (cli_open("status", &o.source, &src) != 0)
		return EXIT_FAILURE;
	duration_format(window_ns, num, sizeof(num));
	snprintf(target, sizeof(target), "/api/v1/system?window=%s", num);
	r = cli_get("status", &src, target, &a);
	if (r != 0) {
		source_close(&src);
		return r;
	}
	if (json) {
		json_dumpf(a, stdout, JSON_INDENT(1) | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(9));
		putchar('\n');
	} else {
		print_text(a, &src);
	}
	/* what was stored is shown, but a health check must not pass on it */
	r = json_is_true(json_object_get(a, "running")) ? EXIT_SUCCESS : EXIT_NOT_RUNNING;
	if (r == EXIT_NOT_RUNNING)
		cli_error("status", "stackd is not running: this is what %s holds",
			  src.is_http ? "its database" : src.db_path);
	json_decref(a);
	source_close(&src);
	return r;
}
