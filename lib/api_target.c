/*
 * api_target.c - GET /api/v1/{processes,comms,units}/NAME: every metric of
 * one process, or of all processes of one command or unit summed, over a
 * window, each with its coverage and place in its stack.
 */
#include "api_out.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

static bool matches(const struct window_proc *p, enum query_who who, const char *what,
		    long pid)
{
	switch (who) {
	case WHO_PID:
		return p->pid > 0 && p->pid == pid;
	case WHO_COMM:
		return strcmp(p->comm, what) == 0;
	case WHO_UNIT:
		return p->unit != NULL && strcmp(p->unit, what) == 0;
	}
	return false;
}

static void print_metrics(FILE *f, const struct model *m, const struct metric_value *mv)
{
	unsigned k;
	bool first = true;

	fputs("\"metrics\": [", f);
	for (k = 0; k < m->n_metrics; k++) {
		const struct model_metric *mm = &m->metrics[k];

		if (!mv[k].valid)
			continue;
		fprintf(f, "%s\n  {\"name\": \"%s\", \"value\": ", first ? "" : ",", mm->name);
		json_double(f, mv[k].value);
		fprintf(f, ", \"unit\": \"%s\", \"parent\": ", api_metric_unit(mm->unit));
		json_string_or_null(f, mm->parent);
		fputs(", \"stack\": ", f);
		json_string_or_null(f, mm->stack);
		fputs(", \"coverage\": ", f);
		json_double(f, mv[k].coverage);
		fprintf(f, ", \"core_scoped\": %s, \"help\": ", mv[k].core_scoped ? "true" : "false");
		json_print_string(f, mm->help);
		fputc('}', f);
		first = false;
	}
	fputs("]", f);
}

int api_target(struct db *db, enum query_who who, const char *what, const char *query,
		      const struct api_access *acc, struct api_response *resp)
{
	static const char *const keys[] = { "window", NULL };
	struct group_sums sums[MODEL_MAX_GROUPS];
	uint64_t window_ns = API_DEFAULT_WINDOW_NS, tc = 0, cs = 0, span;
	const struct model *m;
	struct http_query q;
	struct window w;
	struct api_out o;
	char err[1024], *end;
	size_t i, n = 0;
	unsigned g, k;
	long pid = 0;
	int r;

	if (http_query_parse(query, keys, &q, err, sizeof(err)) < 0 ||
	    http_query_duration(&q, "window", API_MAX_WINDOW_NS, &window_ns, err, sizeof(err)) < 0)
		return api_error(resp, 400, "%s", err);
	if (who == WHO_PID && ((pid = strtol(what, &end, 10)) <= 0 || pid > INT32_MAX ||
			       *end != '\0' || *what == '\0'))
		return api_error(resp, 400, "'%s' is not a process id", what);
	r = query_window(db, window_ns, &w, err, sizeof(err));
	if (r == -ENODATA)
		return api_error(resp, 503, "%s", err);
	if (r < 0)
		return api_error(resp, 500, "%s", err);
	m = w.model;
	memset(sums, 0, sizeof(sums));
	if (api_out_open(&o) < 0) {
		window_done(&w);
		return -ENOMEM;
	}
	fprintf(o.f, "{\"who\": {\"%s\": ", api_who_key(who));
	json_print_string(o.f, what);
	fputs("},\n \"processes\": [", o.f);
	for (i = 0; i < w.n_procs; i++) {
		const struct window_proc *p = &w.procs[i];

		if (!matches(p, who, what, pid) || (!acc->full && p->uid != acc->uid))
			continue;
		tc += p->task_clock_ns;
		cs += p->context_switches;
		for (g = 0; m != NULL && g < m->n_groups; g++) {
			if (!p->sums[g].present)
				continue;
			sums[g].present = true;
			sums[g].task_clock_ns += p->sums[g].task_clock_ns;
			sums[g].context_switches += p->sums[g].context_switches;
			for (k = 0; k < MODEL_MAX_EVENTS; k++)
				sums[g].v[k] += p->sums[g].v[k];
		}
		if (n < 100) {
			fprintf(o.f, "%s\n  {\"pid\": %" PRId32 ", \"start_ns\": %" PRIu64 ", \"comm\": ",
				n ? "," : "", p->pid, p->start_ns);
			json_print_string(o.f, p->comm);
			fputs(", \"uid\": ", o.f);
			if (p->uid >= 0)
				fprintf(o.f, "%" PRId64, p->uid);
			else
				fputs("null", o.f);
			fputs(", \"unit\": ", o.f);
			json_string_or_null(o.f, p->unit);
			fputs(", \"cmdline\": ", o.f);
			json_string_or_null(o.f, p->cmdline);
			fprintf(o.f, ", \"task_clock_ns\": %" PRIu64 "}", p->task_clock_ns);
		}
		n++;
	}
	if (n == 0) {
		api_out_abort(&o);
		window_done(&w);
		return api_error(resp, 404, "no %s '%s' ran in the last %.0f s%s", api_who_key(who), what,
			    (double)window_ns / 1e9, acc->full ? "" : " (among your processes)");
	}
	span = w.to_ns > w.from_ns ? w.to_ns - w.from_ns : 0;
	fprintf(o.f, "],\n \"process_count\": %zu,\n \"window\": {\"from_ns\": %" PRIu64
		", \"to_ns\": %" PRIu64 "},\n \"model\": \"%s\", \"formula_version\": %u,\n"
		" \"task_clock_ns\": %" PRIu64 ", \"context_switches\": %" PRIu64
		", \"cpu_percent\": ", n, w.from_ns, w.to_ns, m != NULL ? m->name : w.model_name,
		m != NULL ? m->formula_version : 0, tc, cs);
	json_double(o.f, span > 0 ? (double)tc * 100.0 / (double)span : NAN);
	fputs(",\n \"groups\": [", o.f);
	for (g = 0; m != NULL && g < m->n_groups; g++) {
		fprintf(o.f, "%s\n  {\"name\": \"%s\", \"coverage\": ", g ? "," : "",
			m->groups[g].name);
		json_double(o.f, tc > 0 ? (double)sums[g].task_clock_ns / (double)tc : NAN);
		fputs(", \"counts\": {", o.f);
		for (k = 0; k < m->groups[g].n_events; k++)
			fprintf(o.f, "%s\"%s\": %" PRIu64, k ? ", " : "",
				m->groups[g].events[k].column, sums[g].v[k]);
		fputs("}}", o.f);
	}
	fputs("],\n ", o.f);
	if (m != NULL) {
		struct model_context ctx = { .smt_on = w.smt_on, .cpi_weights = NULL };
		struct metric_value mv[MODEL_MAX_METRICS];

		memset(mv, 0, sizeof(mv));
		m->compute(m, sums, &ctx, mv);
		print_metrics(o.f, m, mv);
	} else {
		fputs("\"metrics\": []", o.f);
	}
	fputs("}\n", o.f);
	window_done(&w);
	return api_out_finish(&o, 200, true, resp);
}

