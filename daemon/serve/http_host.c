/*
 * http_host.c - see http_host.h.
 */
#include "daemon/serve/http_host.h"

#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* An IP literal as it appears in a Host header or a name list ("1.2.3.4",
 * "[::1]") into *ret (AF_INET or AF_INET6); false when name is not one. */
static bool ip_literal(const char *name, struct sockaddr_storage *ret)
{
	char v6[INET6_ADDRSTRLEN + 1];
	size_t len = strlen(name);

	memset(ret, 0, sizeof(*ret));
	if (name[0] == '[' && len > 2 && len - 2 < sizeof(v6) && name[len - 1] == ']') {
		struct sockaddr_in6 *in6 = (struct sockaddr_in6 *)ret;

		memcpy(v6, name + 1, len - 2);
		v6[len - 2] = '\0';
		in6->sin6_family = AF_INET6;
		return inet_pton(AF_INET6, v6, &in6->sin6_addr) == 1;
	}
	((struct sockaddr_in *)ret)->sin_family = AF_INET;
	return inet_pton(AF_INET, name, &((struct sockaddr_in *)ret)->sin_addr) == 1;
}

/* A DNS name's characters (no IDN: a browser sends those as xn--). */
static bool dns_name(const char *name)
{
	size_t len = strlen(name);

	return len > 0 && len < HTTP_HOST_NAME_MAX &&
	       strspn(name, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789.-") ==
	       len && name[0] != '.' && name[0] != '-';
}

int http_hosts_parse(const char *list, struct http_hosts *h, char *err, size_t errlen)
{
	const char *p = list;

	h->n = 0;
	while (*p != '\0') {
		struct sockaddr_storage ss;
		size_t len;
		char item[HTTP_HOST_NAME_MAX];

		p += strspn(p, " ");
		len = strcspn(p, ",");
		while (len > 0 && p[len - 1] == ' ')
			len--;
		if (len == 0 || len >= sizeof(item)) {
			snprintf(err, errlen, "'%s': an empty or overlong name (expected names or "
				 "IP addresses, comma-separated)", list);
			return -EINVAL;
		}
		memcpy(item, p, len);
		item[len] = '\0';
		if (!dns_name(item) && !ip_literal(item, &ss)) {
			snprintf(err, errlen, "'%s' is not a host name or IP address (IPv6 in "
				 "brackets: [::1])", item);
			return -EINVAL;
		}
		if (h->n == HTTP_MAX_HOSTS) {
			snprintf(err, errlen, "at most %d names", HTTP_MAX_HOSTS);
			return -EINVAL;
		}
		memcpy(h->names[h->n++], item, len + 1);
		p += strcspn(p, ",");
		if (*p == ',')
			p++;
	}
	return 0;
}

void http_hosts_add_addr(struct http_hosts *h, const struct sockaddr *sa)
{
	static const struct in6_addr any6 = IN6ADDR_ANY_INIT;
	struct sockaddr_storage *ss;

	/* A wildcard (0.0.0.0, [::]) names no address of ours: the address a
	 * connection reached stands for it (http_host_allowed's local). */
	if (h->n_addrs == HTTP_MAX_HOSTS ||
	    (sa->sa_family == AF_INET &&
	     ((const struct sockaddr_in *)(const void *)sa)->sin_addr.s_addr == INADDR_ANY) ||
	    (sa->sa_family == AF_INET6 &&
	     memcmp(&((const struct sockaddr_in6 *)(const void *)sa)->sin6_addr, &any6,
		    sizeof(any6)) == 0) ||
	    (sa->sa_family != AF_INET && sa->sa_family != AF_INET6))
		return;
	ss = &h->addrs[h->n_addrs++];
	memset(ss, 0, sizeof(*ss));
	memcpy(ss, sa, sa->sa_family == AF_INET ? sizeof(struct sockaddr_in) :
	       sizeof(struct sockaddr_in6));
}

/* The same IP address (ports aside); an IPv4-mapped IPv6 address (a
 * dual-stack [::] listener reached over IPv4) is its IPv4 address. */
static bool same_ip(const struct sockaddr *a, const struct sockaddr_storage *b)
{
	struct in_addr a4, b4;
	const struct sockaddr_in6 *a6 = (const struct sockaddr_in6 *)(const void *)a;
	const struct sockaddr_in6 *b6 = (const struct sockaddr_in6 *)(const void *)b;
	bool a_is4 = a->sa_family == AF_INET, b_is4 = b->ss_family == AF_INET;

	if (a->sa_family == AF_INET6 && IN6_IS_ADDR_V4MAPPED(&a6->sin6_addr)) {
		memcpy(&a4, &a6->sin6_addr.s6_addr[12], 4);
		a_is4 = true;
	} else if (a_is4) {
		a4 = ((const struct sockaddr_in *)(const void *)a)->sin_addr;
	}
	if (b->ss_family == AF_INET6 && IN6_IS_ADDR_V4MAPPED(&b6->sin6_addr)) {
		memcpy(&b4, &b6->sin6_addr.s6_addr[12], 4);
		b_is4 = true;
	} else if (b_is4) {
		b4 = ((const struct sockaddr_in *)(const void *)b)->sin_addr;
	}
	if (a_is4 || b_is4)
		return a_is4 && b_is4 && a4.s_addr == b4.s_addr;
	return a->sa_family == AF_INET6 && b->ss_family == AF_INET6 &&
	       memcmp(&a6->sin6_addr, &b6->sin6_addr, sizeof(a6->sin6_addr)) == 0;
}

/* Host's name without its port: "[::1]:9466" -> "[::1]", "x:1" -> "x".
 * false when it is no host[:port] at all. */
static bool host_name(const char *host, char *name, size_t len)
{
	const char *end, *port;

	if (host[0] == '[') {
		end = strchr(host, ']');
		if (end == NULL)
			return false;
		end++;
		if (*end != '\0' && *end != ':')
			return false;
	} else {
		end = host + strcspn(host, ":");
	}
	port = *end == ':' ? end + 1 : end;
	if (strlen(port) > 5 || strspn(port, "0123456789") != strlen(port) ||
	    strtol(port, NULL, 10) > 65535)
		return false;
	if (end == host || (size_t)(end - host) >= len)
		return false;
	memcpy(name, host, (size_t)(end - host));
	name[end - host] = '\0';
	return true;
}

bool http_host_allowed(const struct http_hosts *h, const char *host,
		       const struct sockaddr *local)
{
	struct sockaddr_storage ip;
	char name[HTTP_HOST_NAME_MAX];
	size_t i;

	if (host == NULL)
		return true;
	/* The port is not checked: an SSH tunnel or a proxy in front of
	 * stackd listens on another one, and the port is no part of what
	 * rebinding forges (the name). */
	if (!host_name(host, name, sizeof(name)))
		return false;
	if (strcasecmp(name, "localhost") == 0)
		return true;
	for (i = 0; i < h->n; i++)
		if (strcasecmp(name, h->names[i]) == 0)
			return true;
	if (!ip_literal(name, &ip))
		return false;
	/* An address is no name a rebinding page can have: the address we
	 * were reached at, or any we listen on. */
	if (local != NULL && (local->sa_family == AF_INET || local->sa_family == AF_INET6) &&
	    same_ip(local, &ip))
		return true;
	for (i = 0; i < h->n_addrs; i++)
		if (same_ip((const struct sockaddr *)&h->addrs[i], &ip))
			return true;
	return false;
}
