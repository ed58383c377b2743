/*
 * peer.h - who is on the other end of an HTTP connection, so the API shows
 * a local user only their own processes.  A Unix socket says it directly
 * (SO_PEERCRED); a loopback TCP peer is found in /proc/net/tcp{,6}, where
 * the kernel lists the client's socket with its owner's uid.
 */
#ifndef STACKD_PEER_H
#define STACKD_PEER_H

#include <stdint.h>

#define PEER_UNKNOWN (-2)   /* not local, or not found */

/* The uid owning the other end of connected socket fd, or PEER_UNKNOWN.
 * proc_net is normally "/proc/net" (tests pass a fake directory). */
int64_t peer_uid(int fd, const char *proc_net);

#endif
