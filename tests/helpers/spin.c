/*
 * spin.c - burn CPU for a given time, for the system tests.
 * Usage: spin SECONDS [NAME]
 * NAME becomes the comm (prctl).  At exit prints its own CPU time as the
 * kernel's scheduler counts it, "schedstat_ns=N" (first field of
 * /proc/self/schedstat, which leaves out steal time on VMs).
 */
#include <stdio.h>
#include <stdlib.h>
#include <sys/prctl.h>
#include <time.h>

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

int main(int argc, char **argv)
{
	volatile unsigned long x = 0;
	unsigned long long ns = 0;
	double end;
	FILE *f;

	if (argc < 2) {
		fprintf(stderr, "usage: spin SECONDS [NAME]\n");
		return 2;
	}
	if (argc > 2)
		prctl(PR_SET_NAME, argv[2], 0, 0, 0);
	end = now() + atof(argv[1]);
	while (now() < end)
		for (int i = 0; i < 100000; i++)
			x++;
	f = fopen("/proc/self/schedstat", "r");
	if (f != NULL) {
		if (fscanf(f, "%llu", &ns) != 1)
			ns = 0;
		fclose(f);
	}
	printf("schedstat_ns=%llu\n", ns);
	return 0;
}
