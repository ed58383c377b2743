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
 * keep open while running; -EBUSY when another stackd holds it, with
 * *holder its pid (0 when it cannot be told) and err one line; another
 * -errno when the name cannot be bound at all.  allow_second: a held name
 * is not an error (0, *ret_fd -1, *holder set, err says so). */
int instance_claim(bool allow_second, int *ret_fd, pid_t *holder, char *err, size_t errlen);

#endif
