/*
 * peer.h - who is on the other end of an HTTP connection, so the API shows
 * a local user only their own processes.  A Unix socket says it directly
 * (SO_PEERCRED); for a loopback TCP peer the kernel is asked for the owner
 * of the client's socket by its exact address and ports over
 * NETLINK_SOCK_DIAG (peer_diag.c), or, where netlink cannot be used, the
 * socket is looked for in /proc/net/tcp{,6} (peer_procnet.c).
 */
#ifndef STACKD_PEER_H
#define STACKD_PEER_H

#include "daemon/serve/peer_unknown.h"

#include <stdbool.h>
#include <stdint.h>
#include <sys/socket.h>

/* The uid owning the other end of connected socket fd, or PEER_UNKNOWN.
 * proc_net is where the fallback reads tcp and tcp6: normally "/proc/net". */
int64_t peer_uid(int fd, const char *proc_net);

/* Whether a is a loopback address, i.e. a peer on this host whose socket
 * the kernel can name: IPv4 127/8, IPv6 ::1 and v4-mapped 127/8. */
bool peer_is_loopback(const struct sockaddr_storage *a);

#endif
