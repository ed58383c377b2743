/*
 * wakelat.c - how late a timed wake-up comes on a busy CPU, as a stackd
 * CPU worker's rotation wake-ups do (ppoll with a timeout, pinned to its
 * CPU), under SCHED_OTHER or SCHED_FIFO priority 1: the measurement behind
 * the choice of the workers' scheduling policy (make bench).
 * Usage: wakelat SECONDS CPU other|fifo PERIOD_MS
 * Prints "p50_us=A p99_us=B max_us=C wakeups=N".
 */
#include <poll.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

static int cmp(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

int main(int argc, char **argv)
{
	struct sched_param sp = { .sched_priority = 1 };
	uint64_t period, end, due, *late;
	size_t n = 0, cap;
	cpu_set_t set;

	if (argc != 5 || (strcmp(argv[3], "other") != 0 && strcmp(argv[3], "fifo") != 0)) {
		fprintf(stderr, "usage: wakelat SECONDS CPU other|fifo PERIOD_MS\n");
		return 2;
	}
	CPU_ZERO(&set);
	CPU_SET(atoi(argv[2]), &set);
	if (sched_setaffinity(0, sizeof(set), &set) < 0) {
		perror("wakelat: sched_setaffinity");
		return 1;
	}
	if (strcmp(argv[3], "fifo") == 0 && sched_setscheduler(0, SCHED_FIFO, &sp) < 0) {
		perror("wakelat: SCHED_FIFO");
		return 1;
	}
	period = (uint64_t)atoi(argv[4]) * 1000000ULL;
	cap = (size_t)(atof(argv[1]) * 1e9 / (double)period) + 2;
	late = calloc(cap, sizeof(*late));
	if (late == NULL || period == 0)
		return 1;
	end = now_ns() + (uint64_t)(atof(argv[1]) * 1e9);
	due = now_ns() + period;
	while (n < cap && due < end) {
		uint64_t t = now_ns(), wait = due > t ? due - t : 0;
		struct timespec ts = { (time_t)(wait / 1000000000ULL), (long)(wait % 1000000000ULL) };

		ppoll(NULL, 0, &ts, NULL);
		t = now_ns();
		late[n++] = t > due ? t - due : 0;
		due += period;
	}
	qsort(late, n, sizeof(*late), cmp);
	printf("p50_us=%.0f p99_us=%.0f max_us=%.0f wakeups=%zu\n", (double)late[n / 2] / 1e3,
	       (double)late[n * 99 / 100] / 1e3, (double)late[n - 1] / 1e3, n);
	free(late);
	return 0;
}
