/*
 * http_files.c - the dashboard's files: from web_dir, or the copy built
 * into stackd (web_files.h).
 */
#include "daemon/serve/http_server_private.h"
#include "daemon/serve/web_files.h"

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define WEB_MAX_FILE (4 << 20)

/* The Content-Type of a dashboard file by its extension; NULL: not served. */
static const char *type_of(const char *name)
{
	static const struct { const char *ext, *type; } types[] = {
		{ ".html", "text/html; charset=utf-8" }, { ".js", "text/javascript; charset=utf-8" },
		{ ".css", "text/css; charset=utf-8" }, { ".svg", "image/svg+xml" },
		{ ".png", "image/png" }, { ".ico", "image/x-icon" },
	};
	const char *dot = strrchr(name, '.');
	size_t i;

	for (i = 0; dot != NULL && i < sizeof(types) / sizeof(types[0]); i++)
		if (strcmp(dot, types[i].ext) == 0)
			return types[i].type;
	return NULL;
}

/* A file of the dashboard built into stackd, by its plain name. */
static enum MHD_Result serve_builtin(struct MHD_Connection *conn, const char *name,
				     const char *type)
{
	unsigned i;

	for (i = 0; i < n_web_files; i++)
		if (strcmp(web_files[i].name, name) == 0) {
			char *copy = malloc(web_files[i].len + 1);

			if (copy == NULL)
				return http_send_text(conn, 500,
						      "{\"error\": \"out of memory\"}\n");
			memcpy(copy, web_files[i].data, web_files[i].len);
			return http_respond(conn, 200, type, copy, web_files[i].len,
					    strstr(type, "html") != NULL);
		}
	return http_send_text(conn, 404, "{\"error\": \"not found\"}\n");
}

/* The dashboard's files: plain names of regular files in web_dir only (no
 * '/', no leading dot, no symbolic link), so no path can leave it; or the
 * copy built into stackd. */
enum MHD_Result http_serve_file(struct http_server *s, struct MHD_Connection *conn,
				const char *method, const char *path)
{
	const char *name = strcmp(path, "/") == 0 ? "index.html" : path + 1;
	char file[4096 + MAX_URL + 2], *buf;
	const char *type = type_of(name);
	struct stat st;
	ssize_t got;
	int fd;

	if (strcmp(method, "GET") != 0 && strcmp(method, "HEAD") != 0)
		return http_send_text(conn, 405, "{\"error\": \"GET only\"}\n");
	if (s->web_dir[0] == '\0' || type == NULL || name[0] == '.' || strchr(name, '/') != NULL ||
	    strspn(name, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._-") !=
	    strlen(name))
		return http_send_text(conn, 404, "{\"error\": \"not found\"}\n");
	if (strcmp(s->web_dir, "builtin") == 0)
		return serve_builtin(conn, name, type);
	snprintf(file, sizeof(file), "%s/%s", s->web_dir, name);
	/* A link inside web_dir is not served: it could lead anywhere the
	 * daemon can read (O_NONBLOCK: nor does a FIFO hold the thread). */
	fd = open(file, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0)
		return http_send_text(conn, 404, "{\"error\": \"not found\"}\n");
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode) || st.st_size > WEB_MAX_FILE) {
		close(fd);
		return http_send_text(conn, 404, "{\"error\": \"not found\"}\n");
	}
	buf = malloc((size_t)st.st_size + 1);
	got = buf != NULL ? read(fd, buf, (size_t)st.st_size) : -1;
	close(fd);
	if (got < 0) {
		free(buf);
		return http_send_text(conn, 500, "{\"error\": \"cannot read the file\"}\n");
	}
	return http_respond(conn, 200, type, buf, (size_t)got, strstr(type, "html") != NULL);
}
