/*
 * top_rows.c - see top_rows.h.
 */
#include "top_rows.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

struct top_columns {
	int pid, comm, uid, unit, cpu, tc, cs, start, cmdline;
	int family[MODEL_MAX_GROUPS][MODEL_MAX_EVENTS];
	int coverage[MODEL_MAX_GROUPS];
	int metric[MODEL_MAX_METRICS];
};

static int build_columns(struct rowset *rs, const struct model *m, struct top_columns *c)
{
	unsigned k;

	c->pid = rowset_add_column(rs, "pid", "PID", RS_UNIT_NONE);
	c->comm = rowset_add_column(rs, "comm", "COMM", RS_UNIT_NONE);
	c->cpu = rowset_add_column(rs, "cpu_percent", "CPU%", RS_UNIT_PERCENT);
	c->tc = rowset_add_column(rs, "task_clock_ns", "CPU-TIME", RS_UNIT_NS);
	c->cs = rowset_add_column(rs, "context_switches", "SWITCHES", RS_UNIT_COUNT);
	if (m != NULL) {
		unsigned g;

		for (g = 0; g < m->n_groups; g++) {
			const struct model_group *mg = &m->groups[g];

			/* cycles, instructions... are in every group of a hardware
			 * model: one column holds their sum over the groups. */
			for (k = 0; k < mg->n_events; k++) {
				int have = rowset_find_column(rs, mg->events[k].column);

				c->family[g][k] = have >= 0 ? have :
					rowset_add_column(rs, mg->events[k].column,
							  mg->events[k].column, RS_UNIT_COUNT);
			}
		}
		for (g = 0; g < m->n_groups; g++) {
			char name[64], title[32];

			snprintf(name, sizeof(name), "%s_coverage", m->groups[g].name);
			snprintf(title, sizeof(title), "COV:%s", m->groups[g].name);
			c->coverage[g] = rowset_add_column(rs, name, title, RS_UNIT_FRACTION);
		}
		for (k = 0; k < m->n_metrics; k++)
			c->metric[k] = rowset_add_column(rs, m->metrics[k].name, m->metrics[k].name,
							 m->metrics[k].unit == METRIC_FRACTION ?
							 RS_UNIT_FRACTION : RS_UNIT_COUNT);
	}
	c->uid = rowset_add_column(rs, "uid", "UID", RS_UNIT_NONE);
	c->unit = rowset_add_column(rs, "unit", "UNIT", RS_UNIT_NONE);
	c->start = rowset_add_column(rs, "start_ns", "START", RS_UNIT_NONE);
	c->cmdline = rowset_add_column(rs, "cmdline", "COMMAND", RS_UNIT_NONE);
	if (c->cmdline < 0)
		return -ENOMEM;
	/* The table keeps to what fits a terminal; JSON and CSV carry all. */
	rowset_hide_in_table(rs, c->uid);
	rowset_hide_in_table(rs, c->start);
	if (m != NULL)
		for (k = 0; k < m->n_metrics; k++)
			rowset_hide_in_table(rs, c->metric[k]);
	return 0;
}

static int fill_row(struct rowset *rs, const struct window *w, const struct window_proc *p,
		    const struct top_columns *c)
{
	const struct model *m = w->model;
	uint64_t span = w->to_ns > w->from_ns ? w->to_ns - w->from_ns : 0;
	int row = rowset_add_row(rs);

	if (row < 0)
		return row;
	rowset_set_int(rs, (size_t)row, c->pid, p->pid);
	if (rowset_set_text(rs, (size_t)row, c->comm, p->comm) < 0)
		return -ENOMEM;
	if (span > 0)
		rowset_set_double(rs, (size_t)row, c->cpu, (double)p->task_clock_ns * 100.0 / (double)span);
	rowset_set_int(rs, (size_t)row, c->tc, (int64_t)p->task_clock_ns);
	rowset_set_int(rs, (size_t)row, c->cs, (int64_t)p->context_switches);
	if (m != NULL) {
		struct metric_value mv[MODEL_MAX_METRICS];
		struct model_context ctx = { .smt_on = w->smt_on, .cpi_weights = NULL };
		int cols[MODEL_MAX_GROUPS * MODEL_MAX_EVENTS];
		int64_t vals[MODEL_MAX_GROUPS * MODEL_MAX_EVENTS];
		unsigned g, k, n = 0, j;

		for (g = 0; g < m->n_groups; g++) {
			if (!p->sums[g].present)
				continue;
			for (k = 0; k < m->groups[g].n_events; k++) {
				for (j = 0; j < n && cols[j] != c->family[g][k]; j++)
					;
				if (j == n) {
					cols[n] = c->family[g][k];
					vals[n++] = 0;
				}
				vals[j] += (int64_t)p->sums[g].v[k];
			}
			if (p->task_clock_ns > 0)
				rowset_set_double(rs, (size_t)row, c->coverage[g],
						  (double)p->sums[g].task_clock_ns /
						  (double)p->task_clock_ns);
		}
		for (j = 0; j < n; j++)
			rowset_set_int(rs, (size_t)row, cols[j], vals[j]);
		memset(mv, 0, sizeof(mv));
		m->compute(m, p->sums, &ctx, mv);
		for (k = 0; k < m->n_metrics; k++)
			if (mv[k].valid)
				rowset_set_double(rs, (size_t)row, c->metric[k], mv[k].value);
	}
	if (p->uid >= 0)
		rowset_set_int(rs, (size_t)row, c->uid, p->uid);
	if (rowset_set_text(rs, (size_t)row, c->unit, p->unit) < 0 ||
	    rowset_set_text(rs, (size_t)row, c->cmdline, p->cmdline) < 0)
		return -ENOMEM;
	rowset_set_int(rs, (size_t)row, c->start, (int64_t)p->start_ns);
	return 0;
}

void top_rows_list_columns(const struct rowset *rs, char *buf, size_t len)
{
	size_t used = 0, i;

	buf[0] = '\0';
	for (i = 0; i < rs->n_cols && used < len; i++) {
		int n = snprintf(buf + used, len - used, "%s%s", i ? ", " : "", rs->cols[i].name);

		if (n > 0)
			used += (size_t)n;
	}
}

static bool kept(const struct window_proc *p, const struct top_filter *f)
{
	if (!f->include_idle && p->pid <= 0)
		return false;
	if (f->uid >= 0 && p->uid != f->uid)
		return false;
	if (f->comm != NULL && strcmp(p->comm, f->comm) != 0)
		return false;
	if (f->unit != NULL && (p->unit == NULL || strcmp(p->unit, f->unit) != 0))
		return false;
	return true;
}

int top_rows_build(const struct window *w, const struct top_filter *f, struct rowset *rs)
{
	struct top_columns cols;
	size_t i;
	int r;

	memset(&cols, -1, sizeof(cols));
	r = build_columns(rs, w->model, &cols);
	for (i = 0; r == 0 && i < w->n_procs; i++)
		if (kept(&w->procs[i], f))
			r = fill_row(rs, w, &w->procs[i], &cols);
	return r < 0 ? -ENOMEM : 0;
}

const char *top_rows_sort_column(const char *name)
{
	return strcmp(name, "cpu") == 0 ? "task_clock_ns" : name;
}
