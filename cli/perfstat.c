/*
 * perfstat.c - reading `perf stat` recordings (see perfstat.h): each line
 * goes to the parser of its format (perfstat_csv.c, perfstat_human.c,
 * perfstat_json.c), and its count to its interval, summed over the rows
 * (CPUs, cores, sockets, threads) perf printed it for; perf's metric
 * figures are kept beside (perfstat_printed.c).
 */
#include "cli/perfstat.h"
#include "lib/clock.h"
#include "cli/event_id.h"
#include "cli/perfstat_line.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

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

/* Add a count; the lines of one (name, occurrence) from each CPU, core,
 * socket or thread are summed, but the run's duration_time, which is one
 * wall time however many rows show it. */
static int add_count(struct ps_interval *iv, unsigned name, bool is_duration, unsigned occ,
		     bool counted, double value, double running, double err)
{
	struct ps_count *c;
	size_t i;

	for (i = 0; i < iv->n; i++) {
		c = &iv->counts[i];
		if (c->occurrence != occ || c->name != name)
			continue;
		if (!is_duration) {
			c->value += value;
			c->err += err;
		}
		else if (value > c->value)
			c->value = value;
		c->counted = c->counted && counted;
		if (running < c->running)
			c->running = running;
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
	iv->counts[iv->n++] = (struct ps_count){ .name = name, .occurrence = occ, .value = value,
						 .counted = counted, .running = running,
						 .err = err };
	return 0;
}

/* Whether two spellings name one hybrid core PMU, or none: a hybrid's
 * "cpu_core/cycles/" and "cpu_atom/cycles/" are two counts. */
static bool same_core_pmu(const char *a, const char *b)
{
	size_t na = strncmp(a, "cpu_", 4) == 0 ? strcspn(a, "/") : 0;
	size_t nb = strncmp(b, "cpu_", 4) == 0 ? strcspn(b, "/") : 0;

	return na == nb && strncmp(a, b, na) == 0;
}

/* The index of the name spelled so in rec->names, added if new; -ENOMEM.
 * Spellings of one count are one name, and their lines its copies (one a
 * group); other privilege modifiers make another count: "EV:k" is the
 * kernel's part of EV, which perf's metrics read beside EV itself
 * (tma_info_system_kernel_utilization). */
static int name_index(struct ps_recording *rec, const char *spelling)
{
	char key[sizeof(rec->names[0].key)], mods[8], other[8];
	size_t i;

	event_id_normalise(spelling, key, sizeof(key));
	event_id_modifiers(spelling, mods, sizeof(mods));
	for (i = 0; i < rec->n_names; i++) {
		if (strcmp(rec->names[i].key, key) != 0 ||
		    !same_core_pmu(rec->names[i].spelling, spelling))
			continue;
		event_id_modifiers(rec->names[i].spelling, other, sizeof(other));
		if (strcmp(mods, other) == 0)
			return (int)i;
	}
	if (rec->n_names == rec->cap_names) {
		size_t cap = rec->cap_names ? rec->cap_names * 2 : 32;
		void *p = realloc(rec->names, cap * sizeof(*rec->names));

		if (p == NULL)
			return -ENOMEM;
		rec->names = p;
		rec->cap_names = cap;
	}
	snprintf(rec->names[i].key, sizeof(rec->names[i].key), "%s", key);
	snprintf(rec->names[i].spelling, sizeof(rec->names[i].spelling), "%s", spelling);
	rec->n_names++;
	return (int)i;
}

/* Note the privilege modifiers of an event ("u" of "cycles:u"). */
static void note_modifiers(struct ps_recording *rec, const char *spelling)
{
	char mods[sizeof(rec->modifiers[0])];
	unsigned i;

	event_id_modifiers(spelling, mods, sizeof(mods));
	for (i = 0; i < rec->n_modifiers; i++)
		if (strcmp(rec->modifiers[i], mods) == 0)
			return;
	if (rec->n_modifiers < PS_MAX_MODIFIER_SETS)
		snprintf(rec->modifiers[rec->n_modifiers++], sizeof(mods), "%s", mods);
}

/* How often each "row|event" key was seen in the current interval: the nth
 * line of an event for one CPU (core, socket, thread) is the nth group's
 * copy of it.  A hash
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
	struct ps_csv_state csv;
	double last_time;   /* of the interval being read (-I); NaN before */
	unsigned lineno;
	char event[96];     /* the count perf's next metric rows belong to */
	char pmu[16];       /* its core PMU, or its metric group's */
	char *err;
	size_t errlen;
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

/* The core PMU a name or group header names: "cpu_core" of
 * "cpu_core/cycles/" or of "TopdownL1 (cpu_core)"; "" none. */
static void pmu_of(const char *s, bool header, char *out, size_t len)
{
	const char *open = header ? strrchr(s, '(') : s;
	size_t n;

	out[0] = '\0';
	if (open == NULL)
		return;
	open += header;
	n = strcspn(open, header ? ")" : "/");
	if (strncmp(open, "cpu_", 4) == 0 && open[n] != '\0' && n < len)
		snprintf(out, len, "%.*s", (int)n, open);
}

/* Add a count to its interval, as the nth copy of its event.  0 or
 * -ENOMEM. */
static int add_count_line(struct reader *rd, struct ps_interval *iv, const struct ps_line *pl)
{
	double v = pl->v, err = pl->err;
	char key[160];
	int occ, name;

	name = name_index(rd->rec, pl->event);
	if (name < 0)
		return -ENOMEM;
	note_modifiers(rd->rec, pl->event);
	if (strcmp(pl->unit, "msec") == 0) {
		v *= (double)NS_PER_MSEC;  /* task-clock, cpu-clock: store ns */
		err *= (double)NS_PER_MSEC;
	}
	snprintf(key, sizeof(key), "%s|%d", pl->row ? pl->row : "", name);
	occ = occurrence(&rd->seen, key);
	if (occ < 0 || add_count(iv, (unsigned)name,
				 strcmp(rd->rec->names[name].key, "duration_time") == 0,
				 (unsigned)occ, pl->counted, v, pl->running, err) < 0)
		return -ENOMEM;
	return 0;
}

/* Add a parsed line: its count, and perf's figure printed with it (of the
 * last count when the line has none).  0 or -ENOMEM. */
static int add_line(struct reader *rd, const struct ps_line *pl)
{
	struct ps_interval *iv;

	if (!isnan(pl->t)) {
		rd->rec->interval_mode = true;
		if (isnan(rd->last_time) || pl->t != rd->last_time) {
			seen_clear(&rd->seen);
			rd->last_time = pl->t;
		}
	}
	iv = interval_for(rd->rec, pl->t);
	if (iv == NULL)
		goto oom;
	if (pl->event != NULL) {
		snprintf(rd->event, sizeof(rd->event), "%s", pl->event);
		pmu_of(pl->event, false, rd->pmu, sizeof(rd->pmu));
		if (add_count_line(rd, iv, pl) < 0)
			goto oom;
	} else if (pl->group != NULL) {
		rd->event[0] = '\0';
		pmu_of(pl->group, true, rd->pmu, sizeof(rd->pmu));
	}
	if (pl->mvalue != NULL &&
	    perfstat_add_printed(rd->rec, (size_t)(iv - rd->rec->iv), rd->lineno, pl->row,
				 rd->pmu, rd->event, pl->mvalue, pl->mtext) < 0)
		goto oom;
	if (pl->mvalue2 != NULL &&
	    perfstat_add_printed(rd->rec, (size_t)(iv - rd->rec->iv), rd->lineno, pl->row,
				 rd->pmu, rd->event, pl->mvalue2, pl->mtext2) < 0)
		goto oom;
	return 0;
oom:
	snprintf(rd->err, rd->errlen, "out of memory");
	return -ENOMEM;
}

/* One line in whichever format it is written: its verdict, or -EINVAL with
 * the reason in why. */
static int parse_line(struct reader *rd, char *line, struct ps_line *pl, char *why, size_t len)
{
	const char *p = line + strspn(line, " \t");

	if (*p == '{')
		return perfstat_json_line(line, pl, why, len);
	/* a line without blanks in a CSV file is a (short) CSV line */
	if (perfstat_is_csv(line) || (rd->csv.decided && strpbrk(p, " \t") == NULL))
		return perfstat_csv_line(line, &rd->csv, pl, why, len);
	return perfstat_human_line(line, pl, &rd->rec->elapsed, why, len);
}

/* Read one line (not blank, not a comment); 0, or -EINVAL / -ENOMEM said. */
static int read_line(struct reader *rd, char *line)
{
	char why[160];
	struct ps_line pl;
	int r;

	r = parse_line(rd, line, &pl, why, sizeof(why));
	if (r == PS_LINE_COUNT)
		return add_line(rd, &pl);
	if (r == PS_LINE_SKIP)
		return perfstat_add_skipped(rd->rec, rd->lineno, why);
	if (r < 0)
		snprintf(rd->err, rd->errlen, "line %u: %s", rd->lineno, why);
	return r < 0 ? r : 0;
}

/* A comment ("# started on ...", the -I header), not one of perf's metric
 * lines, which start with '#' too when nothing precedes them: "#  35.0 %
 * tma_retiring" (a figure after the '#'). */
static bool is_comment(const char *p)
{
	double v;
	char fig[32];

	if (*p != '#')
		return false;
	p += 1 + strspn(p + 1, " ");
	snprintf(fig, sizeof(fig), "%.*s", (int)strcspn(p, " %"), p);
	return !perfstat_number(fig, true, &v) || p[strlen(fig)] == '\0';
}

int perfstat_read(FILE *f, struct ps_recording *rec, char *err, size_t errlen)
{
	struct reader rd = { .rec = rec, .last_time = NAN, .err = err, .errlen = errlen };
	char line[4096];
	int r = 0;

	memset(rec, 0, sizeof(*rec));
	while (r == 0 && fgets(line, sizeof(line), f) != NULL) {
		const char *p;

		rd.lineno++;
		r = check_text(&rd, f, line, sizeof(line));
		if (r < 0)
			break;
		line[strcspn(line, "\r\n")] = '\0';
		p = line + strspn(line, " \t");
		if (is_comment(p))
			perfstat_note_cpuid(rec, p);
		/* -I --summary repeats the whole run's totals: the intervals
		 * already hold them. */
		if (is_comment(p) || *p == '\0' || strncmp(p, "summary,", 8) == 0)
			continue;
		r = read_line(&rd, line);
		if (r == -ENOMEM)
			snprintf(err, errlen, "out of memory");
	}
	if (r == 0 && ferror(f)) {
		snprintf(err, errlen, "read error");
		r = -EIO;
	} else if (r == 0 && rec->n == 0) {
		snprintf(err, errlen, "line %u: no counts found (%s)", rd.lineno,
			 rec->n_skipped ? "no line is perf stat's output" : "empty file?");
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
	free(rec->names);
	free(rec->printed);
	free(rec->skipped);
	memset(rec, 0, sizeof(*rec));
}
