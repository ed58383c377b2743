/*
 * duration.c - time spans for config values and command-line flags.
 */
#include "lib/duration.h"
#include "lib/clock.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct unit {
	const char *suffix;
	uint64_t ns;
};

/* Longest suffixes first so "ms" is not taken for "m". */
static const struct unit units[] = {
	{ "ns", 1 },
	{ "us", NS_PER_USEC },
	{ "ms", NS_PER_MSEC },
	{ "s", NS_PER_SEC },
	{ "m", 60 * NS_PER_SEC },
	{ "h", 3600 * NS_PER_SEC },
	{ "d", 86400 * NS_PER_SEC },
};

int duration_parse(const char *text, uint64_t *ret_ns)
{
	const struct unit *u = NULL;
	char *end;
	double value;
	double ns;
	size_t i;

	if (text == NULL || *text == '\0')
		return -EINVAL;
	if (*text == '-')
		return -ERANGE;
	if (!(*text >= '0' && *text <= '9') && *text != '.')
		return -EINVAL;
	errno = 0;
	value = strtod(text, &end);
	if (errno != 0 || end == text)
		return -EINVAL;
	for (i = 0; i < sizeof(units) / sizeof(units[0]); i++) {
		if (strcmp(end, units[i].suffix) == 0) {
			u = &units[i];
			break;
		}
	}
	if (u == NULL)
		return -EINVAL;
	if (!isfinite(value))
		return -ERANGE;
	ns = value * (double)u->ns;
	/* 2^63 ns is 292 years: anything larger is a typo, not a setting. */
	if (ns >= 9.2e18)
		return -ERANGE;
	*ret_ns = (uint64_t)llround(ns);
	return 0;
}

int duration_parse_cli(const char *text, uint64_t *ret_ns)
{
	char with_unit[64];
	size_t n;

	if (text == NULL)
		return -EINVAL;
	n = strlen(text);
	/* only when the text ends in a digit: "1" and "0.5", never "1x" */
	if (n == 0 || n + 2 > sizeof(with_unit) || !((text[n - 1] >= '0' && text[n - 1] <= '9') ||
						      text[n - 1] == '.'))
		return duration_parse(text, ret_ns);
	snprintf(with_unit, sizeof(with_unit), "%ss", text);
	return duration_parse(with_unit, ret_ns);
}

void duration_format(uint64_t ns, char *buf, size_t len)
{
	size_t i = sizeof(units) / sizeof(units[0]);

	if (ns == 0) {
		snprintf(buf, len, "0s");
		return;
	}
	while (i-- > 0) {
		if (ns % units[i].ns == 0) {
			snprintf(buf, len, "%llu%s", (unsigned long long)(ns / units[i].ns),
				 units[i].suffix);
			return;
		}
	}
}

void duration_format_approx(double ns, char *buf, size_t len)
{
	/* Long spans (windows read from rollups) in the unit people think in. */
	if (ns >= 86400e9)
		snprintf(buf, len, "%.1fd", ns / 86400e9);
	else if (ns >= 3600e9)
		snprintf(buf, len, "%.1fh", ns / 3600e9);
	else if (ns >= 600e9)
		snprintf(buf, len, "%.1fm", ns / 60e9);
	else if (ns >= (double)NS_PER_SEC)
		snprintf(buf, len, "%.2fs", ns / (double)NS_PER_SEC);
	else if (ns >= (double)NS_PER_MSEC)
		snprintf(buf, len, "%.1fms", ns / (double)NS_PER_MSEC);
	else if (ns >= (double)NS_PER_USEC)
		snprintf(buf, len, "%.1fus", ns / (double)NS_PER_USEC);
	else
		snprintf(buf, len, "%.0fns", ns);
}
