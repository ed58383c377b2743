/*
 * http_server.c - see http_server.h.
 */
#include "daemon/serve/http_server.h"
#include "daemon/serve/web_files.h"
#include "daemon/serve/http_guard.h"
#include "lib/http_query.h"
#include "daemon/base/log.h"
#include "daemon/serve/peer.h"
#include "lib/query.h"

#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <microhttpd.h>
#include <netinet/in.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#define IDLE_DB_CONNECTIONS 8    /* kept open between requests */
#define CONNECTION_TIMEOUT_S 10
#define CONNECTION_MEMORY 32768      /* headers + URL of one request */
#define MAX_URL 2048
#define CACHE_ENTRIES 32
#define WEB_MAX_FILE (4 << 20)

/* An answer kept until the data changes. */
struct cached {
	char key[MAX_URL + 32];
	uint64_t generation;
	uint64_t used;                 /* LRU clock */
	bool computing;                /* a thread is refreshing it: others take the old one */
	struct api_response resp;      /* body NULL until first computed */
};


struct http_server {
	struct http_config cfg;
	char listen_copy[1024], web_dir[4096], database[4096];
	/* Bound by http_server_open (as root, if need be), served by
	 * http_server_serve (threads, after the privileges are dropped). */
	int listen_fd[HTTP_MAX_LISTENERS];
	const char *listen_text[HTTP_MAX_LISTENERS];   /* into listen_copy */
	unsigned n_listen;
	struct MHD_Daemon *mhd[HTTP_MAX_LISTENERS];
	char unix_paths[HTTP_MAX_LISTENERS][sizeof(((struct sockaddr_un *)0)->sun_path)];
	unsigned n_mhd;
	atomic_uint_fast64_t generation;
	pthread_mutex_t lock;          /* cache and idle connections */
	struct cached cache[CACHE_ENTRIES];
	uint64_t clock;
	/* Read-only database connections not in use (a SQLite handle serves
	 * one request at a time: SQLITE_OPEN_NOMUTEX). */
	struct db *idle_db[IDLE_DB_CONNECTIONS];
	size_t n_idle_db;
	/* Bumped when the database file was replaced: connections opened
	 * before read the old file, and are closed instead of kept. */
	uint64_t db_epoch;
	struct http_guard *guard;
};

/* Per request: the URL with its query string, as the client sent it. */
struct request {
	char uri[MAX_URL + 1];
	bool too_long;
	bool headers_seen;   /* answer on the second call, when the request is whole */
};

/* ---- listen addresses -------------------------------------------------- */

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

static int open_listener(const char *text, char *unix_path, size_t pathlen, char *err,
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

/* ---- database connections ---------------------------------------------- */

/* A read-only connection for one request: an idle one, else a new one;
 * *epoch: the file it reads (db_release). */
static struct db *db_acquire(struct http_server *s, uint64_t *epoch, char *err, size_t errlen)
{
	struct db *db = NULL;

	pthread_mutex_lock(&s->lock);
	if (s->n_idle_db > 0)
		db = s->idle_db[--s->n_idle_db];
	*epoch = s->db_epoch;
	pthread_mutex_unlock(&s->lock);
	if (db == NULL && db_open(s->database, &db, err, errlen) < 0)
		return NULL;   /* tried again on the next request */
	return db;
}

static void db_release(struct http_server *s, struct db *db, uint64_t epoch)
{
	if (db == NULL)
		return;
	pthread_mutex_lock(&s->lock);
	if (epoch == s->db_epoch && s->n_idle_db < IDLE_DB_CONNECTIONS) {
		s->idle_db[s->n_idle_db++] = db;
		db = NULL;
	}
	pthread_mutex_unlock(&s->lock);
	db_close(db);
}

/* ---- the cache ---------------------------------------------------------- */

/* Copy of a cached answer for key, or false.  When stale and nobody is
 * refreshing it, the caller is elected to refresh (*refresh = true). */
static bool cache_get(struct http_server *s, const char *key, struct api_response *out,
		      bool *refresh)
{
	uint64_t gen = atomic_load(&s->generation);
	struct cached *c = NULL;
	bool hit = false;
	size_t i;

	*refresh = true;
	pthread_mutex_lock(&s->lock);
	for (i = 0; i < CACHE_ENTRIES; i++)
		if (s->cache[i].resp.body != NULL && strcmp(s->cache[i].key, key) == 0) {
			c = &s->cache[i];
			break;
		}
	if (c != NULL && (c->generation == gen || c->computing)) {
		out->body = malloc(c->resp.len ? c->resp.len : 1);
		if (out->body != NULL) {
			memcpy(out->body, c->resp.body, c->resp.len);
			out->len = c->resp.len;
			out->status = c->resp.status;
			out->content_type = c->resp.content_type;
			c->used = ++s->clock;
			hit = true;
			*refresh = false;
		}
	} else if (c != NULL) {
		c->computing = true;
	}
	pthread_mutex_unlock(&s->lock);
	return hit;
}

static void cache_release(struct http_server *s, const char *key);

static void cache_put(struct http_server *s, const char *key, uint64_t gen,
		      const struct api_response *r)
{
	struct cached *c = NULL;
	char *copy;
	size_t i;

	copy = malloc(r->len ? r->len : 1);
	if (copy == NULL) {
		cache_release(s, key);   /* else it would be served stale for ever */
		return;
	}
	memcpy(copy, r->body, r->len);
	pthread_mutex_lock(&s->lock);
	for (i = 0; i < CACHE_ENTRIES && c == NULL; i++)
		if (s->cache[i].resp.body != NULL && strcmp(s->cache[i].key, key) == 0)
			c = &s->cache[i];
	for (i = 0; i < CACHE_ENTRIES && c == NULL; i++)
		if (s->cache[i].resp.body == NULL)
			c = &s->cache[i];
	if (c == NULL) {
		c = &s->cache[0];
		for (i = 1; i < CACHE_ENTRIES; i++)
			if (s->cache[i].used < c->used)
				c = &s->cache[i];
	}
	free(c->resp.body);
	snprintf(c->key, sizeof(c->key), "%s", key);
	c->resp = *r;
	c->resp.body = copy;
	c->generation = gen;
	c->computing = false;
	c->used = ++s->clock;
	pthread_mutex_unlock(&s->lock);
}

static void cache_release(struct http_server *s, const char *key)
{
	size_t i;

	pthread_mutex_lock(&s->lock);
	for (i = 0; i < CACHE_ENTRIES; i++)
		if (s->cache[i].resp.body != NULL && strcmp(s->cache[i].key, key) == 0)
			s->cache[i].computing = false;
	pthread_mutex_unlock(&s->lock);
}

/* ---- requests ------------------------------------------------------------ */

static struct api_access access_of(const struct http_server *s, const struct http_conn *conn)
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

static enum MHD_Result respond(struct MHD_Connection *conn, int status, const char *type, char *body,
			       size_t len, bool html)
{
	struct MHD_Response *r;
	enum MHD_Result ret;

	r = MHD_create_response_from_buffer(len, body, MHD_RESPMEM_MUST_FREE);
	if (r == NULL) {
		free(body);
		return MHD_NO;
	}
	MHD_add_response_header(r, "Content-Type", type);
	MHD_add_response_header(r, "X-Content-Type-Options", "nosniff");
	MHD_add_response_header(r, "Cache-Control", "no-store");
	if (html)
		MHD_add_response_header(r, "Content-Security-Policy",
					"default-src 'self'; img-src 'self' data:");
	if (status == 405)
		MHD_add_response_header(r, "Allow", "GET, HEAD");
	ret = MHD_queue_response(conn, (unsigned)status, r);
	MHD_destroy_response(r);
	return ret;
}

static enum MHD_Result send_text(struct MHD_Connection *conn, int status, const char *json)
{
	char *b = strdup(json);

	return b == NULL ? MHD_NO : respond(conn, status, "application/json", b, strlen(b), false);
}

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
				return send_text(conn, 500, "{\"error\": \"out of memory\"}\n");
			memcpy(copy, web_files[i].data, web_files[i].len);
			return respond(conn, 200, type, copy, web_files[i].len,
				       strstr(type, "html") != NULL);
		}
	return send_text(conn, 404, "{\"error\": \"not found\"}\n");
}

/* The dashboard's files: plain names of regular files in web_dir only (no
 * '/', no leading dot, no symbolic link), so no path can leave it; or the
 * copy built into stackd. */
static enum MHD_Result serve_file(struct http_server *s, struct MHD_Connection *conn,
				  const char *method, const char *path)
{
	const char *name = strcmp(path, "/") == 0 ? "index.html" : path + 1;
	char file[4096 + MAX_URL + 2], *buf;
	const char *type = type_of(name);
	struct stat st;
	ssize_t got;
	int fd;

	if (strcmp(method, "GET") != 0 && strcmp(method, "HEAD") != 0)
		return send_text(conn, 405, "{\"error\": \"GET only\"}\n");
	if (s->web_dir[0] == '\0' || type == NULL || name[0] == '.' || strchr(name, '/') != NULL ||
	    strspn(name, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._-") !=
	    strlen(name))
		return send_text(conn, 404, "{\"error\": \"not found\"}\n");
	if (strcmp(s->web_dir, "builtin") == 0)
		return serve_builtin(conn, name, type);
	snprintf(file, sizeof(file), "%s/%s", s->web_dir, name);
	/* A link inside web_dir is not served: it could lead anywhere the
	 * daemon can read (O_NONBLOCK: nor does a FIFO hold the thread). */
	fd = open(file, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0)
		return send_text(conn, 404, "{\"error\": \"not found\"}\n");
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode) || st.st_size > WEB_MAX_FILE) {
		close(fd);
		return send_text(conn, 404, "{\"error\": \"not found\"}\n");
	}
	buf = malloc((size_t)st.st_size + 1);
	got = buf != NULL ? read(fd, buf, (size_t)st.st_size) : -1;
	close(fd);
	if (got < 0) {
		free(buf);
		return send_text(conn, 500, "{\"error\": \"cannot read the file\"}\n");
	}
	return respond(conn, 200, type, buf, (size_t)got, strstr(type, "html") != NULL);
}

/* GET /metrics: Prometheus text format; a user who may not see every
 * process gets the collector's health only. */
static int metrics(struct http_server *s, const char *method, const char *query,
		   const struct api_access *acc, struct api_response *resp)
{
	static const char *const keys[] = { NULL };
	struct http_query q;
	char err[256], *buf = NULL;
	size_t len = 0;
	FILE *f;

	memset(resp, 0, sizeof(*resp));
	if (strcmp(method, "GET") != 0 && strcmp(method, "HEAD") != 0)
		return api_error(resp, 405, "method %s not allowed (GET only)", method);
	if (http_query_parse(query, keys, &q, err, sizeof(err)) < 0)
		return api_error(resp, 400, "%s", err);
	f = open_memstream(&buf, &len);
	if (f == NULL)
		return -ENOMEM;
	prom_render(s->cfg.prom, s->cfg.info.writer, acc->full, f);
	if (fclose(f) != 0) {
		free(buf);
		return -ENOMEM;
	}
	resp->status = 200;
	resp->body = buf;
	resp->len = len;
	resp->content_type = "text/plain; version=0.0.4; charset=utf-8";
	resp->cacheable = true;
	return 0;
}

/* The guard's record of a connection (its socket context), or NULL. */
static struct http_conn *conn_of(struct MHD_Connection *conn)
{
	const union MHD_ConnectionInfo *ci =
		MHD_get_connection_info(conn, MHD_CONNECTION_INFO_SOCKET_CONTEXT);

	return ci != NULL ? ci->socket_context : NULL;
}

/* 429: this peer's share of the server's work is in use. */
static enum MHD_Result send_busy(struct MHD_Connection *conn)
{
	static const char body[] = "{\"error\": \"busy: your earlier requests are still being "
				   "answered; retry in a second\"}\n";
	struct MHD_Response *r;
	enum MHD_Result ret;

	r = MHD_create_response_from_buffer(sizeof(body) - 1, (void *)(uintptr_t)body,
					    MHD_RESPMEM_PERSISTENT);
	if (r == NULL)
		return MHD_NO;
	MHD_add_response_header(r, "Content-Type", "application/json");
	MHD_add_response_header(r, "Retry-After", "1");
	ret = MHD_queue_response(conn, 429, r);
	MHD_destroy_response(r);
	return ret;
}

static enum MHD_Result handle(void *cls, struct MHD_Connection *conn, const char *url,
			      const char *method, const char *version, const char *upload,
			      size_t *upload_size, void **req_cls)
{
	struct http_server *s = cls;
	struct request *req = *req_cls;
	struct api_access acc;
	struct api_response resp;
	struct http_conn *hc;
	const char *query;
	char path[MAX_URL + 1], key[MAX_URL + 32], err[1024];
	bool refresh;
	uint64_t gen, epoch;
	struct db *db;
	int r;

	(void)version;
	(void)upload;
	if (*upload_size != 0) {
		*upload_size = 0;    /* a body is never read: GET only */
		return MHD_YES;
	}
	/* A connection the guard did not admit (over its peer's share) or
	 * could not track is closed, never answered: its work would escape
	 * every limit, and an untracked peer would pass for an anonymous one. */
	hc = conn_of(conn);
	if (hc == NULL || !hc->admitted)
		return MHD_NO;
	/* Answering before the request is complete makes libmicrohttpd close
	 * the connection: wait for the call that ends it, keep-alive works. */
	if (req != NULL && !req->headers_seen) {
		req->headers_seen = true;
		http_guard_request_started(s->guard, hc);
		return MHD_YES;
	}
	if (req == NULL || req->too_long)
		return send_text(conn, 414, "{\"error\": \"URL too long\"}\n");
	/* The raw URI, before libmicrohttpd splits and decodes it: the query
	 * string goes to our strict parser. */
	query = strchr(req->uri, '?');
	snprintf(path, sizeof(path), "%.*s", (int)(query ? (size_t)(query - req->uri) :
						   strlen(req->uri)), req->uri);
	if (query != NULL)
		query++;
	(void)url;
	if (strncmp(path, "/api/", 5) != 0 && strcmp(path, "/metrics") != 0)
		return serve_file(s, conn, method, path);

	acc = access_of(s, hc);
	snprintf(key, sizeof(key), "%s|%s|%d:%" PRId64, method, req->uri, acc.full, acc.uid);
	if (strcmp(method, "GET") == 0 && cache_get(s, key, &resp, &refresh))
		return respond(conn, resp.status, resp.content_type, resp.body, resp.len, false);
	/* Reading the store costs CPU: a peer without full access waits its
	 * turn instead of taking every core. */
	if (http_guard_work_begin(s->guard, hc) < 0) {
		cache_release(s, key);
		return send_busy(conn);
	}
	gen = atomic_load(&s->generation);
	err[0] = '\0';
	db = db_acquire(s, &epoch, err, sizeof(err));
	if (strcmp(path, "/metrics") == 0)
		r = metrics(s, method, query, &acc, &resp);
	else
		r = api_handle(&s->cfg.info, db, err, method, path, query, &acc, &resp);
	db_release(s, db, epoch);
	http_guard_work_done(s->guard, hc);
	if (r < 0) {
		cache_release(s, key);
		return send_text(conn, 500, "{\"error\": \"out of memory\"}\n");
	}
	if (resp.cacheable && resp.status == 200 && strcmp(method, "GET") == 0)
		cache_put(s, key, gen, &resp);
	else
		cache_release(s, key);
	return respond(conn, resp.status, resp.content_type, resp.body, resp.len, false);
}

static void *uri_seen(void *cls, const char *uri, struct MHD_Connection *conn)
{
	struct request *req = calloc(1, sizeof(*req));

	(void)cls;
	(void)conn;
	if (req == NULL)
		return NULL;
	if (strlen(uri) > MAX_URL)
		req->too_long = true;
	else
		snprintf(req->uri, sizeof(req->uri), "%s", uri);
	return req;
}

static void request_done(void *cls, struct MHD_Connection *conn, void **req_cls,
			 enum MHD_RequestTerminationCode toe)
{
	struct http_server *s = cls;
	struct http_conn *hc = conn_of(conn);

	(void)toe;
	if (hc != NULL)
		http_guard_request_done(s->guard, hc);
	free(*req_cls);
	*req_cls = NULL;
}

/* The share key of a peer we cannot identify by uid: its address. */
static void peer_address(struct MHD_Connection *conn, char *buf, size_t len)
{
	const union MHD_ConnectionInfo *ci =
		MHD_get_connection_info(conn, MHD_CONNECTION_INFO_CLIENT_ADDRESS);
	const struct sockaddr *sa = ci != NULL ? ci->client_addr : NULL;
	char ip[INET6_ADDRSTRLEN] = "?";

	if (sa != NULL && sa->sa_family == AF_INET)
		inet_ntop(AF_INET, &((const struct sockaddr_in *)(const void *)sa)->sin_addr, ip,
			  sizeof(ip));
	else if (sa != NULL && sa->sa_family == AF_INET6)
		inet_ntop(AF_INET6, &((const struct sockaddr_in6 *)(const void *)sa)->sin6_addr, ip,
			  sizeof(ip));
	snprintf(buf, len, "address %s", ip);
}

/* Who is connecting is found once per connection (keep-alive reuses it),
 * and the guard decides whether it gets in. */
static void connection_started(struct http_server *s, struct MHD_Connection *conn,
			       void **socket_context)
{
	const union MHD_ConnectionInfo *ci =
		MHD_get_connection_info(conn, MHD_CONNECTION_INFO_CONNECTION_FD);
	struct http_conn *hc;

	if (ci == NULL)
		return;
	hc = calloc(1, sizeof(*hc));
	/* Our own descriptor of the socket: the reaper's shutdown() can never
	 * hit a descriptor number libmicrohttpd has closed and reused. */
	if (hc != NULL)
		hc->fd = fcntl(ci->connect_fd, F_DUPFD_CLOEXEC, 0);
	if (hc == NULL || hc->fd < 0) {
		free(hc);
		(void)shutdown(ci->connect_fd, SHUT_RDWR);
		return;
	}
	hc->uid = peer_uid(ci->connect_fd, "/proc/net");
	hc->full = access_of(s, hc).full;
	if (hc->uid != PEER_UNKNOWN)
		snprintf(hc->peer, sizeof(hc->peer), "uid %" PRId64, hc->uid);
	else
		peer_address(conn, hc->peer, sizeof(hc->peer));
	if (!http_guard_admit(s->guard, hc)) {
		log_debug("http: %s is over its share of connections; closing a new one",
			  hc->peer);
		(void)shutdown(ci->connect_fd, SHUT_RDWR);
	}
	*socket_context = hc;
}

static void connection_event(void *cls, struct MHD_Connection *conn, void **socket_context,
			     enum MHD_ConnectionNotificationCode code)
{
	struct http_server *s = cls;
	struct http_conn *hc;

	if (code == MHD_CONNECTION_NOTIFY_STARTED) {
		connection_started(s, conn, socket_context);
	} else if (code == MHD_CONNECTION_NOTIFY_CLOSED && *socket_context != NULL) {
		hc = *socket_context;
		http_guard_closed(s->guard, hc);
		close(hc->fd);
		free(hc);
		*socket_context = NULL;
	}
}

static void mhd_log(void *cls, const char *fmt, va_list ap)
{
	char msg[512];
	size_t n;

	(void)cls;
	vsnprintf(msg, sizeof(msg), fmt, ap);
	n = strlen(msg);
	while (n > 0 && msg[n - 1] == '\n')
		msg[--n] = '\0';
	log_debug("http: %s", msg);
}

/* ---- start and stop ------------------------------------------------------- */

int http_server_open(const struct http_config *cfg, struct http_server **ret, char *err,
		     size_t errlen)
{
	struct http_server *s;
	char *save = NULL, *item;
	int r = 0;

	*ret = NULL;
	if (cfg->listen == NULL || cfg->listen[0] == '\0' || strcmp(cfg->listen, "none") == 0)
		return 0;
	s = calloc(1, sizeof(*s));
	if (s == NULL)
		return -ENOMEM;
	s->cfg = *cfg;
	snprintf(s->listen_copy, sizeof(s->listen_copy), "%s", cfg->listen);
	snprintf(s->web_dir, sizeof(s->web_dir), "%s", cfg->web_dir ? cfg->web_dir : "");
	snprintf(s->database, sizeof(s->database), "%s", cfg->info.database);
	s->cfg.info.database = s->database;
	pthread_mutex_init(&s->lock, NULL);
	for (item = strtok_r(s->listen_copy, ",", &save); item != NULL;
	     item = strtok_r(NULL, ",", &save)) {
		int fd;

		while (*item == ' ')
			item++;
		if (s->n_listen == HTTP_MAX_LISTENERS) {
			snprintf(err, errlen, "listen: at most %d addresses", HTTP_MAX_LISTENERS);
			r = -EINVAL;
			break;
		}
		fd = open_listener(item, s->unix_paths[s->n_listen], sizeof(s->unix_paths[0]), err,
				   errlen);
		if (fd < 0) {
			r = fd;
			break;
		}
		s->listen_fd[s->n_listen] = fd;
		s->listen_text[s->n_listen] = item;
		s->n_listen++;
	}
	if (r < 0) {
		http_server_stop(s);
		return r;
	}
	*ret = s;
	return 0;
}

int http_server_serve(struct http_server *s, char *err, size_t errlen)
{
	int r;

	if (s == NULL)
		return 0;
	r = http_guard_new(s->cfg.max_connections, &s->guard);
	if (r < 0) {
		snprintf(err, errlen, "cannot start the HTTP guard: %s", strerror(-r));
		return r;
	}
	for (; s->n_mhd < s->n_listen; s->n_mhd++) {
		unsigned i = s->n_mhd;

		s->mhd[i] = MHD_start_daemon(
			/* A thread per connection: a slow answer holds up only
			 * its own client (the guard bounds how many). */
			MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_THREAD_PER_CONNECTION |
			MHD_USE_POLL | MHD_USE_ERROR_LOG,
			0, NULL, NULL, handle, s,
			MHD_OPTION_LISTEN_SOCKET, s->listen_fd[i],
			MHD_OPTION_CONNECTION_LIMIT, s->cfg.max_connections,
			MHD_OPTION_CONNECTION_TIMEOUT, (unsigned)CONNECTION_TIMEOUT_S,
			MHD_OPTION_CONNECTION_MEMORY_LIMIT, (size_t)CONNECTION_MEMORY,
			MHD_OPTION_URI_LOG_CALLBACK, uri_seen, s,
			MHD_OPTION_NOTIFY_COMPLETED, request_done, s,
			MHD_OPTION_NOTIFY_CONNECTION, connection_event, s,
			MHD_OPTION_EXTERNAL_LOGGER, mhd_log, s,
			MHD_OPTION_END);
		if (s->mhd[i] == NULL) {
			snprintf(err, errlen, "listen '%s': libmicrohttpd could not start",
				 s->listen_text[i]);
			return -EIO;
		}
		s->listen_fd[i] = -1;   /* libmicrohttpd's now: it closes it */
	}
	return 0;
}

void http_server_stop(struct http_server *s)
{
	size_t i;

	if (s == NULL)
		return;
	for (i = 0; i < s->n_listen; i++) {
		if (i < s->n_mhd)
			MHD_stop_daemon(s->mhd[i]);   /* closes the listening socket too */
		if (s->listen_fd[i] >= 0)
			close(s->listen_fd[i]);
		if (s->unix_paths[i][0] != '\0')
			unlink(s->unix_paths[i]);
	}
	http_guard_free(s->guard);   /* after the connections: they are gone (NULL: never served) */
	for (i = 0; i < s->n_idle_db; i++)
		db_close(s->idle_db[i]);
	for (i = 0; i < CACHE_ENTRIES; i++)
		free(s->cache[i].resp.body);
	pthread_mutex_destroy(&s->lock);
	free(s);
}

void http_server_data_changed(struct http_server *s)
{
	if (s != NULL)
		atomic_fetch_add(&s->generation, 1);
}

void http_server_database_replaced(struct http_server *s)
{
	struct db *old[IDLE_DB_CONNECTIONS];
	size_t i, n;

	if (s == NULL)
		return;
	pthread_mutex_lock(&s->lock);
	n = s->n_idle_db;
	memcpy(old, s->idle_db, n * sizeof(old[0]));
	s->n_idle_db = 0;
	s->db_epoch++;
	pthread_mutex_unlock(&s->lock);
	for (i = 0; i < n; i++)
		db_close(old[i]);
	http_server_data_changed(s);
}
