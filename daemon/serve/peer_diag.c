/*
 * peer_diag.c - see peer_diag.h.
 *
 * The request is inet_diag_req_v2 without NLM_F_DUMP: the kernel's exact
 * lookup (inet_diag_find_one_icsk), which hashes the 4-tuple the way an
 * arriving packet would, so it costs the same with ten sockets or a
 * hundred thousand.  Its id is from the socket's own side: idiag_src is
 * its local end, idiag_dst its remote end.
 */
#include "daemon/serve/peer_diag.h"

#include <errno.h>
#include <linux/inet_diag.h>
#include <linux/netlink.h>
#include <linux/sock_diag.h>
#include <netinet/in.h>
#include <string.h>
#include <unistd.h>

/* One inet_diag_msg and its few default attributes; a lookup answers one
 * socket. */
#define DIAG_REPLY_BYTES 8192

static void fill_id(struct inet_diag_sockid *id, const struct sockaddr_storage *local,
		    const struct sockaddr_storage *remote)
{
	if (local->ss_family == AF_INET) {
		const struct sockaddr_in *l = (const struct sockaddr_in *)local;
		const struct sockaddr_in *r = (const struct sockaddr_in *)remote;

		id->idiag_sport = l->sin_port;
		id->idiag_dport = r->sin_port;
		memcpy(&id->idiag_src[0], &l->sin_addr, sizeof(l->sin_addr));
		memcpy(&id->idiag_dst[0], &r->sin_addr, sizeof(r->sin_addr));
	} else {
		const struct sockaddr_in6 *l = (const struct sockaddr_in6 *)local;
		const struct sockaddr_in6 *r = (const struct sockaddr_in6 *)remote;

		/* v4-mapped addresses are looked up in the IPv4 table by the
		 * kernel, so a plain IPv4 client of a [::] listener is found. */
		id->idiag_sport = l->sin6_port;
		id->idiag_dport = r->sin6_port;
		memcpy(id->idiag_src, &l->sin6_addr, sizeof(l->sin6_addr));
		memcpy(id->idiag_dst, &r->sin6_addr, sizeof(r->sin6_addr));
	}
	/* No cookie: match on the 4-tuple alone. */
	id->idiag_cookie[0] = INET_DIAG_NOCOOKIE;
	id->idiag_cookie[1] = INET_DIAG_NOCOOKIE;
}

static int send_request(int nl, const struct sockaddr_storage *local,
			const struct sockaddr_storage *remote)
{
	struct {
		struct nlmsghdr nlh;
		struct inet_diag_req_v2 req;
	} msg;
	struct sockaddr_nl kernel = { .nl_family = AF_NETLINK };

	memset(&msg, 0, sizeof(msg));
	msg.nlh.nlmsg_len = sizeof(msg);
	msg.nlh.nlmsg_type = SOCK_DIAG_BY_FAMILY;
	msg.nlh.nlmsg_flags = NLM_F_REQUEST;
	msg.nlh.nlmsg_seq = 1;
	msg.req.sdiag_family = (uint8_t)local->ss_family;
	msg.req.sdiag_protocol = IPPROTO_TCP;
	msg.req.idiag_states = ~0U;
	fill_id(&msg.req.id, local, remote);
	if (sendto(nl, &msg, sizeof(msg), 0, (const struct sockaddr *)&kernel,
		   sizeof(kernel)) < 0)
		return -errno;
	return 0;
}

/* The kernel answers inside sendto(): the reply is queued when it returns,
 * so the read need not wait (MSG_DONTWAIT), and a lost reply is an error,
 * never a hang. */
static int read_reply(int nl, int64_t *ret_uid)
{
	char buf[DIAG_REPLY_BYTES] __attribute__((aligned(NLMSG_ALIGNTO)));
	struct nlmsghdr *h;
	ssize_t n;
	int len;

	n = recv(nl, buf, sizeof(buf), MSG_DONTWAIT | MSG_TRUNC);
	if (n < 0)
		return -errno;
	if ((size_t)n > sizeof(buf))
		return -EMSGSIZE;
	len = (int)n;
	for (h = (struct nlmsghdr *)buf; NLMSG_OK(h, len); h = NLMSG_NEXT(h, len)) {
		if (h->nlmsg_type == NLMSG_ERROR) {
			const struct nlmsgerr *e = NLMSG_DATA(h);

			if (h->nlmsg_len < NLMSG_LENGTH(sizeof(*e)))
				return -EBADMSG;
			return e->error < 0 ? e->error : -EBADMSG;
		}
		if (h->nlmsg_type == SOCK_DIAG_BY_FAMILY &&
		    h->nlmsg_len >= NLMSG_LENGTH(sizeof(struct inet_diag_msg))) {
			const struct inet_diag_msg *m = NLMSG_DATA(h);

			*ret_uid = m->idiag_uid;
			return 0;
		}
	}
	return -EBADMSG;
}

int peer_diag_uid(const struct sockaddr_storage *local, const struct sockaddr_storage *remote,
		  int64_t *ret_uid)
{
	int nl, r;

	if ((local->ss_family != AF_INET && local->ss_family != AF_INET6) ||
	    remote->ss_family != local->ss_family)
		return -EAFNOSUPPORT;
	nl = socket(AF_NETLINK, SOCK_DGRAM | SOCK_CLOEXEC, NETLINK_SOCK_DIAG);
	if (nl < 0)
		return -errno;
	r = send_request(nl, local, remote);
	if (r == 0)
		r = read_reply(nl, ret_uid);
	close(nl);
	return r;
}
