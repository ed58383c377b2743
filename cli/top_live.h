/*
 * top_live.h - `stackctl top` in a terminal: redraws every delay, keys
 * change the sort, the family, the grouping and the filters.
 */
#ifndef STACKCTL_TOP_LIVE_H
#define STACKCTL_TOP_LIVE_H

#include "cli/top_view.h"

/* limit < 0: as many rows as fit; iterations 0: until 'q'.  Returns an
 * exit status. */
int top_live(struct source *src, struct top_request *req, long limit, long iterations,
	     uint64_t delay_ns, bool color);

#endif
