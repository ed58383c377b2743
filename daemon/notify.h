/*
 * notify.h - telling systemd how stackd is doing, through libsystemd's
 * sd_notify(3): READY=1 once counters and the store are ready, STATUS=
 * lines people see in `systemctl status`, WATCHDOG=1 from the event loop
 * while $WATCHDOG_USEC asks for it, RELOADING=1 / STOPPING=1.
 * Not started by systemd (no $NOTIFY_SOCKET): every call does nothing.
 */
#ifndef STACKD_NOTIFY_H
#define STACKD_NOTIFY_H

#include <stdbool.h>
#include <stdint.h>

struct notifier {
	bool enabled;                /* false: nobody to tell */
	uint64_t watchdog_ns;        /* 0: no watchdog */
	uint64_t last_ping_ns;       /* CLOCK_MONOTONIC */
};

/* Read $NOTIFY_SOCKET, and $WATCHDOG_USEC and $WATCHDOG_PID through
 * sd_watchdog_enabled() (the watchdog is ours only when that pid is ours,
 * or not set).  Returns 0, or -EINVAL when $NOTIFY_SOCKET cannot name a
 * socket (the caller logs it). */
int notify_init(struct notifier *n);
void notify_done(struct notifier *n);

/* Send one message ("READY=1", "STATUS=..."); errors are ignored: systemd
 * going away must not stop the collector. */
void notify_send(struct notifier *n, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Ping the watchdog if half its period has passed since the last ping. */
void notify_watchdog(struct notifier *n, uint64_t now_ns);

/* How long the event loop may sleep before the next ping is due, in ms
 * (-1: no watchdog, sleep as long as you like). */
int notify_poll_timeout_ms(const struct notifier *n, uint64_t now_ns);

#endif
