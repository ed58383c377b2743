/*
 * http_host.h - the names a request's Host header may carry, against DNS
 * rebinding: a web page whose own name an attacker makes resolve to
 * 127.0.0.1 can make the user's browser ask stackd, and read the answers
 * (same origin for the browser); but the browser still sends the page's
 * name as Host.  So stackd answers only a Host that is localhost, an
 * address it listens on or was reached at, or a name configured in
 * http_allowed_hosts (as Jupyter's guard does), with or without a port.
 *
 * A request without Host is answered: a browser always sends one (a page
 * cannot remove it), so such a request never comes from a web page; it
 * comes from an HTTP/1.0 client or a tool.
 */
#ifndef STACKD_HTTP_HOST_H
#define STACKD_HTTP_HOST_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/socket.h>

#define HTTP_MAX_HOSTS 16        /* names in http_allowed_hosts */
#define HTTP_HOST_NAME_MAX 254   /* a DNS name, or an IP literal */

struct http_hosts {
	char names[HTTP_MAX_HOSTS][HTTP_HOST_NAME_MAX];
	size_t n;
	/* the IP addresses stackd listens on (AF_INET / AF_INET6) */
	struct sockaddr_storage addrs[HTTP_MAX_HOSTS];
	size_t n_addrs;
};

/* http_allowed_hosts' value: host names or IP literals (IPv6 in
 * brackets), comma-separated, into h->names.  0, or -EINVAL with err
 * naming the bad item. */
int http_hosts_parse(const char *list, struct http_hosts *h, char *err, size_t errlen);

/* Remember a listen address (only an IP one counts; others are ignored). */
void http_hosts_add_addr(struct http_hosts *h, const struct sockaddr *sa);

/* May a request with this Host header (NULL: none) be answered on a
 * connection whose local address is local (NULL or a Unix socket's: no IP
 * of its own)? */
bool http_host_allowed(const struct http_hosts *h, const char *host,
		       const struct sockaddr *local);

#endif
