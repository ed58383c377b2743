/*
 * pingpong.c - two processes bounce a byte over two pipes; every round trip
 * is two context switches when both are pinned to the same CPU.
 * Usage: pingpong SECONDS CPU_A CPU_B
 * Prints round trips per second.
 */
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static void pin(int cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	if (sched_setaffinity(0, sizeof(set), &set) < 0)
		perror("sched_setaffinity");
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

int main(int argc, char **argv)
{
	int a[2], b[2];
	double secs, t0, t1;
	long n = 0;
	char c = 0;
	pid_t child;

	if (argc < 4) {
		fprintf(stderr, "usage: pingpong SECONDS CPU_A CPU_B\n");
		return 2;
	}
	secs = atof(argv[1]);
	if (pipe(a) < 0 || pipe(b) < 0)
		return 1;
	child = fork();
	if (child < 0)
		return 1;
	if (child == 0) {
		close(a[1]);
		close(b[0]);
		pin(atoi(argv[3]));
		while (read(a[0], &c, 1) == 1)
			if (write(b[1], &c, 1) != 1)
				break;
		_exit(0);
	}
	close(a[0]);
	close(b[1]);
	pin(atoi(argv[2]));
	t0 = now();
	t1 = t0;
	for (;;) {
		if (write(a[1], &c, 1) != 1 || read(b[0], &c, 1) != 1)
			return 1;
		if ((++n & 1023) == 0) {
			t1 = now();
			if (t1 - t0 >= secs)
				break;
		}
	}
	close(a[1]);
	waitpid(child, NULL, 0);
	printf("%.0f\n", (double)n / (t1 - t0));
	return 0;
}
