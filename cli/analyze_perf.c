/*
 * analyze_perf.c - see analyze_perf.h.
 */
#include "cli/analyze_perf.h"
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

/* The recorded count of `name` (an event as perf's expressions spell it),
 * by its spelling or what perf and the kernel make the same count, with
 * the same privilege modifiers: "EV:k" (or "cpu_core/EV/k") counts only
 * the kernel's part of EV.  A name without modifiers takes a modified
 * count only where the recording has no plain one (cycles:u all through). */
static int recorded(void *ctx, const char *name, double *out)
{
	const struct lookup *l = ctx;
	const struct ps_interval *iv = &l->rec->iv[l->interval];
	const struct ps_count *exact = NULL, *other = NULL;
	char key[160], mods[8], has[8];
	size_t i;

	event_id_normalise(name, key, sizeof(key));
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
	if (exact == NULL || !exact->counted)
		return -ENOENT;
	*out = exact->value;
	return 0;
}

int analyze_perf_compute(const struct perf_set *set, const struct ps_recording *rec,
			 const struct model_context *ctx, unsigned width, struct analyze_perf *out)
{
	struct perf_values pv;
	struct lookup l = { rec, 0, set, NULL };
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
	seen = calloc(out->n + 1, sizeof(*seen));
	ids = calloc(rec->n_names + 1, sizeof(*ids));
	if (out->value == NULL || out->valid == NULL || seen == NULL || ids == NULL) {
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

			if (perf_set_eval(set, k, &pv, &v) < 0)
				continue;
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
	memset(ap, 0, sizeof(*ap));
}
