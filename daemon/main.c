/*
 * main.c - stackd: command line and configuration, then run.c.
 *
 * Settings come from built-in defaults, then the config file (--config, or
 * /etc/stackd/stackd.conf when it exists), then flags.  Every error is one
 * line on stderr naming what and where, with a non-zero exit.
 */
#include "daemon/config.h"
#include "daemon/demo/demo.h"
#include "daemon/base/log.h"
#include "daemon/base/mempolicy.h"
#include "daemon/plan_cli.h"
#include "daemon/preflight.h"
#include "daemon/run.h"
#include "daemon/signals.h"
#include "lib/db.h"
#include "lib/model/model.h"
#include "lib/model/model_table.h"
#include "lib/version.h"

#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define MAX_FLAG_SETTINGS 32

struct flag_setting {
	const char *key;
	const char *value;
	const char *flag;
};

static const char *arg_config;
static bool arg_config_given;
static bool arg_allow_second;
static bool arg_demo;
static struct flag_setting arg_settings[MAX_FLAG_SETTINGS];
static size_t arg_n_settings;

static void help(void)
{
	printf("Usage: stackd [OPTIONS]\n"
	       "\n"
	       "Measure, for every process on this host, why the CPU is slow for it,\n"
	       "from performance counters, and store interval records in SQLite.\n"
	       "Runs in the foreground; stop with SIGTERM or Ctrl-C (the interval in\n"
	       "flight is written), reload the config file with SIGHUP (a change of\n"
	       "families or count_modes re-plans the counter groups).\n"
	       "\n"
	       "Options (they override the config file):\n"
	       "  -c, --config FILE        config file (default %s, if it exists)\n"
	       "  -d, --db PATH            database file (default %s)\n"
	       "  -i, --interval DURATION  length of a stored interval, e.g. 1s\n"
	       "  -r, --rotate DURATION    counter-group rotation period, e.g. 100ms\n"
	       "  -m, --model NAME         counter model: auto, or see --list-models\n"
	       "      --switch-event POS   context-switch sampler as group 'leader' or 'member'\n"
	       "      --ring-pages N       ring buffer data pages per CPU (power of two)\n"
	       "      --max-sampling-cost SHARE\n"
	       "                           share of each CPU that sampling every context\n"
	       "                           switch may cost, e.g. 2%% or 0.02 (off: no cap)\n"
	       "      --periodic-hz HZ     clock samples per second of a CPU in periodic mode,\n"
	       "                           100..10000 (0, the default: 1000, fewer down to 100\n"
	       "                           where a clock sample is dear: half of\n"
	       "                           max_sampling_cost)\n"
	       "      --reserved N|auto    general counters per thread left free for other\n"
	       "                           tools (perf stat, profilers); auto, the default:\n"
	       "                           one where that costs the plan no group\n"
	       "  -l, --listen ADDRS       HTTP API and dashboard: 127.0.0.1:PORT, [::1]:PORT,\n"
	       "                           unix:/PATH (comma-separated), or none (default %s)\n"
	       "      --web-dir DIR        the dashboard: builtin, a directory of its files\n"
	       "                           (web/ of the source: edits show on reload), or\n"
	       "                           none (default %s)\n"
	       "  -u, --user NAME          started as root, run as NAME with CAP_PERFMON only\n"
	       "                           (default stackd; root: stay root)\n"
	       "      --allow-second       run even if another stackd collects on this host\n"
	       "      --demo               collect nothing: serve the API and the dashboard\n"
	       "                           over a constructed Skylake host, labelled \"demo:\n"
	       "                           constructed data, not measured\" (a temporary\n"
	       "                           database; default listen %s)\n"
	       "      --log-level LEVEL    error, warning, info or debug\n"
	       "  -v, --verbose            same as --log-level debug\n"
	       "  -n, --check              check the configuration, print it, and exit\n"
	       "      --plan               print the counter groups stackd would open on this\n"
	       "                           host (planned for its PMU), open nothing, and exit;\n"
	       "                           describe another host with --smt on|off,\n"
	       "                           --nmi-watchdog on|off, --counters N (general\n"
	       "                           counters per thread), --vpmu no-perf-metrics (a\n"
	       "                           guest's PMU without slots/topdown-*), --cpuid ID (a CPU\n"
	       "                           as Linux perf's PERF_CPUID names it:\n"
	       "                           GenuineIntel-6-AD-1, AuthenticAMD-26-2-0, an Arm\n"
	       "                           MIDR 0x00000000410fd4f0), --host DIR (a host's\n"
	       "                           /proc and /sys files copied under DIR), --json\n"
	       "      --list-models        print the models this stackd knows, with their\n"
	       "                           families (counter groups), and exit\n"
	       "  -h, --help               show this help and exit\n"
	       "  -V, --version            show the version and exit\n"
	       "\n"
	       "Config file keys (\"key = value\" lines, # comments):\n",
	       STACKD_DEFAULT_CONFIG, STACKD_DEFAULT_DB, STACKD_DEFAULT_LISTEN,
	       STACKD_DEFAULT_WEB_DIR, STACKD_DEFAULT_TCP);
	config_print_keys(stdout);
	printf("\n"
	       "Needs CAP_PERFMON (or root), or kernel.perf_event_paranoid <= 0.\n"
	       "Look at the data with: stackctl top [--db PATH], or the dashboard at\n"
	       "http://127.0.0.1:9466/ (the HTTP API is described in docs/api.md).\n");
}

static void print_families(const struct model *m)
{
	unsigned g;

	for (g = 0; g < m->n_groups; g++)
		printf("%s%s", g ? ", " : "", m->groups[g].name);
	putchar('\n');
}

/* Every model --model takes: ours, the generic ones, and one per table
 * (and core type) of Linux perf's, each with its families. */
static void list_models(void)
{
	static const char *const generic[] = { "generic", "generic_td", "generic_stalls" };
	const struct model *tables[512];
	const struct model *const *all;
	size_t n, i;

	all = model_all(&n);
	printf("auto\tthe host's hardware model when its PMU counts, else software\n");
	for (i = 0; i < n; i++) {
		printf("%s\t%s\n\tfamilies: ", all[i]->name, all[i]->description);
		print_families(all[i]);
	}
	printf("\ngeneric, for a CPU with a PMU but no table in Linux perf %s:\n",
	       perfdb_source.linux_version);
	for (i = 0; i < sizeof(generic) / sizeof(generic[0]); i++) {
		const struct model *m = model_find(generic[i]);

		if (m == NULL)
			continue;
		printf("%s\t%s\n\tfamilies: ", m->name, m->description);
		print_families(m);
	}
	printf("\nmade from Linux perf %s's tables:\n", perfdb_source.linux_version);
	n = model_tables_all(tables, sizeof(tables) / sizeof(tables[0]));
	for (i = 0; i < n; i++) {
		printf("%s\tfamilies: ", tables[i]->name);
		print_families(tables[i]);
	}
	printf("\nhybrid CPUs, each core type's groups on its own CPUs (what auto picks there):\n");
	for (i = 0; i < perfdb_n_tables; i++) {
		const struct model *m = model_for_hybrid_table(&perfdb_tables[i]);

		if (m == NULL)
			continue;
		printf("%s\tfamilies: ", m->name);
		print_families(m);
	}
}

static int add_setting(const char *key, const char *value, const char *flag)
{
	if (arg_n_settings == MAX_FLAG_SETTINGS) {
		fprintf(stderr, "stackd: too many options\n");
		return -E2BIG;
	}
	arg_settings[arg_n_settings++] = (struct flag_setting){ key, value, flag };
	return 0;
}

/* Defaults, file, flags: the same steps at start and at every SIGHUP. */
static int load_config(struct config *out, char *err, size_t errlen)
{
	struct config c;
	size_t i;
	int r;

	config_defaults(&c);
	if (arg_config != NULL && (arg_config_given || access(arg_config, F_OK) == 0)) {
		r = config_load_file(&c, arg_config, err, errlen);
		if (r < 0)
			return r;
	}
	for (i = 0; i < arg_n_settings; i++) {
		char why[512];

		r = config_set(&c, arg_settings[i].key, arg_settings[i].value, why, sizeof(why));
		if (r < 0) {
			snprintf(err, errlen, "%s: %s", arg_settings[i].flag, why);
			return r;
		}
	}
	*out = c;
	return 0;
}

enum {
	OPT_SWITCH_EVENT = 0x100,
	OPT_RING_PAGES,
	OPT_LOG_LEVEL,
	OPT_LIST_MODELS,
	OPT_WEB_DIR,
	OPT_ALLOW_SECOND,
	OPT_PLAN,
	OPT_SMT,
	OPT_NMI_WATCHDOG,
	OPT_COUNTERS,
	OPT_VPMU,
	OPT_CPUID,
	OPT_HOST,
	OPT_JSON,
	OPT_RESERVED,
	OPT_DEMO,
	OPT_MAX_SAMPLING_COST,
	OPT_PERIODIC_HZ,
};

static struct plan_args arg_plan = { .on = false, .smt = -1, .watchdog = -1, .counters = -1 };

/* --plan and its options; -1 to go on, else the exit status. */
static int parse_plan_option(int c)
{
	char *end;

	switch (c) {
	case OPT_PLAN:
		arg_plan.on = true;
		return -1;
	case OPT_JSON:
		arg_plan.json = true;
		return -1;
	case OPT_CPUID:
		arg_plan.cpuid = optarg;
		return -1;
	case OPT_HOST:
		arg_plan.host_root = optarg;
		return -1;
	case OPT_SMT:
	case OPT_NMI_WATCHDOG:
		if (plan_args_on_off(optarg) < 0) {
			fprintf(stderr, "stackd: %s takes on or off, not '%s'\n",
				c == OPT_SMT ? "--smt" : "--nmi-watchdog", optarg);
			return EXIT_FAILURE;
		}
		*(c == OPT_SMT ? &arg_plan.smt : &arg_plan.watchdog) = plan_args_on_off(optarg);
		return -1;
	case OPT_VPMU:
		if (strcmp(optarg, "no-perf-metrics") != 0) {
			fprintf(stderr, "stackd: --vpmu takes no-perf-metrics, not '%s'\n", optarg);
			return EXIT_FAILURE;
		}
		arg_plan.no_perf_metrics = true;
		return -1;
	default:   /* OPT_COUNTERS */
		arg_plan.counters = (int)strtol(optarg, &end, 10);
		if (*optarg < '0' || *optarg > '9' || *end != '\0' || arg_plan.counters > 32) {
			fprintf(stderr, "stackd: --counters takes a number of general counters "
				"per thread (0..32), not '%s'\n", optarg);
			return EXIT_FAILURE;
		}
		return -1;
	}
}

/* The flags that set a config key, as the key would in the file. */
static const struct {
	int c;
	const char *key, *flag;
} flag_keys[] = {
	{ 'd', "database", "--db" },
	{ 'i', "interval", "--interval" },
	{ 'r', "rotate_period", "--rotate" },
	{ 'm', "model", "--model" },
	{ OPT_SWITCH_EVENT, "switch_event", "--switch-event" },
	{ OPT_RING_PAGES, "ring_pages", "--ring-pages" },
	{ OPT_MAX_SAMPLING_COST, "max_sampling_cost", "--max-sampling-cost" },
	{ OPT_PERIODIC_HZ, "periodic_hz", "--periodic-hz" },
	{ OPT_LOG_LEVEL, "log_level", "--log-level" },
	{ 'l', "listen", "--listen" },
	{ OPT_WEB_DIR, "web_dir", "--web-dir" },
	{ 'u', "user", "--user" },
	{ OPT_RESERVED, "reserved_counters", "--reserved" },
};

/* One option; -1 to go on, else the exit status. */
static int parse_option(int c, char **argv, bool *check)
{
	size_t i;

	for (i = 0; i < sizeof(flag_keys) / sizeof(flag_keys[0]); i++)
		if (c == flag_keys[i].c)
			return add_setting(flag_keys[i].key, optarg, flag_keys[i].flag) < 0 ?
			       EXIT_FAILURE : -1;
	if (c >= OPT_PLAN && c <= OPT_JSON)
		return parse_plan_option(c);
	switch (c) {
	case 'c':
		arg_config = optarg;
		arg_config_given = true;
		return -1;
	case 'v':
		return add_setting("log_level", "debug", "--verbose") < 0 ? EXIT_FAILURE : -1;
	case 'n':
		*check = true;
		return -1;
	case OPT_ALLOW_SECOND:
		arg_allow_second = true;
		return -1;
	case OPT_DEMO:
		arg_demo = true;
		return -1;
	case OPT_LIST_MODELS:
		list_models();
		return EXIT_SUCCESS;
	case 'h':
		help();
		return EXIT_SUCCESS;
	case 'V':
		printf("stackd %s (schema %d)\n", STACKD_VERSION, STACKD_SCHEMA_VERSION);
		return EXIT_SUCCESS;
	case ':':
		fprintf(stderr, "stackd: option '%s' needs a value (see stackd --help)\n",
			argv[optind - 1]);
		return EXIT_FAILURE;
	default:
		fprintf(stderr, "stackd: unknown option '%s' (see stackd --help)\n",
			argv[optind - 1]);
		return EXIT_FAILURE;
	}
}

/* The command line into arg_*; -1 to go on, else the exit status. */
static int parse_args(int argc, char **argv, bool *check)
{
	static const struct option options[] = {
		{ "config", required_argument, NULL, 'c' },
		{ "db", required_argument, NULL, 'd' },
		{ "interval", required_argument, NULL, 'i' },
		{ "rotate", required_argument, NULL, 'r' },
		{ "model", required_argument, NULL, 'm' },
		{ "switch-event", required_argument, NULL, OPT_SWITCH_EVENT },
		{ "ring-pages", required_argument, NULL, OPT_RING_PAGES },
		{ "max-sampling-cost", required_argument, NULL, OPT_MAX_SAMPLING_COST },
		{ "periodic-hz", required_argument, NULL, OPT_PERIODIC_HZ },
		{ "log-level", required_argument, NULL, OPT_LOG_LEVEL },
		{ "listen", required_argument, NULL, 'l' },
		{ "web-dir", required_argument, NULL, OPT_WEB_DIR },
		{ "user", required_argument, NULL, 'u' },
		{ "allow-second", no_argument, NULL, OPT_ALLOW_SECOND },
		{ "demo", no_argument, NULL, OPT_DEMO },
		{ "verbose", no_argument, NULL, 'v' },
		{ "check", no_argument, NULL, 'n' },
		{ "list-models", no_argument, NULL, OPT_LIST_MODELS },
		{ "plan", no_argument, NULL, OPT_PLAN },
		{ "smt", required_argument, NULL, OPT_SMT },
		{ "nmi-watchdog", required_argument, NULL, OPT_NMI_WATCHDOG },
		{ "reserved", required_argument, NULL, OPT_RESERVED },
		{ "counters", required_argument, NULL, OPT_COUNTERS },
		{ "vpmu", required_argument, NULL, OPT_VPMU },
		{ "cpuid", required_argument, NULL, OPT_CPUID },
		{ "host", required_argument, NULL, OPT_HOST },
		{ "json", no_argument, NULL, OPT_JSON },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ NULL, 0, NULL, 0 },
	};
	int c;

	arg_config = STACKD_DEFAULT_CONFIG;
	opterr = 0;   /* our own one-line messages */
	while ((c = getopt_long(argc, argv, ":c:d:i:r:m:l:u:vnhV", options, NULL)) != -1) {
		int r = parse_option(c, argv, check);

		if (r >= 0)
			return r;
	}
	if (optind < argc) {
		fprintf(stderr, "stackd: unexpected argument '%s' (see stackd --help)\n",
			argv[optind]);
		return EXIT_FAILURE;
	}
	if (!arg_plan.on && (arg_plan.json || arg_plan.smt >= 0 || arg_plan.watchdog >= 0 ||
			     arg_plan.counters >= 0 || arg_plan.no_perf_metrics ||
			     arg_plan.cpuid != NULL || arg_plan.host_root != NULL)) {
		fprintf(stderr, "stackd: --smt, --nmi-watchdog, --counters, --vpmu, --cpuid, --host "
			"and --json go with --plan\n");
		return EXIT_FAILURE;
	}
	return -1;
}

/* --demo: its own constructed database, never the configured one (so no
 * --db), and nothing collected (so no preflight of the counters). */
static int run_demo(const struct config *cfg, bool check)
{
	const struct demo_options opt = {
		.listen = cfg->listen,
		.web_dir = cfg->web_dir,
		.http_max_connections = cfg->http_max_connections,
		.prom = { .max_keys = cfg->prometheus_max_keys,
			  .top_comms = cfg->prometheus_top_comms,
			  .top_units = cfg->prometheus_top_units,
			  .top_processes = cfg->prometheus_top_processes,
			  .per_cpu = cfg->prometheus_per_cpu != 0, .demo = true },
	};
	size_t i;

	for (i = 0; i < arg_n_settings; i++)
		if (strcmp(arg_settings[i].key, "database") == 0 || check) {
			fprintf(stderr, "stackd: --demo serves a constructed database of its own: "
				"it takes no %s\n", check ? "--check" : "--db");
			return EXIT_FAILURE;
		}
	log_init("stackd", cfg->log_level);
	return demo_run(&opt);
}

int main(int argc, char **argv)
{
	struct config cfg;
	char err[2048];
	bool check = false;
	int r;

	/* Before anything slow (the store's check, the calibration) and in
	 * --demo too: these would end the process; the running daemon reads
	 * them from its signalfd and says it ignores them (signals.h). */
	signals_hold_ignored();
	/* before any thread: arenas are chosen as threads first allocate.
	 * Refused only by another allocator than glibc's (AddressSanitizer's
	 * in the tests), which keeps its own policy: nothing to tell. */
	(void)mempolicy_init();
	r = parse_args(argc, argv, &check);
	if (r >= 0)
		return r;
	r = load_config(&cfg, err, sizeof(err));
	if (r < 0) {
		fprintf(stderr, "stackd: %s\n", err);
		return EXIT_FAILURE;
	}
	if (arg_plan.on)
		return plan_cli_run(&cfg, &arg_plan);
	if (arg_demo)
		return run_demo(&cfg, check);
	/* -n checks what the start checks (and the dashboard's directory):
	 * the first problem, one line. */
	r = preflight_check(&cfg, err, sizeof(err));
	if (r == 0 && check)
		r = preflight_web_dir(&cfg, err, sizeof(err));
	if (r < 0) {
		fprintf(stderr, "stackd: %s\n", err);
		return EXIT_FAILURE;
	}
	if (check) {
		config_print(&cfg, stdout);
		fprintf(stderr, "stackd: configuration OK\n");
		return EXIT_SUCCESS;
	}
	log_init("stackd", cfg.log_level);
	cfg.allow_second = arg_allow_second;
	return run_daemon(&cfg, load_config);
}
