/*
 * sleeper.c - sleep and wake N times, for the switch-count test.
 * Usage: sleeper N PERIOD_US [NAME]
 * Each wake-up is one switch in and, on sleeping again, one switch out.
 * Sleeps are relative, so each one really blocks even when the host steals
 * time (an absolute deadline already past would not sleep at all).
 * At exit prints the kernel's own count of its switches,
 * "switches=V+N" from /proc/self/status (voluntary + involuntary).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <time.h>

int main(int argc, char **argv)
{
	unsigned long long vol = 0, invol = 0;
	struct timespec t = { 0, 0 };
	char line[256];
	long n, period_us, i;
	FILE *f;

	if (argc < 3) {
		fprintf(stderr, "usage: sleeper N PERIOD_US [NAME]\n");
		return 2;
	}
	n = atol(argv[1]);
	period_us = atol(argv[2]);
	if (argc > 3)
		prctl(PR_SET_NAME, argv[3], 0, 0, 0);
	t.tv_sec = period_us / 1000000;
	t.tv_nsec = (period_us % 1000000) * 1000;
	for (i = 0; i < n; i++)
		clock_nanosleep(CLOCK_MONOTONIC, 0, &t, NULL);
	f = fopen("/proc/self/status", "r");
	while (f != NULL && fgets(line, sizeof(line), f) != NULL) {
		if (strncmp(line, "voluntary_ctxt_switches:", 24) == 0)
			vol = strtoull(line + 24, NULL, 10);
		else if (strncmp(line, "nonvoluntary_ctxt_switches:", 27) == 0)
			invol = strtoull(line + 27, NULL, 10);
	}
	if (f != NULL)
		fclose(f);
	printf("switches=%llu\n", vol + invol);
	return 0;
}
