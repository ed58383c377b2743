/*
 * kernel_ops.h - the seam between the collector and the kernel.
 *
 * The collector, the workers and their rings reach perf_event through these
 * calls only, so tests can put a simulated PMU (tests/sim/) behind the very
 * code that runs in production: the same planner, rotation, attribution
 * and ring parsing, against hardware rules we cannot meet on a machine
 * without a PMU.  The per-switch path never calls through here (it reads
 * the mmap'ed ring); only opening, rotation and group reads do.
 *
 * Every call returns like the system call it stands for, but with -errno
 * instead of -1 and errno.  ctx is the implementation's own state.
 */
#ifndef STACKD_KERNEL_OPS_H
#define STACKD_KERNEL_OPS_H

#include <linux/perf_event.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

struct kernel_ops {
	void *ctx;
	/* The CPUs to watch (malloc'ed array of CPU numbers). */
	int (*online_cpus)(void *ctx, int **cpus, size_t *n);
	int (*perf_open)(void *ctx, struct perf_event_attr *attr, pid_t pid, int cpu,
			 int group_fd);
	/* PERF_EVENT_IOC_ENABLE / _DISABLE (arg 0), _SET_OUTPUT (arg: the
	 * target fd), _ID (arg: a uint64_t *). */
	int (*ioctl)(void *ctx, int fd, unsigned long request, unsigned long arg);
	ssize_t (*read)(void *ctx, int fd, void *buf, size_t len);
	/* Map a ring of len bytes (header page + data); NULL and *err on failure. */
	void *(*mmap_ring)(void *ctx, int fd, size_t len, int *err);
	void (*munmap_ring)(void *ctx, void *map, size_t len);
	void (*close)(void *ctx, int fd);
	/* CLOCK_MONOTONIC ns: the clock every record's time is on. */
	uint64_t (*now_ns)(void *ctx);
	/* An event string into attr (event_encode.h); NULL: event_encode().
	 * The PMU's own names (cpu/slots/) come from its sysfs, which a
	 * simulated PMU does not have. */
	int (*encode)(void *ctx, const char *name, struct perf_event_attr *attr, char *err,
		      size_t errlen);
};

/* The real kernel. */
extern const struct kernel_ops kernel_ops_linux;

#endif
