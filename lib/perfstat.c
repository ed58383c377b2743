/*
 * perfstat.c - `perf stat -x,` recordings (see perfstat.h).
 *
 * Line shapes: value,unit,event,run_time,running%,... ; with -I the time
 * comes first; with -A a CPU name (CPU3) comes before the value.  perf has
 * already scaled multiplexed counts; running% says how much was measured.
 */
#include "perfstat.h"
#include "clock.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define MAX_FIELDS 16

/* Names that mean the same count across vendors and tools. */
static const char *const synonyms[][2] = {
	{ "cpu-cycles", "cycles" },
	{ "cpu_clk_unhalted.thread", "cycles" },
	{ "cpu_clk_unhalted.thread_p", "cycles" },
	{ "cpu_clk_unhalted.core", "cycles" },
	{ "ls_not_halted_cyc", "cycles" },
	{ "cycles_not_in_halt", "cycles" },
	{ "inst_retired.any", "instructions" },
	{ "inst_retired.any_p", "instructions" },
	{ "ex_ret_instr", "instructions" },
	{ "retired_instructions", "instructions" },
	{ "topdown.slots", "slots" },
	{ "cpu_cycles", "cycles" },        /* Arm */
	{ "inst_retired", "instructions" },
};

void perfstat_normalise(const char *in, char *out, size_t len)
{
	const char *p = in, *slash, *colon;
	size_t n = 0, i;

	/* "cpu/topdown-fe-bound/", "cpu_core/cycles/": the PMU prefix goes,
	 * unless the inside has terms (raw "cpu/event=0x1a0,.../"). */
	slash = strchr(p, '/');
	if (slash != NULL && strchr(slash + 1, '=') == NULL) {
		p = slash + 1;
	}
	for (; *p != '\0' && n + 1 < len; p++) {
		if (*p == '/' && p[1] == '\0' && p != in && strchr(in, '=') == NULL)
			break;
		out[n++] = (char)tolower((unsigned char)*p);
	}
	out[n] = '\0';
	/* Trailing perf modifiers ":u", ":k", ":ukp" go. */
	colon = strrchr(out, ':');
	if (colon != NULL && colon[1] != '\0' && strspn(colon + 1, "ukhpgs") == strlen(colon + 1))
		out[colon - out] = '\0';
	/* libpfm4's ':' between event and umask is perf's '.' */
	for (i = 0; out[i] != '\0'; i++)
		if (out[i] == ':')
			out[i] = '.';
	for (i = 0; i < sizeof(synonyms) / sizeof(synonyms[0]); i++)
		if (strcmp(out, synonyms[i][0]) == 0) {
			snprintf(out, len, "%s", synonyms[i][1]);
			break;
		}
}

static bool is_number(const char *s, double *v)
{
	char *end;

	if (*s == '\0')
		return false;
	errno = 0;
	*v = strtod(s, &end);
	return errno == 0 && *end == '\0' && isfinite(*v);
}

static size_t split(char *line, char **f)
{
	size_t n = 0;
	char *p = line;

	for (;;) {
		char *c = strchr(p, ',');

		if (n == MAX_FIELDS)
			break;
		f[n++] = p;
		if (c == NULL)
			break;
		*c = '\0';
		p = c + 1;
	}
	return n;
}

static struct ps_interval *interval_for(struct ps_recording *rec, double t)
{
	struct ps_interval *iv;

	if (rec->n > 0) {
		iv = &rec->iv[rec->n - 1];
		if ((isnan(t) && isnan(iv->time)) || iv->time == t)
			return iv;
	}
	if (rec->n == rec->cap) {
		size_t cap = rec->cap ? rec->cap * 2 : 8;
		void *p = realloc(rec->iv, cap * sizeof(*rec->iv));

		if (p == NULL)
			return NULL;
		rec->iv = p;
		rec->cap = cap;
	}
	iv = &rec->iv[rec->n++];
	memset(iv, 0, sizeof(*iv));
	iv->time = t;
	return iv;
}

/* Add a count; per-CPU lines of the same (name, occurrence) are summed. */
static int add_count(struct ps_interval *iv, const char *name, unsigned occ, bool counted,
		     double value, double running)
{
	size_t i;

	for (i = 0; i < iv->n; i++)
		if (iv->counts[i].occurrence == occ && strcmp(iv->counts[i].name, name) == 0) {
			iv->counts[i].value += value;
			iv->counts[i].counted = iv->counts[i].counted && counted;
			if (running < iv->counts[i].running)
				iv->counts[i].running = running;
			return 0;
		}
	if (iv->n == iv->cap) {
		size_t cap = iv->cap ? iv->cap * 2 : 32;
		void *p = realloc(iv->counts, cap * sizeof(*iv->counts));

		if (p == NULL)
			return -ENOMEM;
		iv->counts = p;
		iv->cap = cap;
	}
	memset(&iv->counts[iv->n], 0, sizeof(iv->counts[0]));
	snprintf(iv->counts[iv->n].name, sizeof(iv->counts[0].name), "%s", name);
	iv->counts[iv->n].occurrence = occ;
	iv->counts[iv->n].value = value;
	iv->counts[iv->n].counted = counted;
	iv->counts[iv->n].running = running;
	iv->n++;
	return 0;
}

/* How often each "cpu|event" key was seen in the current interval: the nth
 * line of an event for one CPU is the nth group's copy of it.  A hash
 * table: a -A recording of a big host has tens of thousands of lines per
 * interval. */
struct seen_key {
	char key[160];
	unsigned n;  /* 0: empty slot */
};

struct seen_keys {
	struct seen_key *k;
	size_t used, cap;  /* cap is a power of two */
};

static uint64_t hash(const char *s)
{
	uint64_t h = 1469598103934665603ULL;  /* FNV-1a */

	for (; *s != '\0'; s++)
		h = (h ^ (unsigned char)*s) * 1099511628211ULL;
	return h;
}

static struct seen_key *slot(struct seen_key *k, size_t cap, const char *key)
{
	size_t i = (size_t)hash(key) & (cap - 1);

	while (k[i].n != 0 && strcmp(k[i].key, key) != 0)
		i = (i + 1) & (cap - 1);
	return &k[i];
}

static int seen_grow(struct seen_keys *seen)
{
	size_t cap = seen->cap ? seen->cap * 2 : 256, i;
	struct seen_key *k = calloc(cap, sizeof(*k));

	if (k == NULL)
		return -ENOMEM;
	for (i = 0; i < seen->cap; i++)
		if (seen->k[i].n != 0)
			*slot(k, cap, seen->k[i].key) = seen->k[i];
	free(seen->k);
	seen->k = k;
	seen->cap = cap;
	return 0;
}

static void seen_clear(struct seen_keys *seen)
{
	if (seen->k != NULL)
		memset(seen->k, 0, seen->cap * sizeof(*seen->k));
	seen->used = 0;
}

/* Returns the key's count before this line (its occurrence), or -ENOMEM. */
static int occurrence(struct seen_keys *seen, const char *key)
{
	struct seen_key *k;

	if (2 * (seen->used + 1) > seen->cap && seen_grow(seen) < 0)
		return -ENOMEM;
	k = slot(seen->k, seen->cap, key);
	if (k->n == 0) {
		snprintf(k->key, sizeof(k->key), "%s", key);
		seen->used++;
	}
	return (int)k->n++;
}

/* perfstat_read()'s state between lines. */
struct reader {
	struct ps_recording *rec;
	struct seen_keys seen;
	double last_time;   /* of the interval being read (-I); NaN before */
	bool decided;       /* whether this is an -I recording is known */
	unsigned lineno;
	char *err;
	size_t errlen;
};

/* One count line, parsed. */
struct ps_line {
	double t;           /* NaN without -I */
	const char *cpu;    /* "CPU3" with -A, else NULL */
	char name[128];     /* normalised event name */
	double v, running;
	bool counted;
};

/* Refuse what is not a line of text: control characters, a NUL (fgets
 * stops there), or a line longer than the buffer.  0 or -EINVAL. */
static int check_text(struct reader *rd, FILE *f, const char *line, size_t size)
{
	size_t len = strlen(line), i;

	for (i = 0; i < len; i++)
		if ((unsigned char)line[i] < 0x20 && line[i] != '\n' && line[i] != '\r' &&
		    line[i] != '\t') {
			snprintf(rd->err, rd->errlen, "line %u: not text (binary data?)",
				 rd->lineno);
			return -EINVAL;
		}
	/* fgets stops at a NUL: a shorter line than the buffer that does not
	 * end in a newline before EOF held one (binary data). */
	if (len < size - 1 && (len == 0 || line[len - 1] != '\n') && !feof(f)) {
		snprintf(rd->err, rd->errlen, "line %u: not text (binary data?)", rd->lineno);
		return -EINVAL;
	}
	if (len > 0 && line[len - 1] != '\n' && !feof(f)) {
		snprintf(rd->err, rd->errlen, "line %u: not a perf stat line (too long or binary)",
			 rd->lineno);
		return -EINVAL;
	}
	return 0;
}

/* The n fields of a count line into pl; the first line decides whether
 * this is an -I recording.  0 or -EINVAL. */
static int parse_fields(struct reader *rd, char **fld, size_t n, struct ps_line *pl)
{
	size_t at = 0;
	double pct;

	if (!rd->decided) {
		double probe;

		/* -I puts a time first: then the 2nd field is a value or a CPU. */
		rd->rec->interval_mode = n >= 4 && is_number(fld[0], &probe) &&
					 (is_number(fld[1], &probe) || fld[1][0] == '<' ||
					  strncmp(fld[1], "CPU", 3) == 0);
		rd->decided = true;
	}
	*pl = (struct ps_line){ .t = NAN, .running = 1.0, .counted = true };
	if (rd->rec->interval_mode) {
		if (!is_number(fld[0], &pl->t)) {
			snprintf(rd->err, rd->errlen, "line %u: time '%s' is not a number (an -I "
				 "recording starts every line with the time)", rd->lineno, fld[0]);
			return -EINVAL;
		}
		at = 1;
	}
	if (at < n && strncmp(fld[at], "CPU", 3) == 0)
		pl->cpu = fld[at++];
	if (n < at + 3) {
		snprintf(rd->err, rd->errlen, "line %u: too short: expected value,unit,event,... "
			 "(perf stat -x,), got %zu field%s", rd->lineno, n, n == 1 ? "" : "s");
		return -EINVAL;
	}
	if (fld[at][0] == '<') {
		pl->counted = false;  /* <not counted>, <not supported> */
	} else if (!is_number(fld[at], &pl->v) || pl->v < 0) {
		snprintf(rd->err, rd->errlen, "line %u: value '%s' is not a count", rd->lineno,
			 fld[at]);
		return -EINVAL;
	}
	if (fld[at + 2][0] == '\0') {
		snprintf(rd->err, rd->errlen, "line %u: no event name", rd->lineno);
		return -EINVAL;
	}
	perfstat_normalise(fld[at + 2], pl->name, sizeof(pl->name));
	if (strcmp(pl->name, "task-clock") == 0 && strcmp(fld[at + 1], "msec") == 0)
		pl->v *= (double)NS_PER_MSEC;  /* perf prints task-clock in msec: store ns */
	if (n > at + 4 && is_number(fld[at + 4], &pct))
		pl->running = pct / 100.0;
	return 0;
}

/* Add a parsed line to its interval, as the nth copy of its event.
 * 0 or -ENOMEM. */
static int add_line(struct reader *rd, const struct ps_line *pl)
{
	struct ps_interval *iv;
	char key[160];
	int occ;

	if (!isnan(pl->t) && (isnan(rd->last_time) || pl->t != rd->last_time)) {
		seen_clear(&rd->seen);
		rd->last_time = pl->t;
	}
	iv = interval_for(rd->rec, pl->t);
	if (iv == NULL)
		goto oom;
	snprintf(key, sizeof(key), "%s|%s", pl->cpu ? pl->cpu : "", pl->name);
	occ = occurrence(&rd->seen, key);
	if (occ < 0 || add_count(iv, pl->name, (unsigned)occ, pl->counted, pl->v,
				 pl->running) < 0)
		goto oom;
	return 0;
oom:
	snprintf(rd->err, rd->errlen, "out of memory");
	return -ENOMEM;
}

int perfstat_read(FILE *f, struct ps_recording *rec, char *err, size_t errlen)
{
	struct reader rd = { .rec = rec, .last_time = NAN, .err = err, .errlen = errlen };
	char line[4096], *fld[MAX_FIELDS];
	struct ps_line pl;
	int r = 0;

	memset(rec, 0, sizeof(*rec));
	while (r == 0 && fgets(line, sizeof(line), f) != NULL) {
		rd.lineno++;
		r = check_text(&rd, f, line, sizeof(line));
		if (r < 0)
			break;
		line[strcspn(line, "\r\n")] = '\0';
		if (line[0] == '#' || line[strspn(line, " \t")] == '\0')
			continue;
		r = parse_fields(&rd, fld, split(line, fld), &pl);
		if (r == 0)
			r = add_line(&rd, &pl);
	}
	if (r == 0 && ferror(f)) {
		snprintf(err, errlen, "read error");
		r = -EIO;
	} else if (r == 0 && rec->n == 0) {
		snprintf(err, errlen, "line %u: no counts found (empty file?)", rd.lineno);
		r = -EINVAL;
	}
	free(rd.seen.k);
	return r;
}

void perfstat_free(struct ps_recording *rec)
{
	size_t i;

	for (i = 0; i < rec->n; i++)
		free(rec->iv[i].counts);
	free(rec->iv);
	memset(rec, 0, sizeof(*rec));
}

static void event_key(const struct model_event *e, char *out, size_t len)
{
	perfstat_normalise(model_event_perf_name(e), out, len);
}

static const struct ps_count *find(const struct ps_interval *iv, const char *name, unsigned occ)
{
	const struct ps_count *any = NULL;
	size_t i;

	for (i = 0; i < iv->n; i++)
		if (strcmp(iv->counts[i].name, name) == 0) {
			if (iv->counts[i].occurrence == occ)
				return &iv->counts[i];
			if (any == NULL)
				any = &iv->counts[i];
		}
	return any;  /* one recording of an event serves every group */
}

unsigned perfstat_events_found(const struct ps_recording *rec, const struct model *m,
			       unsigned *n_events)
{
	char key[128], seen[MODEL_MAX_GROUPS * MODEL_MAX_EVENTS][128];
	unsigned g, e, i, n = 0, found = 0;

	for (g = 0; g < m->n_groups; g++)
		for (e = 0; e < m->groups[g].n_events; e++) {
			event_key(&m->groups[g].events[e], key, sizeof(key));
			for (i = 0; i < n && strcmp(seen[i], key) != 0; i++)
				;
			if (i < n)
				continue;
			snprintf(seen[n++], sizeof(seen[0]), "%s", key);
			if (find(&rec->iv[0], key, 0) != NULL)
				found++;
		}
	*n_events = n;
	return found;
}

void perfstat_group_sums(const struct ps_recording *rec, size_t interval, const struct model *m,
			 struct group_sums *sums, double *seconds)
{
	const struct ps_interval *iv = &rec->iv[interval];
	const struct ps_count *tc = find(iv, "task-clock", 0);
	unsigned occ[MODEL_MAX_GROUPS * MODEL_MAX_EVENTS] = { 0 };
	char keys[MODEL_MAX_GROUPS * MODEL_MAX_EVENTS][128], key[128];
	unsigned n_keys = 0, g, e, k;
	double secs = 0;

	if (tc != NULL && tc->counted)
		secs = tc->value / (double)NS_PER_SEC;
	else if (rec->interval_mode)
		secs = interval == 0 ? iv->time : iv->time - rec->iv[interval - 1].time;
	*seconds = secs;
	memset(sums, 0, sizeof(*sums) * m->n_groups);
	for (g = 0; g < m->n_groups; g++) {
		double running = 1.0;
		unsigned counted = 0;

		for (e = 0; e < m->groups[g].n_events; e++) {
			const struct ps_count *c;

			event_key(&m->groups[g].events[e], key, sizeof(key));
			/* The nth group naming an event takes its nth recording
			 * (perf stat -e '{...}' -e '{...}' prints them in order). */
			for (k = 0; k < n_keys && strcmp(keys[k], key) != 0; k++)
				;
			if (k == n_keys)
				snprintf(keys[n_keys++], sizeof(keys[0]), "%s", key);
			c = find(iv, key, occ[k]++);
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
	}
}
