/*
 * top_view.h - one frame of `stackctl top`: ask the API, turn the answer
 * into a rowset, choose the columns a terminal shows (key, CPU%, IPC, the
 * Top-Down level-1 split, one family's figures, the sort column) and write
 * the header (host, model, families with their coverage, losses).  The
 * batch printer and the live view draw the same frame.
 */
#ifndef STACKCTL_TOP_VIEW_H
#define STACKCTL_TOP_VIEW_H

#include "cli/source.h"
#include "lib/rowset.h"

#include <stdint.h>
#include <stdio.h>

struct top_request {
	uint64_t window_ns;
	const char *sort;        /* NULL: the API's default (frontend-bound slots) */
	const char *by;          /* process, comm, unit, user */
	const char *comm, *unit;
	int64_t uid;             /* -1: everyone */
	bool all;                /* [idle] and [unattributed] too */
	size_t limit;            /* 0: every row */
	const char *family;      /* NULL: level 2 when there is one, else all metrics */
	size_t width;            /* terminal columns the table must fit; 0: no limit */
};

struct top_view {
	json_t *answer;
	struct rowset rs;
	const char *family;      /* the one shown */
	char sort[64];
	char filters[512];       /* "user 1000, comm nginx" or "" */
	size_t total_rows;
	size_t width;            /* as asked (top_request.width) */
	/* The family's columns left out to fit width, their titles, and
	 * how many. */
	char dropped[256];
	size_t n_dropped;
	bool periodic;           /* a row was measured partly periodically */
};

/* The families a view can show, NULL-terminated. */
extern const char *const top_view_families[];

/* Returns 0, or a source_get error with err. */
int top_view_fetch(struct source *src, const struct top_request *req, struct top_view *v,
		   char *err, size_t errlen);
void top_view_done(struct top_view *v);

/* Header lines for people (three or four lines, each ending in '\n'). */
void top_view_print_header(const struct top_view *v, const struct source *src, FILE *f);

/* The family after v->family among those the model has (the 't' key). */
const char *top_view_next_family(const struct top_view *v);

#endif
