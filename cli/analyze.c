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
#include "cli/perfstat.h"
#include "cli/analyze_perf.h"
#include "cli/analyze_cpifit.h"
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

/* One interval's figures: the model's, and GFLOP/s per second of wall
 * time (perf's GFLOPs: duration_time, or the -I step), which no model
 * computes (the daemon knows only CPU time per target). */
struct analyzed {
	struct metric_value v[MODEL_MAX_METRICS];
	struct metric_value gflops_wall;
};

/* perf's metrics of the recording (analyze_perf.h), beside the model's. */
static struct analyze_perf perf_out;

/* Whether perf's metric k of interval i is printed: valid, and not a
 * metric of the model that printed it already. */
static bool perf_shown(const struct model *m, const struct analyzed *out, size_t i, unsigned k)
{
	const char *name = perf_set_metric(perf_out.set, k)->name;
	int own = model_metric_index(m, name);

	return perf_out.valid[i * perf_out.n + k] && (own < 0 || !out[i].v[own].valid);
}

#define GFLOPS_WALL "gflops_wall"

static void help(void)
{
	size_t n, i;
	const struct model *const *all = model_all(&n);

	printf("Usage: stackctl analyze [OPTIONS] FILE\n"
	       "       stackctl analyze --perf-command --model NAME\n"
	       "\n"
	       "Top-Down, frontend, FLOPS and CPI stacks of a `perf stat -x,` recording,\n"
	       "computed with stackd's own formulas.  The file is read as perf writes it:\n"
	       "plain or -I interval, per CPU (-A), per core, die, socket or node, or per\n"
	       "thread (perf's per-* options; rows of one interval are summed), with\n"
	       "<not counted> events, comments and duration_time (the run's seconds when\n"
	       "there is no task-clock).  Events are matched by what they count, in any\n"
	       "spelling: perf's (UOPS_ISSUED.ANY, cpu/INT_MISC.RECOVERY_CYCLES,cmask=1,edge/,\n"
	       "cpu@EV\\,cmask\\=1@, cpu/event=0x1a0,umask=0x1/, r1a0, :u/:k modifiers),\n"
	       "libpfm4's (UOPS_ISSUED:ANY) or generic (cycles, topdown-fe-bound), encoded\n"
	       "through the model's libpfm4 PMU table.  Events the model does not read are\n"
	       "named once on stderr (\"not used: ...\").\n"
	       "\n"
	       "  --model NAME     the model to use (default: the one whose events the\n"
	       "                   recording has, stated on stderr)\n"
	       "  --cpuid ID       the recorded CPU as Linux perf's PERF_CPUID names it\n"
	       "                   (GenuineIntel-6-AD-1, AuthenticAMD-26-2-0, an Arm MIDR\n"
	       "                   0x00000000410fd4f0): its model, as stackd would choose\n"
	       "                   on that host (a hybrid: the P-core's; the E-core's is\n"
	       "                   --model TABLE_cpu_atom)\n"
	       "  --slots N        the recorded PMU's slots per cycle (Arm's\n"
	       "                   /sys/bus/event_source/devices/*/caps/slots: perf's #slots,\n"
	       "                   which Arm's Top-Down formulas need; default: the model's)\n"
	       "  --smt on|off     the recorded host had SMT on (marks Skylake-class\n"
	       "                   Top-Down as core-scoped; default off)\n"
	       "  --json           one JSON object: {model, perf_names, intervals: [{time,\n"
	       "                   metrics}], perf_table}; perf_names gives Linux perf's name\n"
	       "                   of each metric that is the same quantity (IPC, tma_retiring);\n"
	       "                   metrics also holds every metric of the CPU's perf table\n"
	       "                   the recording allows, under perf's names (perf_table)\n"
	       "  --perf-command   print the perf stat command that records what --model needs\n"
	       "  -h, --help       this help\n"
	       "\nModels:");
	for (i = 0; i < n; i++)
		printf(" %s", all[i]->name);
	printf("\n\nExit status: 0 success, 1 the file cannot be read, 2 bad command line or\n"
	       "a malformed recording (the message names the line).\n");
}

/* How many of m's distinct events rec has (found), of how many. */
static unsigned events_found(const struct ps_recording *rec, const struct model *m,
			     unsigned *n_events)
{
	struct ps_match mt;

	if (perfstat_match(rec, m, &mt) < 0) {
		*n_events = 0;
		return 0;
	}
	perfstat_match_free(&mt);
	*n_events = mt.n_events;
	return mt.found;
}

/* The model that reads the most of the recording's events (the larger
 * share of its own events breaks a tie).  Models with the very same events (Arm cores
 * differ only in slots per cycle) cannot be told apart: ambiguous is set
 * and NULL returned, rather than a guess that is wrong by a constant. */
static const struct model *guess_model(const struct ps_recording *rec, char *ambiguous,
				       size_t len)
{
	const struct model *const *all, *best = NULL;
	double best_share = 0;
	unsigned best_found = 0, found, n_events;
	size_t n, i, at = 0;

	all = model_all(&n);
	for (i = 0; i < n; i++) {
		double share;

		if (all[i]->vendor == VENDOR_NONE)
			continue;
		found = events_found(rec, all[i], &n_events);
		share = n_events ? (double)found / n_events : 0;
		/* The model that reads the most of the recording's events, then the
		 * one whose events the recording has most of: a recording for N2
		 * also holds every N1 event, and must not read as N1's. */
		if (found > 2 && (found > best_found || (found == best_found && share > best_share))) {
			best = all[i];
			best_share = share;
			best_found = found;
		}
	}
	ambiguous[0] = '\0';
	for (i = 0; best != NULL && i < n; i++) {
		double share;

		if (all[i]->vendor == VENDOR_NONE)
			continue;
		found = events_found(rec, all[i], &n_events);
		share = n_events ? (double)found / n_events : 0;
		if (all[i] != best && share == best_share && found == best_found) {
			if (at == 0)
				at += (size_t)snprintf(ambiguous, len, "%s", best->name);
			if (at < len)
				at += (size_t)snprintf(ambiguous + at, len - at, ", %s", all[i]->name);
		}
	}
	if (ambiguous[0] != '\0')
		return NULL;
	if (best != NULL) {
		found = events_found(rec, best, &n_events);
		fprintf(stderr, "stackctl: analyze: model %s (guessed: the recording has %u of its "
			"%u events; --model chooses)\n", best->name, found, n_events);
	}
	return best;
}

/* "perf_names": Linux perf's names of the metrics that are the same
 * quantity (lib/model/perf_names.h), so output diffs against perf stat -M. */
static void print_perf_names(const struct model *m)
{
	bool first = true;
	unsigned k, i;

	printf(" \"perf_names\": {");
	for (k = 0; k < m->n_metrics; k++) {
		const char *names[PERF_NAMES_MAX];
		unsigned n = perf_names_of(m, m->metrics[k].name, names);

		if (n == 0)
			continue;
		printf("%s\"%s\": [", first ? "" : ", ", m->metrics[k].name);
		for (i = 0; i < n; i++)
			printf("%s\"%s\"", i ? ", " : "", names[i]);
		printf("]");
		first = false;
	}
	if (m->vendor == VENDOR_INTEL && model_metric_index(m, "gflops") >= 0)
		printf("%s\"%s\": [\"GFLOPs\", \"tma_info_system_gflops\"]", first ? "" : ", ",
		       GFLOPS_WALL);
	printf("},");
}

/* Which perf table the perf metrics come from: name, version, Linux. */
static void print_perf_table_json(void)
{
	const struct perfdb_table *t;

	if (perf_out.set == NULL)
		return;
	t = perf_set_table(perf_out.set);
	printf(", \"perf_table\": {\"table\": \"%s\", \"version\": \"%s\", \"linux\": \"%s\"}",
	       t->name, t->version, perfdb_source.linux_version);
}

static void print_json(const struct model *m, const struct ps_recording *rec,
		       struct analyzed *out)
{
	size_t i;
	unsigned k;

	printf("{\"model\": \"%s\", \"formula_version\": %u,", m->name, m->formula_version);
	print_perf_names(m);
	printf(" \"intervals\": [");
	for (i = 0; i < rec->n; i++) {
		bool first = true;

		if (isnan(rec->iv[i].time))
			printf("%s\n {\"time\": null, \"metrics\": {", i ? "," : "");
		else
			printf("%s\n {\"time\": %.6f, \"metrics\": {", i ? "," : "", rec->iv[i].time);
		for (k = 0; k < m->n_metrics; k++) {
			if (!out[i].v[k].valid)
				continue;
			printf("%s\"%s\": %.9g", first ? "" : ", ", m->metrics[k].name,
			       out[i].v[k].value);
			first = false;
		}
		if (out[i].gflops_wall.valid)
			printf("%s\"%s\": %.9g", first ? "" : ", ", GFLOPS_WALL,
			       out[i].gflops_wall.value);
		for (k = 0; perf_out.set != NULL && k < perf_out.n; k++) {
			if (!perf_shown(m, out, i, k))
				continue;
			printf("%s\"%s\": %.9g", first ? "" : ", ",
			       perf_set_metric(perf_out.set, k)->name, perf_out.value[i * perf_out.n + k]);
			first = false;
		}
		printf("}}");
	}
	printf("\n]");
	print_perf_table_json();
	printf("}\n");
}

/* The table's gflops_wall row, when some interval has it. */
static void print_gflops_wall(const struct ps_recording *rec, const struct analyzed *out)
{
	bool any = false;
	size_t i;

	for (i = 0; i < rec->n; i++)
		any = any || out[i].gflops_wall.valid;
	if (!any)
		return;
	printf("%-24s", GFLOPS_WALL);
	for (i = 0; i < rec->n; i++) {
		if (out[i].gflops_wall.valid)
			printf(" %10.3f", out[i].gflops_wall.value);
		else
			printf(" %10s", "-");
	}
	printf("  (per second of wall time, as perf's GFLOPs)\n");
}

/* perf's metrics the model's rows did not show, in perf's own units. */
static void print_perf_rows(const struct model *m, const struct ps_recording *rec,
			    const struct analyzed *out)
{
	const struct perfdb_table *t;
	unsigned k;
	size_t i;

	if (perf_out.set == NULL || perf_out.n_valid == 0)
		return;
	t = perf_set_table(perf_out.set);
	printf("perf's metrics (Linux %s, table %s %s):\n", perfdb_source.linux_version,
	       t->name, t->version);
	for (k = 0; k < perf_out.n; k++) {
		const struct perfdb_metric *pm = perf_set_metric(perf_out.set, k);
		bool any = false, fraction;
		const char *unit;

		for (i = 0; i < rec->n; i++)
			any = any || perf_shown(m, out, i, k);
		if (!any)
			continue;
		perf_scale(pm, 1.0, &fraction, &unit);
		printf("%-40s", pm->name);
		for (i = 0; i < rec->n; i++) {
			double v = perf_out.value[i * perf_out.n + k];

			if (!perf_shown(m, out, i, k))
				printf(" %10s", "-");
			else if (fraction)
				printf(" %9.1f%%", 100.0 * v);
			else
				printf(" %10.3f", v);
		}
		printf("%s%s\n", !fraction && unit[0] ? "  " : "", !fraction ? unit : "");
	}
}

/* The METRIC column: 24 wide, or the longest name shown (perf's run to 40). */
static int label_width(const struct model *m, const struct ps_recording *rec,
		       const struct analyzed *out)
{
	size_t i, w = 22;
	unsigned k;

	for (k = 0; k < m->n_metrics; k++)
		for (i = 0; i < rec->n; i++)
			if (out[i].v[k].valid && strlen(m->metrics[k].name) > w)
				w = strlen(m->metrics[k].name);
	return (int)w + 2;
}

static void print_table(const struct model *m, const struct ps_recording *rec,
			struct analyzed *out)
{
	size_t i;
	unsigned k;

	int w = label_width(m, rec, out);

	printf("model: %s (formula version %u)\n%-*s", m->name, m->formula_version, w, "METRIC");
	for (i = 0; i < rec->n; i++) {
		if (isnan(rec->iv[i].time))
			printf(" %10s", "value");
		else
			printf(" %9.3fs", rec->iv[i].time);
	}
	printf("\n");
	for (k = 0; k < m->n_metrics; k++) {
		const struct model_metric *mm = &m->metrics[k];
		bool any = false;
		char label[64];

		for (i = 0; i < rec->n; i++)
			any = any || out[i].v[k].valid;
		if (!any)
			continue;
		snprintf(label, sizeof(label), "%s%s", mm->parent ? "  " : "", mm->name);
		printf("%-*s", w, label);
		for (i = 0; i < rec->n; i++) {
			if (!out[i].v[k].valid)
				printf(" %10s", "-");
			else if (mm->unit == METRIC_FRACTION)
				printf(" %9.1f%%", 100.0 * out[i].v[k].value);
			else
				printf(" %10.3f", out[i].v[k].value);
		}
		printf("%s\n", out[0].v[k].core_scoped ? "  (core-scoped: SMT on)" : "");
	}
	print_gflops_wall(rec, out);
	print_perf_rows(m, rec, out);
}

/* What the command line asks for. */
struct analyze_args {
	const struct model *m;   /* --model, else NULL */
	bool json, perf_command, smt;
	unsigned slots;          /* --slots N: the recorded PMU's slots per cycle, 0: the model's */
	char cpuid[64];          /* --cpuid, as perf spells it; "" unknown */
};

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

/* The model given, else the one the recording's events say; NULL after
 * saying why there is none. */
static const struct model *pick_model(const struct model *m, const struct ps_recording *rec,
				      const char *path)
{
	char ambiguous[256];

	if (m != NULL)
		return m;
	m = guess_model(rec, ambiguous, sizeof(ambiguous));
	if (m == NULL && ambiguous[0] != '\0')
		cli_error("analyze", "%s: the events fit %s alike (they differ in slots per "
			  "cycle); choose one with --model", path, ambiguous);
	else if (m == NULL)
		cli_error("analyze", "%s: none of the recorded events belongs to a model "
			  "(record with: stackctl analyze --perf-command --model NAME)", path);
	return m;
}

/* Say once what the recording has that m does not read, and whether it
 * mixes privilege modifiers (cycles:u beside cycles:k counts as one event). */
static void report_unused(const struct ps_recording *rec, const struct ps_match *mt)
{
	char list[1024];
	unsigned i;

	if (perfstat_unused(rec, mt, list, sizeof(list)) > 0)
		fprintf(stderr, "stackctl: analyze: not used: %s\n", list);
	if (rec->n_modifiers < 2)
		return;
	fprintf(stderr, "stackctl: analyze: the recording mixes modifiers (");
	for (i = 0; i < rec->n_modifiers; i++)
		fprintf(stderr, "%s%s", i ? ", " : "",
			rec->modifiers[i][0] ? rec->modifiers[i] : "none");
	fprintf(stderr, "); each event is matched whatever its modifier\n");
}

/* Names that count several FP events together (perfstat_combined.c): said
 * once; true when there is one. */
static bool report_combined(const struct ps_recording *rec, const struct ps_match *mt)
{
	bool any = false;
	size_t i;

	for (i = 0; i < rec->n_names; i++) {
		if (!mt->combined[i])
			continue;
		fprintf(stderr, "%s%s", any ? ", " : "stackctl: analyze: ", rec->names[i].spelling);
		any = true;
	}
	if (any)
		fprintf(stderr, " count several FP events together: FLOPs per cycle and GFLOP/s "
			"are exact, the split by width and precision (and the peak share, which "
			"needs it) is not computed\n");
	return any;
}

/* The FLOPS figures that need the FP events one by one: the peak share,
 * the shares by width and precision, and every part of the FLOPS stack
 * (each is capped by the base, which is the peak share). */
static bool needs_fp_split(const struct model_metric *mm)
{
	const char *metric = mm->name;
	size_t n = strlen(metric);

	return strcmp(metric, "flop_peak_fraction") == 0 ||
	       (mm->stack != NULL && strcmp(mm->stack, "flops") == 0) ||
	       (strncmp(metric, "flops_", 6) == 0 && n > 6 && strcmp(metric + n - 6, "_share") == 0);
}

/* Every interval of rec through m's formulas into out[]; -ENOMEM. */
static int compute_all(const struct model *m, const struct ps_recording *rec,
		       const struct analyze_args *a, struct analyzed *out)
{
	struct group_sums (*sums)[MODEL_MAX_GROUPS] = calloc(rec->n, sizeof(*sums));
	struct ps_match mt = { .used = NULL };
	const struct group_sums **ptr = calloc(rec->n, sizeof(*ptr));
	double *secs = calloc(rec->n, sizeof(*secs));
	struct model_context ctx = { a->smt, NULL, a->slots, a->cpuid[0] ? a->cpuid : NULL };
	double weights[CPI_WEIGHTS];
	int gf = model_metric_index(m, "gflops");
	bool combined;
	unsigned k;
	size_t i;
	int r = -ENOMEM;

	if (sums == NULL || ptr == NULL || secs == NULL || perfstat_match(rec, m, &mt) < 0)
		goto out;
	report_unused(rec, &mt);
	combined = report_combined(rec, &mt);
	for (i = 0; i < rec->n; i++) {
		perfstat_group_sums(rec, &mt, i, m, sums[i], &secs[i]);
		ptr[i] = sums[i];
	}
	/* The regression stack needs many intervals of one run. */
	if (model_is_generic(m)) {
		int fit = model_generic_cpi_fit(m, ptr, rec->n, weights);

		if (fit == 0)
			ctx.cpi_weights = weights;
		else
			report_cpi_fit_failure(m, ptr, rec->n, fit);
		report_cpi_fit(m, ptr, rec->n, fit == 0 ? weights : NULL);
	}
	for (i = 0; i < rec->n; i++) {
		double wall = perfstat_wall_seconds(rec, i);

		m->compute(m, sums[i], &ctx, out[i].v);
		if (secs[i] <= 0 && gf >= 0)
			out[i].v[gf].valid = false;  /* no time in the recording */
		for (k = 0; combined && k < m->n_metrics; k++)
			if (needs_fp_split(&m->metrics[k]))
				out[i].v[k].valid = false;
		/* the same FLOPs over the wall time: gflops counted them per
		 * secs[i] (task-clock when recorded) */
		if (gf >= 0 && out[i].v[gf].valid && wall > 0) {
			out[i].gflops_wall = out[i].v[gf];
			out[i].gflops_wall.value = out[i].v[gf].value * secs[i] / wall;
		}
	}
	r = analyze_perf_compute(model_perf_set(m) ? model_perf_set(m) :
				 model_perf_table(m) ? perf_set_get(model_perf_table(m), NULL) : NULL,
				 rec, &ctx, m->pipeline_width, &perf_out);
out:
	perfstat_match_free(&mt);
	free(sums);
	free(ptr);
	free(secs);
	return r;
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
		{ NULL, 0, NULL, 0 },
	};
	struct cli_getopt o = { .verb = "analyze", .options = options, .help = help };
	struct analyze_args a = { NULL, false, false, false, 0, "" };
	struct analyzed *out;
	struct ps_recording rec;
	const struct model *m;
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
		cli_error("analyze", optind >= argc ? "no FILE given (a perf stat -x, recording)"
						    : "one FILE only");
		return EXIT_USAGE;
	}
	r = read_recording(argv[optind], &rec);
	if (r != 0)
		return r;
	m = pick_model(a.m, &rec, argv[optind]);
	if (m == NULL) {
		perfstat_free(&rec);
		return EXIT_USAGE;
	}
	out = calloc(rec.n, sizeof(*out));
	if (out == NULL || compute_all(m, &rec, &a, out) < 0) {
		cli_error("analyze", "out of memory");
		free(out);
		perfstat_free(&rec);
		return EXIT_FAILURE;
	}
	if (a.json)
		print_json(m, &rec, out);
	else
		print_table(m, &rec, out);
	free(out);
	analyze_perf_free(&perf_out);
	perfstat_free(&rec);
	return EXIT_SUCCESS;
}
