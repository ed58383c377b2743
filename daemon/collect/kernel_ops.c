/*
 * kernel_ops.c - the real kernel behind the seam (kernel_ops.h).
 */
#include "daemon/collect/kernel_ops.h"
#include "daemon/collect/cpulist.h"
#include "lib/clock.h"

#include <errno.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

static int linux_online_cpus(void *ctx, int **cpus, size_t *n)
{
	(void)ctx;
	return cpulist_online(cpus, n);
}

static int linux_perf_open(void *ctx, struct perf_event_attr *attr, pid_t pid, int cpu,
			   int group_fd)
{
	long fd = syscall(SYS_perf_event_open, attr, pid, cpu, group_fd, PERF_FLAG_FD_CLOEXEC);

	(void)ctx;
	return fd < 0 ? -errno : (int)fd;
}

static int linux_ioctl(void *ctx, int fd, unsigned long request, unsigned long arg)
{
	(void)ctx;
	return ioctl(fd, request, arg) < 0 ? -errno : 0;
}

static ssize_t linux_read(void *ctx, int fd, void *buf, size_t len)
{
	ssize_t n = read(fd, buf, len);

	(void)ctx;
	return n < 0 ? -errno : n;
}

static void *linux_mmap_ring(void *ctx, int fd, size_t len, int *err)
{
	void *map = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);

	(void)ctx;
	if (map == MAP_FAILED) {
		*err = errno;
		return NULL;
	}
	return map;
}

static void linux_munmap_ring(void *ctx, void *map, size_t len)
{
	(void)ctx;
	munmap(map, len);
}

static void linux_close(void *ctx, int fd)
{
	(void)ctx;
	close(fd);
}

static uint64_t linux_now_ns(void *ctx)
{
	(void)ctx;
	return monotonic_ns();
}

const struct kernel_ops kernel_ops_linux = {
	.ctx = NULL,
	.online_cpus = linux_online_cpus,
	.perf_open = linux_perf_open,
	.ioctl = linux_ioctl,
	.read = linux_read,
	.mmap_ring = linux_mmap_ring,
	.munmap_ring = linux_munmap_ring,
	.close = linux_close,
	.now_ns = linux_now_ns,
};
