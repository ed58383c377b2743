/*
 * perfstat.h - read `perf stat -x,` output (plain, -I interval, -A per CPU)
 * and turn it into a model's group sums, so `stackctl analyze` runs the very
 * formulas stackd runs.
 */
#ifndef STACKD_PERFSTAT_H
#define STACKD_PERFSTAT_H

#include "model/model.h"

#include <stdio.h>

struct ps_count {
	char name[128];      /* normalised: lower case, '.' separators, no cpu/ */
	unsigned occurrence; /* nth time this name appears in the interval */
	double value;
	bool counted;        /* false: <not counted> / <not supported> */
	double running;      /* share of the time it counted, 0..1 (perf scaled it) */
};

struct ps_interval {
	double time;         /* seconds, or NAN in a plain recording */
	struct ps_count *counts;
	size_t n, cap;
};

struct ps_recording {
	bool interval_mode;
	struct ps_interval *iv;
	size_t n, cap;
};

/* Parse; on error returns -EINVAL with "line N: what" in err. */
int perfstat_read(FILE *f, struct ps_recording *rec, char *err, size_t errlen);
void perfstat_free(struct ps_recording *rec);

/* Normalise an event name as perf prints it, or as a model names it. */
void perfstat_normalise(const char *in, char *out, size_t len);

/* How many of the model's distinct events the recording has. */
unsigned perfstat_events_found(const struct ps_recording *rec, const struct model *m,
			       unsigned *n_events);

/* Group sums of one interval for m.  seconds is the time the interval
 * covers (task-clock when recorded, else the -I step; 0 if unknown). */
void perfstat_group_sums(const struct ps_recording *rec, size_t interval, const struct model *m,
			 struct group_sums *sums, double *seconds);

#endif
