/*
 * perfstat_combined.c - FP events perf counts together.  `perf stat -M`
 * on newer perf records FP_ARITH_INST_RETIRED.SCALAR (umask 0x03: scalar
 * single + double), .4_FLOPS (0x18: 128-bit single + 256-bit double) and
 * .8_FLOPS (0x60: 256-bit single + 512-bit double) instead of the single
 * events our models count: each sums events of equal FLOPs per count, so
 * the FLOP total is exact when the combined count stands for one of them
 * and the others read 0.  The width and precision split is then unknown:
 * the caller is told which names were combined (mt->combined), and says so.
 * A combined event whose parts weigh differently (.VECTOR, 0xfc) is not
 * used this way.
 */
#include "cli/perfstat.h"
#include "cli/event_id.h"
#include "lib/model/model_util.h"

#include <string.h>

/* Same event but for the umask. */
static bool same_but_umask(const struct event_id *a, const struct event_id *b)
{
	return a->kind == EVENT_ID_CORE && b->kind == EVENT_ID_CORE && a->event == b->event &&
	       a->cmask == b->cmask && a->inv == b->inv && a->edge == b->edge &&
	       a->any == b->any && a->config1 == b->config1;
}

/* Every umask bit of combined (recording name `name`) is a column of m
 * with the same event and FLOP weight w, none of them recorded on its own
 * (read from this combined name already is fine): then *lowest is the
 * lowest such bit. */
static bool parts_weigh_alike(const struct model *m, const struct ps_match *mt, int name,
			      const struct event_id *combined, double w, uint8_t *lowest)
{
	unsigned bit, g, e;

	*lowest = 0;
	for (bit = 0; bit < 8; bit++) {
		uint8_t u = (uint8_t)(1u << bit);
		bool part = false;

		if (!(combined->umask & u))
			continue;
		for (g = 0; g < m->n_groups; g++)
			for (e = 0; e < m->groups[g].n_events; e++) {
				const struct model_event *ev = &m->groups[g].events[e];
				struct event_id id;

				event_id_resolve(ev->name, NULL, 0, &id);
				if (!same_but_umask(&id, combined) || id.umask != u)
					continue;
				if (model_flop_weight(ev->column) != w ||
				    (mt->name_of[g][e] >= 0 && mt->name_of[g][e] != name))
					return false;
				part = true;
			}
		if (!part)
			return false;
		if (*lowest == 0)
			*lowest = u;
	}
	return *lowest != 0;
}

void perfstat_match_combined(const struct model *m, const struct event_id *ids, size_t n_ids,
			     struct ps_match *mt)
{
	unsigned g, e;
	size_t i;

	for (g = 0; g < m->n_groups; g++)
		for (e = 0; e < m->groups[g].n_events; e++) {
			const struct model_event *ev = &m->groups[g].events[e];
			double w = model_flop_weight(ev->column);
			struct event_id me;

			if (mt->name_of[g][e] != -1 || w <= 0)
				continue;
			event_id_resolve(ev->name, NULL, 0, &me);
			for (i = 0; i < n_ids; i++) {
				uint8_t lowest;

				if (!same_but_umask(&ids[i], &me) || ids[i].umask == me.umask ||
				    (ids[i].umask & me.umask) != me.umask ||
				    !parts_weigh_alike(m, mt, (int)i, &ids[i], w, &lowest))
					continue;
				mt->name_of[g][e] = me.umask == lowest ? (int)i : PS_COMBINED_ZERO;
				mt->used[i] = true;
				mt->combined[i] = true;
				break;
			}
		}
}
