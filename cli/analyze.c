/*
 * analyze.c - `stackctl analyze FILE`: the stacks of a `perf stat -x,`
 * recording, through the same model formulas stackd uses, so a user with a
 * PMU can check stackd against perf.  `--perf-command` prints the perf
 * command that records what a model needs, grouped as the model groups it.
 */
#include "cli.h"
#include "lib/model/model.h"
#include "lib/model/model_generic.h"
#include "lib/perfstat.h"

#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { OPT_MODEL = 0x100, OPT_JSON, OPT_PERF_COMMAND, OPT_SMT };

static void help(void)
{
	size_t n, i;
	const struct model *const *all = model_all(&n);

	printf("Usage: stackctl analyze [OPTIONS] FILE\n"
	       "       stackctl analyze --perf-command --model NAME\n"
	       "\n"
	       "Top-Down, frontend, FLOPS and CPI stacks of a `perf stat -x,` recording\n"
	       "(plain, -I interval or -A per-CPU), computed with stackd's own formulas.\n"
	       "Events may be named as perf prints them (UOPS_ISSUED.ANY, topdown-fe-bound,\n"
	       "cpu/topdown-fe-bound/, cycles) or as libpfm4 does (UOPS_ISSUED:ANY).\n"
	       "\n"
	       "  --model NAME     the model to use (default: the one whose events the\n"
	       "                   recording has, stated on stderr)\n"
	       "  --smt on|off     the recorded host had SMT on (marks Skylake-class\n"
	       "                   Top-Down as core-scoped; default off)\n"
	       "  --json           one JSON object: {model, intervals: [{time, metrics}]}\n"
	       "  --perf-command   print the perf stat command that records what --model needs\n"
	       "  -h, --help       this help\n"
	       "\nModels:");
	for (i = 0; i < n; i++)
		printf(" %s", all[i]->name);
	printf("\n\nExit status: 0 success, 1 the file cannot be read, 2 bad command line or\n"
	       "a malformed recording (the message names the line).\n");
}

static void print_perf_command(const struct model *m)
{
	unsigned g, e;

	printf("perf stat -x, -I 1000 -o stackd-recording.csv");
	for (g = 0; g < m->n_groups; g++) {
		printf(" -e '{");
		for (e = 0; e < m->groups[g].n_events; e++)
			printf("%s%s", e ? "," : "", model_event_perf_name(&m->groups[g].events[e]));
		printf("}'");
	}
	printf(" -- COMMAND\n");
}

/* The model whose events the recording holds the largest share of (more
 * events found breaks a tie).  Models with the very same events (Arm cores
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
		found = perfstat_events_found(rec, all[i], &n_events);
		share = n_events ? (double)found / n_events : 0;
		if (found > 2 && (share > best_share || (share == best_share && found > best_found))) {
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
		found = perfstat_events_found(rec, all[i], &n_events);
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
		found = perfstat_events_found(rec, best, &n_events);
		fprintf(stderr, "stackctl: analyze: model %s (guessed: the recording has %u of its "
			"%u events; --model chooses)\n", best->name, found, n_events);
	}
	return best;
}

/* Say why generic_cpi_fit() gave no weights (r), rather than leave the
 * CPI stack out without a word. */
static void report_cpi_fit_failure(int r)
{
	fprintf(stderr, "stackctl: analyze: no regression CPI stack (cpi_base, cpi_*): ");
	if (r == -EINVAL)
		fprintf(stderr, "it needs more than %d intervals (-I) with cycles, instructions "
			"and every miss event\n", CPI_WEIGHTS);
	else if (r == -EDOM)
		fprintf(stderr, "the intervals' event rates are degenerate (not finite, or "
			"linearly dependent)\n");
	else if (r == -ETIMEDOUT)
		fprintf(stderr, "the fit did not converge\n");
	else
		fprintf(stderr, "%s\n", strerror(-r));
}

static void print_json(const struct model *m, const struct ps_recording *rec,
		       struct metric_value (*out)[MODEL_MAX_METRICS])
{
	size_t i;
	unsigned k;

	printf("{\"model\": \"%s\", \"formula_version\": %u, \"intervals\": [", m->name,
	       m->formula_version);
	for (i = 0; i < rec->n; i++) {
		bool first = true;

		if (isnan(rec->iv[i].time))
			printf("%s\n {\"time\": null, \"metrics\": {", i ? "," : "");
		else
			printf("%s\n {\"time\": %.6f, \"metrics\": {", i ? "," : "", rec->iv[i].time);
		for (k = 0; k < m->n_metrics; k++) {
			if (!out[i][k].valid)
				continue;
			printf("%s\"%s\": %.9g", first ? "" : ", ", m->metrics[k].name,
			       out[i][k].value);
			first = false;
		}
		printf("}}");
	}
	printf("\n]}\n");
}

static void print_table(const struct model *m, const struct ps_recording *rec,
			struct metric_value (*out)[MODEL_MAX_METRICS])
{
	size_t i;
	unsigned k;

	printf("model: %s (formula version %u)\n%-24s", m->name, m->formula_version, "METRIC");
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
			any = any || out[i][k].valid;
		if (!any)
			continue;
		snprintf(label, sizeof(label), "%s%s", mm->parent ? "  " : "", mm->name);
		printf("%-24s", label);
		for (i = 0; i < rec->n; i++) {
			if (!out[i][k].valid)
				printf(" %10s", "-");
			else if (mm->unit == METRIC_FRACTION)
				printf(" %9.1f%%", 100.0 * out[i][k].value);
			else
				printf(" %10.3f", out[i][k].value);
		}
		printf("%s\n", out[0][k].core_scoped ? "  (core-scoped: SMT on)" : "");
	}
}

int verb_analyze(int argc, char **argv)
{
	static const struct option options[] = {
		{ "model", required_argument, NULL, OPT_MODEL },
		{ "json", no_argument, NULL, OPT_JSON },
		{ "perf-command", no_argument, NULL, OPT_PERF_COMMAND },
		{ "smt", required_argument, NULL, OPT_SMT },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const struct model *m = NULL;
	bool json = false, perf_command = false, smt = false;
	struct ps_recording rec;
	struct metric_value (*out)[MODEL_MAX_METRICS];
	struct group_sums (*sums)[MODEL_MAX_GROUPS];
	const struct group_sums **ptr;
	double weights[CPI_WEIGHTS], *secs;
	struct model_context ctx = { false, NULL };
	char err[512], ambiguous[256];
	FILE *f;
	size_t i;
	int c, r;

	while ((c = getopt_long(argc, argv, ":h", options, NULL)) != -1) {
		switch (c) {
		case OPT_MODEL:
			m = model_find(optarg);
			if (m == NULL) {
				cli_error("analyze", "unknown model '%s' (see stackctl analyze --help)",
					  optarg);
				return EXIT_USAGE;
			}
			break;
		case OPT_JSON:
			json = true;
			break;
		case OPT_PERF_COMMAND:
			perf_command = true;
			break;
		case OPT_SMT:
			if (strcmp(optarg, "on") != 0 && strcmp(optarg, "off") != 0) {
				cli_error("analyze", "--smt takes on or off, not '%s'", optarg);
				return EXIT_USAGE;
			}
			smt = strcmp(optarg, "on") == 0;
			break;
		case 'h':
			help();
			return EXIT_SUCCESS;
		default:
			return cli_bad_option("analyze", c, argv);
		}
	}
	if (perf_command) {
		if (m == NULL) {
			cli_error("analyze", "--perf-command needs --model NAME");
			return EXIT_USAGE;
		}
		print_perf_command(m);
		return EXIT_SUCCESS;
	}
	if (optind + 1 != argc) {
		cli_error("analyze", optind >= argc ? "no FILE given (a perf stat -x, recording)"
						    : "one FILE only");
		return EXIT_USAGE;
	}
	f = strcmp(argv[optind], "-") == 0 ? stdin : fopen(argv[optind], "re");
	if (f == NULL) {
		cli_error("analyze", "cannot read '%s': %s", argv[optind], strerror(errno));
		return EXIT_FAILURE;
	}
	r = perfstat_read(f, &rec, err, sizeof(err));
	if (f != stdin)
		fclose(f);
	if (r < 0) {
		cli_error("analyze", "%s: %s", argv[optind], err);
		perfstat_free(&rec);
		return r == -EIO ? EXIT_FAILURE : EXIT_USAGE;
	}
	if (m == NULL)
		m = guess_model(&rec, ambiguous, sizeof(ambiguous));
	if (m == NULL && ambiguous[0] != '\0') {
		cli_error("analyze", "%s: the events fit %s alike (they differ in slots per "
			  "cycle); choose one with --model", argv[optind], ambiguous);
		perfstat_free(&rec);
		return EXIT_USAGE;
	}
	if (m == NULL) {
		cli_error("analyze", "%s: none of the recorded events belongs to a model "
			  "(record with: stackctl analyze --perf-command --model NAME)", argv[optind]);
		perfstat_free(&rec);
		return EXIT_USAGE;
	}
	out = calloc(rec.n, sizeof(*out));
	sums = calloc(rec.n, sizeof(*sums));
	ptr = calloc(rec.n, sizeof(*ptr));
	secs = calloc(rec.n, sizeof(*secs));
	if (out == NULL || sums == NULL || ptr == NULL || secs == NULL) {
		cli_error("analyze", "out of memory");
		free(out);
		free(sums);
		free(ptr);
		free(secs);
		perfstat_free(&rec);
		return EXIT_FAILURE;
	}
	ctx.smt_on = smt;
	for (i = 0; i < rec.n; i++) {
		perfstat_group_sums(&rec, i, m, sums[i], &secs[i]);
		ptr[i] = sums[i];
	}
	/* The regression stack needs many intervals of one run. */
	if (model_is_generic(m)) {
		r = generic_cpi_fit(m, ptr, rec.n, weights);
		if (r == 0)
			ctx.cpi_weights = weights;
		else
			report_cpi_fit_failure(r);
	}
	for (i = 0; i < rec.n; i++) {
		m->compute(m, sums[i], &ctx, out[i]);
		if (secs[i] <= 0) {
			int gf = model_metric_index(m, "gflops");

			if (gf >= 0)
				out[i][gf].valid = false;  /* no time in the recording */
		}
	}
	if (json)
		print_json(m, &rec, out);
	else
		print_table(m, &rec, out);
	free(out);
	free(sums);
	free(ptr);
	free(secs);
	perfstat_free(&rec);
	return EXIT_SUCCESS;
}
