/*
 * perfstat.c - reading `perf stat -x,` recordings (see perfstat.h).
 *
 * Line shapes: value,unit,event,run_time,running%,metric,metric unit; with
 * -I the time comes first; then an aggregation id may come before the
 * value: CPU3 (-A), S0-D0-C1 / S0-D0 / S0 / N0 followed by the number of
 * CPUs (--per-core, --per-die, --per-socket, --per-node), comm-pid
 * (--per-thread).  perf prints an event name with terms as given, commas
 * and all ("cpu/event=0x1a0,umask=0x1/"), so a name whose '/' or '@' is
 * unbalanced continues in the next field.  perf has already scaled
 * multiplexed counts; running% says how much was measured.
 */
#include "cli/perfstat.h"
#include "lib/clock.h"
#include "cli/event_id.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Fields of one line: time, aggregation id, CPUs, value, unit, an event
 * name split at each of its commas, run time, running %, metric, unit. */
#define MAX_FIELDS 48

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

/* Add a count; the lines of one (name, occurrence) from each CPU, core,
 * socket or thread are summed, but the run's duration_time, which is one
 * wall time however many rows show it. */
static int add_count(struct ps_interval *iv, unsigned name, bool is_duration, unsigned occ,
		     bool counted, double value, double running)
{
	struct ps_count *c;
	size_t i;

	for (i = 0; i < iv->n; i++) {
		c = &iv->counts[i];
		if (c->occurrence != occ || c->name != name)
			continue;
		if (!is_duration)
			c->value += value;
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
						 .counted = counted, .running = running };
	return 0;
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
		if (strcmp(rec->names[i].key, key) != 0)
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
	double last_time;   /* of the interval being read (-I); NaN before */
	bool decided;       /* whether this is an -I recording is known */
	unsigned lineno;
	char *err;
	size_t errlen;
};

/* One count line, parsed. */
struct ps_line {
	double t;           /* NaN without -I */
	const char *row;    /* "CPU3", "S0-D0-C1", "comm-pid"; NULL: the whole run */
	const char *event;  /* as perf printed it */
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

/* What perf puts before the value to say whose count a line is. */
enum row_kind {
	ROW_NONE,
	ROW_CPU,      /* CPU3 (-A) */
	ROW_GROUP,    /* S0-D0-C1, S0-D0, S0, N0: then the number of CPUs */
	ROW_THREAD,   /* comm-pid (--per-thread) */
};

/* "S0", "S0-D1", "S0-D0-C3", "S0-D0-L3-ID2", "N1": socket, die, core,
 * cache, node.  A thread "S0-123" is not one. */
static bool is_group_id(const char *s)
{
	const char *p = s;

	if (*p != 'S' && *p != 'N')
		return false;
	for (;;) {
		size_t n = strspn(p, "SDCNLI");

		if (n == 0 || n > 2 || !isdigit((unsigned char)p[n]))
			return false;
		p += n + strspn(p + n, "0123456789");
		if (*p == '\0')
			return true;
		if (*p++ != '-')
			return false;
	}
}

static enum row_kind row_kind(const char *s)
{
	const char *dash;
	double v;

	if (s[0] == '\0' || s[0] == '<' || is_number(s, &v))
		return ROW_NONE;
	if (strncmp(s, "CPU", 3) == 0 && isdigit((unsigned char)s[3]))
		return ROW_CPU;
	if (is_group_id(s))
		return ROW_GROUP;
	dash = strrchr(s, '-');
	if (dash != NULL && dash[1] != '\0' && strspn(dash + 1, "0123456789") == strlen(dash + 1))
		return ROW_THREAD;
	return ROW_NONE;
}

/* Whether a name's '/' or '@' pair (or a "\," escape) is still open. */
static bool name_open(const char *s)
{
	size_t slashes = 0, ats = 0, len = strlen(s), i;

	for (i = 0; i < len; i++) {
		slashes += s[i] == '/';
		ats += s[i] == '@';
	}
	return slashes % 2 == 1 || ats % 2 == 1 || (len > 0 && s[len - 1] == '\\');
}

/* Join fields at..: an event name perf printed with its commas.  split()
 * cut the line in place, so the fields are contiguous: put the commas
 * back.  Returns the new number of fields. */
static size_t join_name(char **fld, size_t n, size_t at)
{
	while (at + 1 < n && name_open(fld[at])) {
		fld[at][strlen(fld[at])] = ',';
		memmove(&fld[at + 1], &fld[at + 2], (n - at - 2) * sizeof(*fld));
		n--;
	}
	return n;
}

/* The first line decides whether this is an -I recording: then a time
 * comes first and the 2nd field is a value or a row id, not a unit. */
static void decide_interval(struct reader *rd, char **fld, size_t n)
{
	double probe;

	rd->rec->interval_mode = n >= 4 && is_number(fld[0], &probe) &&
				 (is_number(fld[1], &probe) || fld[1][0] == '<' ||
				  row_kind(fld[1]) != ROW_NONE);
	rd->decided = true;
}

/* The n fields of a count line into pl.  0 or -EINVAL. */
static int parse_fields(struct reader *rd, char **fld, size_t n, struct ps_line *pl)
{
	size_t at = 0;
	enum row_kind kind;
	double pct, cpus;

	if (!rd->decided)
		decide_interval(rd, fld, n);
	*pl = (struct ps_line){ .t = NAN, .running = 1.0, .counted = true };
	if (rd->rec->interval_mode) {
		if (!is_number(fld[0], &pl->t)) {
			snprintf(rd->err, rd->errlen, "line %u: time '%s' is not a number (an -I "
				 "recording starts every line with the time)", rd->lineno, fld[0]);
			return -EINVAL;
		}
		at = 1;
	}
	kind = at < n ? row_kind(fld[at]) : ROW_NONE;
	if (kind != ROW_NONE)
		pl->row = fld[at++];
	if (kind == ROW_GROUP && at < n && is_number(fld[at], &cpus))
		at++;  /* how many CPUs the core, die or socket has */
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
	n = join_name(fld, n, at + 2);
	if (fld[at + 2][0] == '\0') {
		snprintf(rd->err, rd->errlen, "line %u: no event name", rd->lineno);
		return -EINVAL;
	}
	pl->event = fld[at + 2];
	if (strcmp(fld[at + 1], "msec") == 0)
		pl->v *= (double)NS_PER_MSEC;  /* task-clock, cpu-clock: store ns */
	/* -r N puts the variance ("3.25%") before run time and running %. */
	if (n > at + 3 && fld[at + 3][0] != '\0' && fld[at + 3][strlen(fld[at + 3]) - 1] == '%')
		at++;
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
	int occ, name;

	if (!isnan(pl->t) && (isnan(rd->last_time) || pl->t != rd->last_time)) {
		seen_clear(&rd->seen);
		rd->last_time = pl->t;
	}
	iv = interval_for(rd->rec, pl->t);
	name = name_index(rd->rec, pl->event);
	if (iv == NULL || name < 0)
		goto oom;
	note_modifiers(rd->rec, pl->event);
	snprintf(key, sizeof(key), "%s|%d", pl->row ? pl->row : "", name);
	occ = occurrence(&rd->seen, key);
	if (occ < 0 || add_count(iv, (unsigned)name,
				 strcmp(rd->rec->names[name].key, "duration_time") == 0,
				 (unsigned)occ, pl->counted, pl->v, pl->running) < 0)
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
		/* -I --summary repeats the whole run's totals: the intervals
		 * already hold them. */
		if (strncmp(line + strspn(line, " "), "summary,", 8) == 0)
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
	free(rec->names);
	memset(rec, 0, sizeof(*rec));
}
