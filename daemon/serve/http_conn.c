/*
 * http_conn.c - a connection: who is on the other end (peer.h), found
 * once per connection as it is accepted (http_accept.c), what that peer
 * may see, and whether the guard (http_guard.h) lets it in; its record
 * then waits for libmicrohttpd to start it (which happens in its own
 * thread, later) and is its socket context from there on.
 */
#include "daemon/serve/http_server_private.h"
#include "daemon/base/log.h"
#include "daemon/serve/peer.h"

#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
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
static void peer_address(const struct sockaddr_storage *sa, char *buf, size_t len)
{
	char ip[INET6_ADDRSTRLEN] = "?";

	if (sa->ss_family == AF_INET)
		inet_ntop(AF_INET, &((const struct sockaddr_in *)(const void *)sa)->sin_addr, ip,
			  sizeof(ip));
	else if (sa->ss_family == AF_INET6)
		inet_ntop(AF_INET6, &((const struct sockaddr_in6 *)(const void *)sa)->sin6_addr, ip,
			  sizeof(ip));
	snprintf(buf, len, "address %s", ip);
}

size_t http_conn_refusal(int why, char *buf, size_t len)
{
	const char *body = why == -EBUSY ?
		"{\"error\": \"busy: you hold your share of connections already; retry in a "
		"second\"}\n" :
		"{\"error\": \"busy: every connection stackd allows is in use; retry in a "
		"second\"}\n";
	int n;

	n = snprintf(buf, len, "HTTP/1.1 %s\r\nContent-Type: application/json\r\n"
		     "Retry-After: 1\r\nConnection: close\r\nContent-Length: %zu\r\n\r\n%s",
		     why == -EBUSY ? "429 Too Many Requests" : "503 Service Unavailable",
		     strlen(body), body);
	return n < 0 ? 0 : (size_t)n < len ? (size_t)n : len - 1;
}

/* The share key (http_guard.h): limited peers by uid, so that no number
 * of processes buys a user more; a peer with full access by process on
 * the Unix socket, by uid over TCP (which does not tell the process). */
static void peer_key(int fd, const struct sockaddr_storage *peer, struct http_conn *hc)
{
	struct ucred cred;
	socklen_t cl = sizeof(cred);

	if (hc->uid == PEER_UNKNOWN)
		peer_address(peer, hc->peer, sizeof(hc->peer));
	else if (hc->full && hc->local.ss_family == AF_UNIX &&
		 getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &cred, &cl) == 0)
		snprintf(hc->peer, sizeof(hc->peer), "uid %" PRId64 " pid %d", hc->uid,
			 (int)cred.pid);
	else if (hc->full)
		snprintf(hc->peer, sizeof(hc->peer), "uid %" PRId64 " over TCP", hc->uid);
	else
		snprintf(hc->peer, sizeof(hc->peer), "uid %" PRId64, hc->uid);
}

static void conn_free(struct http_server *s, struct http_conn *hc)
{
	http_guard_closed(s->guard, hc);
	close(hc->fd);
	free(hc);
}

/* The record of fd waiting for libmicrohttpd to start it, taken out of
 * the list; NULL when there is none. */
static struct http_conn *take_pending(struct http_server *s, int fd)
{
	struct http_conn **p, *hc = NULL;

	pthread_mutex_lock(&s->lock);
	for (p = &s->pending; *p != NULL; p = &(*p)->pending_next)
		if ((*p)->mhd_fd == fd) {
			hc = *p;
			*p = hc->pending_next;
			break;
		}
	pthread_mutex_unlock(&s->lock);
	return hc;
}

int http_conn_accepted(struct http_server *s, int fd, const struct sockaddr_storage *peer)
{
	struct http_conn *hc = calloc(1, sizeof(*hc)), *stale;
	socklen_t len = sizeof(hc->local);
	int r;

	/* Our own descriptor of the socket: the reaper's shutdown() can never
	 * hit a descriptor number libmicrohttpd has closed and reused. */
	if (hc != NULL)
		hc->fd = fcntl(fd, F_DUPFD_CLOEXEC, 0);
	if (hc == NULL || hc->fd < 0) {
		free(hc);
		return -EAGAIN;   /* out of memory or descriptors */
	}
	hc->mhd_fd = fd;
	if (getsockname(fd, (struct sockaddr *)&hc->local, &len) < 0)
		hc->local.ss_family = AF_UNSPEC;
	hc->uid = peer_uid(fd, "/proc/net");
	hc->full = http_access_of(s, hc).full;
	peer_key(fd, peer, hc);
	r = http_guard_admit(s->guard, hc);
	if (r < 0) {
		log_debug("http: %s: %s; refusing a new connection", hc->peer,
			  r == -EBUSY ? "over its share of connections" : "no connection free");
		close(hc->fd);
		free(hc);
		return r;
	}
	/* A record left with this descriptor number is of a socket
	 * libmicrohttpd closed without starting it: it goes now. */
	stale = take_pending(s, fd);
	if (stale != NULL)
		conn_free(s, stale);
	pthread_mutex_lock(&s->lock);
	hc->pending_next = s->pending;
	s->pending = hc;
	pthread_mutex_unlock(&s->lock);
	return 0;
}

void http_conn_dropped(struct http_server *s, int fd)
{
	struct http_conn *hc = take_pending(s, fd);

	if (hc != NULL)
		conn_free(s, hc);
}

void http_conn_drop_all(struct http_server *s)
{
	struct http_conn *hc;

	while (s->pending != NULL) {
		hc = s->pending;
		s->pending = hc->pending_next;
		conn_free(s, hc);
	}
}

void http_connection_event(void *cls, struct MHD_Connection *conn, void **socket_context,
			   enum MHD_ConnectionNotificationCode code)
{
	struct http_server *s = cls;

	if (code == MHD_CONNECTION_NOTIFY_STARTED) {
		/* The record http_conn_accepted made; none (it cannot be):
		 * the request is never answered (http_handle). */
		const union MHD_ConnectionInfo *ci =
			MHD_get_connection_info(conn, MHD_CONNECTION_INFO_CONNECTION_FD);

		if (ci != NULL)
			*socket_context = take_pending(s, ci->connect_fd);
	} else if (code == MHD_CONNECTION_NOTIFY_CLOSED && *socket_context != NULL) {
		conn_free(s, *socket_context);
		*socket_context = NULL;
	}
}
