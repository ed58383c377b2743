/*
 * notify.c - see notify.h.
 */
#include "notify.h"
#include "lib/clock.h"

#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

int notify_init(struct notifier *n)
{
	const char *path = getenv("NOTIFY_SOCKET"), *usec = getenv("WATCHDOG_USEC");
	const char *pid = getenv("WATCHDOG_PID");

	memset(n, 0, sizeof(*n));
	n->fd = -1;
	if (usec != NULL && (pid == NULL || strtol(pid, NULL, 10) == (long)getpid()))
		n->watchdog_ns = strtoull(usec, NULL, 10) * 1000ULL;
	if (path == NULL || path[0] == '\0')
		return 0;
	if ((path[0] != '/' && path[0] != '@') || strlen(path) >= sizeof(n->path))
		return -EINVAL;
	memcpy(n->path, path, strlen(path) + 1);
	n->fd = socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	return n->fd < 0 ? -errno : 0;
}

void notify_done(struct notifier *n)
{
	if (n->fd >= 0)
		close(n->fd);
	n->fd = -1;
}

void notify_send(struct notifier *n, const char *fmt, ...)
{
	struct sockaddr_un un = { .sun_family = AF_UNIX };
	socklen_t len = (socklen_t)(offsetof(struct sockaddr_un, sun_path) + strlen(n->path));
	char msg[512];
	va_list ap;
	int m;

	if (n->fd < 0)
		return;
	va_start(ap, fmt);
	m = vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	if (m < 0)
		return;
	memcpy(un.sun_path, n->path, strlen(n->path));
	if (un.sun_path[0] == '@')
		un.sun_path[0] = '\0';   /* abstract namespace */
	else
		len++;                   /* the terminating NUL of a path */
	(void)sendto(n->fd, msg, strlen(msg), MSG_NOSIGNAL, (struct sockaddr *)&un, len);
}

void notify_watchdog(struct notifier *n, uint64_t now_ns)
{
	if (n->watchdog_ns == 0 || now_ns - n->last_ping_ns < n->watchdog_ns / 2)
		return;
	notify_send(n, "WATCHDOG=1");
	n->last_ping_ns = now_ns;
}

int notify_poll_timeout_ms(const struct notifier *n, uint64_t now_ns)
{
	uint64_t due;

	if (n->watchdog_ns == 0 || n->fd < 0)
		return -1;
	due = n->last_ping_ns + n->watchdog_ns / 2;
	return due <= now_ns ? 0 : (int)((due - now_ns) / NS_PER_MSEC) + 1;
}
