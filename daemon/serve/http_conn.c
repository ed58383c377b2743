/*
 * http_conn.c - a connection: who is on the other end (peer.h), found
 * once per connection, what that peer may see, and whether the guard
 * (http_guard.h) lets it in.
 */
#include "daemon/serve/http_server_private.h"
#include "daemon/base/log.h"
#include "daemon/serve/peer.h"

#include <arpa/inet.h>
#include <fcntl.h>
#include <inttypes.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/socket.h>
#include <unistd.h>

/* What the peer of conn may see: everything (root, stackd's own user, a
 * user in full_uids; an unknown peer as anonymous_full says), or only its
 * own processes. */
struct api_access http_access_of(const struct http_server *s, const struct http_conn *conn)
{
	struct api_access a = { false, PEER_UNKNOWN };
	size_t i;

	if (conn != NULL)
		a.uid = conn->uid;
	if (a.uid == PEER_UNKNOWN) {
		a.full = s->cfg.anonymous_full;
		return a;
	}
	a.full = a.uid == 0 || a.uid == (int64_t)geteuid();
	for (i = 0; i < s->cfg.n_full_uids && !a.full; i++)
		a.full = a.uid == (int64_t)s->cfg.full_uids[i];
	return a;
}

/* The guard's record of a connection (its socket context), or NULL. */
struct http_conn *http_conn_of(struct MHD_Connection *conn)
{
	const union MHD_ConnectionInfo *ci =
		MHD_get_connection_info(conn, MHD_CONNECTION_INFO_SOCKET_CONTEXT);

	return ci != NULL ? ci->socket_context : NULL;
}

/* The share key of a peer we cannot identify by uid: its address. */
static void peer_address(struct MHD_Connection *conn, char *buf, size_t len)
{
	const union MHD_ConnectionInfo *ci =
		MHD_get_connection_info(conn, MHD_CONNECTION_INFO_CLIENT_ADDRESS);
	const struct sockaddr *sa = ci != NULL ? ci->client_addr : NULL;
	char ip[INET6_ADDRSTRLEN] = "?";

	if (sa != NULL && sa->sa_family == AF_INET)
		inet_ntop(AF_INET, &((const struct sockaddr_in *)(const void *)sa)->sin_addr, ip,
			  sizeof(ip));
	else if (sa != NULL && sa->sa_family == AF_INET6)
		inet_ntop(AF_INET6, &((const struct sockaddr_in6 *)(const void *)sa)->sin6_addr, ip,
			  sizeof(ip));
	snprintf(buf, len, "address %s", ip);
}

/* Who is connecting is found once per connection (keep-alive reuses it),
 * and the guard decides whether it gets in. */
static void connection_started(struct http_server *s, struct MHD_Connection *conn,
			       void **socket_context)
{
	const union MHD_ConnectionInfo *ci =
		MHD_get_connection_info(conn, MHD_CONNECTION_INFO_CONNECTION_FD);
	struct http_conn *hc;

	if (ci == NULL)
		return;
	hc = calloc(1, sizeof(*hc));
	/* Our own descriptor of the socket: the reaper's shutdown() can never
	 * hit a descriptor number libmicrohttpd has closed and reused. */
	if (hc != NULL)
		hc->fd = fcntl(ci->connect_fd, F_DUPFD_CLOEXEC, 0);
	if (hc == NULL || hc->fd < 0) {
		free(hc);
		(void)shutdown(ci->connect_fd, SHUT_RDWR);
		return;
	}
	hc->uid = peer_uid(ci->connect_fd, "/proc/net");
	hc->full = http_access_of(s, hc).full;
	if (hc->uid != PEER_UNKNOWN)
		snprintf(hc->peer, sizeof(hc->peer), "uid %" PRId64, hc->uid);
	else
		peer_address(conn, hc->peer, sizeof(hc->peer));
	if (!http_guard_admit(s->guard, hc)) {
		log_debug("http: %s is over its share of connections; closing a new one",
			  hc->peer);
		(void)shutdown(ci->connect_fd, SHUT_RDWR);
	}
	*socket_context = hc;
}

void http_connection_event(void *cls, struct MHD_Connection *conn, void **socket_context,
			   enum MHD_ConnectionNotificationCode code)
{
	struct http_server *s = cls;
	struct http_conn *hc;

	if (code == MHD_CONNECTION_NOTIFY_STARTED) {
		connection_started(s, conn, socket_context);
	} else if (code == MHD_CONNECTION_NOTIFY_CLOSED && *socket_context != NULL) {
		hc = *socket_context;
		http_guard_closed(s->guard, hc);
		close(hc->fd);
		free(hc);
		*socket_context = NULL;
	}
}
