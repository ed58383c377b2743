/*
 * group_parts.c - see group_parts.h.
 */
#include "lib/group_parts.h"
#include "lib/model/model_util.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
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

/* Parse "a,b,c" into sg->col: a column the family no longer has is
 * GROUP_COL_NONE (its counts ignored).  False when a column repeats (not
 * a store's) or none is the family's. */
static bool parse_columns(const struct model_group *mg, const char *events,
			  struct stored_group *sg)
{
	const char *p = events;

	sg->n = 0;
	sg->has = 0;
	while (*p != '\0') {
		size_t len = strcspn(p, ",");
		int c = column_in(mg, p, len);

		if (sg->n == MODEL_MAX_EVENTS || (c >= 0 && (sg->has & (1u << c))))
			return false;
		if (c >= 0)
			sg->has |= 1u << c;
		sg->col[sg->n++] = c >= 0 ? (uint8_t)c : GROUP_COL_NONE;
		p += len + (p[len] == ',');
	}
	return sg->has != 0;
}

/* The index of (model_name, version) among map's keys, added when new;
 * -1 when they are full. */
static int key_of(struct group_map *map, const char *model_name, unsigned version)
{
	struct group_key *k;
	unsigned i;

	for (i = 0; i < map->n_keys; i++)
		if (map->keys[i].formula_version == version &&
		    strcmp(map->keys[i].model, model_name) == 0)
			return (int)i;
	if (map->n_keys == GROUP_KEYS_MAX)
		return -1;
	k = &map->keys[map->n_keys];
	memset(k, 0, sizeof(*k));
	snprintf(k->model, sizeof(k->model), "%s", model_name);
	k->formula_version = version;
	return (int)map->n_keys++;
}

void group_map_add(struct group_map *map, const struct model *m, int64_t id,
		   const char *model_name, unsigned formula_version, const char *name,
		   const char *events)
{
	struct group_key *key = NULL;
	struct stored_group sg;
	unsigned k;
	int f, ki;

	if (model_name == NULL || name == NULL || events == NULL)
		return;
	ki = key_of(map, model_name, formula_version);
	if (ki >= 0)
		key = &map->keys[ki];
	/* another model's columns may name other events: never mapped */
	if (m == NULL || strcmp(model_name, m->name) != 0)
		return;
	f = model_group_index(m, name);
	if (f < 0 || f >= MODEL_MAX_GROUPS)
		return;   /* a family the model no longer has */
	if (key != NULL)
		key->families |= 1u << f;
	memset(&sg, 0, sizeof(sg));
	if (map->n == GROUP_PARTS_MAX || !parse_columns(&m->groups[f], events, &sg))
		return;
	sg.id = id;
	sg.family = f;
	sg.slot = -1;
	sg.whole = sg.n == m->groups[f].n_events;
	for (k = 0; k < sg.n && sg.whole; k++)
		sg.whole = sg.col[k] == k;
	if (!sg.whole)
		sg.slot = (int)map->n_slots++;
	if (key != NULL) {
		key->n_mapped++;
		key->counted[f] |= sg.has;
	}
	if (map->n > 0 && id <= map->g[map->n - 1].id)
		map->unsorted = true;
	map->g[map->n++] = sg;
}

const struct stored_group *group_map_find(const struct group_map *map, int64_t id)
{
	size_t lo = 0, hi = map->n;

	if (map->unsorted) {
		for (size_t i = 0; i < map->n; i++)
			if (map->g[i].id == id)
				return &map->g[i];
		return NULL;
	}
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (map->g[mid].id < id)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < map->n && map->g[lo].id == id ? &map->g[lo] : NULL;
}

bool group_map_only(const struct group_map *map, const struct model *m)
{
	return m != NULL && map->n_keys == 1 && map->keys[0].formula_version == m->formula_version &&
	       strcmp(map->keys[0].model, m->name) == 0;
}

/* Whether m's formulas read the column with SMT on or off (an event the
 * planner counts only in the other state is missing from every group). */
static bool column_read(const struct model *m, const char *column, bool smt_on)
{
	unsigned i;

	for (i = 0; i < m->n_event_rules; i++)
		if (strcmp(m->event_rules[i].column, column) == 0 &&
		    m->event_rules[i].when != EVENT_ALWAYS)
			return (m->event_rules[i].when == EVENT_SMT_ON) == smt_on;
	return true;
}

/* Add column to the list "a,b" in buf unless it is there. */
static void list_add(char *buf, size_t len, const char *column)
{
	size_t n = strlen(column), used = strlen(buf);
	const char *p = buf;

	while (*p != '\0') {
		size_t l = strcspn(p, ",");

		if (l == n && strncmp(p, column, n) == 0)
			return;
		p += l + (p[l] == ',');
	}
	if (used + n + 2 <= len)
		snprintf(buf + used, len - used, "%s%s", used > 0 ? "," : "", column);
}

void group_map_judge(const struct group_map *map, const struct model *m, bool smt_on,
		     struct recorded_under *r)
{
	const struct group_key *key = NULL;
	unsigned i, f, e;

	r->recomputed = false;
	r->missing[0] = '\0';
	for (i = 0; i < map->n_keys; i++)
		if (map->keys[i].formula_version == r->formula_version &&
		    strcmp(map->keys[i].model, r->model) == 0)
			key = &map->keys[i];
	if (key == NULL || m == NULL || strcmp(r->model, m->name) != 0 || key->n_mapped == 0)
		return;
	for (f = 0; f < m->n_groups && f < MODEL_MAX_GROUPS; f++) {
		const struct model_group *mg = &m->groups[f];

		if (!(key->families & (1u << f)))
			continue;   /* not recorded then: as a family the plan left out */
		for (e = 0; e < mg->n_events; e++)
			if (!(key->counted[f] & (1u << e)) &&
			    column_read(m, mg->events[e].column, smt_on))
				list_add(r->missing, sizeof(r->missing), mg->events[e].column);
	}
	r->recomputed = r->missing[0] == '\0';
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
			for (k = 0; k < sg->n; k++)
				if (sg->col[k] != GROUP_COL_NONE)
					in[n].v[sg->col[k]] = p->v[k];
			in[n].has = sg->has;
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
		/* cycles when every input counted them (a group of another
		 * formula version may not have): bases are summed */
		for (i = 0; i < n && base_col >= 0; i++)
			if (!(in[i].has & (1u << base_col)))
				base_col = -1;
		for (i = 0; i < n; i++)
			in[i].base = base_col >= 0 ? (double)in[i].v[base_col] : (double)in[i].tc;
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
