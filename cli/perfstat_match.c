/*
 * perfstat_match.c - a recording's events to a model's (see perfstat.h):
 * which recorded name counts what each model event counts, the group sums
 * of an interval, and the perf command whose output reads back.
 */
#include "cli/perfstat.h"
#include "lib/clock.h"
#include "cli/event_id.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define MAX_MODEL_EVENTS (MODEL_MAX_GROUPS * MODEL_MAX_EVENTS)

/* Names perf uses for the recording's time, and the events stackd's
 * collector counts in every group besides the model's (task-clock,
 * context switches): none is a model event, all are read. */
static bool is_time_name(const char *key)
{
	return strcmp(key, "task-clock") == 0 || strcmp(key, "duration_time") == 0 ||
	       strcmp(key, "context-switches") == 0 || strcmp(key, "cs") == 0;
}

/* Every event of m as an alias: perf's JSON name -> the libpfm4 string. */
static size_t model_aliases(const struct model *m, struct event_id_alias *al)
{
	unsigned g, e;
	size_t n = 0;

	for (g = 0; g < m->n_groups; g++)
		for (e = 0; e < m->groups[g].n_events; e++) {
			const struct model_event *ev = &m->groups[g].events[e];

			al[n++] = (struct event_id_alias){ model_event_perf_name(ev), ev->name };
		}
	return n;
}

/* The model event's identity: its libpfm4 encoding, known by perf's name. */
static void model_event_id(const struct model_event *ev, struct event_id *id)
{
	event_id_resolve(ev->name, NULL, 0, id);
	event_id_normalise(model_event_perf_name(ev), id->name, sizeof(id->name));
}

/* Count the model's distinct events (by perf name) and those found. */
static void count_found(const struct model *m, struct ps_match *mt)
{
	char (*keys)[160] = malloc(MAX_MODEL_EVENTS * sizeof(*keys));
	unsigned g, e, i, n = 0;

	mt->n_events = mt->found = 0;
	if (keys == NULL)
		return;
	for (g = 0; g < m->n_groups; g++)
		for (e = 0; e < m->groups[g].n_events; e++) {
			event_id_normalise(model_event_perf_name(&m->groups[g].events[e]), keys[n],
					   sizeof(keys[0]));
			for (i = 0; i < n && strcmp(keys[i], keys[n]) != 0; i++)
				;
			if (i < n)
				continue;
			n++;
			if (mt->name_of[g][e] != -1)
				mt->found++;
		}
	mt->n_events = n;
	free(keys);
}

/* The recorded name that counts what me counts: the first, but one without
 * privilege modifiers before the others ("EV" before "EV:k"); -1 none. */
static int name_for(const struct ps_recording *rec, const struct event_id *ids,
		    const struct event_id *me)
{
	char mods[8];
	int first = -1;
	size_t i;

	for (i = 0; i < rec->n_names; i++) {
		if (!event_id_same(me, &ids[i]))
			continue;
		event_id_modifiers(rec->names[i].spelling, mods, sizeof(mods));
		if (mods[0] == '\0')
			return (int)i;
		if (first < 0)
			first = (int)i;
	}
	return first;
}

int perfstat_match(const struct ps_recording *rec, const struct model *m, struct ps_match *mt)
{
	struct event_id_alias al[MAX_MODEL_EVENTS];
	struct event_id *ids, me;
	size_t n_al, i;
	unsigned g, e;

	memset(mt, 0, sizeof(*mt));
	ids = calloc(rec->n_names + 1, sizeof(*ids));
	mt->used = calloc(rec->n_names + 1, sizeof(*mt->used));
	mt->combined = calloc(rec->n_names + 1, sizeof(*mt->combined));
	if (ids == NULL || mt->used == NULL || mt->combined == NULL) {
		free(ids);
		perfstat_match_free(mt);
		return -ENOMEM;
	}
	event_id_use_pmu(m->pmus != NULL ? m->pmus[0] : NULL);
	n_al = model_aliases(m, al);
	for (i = 0; i < rec->n_names; i++)
		event_id_resolve(rec->names[i].spelling, al, n_al, &ids[i]);
	for (g = 0; g < m->n_groups; g++)
		for (e = 0; e < m->groups[g].n_events; e++) {
			model_event_id(&m->groups[g].events[e], &me);
			mt->name_of[g][e] = name_for(rec, ids, &me);
			if (mt->name_of[g][e] >= 0)
				mt->used[mt->name_of[g][e]] = true;
		}
	perfstat_match_combined(m, ids, rec->n_names, mt);
	free(ids);
	count_found(m, mt);
	return 0;
}

void perfstat_match_free(struct ps_match *mt)
{
	free(mt->used);
	free(mt->combined);
	mt->used = NULL;
	mt->combined = NULL;
}

unsigned perfstat_unused(const struct ps_recording *rec, const struct ps_match *mt, char *buf,
			 size_t len)
{
	size_t i, at = 0;
	unsigned n = 0;

	buf[0] = '\0';
	for (i = 0; i < rec->n_names; i++) {
		/* " other pmu": another core type's, in a hybrid's part */
		if (mt->used[i] || is_time_name(rec->names[i].key) ||
		    strcmp(rec->names[i].key, " other pmu") == 0)
			continue;
		if (at < len)
			at += (size_t)snprintf(buf + at, len - at, "%s%s", n ? ", " : "",
					       rec->names[i].spelling);
		n++;
	}
	return n;
}

static const struct ps_count *find(const struct ps_interval *iv, int name, unsigned occ)
{
	const struct ps_count *any = NULL;
	size_t i;

	for (i = 0; name >= 0 && i < iv->n; i++)
		if (iv->counts[i].name == (unsigned)name) {
			if (iv->counts[i].occurrence == occ)
				return &iv->counts[i];
			if (any == NULL)
				any = &iv->counts[i];
		}
	return any;  /* one recording of an event serves every group */
}

static const struct ps_count *find_key(const struct ps_recording *rec,
				       const struct ps_interval *iv, const char *key)
{
	size_t i;

	for (i = 0; i < rec->n_names; i++)
		if (strcmp(rec->names[i].key, key) == 0)
			return find(iv, (int)i, 0);
	return NULL;
}

/* The seconds an interval covers: CPU time (task-clock) when recorded,
 * else the run's wall time (duration_time), else the -I step. */
static double interval_seconds(const struct ps_recording *rec, size_t interval)
{
	const struct ps_interval *iv = &rec->iv[interval];
	const struct ps_count *c = find_key(rec, iv, "task-clock");

	if (c == NULL || !c->counted)
		c = find_key(rec, iv, "duration_time");
	if (c != NULL && c->counted)
		return c->value / (double)NS_PER_SEC;
	if (rec->interval_mode)
		return interval == 0 ? iv->time : iv->time - rec->iv[interval - 1].time;
	return 0;
}

double perfstat_wall_seconds(const struct ps_recording *rec, size_t interval)
{
	const struct ps_interval *iv = &rec->iv[interval];
	const struct ps_count *c = find_key(rec, iv, "duration_time");

	if (c != NULL && c->counted)
		return c->value / (double)NS_PER_SEC;
	if (rec->interval_mode)
		return interval == 0 ? iv->time : iv->time - rec->iv[interval - 1].time;
	return 0;
}

void perfstat_group_sums(const struct ps_recording *rec, const struct ps_match *mt,
			 size_t interval, const struct model *m, struct group_sums *sums,
			 double *seconds)
{
	const struct ps_interval *iv = &rec->iv[interval];
	int names[MAX_MODEL_EVENTS];
	unsigned occ[MAX_MODEL_EVENTS] = { 0 }, n_names = 0, g, e, k;
	double secs = interval_seconds(rec, interval);
	const struct ps_count *cs = find_key(rec, iv, "context-switches");

	*seconds = secs;
	if (cs == NULL || !cs->counted)
		cs = find_key(rec, iv, "cs");
	memset(sums, 0, sizeof(*sums) * m->n_groups);
	for (g = 0; g < m->n_groups; g++) {
		double running = 1.0;
		unsigned counted = 0;

		for (e = 0; e < m->groups[g].n_events; e++) {
			const struct ps_count *c;
			int name = mt->name_of[g][e];

			if (name == PS_COMBINED_ZERO) {   /* counted inside another's */
				counted++;
				continue;
			}
			/* The nth group naming an event takes its nth recording
			 * (perf stat -e '{...}' -e '{...}' prints them in order). */
			for (k = 0; k < n_names && names[k] != name; k++)
				;
			if (k == n_names)
				names[n_names++] = name;
			c = find(iv, name, occ[k]++);
			if (c == NULL || !c->counted) {
				/* A recording may hold part of a group (made by
				 * hand, or before the model grew): what needs the
				 * event is missing, the rest still computes. */
				sums[g].missing |= 1u << e;
				continue;
			}
			sums[g].v[e] = (uint64_t)llround(c->value);
			counted++;
			if (c->running < running)
				running = c->running;
		}
		if (counted == 0)
			continue;
		sums[g].present = true;
		/* Time this group measured: the recording's time x the share
		 * perf says its events were running (1 s when unknown, so
		 * coverage still reads as a share). */
		sums[g].task_clock_ns =
			(uint64_t)llround((secs > 0 ? secs : 1.0) * (double)NS_PER_SEC * running);
		/* stackd counts switches in every group while it runs: each
		 * group's share of them, as its share of the time */
		if (cs != NULL && cs->counted)
			sums[g].context_switches = (uint64_t)llround(cs->value * running);
	}
}

void perfstat_perf_command(const struct model *m, FILE *out)
{
	unsigned g, e;

	/* Our hand models' families fit a PMU whole: one perf group each.  A
	 * family made from perf's table holds every event its metrics need,
	 * which may be more than the PMU has counters (stackd splits it into
	 * parts): perf gets the events ungrouped and multiplexes them. */
	bool grouped = m->pmus != NULL;

	fprintf(out, "perf stat -x, -I 1000 -o stackd-recording.csv");
	for (g = 0; g < m->n_groups; g++) {
		fprintf(out, grouped ? " -e '{" : " -e '");
		for (e = 0; e < m->groups[g].n_events; e++)
			fprintf(out, "%s%s", e ? "," : "",
				model_event_perf_name(&m->groups[g].events[e]));
		fprintf(out, grouped ? "}'" : "'");
	}
	/* what stackd's collector counts beside every group: the CPU time
	 * rates are per second of, and the switches */
	fprintf(out, " -e task-clock,context-switches -- COMMAND\n");
}
