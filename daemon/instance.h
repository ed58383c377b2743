/*
 * instance.h - one stackd per host unless told otherwise.  Two samplers
 * of every context switch cost twice and measure nothing more; a second
 * daemon started by mistake (`make run` beside the packaged service, a
 * pod beside a host's stackd, a CI job) is refused with the first one's
 * pid.  No other user can hold the guard to keep stackd from starting.
 */
#ifndef STACKD_INSTANCE_H
#define STACKD_INSTANCE_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

/* Claim the host: the lock file /run/stackd/instance.lock (instance.c says
 * why a file) and, beside it or where that directory cannot be had, the
 * abstract Unix name "@stackd".  Returns 0 with ret_fd[] (the lock's, the
 * name's; -1 where not held) to keep open while running; -EBUSY when
 * another stackd holds the guard, with *holder its pid (0 when it cannot
 * be told) and err one line; another -errno when the guard cannot be taken
 * at all.  0 with err set (the caller logs it): beside a holder with
 * allow_second, or a squatter on the abstract name ignored (a process of
 * another uid than root, ours or service_uid, or one that does not answer:
 * *holder -1). */
int instance_claim(bool allow_second, uid_t service_uid, int ret_fd[2], pid_t *holder,
		   char *err, size_t errlen);

/* Answer the probes on the name (ret_fd[1]) that arrived: the running
 * daemon's loop calls it when the descriptor is readable. */
void instance_answer(int name_fd);

/* The lock file part alone, in dir (tests use a directory of their own):
 * as instance_claim, and -ENOENT when dir cannot be used here (missing and
 * not creatable, or writable by others than root, us and service_uid). */
int instance_claim_lock(const char *dir, bool allow_second, uid_t service_uid, int *ret_fd,
			pid_t *holder, char *err, size_t errlen);

/* The abstract name part alone (where no lock file can be had): as
 * instance_claim. */
int instance_claim_name(bool allow_second, uid_t service_uid, int *ret_fd, pid_t *holder,
			char *err, size_t errlen);

#endif
