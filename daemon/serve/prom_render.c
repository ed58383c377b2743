/*
 * prom_render.c - the per-target families (comm, unit, process) and the
 * host's raw events in the text exposition format (prom.h says what they
 * hold; docs/api.md lists them).
 */
#include "daemon/serve/prom_private.h"
#include "lib/clock.h"
#include "lib/utf8.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

/* A label value as the format asks: valid UTF-8 (a process name may be
 * any bytes: invalid sequences become U+FFFD, lib/utf8.h), with \, " and
 * newline escaped. */
void prom_render_label(FILE *f, const char *v)
{
	size_t n;

	while (*v != '\0') {
		if (utf8_decode(v, &n) < 0)
			fputs(UTF8_REPLACEMENT, f);
		else if (*v == '\n')
			fputs("\\n", f);
		else if (*v == '\\' || *v == '"')
			fprintf(f, "\\%c", *v);
		else
			fwrite(v, 1, n, f);
		v += n;
	}
}

/* group="td_l1"; a part of a split family also part="2/3" (each part
 * counts cycles, and any fixed-counter events, of its own turns); a
 * hybrid CPU's group (model_hybrid.h: "td_l1@cpu_atom") also its
 * core_type="cpu_atom", so the rules' ratios pair each core type's own. */
static void group_labels(const struct prom *p, FILE *f, unsigned g)
{
	const struct plan_group *pg = &p->plan.groups[g];
	const char *name = p->m->groups[pg->family].name, *at = strchr(name, '@');

	if (at != NULL)
		fprintf(f, "group=\"%.*s\",core_type=\"%s\"", (int)(at - name), name, at + 1);
	else
		fprintf(f, "group=\"%s\"", name);
	if (pg->n_parts > 1)
		fprintf(f, ",part=\"%u/%u\"", pg->part, pg->n_parts);
}

/* The busy CPUs' raw counts by group: what the recording rules turn
 * into the model's figures for the host. */
void prom_render_host(const struct prom *p, FILE *f)
{
	unsigned g, k;

	fprintf(f, "# HELP stackd_host_group_seconds_total CPU time each counter group measured "
		"on the busy CPUs (the idle task left out; groups take turns).\n"
		"# TYPE stackd_host_group_seconds_total counter\n");
	for (g = 0; g < p->plan.n_groups; g++) {
		fputs("stackd_host_group_seconds_total{", f);
		group_labels(p, f, g);
		fprintf(f, "} %.9f\n", (double)p->host.tc[g] / (double)NS_PER_SEC);
	}
	fprintf(f, "# HELP stackd_host_events_total Counts of each counter group's events on the "
		"busy CPUs (the idle task left out).\n# TYPE stackd_host_events_total counter\n");
	for (g = 0; g < p->plan.n_groups; g++) {
		const struct plan_group *pg = &p->plan.groups[g];

		for (k = 0; k < pg->n_events; k++) {
			fputs("stackd_host_events_total{", f);
			group_labels(p, f, g);
			fprintf(f, ",event=\"%s\"} %" PRIu64 "\n",
				p->m->groups[pg->family].events[pg->events[k]].column, p->host.v[g][k]);
		}
	}
}

static void series_labels(FILE *f, const char *kind, const struct series *s)
{
	if (strcmp(kind, "container") == 0) {   /* prom_k8s.c */
		char part[3][PROM_KEY_MAX];

		prom_k8s_split(s->key, part);
		fputs("namespace=\"", f);
		prom_render_label(f, part[0]);
		fputs("\",pod=\"", f);
		prom_render_label(f, part[1]);
		fputs("\",container=\"", f);
		prom_render_label(f, part[2]);
		fputc('"', f);
		return;
	}
	if (strcmp(kind, "process") == 0) {
		fprintf(f, "pid=\"%" PRId32 "\",comm=\"", s->pid);
		prom_render_label(f, s->comm);
	} else {
		fprintf(f, "%s=\"", kind);
		prom_render_label(f, s->key);
	}
	fputc('"', f);
}

/* A counter's value: whole numbers in full (cycles pass 2^53 on a big
 * host within hours; the rate needs every digit a double holds). */
static void number(FILE *f, double v)
{
	if (v >= 0 && v < 1e19 && v == (double)(uint64_t)v)
		fprintf(f, "%.0f\n", v);
	else
		fprintf(f, "%.17g\n", v);
}

/* One counter family, a value per printed series. */
static void family(FILE *f, const char *kind, const char *name, const char *help,
		   struct series *const *ss, size_t n, double (*value)(const struct series *))
{
	size_t i;

	fprintf(f, "# HELP stackd_%s_%s %s, per %s.\n# TYPE stackd_%s_%s counter\n", kind, name,
		help, kind, kind, name);
	for (i = 0; i < n; i++) {
		fprintf(f, "stackd_%s_%s{", kind, name);
		series_labels(f, kind, ss[i]);
		fputs("} ", f);
		number(f, value(ss[i]));
	}
}

static double cpu_seconds(const struct series *s)
{
	return (double)s->tc / (double)NS_PER_SEC;
}

static double switches(const struct series *s)
{
	return (double)s->cs;
}

static double cycles(const struct series *s)
{
	return (double)s->cycles;
}

static double instructions(const struct series *s)
{
	return (double)s->instructions;
}

static double measured(const struct series *s)
{
	return s->td_measured_s;
}

/* Each Top-Down node as CPU seconds (prom_keys.c). */
static void topdown(const struct prom *p, FILE *f, const char *kind, struct series *const *ss,
		    size_t n)
{
	size_t i;
	unsigned k;

	family(f, kind, "topdown_measured_seconds_total", "CPU time of the intervals whose "
	       "Top-Down level 1 was computed", ss, n, measured);
	fprintf(f, "# HELP stackd_%s_topdown_seconds_total CPU time x each Top-Down node's share "
		"of the slots (rate over the rate of stackd_%s_topdown_measured_seconds_total: "
		"the node's share), per %s.\n# TYPE stackd_%s_topdown_seconds_total counter\n",
		kind, kind, kind, kind);
	for (i = 0; i < n; i++)
		for (k = 0; k < p->fig.n_nodes; k++) {
			const struct model_metric *mm = &p->m->metrics[p->fig.node[k]];

			fprintf(f, "stackd_%s_topdown_seconds_total{", kind);
			series_labels(f, kind, ss[i]);
			fprintf(f, ",node=\"%s\",level=\"%d\"} ", mm->name,
				mm->parent == NULL ? 1 : 2);
			number(f, ss[i]->td_s[k]);
		}
}

/* The printed series of t ("[other]" and the top N), busiest first. */
void prom_render_table(const struct prom *p, FILE *f, const char *kind, const struct table *t)
{
	struct series **ss;
	size_t i, n = 0;

	if (t->n == 0)
		return;
	ss = malloc(t->n * sizeof(*ss));
	if (ss == NULL)
		return;
	for (i = 0; i < t->n; i++)
		if (t->s[i].shown)
			ss[n++] = &t->s[i];
	if (n == 0) {
		free(ss);
		return;
	}
	family(f, kind, "cpu_seconds_total", "CPU time measured", ss, n, cpu_seconds);
	family(f, kind, "context_switches_total", "Context switches", ss, n, switches);
	if (p->fig.has_ipc) {
		family(f, kind, "cycles_total", "Cycles counted by the groups that also count "
		       "instructions (groups take turns: a sample, for IPC)", ss, n, cycles);
		family(f, kind, "instructions_total", "Instructions over those cycles", ss, n,
		       instructions);
	}
	if (p->fig.n_nodes > 0)
		topdown(p, f, kind, ss, n);
	free(ss);
}
