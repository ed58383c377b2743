/*
 * peer.c - see peer.h.
 */
#include "peer.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>

/* "0100007F:1F90" as /proc/net/tcp prints an IPv4 endpoint: the address's
 * four bytes as one native-endian word, the port in host order. */
static void format_v4(const struct sockaddr_in *a, char *buf, size_t len)
{
	uint32_t word;

	memcpy(&word, &a->sin_addr, sizeof(word));
	snprintf(buf, len, "%08X:%04X", word, ntohs(a->sin_port));
}

static void format_v6(const struct sockaddr_in6 *a, char *buf, size_t len)
{
	uint32_t w[4];

	memcpy(w, &a->sin6_addr, sizeof(w));
	snprintf(buf, len, "%08X%08X%08X%08X:%04X", w[0], w[1], w[2], w[3], ntohs(a->sin6_port));
}

/* The uid of the socket whose local end is `local` and remote end `remote`. */
static int64_t lookup(const char *file, const char *local, const char *remote)
{
	char line[512], l[64], r[64];
	long long uid;
	int64_t found = PEER_UNKNOWN;
	FILE *f = fopen(file, "re");

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

int64_t peer_uid(int fd, const char *proc_net)
{
	struct sockaddr_storage self, other;
	socklen_t sl = sizeof(self), ol = sizeof(other);
	char a[64], b[64], file[256];

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
	if (self.ss_family == AF_INET) {
		const struct sockaddr_in *o = (const struct sockaddr_in *)&other;

		/* Only a peer on this host has a line in our /proc/net/tcp. */
		if ((ntohl(o->sin_addr.s_addr) >> 24) != 127)
			return PEER_UNKNOWN;
		format_v4(o, a, sizeof(a));
		format_v4((const struct sockaddr_in *)&self, b, sizeof(b));
		snprintf(file, sizeof(file), "%s/tcp", proc_net);
		return lookup(file, a, b);
	}
	if (self.ss_family == AF_INET6) {
		const struct sockaddr_in6 *o = (const struct sockaddr_in6 *)&other;

		if (!IN6_IS_ADDR_LOOPBACK(&o->sin6_addr) &&
		    !(IN6_IS_ADDR_V4MAPPED(&o->sin6_addr) && o->sin6_addr.s6_addr[12] == 127))
			return PEER_UNKNOWN;
		format_v6(o, a, sizeof(a));
		format_v6((const struct sockaddr_in6 *)&self, b, sizeof(b));
		snprintf(file, sizeof(file), "%s/tcp6", proc_net);
		return lookup(file, a, b);
	}
	return PEER_UNKNOWN;
}
