/*
 * plan.c - see plan.h.
 *
 * Packing: a family's events fall into the base (in every part: fixed
 * counter events, and cycles, which needs a general counter once the
 * watchdog holds the fixed one), its ratio sets, and the rest, each alone.
 * Sets go first-fit, largest first, into as few parts as fit; a part fits
 * when its general-counter events can be matched to distinct counters
 * their masks allow (another user's counters are unconstrained, so they
 * take whatever is left) and their number is within the free budget.
 */
#include "daemon/plan/plan.h"
#include "lib/model/model_hybrid.h"
#include "daemon/plan/plan_auto.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#define PLAN_MAX_SETS MODEL_MAX_EVENTS

struct event_set {
	uint8_t events[MODEL_MAX_EVENTS];
	unsigned n;
	unsigned gp;        /* general counters the set takes */
};

void plan_budget_for(const struct model *m, bool smt_on, bool watchdog_on, unsigned reserved,
		     struct plan_budget *out)
{
	unsigned total = smt_on ? m->gp_counters_smt : m->gp_counters_nosmt;
	unsigned taken = reserved;

	memset(out, 0, sizeof(*out));
	out->smt_on = smt_on;
	out->watchdog_on = watchdog_on;
	out->reserved = reserved;
	out->gp_total = total;
	out->unlimited = m->vendor == VENDOR_NONE;
	/* Intel and Arm: the watchdog takes the fixed cycle counter, so our
	 * cycles moves to a general one.  AMD: it takes a general counter. */
	out->cycles_on_fixed = m->fixed_counters > 0 && !watchdog_on;
	out->watchdog_takes_gp = watchdog_on && m->fixed_counters == 0;
	if (out->watchdog_takes_gp)
		taken++;
	out->gp_free = total > taken ? total - taken : 0;
	snprintf(out->counters_from, sizeof(out->counters_from), "%s",
		 out->unlimited ? "" : "the model's figure");
	out->watchdog_from[0] = '\0';
}

void plan_budget_set_total(struct plan_budget *b, unsigned gp, const char *from)
{
	unsigned taken = b->reserved + (b->watchdog_takes_gp ? 1 : 0);

	b->gp_total = gp;
	b->gp_free = gp > taken ? gp - taken : 0;
	snprintf(b->counters_from, sizeof(b->counters_from), "%s", from);
}

static const struct model_event_rule *rule_of(const struct model *m, const char *column)
{
	unsigned i;

	for (i = 0; i < m->n_event_rules; i++)
		if (strcmp(m->event_rules[i].column, column) == 0)
			return &m->event_rules[i];
	return NULL;
}

static bool event_counted(const struct model *m, const struct model_event *e, bool smt_on)
{
	const struct model_event_rule *r = rule_of(m, e->column);

	if (r == NULL || r->when == EVENT_ALWAYS)
		return true;
	return (r->when == EVENT_SMT_ON) == smt_on;
}

static uint32_t event_mask(const struct model *m, const struct model_event *e,
			   const struct plan_budget *b)
{
	const struct model_event_rule *r = rule_of(m, e->column);
	uint32_t all = b->gp_total >= 32 ? UINT32_MAX : (1u << b->gp_total) - 1;
	uint32_t mask = r == NULL ? 0 : b->smt_on ? r->counters_smt : r->counters_nosmt;

	return mask == 0 ? all : mask & all;
}

/* Whether the event needs a general counter in this budget. */
static bool needs_gp(const struct model_event *e, const struct plan_budget *b)
{
	if (strcmp(e->column, "cycles") == 0 && e->fixed)
		return !b->cycles_on_fixed;
	return !e->fixed;
}

/* A fixed counter, not a perf-metrics pseudo event (Intel's topdown-*
 * are read from the PERF_METRICS register that comes with slots). */
static bool takes_fixed(const struct model_event *e, const struct plan_budget *b)
{
	return e->fixed && !needs_gp(e, b) && strstr(e->name, "topdown-") == NULL;
}

static unsigned gp_of(const struct model_event *e, const struct plan_budget *b)
{
	return needs_gp(e, b) ? (e->paired ? 2u : 1u) : 0u;
}

/* Augmenting-path matching of general-counter slots to counters. */
static bool match_slot(const uint32_t *masks, unsigned slot, uint32_t *seen, int *owner,
		       unsigned n_counters)
{
	unsigned c;

	for (c = 0; c < n_counters; c++) {
		if (!(masks[slot] & (1u << c)) || (*seen & (1u << c)))
			continue;
		*seen |= 1u << c;
		if (owner[c] < 0 || match_slot(masks, (unsigned)owner[c], seen, owner, n_counters)) {
			owner[c] = (int)slot;
			return true;
		}
	}
	return false;
}

/* Do these family events fit one group of this budget? */
static bool part_fits(const struct model *m, const struct model_group *mg,
		      const uint8_t *events, unsigned n, const struct plan_budget *b)
{
	uint32_t masks[2 * MODEL_MAX_EVENTS];
	int owner[32];
	unsigned slots = 0, i, k;

	if (b->unlimited)
		return true;
	for (i = 0; i < n; i++) {
		const struct model_event *e = &mg->events[events[i]];

		for (k = 0; k < gp_of(e, b); k++)
			masks[slots++] = event_mask(m, e, b);
	}
	if (slots > b->gp_free || b->gp_total > 32)
		return slots == 0;
	for (i = 0; i < 32; i++)
		owner[i] = -1;
	for (i = 0; i < slots; i++) {
		uint32_t seen = 0;

		if (!match_slot(masks, i, &seen, owner, b->gp_total))
			return false;
	}
	return true;
}

static int column_of(const struct model_group *mg, const char *name, size_t len)
{
	unsigned i;

	for (i = 0; i < mg->n_events; i++)
		if (strlen(mg->events[i].column) == len && strncmp(mg->events[i].column, name, len) == 0)
			return (int)i;
	return -1;
}

/* Split family f's counted events into its base and its sets. */
static int family_sets(const struct model *m, unsigned f, const struct plan_budget *b,
		       struct event_set *base, struct event_set *sets, unsigned *n_sets,
		       char *err, size_t errlen)
{
	const struct model_group *mg = &m->groups[f];
	bool placed[MODEL_MAX_EVENTS] = { false };
	unsigned i, n = 0;

	memset(base, 0, sizeof(*base));
	for (i = 0; i < mg->n_events; i++) {
		const struct model_event *e = &mg->events[i];

		if (!event_counted(m, e, b->smt_on)) {
			placed[i] = true;
			continue;
		}
		/* The base: fixed-counter events, and cycles wherever it is
		 * counted (readers compare every event with its part's cycles). */
		if (e->fixed || strcmp(e->column, "cycles") == 0) {
			base->events[base->n++] = (uint8_t)i;
			base->gp += gp_of(e, b);
			placed[i] = true;
		}
	}
	for (i = 0; i < m->n_ratio_sets; i++) {
		const char *p = m->ratio_sets[i].columns;
		struct event_set *s = &sets[n];

		if (strcmp(m->ratio_sets[i].group, mg->name) != 0)
			continue;
		memset(s, 0, sizeof(*s));
		while (*p != '\0') {
			size_t len = strcspn(p, ",");
			int c = column_of(mg, p, len);

			if (c < 0) {
				snprintf(err, errlen, "model %s: ratio set of %s names '%.*s', not one "
					 "of its events", m->name, mg->name, (int)len, p);
				return -EINVAL;
			}
			if (!placed[c]) {
				s->events[s->n++] = (uint8_t)c;
				s->gp += gp_of(&mg->events[c], b);
				placed[c] = true;
			}
			p += len + (p[len] == ',');
		}
		if (s->n > 0)
			n++;
	}
	for (i = 0; i < mg->n_events; i++) {
		if (placed[i])
			continue;
		memset(&sets[n], 0, sizeof(sets[n]));
		sets[n].events[0] = (uint8_t)i;
		sets[n].n = 1;
		sets[n].gp = gp_of(&mg->events[i], b);
		n++;
	}
	*n_sets = n;
	return 0;
}

static void set_add(struct event_set *dst, const struct event_set *src)
{
	unsigned i;

	for (i = 0; i < src->n; i++)
		dst->events[dst->n++] = src->events[i];
	dst->gp += src->gp;
}

static void describe_budget(const struct plan_budget *b, char *buf, size_t len)
{
	snprintf(buf, len, "%u of %u general counters free (SMT %s, NMI watchdog %s, %u kept for "
		 "other tools)", b->gp_free, b->gp_total, b->smt_on ? "on" : "off",
		 b->watchdog_on ? "on" : "off", b->reserved);
}

/* Events of a part in the family's order: a family that fits whole is
 * stored with exactly the model's columns. */
static void sort_events(struct event_set *s)
{
	unsigned i, j;

	for (i = 1; i < s->n; i++)
		for (j = i; j > 0 && s->events[j] < s->events[j - 1]; j--) {
			uint8_t t = s->events[j];

			s->events[j] = s->events[j - 1];
			s->events[j - 1] = t;
		}
}

/* A perf-metrics event: Intel's slots and topdown-* read from the
 * PERF_METRICS register (fixed; an Atom core's topdown-* are ordinary
 * events on general counters and are not). */
static bool perf_metrics_event(const struct model_event *e)
{
	return e->fixed && (strstr(e->name, "/slots/") != NULL || strstr(e->name, "topdown-") != NULL);
}

/* Counts nothing beyond cycles and instructions: IPC, which every other
 * part of the family counts too. */
static bool set_trivial(const struct model_group *mg, const struct event_set *s)
{
	unsigned i;

	for (i = 0; i < s->n; i++) {
		const char *c = mg->events[s->events[i]].column;

		if (strcmp(c, "cycles") != 0 && strcmp(c, "instructions") != 0)
			return false;
	}
	return true;
}

/* Part j: the base and every set placed in it, in set order. */
static void build_part(const struct event_set *base, const struct event_set *sets,
		       const int *where, unsigned n_sets, int j, struct event_set *out)
{
	unsigned k;

	*out = *base;
	for (k = 0; k < n_sets; k++)
		if (where[k] == j)
			set_add(out, &sets[k]);
}

static bool part_trivial(const struct model_group *mg, const struct event_set *sets,
			 const int *where, unsigned n_sets, int j)
{
	unsigned k;

	for (k = 0; k < n_sets; k++)
		if (where[k] == j && !set_trivial(mg, &sets[k]))
			return false;
	return true;
}

/* A part that would count only cycles and instructions (first-fit left a
 * lone `instructions` over) takes a set from a part that keeps another:
 * every turn of the rotation then measures something of its own. */
static void rebalance(const struct model *m, const struct model_group *mg,
		      const struct plan_budget *b, const struct event_set *base,
		      const struct event_set *sets, int *where, unsigned n_sets, unsigned n_parts)
{
	unsigned j, k, others;

	for (j = 0; j < n_parts; j++) {
		if (!part_trivial(mg, sets, where, n_sets, (int)j))
			continue;
		for (k = 0; k < n_sets; k++) {
			struct event_set trial;
			int from = where[k];
			unsigned i;

			if (from == (int)j || set_trivial(mg, &sets[k]))
				continue;
			for (i = 0, others = 0; i < n_sets; i++)
				others += i != k && where[i] == from && !set_trivial(mg, &sets[i]);
			if (others == 0)
				continue;
			build_part(base, sets, where, n_sets, (int)j, &trial);
			set_add(&trial, &sets[k]);
			if (part_fits(m, mg, trial.events, trial.n, b)) {
				where[k] = (int)j;
				break;
			}
		}
	}
}

/* A part rebalance could not fill is not opened: its events (only
 * instructions) go uncounted in this family, missing to its formulas,
 * rather than a turn of the rotation measuring IPC alone.  Returns the
 * parts left; dropped: the events left out ("" none). */
static unsigned drop_trivial(const struct model_group *mg, const struct event_set *sets,
			     int *where, unsigned n_sets, unsigned n_parts, char *dropped,
			     size_t len)
{
	unsigned j, k, left = 0;
	size_t used = 0;

	dropped[0] = '\0';
	for (j = 0; j < n_parts; j++) {
		bool trivial = part_trivial(mg, sets, where, n_sets, (int)j);

		for (k = 0; k < n_sets; k++) {
			if (where[k] != (int)j)
				continue;
			if (!trivial) {
				where[k] = (int)left;
				continue;
			}
			for (unsigned e = 0; e < sets[k].n && used < len; e++) {
				int w = snprintf(dropped + used, len - used, "%s%s", used ? "+" : "",
						 mg->events[sets[k].events[e]].column);

				used += w > 0 ? (size_t)w : 0;
			}
			where[k] = -1;
		}
		left += !trivial;
	}
	return left;
}

static void set_columns(const struct model_group *mg, const struct event_set *s, char *buf,
			size_t len)
{
	size_t used = 0;
	unsigned j;

	buf[0] = '\0';
	for (j = 0; j < s->n && used < len; j++) {
		int w = snprintf(buf + used, len - used, "%s%s", j ? "+" : "",
				 mg->events[s->events[j]].column);

		if (w < 0)
			break;
		used += (size_t)w;
	}
}

/* First-fit, largest sets first, into as few parts as fit: where[k] is
 * set k's part.  The number of parts, or 0 with why (a set that fits no
 * part even alone with the base, or no room left in the plan). */
static unsigned assign_sets(const struct model *m, const struct model_group *mg,
			    const struct plan_budget *b, const struct event_set *base,
			    const struct event_set *sets, unsigned n_sets, int *where,
			    unsigned max_parts, char *why, size_t whylen)
{
	unsigned order[PLAN_MAX_SETS], n_parts = 0, i, j;
	char budget[160], cols[128];

	for (i = 0; i < n_sets; i++) {
		order[i] = i;
		where[i] = -1;
	}
	/* A stable insertion sort keeps the model's order among equals, so
	 * plans are the same on every run. */
	for (i = 1; i < n_sets; i++)
		for (j = i; j > 0 && sets[order[j]].gp > sets[order[j - 1]].gp; j--) {
			unsigned t = order[j];

			order[j] = order[j - 1];
			order[j - 1] = t;
		}
	for (i = 0; i < n_sets; i++) {
		unsigned k = order[i];
		struct event_set trial;

		for (j = 0; j < n_parts && where[k] < 0; j++) {
			build_part(base, sets, where, n_sets, (int)j, &trial);
			set_add(&trial, &sets[k]);
			if (part_fits(m, mg, trial.events, trial.n, b))
				where[k] = (int)j;
		}
		if (where[k] >= 0)
			continue;
		trial = *base;
		set_add(&trial, &sets[k]);
		if (!part_fits(m, mg, trial.events, trial.n, b)) {
			describe_budget(b, budget, sizeof(budget));
			set_columns(mg, &sets[k], cols, sizeof(cols));
			snprintf(why, whylen, "left out: %s needs %u general counters with its base, "
				 "%s", cols, trial.gp, budget);
			return 0;
		}
		if (n_parts == max_parts) {
			snprintf(why, whylen, "left out: more than %d groups in the plan",
				 PLAN_MAX_GROUPS);
			return 0;
		}
		where[k] = (int)n_parts++;
	}
	return n_parts;
}

/* Pack family f into parts.  Returns how many (0: left out, with why), or
 * -EINVAL when the model's rules do not match its events (err). */
static int pack_family(const struct model *m, unsigned f, const struct plan_budget *b,
		       struct event_set *parts, unsigned max_parts, char *why, size_t whylen,
		       char *err, size_t errlen)
{
	const struct model_group *mg = &m->groups[f];
	struct event_set base, sets[PLAN_MAX_SETS];
	unsigned n_sets = 0, n_parts, i, need;
	int where[PLAN_MAX_SETS];
	char budget[160], dropped[64] = "";

	if (family_sets(m, f, b, &base, sets, &n_sets, err, errlen) < 0)
		return -EINVAL;
	for (i = 0; b->no_perf_metrics && i < mg->n_events; i++)
		if (perf_metrics_event(&mg->events[i])) {
			snprintf(why, whylen, "left out: needs perf metrics (%s), which this host's "
				 "PMU does not offer (a guest's virtual PMU: --vpmu no-perf-metrics)",
				 mg->events[i].column);
			return 0;
		}
	need = base.gp;
	for (i = 0; i < n_sets; i++)
		need += sets[i].gp;
	n_parts = assign_sets(m, mg, b, &base, sets, n_sets, where, max_parts, why, whylen);
	if (n_parts == 0 && n_sets > 0)
		return 0;
	if (n_parts > 1) {
		rebalance(m, mg, b, &base, sets, where, n_sets, n_parts);
		n_parts = drop_trivial(mg, sets, where, n_sets, n_parts, dropped, sizeof(dropped));
	}
	for (i = 0; i < n_parts; i++) {
		build_part(&base, sets, where, n_sets, (int)i, &parts[i]);
		sort_events(&parts[i]);
	}
	if (n_parts == 0 && base.n > 0)
		parts[n_parts++] = base;
	describe_budget(b, budget, sizeof(budget));
	if (n_parts > 1)
		snprintf(why, whylen, "split in %u parts: needs %u general counters%s, %s", n_parts,
			 need, need <= b->gp_free ? " on fewer counters than its events' masks allow "
			 "together" : "", budget);
	if (dropped[0] != '\0') {
		size_t used = strlen(why);

		snprintf(why + used, whylen - used, "%snot counted: %s (a part of its own would "
			 "count only cycles and instructions)", used ? "; " : "", dropped);
	}
	return (int)n_parts;
}

int plan_make_exact(const struct model *m, const bool off[MODEL_MAX_GROUPS],
		    const struct plan_budget *b, struct plan *out, char *err, size_t errlen)
{
	struct event_set parts[PLAN_MAX_GROUPS];
	unsigned f, k;

	memset(out, 0, sizeof(*out));
	out->model = m;
	out->budget = *b;
	if (m->n_groups == 0 || m->n_groups > MODEL_MAX_GROUPS) {
		snprintf(err, errlen, "model '%s' has %u groups (1..%d allowed)", m->name,
			 m->n_groups, MODEL_MAX_GROUPS);
		return -EINVAL;
	}
	for (f = 0; f < m->n_groups; f++) {
		struct plan_family *pf = &out->families[f];
		unsigned room = PLAN_MAX_GROUPS - out->n_groups;
		int n;

		if (m->groups[f].n_events > MODEL_MAX_EVENTS) {
			snprintf(err, errlen, "model '%s', group '%s': too many events", m->name,
				 m->groups[f].name);
			return -EINVAL;
		}
		pf->wanted = !off[f];
		if (!pf->wanted)
			continue;
		n = pack_family(m, f, b, parts, room, pf->why, sizeof(pf->why), err, errlen);
		if (n < 0)
			return n;
		pf->n_parts = (unsigned)n;
		pf->collected = n > 0;
		for (k = 0; k < (unsigned)n; k++) {
			struct plan_group *g = &out->groups[out->n_groups++];

			g->family = f;
			g->part = k + 1;
			g->n_parts = (unsigned)n;
			g->n_events = parts[k].n;
			memcpy(g->events, parts[k].events, parts[k].n);
			g->gp_needed = parts[k].gp;
			for (unsigned i = 0; i < parts[k].n; i++)
				g->fixed_needed += takes_fixed(&m->groups[f].events[parts[k].events[i]],
							       b);
		}
	}
	if (out->n_groups == 0) {
		for (f = 0; f < m->n_groups; f++)
			if (out->families[f].wanted) {
				snprintf(err, errlen, "no counter group fits this host: %s: %s",
					 m->groups[f].name, out->families[f].why);
				return -ENOSPC;
			}
		snprintf(err, errlen, "every metric family is turned off (families)");
		return -ENOSPC;
	}
	return 0;
}

/* The groups that take turns with family f's on its CPUs: every group, or
 * on a hybrid CPU those of f's core type (each rotates on its own CPUs). */
static unsigned rotating_with(const struct plan *p, unsigned f)
{
	const char *unit = model_hybrid_group_unit(p->model, f);
	unsigned g, n = 0;

	for (g = 0; g < p->n_groups; g++) {
		const char *u = model_hybrid_group_unit(p->model, p->groups[g].family);

		n += unit == NULL || (u != NULL && strcmp(u, unit) == 0);
	}
	return n;
}

double plan_family_share(const struct plan *p, unsigned f)
{
	unsigned n = f < MODEL_MAX_GROUPS ? rotating_with(p, f) : 0;

	if (n == 0 || !p->families[f].collected)
		return 0;
	/* Every group takes the same turn (worker_rotate.c). */
	return (double)p->families[f].n_parts / n;
}

double plan_event_share(const struct plan *p, unsigned f)
{
	unsigned n = f < MODEL_MAX_GROUPS ? rotating_with(p, f) : 0;

	if (n == 0 || !p->families[f].collected)
		return 0;
	/* An event that is not the base is in one part only. */
	return 1.0 / n;
}

void plan_group_label(const struct plan *p, unsigned g, char *buf, size_t len)
{
	const struct plan_group *pg = &p->groups[g];
	const char *name = p->model->groups[pg->family].name;

	if (pg->n_parts > 1)
		snprintf(buf, len, "%s (part %u/%u)", name, pg->part, pg->n_parts);
	else
		snprintf(buf, len, "%s", name);
}

void plan_whole(const struct model *m, struct plan *out)
{
	unsigned f, i;

	memset(out, 0, sizeof(*out));
	out->model = m;
	out->budget.unlimited = true;
	for (f = 0; f < m->n_groups && f < PLAN_MAX_GROUPS; f++) {
		struct plan_group *g = &out->groups[out->n_groups++];

		g->family = f;
		g->part = g->n_parts = 1;
		g->n_events = m->groups[f].n_events;
		for (i = 0; i < g->n_events; i++)
			g->events[i] = (uint8_t)i;
		g->gp_needed = model_group_gp_needed(&m->groups[f]);
		out->families[f].wanted = out->families[f].collected = true;
		out->families[f].n_parts = 1;
	}
}

void plan_group_columns(const struct plan *p, unsigned g, char *columns, size_t clen,
			char *names, size_t nlen)
{
	const struct plan_group *pg = &p->groups[g];
	const struct model_group *mg = &p->model->groups[pg->family];
	size_t cu = 0, nu = 0;
	unsigned i;

	columns[0] = names[0] = '\0';
	for (i = 0; i < pg->n_events; i++) {
		const struct model_event *e = &mg->events[pg->events[i]];
		int n = snprintf(columns + cu, clen - cu, "%s%s", i ? "," : "", e->column);

		if (n > 0 && (size_t)n < clen - cu)
			cu += (size_t)n;
		n = snprintf(names + nu, nlen - nu, "%s%s", i ? "," : "", e->name);
		if (n > 0 && (size_t)n < nlen - nu)
			nu += (size_t)n;
	}
}

/* The same perf_event group: same family, same part of the same split,
 * the same events in the same stored order. */
static bool group_equal(const struct plan_group *a, const struct plan_group *b)
{
	return a->family == b->family && a->part == b->part && a->n_parts == b->n_parts &&
	       a->n_events == b->n_events && memcmp(a->events, b->events, a->n_events) == 0;
}

bool plan_groups_equal(const struct plan *a, const struct plan *b)
{
	unsigned g;

	if (a->model != b->model || a->n_groups != b->n_groups)
		return false;
	for (g = 0; g < a->n_groups; g++)
		if (!group_equal(&a->groups[g], &b->groups[g]))
			return false;
	return true;
}

int plan_find_group(const struct plan *p, const struct plan_group *g)
{
	unsigned i;

	for (i = 0; i < p->n_groups; i++)
		if (group_equal(&p->groups[i], g))
			return (int)i;
	return -1;
}
