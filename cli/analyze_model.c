/*
 * analyze_model.c - which model reads a recording (see analyze_int.h).
 *
 * The file rarely says which CPU it came from, and the user should not
 * need to know.  In order: --model; the CPU --cpuid or a comment of the
 * file names ("# cpuid : GenuineIntel-6-8F-8"), as stackd would choose on
 * it; else the model that reads the most of the recorded events (our hand
 * models first, then perf's tables).  Models whose events the recording
 * has alike (Ice Lake's and Sapphire Rapids' perf-metrics events, Neoverse
 * N2's and V2's) are told apart by perf's own figures in the file: the one
 * whose numbers agree with more of them; when they agree alike, they
 * compute the same numbers from these events and the first is taken, the
 * others named.
 */
#include "cli/analyze_int.h"
#include "cli/cli.h"
#include "lib/model/model_cpu.h"
#include "lib/model/model_table.h"
#include "lib/perfdb/host_cpu.h"

#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_CANDIDATES 256

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

/* Whether name ends in "_" unit ("alderlake_cpu_core" of "cpu_core"). */
static bool of_unit(const char *name, const char *unit)
{
	size_t n = strlen(name), u = strlen(unit);

	return n > u + 1 && name[n - u - 1] == '_' && strcmp(name + n - u, unit) == 0;
}

/* The models to try: a hybrid part's are the tables of that core type
 * (only those built); a whole recording's our hand models, or (tables)
 * perf's single-type ones. */
static size_t candidates(const struct section *s, bool tables, const struct model **out)
{
	const struct model *all[MAX_CANDIDATES];
	size_t n, i, k = 0;

	if (!tables && s->pmu[0] == '\0') {
		const struct model *const *hand = model_all(&n);

		for (i = 0; i < n; i++)
			if (hand[i]->vendor != VENDOR_NONE)
				out[k++] = hand[i];
		return k;
	}
	if (s->pmu[0] != '\0') {
		for (unsigned t = 0; t < perfdb_n_tables && k < MAX_CANDIDATES; t++) {
			const char *units[2];
			unsigned u, nu = model_table_core_types(&perfdb_tables[t], units);

			for (u = 0; u < nu; u++)
				if (units[u] != NULL && strcmp(units[u], s->pmu) == 0 &&
				    model_for_table(&perfdb_tables[t], units[u]) != NULL)
					out[k++] = model_for_table(&perfdb_tables[t], units[u]);
		}
		return k;
	}
	n = model_tables_all(all, MAX_CANDIDATES);
	for (i = 0; i < n; i++)
		if (!of_unit(all[i]->name, "cpu_core") && !of_unit(all[i]->name, "cpu_atom"))
			out[k++] = all[i];
	return k;
}

/* Whether the software model reads every event of the recording (no
 * hardware event to look for a table for). */
static bool all_software(const struct ps_recording *rec)
{
	const struct model *sw = model_find("software");
	struct ps_match mt;
	char list[8];
	unsigned unused;

	if (sw == NULL || perfstat_match(rec, sw, &mt) < 0)
		return false;
	unused = perfstat_unused(rec, &mt, list, sizeof(list));
	perfstat_match_free(&mt);
	return unused == 0 && mt.found > 0;
}

/* Keep in c[] the models that read the most of the recording's events;
 * how many.  Only the recorded events count: a model's events the
 * recording lacks say nothing about the CPU it came from (a recording
 * for N2 holds every N1 event too, and N2 reads more of it; Sapphire
 * Rapids' list is longer than Ice Lake's, yet both read the same
 * perf-metrics events), so models that read alike are left to perf's
 * figures (by_perf_figures). */
static size_t most_events(const struct ps_recording *rec, const struct model **c, size_t n,
			  unsigned least)
{
	unsigned found[MAX_CANDIDATES], best = least;
	size_t i, k = 0;

	for (i = 0; i < n; i++) {
		unsigned n_events;

		found[i] = events_found(rec, c[i], &n_events);
		if (found[i] > best)
			best = found[i];
	}
	for (i = 0; i < n; i++)
		if (found[i] == best)
			c[k++] = c[i];
	return k;
}

/* The first metric of the first interval where b's figure is not a's:
 * "retiring 45.0%", into buf; false when they agree on all they share. */
static bool differs(const struct section *a, const struct section *b, char *buf, size_t len)
{
	unsigned k;

	for (k = 0; a->rec->n > 0 && k < a->m->n_metrics; k++) {
		const struct model_metric *mm = &a->m->metrics[k];
		int j = model_metric_index(b->m, mm->name);
		double x = a->out[0].v[k].value, y;

		if (j < 0 || !a->out[0].v[k].valid || !b->out[0].v[j].valid)
			continue;
		y = b->out[0].v[j].value;
		if (fabs(x - y) <= 1e-9 * fmax(1, fabs(x)))
			continue;
		if (mm->unit == METRIC_FRACTION)
			snprintf(buf, len, "%s %.1f%% (not %.1f%%)", mm->name, 100 * y, 100 * x);
		else
			snprintf(buf, len, "%s %.3f (not %.3f)", mm->name, y, x);
		return true;
	}
	return false;
}

/* Of several models, the one whose figures agree with more of perf's
 * printed ones; the others named in also, with the first figure where
 * each would give another number. */
static const struct model *by_perf_figures(const struct analyze_args *a,
					   const struct section *s,
					   const struct model **c, size_t n, char *also,
					   size_t len)
{
	struct section *t = calloc(n, sizeof(*t));
	int score[MAX_CANDIDATES];
	size_t i, best = 0, at = 0;

	if (t == NULL)
		return c[0];
	for (i = 0; i < n; i++) {
		t[i] = *s;
		t[i].m = c[i];
		score[i] = INT_MIN;
		if (analyze_section(a, &t[i], true) == 0)
			score[i] = (int)(2 * t[i].checks.agree) - (int)t[i].checks.disagree;
		if (score[i] > score[best])
			best = i;
	}
	also[0] = '\0';
	for (i = 0; i < n; i++) {
		char diff[96];

		if (i == best || at >= len)
			continue;
		at += (size_t)snprintf(also + at, len - at, "%s%s", at ? ", " : "", c[i]->name);
		if (score[i] < score[best] && at < len)
			at += (size_t)snprintf(also + at, len - at, " (fewer of perf's figures agree)");
		else if (t[i].out != NULL && t[best].out != NULL &&
			 differs(&t[best], &t[i], diff, sizeof(diff)) && at < len)
			at += (size_t)snprintf(also + at, len - at, " (would give %s)", diff);
	}
	for (i = 0; i < n; i++)
		analyze_section_free(&t[i]);
	free(t);
	return c[best];
}

/* The model stackd chooses on the CPU perf's id names; for a hybrid's
 * part, that core type's.  NULL: not a CPU id we know. */
static const struct model *of_cpuid(const char *id, const char *pmu)
{
	const struct model *m = NULL, *models[2];
	const char *units[2];
	struct host_cpu c;
	char why[256];
	unsigned n = 0, i;

	if (host_cpu_parse_cpuid(id, &c, why, sizeof(why)) < 0 ||
	    model_for_cpu(&c, NULL, &m, models, units, &n, why, sizeof(why)) < 0)
		return NULL;
	for (i = 0; pmu[0] != '\0' && i < n; i++)
		if (units[i] != NULL && strcmp(units[i], pmu) == 0)
			return models[i];
	return m;
}

/* When the recording's events fit no model: the generic hardware model
 * for cycles and instructions, the software model for software events. */
static const struct model *fallback(const struct section *s)
{
	static const struct model *const last[] = { &model_hw_generic };
	const struct model *sw = model_find("software");
	unsigned n_events;
	size_t i;

	for (i = 0; i < sizeof(last) / sizeof(last[0]); i++)
		if (events_found(s->rec, last[i], &n_events) > 0)
			return last[i];
	return sw != NULL && events_found(s->rec, sw, &n_events) > 0 ? sw : NULL;
}

/* The model whose events the recording has, said on stderr; NULL none. */
static const struct model *guess(const struct analyze_args *a, struct section *s)
{
	const struct model **c = calloc(MAX_CANDIDATES, sizeof(*c)), *m = NULL;
	char also[1024] = "";
	size_t n;

	if (c == NULL)
		return NULL;
	n = most_events(s->rec, c, candidates(s, false, c), s->pmu[0] ? 1 : 3);
	if (n == 0 && !all_software(s->rec))
		n = most_events(s->rec, c, candidates(s, true, c), 3);
	if (n == 1)
		m = c[0];
	else if (n > 1)
		m = by_perf_figures(a, s, c, n, also, sizeof(also));
	if (m == NULL)
		m = fallback(s);
	if (m != NULL)
		fprintf(stderr, "stackctl: analyze: %s%smodel %s (guessed from the events%s%s; "
			"--model chooses)\n", s->pmu, s->pmu[0] ? ": " : "", m->name,
			also[0] ? "; also fit: " : "", also);
	free(c);
	return m;
}

const struct model *analyze_pick_model(const struct analyze_args *a, struct section *s,
				       const char *path)
{
	const char *id = a->cpuid[0] ? a->cpuid : s->rec->cpuid;
	const struct model *m = a->m;

	if (m == NULL && id[0] != '\0') {
		m = of_cpuid(id, s->pmu);
		if (m != NULL && a->cpuid[0] == '\0')
			fprintf(stderr, "stackctl: analyze: %s%s%s: the recording names CPU %s: "
				"model %s\n", path, s->pmu[0] ? " " : "", s->pmu, id, m->name);
	}
	if (m == NULL)
		m = guess(a, s);
	if (m == NULL)
		cli_error("analyze", "%s: none of the recorded events belongs to a model "
			  "(record with: stackctl analyze --perf-command --model NAME)", path);
	return m;
}
