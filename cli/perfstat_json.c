/*
 * perfstat_json.c - one line of `perf stat -j` (see perfstat_line.h): a flat
 * JSON object per line, as tools/perf/util/stat-display.c of Linux 7.2
 * prints it ("counter-value" : "123.000000" (a string, or
 * "<not counted>"), "unit", "event", "event-runtime", "pcnt-running",
 * "metric-value", "metric-unit"; "interval" with -I; "cpu" : "3",
 * "core"/"die"/"socket"/"node"/"thread" : "S0-D0-C1" with
 * "aggregate-number" for the aggregations; a line of only a metric after
 * its event's; "metricgroup" : "TopdownL1" for perf >= 6.5's default
 * groups).  perf 6.x printed metric-value as a bare number: both are read.
 */
#include "cli/perfstat_line.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A string or number value at *p, NUL-terminated in place (quotes and
 * backslash escapes removed); NULL when p holds neither. */
static char *value_at(char **pp)
{
	char *p = *pp, *out, *v;

	if (*p == '"') {
		v = out = ++p;
		while (*p != '\0' && *p != '"') {
			if (*p == '\\' && p[1] != '\0')
				p++;
			*out++ = *p++;
		}
		if (*p != '"')
			return NULL;
		*pp = p + 1;
		*out = '\0';
		return v;
	}
	v = p;
	p += strcspn(p, ",} \t");
	if (p == v)
		return NULL;
	/* the end of a bare value ends the object when it is '}' */
	*pp = p + (*p != '\0');
	*p = '\0';
	return v;
}

/* Take key = v into pl. */
static int take(struct ps_line *pl, const char *key, const char *v, char *why, size_t len)
{
	double d;

	if (strcmp(key, "interval") == 0 && perfstat_number(v, false, &d))
		pl->t = d;
	else if (strcmp(key, "cpu") == 0) {
		snprintf(pl->rowbuf, sizeof(pl->rowbuf), "CPU%s", v);
		pl->row = pl->rowbuf;
	}
	else if (strcmp(key, "core") == 0 || strcmp(key, "die") == 0 ||
		 strcmp(key, "socket") == 0 || strcmp(key, "node") == 0 ||
		 strcmp(key, "thread") == 0 || strcmp(key, "cache") == 0 ||
		 strcmp(key, "cluster") == 0 || strcmp(key, "cgroup") == 0)
		pl->row = v;
	else if (strcmp(key, "counter-value") == 0) {
		if (v[0] == '<') {
			pl->counted = false;
		} else if (!perfstat_number(v, false, &pl->v) || pl->v < 0) {
			snprintf(why, len, "counter-value '%s' is not a count", v);
			return -EINVAL;
		}
		pl->err = perfstat_half_ulp(v);
	} else if (strcmp(key, "unit") == 0)
		pl->unit = v;
	else if (strcmp(key, "event") == 0)
		pl->event = v;
	else if (strcmp(key, "pcnt-running") == 0 && perfstat_number(v, false, &d))
		pl->running = d / 100.0;
	else if (strcmp(key, "metric-value") == 0)
		pl->mvalue = v;
	else if (strcmp(key, "metric-unit") == 0)
		pl->mtext = v;
	else if (strcmp(key, "metricgroup") == 0)
		pl->group = v;
	return 0;
}

int perfstat_json_line(char *line, struct ps_line *pl, char *why, size_t len)
{
	char *p = line + strspn(line, " \t");

	*pl = (struct ps_line){ .t = NAN, .running = 1.0, .counted = true, .unit = "" };
	if (*p++ != '{') {
		snprintf(why, len, "not a JSON object");
		return PS_LINE_SKIP;
	}
	for (;;) {
		char *key, *v;

		p += strspn(p, " \t,");
		if (*p == '}' || *p == '\0')
			break;
		key = value_at(&p);
		p += strspn(p, " \t");
		if (key == NULL || *p++ != ':') {
			snprintf(why, len, "not perf's JSON (a \"key\" : value expected)");
			return -EINVAL;
		}
		p += strspn(p, " \t");
		v = value_at(&p);
		if (v == NULL) {
			snprintf(why, len, "no value for \"%s\"", key);
			return -EINVAL;
		}
		if (take(pl, key, v, why, len) < 0)
			return -EINVAL;
	}
	if (pl->event == NULL && pl->mvalue == NULL && pl->group == NULL) {
		snprintf(why, len, "neither a count nor a metric");
		return PS_LINE_SKIP;
	}
	if (pl->mtext == NULL)
		pl->mtext = "";
	return PS_LINE_COUNT;
}
