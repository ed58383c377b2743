/*
 * cpustat.c - see cpustat.h.  The line is "cpuN user nice system idle
 * iowait irq softirq steal guest guest_nice" (Documentation/filesystems/
 * proc.rst); guest time is already in user and nice.
 */
#include "daemon/collect/cpustat.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CPUSTAT_FIELDS 8   /* user .. steal; older kernels may stop before steal */

/* The line of text whose first word is name, or NULL. */
static const char *find_line(const char *text, const char *name)
{
	size_t len = strlen(name);
	const char *p = text;

	while (p != NULL && *p != '\0') {
		if (strncmp(p, name, len) == 0 && (p[len] == ' ' || p[len] == '\t'))
			return p + len;
		p = strchr(p, '\n');
		if (p != NULL)
			p++;
	}
	return NULL;
}

int cpustat_parse(const char *text, int cpu, struct cpustat *out)
{
	uint64_t v[CPUSTAT_FIELDS] = { 0 };
	char name[32];
	const char *p;
	unsigned n;

	if (cpu < 0)
		snprintf(name, sizeof(name), "cpu");
	else
		snprintf(name, sizeof(name), "cpu%d", cpu);
	p = find_line(text, name);
	if (p == NULL)
		return -ENOENT;
	for (n = 0; n < CPUSTAT_FIELDS; n++) {
		char *end;

		while (*p == ' ' || *p == '\t')
			p++;
		if (*p < '0' || *p > '9')
			break;
		v[n] = strtoull(p, &end, 10);
		p = end;
	}
	if (n < 4)   /* user nice system idle, at least */
		return -EINVAL;
	out->busy_ns = (v[0] + v[1] + v[2] + v[5] + v[6]) * CPUSTAT_TICK_NS;
	out->idle_ns = (v[3] + v[4]) * CPUSTAT_TICK_NS;
	out->steal_ns = v[7] * CPUSTAT_TICK_NS;
	return 0;
}

int cpustat_read(int cpu, struct cpustat *out)
{
	/* a line per CPU of about 60 bytes: 64 KiB holds a thousand CPUs */
	static const size_t cap = 65536;
	char *buf = malloc(cap);
	FILE *f;
	size_t n;
	int r;

	if (buf == NULL)
		return -ENOMEM;
	f = fopen("/proc/stat", "re");
	if (f == NULL) {
		r = -errno;
		free(buf);
		return r;
	}
	n = fread(buf, 1, cap - 1, f);
	fclose(f);
	buf[n] = '\0';
	r = cpustat_parse(buf, cpu, out);
	free(buf);
	return r;
}

double cpustat_busy_share(const struct cpustat *a, const struct cpustat *b)
{
	uint64_t busy = b->busy_ns + b->steal_ns - a->busy_ns - a->steal_ns;
	uint64_t all = busy + b->idle_ns - a->idle_ns;

	if (b->busy_ns < a->busy_ns || b->steal_ns < a->steal_ns || b->idle_ns < a->idle_ns ||
	    all == 0)
		return 0;
	return (double)busy / (double)all;
}
