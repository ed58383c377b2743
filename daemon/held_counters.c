/*
 * held_counters.c - see held_counters.h.
 */
#include "daemon/held_counters.h"
#include "daemon/counting.h"
#include "daemon/meta.h"
#include "daemon/replan.h"
#include "daemon/base/log.h"

int held_counters_apply(struct daemon *d)
{
	struct config same = d->cfg;   /* a copy: replan_apply copies from it into d->cfg */
	struct plan next;
	char err[2048];
	int r;

	d->held_replan = false;
	r = counting_make_plan(d, d->cfg.families, d->cfg.reserved_counters, &next, err,
			       sizeof(err));
	if (r == 0)
		r = replan_apply(d, &same, &next);
	if (r < 0 && d->col == NULL) {
		log_error("no counter group could be opened after planning around the held "
			  "counters");
		return r;
	}
	if (r <= 0) {
		/* the running plan stays: so does the reserve it was made with */
		log_warning("planning around the held counters did not take (%s); keeping %u "
			    "held back", r < 0 ? err : "the running groups stay", d->held.applied);
		d->held.extra = d->held.applied;
		return 0;
	}
	d->held.applied = d->held.extra;
	meta_write(d);
	return 0;
}
