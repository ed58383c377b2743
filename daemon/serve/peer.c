/*
 * peer.c - see peer.h.
 */
#include "daemon/serve/peer.h"

#include "daemon/serve/peer_diag.h"
#include "daemon/serve/peer_procnet.h"

#include <errno.h>
#include <netinet/in.h>
#include <sys/socket.h>

bool peer_is_loopback(const struct sockaddr_storage *a)
{
	if (a->ss_family == AF_INET) {
		const struct sockaddr_in *v4 = (const struct sockaddr_in *)a;

		return (ntohl(v4->sin_addr.s_addr) >> 24) == 127;
	}
	if (a->ss_family == AF_INET6) {
		const struct in6_addr *v6 = &((const struct sockaddr_in6 *)a)->sin6_addr;

		return IN6_IS_ADDR_LOOPBACK(v6) ||
		       (IN6_IS_ADDR_V4MAPPED(v6) && v6->s6_addr[12] == 127);
	}
	return false;
}

/* The uid of the client's socket: its local end is our peer, its remote
 * end is us. */
static int64_t tcp_peer_uid(const struct sockaddr_storage *self,
			    const struct sockaddr_storage *other, const char *proc_net)
{
	int64_t uid;
	int r;

	r = peer_diag_uid(other, self, &uid);
	if (r == 0)
		return uid;
	if (r == -ENOENT)
		return PEER_UNKNOWN;
	/* Netlink could not be used (a kernel without sock_diag, a sandbox
	 * without AF_NETLINK: EAFNOSUPPORT, EPROTONOSUPPORT, EPERM): the same
	 * answer from the kernel's text table, at a line per socket. */
	return peer_procnet_uid(proc_net, other, self);
}

int64_t peer_uid(int fd, const char *proc_net)
{
	struct sockaddr_storage self, other;
	socklen_t sl = sizeof(self), ol = sizeof(other);

	if (getsockname(fd, (struct sockaddr *)&self, &sl) < 0 ||
	    getpeername(fd, (struct sockaddr *)&other, &ol) < 0)
		return PEER_UNKNOWN;
	if (self.ss_family == AF_UNIX) {
		struct ucred cred;
		socklen_t cl = sizeof(cred);

		if (getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &cred, &cl) < 0)
			return PEER_UNKNOWN;
		return cred.uid;
	}
	/* Only a peer on this host has a socket the kernel can tell us about. */
	if ((self.ss_family != AF_INET && self.ss_family != AF_INET6) ||
	    other.ss_family != self.ss_family || !peer_is_loopback(&other))
		return PEER_UNKNOWN;
	return tcp_peer_uid(&self, &other, proc_net);
}
