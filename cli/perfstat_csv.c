/*
 * perfstat_csv.c - one line of `perf stat -x,` (see perfstat_line.h).
 *
 * Line shapes: value,unit,event,run_time,running%,metric,metric unit; with
 * -I the time comes first; then an aggregation id may come before the
 * value: CPU3 (-A), S0-D0-C1 / S0-D0 / S0 / N0 followed by the number of
 * CPUs (--per-core, --per-die, --per-socket, --per-node), comm-pid
 * (--per-thread).  perf prints an event name with terms as given, commas
 * and all ("cpu/event=0x1a0,umask=0x1/"), so a name whose '/' or '@' is
 * unbalanced continues in the next field.  perf has already scaled
 * multiplexed counts; running% says how much was measured.
 *
 * perf's other metrics of one event go on rows of their own,
 * "[time,][id,],,,,,figure,unit" (new_line_csv() pads four separators,
 * print_metric_csv() adds ",figure,unit"), and perf >= 6.5's default
 * metric groups start with "[time,][id,],run_time,running%,,,,TopdownL1"
 * (print_metricgroup_header_csv(), tools/perf/util/stat-display.c).
 */
#include "cli/perfstat_line.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Fields of one line: time, aggregation id, CPUs, value, unit, an event
 * name split at each of its commas, run time, running %, metric, unit. */
#define MAX_FIELDS 48

bool perfstat_number(const char *s, bool grouped, double *v)
{
	char buf[64], *end;
	size_t n = 0;

	if (*s == '\0')
		return false;
	/* "1,234,567.89": perf's %'f in the C/en_US locale groups by three */
	for (; *s != '\0' && n + 1 < sizeof(buf); s++)
		if (!grouped || *s != ',')
			buf[n++] = *s;
		else if (n == 0 || strspn(s + 1, "0123456789") < 3)
			return false;
	buf[n] = '\0';
	errno = 0;
	*v = strtod(buf, &end);
	return errno == 0 && *end == '\0' && end != buf && isfinite(*v);
}

double perfstat_half_ulp(const char *s)
{
	const char *dot = strchr(s, '.');
	size_t n = dot != NULL ? strspn(dot + 1, "0123456789") : 0;

	return n == 0 ? 0 : 0.5 * pow(10.0, -(double)n);
}

static bool is_number(const char *s, double *v)
{
	return perfstat_number(s, false, v);
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

/* "S0", "S0-D1", "S0-D0-C3", "S0-D0-L3-ID2", "S0-D0-CLS1", "N1": socket,
 * die, core, cache, cluster, node.  A thread "S0-123" is not one. */
static bool is_group_id(const char *s)
{
	const char *p = s;

	if (*p != 'S' && *p != 'N')
		return false;
	for (;;) {
		size_t n = strspn(p, "SDCNLI");

		if (n == 0 || n > 3 || !isdigit((unsigned char)p[n]))
			return false;
		p += n + strspn(p + n, "0123456789");
		if (*p == '\0')
			return true;
		if (*p++ != '-')
			return false;
	}
}

bool perfstat_row_id(const char *s, bool *group)
{
	const char *dash;
	double v;

	*group = false;
	if (s[0] == '\0' || s[0] == '<' || is_number(s, &v))
		return false;
	if (strncmp(s, "CPU", 3) == 0 && s[3] != '\0' && strspn(s + 3, "0123456789") == strlen(s + 3))
		return true;
	if (is_group_id(s)) {
		*group = true;
		return true;
	}
	/* comm-pid (--per-thread) */
	dash = strrchr(s, '-');
	return dash != NULL && dash != s && dash[1] != '\0' &&
	       strspn(dash + 1, "0123456789") == strlen(dash + 1);
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

/* Whether line (leading blanks apart) is -x, CSV rather than perf's text:
 * no blank before its third separator (value,unit,event) but in "<not
 * counted>", and not a
 * grouped count of the text form ("1,234,567 cycles"). */
bool perfstat_is_csv(const char *line)
{
	const char *p = line + strspn(line, " \t");
	size_t digits = strspn(p, "0123456789"), commas = 0;

	if (strchr(p, ',') == NULL)
		return false;
	if (digits >= 1 && digits <= 3 && p[digits] == ',') {
		const char *q = p + digits;

		while (*q == ',' && strspn(q + 1, "0123456789") == 3)
			q += 4;
		if (q != p + digits && (*q == '.' || *q == ' ' || *q == '\t' || *q == '\0'))
			return false;
	}
	for (; *p != '\0' && commas < 3; p++) {
		if (*p == '<' && strchr(p, '>') != NULL)
			p = strchr(p, '>');  /* "<not counted>" has its blank */
		else if (*p == ',')
			commas++;
		else if (isspace((unsigned char)*p))
			return false;
	}
	return true;
}

/* The first line decides whether this is an -I recording: then a time
 * comes first and the 2nd field is a value or a row id, not a unit. */
static void decide_interval(struct ps_csv_state *st, char **fld, size_t n)
{
	double probe;
	bool group;

	st->interval = n >= 4 && is_number(fld[0], &probe) &&
		       (is_number(fld[1], &probe) || fld[1][0] == '<' ||
			perfstat_row_id(fld[1], &group));
	st->decided = true;
}

static bool all_empty(char **fld, size_t from, size_t to)
{
	for (; from < to; from++)
		if (fld[from][0] != '\0')
			return false;
	return true;
}

/* A row with no count: perf's further metric of the event before
 * (",,,,,figure,unit"), or a metric group's header
 * (",run_time,running%,,,,NAME"). */
static int metric_row(char **fld, size_t n, size_t at, struct ps_line *pl, char *why, size_t len)
{
	double v;

	if (n == at + 7 && all_empty(fld, at, at + 5)) {
		pl->mvalue = fld[at + 5];
		pl->mtext = fld[at + 6];
		return PS_LINE_COUNT;
	}
	if (n == at + 7 && is_number(fld[at + 1], &v) && is_number(fld[at + 2], &v) &&
	    all_empty(fld, at + 3, at + 6) && fld[at + 6][0] != '\0') {
		pl->group = fld[at + 6];
		pl->running = v / 100.0;
		return PS_LINE_COUNT;
	}
	snprintf(why, len, "no value (neither a count nor a metric row of perf stat -x,)");
	return -EINVAL;
}

int perfstat_csv_line(char *line, struct ps_csv_state *st, struct ps_line *pl, char *why,
		      size_t len)
{
	char *fld[MAX_FIELDS];
	size_t n = split(line + strspn(line, " \t"), fld), at = 0;
	bool group = false;
	double pct, cpus;

	if (!st->decided)
		decide_interval(st, fld, n);
	*pl = (struct ps_line){ .t = NAN, .running = 1.0, .counted = true, .unit = "" };
	if (st->interval) {
		if (!is_number(fld[0], &pl->t)) {
			snprintf(why, len, "time '%s' is not a number (an -I recording starts "
				 "every line with the time)", fld[0]);
			return -EINVAL;
		}
		at = 1;
	}
	if (at < n && perfstat_row_id(fld[at], &group))
		pl->row = fld[at++];
	if (group && at < n && is_number(fld[at], &cpus))
		at++;  /* how many CPUs the core, die or socket has */
	if (n < at + 3) {
		snprintf(why, len, "too short: expected value,unit,event,... (perf stat -x,), got "
			 "%zu field%s", n, n == 1 ? "" : "s");
		return -EINVAL;
	}
	if (fld[at][0] == '\0')
		return metric_row(fld, n, at, pl, why, len);
	if (fld[at][0] == '<') {
		pl->counted = false;  /* <not counted>, <not supported> */
	} else if (!is_number(fld[at], &pl->v) || pl->v < 0) {
		snprintf(why, len, "value '%s' is not a count", fld[at]);
		return -EINVAL;
	}
	pl->err = perfstat_half_ulp(fld[at]);
	n = join_name(fld, n, at + 2);
	if (fld[at + 2][0] == '\0') {
		snprintf(why, len, "no event name");
		return -EINVAL;
	}
	pl->event = fld[at + 2];
	pl->unit = fld[at + 1];
	/* -r N puts the variance ("3.25%") before run time and running %. */
	if (n > at + 3 && fld[at + 3][0] != '\0' && fld[at + 3][strlen(fld[at + 3]) - 1] == '%') {
		at++;
		pl->err = fmax(pl->err, 0.5);  /* a mean, rounded */
	}
	if (n > at + 4 && is_number(fld[at + 4], &pct))
		pl->running = pct / 100.0;
	if (n > at + 6 && fld[at + 5][0] != '\0') {
		pl->mvalue = fld[at + 5];
		pl->mtext = fld[at + 6];
	}
	return PS_LINE_COUNT;
}
