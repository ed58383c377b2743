/*
 * notify.c - see notify.h.  libsystemd does the protocol (the socket's
 * forms, abstract names, credentials); this file keeps the daemon's rules:
 * when to ping and what a failure to send means (nothing).
 */
#include "daemon/notify.h"
#include "lib/clock.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <systemd/sd-daemon.h>

int notify_init(struct notifier *n)
{
	const char *path = getenv("NOTIFY_SOCKET");
	uint64_t usec = 0;

	memset(n, 0, sizeof(*n));
	/* (< 0: a malformed $WATCHDOG_USEC or $WATCHDOG_PID, which systemd
	 * never sets: no watchdog then, as with none) */
	if (sd_watchdog_enabled(0, &usec) > 0)
		n->watchdog_ns = usec * 1000ULL;
	if (path == NULL || path[0] == '\0')
		return 0;
	/* sd_notify() says nothing of a bad address: refuse one at start, so
	 * the log names it instead of systemd timing out on READY=1 */
	if (path[0] != '/' && path[0] != '@' && strncmp(path, "vsock:", 6) != 0)
		return -EINVAL;
	n->enabled = true;
	return 0;
}

void notify_done(struct notifier *n)
{
	n->enabled = false;
}

void notify_send(struct notifier *n, const char *fmt, ...)
{
	char msg[512];
	va_list ap;
	int m;

	if (!n->enabled)
		return;
	va_start(ap, fmt);
	m = vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	if (m < 0)
		return;
	(void)sd_notify(0, msg);
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

	if (n->watchdog_ns == 0 || !n->enabled)
		return -1;
	due = n->last_ping_ns + n->watchdog_ns / 2;
	return due <= now_ns ? 0 : (int)((due - now_ns) / NS_PER_MSEC) + 1;
}
