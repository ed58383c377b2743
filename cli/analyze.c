/*
 * analyze.c - `stackctl analyze FILE`: the stacks of a `perf stat -x,`
 * recording, through the same model formulas stackd uses, so a user with a
 * PMU can check stackd against perf.  `--perf-command` prints the perf
 * command that records what a model needs, grouped as the model groups it.
 */
#include "cli/cli.h"
#include "lib/model/model.h"
#include "lib/model/model_generic.h"
#include "lib/model/cpi_fit_quality.h"
#include "lib/model/perf_names.h"
#include "cli/analyze_int.h"
#include "lib/model/model_cpu.h"
#include "lib/model/model_hand_tables.h"
#include "lib/model/model_perf.h"

#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { OPT_MODEL = 0x100, OPT_JSON, OPT_PERF_COMMAND, OPT_SMT, OPT_CPUID, OPT_SLOTS };

static void help(void)
{
	size_t n, i;
	const struct model *const *all = model_all(&n);

	printf("Usage: stackctl analyze [OPTIONS] FILE\n"
	       "       stackctl analyze --perf-command --model NAME\n"
	       "\n"
	       "Top-Down, frontend, FLOPS and CPI stacks of `perf stat` output, computed\n"
	       "with stackd's own formulas, and each figure perf printed beside ours.  The\n"
	       "file is read as perf writes it (its default text as pasted, -x, CSV, -j\n"
	       "JSON): plain or -I interval, per CPU (-A), per core, die, socket or node, or per\n"
	       "thread (perf's per-* options; rows of one interval are summed), with\n"
	       "<not counted> events, comments and duration_time (the run's seconds when\n"
	       "there is no task-clock).  Events are matched by what they count, in any\n"
	       "spelling: perf's (UOPS_ISSUED.ANY, cpu/INT_MISC.RECOVERY_CYCLES,cmask=1,edge/,\n"
	       "cpu@EV\\,cmask\\=1@, cpu/event=0x1a0,umask=0x1/, r1a0, :u/:k modifiers),\n"
	       "libpfm4's (UOPS_ISSUED:ANY) or generic (cycles, topdown-fe-bound), encoded\n"
	       "through the model's libpfm4 PMU table.  Events the model does not read are\n"
	       "named once on stderr (\"not used: ...\"); lines that are not perf's are\n"
	       "skipped and counted.  A hybrid's cpu_core/ and cpu_atom/ events are analysed\n"
	       "apart, one section each.\n"
	       "\n"
	       "  --model NAME     the model to use (default: the CPU a \"# cpuid :\" comment\n"
	       "                   names, else the one whose events the recording has, ties\n"
	       "                   settled by perf's printed figures; stated on stderr)\n"
	       "  -v, --verbose    list the skipped lines and perf's figures not compared\n"
	       "  --cpuid ID       the recorded CPU as Linux perf's PERF_CPUID names it\n"
	       "                   (GenuineIntel-6-AD-1, AuthenticAMD-26-2-0, an Arm MIDR\n"
	       "                   0x00000000410fd4f0): its model, as stackd would choose\n"
	       "                   on that host (a hybrid: the P-core's; the E-core's is\n"
	       "                   --model TABLE_cpu_atom)\n"
	       "  --slots N        the recorded PMU's slots per cycle (Arm's\n"
	       "                   /sys/bus/event_source/devices/*/caps/slots: perf's #slots,\n"
	       "                   which Arm's Top-Down formulas need; default: the model's)\n"
	       "  --smt on|off     the recorded host had SMT on (marks Skylake-class\n"
	       "                   Top-Down as core-scoped; default: on when the events\n"
	       "                   count both threads of a core (*_ANY), else off)\n"
	       "  --json           one JSON object: {model, perf_names, intervals: [{time,\n"
	       "                   metrics}], perf_table, cpi_fit}; perf_names gives Linux\n"
	       "                   perf's name of each metric that is the same quantity (IPC,\n"
	       "                   tma_retiring); cpi_fit, the regression CPI stack's fit as\n"
	       "                   the API gives it (generic models only);\n"
	       "                   metrics also holds every metric of the CPU's perf table\n"
	       "                   the recording allows, under perf's names (perf_table);\n"
	       "                   perf_printed, each figure perf printed with ours and\n"
	       "                   whether they agree; a hybrid: {sections: [...]}\n"
	       "  --perf-command   print the perf stat command that records what --model needs\n"
	       "  -h, --help       this help\n"
	       "\nModels:");
	for (i = 0; i < n; i++)
		printf(" %s", all[i]->name);
	printf("\n\nExit status: 0 success, 1 the file cannot be read, 2 bad command line or\n"
	       "a malformed recording (the message names the line).\n");
}

/* --cpuid ID: the model stackd would choose on that CPU. */
static int model_of_cpuid(struct analyze_args *a, const char *id)
{
	const struct model *models[2];
	const char *units[2];
	struct host_cpu c;
	char why[256];
	unsigned n;

	if (host_cpu_parse_cpuid(id, &c, why, sizeof(why)) < 0 ||
	    model_for_cpu(&c, NULL, &a->m, models, units, &n, why, sizeof(why)) < 0) {
		cli_error("analyze", "--cpuid %s: %s", id, why);
		return -EINVAL;
	}
	snprintf(a->cpuid, sizeof(a->cpuid), "%s", c.cpuid);
	fprintf(stderr, "stackctl: analyze: %s: model %s\n", why, a->m->name);
	return 0;
}

/* One of analyze's options into a; 0 or -EINVAL (said). */
static int parse_option(struct analyze_args *a, int c, const char *arg)
{
	switch (c) {
	case OPT_MODEL:
		a->m = model_find(arg);
		if (a->m == NULL) {
			cli_error("analyze", "unknown model '%s' (see stackctl analyze --help)",
				  arg);
			return -EINVAL;
		}
		return 0;
	case OPT_CPUID:
		return model_of_cpuid(a, arg);
	case OPT_SLOTS: {
		char *end;

		a->slots = (unsigned)strtoul(arg, &end, 10);
		if (*arg < '1' || *arg > '9' || *end != '\0' || a->slots > 64) {
			cli_error("analyze", "--slots takes the PMU's slots per cycle (1..64), not "
				  "'%s'", arg);
			return -EINVAL;
		}
		return 0;
	}
	case OPT_JSON:
		a->json = true;
		return 0;
	case OPT_PERF_COMMAND:
		a->perf_command = true;
		return 0;
	case OPT_SMT:
		if (strcmp(arg, "on") != 0 && strcmp(arg, "off") != 0) {
			cli_error("analyze", "--smt takes on or off, not '%s'", arg);
			return -EINVAL;
		}
		a->smt = strcmp(arg, "on") == 0;
		a->smt_given = true;
		return 0;
	case 'v':
		a->verbose = true;
		return 0;
	}
	return 0;
}

/* The recording at path ("-": stdin) into rec; 0, or the exit status after
 * saying what is wrong (rec is freed then). */
static int read_recording(const char *path, struct ps_recording *rec)
{
	char err[512];
	FILE *f;
	int r;

	f = strcmp(path, "-") == 0 ? stdin : fopen(path, "re");
	if (f == NULL) {
		cli_error("analyze", "cannot read '%s': %s", path, strerror(errno));
		return EXIT_FAILURE;
	}
	r = perfstat_read(f, rec, err, sizeof(err));
	if (f != stdin)
		fclose(f);
	if (r < 0) {
		cli_error("analyze", "%s: %s", path, err);
		perfstat_free(rec);
		return r == -EIO ? EXIT_FAILURE : EXIT_USAGE;
	}
	return 0;
}

/* The lines the reader skipped: how many, and with -v which and why. */
static void report_skipped(const struct ps_recording *rec, const char *path, bool verbose)
{
	size_t i;

	if (rec->n_skipped == 0)
		return;
	fprintf(stderr, "stackctl: analyze: %s: %zu line%s skipped (not perf stat's counts)%s\n",
		path, rec->n_skipped, rec->n_skipped == 1 ? "" : "s",
		verbose ? ":" : "; -v lists them");
	for (i = 0; verbose && i < rec->n_skipped; i++)
		fprintf(stderr, "stackctl: analyze: %s: line %u: %s\n", path, rec->skipped[i].line,
			rec->skipped[i].why);
}

/* The recording's sections: the whole, or each core PMU's part of a
 * hybrid.  How many (0: out of memory, said). */
static size_t make_sections(const struct ps_recording *rec, struct ps_recording *parts,
			    struct section *s, size_t max)
{
	char pmus[4][16];
	unsigned n = perfstat_core_pmus(rec, pmus, 4), i;

	if (n == 0) {
		s[0] = (struct section){ .rec = rec };
		return 1;
	}
	for (i = 0; i < n && i < max; i++) {
		if (perfstat_pmu_part(rec, pmus[i], &parts[i]) < 0) {
			while (i-- > 0)
				perfstat_free(&parts[i]);
			cli_error("analyze", "out of memory");
			return 0;
		}
		s[i] = (struct section){ .rec = &parts[i] };
		snprintf(s[i].pmu, sizeof(s[i].pmu), "%s", pmus[i]);
	}
	return i;
}

/* Choose, compute and print each section; the exit status. */
static int run_sections(const struct analyze_args *a, struct section *s, size_t n,
			const char *path)
{
	size_t i;
	int status = EXIT_SUCCESS;

	if (a->json && n > 1)
		printf("{\"sections\": [\n");
	for (i = 0; i < n && status == EXIT_SUCCESS; i++) {
		char which[160];

		s[i].smt = a->smt;
		if (!a->smt_given && perfstat_smt_evidence(s[i].rec, which, sizeof(which))) {
			s[i].smt = true;
			fprintf(stderr, "stackctl: analyze: SMT taken as on: the recording has %s, "
				"which perf records for SMT on (--smt off if not)\n", which);
		}
		s[i].m = analyze_pick_model(a, &s[i], path);
		if (s[i].m == NULL) {
			status = EXIT_USAGE;
		} else if (analyze_section(a, &s[i], false) < 0) {
			cli_error("analyze", "out of memory");
			status = EXIT_FAILURE;
		} else if (a->json) {
			printf("%s", i ? ",\n" : "");
			analyze_print_json(&s[i]);
		} else {
			printf("%s", i ? "\n" : "");
			analyze_print_table(&s[i], a->verbose);
		}
		analyze_section_free(&s[i]);
	}
	if (a->json && n > 1)
		printf("]}\n");
	return status;
}

int verb_analyze(int argc, char **argv)
{
	static const struct option options[] = {
		{ "model", required_argument, NULL, OPT_MODEL },
		{ "json", no_argument, NULL, OPT_JSON },
		{ "perf-command", no_argument, NULL, OPT_PERF_COMMAND },
		{ "smt", required_argument, NULL, OPT_SMT },
		{ "cpuid", required_argument, NULL, OPT_CPUID },
		{ "slots", required_argument, NULL, OPT_SLOTS },
		{ "verbose", no_argument, NULL, 'v' },
		{ NULL, 0, NULL, 0 },
	};
	struct cli_getopt o = { .verb = "analyze", .options = options, .help = help,
				.shortopts = "v" };
	struct analyze_args a = { .m = NULL };
	struct ps_recording rec, parts[4];
	struct section s[4];
	size_t n, i;
	int c, r;

	while ((c = cli_getopt(&o, argc, argv)) >= 0)
		if (parse_option(&a, c, optarg) < 0)
			return EXIT_USAGE;
	if (c == CLI_GETOPT_EXIT)
		return o.status;
	if (a.perf_command) {
		if (a.m == NULL) {
			cli_error("analyze", "--perf-command needs --model NAME");
			return EXIT_USAGE;
		}
		perfstat_perf_command(a.m, stdout);
		return EXIT_SUCCESS;
	}
	if (optind + 1 != argc) {
		cli_error("analyze", optind >= argc ? "no FILE given (a perf stat recording)"
						    : "one FILE only");
		return EXIT_USAGE;
	}
	r = read_recording(argv[optind], &rec);
	if (r != 0)
		return r;
	report_skipped(&rec, argv[optind], a.verbose);
	n = make_sections(&rec, parts, s, 4);
	r = n == 0 ? EXIT_FAILURE : run_sections(&a, s, n, argv[optind]);
	for (i = 0; n > 0 && s[0].pmu[0] != '\0' && i < n; i++)
		perfstat_free(&parts[i]);
	perfstat_free(&rec);
	return r;
}
