/*
 * analyze_perf.c - see analyze_perf.h.
 */
#include "cli/analyze_perf.h"
#include "cli/analyze_td.h"
#include "cli/event_id.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

struct lookup {
	const struct ps_recording *rec;
	size_t interval;
	const struct perf_set *set;
	const struct event_id *ids;   /* per recorded name: what it counts */
	bool absent_zero;             /* read a missing td_older_event() as 0 */
	unsigned zeroed;              /* the TD_NO_* bits so read */
};

/* What a raw event of perf's table counts, as event_id.h compares it: its
 * fields as the kernel's format files place them (an Intel umask above 8
 * bits, an AMD event above 12, are not compared). */
static bool table_event_id(const struct perf_set *set, const char *name, struct event_id *id)
{
	const struct perfdb_event *e = perf_set_event(set, name);

	/* an umask above 8 bits (Intel's umask2, config 40-47) is not in an
	 * event_id: such an event matches by name only */
	if (e == NULL || e->kind != PERFDB_EV_RAW || e->umask > 0xff)
		return false;
	memset(id, 0, sizeof(*id));
	id->kind = EVENT_ID_CORE;
	id->event = e->event_code;
	id->umask = (uint8_t)e->umask;
	id->cmask = e->cmask;
	id->inv = e->inv;
	id->edge = e->edge;
	id->any = e->any;
	id->config1 = e->msr_index ? e->msr_value : 0;
	event_id_normalise(e->name, id->name, sizeof(id->name));
	return true;
}

/* The first plain count of the interval that counts what id does (a
 * recording spelt in libpfm4's names, raw codes or terms). */
static const struct ps_count *by_identity(const struct lookup *l, const struct event_id *id)
{
	const struct ps_interval *iv = &l->rec->iv[l->interval];
	char has[8];
	size_t i;

	for (i = 0; i < iv->n; i++) {
		const struct ps_count *c = &iv->counts[i];

		event_id_modifiers(l->rec->names[c->name].spelling, has, sizeof(has));
		if (c->occurrence == 0 && has[0] == '\0' && event_id_same(&l->ids[c->name], id))
			return c;
	}
	return NULL;
}

/* The key of an expression's event as a section's names have it: a
 * hybrid's part names its core PMU's events as the plain core PMU's
 * (perfstat_pmu_part: "cpu_core/X,cmask=1/" is read as "cpu/X,cmask=1/"),
 * while perf's expressions of that core type name it ("cpu_core@X\,
 * cmask\=1@"); names without terms have no PMU in their key either way. */
static void section_key(const char *name, char *key, size_t len)
{
	size_t n;

	event_id_normalise(name, key, len);
	n = strcspn(key, "/");
	if (strncmp(key, "cpu_", 4) == 0 && key[n] == '/')
		memmove(key + 3, key + n, strlen(key + n) + 1);
}

/* The recorded count of `name` (an event as perf's expressions spell it),
 * by its spelling or what perf and the kernel make the same count, with
 * the same privilege modifiers: "EV:k" (or "cpu_core/EV/k") counts only
 * the kernel's part of EV.  A name without modifiers takes a modified
 * count only where the recording has no plain one (cycles:u all through).
 * While older_formula() asks, a missing td_older_event() reads as 0. */
static int recorded(void *ctx, const char *name, double *out)
{
	struct lookup *l = ctx;
	const struct ps_interval *iv = &l->rec->iv[l->interval];
	const struct ps_count *exact = NULL, *other = NULL;
	char key[160], mods[8], has[8];
	size_t i;

	section_key(name, key, sizeof(key));
	event_id_modifiers(name, mods, sizeof(mods));
	for (i = 0; i < iv->n && exact == NULL; i++) {
		const struct ps_count *c = &iv->counts[i];
		const struct ps_name *pn = &l->rec->names[c->name];

		if (c->occurrence != 0)
			continue;
		if (strcmp(pn->key, key) != 0 && !perf_event_same(name, pn->spelling))
			continue;
		event_id_modifiers(pn->spelling, has, sizeof(has));
		if (strcmp(has, mods) == 0)
			exact = c;
		else if (mods[0] == '\0' && other == NULL)
			other = c;
	}
	if (exact == NULL)
		exact = other;
	if (exact == NULL && mods[0] == '\0' && l->ids != NULL) {
		struct event_id id;

		if (table_event_id(l->set, name, &id))
			exact = by_identity(l, &id);
	}
	if ((exact == NULL || !exact->counted) && l->absent_zero && td_older_event(name) != 0) {
		l->zeroed |= td_older_event(name);
		*out = 0;
		return 0;
	}
	if (exact == NULL || !exact->counted)
		return -ENOENT;
	*out = exact->value;
	return 0;
}

/* Metric k of set that perf 7.2 could not compute on l's interval: perf
 * 5.10-6.2's built-in value when k is a node of it and perf 7.2's formula
 * lacks nothing but INT_MISC.UOP_DROPPING or CLEARS_COUNT (it computes
 * with them read as 0); the TD_NO_* bits of those missing, 0 when not. */
static unsigned older_formula(const struct perf_set *set, unsigned k, struct perf_values *pv,
			      struct lookup *l, double *out)
{
	const struct td_builtin *b = td_builtin_of_metric(perf_set_metric(set, k)->name);
	double v;
	int r;

	if (b == NULL)
		return 0;
	l->absent_zero = true;
	l->zeroed = 0;
	r = perf_set_eval(set, k, pv, &v);
	l->absent_zero = false;
	if (r < 0 || l->zeroed == 0 || td_builtin_eval(b, recorded, l, out) < 0)
		return 0;
	return l->zeroed;
}

int analyze_perf_compute(const struct perf_set *set, const struct ps_recording *rec,
			 const struct model_context *ctx, unsigned width, struct analyze_perf *out)
{
	struct perf_values pv;
	struct lookup l = { rec, 0, set, NULL, false, 0 };
	struct event_id *ids;
	bool *seen;
	unsigned k;
	size_t i;

	memset(out, 0, sizeof(*out));
	out->set = set;
	if (set == NULL)
		return 0;
	out->n = perf_set_count(set);
	out->n_intervals = rec->n;
	out->value = calloc(rec->n * out->n + 1, sizeof(*out->value));
	out->valid = calloc(rec->n * out->n + 1, sizeof(*out->valid));
	out->older = calloc(rec->n * out->n + 1, sizeof(*out->older));
	seen = calloc(out->n + 1, sizeof(*seen));
	ids = calloc(rec->n_names + 1, sizeof(*ids));
	if (out->value == NULL || out->valid == NULL || out->older == NULL || seen == NULL ||
	    ids == NULL) {
		free(seen);
		free(ids);
		return -ENOMEM;
	}
	/* what each recorded name counts, in the libpfm4 table of the model
	 * perfstat_match() chose (event_id_use_pmu) */
	for (i = 0; i < rec->n_names; i++)
		event_id_resolve(rec->names[i].spelling, NULL, 0, &ids[i]);
	l.ids = ids;
	memset(&pv, 0, sizeof(pv));
	pv.event = recorded;
	pv.ctx = &l;
	pv.smt_on = ctx->smt_on;
	pv.core_wide = !ctx->smt_on;  /* one thread's counts, as stackd counts */
	pv.slots = ctx->slots ? ctx->slots : width;
	pv.cpuid = ctx->cpuid;
	for (i = 0; i < rec->n; i++) {
		l.interval = i;
		pv.duration_s = perfstat_wall_seconds(rec, i);
		for (k = 0; k < out->n; k++) {
			bool fraction;
			const char *unit;
			double v;

			if (perf_set_eval(set, k, &pv, &v) < 0) {
				out->older[i * out->n + k] = (unsigned char)older_formula(set, k, &pv,
											 &l, &v);
				if (out->older[i * out->n + k] == 0)
					continue;
			}
			out->value[i * out->n + k] = perf_scale(perf_set_metric(set, k), v, &fraction,
								&unit);
			out->valid[i * out->n + k] = true;
			out->n_valid += !seen[k];
			seen[k] = true;
		}
	}
	free(seen);
	free(ids);
	return 0;
}

void analyze_perf_free(struct analyze_perf *ap)
{
	free(ap->value);
	free(ap->valid);
	free(ap->older);
	memset(ap, 0, sizeof(*ap));
}
