/*
 * cpulist.c - see cpulist.h.
 */
#include "daemon/collect/cpulist.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

#define CPULIST_MAX_CPU 65535

int cpulist_parse(const char *text, int **ret_cpus, size_t *ret_n)
{
	const char *p = text;
	int *cpus = NULL;
	size_t n = 0, cap = 0;

	while (*p != '\0' && *p != '\n') {
		char *end;
		long lo, hi, c;

		if (!isdigit((unsigned char)*p))
			goto bad;
		lo = strtol(p, &end, 10);
		hi = lo;
		p = end;
		if (*p == '-') {
			if (!isdigit((unsigned char)p[1]))
				goto bad;
			hi = strtol(p + 1, &end, 10);
			p = end;
		}
		if (hi < lo || hi > CPULIST_MAX_CPU)
			goto bad;
		if (n > 0 && lo <= cpus[n - 1])
			goto bad;
		for (c = lo; c <= hi; c++) {
			if (n == cap) {
				size_t ncap = cap ? cap * 2 : 16;
				int *more = realloc(cpus, ncap * sizeof(*more));

				if (more == NULL) {
					free(cpus);
					return -ENOMEM;
				}
				cpus = more;
				cap = ncap;
			}
			cpus[n++] = (int)c;
		}
		if (*p == ',')
			p++;
		else if (*p != '\0' && *p != '\n')
			goto bad;
	}
	if (n == 0)
		goto bad;
	*ret_cpus = cpus;
	*ret_n = n;
	return 0;
bad:
	free(cpus);
	return -EINVAL;
}

int cpulist_online(int **ret_cpus, size_t *ret_n)
{
	char buf[4096];
	FILE *f = fopen("/sys/devices/system/cpu/online", "re");

	if (f == NULL)
		return -errno;
	if (fgets(buf, sizeof(buf), f) == NULL) {
		fclose(f);
		return -EIO;
	}
	fclose(f);
	return cpulist_parse(buf, ret_cpus, ret_n);
}
