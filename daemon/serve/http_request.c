/*
 * http_request.c - a request: its raw URL kept, then routed once whole -
 * to the dashboard's files, /metrics or the API - and answered from the
 * cache or computed on a read-only database connection, within its peer's
 * share of the server's work (http_guard.h).
 */
#include "daemon/serve/http_server_private.h"
#include "lib/clock.h"
#include "lib/query.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

/* The nice value of a connection's thread once a peer without full access
 * has it compute an answer: the collector's workers, and root's requests,
 * run first (the unit gives the whole daemon a CPU weight, not a quota). */
#define HTTP_LIMITED_NICE 10

/* Per request: the URL with its query string, as the client sent it. */
struct request {
	char uri[MAX_URL + 1];
	bool too_long;
	bool headers_seen;   /* answer on the second call, when the request is whole */
};

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
	if (epoch == s->db_epoch && s->n_idle_db < s->max_idle_db) {
		s->idle_db[s->n_idle_db++] = db;
		db = NULL;
	}
	pthread_mutex_unlock(&s->lock);
	db_close(db);
}

/* Out of descriptors (the open-file limit): what a failed open of the
 * database then means, rather than a database that cannot be read. */
static bool out_of_fds(void)
{
	int fd = open("/dev/null", O_RDONLY | O_CLOEXEC);

	if (fd >= 0) {
		close(fd);
		return false;
	}
	return errno == EMFILE || errno == ENFILE;
}

/* The CPU time one answer may still take (db_set_stop). */
struct cpu_cap {
	uint64_t until_ns;           /* CLOCK_THREAD_CPUTIME_ID */
	bool hit;
};

static uint64_t thread_cpu_ns(void)
{
	return clock_ns(CLOCK_THREAD_CPUTIME_ID);
}

static int over_cpu(void *ctx)
{
	struct cpu_cap *cap = ctx;

	if (thread_cpu_ns() > cap->until_ns)
		cap->hit = true;
	return cap->hit;
}

/* Compute an uncached answer on a read-only connection, within the CPU
 * time an answer may take.  0, -ENOMEM, -EMFILE (no descriptor for the
 * database), or -ETIME (given up at the cap: resp is empty). */
static int compute(struct http_server *s, const char *method, const char *path,
		   const char *query, const struct api_access *acc, struct api_response *resp)
{
	uint64_t cap_ns = s->cfg.query_cpu_ns ? s->cfg.query_cpu_ns : HTTP_QUERY_CPU_DEFAULT_NS;
	struct cpu_cap cap = { thread_cpu_ns() + cap_ns, false };
	char err[1024] = "";
	uint64_t epoch;
	struct db *db;
	int r;

	if (strcmp(path, "/metrics") == 0)
		return http_metrics(s, method, query, acc, resp);
	db = db_acquire(s, &epoch, err, sizeof(err));
	if (db == NULL && out_of_fds())
		return -EMFILE;
	if (db != NULL)
		db_set_stop(db, over_cpu, &cap);
	r = api_handle(&s->cfg.info, db, err, method, path, query, acc, resp);
	if (db != NULL)
		db_set_stop(db, NULL, NULL);
	db_release(s, db, epoch);
	if (cap.hit) {
		free(resp->body);
		memset(resp, 0, sizeof(*resp));
		return -ETIME;
	}
	return r;
}

/* An answer from the store (the API, /metrics): from the cache, or
 * computed within the peer's share of the server's work. */
static enum MHD_Result answer(struct http_server *s, struct MHD_Connection *conn,
			     struct http_conn *hc, const char *method, const char *uri,
			     const char *path, const char *query)
{
	struct api_access acc = http_access_of(s, hc);
	struct api_response resp;
	char key[MAX_URL + 32];
	bool refresh;
	uint64_t gen;
	int r;

	memset(&resp, 0, sizeof(resp));
	snprintf(key, sizeof(key), "%s|%s|%d:%" PRId64, method, uri, acc.full, acc.uid);
	if (strcmp(method, "GET") == 0 && http_cache_get(s, key, &resp, &refresh))
		return http_respond(conn, resp.status, resp.content_type, resp.body, resp.len,
				    false);
	/* Reading the store costs CPU: a peer without full access waits its
	 * turn instead of taking every core, and below everyone else. */
	r = http_guard_work_begin(s->guard, hc);
	if (r < 0) {
		http_cache_release(s, key);
		return http_send_busy(conn, r == -EBUSY);
	}
	if (!hc->full && !hc->niced) {
		(void)setpriority(PRIO_PROCESS, (id_t)gettid(), HTTP_LIMITED_NICE);
		hc->niced = true;   /* the connection's thread, for its life */
	}
	gen = atomic_load(&s->generation);
	r = compute(s, method, path, query, &acc, &resp);
	http_guard_work_done(s->guard, hc);
	if (r < 0)
		http_cache_release(s, key);
	if (r == -EMFILE)
		return http_send_busy(conn, false);
	if (r == -ETIME) {
		char msg[160];

		snprintf(msg, sizeof(msg), "{\"error\": \"the answer took more than %.3g s of "
			 "CPU time and was given up: ask for a shorter window or fewer rows\"}\n",
			 (double)(s->cfg.query_cpu_ns ? s->cfg.query_cpu_ns :
				  HTTP_QUERY_CPU_DEFAULT_NS) / 1e9);
		return http_send_text(conn, 503, msg);
	}
	if (r < 0)
		return http_send_text(conn, 500, "{\"error\": \"out of memory\"}\n");
	if (resp.cacheable && resp.status == 200 && strcmp(method, "GET") == 0)
		http_cache_put(s, key, gen, &resp);
	else
		http_cache_release(s, key);
	return http_respond_api(conn, &resp);
}

/* The headers are in: a Host that names neither us nor a configured name
 * is a page the user's browser was sent to by DNS rebinding (http_host.h),
 * answered 421 at once. */
static enum MHD_Result headers_in(struct http_server *s, struct MHD_Connection *conn,
				  struct http_conn *hc, struct request *req)
{
	const char *host = MHD_lookup_connection_value(conn, MHD_HEADER_KIND,
						       MHD_HTTP_HEADER_HOST);

	req->headers_seen = true;
	if (http_host_allowed(&s->hosts, host, (const struct sockaddr *)&hc->local))
		return MHD_YES;
	http_guard_request_started(s->guard, hc);
	return http_send_text(conn, 421, "{\"error\": \"misdirected request: the Host header "
			      "names neither localhost, an address stackd listens on, nor a name "
			      "in http_allowed_hosts\"}\n");
}

enum MHD_Result http_handle(void *cls, struct MHD_Connection *conn, const char *url,
			    const char *method, const char *version, const char *upload,
			    size_t *upload_size, void **req_cls)
{
	struct http_server *s = cls;
	struct request *req = *req_cls;
	struct http_conn *hc;
	const char *query;
	char path[MAX_URL + 1];

	(void)url;
	(void)version;
	(void)upload;
	if (*upload_size != 0) {
		/* A body is never read (GET only), but it is part of the
		 * request: its deadline runs on until the body ends. */
		*upload_size = 0;
		return MHD_YES;
	}
	/* A connection the guard did not admit (over its peer's share) or
	 * could not track is closed, never answered: its work would escape
	 * every limit, and an untracked peer would pass for an anonymous one. */
	hc = http_conn_of(conn);
	if (hc == NULL || !hc->admitted)
		return MHD_NO;
	/* Answering before the request is complete makes libmicrohttpd close
	 * the connection: wait for the call that ends it, keep-alive works. */
	if (req != NULL && !req->headers_seen)
		return headers_in(s, conn, hc, req);
	http_guard_request_started(s->guard, hc);   /* whole: the deadline stops */
	if (req == NULL || req->too_long)
		return http_send_text(conn, 414, "{\"error\": \"URL too long\"}\n");
	/* The raw URI, before libmicrohttpd splits and decodes it: the query
	 * string goes to our strict parser. */
	query = strchr(req->uri, '?');
	snprintf(path, sizeof(path), "%.*s", (int)(query ? (size_t)(query - req->uri) :
						   strlen(req->uri)), req->uri);
	if (query != NULL)
		query++;
	if (strncmp(path, "/api/", 5) != 0 && strcmp(path, "/metrics") != 0)
		return http_serve_file(s, conn, method, path);
	return answer(s, conn, hc, method, req->uri, path, query);
}

void *http_uri_seen(void *cls, const char *uri, struct MHD_Connection *conn)
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

void http_request_done(void *cls, struct MHD_Connection *conn, void **req_cls,
		       enum MHD_RequestTerminationCode toe)
{
	struct http_server *s = cls;
	struct http_conn *hc = http_conn_of(conn);

	(void)toe;
	if (hc != NULL)
		http_guard_request_done(s->guard, hc);
	free(*req_cls);
	*req_cls = NULL;
}
