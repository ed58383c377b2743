/*
 * peer_procnet.h - the owner of a local TCP socket, found by reading
 * /proc/net/tcp{,6}: a line per socket on the host, so O(sockets) a
 * lookup.  peer.c's fallback when NETLINK_SOCK_DIAG cannot be used.
 */
#ifndef STACKD_PEER_PROCNET_H
#define STACKD_PEER_PROCNET_H

#include "daemon/serve/peer_unknown.h"

#include <stdint.h>
#include <sys/socket.h>

/* The uid owning the TCP socket whose local end is `local` and remote end
 * `remote`, or PEER_UNKNOWN.  proc_net is normally "/proc/net" (tests pass
 * a directory of their own). */
int64_t peer_procnet_uid(const char *proc_net, const struct sockaddr_storage *local,
			 const struct sockaddr_storage *remote);

#endif
