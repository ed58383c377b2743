/*
 * pidreuse.c - make two processes with the same pid, one after the other.
 * Usage: pidreuse SECONDS
 * The first child ("gen-one") spins SECONDS and exits; it is reaped; then a
 * second child ("gen-two") is created with the same pid (clone3 with
 * set_tid, which needs root) and spins SECONDS.  Prints "pid=P one_ns=A
 * two_ns=B": the pid and the CPU time the kernel charged each generation.
 */
#include <errno.h>
#include <linux/sched.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static void spin(double secs, const char *name)
{
	volatile unsigned long x = 0;
	struct timespec a, b;

	prctl(PR_SET_NAME, name, 0, 0, 0);
	clock_gettime(CLOCK_MONOTONIC, &a);
	do {
		for (int i = 0; i < 100000; i++)
			x++;
		clock_gettime(CLOCK_MONOTONIC, &b);
	} while ((double)(b.tv_sec - a.tv_sec) + (double)(b.tv_nsec - a.tv_nsec) / 1e9 < secs);
}

/* The CPU time the kernel charged a reaped child: the reference, whatever
 * else the machine was doing while it spun. */
static unsigned long long cpu_ns(const struct rusage *ru)
{
	return (unsigned long long)(ru->ru_utime.tv_sec + ru->ru_stime.tv_sec) * 1000000000ULL +
	       (unsigned long long)(ru->ru_utime.tv_usec + ru->ru_stime.tv_usec) * 1000ULL;
}

static pid_t clone_with_pid(pid_t want)
{
	struct clone_args args;

	memset(&args, 0, sizeof(args));
	args.exit_signal = SIGCHLD;
	args.set_tid = (uint64_t)(uintptr_t)&want;
	args.set_tid_size = 1;
	return (pid_t)syscall(SYS_clone3, &args, sizeof(args));
}

int main(int argc, char **argv)
{
	double secs = argc > 1 ? atof(argv[1]) : 1.0;
	struct rusage ru_one, ru_two;
	pid_t first, second;

	first = fork();
	if (first < 0)
		return 1;
	if (first == 0) {
		spin(secs, "gen-one");
		_exit(0);
	}
	if (wait4(first, NULL, 0, &ru_one) != first)
		return 1;
	second = clone_with_pid(first);
	if (second < 0) {
		fprintf(stderr, "pidreuse: clone3(set_tid=%d): %s\n", (int)first, strerror(errno));
		return 1;
	}
	if (second == 0) {
		spin(secs, "gen-two");
		_exit(0);
	}
	if (wait4(second, NULL, 0, &ru_two) != second)
		return 1;
	printf("pid=%d one_ns=%llu two_ns=%llu\n", (int)first, cpu_ns(&ru_one), cpu_ns(&ru_two));
	return 0;
}
