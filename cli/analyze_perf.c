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
};

/* The recorded count of `name` (an event as perf's expressions spell it),
 * by its spelling or what perf and the kernel make the same count. */
static int recorded(void *ctx, const char *name, double *out)
{
	const struct lookup *l = ctx;
	const struct ps_interval *iv = &l->rec->iv[l->interval];
	char key[160];
	size_t i;

	/* "EV:k" counts only the kernel's part: only a recording of that very
	 * spelling has it (event_id_normalise() would drop the modifier). */
	if (strchr(name, ':') != NULL) {
		for (i = 0; i < iv->n; i++) {
			const struct ps_count *c = &iv->counts[i];

			if (c->occurrence == 0 && c->counted &&
			    strcasecmp(l->rec->names[c->name].spelling, name) == 0) {
				*out = c->value;
				return 0;
			}
		}
		return -ENOENT;
	}
	event_id_normalise(name, key, sizeof(key));
	for (i = 0; i < iv->n; i++) {
		const struct ps_count *c = &iv->counts[i];
		const struct ps_name *pn = &l->rec->names[c->name];

		if (c->occurrence != 0)
			continue;
		if (strcmp(pn->key, key) != 0 && !perf_event_same(name, pn->spelling))
			continue;
		if (!c->counted)
			return -ENOENT;
		*out = c->value;
		return 0;
	}
	return -ENOENT;
}

int analyze_perf_compute(const struct perf_set *set, const struct ps_recording *rec, bool smt,
			 unsigned slots, struct analyze_perf *out)
{
	struct perf_values pv;
	struct lookup l = { rec, 0 };
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
	if (out->value == NULL || out->valid == NULL || seen == NULL) {
		free(seen);
		return -ENOMEM;
	}
	memset(&pv, 0, sizeof(pv));
	pv.event = recorded;
	pv.ctx = &l;
	pv.smt_on = smt;
	pv.core_wide = !smt;  /* one thread's counts, as stackd counts */
	pv.slots = slots;
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
	return 0;
}

void analyze_perf_free(struct analyze_perf *ap)
{
	free(ap->value);
	free(ap->valid);
	memset(ap, 0, sizeof(*ap));
}
