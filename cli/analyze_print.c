/*
 * analyze_print.c - `stackctl analyze`'s output (see analyze_int.h): the
 * model's figures per interval, perf's table's metrics the model does not
 * have, and perf's printed figures beside ours; or all of it as JSON.
 */
#include "cli/analyze_int.h"
#include "cli/analyze_td.h"
#include "lib/model/perf_names.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#define GFLOPS_WALL "gflops_wall"

static const char *const check_word[] = { "agree", "DISAGREE", "not compared" };

/* A figure as perf printed it: 30.8 % with its decimals. */
static void print_figure(double v, const struct ps_printed *p)
{
	printf(" %10.*f%s", p->decimals, v, p->percent ? " %" : "  ");
}

/* perf's figures in the recording, ours beside each; the ones not
 * compared only with -v. */
static void print_checks(const struct section *s, bool verbose)
{
	const struct check_summary *cs = &s->checks;
	size_t i;

	if (cs->n == 0)
		return;
	printf("perf's figures in the recording and ours: %u agree, %u disagree, %u not "
	       "compared%s\n", cs->agree, cs->disagree, cs->not_compared,
	       cs->not_compared && !verbose ? " (-v lists them)" : "");
	for (i = 0; i < cs->n; i++) {
		const struct check *c = &cs->c[i];
		char time[24] = "";

		if (c->state == CHECK_NOT_COMPARED && !verbose)
			continue;
		if (!isnan(s->rec->iv[c->p->interval].time))
			snprintf(time, sizeof(time), "%.3fs ", s->rec->iv[c->p->interval].time);
		printf("  line %-5u %s%-32s", c->p->line, time,
		       c->p->name[0] ? c->p->name : c->p->event);
		print_figure(c->p->value, c->p);
		if (c->state == CHECK_NOT_COMPARED) {
			printf(" %13s  not compared: %s\n", "", c->why);
			continue;
		}
		print_figure(c->ours, c->p);
		printf("  %s%s\n", check_word[c->state],
		       c->formula ? "  (perf 5.10-6.2's built-in formula)" : "");
	}
}

/* ", \"perf_printed\": [...]": each figure perf printed, ours, agreement. */
static void print_checks_json(const struct section *s)
{
	const struct check_summary *cs = &s->checks;
	size_t i;

	printf(", \"perf_printed\": {\"agree\": %u, \"disagree\": %u, \"not_compared\": %u, "
	       "\"figures\": [", cs->agree, cs->disagree, cs->not_compared);
	for (i = 0; i < cs->n; i++) {
		const struct check *c = &cs->c[i];

		printf("%s\n {\"line\": %u, \"interval\": %zu, \"event\": \"%s\", \"metric\": "
		       "\"%s\", \"perf\": %.9g", i ? "," : "", c->p->line, c->p->interval, c->p->event,
		       c->p->name, c->p->value);
		if (c->state != CHECK_NOT_COMPARED)
			printf(", \"ours\": %.9g, \"agree\": %s", c->ours,
			       c->state == CHECK_AGREE ? "true" : "false");
		if (c->state != CHECK_NOT_COMPARED && c->formula != NULL)
			printf(", \"formula\": \"%s\"", c->formula);
		else
			printf(", \"not_compared\": \"%s\"", c->why);
		printf("}");
	}
	printf("]}");
}

/* Whether perf's metric k of interval i is printed: valid, and not a
 * metric of the model that printed it already. */
static bool perf_shown(const struct section *s, size_t i, unsigned k)
{
	const struct model *m = s->m;
	const struct analyzed *out = s->out;
	const char *name = perf_set_metric(s->perf.set, k)->name;
	int own = model_metric_index(m, name);

	return s->perf.valid[i * s->perf.n + k] && (own < 0 || !out[i].v[own].valid);
}

/* The label of perf's metric k when some interval shown took perf
 * 5.10-6.2's built-in Top-Down for it; NULL when none did. */
static const char *perf_older_label(const struct section *s, unsigned k)
{
	size_t i;

	for (i = 0; i < s->rec->n; i++)
		if (perf_shown(s, i, k) && s->perf.older[i * s->perf.n + k] != 0)
			return td_older_label(s->perf.older[i * s->perf.n + k]);
	return NULL;
}

/* "\"formulas\": {...}": the metrics some interval computed by an older
 * perf's formula than the model's or perf 7.2's, and which. */
static void print_formulas_json(const struct section *s)
{
	const char *sep = "";
	unsigned k;

	printf(", \"formulas\": {");
	for (k = 0; k < s->m->n_metrics; k++) {
		const char *label = analyze_older_label(s, k);

		if (label == NULL)
			continue;
		printf("%s\"%s\": \"%s\"", sep, s->m->metrics[k].name, label);
		sep = ", ";
	}
	for (k = 0; s->perf.set != NULL && k < s->perf.n; k++) {
		const char *label = perf_older_label(s, k);

		if (label == NULL)
			continue;
		printf("%s\"%s\": \"%s\"", sep, perf_set_metric(s->perf.set, k)->name, label);
		sep = ", ";
	}
	printf("}");
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
static void print_perf_table_json(const struct section *s)
{
	const struct perfdb_table *t;

	if (s->perf.set == NULL)
		return;
	t = perf_set_table(s->perf.set);
	printf(", \"perf_table\": {\"table\": \"%s\", \"version\": \"%s\", \"linux\": \"%s\"}",
	       t->name, t->version, perfdb_source.linux_version);
}

void analyze_print_json(const struct section *s)
{
	const struct model *m = s->m;
	const struct ps_recording *rec = s->rec;
	const struct analyzed *out = s->out;
	size_t i;
	unsigned k;

	printf("{\"model\": \"%s\", \"formula_version\": %u,", m->name, m->formula_version);
	if (s->pmu[0] != '\0')
		printf(" \"pmu\": \"%s\",", s->pmu);
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
		for (k = 0; s->perf.set != NULL && k < s->perf.n; k++) {
			if (!perf_shown(s, i, k))
				continue;
			printf("%s\"%s\": %.9g", first ? "" : ", ",
			       perf_set_metric(s->perf.set, k)->name, s->perf.value[i * s->perf.n + k]);
			first = false;
		}
		printf("}}");
	}
	printf("\n]");
	print_perf_table_json(s);
	print_formulas_json(s);
	analyze_cpifit_json(m, &s->cpi_fit);
	print_checks_json(s);
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
static void print_perf_rows(const struct section *s)
{
	const struct ps_recording *rec = s->rec;
	const struct perfdb_table *t;
	unsigned k;
	size_t i;

	if (s->perf.set == NULL || s->perf.n_valid == 0)
		return;
	t = perf_set_table(s->perf.set);
	printf("perf's metrics (Linux %s, table %s %s):\n", perfdb_source.linux_version,
	       t->name, t->version);
	for (k = 0; k < s->perf.n; k++) {
		const struct perfdb_metric *pm = perf_set_metric(s->perf.set, k);
		bool any = false, fraction;
		const char *unit;

		for (i = 0; i < rec->n; i++)
			any = any || perf_shown(s, i, k);
		if (!any)
			continue;
		perf_scale(pm, 1.0, &fraction, &unit);
		printf("%-40s", pm->name);
		for (i = 0; i < rec->n; i++) {
			double v = s->perf.value[i * s->perf.n + k];

			if (!perf_shown(s, i, k))
				printf(" %10s", "-");
			else if (fraction)
				printf(" %9.1f%%", 100.0 * v);
			else
				printf(" %10.3f", v);
		}
		printf("%s%s", !fraction && unit[0] ? "  " : "", !fraction ? unit : "");
		if (perf_older_label(s, k) != NULL)
			printf("  (%s)", perf_older_label(s, k));
		printf("\n");
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

void analyze_print_table(const struct section *s, bool verbose)
{
	const struct model *m = s->m;
	const struct ps_recording *rec = s->rec;
	const struct analyzed *out = s->out;
	size_t i;
	unsigned k;

	int w = label_width(m, rec, out);

	if (s->pmu[0] != '\0')
		printf("%s events:\n", s->pmu);
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
		printf("%s", out[0].v[k].core_scoped ? "  (core-scoped: SMT on)" : "");
		if (analyze_older_label(s, k) != NULL)
			printf("  (%s)", analyze_older_label(s, k));
		printf("\n");
	}
	print_gflops_wall(rec, out);
	print_perf_rows(s);
	print_checks(s, verbose);
}

