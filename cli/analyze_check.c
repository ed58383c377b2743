/*
 * analyze_check.c - perf's printed figures against ours (see
 * analyze_check.h).
 *
 * A figure named as a metric of perf's table (tma_retiring, IPC) is that
 * metric, as analyze_perf.c evaluates it on the recorded counts.  perf's
 * older built-in figures (tools/perf/util/stat-shadow.c before the
 * metrics moved to JSON) are their ratios of counts: insn per cycle =
 * instructions / cycles, GHz = cycles / task-clock ns, N /sec (K, M, G) =
 * the event's count per second of task-clock, CPUs utilized = task-clock /
 * the wall time, "of all branches" = branch-misses / branches, "frontend
 * (backend) cycles idle" = stalled-cycles-frontend (-backend) / cycles.
 *
 * perf 5.10-6.2's built-in Top-Down figures ("Frontend Bound", perf 5.x's
 * "frontend bound") are those of analyze_td.h, from the topdown-* counts.
 *
 * They agree when ours rounds to perf's figure: within half a unit of
 * its last printed digit, widened by how much the counts perf printed
 * rounded (task-clock to 0.01 ms) can move a ratio.
 */
#include "cli/analyze_check.h"
#include "cli/analyze_td.h"
#include "cli/event_id.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* The interval's first plain count named key (event_id_normalise()d);
 * NULL when not counted. */
static const struct ps_count *count_of(const struct ps_recording *rec, size_t interval,
				       const char *key)
{
	const struct ps_interval *iv = &rec->iv[interval];
	size_t i;

	for (i = 0; i < iv->n; i++) {
		const struct ps_count *c = &iv->counts[i];

		if (c->occurrence == 0 && c->counted && strcmp(rec->names[c->name].key, key) == 0)
			return c;
	}
	return NULL;
}

/* a / b of two counts, their relative rounding added into *rel. */
static bool ratio(const struct ps_count *a, const struct ps_count *b, double *out, double *rel)
{
	if (a == NULL || b == NULL || b->value <= 0)
		return false;
	*out = a->value / b->value;
	*rel += (a->value > 0 ? a->err / a->value : 0) + b->err / b->value;
	return true;
}

/* The wall seconds perf divides CPU time by for "CPUs utilized": with -I
 * the interval asked for (-I takes whole milliseconds; perf 6.x's stat-shadow.c
 * takes config->interval, not the time measured, so the last, short
 * interval reads low), else duration_time or "seconds time elapsed". */
static double wall_seconds(const struct ps_recording *rec, size_t interval)
{
	double s;

	if (rec->interval_mode && rec->n > 0 && rec->iv[0].time > 0) {
		/* each interval ends a little after the step: the shortest
		 * (but the last, cut short), in whole ms below it */
		double step = rec->iv[0].time;
		size_t k;

		for (k = 1; k + 1 < rec->n; k++)
			step = fmin(step, rec->iv[k].time - rec->iv[k - 1].time);
		return floor(step * 1000) / 1000;
	}
	s = perfstat_wall_seconds(rec, interval);
	return s > 0 ? s : rec->elapsed;
}

/* perf's built-in figures that are one count over another, times a
 * factor (stat-shadow.c of perf 5.x-6.x). */
static const struct builtin_ratio {
	const char *name, *num, *den;
	double factor;
} ratios[] = {
	{ "insn per cycle", "instructions", "cycles", 1 },
	{ "of all branches", "branch-misses", "branches", 100 },
	{ "frontend cycles idle", "stalled-cycles-frontend", "cycles", 100 },
	{ "backend cycles idle", "stalled-cycles-backend", "cycles", 100 },
	{ "GHz", "cycles", "task-clock", 1 },
};

/* One interval's counts as analyze_td.h reads them, and the worst
 * relative rounding of those read. */
struct interval_counts {
	const struct ps_recording *rec;
	size_t interval;
	double rel;
};

static int interval_count(void *ctx, const char *name, double *out)
{
	struct interval_counts *ic = ctx;
	const struct ps_count *c;
	char key[160];

	event_id_normalise(name, key, sizeof(key));
	c = count_of(ic->rec, ic->interval, key);
	if (c == NULL)
		return -ENOENT;
	*out = c->value;
	if (c->value > 0 && c->err / c->value > ic->rel)
		ic->rel = c->err / c->value;
	return 0;
}

/* N /sec, K/sec, M/sec, G/sec: the count per second of task-clock, in
 * that unit; 0 when name is not one. */
static double per_second(const char *name)
{
	if (strcmp(name, "/sec") == 0)
		return 1;
	if (strcmp(name + 1, "/sec") != 0)
		return 0;
	return name[0] == 'K' ? 1e3 : name[0] == 'M' ? 1e6 : name[0] == 'G' ? 1e9 : 0;
}

/* perf's built-in figure p from the counts: 1, 0 when its counts are not
 * in the recording, -1 when it is not one we know. */
static int builtin(const struct ps_recording *rec, const struct ps_printed *p, double *v,
		   double *rel)
{
	size_t i = p->interval, k;
	const struct ps_count *tc = count_of(rec, i, "task-clock");
	double unit = per_second(p->name);
	char key[160];

	if (tc == NULL)
		tc = count_of(rec, i, "cpu-clock");
	if (td_builtin_of_printed(p->name) != NULL) {
		struct interval_counts ic = { rec, i, 0 };

		if (td_builtin_eval(td_builtin_of_printed(p->name), interval_count, &ic, v) < 0)
			return 0;
		*v *= 100;  /* printed as a percentage */
		*rel += 2 * ic.rel;
		return 1;
	}
	for (k = 0; k < sizeof(ratios) / sizeof(ratios[0]); k++) {
		const struct builtin_ratio *r = &ratios[k];

		if (strcmp(p->name, r->name) != 0)
			continue;
		if (!ratio(count_of(rec, i, r->num),
			   strcmp(r->den, "task-clock") == 0 ? tc : count_of(rec, i, r->den), v, rel))
			return 0;
		*v *= r->factor;
		return 1;
	}
	if (strcmp(p->name, "CPUs utilized") == 0) {
		if (tc == NULL || wall_seconds(rec, i) <= 0)
			return 0;
		*v = tc->value / 1e9 / wall_seconds(rec, i);
		*rel += tc->err / tc->value;
		return 1;
	}
	if (unit == 0)
		return -1;
	event_id_normalise(p->event, key, sizeof(key));
	if (!ratio(count_of(rec, i, key), tc, v, rel))
		return 0;
	*v *= 1e9 / unit;  /* task-clock is in ns */
	return 1;
}

/* Ours for p: perf's table metric of its name, else a built-in figure. */
static void check_one(const struct ps_recording *rec, const struct analyze_perf *ap,
		      struct check *c)
{
	const struct ps_printed *p = c->p;
	double rel = 0, tol;
	int k = ap->set != NULL ? perf_set_index(ap->set, p->name) : -1;

	c->state = CHECK_NOT_COMPARED;
	c->formula = NULL;
	if (p->row[0] != '\0') {
		c->why = "a row's own figure (we sum the rows)";
		return;
	}
	if (k >= 0 && ap->older[p->interval * ap->n + (unsigned)k] != 0) {
		/* perf printed its own formula's figure; ours is another's */
		c->why = "its events are not all in the recording (ours is perf 5.10-6.2's "
			 "built-in formula)";
		return;
	}
	if (k >= 0 && ap->valid[p->interval * ap->n + (unsigned)k]) {
		bool fraction;
		const char *unit;

		c->ours = ap->value[p->interval * ap->n + (unsigned)k];
		perf_scale(perf_set_metric(ap->set, (unsigned)k), 1.0, &fraction, &unit);
		if (fraction)
			c->ours *= 100;
		/* a metric reads several counts: the worst rounding of any */
		for (size_t i = 0; i < rec->iv[p->interval].n; i++) {
			const struct ps_count *pc = &rec->iv[p->interval].counts[i];

			if (pc->value > 0 && pc->err / pc->value > rel)
				rel = pc->err / pc->value;
		}
		rel *= 2;
	} else if (k >= 0) {
		c->why = "its events are not all in the recording";
		return;
	} else {
		int known = builtin(rec, p, &c->ours, &rel);

		if (known <= 0) {
			c->why = known == 0 ? "the counts it needs are not in the recording" :
				 ap->set == NULL ? "not a figure we know (and no perf table)" :
				 "not a figure we know";
			return;
		}
		if (td_builtin_of_printed(p->name) != NULL)
			c->formula = td_builtin_formula;
	}
	tol = 0.5 * pow(10.0, -p->decimals) * 1.0001 + fabs(c->ours) * rel;
	c->state = fabs(c->ours - p->value) <= tol ? CHECK_AGREE : CHECK_DISAGREE;
}

int analyze_check(const struct ps_recording *rec, const struct analyze_perf *ap,
		  struct check_summary *out)
{
	size_t i;

	memset(out, 0, sizeof(*out));
	out->c = calloc(rec->n_printed + 1, sizeof(*out->c));
	if (out->c == NULL)
		return -ENOMEM;
	out->n = rec->n_printed;
	for (i = 0; i < rec->n_printed; i++) {
		out->c[i].p = &rec->printed[i];
		check_one(rec, ap, &out->c[i]);
		out->agree += out->c[i].state == CHECK_AGREE;
		out->disagree += out->c[i].state == CHECK_DISAGREE;
		out->not_compared += out->c[i].state == CHECK_NOT_COMPARED;
	}
	return 0;
}

void analyze_check_free(struct check_summary *s)
{
	free(s->c);
	memset(s, 0, sizeof(*s));
}
