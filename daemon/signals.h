/*
 * signals.h - the main loop's two descriptors: a signalfd for SIGTERM,
 * SIGINT and SIGHUP (and the signals stackd ignores), and the flush timer.
 */
#ifndef STACKD_SIGNALS_H
#define STACKD_SIGNALS_H

#include "daemon/daemon_state.h"

/* The flush timer at d->cfg.interval_ns.  0 or -errno. */
int signals_arm_timer(struct daemon *d);
/* SIGTERM, SIGINT and SIGHUP blocked and read from d->sfd (every thread
 * started later inherits the mask); the flush timer d->tfd armed. */
int signals_setup(struct daemon *d);
/* SIGUSR1, SIGUSR2 and SIGALRM: read from d->sfd like the others, and
 * ignored (their default action would end the daemon). */
bool signals_ignored(int signo);
/* Block those three from the start of main(): pending, not fatal, until
 * signals_setup's signalfd reads them (threads started later inherit the
 * mask). */
void signals_hold_ignored(void);

#endif
