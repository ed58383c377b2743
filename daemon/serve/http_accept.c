/*
 * http_accept.c - the listening sockets, accepted from by a thread of our
 * own rather than by libmicrohttpd: every new connection is identified
 * and put to the guard here, and one it refuses is answered here, 429 or
 * 503 with Retry-After, without a thread or a place in libmicrohttpd
 * (which closes whatever comes past its own limit with no answer at all).
 * When no descriptor is left to accept with, the clients wait in the
 * listen backlog until one is.
 *
 * A refused connection is told why and closed.  One whose client has not
 * sent its request yet is only shut for writing (the client may still
 * send, and reads the answer, then the end) until its request comes, or
 * HTTP_LINGER_NS has passed; when HTTP_FD_REFUSALS of them wait so
 * already, the next is closed at once after its answer.
 */
#include "daemon/serve/http_server_private.h"
#include "daemon/serve/http_budget.h"
#include "daemon/base/log.h"
#include "lib/clock.h"

#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdint.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#define HTTP_LINGER_NS (1ULL * (uint64_t)NS_PER_SEC)
#define ACCEPT_BATCH 64          /* from one listener before the others' turn */
#define HTTP_ACCEPT_NICE 5

struct lingering {
	int fd;
	uint64_t since_ns;
};

/* What the client sent: read and dropped, so a close sends no reset.
 * 1: something was read, 0: nothing yet, -1: the client has closed. */
static int drain(int fd)
{
	char buf[4096];
	int i, got = 0;

	for (i = 0; i < 16; i++) {
		ssize_t n = recv(fd, buf, sizeof(buf), MSG_DONTWAIT);

		if (n == 0 || (n < 0 && errno != EAGAIN && errno != EINTR))
			return -1;
		if (n < 0)
			break;
		got = 1;
	}
	return got;
}

/* The client that has sent its request (or part of it) reads the answer,
 * then the end, whatever it sends next: closed at once.  One that has
 * not sent yet would find the socket closed before it writes (a Unix
 * socket then looks refused to curl): it waits a moment, if a place for
 * that is free. */
static void refuse(int fd, int why, struct lingering *l, unsigned *n_l)
{
	char answer[512];
	size_t len = http_conn_refusal(why, answer, sizeof(answer));
	int sent = drain(fd);

	(void)send(fd, answer, len, MSG_NOSIGNAL | MSG_DONTWAIT);
	if (sent == 0 && *n_l < HTTP_FD_REFUSALS) {
		(void)shutdown(fd, SHUT_WR);
		l[*n_l].fd = fd;
		l[*n_l].since_ns = monotonic_ns();
		(*n_l)++;
		return;
	}
	(void)shutdown(fd, SHUT_RDWR);
	close(fd);
}

/* Up to ACCEPT_BATCH connections from listener i: handed to
 * libmicrohttpd, or refused.  false when out of descriptors. */
static bool accept_some(struct http_server *s, unsigned i, struct lingering *l, unsigned *n_l)
{
	unsigned k;

	for (k = 0; k < ACCEPT_BATCH; k++) {
		struct sockaddr_storage peer;
		socklen_t len = sizeof(peer);
		int fd, r;

		fd = accept4(s->listen_fd[i], (struct sockaddr *)&peer, &len,
			     SOCK_CLOEXEC | SOCK_NONBLOCK);
		if (fd < 0)
			return errno != EMFILE && errno != ENFILE && errno != ENOBUFS &&
			       errno != ENOMEM;
		r = http_conn_accepted(s, fd, &peer);
		if (r < 0)
			refuse(fd, r, l, n_l);
		else if (MHD_add_connection(s->mhd, fd, (struct sockaddr *)&peer, len) != MHD_YES)
			http_conn_dropped(s, fd);   /* libmicrohttpd closed it */
	}
	return true;
}

/* Refused connections the client has closed, or that waited long enough. */
static void reap_lingering(struct lingering *l, unsigned *n_l, const struct pollfd *pfd)
{
	uint64_t now = monotonic_ns();
	unsigned j = 0, k;

	for (k = 0; k < *n_l; k++) {
		bool open = now - l[k].since_ns < HTTP_LINGER_NS;

		if (open && (pfd[k].revents & (POLLIN | POLLHUP | POLLERR)))
			open = drain(l[k].fd) == 0;   /* its request came: it has its answer */
		if (open)
			l[j++] = l[k];
		else
			close(l[k].fd);
	}
	*n_l = j;
}

static void *accept_main(void *arg)
{
	struct http_server *s = arg;
	struct pollfd pfd[HTTP_FD_REFUSALS + HTTP_MAX_LISTENERS + 1];
	struct lingering l[HTTP_FD_REFUSALS] = { { -1, 0 } };
	unsigned n_l = 0, i, k;
	bool fds_left = true;

	/* A flood of connections keeps this thread busy (each is identified
	 * before it can be refused): below the collector's workers and the
	 * requests it admitted, it slows the flood down, not them; a
	 * connection waits its turn in the listen backlog. */
	(void)setpriority(PRIO_PROCESS, (id_t)gettid(), HTTP_ACCEPT_NICE);
	for (;;) {
		struct timespec pause = { 0, 20 * 1000 * 1000 };
		unsigned base;

		for (k = 0; k < n_l; k++)
			pfd[k] = (struct pollfd){ .fd = l[k].fd, .events = POLLIN };
		for (i = 0; i < s->n_listen; i++)
			pfd[n_l + i] = (struct pollfd){ .fd = s->listen_fd[i], .events = POLLIN };
		pfd[n_l + s->n_listen] = (struct pollfd){ .fd = s->wake_fd, .events = POLLIN };
		if (!fds_left)
			nanosleep(&pause, NULL);   /* a descriptor may be free again */
		(void)poll(pfd, n_l + s->n_listen + 1, n_l > 0 ? 100 : -1);
		base = n_l;   /* where the listeners are in pfd */
		if (pfd[base + s->n_listen].revents != 0)
			break;
		reap_lingering(l, &n_l, pfd);
		fds_left = true;
		for (i = 0; i < s->n_listen; i++)
			if (pfd[base + i].revents != 0)
				fds_left = accept_some(s, i, l, &n_l) && fds_left;
	}
	for (k = 0; k < n_l; k++)
		close(l[k].fd);
	return NULL;
}

int http_accept_start(struct http_server *s, char *err, size_t errlen)
{
	s->wake_fd = eventfd(0, EFD_CLOEXEC);
	if (s->wake_fd < 0 || pthread_create(&s->acceptor, NULL, accept_main, s) != 0) {
		snprintf(err, errlen, "cannot start the HTTP accept thread: %s", strerror(errno));
		return -EAGAIN;
	}
	s->acceptor_running = true;
	return 0;
}

void http_accept_stop(struct http_server *s)
{
	uint64_t one = 1;

	if (s->acceptor_running) {
		if (write(s->wake_fd, &one, sizeof(one)) != sizeof(one))
			log_warning("http: cannot wake the accept thread: %s", strerror(errno));
		pthread_join(s->acceptor, NULL);
		s->acceptor_running = false;
	}
	if (s->wake_fd >= 0)
		close(s->wake_fd);
	s->wake_fd = -1;
}
