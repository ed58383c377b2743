/*
 * http_listen.c - see http_listen.h.
 */
#include "daemon/serve/http_listen.h"

#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

int http_server_parse_listen(const char *text, struct sockaddr_storage *addr, socklen_t *len,
			     char *err, size_t errlen)
{
	char host[128];
	const char *colon;
	char *end;
	long port;

	memset(addr, 0, sizeof(*addr));
	if (strncmp(text, "unix:", 5) == 0) {
		struct sockaddr_un *un = (struct sockaddr_un *)addr;

		if (text[5] != '/' || strlen(text + 5) >= sizeof(un->sun_path)) {
			snprintf(err, errlen, "listen '%s': expected unix:/ABSOLUTE/PATH (under %zu "
				 "bytes)", text, sizeof(un->sun_path));
			return -EINVAL;
		}
		un->sun_family = AF_UNIX;
		memcpy(un->sun_path, text + 5, strlen(text + 5) + 1);
		*len = sizeof(*un);
		return 0;
	}
	colon = strrchr(text, ':');
	if (colon == NULL || colon == text || (size_t)(colon - text) >= sizeof(host)) {
		snprintf(err, errlen, "listen '%s': expected ADDRESS:PORT (e.g. 127.0.0.1:9466) or "
			 "unix:/PATH", text);
		return -EINVAL;
	}
	port = strtol(colon + 1, &end, 10);
	if (*end != '\0' || colon[1] == '\0' || port < 1 || port > 65535) {
		snprintf(err, errlen, "listen '%s': port must be 1-65535", text);
		return -EINVAL;
	}
	snprintf(host, sizeof(host), "%.*s", (int)(colon - text), text);
	if (strcmp(host, "localhost") == 0)
		snprintf(host, sizeof(host), "127.0.0.1");
	if (host[0] == '[' && host[strlen(host) - 1] == ']') {
		struct sockaddr_in6 *in6 = (struct sockaddr_in6 *)addr;

		host[strlen(host) - 1] = '\0';
		if (inet_pton(AF_INET6, host + 1, &in6->sin6_addr) == 1) {
			in6->sin6_family = AF_INET6;
			in6->sin6_port = htons((uint16_t)port);
			*len = sizeof(*in6);
			return 0;
		}
	} else {
		struct sockaddr_in *in = (struct sockaddr_in *)addr;

		if (inet_pton(AF_INET, host, &in->sin_addr) == 1) {
			in->sin_family = AF_INET;
			in->sin_port = htons((uint16_t)port);
			*len = sizeof(*in);
			return 0;
		}
	}
	snprintf(err, errlen, "listen '%s': '%s' is not an IP address (use 127.0.0.1, [::1] or "
		 "unix:/PATH)", text, host);
	return -EINVAL;
}

/* Make the directory a Unix socket goes in, if missing (one level). */
static void make_parent_dir(const char *path)
{
	char dir[sizeof(((struct sockaddr_un *)0)->sun_path) + 1];
	char *slash;

	if (strlen(path) >= sizeof(dir))
		return;
	memcpy(dir, path, strlen(path) + 1);
	slash = strrchr(dir, '/');
	if (slash == NULL || slash == dir)
		return;
	*slash = '\0';
	if (mkdir(dir, 0755) < 0 && errno != EEXIST)
		return;   /* bind() will say what is wrong */
}

/* A socket file left by a previous run is replaced; one a live process
 * answers on is not (a second daemon would steal the first one's clients):
 * -EADDRINUSE naming that process. */
static int socket_in_use(const char *path, const char *text, char *err, size_t errlen)
{
	struct sockaddr_un sun = { .sun_family = AF_UNIX };
	struct ucred cred = { 0 };
	socklen_t len = sizeof(cred);
	int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);

	if (fd < 0)
		return 0;
	memcpy(sun.sun_path, path, strlen(path) + 1);
	if (connect(fd, (struct sockaddr *)&sun, sizeof(sun)) < 0) {
		close(fd);
		return 0;
	}
	if (getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &cred, &len) < 0)
		cred.pid = 0;
	close(fd);
	if (cred.pid > 0)
		snprintf(err, errlen, "listen '%s': the socket is in use by pid %d (another "
			 "stackd?); stop it or listen elsewhere", text, (int)cred.pid);
	else
		snprintf(err, errlen, "listen '%s': the socket is in use by another process; stop "
			 "it or listen elsewhere", text);
	return -EADDRINUSE;
}

int http_listen_open(const char *text, char *unix_path, size_t pathlen, char *err,
		     size_t errlen)
{
	struct sockaddr_storage addr;
	socklen_t len;
	struct stat st;
	int fd, one = 1, r;

	r = http_server_parse_listen(text, &addr, &len, err, errlen);
	if (r < 0)
		return r;
	fd = socket(addr.ss_family, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0) {
		snprintf(err, errlen, "listen '%s': socket: %s", text, strerror(errno));
		return -errno;
	}
	if (addr.ss_family == AF_UNIX) {
		const char *path = ((struct sockaddr_un *)&addr)->sun_path;

		/* /run/stackd is made by systemd (RuntimeDirectory=); by hand
		 * we make it.  A socket left by a previous run goes; any other
		 * file stays. */
		make_parent_dir(path);
		if (lstat(path, &st) == 0 && S_ISSOCK(st.st_mode)) {
			r = socket_in_use(path, text, err, errlen);
			if (r < 0) {
				close(fd);
				return r;
			}
			unlink(path);
		}
		if (strlen(path) < pathlen)
			memcpy(unix_path, path, strlen(path) + 1);
	} else {
		setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
	}
	if (bind(fd, (struct sockaddr *)&addr, len) < 0 || listen(fd, 128) < 0) {
		r = -errno;
		snprintf(err, errlen, "listen '%s': %s", text, strerror(errno));
		close(fd);
		return r;
	}
	/* Anyone may connect to the Unix socket: the peer's uid decides what
	 * it sees. */
	if (addr.ss_family == AF_UNIX)
		chmod(unix_path, 0666);
	return fd;
}
