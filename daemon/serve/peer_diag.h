/*
 * peer_diag.h - the owner of a local TCP socket, asked of the kernel by its
 * exact 4-tuple over NETLINK_SOCK_DIAG: one hash lookup in the kernel,
 * whatever the number of sockets on the host.
 */
#ifndef STACKD_PEER_DIAG_H
#define STACKD_PEER_DIAG_H

#include <stdint.h>
#include <sys/socket.h>

/* The uid owning the TCP socket whose local end is `local` and remote end
 * `remote` (both AF_INET, or both AF_INET6), in *ret_uid.  Returns 0,
 * -ENOENT if the kernel has no such socket, or another -errno if the query
 * could not be made (no NETLINK_SOCK_DIAG here, a sandbox forbids netlink,
 * no descriptor left). */
int peer_diag_uid(const struct sockaddr_storage *local, const struct sockaddr_storage *remote,
		  int64_t *ret_uid);

#endif
