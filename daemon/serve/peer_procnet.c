/*
 * peer_procnet.c - see peer_procnet.h.
 */
#include "daemon/serve/peer_procnet.h"

#include <netinet/in.h>
#include <stdio.h>
#include <string.h>

/* "0100007F:1F90" as /proc/net/tcp prints an IPv4 endpoint: the address's
 * four bytes as one native-endian word, the port in host order. */
static void format_v4(const void *addr, in_port_t port, char *buf, size_t len)
{
	uint32_t word;

	memcpy(&word, addr, sizeof(word));
	snprintf(buf, len, "%08X:%04X", word, ntohs(port));
}

static void format_v6(const struct sockaddr_in6 *a, char *buf, size_t len)
{
	uint32_t w[4];

	memcpy(w, &a->sin6_addr, sizeof(w));
	snprintf(buf, len, "%08X%08X%08X%08X:%04X", w[0], w[1], w[2], w[3], ntohs(a->sin6_port));
}

/* The uid of the socket listed in proc_net/name as local -> remote. */
static int64_t scan(const char *proc_net, const char *name, const char *local, const char *remote)
{
	char file[256], line[512], l[64], r[64];
	long long uid;
	int64_t found = PEER_UNKNOWN;
	FILE *f;

	snprintf(file, sizeof(file), "%s/%s", proc_net, name);
	f = fopen(file, "re");
	if (f == NULL)
		return PEER_UNKNOWN;
	while (fgets(line, sizeof(line), f) != NULL) {
		/* sl local rem st tx:rx tr:when retrnsmt uid ... */
		if (sscanf(line, " %*s %63s %63s %*s %*s %*s %*s %lld", l, r, &uid) != 3)
			continue;
		if (strcmp(l, local) == 0 && strcmp(r, remote) == 0) {
			found = uid;
			break;
		}
	}
	fclose(f);
	return found;
}

int64_t peer_procnet_uid(const char *proc_net, const struct sockaddr_storage *local,
			 const struct sockaddr_storage *remote)
{
	char l[64], r[64];

	if (local->ss_family == AF_INET && remote->ss_family == AF_INET) {
		const struct sockaddr_in *a = (const struct sockaddr_in *)local;
		const struct sockaddr_in *b = (const struct sockaddr_in *)remote;

		format_v4(&a->sin_addr, a->sin_port, l, sizeof(l));
		format_v4(&b->sin_addr, b->sin_port, r, sizeof(r));
		return scan(proc_net, "tcp", l, r);
	}
	if (local->ss_family == AF_INET6 && remote->ss_family == AF_INET6) {
		const struct sockaddr_in6 *a = (const struct sockaddr_in6 *)local;
		const struct sockaddr_in6 *b = (const struct sockaddr_in6 *)remote;

		/* A v4-mapped pair is a plain IPv4 socket (listed in tcp) when
		 * the client connected with AF_INET, a v6 one otherwise. */
		if (IN6_IS_ADDR_V4MAPPED(&a->sin6_addr) && IN6_IS_ADDR_V4MAPPED(&b->sin6_addr)) {
			int64_t uid;

			format_v4(&a->sin6_addr.s6_addr[12], a->sin6_port, l, sizeof(l));
			format_v4(&b->sin6_addr.s6_addr[12], b->sin6_port, r, sizeof(r));
			uid = scan(proc_net, "tcp", l, r);
			if (uid != PEER_UNKNOWN)
				return uid;
		}
		format_v6(a, l, sizeof(l));
		format_v6(b, r, sizeof(r));
		return scan(proc_net, "tcp6", l, r);
	}
	return PEER_UNKNOWN;
}
