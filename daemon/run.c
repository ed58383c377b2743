/*
 * run.c - the running daemon.  See run.h.
 *
 * Threads: one worker per CPU (daemon/collect/worker_thread.c) samples and
 * attributes; this, the main thread, flushes every interval, writes SQLite
 * (daemon/store/writer.c) and handles signals.  A slow or failing database
 * therefore never stalls sampling: intervals that cannot be written wait
 * in memory (up to retry_buffer of them) and go out with the next write
 * that succeeds.
 *
 * The steps are files of their own below this one, each calling only
 * files under it: startup.c (everything up to READY=1, and the undoing),
 * interval_flush.c (one interval out), reload.c (SIGHUP) over replan.c
 * (new counter groups), recheck.c (the sampling cost measured again),
 * counting.c (plan, collector, workers), meta.c (the daemon's facts).
 */
#include "daemon/run.h"
#include "daemon/daemon_state.h"
#include "daemon/instance.h"
#include "daemon/held_counters.h"
#include "daemon/interval_flush.h"
#include "daemon/reload.h"
#include "daemon/signals.h"
#include "daemon/startup.h"
#include "daemon/base/log.h"
#include "daemon/base/mempolicy.h"
#include "lib/clock.h"

#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/signalfd.h>
#include <unistd.h>

static int loop(struct daemon *d)
{
	/* the third: probes of the host's guard name (poll skips fd -1) */
	struct pollfd pfd[3] = { { d->sfd, POLLIN, 0 }, { d->tfd, POLLIN, 0 },
				 { d->instance_fds[1], POLLIN, 0 } };
	struct mempolicy mp = { 0 };

	for (;;) {
		/* The watchdog hears from this loop, so a stuck loop stops the pings. */
		int n = poll(pfd, 3, notify_poll_timeout_ms(&d->notify, monotonic_ns()));

		notify_watchdog(&d->notify, monotonic_ns());
		if (n < 0) {
			if (errno == EINTR)
				continue;
			return log_error_r(-errno, "poll");
		}
		if (pfd[2].revents & POLLIN)
			instance_answer(d->instance_fds[1]);
		if (pfd[1].revents & POLLIN) {
			uint64_t expirations;

			if (read(d->tfd, &expirations, sizeof(expirations)) > 0)
				interval_flush(d, false);
			/* what a burst of processes or requests left free goes
			 * back to the kernel (mempolicy.h) */
			(void)mempolicy_trim(&mp, monotonic_ns());
			/* after the interval, as a reload would */
			if (d->held_replan && held_counters_apply(d) < 0)
				return -EIO;
		}
		if (pfd[0].revents & POLLIN) {
			struct signalfd_siginfo si;

			if (read(d->sfd, &si, sizeof(si)) != sizeof(si))
				continue;
			if (signals_ignored((int)si.ssi_signo)) {
				if (log_throttle(&d->warned_signal, monotonic_ns()))
					log_info("%s from pid %u ignored: stackd stops on SIGTERM or "
						 "SIGINT and reloads on SIGHUP", strsignal((int)si.ssi_signo),
						 (unsigned)si.ssi_pid);
				continue;
			}
			if (si.ssi_signo == SIGHUP) {
				int r = reload_config(d);

				if (r < 0)
					return r;
				continue;
			}
			log_info("%s: writing the interval in flight and stopping",
				 strsignal((int)si.ssi_signo));
			notify_send(&d->notify, "STOPPING=1");
			return 0;
		}
	}
}

/* Collect until SIGTERM/SIGINT, then write what is in flight; the exit
 * status says whether everything reached the database. */
static int run_serve(struct daemon *d)
{
	bool all_written;
	int r;

	r = loop(d);
	if (d->col != NULL)   /* else a failed re-plan left nothing to flush */
		interval_flush(d, true);
	all_written = writer_final_report(&d->w);
	return r < 0 || !all_written ? EXIT_FAILURE : EXIT_SUCCESS;
}

int run_daemon(const struct config *cfg, config_reload_fn reload_fn)
{
	struct daemon d;
	int status = EXIT_FAILURE;

	if (startup_open(&d, cfg, reload_fn) == 0)
		status = run_serve(&d);
	startup_close(&d);
	return status;
}

