/*
 * group_parts.c - see group_parts.h.
 */
#include "lib/group_parts.h"
#include "lib/model/model_util.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

static int column_in(const struct model_group *mg, const char *name, size_t len)
{
	unsigned i;

	for (i = 0; i < mg->n_events; i++)
		if (strlen(mg->events[i].column) == len &&
		    strncmp(mg->events[i].column, name, len) == 0)
			return (int)i;
	return -1;
}

/* Parse "a,b,c" into sg->col; false when a column is unknown or repeated. */
static bool parse_columns(const struct model_group *mg, const char *events,
			  struct stored_group *sg)
{
	uint32_t seen = 0;
	const char *p = events;

	sg->n = 0;
	while (*p != '\0') {
		size_t len = strcspn(p, ",");
		int c = column_in(mg, p, len);

		if (c < 0 || sg->n == MODEL_MAX_EVENTS || (seen & (1u << c)))
			return false;
		seen |= 1u << c;
		sg->col[sg->n++] = (uint8_t)c;
		p += len + (p[len] == ',');
	}
	return sg->n > 0;
}

void group_map_add(struct group_map *map, const struct model *m, int64_t id,
		   const char *model_name, unsigned formula_version, const char *name,
		   const char *events)
{
	struct stored_group *sg;
	int f;
	unsigned k;

	if (map->n == GROUP_PARTS_MAX)
		return;
	sg = &map->g[map->n++];
	memset(sg, 0, sizeof(*sg));
	sg->id = id;
	sg->family = -1;
	sg->slot = -1;
	if (m == NULL || model_name == NULL || name == NULL || events == NULL ||
	    strcmp(model_name, m->name) != 0 || formula_version != m->formula_version)
		return;
	f = model_group_index(m, name);
	if (f < 0 || !parse_columns(&m->groups[f], events, sg))
		return;
	sg->family = f;
	sg->whole = sg->n == m->groups[f].n_events;
	for (k = 0; k < sg->n && sg->whole; k++)
		sg->whole = sg->col[k] == k;
	if (!sg->whole)
		sg->slot = (int)map->n_slots++;
}

const struct stored_group *group_map_find(const struct group_map *map, int64_t id)
{
	size_t i;

	for (i = 0; i < map->n; i++)
		if (map->g[i].id == id)
			return map->g[i].family >= 0 ? &map->g[i] : NULL;
	return NULL;
}

int group_parts_add(const struct group_map *map, const struct stored_group *sg,
		    struct group_sums *sums, struct part_sums **parts, uint64_t tc, uint64_t cs,
		    const uint64_t *v)
{
	unsigned k;

	if (sg->whole) {
		struct group_sums *s = &sums[sg->family];

		s->present = true;
		s->task_clock_ns += tc;
		s->context_switches += cs;
		for (k = 0; k < sg->n; k++)
			s->v[k] += v[k];
		return 0;
	}
	if (*parts == NULL) {
		*parts = calloc(map->n_slots, sizeof(**parts));
		if (*parts == NULL)
			return -ENOMEM;
	}
	{
		struct part_sums *p = &(*parts)[sg->slot];

		p->present = true;
		p->task_clock_ns += tc;
		p->context_switches += cs;
		for (k = 0; k < sg->n; k++)
			p->v[k] += v[k];
	}
	return 0;
}

/* One input of a family's fold: a part, or the whole groups' sums. */
struct fold_in {
	uint64_t tc, cs;
	uint64_t v[MODEL_MAX_EVENTS];   /* by family event */
	uint32_t has;
	double base;
};

static void fold(const struct model_group *mg, const struct fold_in *in, unsigned n,
		 struct group_sums *out)
{
	double base_total = 0.0;
	unsigned i, e;

	memset(out, 0, sizeof(*out));
	for (i = 0; i < n; i++) {
		out->task_clock_ns += in[i].tc;
		out->context_switches += in[i].cs;
		base_total += in[i].base;
	}
	out->present = n > 0;
	out->covered_ns = out->task_clock_ns;
	for (e = 0; e < mg->n_events; e++) {
		double sum = 0.0, base = 0.0;
		uint64_t tc = 0;
		bool counted = false;

		for (i = 0; i < n; i++) {
			if (!(in[i].has & (1u << e)))
				continue;
			counted = true;
			sum += (double)in[i].v[e];
			base += in[i].base;
			tc += in[i].tc;
		}
		if (counted && tc < out->covered_ns)
			out->covered_ns = tc;
		if (!counted || base <= 0.0) {
			out->missing |= 1u << e;
			continue;
		}
		out->v[e] = (uint64_t)llround(sum * (base_total / base));
	}
}

void group_parts_combine(const struct group_map *map, const struct model *m,
			 struct group_sums *sums, struct part_sums **parts)
{
	struct fold_in in[64];
	unsigned f;
	size_t i;

	if (*parts == NULL)
		return;
	for (f = 0; f < m->n_groups; f++) {
		const struct model_group *mg = &m->groups[f];
		int base_col = -1;
		unsigned n = 0, e;

		for (e = 0; e < mg->n_events; e++)
			if (strcmp(mg->events[e].column, "cycles") == 0)
				base_col = (int)e;
		for (i = 0; i < map->n; i++) {
			const struct stored_group *sg = &map->g[i];
			const struct part_sums *p;
			unsigned k;

			if (sg->family != (int)f || sg->whole || !(*parts)[sg->slot].present || n == 63)
				continue;
			p = &(*parts)[sg->slot];
			memset(&in[n], 0, sizeof(in[n]));
			in[n].tc = p->task_clock_ns;
			in[n].cs = p->context_switches;
			for (k = 0; k < sg->n; k++) {
				in[n].v[sg->col[k]] = p->v[k];
				in[n].has |= 1u << sg->col[k];
			}
			n++;
		}
		if (n == 0)
			continue;
		if (sums[f].present) {   /* whole groups of the same family (an earlier plan) */
			memset(&in[n], 0, sizeof(in[n]));
			in[n].tc = sums[f].task_clock_ns;
			in[n].cs = sums[f].context_switches;
			memcpy(in[n].v, sums[f].v, sizeof(in[n].v));
			in[n].has = (mg->n_events >= 32 ? UINT32_MAX : (1u << mg->n_events) - 1) &
				    ~sums[f].missing;
			n++;
		}
		for (i = 0; i < n; i++)
			in[i].base = base_col >= 0 && (in[i].has & (1u << base_col)) ?
				     (double)in[i].v[base_col] : (double)in[i].tc;
		fold(mg, in, n, &sums[f]);
	}
	free(*parts);
	*parts = NULL;
}

/* The family's base column (cycles), or -1: task-clock is the base. */
static int base_column(const struct model_group *mg)
{
	unsigned e;

	for (e = 0; e < mg->n_events; e++)
		if (strcmp(mg->events[e].column, "cycles") == 0)
			return (int)e;
	return -1;
}

void sums_acc_add(struct sums_acc *acc, const struct model *m, const struct group_sums *src)
{
	unsigned f, e;

	for (f = 0; f < m->n_groups && f < MODEL_MAX_GROUPS; f++) {
		const struct model_group *mg = &m->groups[f];
		struct sums_acc_family *a = &acc->f[f];
		const struct group_sums *s = &src[f];
		int bc = base_column(mg);
		double base;

		if (!s->present)
			continue;
		base = bc >= 0 && !(s->missing & (1u << bc)) ? (double)s->v[bc] :
		       (double)s->task_clock_ns;
		a->present = true;
		a->tc += s->task_clock_ns;
		a->cs += s->context_switches;
		a->base_total += base;
		for (e = 0; e < mg->n_events; e++) {
			if (s->missing & (1u << e))
				continue;
			a->measured |= 1u << e;
			a->covered[e] += model_covered_ns(s);
			a->v[e] += (double)s->v[e];
			a->base[e] += base;
		}
	}
}

void sums_acc_finish(const struct sums_acc *acc, const struct model *m, struct group_sums *out)
{
	unsigned f, e;

	for (f = 0; f < m->n_groups && f < MODEL_MAX_GROUPS; f++) {
		const struct sums_acc_family *a = &acc->f[f];
		struct group_sums *o = &out[f];

		memset(o, 0, sizeof(*o));
		if (!a->present)
			continue;
		o->present = true;
		o->task_clock_ns = a->tc;
		o->covered_ns = a->tc;
		o->context_switches = a->cs;
		for (e = 0; e < m->groups[f].n_events; e++) {
			if (a->measured & (1u << e) && a->covered[e] < o->covered_ns)
				o->covered_ns = a->covered[e];   /* the least-counted event's */
			if (!(a->measured & (1u << e)))
				o->missing |= 1u << e;
			else if (a->base[e] <= 0.0)   /* measured over no base: as counted */
				o->v[e] = (uint64_t)llround(a->v[e]);
			else
				o->v[e] = (uint64_t)llround(a->v[e] * (a->base_total / a->base[e]));
		}
	}
}
