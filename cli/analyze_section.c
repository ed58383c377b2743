/*
 * analyze_section.c - one section of `stackctl analyze` (analyze_int.h):
 * its model's figures on every interval, perf's table's on the same counts,
 * and perf's printed figures checked against them.
 */
#include "cli/analyze_int.h"
#include "cli/analyze_td.h"
#include "lib/model/model_generic.h"
#include "lib/model/perf_names.h"
#include "lib/model/model_perf.h"
#include "lib/model/model_hand_tables.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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
static bool report_combined(const struct ps_recording *rec, const struct ps_match *mt,
			    bool quiet)
{
	bool any = false;
	size_t i;

	for (i = 0; i < rec->n_names; i++) {
		if (!mt->combined[i])
			continue;
		if (!quiet)
			fprintf(stderr, "%s%s", any ? ", " : "stackctl: analyze: ", rec->names[i].spelling);
		any = true;
	}
	if (any && !quiet)
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

/* The perf metric of s->perf that model metric k is: its own name (perf's
 * metrics added to a model) or perf's name of the same quantity; -1. */
static int perf_index_of(const struct section *s, unsigned k)
{
	const char *names[PERF_NAMES_MAX];
	int i = perf_set_index(s->perf.set, s->m->metrics[k].name);
	unsigned n, j;

	if (i >= 0)
		return i;
	n = perf_names_of(s->m, s->m->metrics[k].name, names);
	for (j = 0; j < n && i < 0; j++)
		i = perf_set_index(s->perf.set, names[j]);
	return i;
}

/* A model metric that is missing where perf's of the same quantity took
 * perf 5.10-6.2's built-in Top-Down for want of INT_MISC.UOP_DROPPING or
 * CLEARS_COUNT (the model's formula is perf's, and wants them too) gets
 * that value, labelled. */
static void older_formulas(struct section *s)
{
	const struct analyze_perf *ap = &s->perf;
	unsigned k;
	size_t i;

	if (ap->set == NULL)
		return;
	for (k = 0; k < s->m->n_metrics; k++) {
		int p = perf_index_of(s, k);

		for (i = 0; p >= 0 && i < s->rec->n; i++) {
			size_t at = i * ap->n + (unsigned)p;
			struct metric_value *v = &s->out[i].v[k];

			if (v->valid || ap->older[at] == 0)
				continue;
			v->valid = true;
			v->value = ap->value[at];
			v->coverage = 1;
			s->out[i].older[k] = ap->older[at];
		}
	}
}

const char *analyze_older_label(const struct section *s, unsigned k)
{
	size_t i;

	for (i = 0; i < s->rec->n; i++)
		if (s->out[i].older[k] != 0)
			return td_older_label(s->out[i].older[k]);
	return NULL;
}

/* Every interval of s->rec through s->m's formulas into s->out, perf's
 * table's metrics, and the checks of perf's printed figures. */
int analyze_section(const struct analyze_args *a, struct section *s, bool quiet)
{
	const struct model *m = s->m;
	const struct ps_recording *rec = s->rec;
	struct group_sums (*sums)[MODEL_MAX_GROUPS] = calloc(rec->n, sizeof(*sums));
	struct ps_match mt = { .used = NULL };
	const struct group_sums **ptr = calloc(rec->n, sizeof(*ptr));
	double *secs = calloc(rec->n, sizeof(*secs));
	const char *id = a->cpuid[0] ? a->cpuid : s->rec->cpuid;
	struct model_context ctx = { s->smt, NULL, a->slots, id[0] ? id : NULL };
	int gf = model_metric_index(m, "gflops");
	bool combined;
	unsigned k;
	size_t i;
	int r = -ENOMEM;

	s->cpi_fit.r = 1;
	s->out = calloc(rec->n, sizeof(*s->out));
	if (s->out == NULL || sums == NULL || ptr == NULL || secs == NULL ||
	    perfstat_match(rec, m, &mt) < 0)
		goto out;
	if (!quiet)
		report_unused(rec, &mt);
	combined = report_combined(rec, &mt, quiet);
	for (i = 0; i < rec->n; i++) {
		perfstat_group_sums(rec, &mt, i, m, sums[i], &secs[i]);
		ptr[i] = sums[i];
	}
	/* The regression stack needs many intervals of one run. */
	if (model_is_generic(m) && !quiet)
		ctx.cpi_weights = analyze_cpifit_run(m, ptr, rec->n, &s->cpi_fit);
	for (i = 0; i < rec->n; i++) {
		double wall = perfstat_wall_seconds(rec, i);

		m->compute(m, sums[i], &ctx, s->out[i].v);
		if (secs[i] <= 0 && gf >= 0)
			s->out[i].v[gf].valid = false;  /* no time in the recording */
		for (k = 0; combined && k < m->n_metrics; k++)
			if (needs_fp_split(&m->metrics[k]))
				s->out[i].v[k].valid = false;
		/* the same FLOPs over the wall time: gflops counted them per
		 * secs[i] (task-clock when recorded) */
		if (gf >= 0 && s->out[i].v[gf].valid && wall > 0) {
			s->out[i].gflops_wall = s->out[i].v[gf];
			s->out[i].gflops_wall.value = s->out[i].v[gf].value * secs[i] / wall;
		}
	}
	r = analyze_perf_compute(model_perf_set(m) ? model_perf_set(m) :
				 model_perf_table(m) ? perf_set_get(model_perf_table(m), NULL) : NULL,
				 rec, &ctx, m->pipeline_width, &s->perf);
	if (r == 0) {
		older_formulas(s);
		r = analyze_check(rec, &s->perf, &s->checks);
	}
out:
	perfstat_match_free(&mt);
	free(sums);
	free(ptr);
	free(secs);
	return r;
}

void analyze_section_free(struct section *s)
{
	free(s->out);
	s->out = NULL;
	analyze_perf_free(&s->perf);
	analyze_check_free(&s->checks);
}

