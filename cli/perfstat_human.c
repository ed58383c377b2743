/*
 * perfstat_human.c - one line of perf stat's default output (see
 * perfstat_line.h), as tools/perf/util/stat-display.c of Linux 7.2 prints
 * it and perf 5.x-6.x printed it before:
 *
 *   [time] [CPU3 | S0-D0-C1 ctrs | N0 ctrs | comm-pid] value [unit] event
 *       [# figure unit-and-name] [( +- noise% )] [(running%)]
 *
 * The count right-aligned in 18 columns with the locale's thousands
 * separators ("%'18.0f", or "%'18.2f" with a fraction), "<not counted>" or
 * "<not supported>" in its place; perf's metric after " # " ("%8.1f" then
 * "%  tma_retiring" for a table metric with a unit, "%8.2f" then the name
 * without one, "insn per cycle", "GHz", "K/sec" for its own); the running
 * share "  (%.2f%)" when the event was multiplexed.  A metric that does not
 * fit on its event's line continues on a line with only the time and row
 * id before the '#'; perf >= 6.5's default metric groups print the group's
 * name ("TopdownL1", "TopdownL1 (cpu_core)" on a hybrid) where the count
 * would be.
 */
#include "cli/perfstat_line.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_TOKENS 16

/* perf's own lines around the counts: nothing to take from them, but the
 * run's wall time. */
static bool perf_text(const char *line, double *elapsed)
{
	static const char *const texts[] = {
		"Performance counter stats for", "seconds user", "seconds sys",
		"Some events weren't counted", "Try disabling the NMI watchdog",
		"Table of individual measurements", "Final result", "perf stat record",
	};
	const char *p = strstr(line, "seconds time elapsed");
	size_t i;

	if (p != NULL) {
		*elapsed = strtod(line, NULL);
		return true;
	}
	for (i = 0; i < sizeof(texts) / sizeof(texts[0]); i++)
		if (strstr(line, texts[i]) != NULL)
			return true;
	return false;
}

/* Cut the trailing "(50.00%)" (running share) and "( +- 1.23% )" (-r's
 * noise) off line; the share into pl. */
static void strip_tail(char *line, struct ps_line *pl)
{
	for (;;) {
		size_t len = strlen(line);
		char *open;
		double pct;
		int used = 0;

		while (len > 0 && isspace((unsigned char)line[len - 1]))
			line[--len] = '\0';
		if (len == 0 || line[len - 1] != ')')
			return;
		open = strrchr(line, '(');
		if (open == NULL)
			return;
		if (sscanf(open, "(%lf%%)%n", &pct, &used) == 1 && open[used] == '\0')
			pl->running = pct / 100.0;
		else if (strncmp(open, "( +-", 4) == 0)
			pl->err = 0.5;  /* -r: the count is a mean, rounded */
		else
			return;
		*open = '\0';
	}
}

/* The figure and text of one metric at p (after its '#'), cut apart in
 * place; none when p is blank. */
static void one_metric(char *p, const char **value, const char **text)
{
	char *end;

	p += strspn(p, " ");
	if (*p == '\0')
		return;
	*value = p;
	p += strcspn(p, " ");
	if (*p != '\0')
		*p++ = '\0';
	p += strspn(p, " ");
	end = p + strlen(p);
	while (end > p && isspace((unsigned char)end[-1]))
		*--end = '\0';
	*text = p;
}

/* Split the metric after " # " off line: figure and text into pl, and a
 * second figure after a further " # " (perf 5.13-6.2's level 2). */
static void take_metric(char *line, struct ps_line *pl)
{
	char *hash = strchr(line, '#'), *next;

	if (hash == NULL || (hash != line && !isspace((unsigned char)hash[-1])))
		return;
	*hash = '\0';
	next = strstr(hash + 1, " #");
	if (next != NULL) {
		*next = '\0';
		one_metric(next + 2, &pl->mvalue2, &pl->mtext2);
	}
	one_metric(hash + 1, &pl->mvalue, &pl->mtext);
}

static size_t tokens(char *line, char **tok)
{
	size_t n = 0;
	char *save = NULL, *t;

	for (t = strtok_r(line, " \t", &save); t != NULL && n < MAX_TOKENS;
	     t = strtok_r(NULL, " \t", &save))
		tok[n++] = t;
	return n;
}

/* Whether tok starts a count: a number, or "<not counted>". */
static bool is_count(const char *tok)
{
	double v;

	return tok[0] == '<' || perfstat_number(tok, true, &v);
}

/* The time (-I) and row id at the start of tok[]; returns where the count
 * (or a metric group's name) starts. */
static size_t prefix(char **tok, size_t n, struct ps_line *pl)
{
	size_t at = 0;
	bool group;
	double v;

	/* a time has no separators and is followed by a count or a row id;
	 * on a metric's own line it may stand alone */
	if (n > 0 && strchr(tok[0], '.') != NULL && perfstat_number(tok[0], false, &v) &&
	    (n == 1 ? pl->mvalue != NULL : is_count(tok[1]) || perfstat_row_id(tok[1], &group))) {
		pl->t = v;
		at = 1;
	}
	if (at < n && perfstat_row_id(tok[at], &group)) {
		pl->row = tok[at++];
		if (group && at < n && perfstat_number(tok[at], false, &v) && at + 1 < n &&
		    is_count(tok[at + 1]))
			at++;  /* how many CPUs the core, die or socket has */
	}
	return at;
}

/* The count at tok[at] and the unit and event after it into pl. */
static int count_fields(char **tok, size_t n, size_t at, struct ps_line *pl, char *why,
			size_t len)
{
	if (tok[at][0] == '<') {
		if (at + 1 >= n || (strcmp(tok[at + 1], "counted>") != 0 &&
				    strcmp(tok[at + 1], "supported>") != 0)) {
			snprintf(why, len, "'%s' is not a count", tok[at]);
			return -EINVAL;
		}
		pl->counted = false;
		at += 2;
	} else if (!perfstat_number(tok[at], true, &pl->v) || pl->v < 0) {
		snprintf(why, len, "'%s' is not a count", tok[at]);
		return -EINVAL;
	} else {
		/* -r's mean was rounded to what is printed, or to a whole */
		pl->err = fmax(perfstat_half_ulp(tok[at]), pl->err);
		at++;
	}
	switch (n - at) {
	case 0:
		snprintf(why, len, "a count without an event name");
		return -EINVAL;
	case 1:
		pl->event = tok[at];
		break;
	default:
		/* unit and event; a third field is the cgroup (-G): its own row */
		pl->unit = tok[at];
		pl->event = tok[at + 1];
		if (n - at > 2 && pl->row == NULL)
			pl->row = tok[at + 2];
		if (n - at > 3) {
			snprintf(why, len, "%zu fields after the count (value, unit, event, cgroup "
				 "expected)", n - at);
			return -EINVAL;
		}
	}
	return PS_LINE_COUNT;
}

int perfstat_human_line(char *line, struct ps_line *pl, double *elapsed, char *why, size_t len)
{
	char *tok[MAX_TOKENS];
	size_t n, at;

	*pl = (struct ps_line){ .t = NAN, .running = 1.0, .counted = true, .unit = "" };
	if (perf_text(line, elapsed))
		return PS_LINE_TEXT;
	strip_tail(line, pl);
	take_metric(line, pl);
	n = tokens(line, tok);
	at = prefix(tok, n, pl);
	if (at < n && is_count(tok[at]))
		return count_fields(tok, n, at, pl, why, len);
	if (pl->mvalue == NULL) {
		snprintf(why, len, n > at ? "no count before '%s'" : "no count", tok[n > at ? at : 0]);
		return PS_LINE_SKIP;
	}
	/* perf's metric on its own line: a continuation, or a metric group's
	 * first line with the group's name ("TopdownL1 (cpu_core)") */
	if (at < n) {
		char *end = tok[n - 1] + strlen(tok[n - 1]);

		/* the name's words back together: strtok cut them apart */
		for (char *p = tok[at]; p < end; p++)
			if (*p == '\0')
				*p = ' ';
		pl->group = tok[at];
	}
	return PS_LINE_COUNT;
}
