/*
 * http_request.c - a request: its raw URL kept, then routed once whole -
 * to the dashboard's files, /metrics or the API - and answered from the
 * cache or computed on a read-only database connection, within its peer's
 * share of the server's work (http_guard.h).
 */
#include "daemon/serve/http_server_private.h"
#include "lib/query.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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
	if (epoch == s->db_epoch && s->n_idle_db < IDLE_DB_CONNECTIONS) {
		s->idle_db[s->n_idle_db++] = db;
		db = NULL;
	}
	pthread_mutex_unlock(&s->lock);
	db_close(db);
}

enum MHD_Result http_handle(void *cls, struct MHD_Connection *conn, const char *url,
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
	hc = http_conn_of(conn);
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
		return http_send_text(conn, 414, "{\"error\": \"URL too long\"}\n");
	/* The raw URI, before libmicrohttpd splits and decodes it: the query
	 * string goes to our strict parser. */
	query = strchr(req->uri, '?');
	snprintf(path, sizeof(path), "%.*s", (int)(query ? (size_t)(query - req->uri) :
						   strlen(req->uri)), req->uri);
	if (query != NULL)
		query++;
	(void)url;
	if (strncmp(path, "/api/", 5) != 0 && strcmp(path, "/metrics") != 0)
		return http_serve_file(s, conn, method, path);

	acc = http_access_of(s, hc);
	snprintf(key, sizeof(key), "%s|%s|%d:%" PRId64, method, req->uri, acc.full, acc.uid);
	if (strcmp(method, "GET") == 0 && http_cache_get(s, key, &resp, &refresh))
		return http_respond(conn, resp.status, resp.content_type, resp.body, resp.len,
				    false);
	/* Reading the store costs CPU: a peer without full access waits its
	 * turn instead of taking every core. */
	if (http_guard_work_begin(s->guard, hc) < 0) {
		http_cache_release(s, key);
		return http_send_busy(conn);
	}
	gen = atomic_load(&s->generation);
	err[0] = '\0';
	db = db_acquire(s, &epoch, err, sizeof(err));
	if (strcmp(path, "/metrics") == 0)
		r = http_metrics(s, method, query, &acc, &resp);
	else
		r = api_handle(&s->cfg.info, db, err, method, path, query, &acc, &resp);
	db_release(s, db, epoch);
	http_guard_work_done(s->guard, hc);
	if (r < 0) {
		http_cache_release(s, key);
		return http_send_text(conn, 500, "{\"error\": \"out of memory\"}\n");
	}
	if (resp.cacheable && resp.status == 200 && strcmp(method, "GET") == 0)
		http_cache_put(s, key, gen, &resp);
	else
		http_cache_release(s, key);
	return http_respond(conn, resp.status, resp.content_type, resp.body, resp.len, false);
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
