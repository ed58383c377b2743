/*
 * forkstorm.c - fork short-lived processes at a steady rate, for the
 * torture test: does stackd store every one of them?
 * Usage: forkstorm RATE_PER_SECOND SECONDS [exec]
 * Each child renames itself "stormkid" and exits at once - or, with exec,
 * execs /bin/true (make bench: what exec-time capture costs); the parent
 * ("stormparent") reaps them as it goes.  Prints "forked=N", the seconds
 * it took and "cpu_us=" (its own and its children's user + system time:
 * what the storm itself cost, make bench's finer figure) at the end.
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define TICKS_PER_SECOND 100

static double now_s(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

/* User + system time of who (RUSAGE_SELF or RUSAGE_CHILDREN), in us. */
static double cpu_us(int who)
{
	struct rusage ru;

	if (getrusage(who, &ru) < 0)
		return 0;
	return (double)(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) * 1e6 +
	       (double)(ru.ru_utime.tv_usec + ru.ru_stime.tv_usec);
}

int main(int argc, char **argv)
{
	long rate, secs, forked = 0, tick, per_tick;
	int do_exec;
	double start;

	if (argc < 3 || argc > 4 || (argc == 4 && strcmp(argv[3], "exec") != 0)) {
		fprintf(stderr, "usage: forkstorm RATE_PER_SECOND SECONDS [exec]\n");
		return 2;
	}
	do_exec = argc == 4;
	rate = atol(argv[1]);
	secs = atol(argv[2]);
	per_tick = rate / TICKS_PER_SECOND > 0 ? rate / TICKS_PER_SECOND : 1;
	prctl(PR_SET_NAME, "stormparent", 0, 0, 0);
	start = now_s();
	for (tick = 0; tick < secs * TICKS_PER_SECOND; tick++) {
		double due = start + (double)(tick + 1) / TICKS_PER_SECOND;
		long i;

		for (i = 0; i < per_tick; i++) {
			pid_t pid = fork();

			if (pid == 0) {
				if (do_exec) {
					execl("/bin/true", "true", (char *)NULL);
					_exit(127);
				}
				prctl(PR_SET_NAME, "stormkid", 0, 0, 0);
				_exit(0);
			}
			if (pid > 0)
				forked++;
		}
		while (waitpid(-1, NULL, WNOHANG) > 0)
			;
		if (due > now_s()) {
			double left = due - now_s();
			struct timespec ts = { 0, (long)(left * 1e9) };

			if (left > 0)
				nanosleep(&ts, NULL);
		}
	}
	while (waitpid(-1, NULL, 0) > 0)
		;
	printf("forked=%ld\nseconds=%.1f\ncpu_us=%.0f\n", forked, now_s() - start,
	       cpu_us(RUSAGE_SELF) + cpu_us(RUSAGE_CHILDREN));
	return 0;
}
