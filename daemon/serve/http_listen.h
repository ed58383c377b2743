/*
 * http_listen.h - the HTTP side's listen addresses: parsed, and bound
 * (the part that may need root: a socket under /run/stackd).
 */
#ifndef STACKD_HTTP_LISTEN_H
#define STACKD_HTTP_LISTEN_H

#include <stddef.h>
#include <sys/socket.h>

/* Parse one listen address into what bind() takes; exposed for tests.
 * "127.0.0.1:PORT", "[::1]:PORT", "localhost:PORT", "unix:/PATH". */
int http_server_parse_listen(const char *text, struct sockaddr_storage *addr, socklen_t *len,
			     char *err, size_t errlen);

/* A listening socket for the address text: its fd, or -errno with a
 * one-line reason in err.  A Unix socket's path is copied to unix_path
 * (pathlen bytes), for its removal at the end; anyone may connect to it. */
int http_listen_open(const char *text, char *unix_path, size_t pathlen, char *err,
		     size_t errlen);

#endif
