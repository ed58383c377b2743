/*
 * instance.h - one stackd per host unless told otherwise.  Two samplers
 * of every context switch cost twice and measure nothing more; a second
 * daemon started by mistake (`make run` beside the packaged service, a
 * container, a CI job) is refused with the first one's pid.
 */
#ifndef STACKD_INSTANCE_H
#define STACKD_INSTANCE_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

/* Claim the host's name (an abstract Unix socket, "@stackd", one per
 * network namespace: a host or a container).  Returns 0 with *ret_fd to
 * keep open while running; -EBUSY when another stackd holds it (a process
 * of root, of our euid or of service_uid), with *holder its pid (0 when it
 * cannot be told) and err one line; another -errno when the name cannot be
 * bound at all.  allow_second, or a holder of any other uid (a squatter:
 * abstract names have no permissions): 0 with *ret_fd -1, *holder set and
 * err saying so. */
int instance_claim(bool allow_second, uid_t service_uid, int *ret_fd, pid_t *holder, char *err,
		   size_t errlen);

#endif
