/*
 * pid_lock.c - see pid_lock.h.
 */
#include "daemon/base/pid_lock.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <unistd.h>

/* The pid written in the file by its holder, 0 when unreadable. */
static pid_t written_pid(int fd)
{
	char buf[32];
	ssize_t n = pread(fd, buf, sizeof(buf) - 1, 0);

	if (n <= 0)
		return 0;
	buf[n] = '\0';
	return (pid_t)strtol(buf, NULL, 10);
}

int pid_lock_take(int fd, pid_t *holder, const char **failed)
{
	char pid[32];
	int n;

	*holder = 0;
	*failed = "lock";
	if (flock(fd, LOCK_EX | LOCK_NB) < 0) {
		if (errno != EWOULDBLOCK)
			return -errno;
		*holder = written_pid(fd);
		return -EBUSY;
	}
	*failed = "write";
	n = snprintf(pid, sizeof(pid), "%d\n", (int)getpid());
	if (ftruncate(fd, 0) < 0)
		return -errno;
	if (pwrite(fd, pid, (size_t)n, 0) != n)
		return errno != 0 ? -errno : -EIO;
	return 0;
}
