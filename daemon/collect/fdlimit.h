/*
 * fdlimit.h - the open-file limit (RLIMIT_NOFILE) against what stackd
 * needs: one descriptor per perf event on every CPU (collector.h), plus a
 * reserve for the database, the sockets and reading /proc.  Checked before
 * anything is opened, so that a low `ulimit -n` (or LimitNOFILE=) is one
 * clear line instead of a perf_event_open error halfway through.
 */
#ifndef STACKD_FDLIMIT_H
#define STACKD_FDLIMIT_H

#include <stddef.h>

/* stdio, the database and its -wal, -shm and lock files, the signal and
 * timer fds, sd_notify, the HTTP listeners and their wakeup fds, /proc
 * reads: a little more than these take. */
#define FDLIMIT_RESERVE 32

struct fdlimit_need {
	size_t n_cpus;
	unsigned n_groups;      /* counter groups collected */
	size_t per_cpu;         /* descriptors on each CPU (collector_fds_per_cpu) */
};

/* Descriptors stackd needs in all. */
size_t fdlimit_total(const struct fdlimit_need *need);

/* Make sure the limit allows that many: raises the soft limit towards the
 * hard one when it is lower (as systemd advises for programs that do not
 * use select()).  0, or -EMFILE with err as fdlimit_explain() says it. */
int fdlimit_ensure(const struct fdlimit_need *need, char *err, size_t errlen);

/* "too many open files: stackd needs about N descriptors for C CPUs x G
 * groups (+ database, sockets); the limit is L (ulimit -n / LimitNOFILE)":
 * the line for a failed check and for EMFILE met later. */
void fdlimit_explain(const struct fdlimit_need *need, char *err, size_t errlen);

#endif
