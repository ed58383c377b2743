/*
 * signals.c - see signals.h.
 */
#include "daemon/signals.h"
#include "lib/clock.h"

#include <errno.h>
#include <signal.h>
#include <sys/signalfd.h>
#include <sys/timerfd.h>
#include <time.h>

int signals_arm_timer(struct daemon *d)
{
	struct itimerspec its;
	uint64_t ns = d->cfg.interval_ns;

	its.it_interval.tv_sec = (time_t)(ns / NS_PER_SEC);
	its.it_interval.tv_nsec = (long)(ns % NS_PER_SEC);
	its.it_value = its.it_interval;
	return timerfd_settime(d->tfd, 0, &its, NULL) < 0 ? -errno : 0;
}

int signals_setup(struct daemon *d)
{
	sigset_t set;

	sigemptyset(&set);
	sigaddset(&set, SIGTERM);
	sigaddset(&set, SIGINT);
	sigaddset(&set, SIGHUP);
	/* Signals whose default action ends a process, but that mean nothing
	 * to stackd: read and ignored (signals_ignored), so a stray kill -USR1
	 * or an alarm(2) in a library never stops collection. */
	sigaddset(&set, SIGUSR1);
	sigaddset(&set, SIGUSR2);
	sigaddset(&set, SIGALRM);
	/* Blocked before the workers start, so only signalfd sees them. */
	if (pthread_sigmask(SIG_BLOCK, &set, NULL) != 0)
		return -EINVAL;
	signal(SIGPIPE, SIG_IGN);
	d->sfd = signalfd(-1, &set, SFD_CLOEXEC);
	if (d->sfd < 0)
		return -errno;
	d->tfd = timerfd_create(CLOCK_MONOTONIC, TFD_CLOEXEC | TFD_NONBLOCK);
	if (d->tfd < 0)
		return -errno;
	return signals_arm_timer(d);
}


bool signals_ignored(int signo)
{
	return signo == SIGUSR1 || signo == SIGUSR2 || signo == SIGALRM;
}

void signals_hold_ignored(void)
{
	sigset_t set;

	sigemptyset(&set);
	sigaddset(&set, SIGUSR1);
	sigaddset(&set, SIGUSR2);
	sigaddset(&set, SIGALRM);
	pthread_sigmask(SIG_BLOCK, &set, NULL);
}
