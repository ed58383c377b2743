/*
 * http_server_private.h - what the HTTP server's own files share, and no
 * other file (http_server.h is the contract): the server's state and the
 * functions one of its files gives the others.
 *
 * The files, each calling only those listed below it (no loops):
 *   http_server.c    start and stop: listeners, libmicrohttpd, state
 *   http_accept.c    the listeners' accept loop: admitted, or told why not
 *   http_request.c   a request: routed, answered from the cache or computed
 *   http_conn.c      a connection: who the peer is, admitted or not
 *   http_files.c     the dashboard's files
 *   http_metrics.c   GET /metrics
 *   http_cache.c     answers kept until the data changes
 *   http_respond.c   an answer queued on its connection
 *   http_listen.c    the listen addresses, parsed and bound
 */
#ifndef STACKD_HTTP_SERVER_PRIVATE_H
#define STACKD_HTTP_SERVER_PRIVATE_H

#include "daemon/serve/http_config.h"
#include "daemon/serve/http_guard.h"
#include "daemon/serve/http_host.h"
#include "daemon/serve/window_share.h"
#include "lib/api.h"

#include <microhttpd.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/un.h>

#define IDLE_DB_CONNECTIONS 8    /* kept open between requests, at most */
#define MAX_URL 2048
#define CACHE_ENTRIES 32

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
	char unix_paths[HTTP_MAX_LISTENERS][sizeof(((struct sockaddr_un *)0)->sun_path)];
	/* One libmicrohttpd daemon for every listener: it accepts nothing
	 * itself, http_accept.c's thread hands it each admitted connection. */
	struct MHD_Daemon *mhd;
	pthread_t acceptor;
	bool acceptor_running;
	int wake_fd;                   /* stops the accept thread */
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
	struct http_hosts hosts;       /* what Host may name (http_host.h) */
	unsigned max_idle_db;          /* IDLE_DB_CONNECTIONS, or fewer (http_budget.h) */
	/* Windows shared by the requests for the same length (cfg.info.windows) */
	struct window_share *windows;
	struct api_windows api_windows;
	/* Admitted connections libmicrohttpd has not started yet (under lock). */
	struct http_conn *pending;
};

/* http_accept.c: the accept thread, started once libmicrohttpd runs and
 * stopped before it is (the listeners stay open: http_server_stop's). */
int http_accept_start(struct http_server *s, char *err, size_t errlen);
void http_accept_stop(struct http_server *s);

/* http_request.c: libmicrohttpd's callbacks for a request */
/* The request's URL, seen first, before libmicrohttpd decodes it. */
void *http_uri_seen(void *cls, const char *uri, struct MHD_Connection *conn);
/* The request: answered once it is whole. */
enum MHD_Result http_handle(void *cls, struct MHD_Connection *conn, const char *url,
			    const char *method, const char *version, const char *upload,
			    size_t *upload_size, void **req_cls);
void http_request_done(void *cls, struct MHD_Connection *conn, void **req_cls,
		       enum MHD_RequestTerminationCode toe);

/* http_conn.c */
/* What the peer of conn (NULL: unknown) may see. */
struct api_access http_access_of(const struct http_server *s, const struct http_conn *conn);
/* The guard's record of a connection (its socket context), or NULL. */
struct http_conn *http_conn_of(struct MHD_Connection *conn);
/* A connection accepted on fd from peer: identified and put to the guard.
 * 0: admitted, for libmicrohttpd to start (its record waits, found by fd
 * when it does); -EBUSY (its peer's share is full) or -EAGAIN (the
 * server is, or no memory or descriptor is left): the caller answers it
 * (http_conn_refusal) and closes fd. */
int http_conn_accepted(struct http_server *s, int fd, const struct sockaddr_storage *peer);
/* libmicrohttpd did not take fd after all: its record goes. */
void http_conn_dropped(struct http_server *s, int fd);
/* Every record still waiting goes (the server stops). */
void http_conn_drop_all(struct http_server *s);
/* The whole answer to a connection refused with why (-EBUSY: 429, else
 * 503; Retry-After: 1) into buf; its length. */
size_t http_conn_refusal(int why, char *buf, size_t len);
/* libmicrohttpd's callback for a connection's start and end. */
void http_connection_event(void *cls, struct MHD_Connection *conn, void **socket_context,
			   enum MHD_ConnectionNotificationCode code);

/* http_files.c */
/* The dashboard's file at path (GET or HEAD). */
enum MHD_Result http_serve_file(struct http_server *s, struct MHD_Connection *conn,
				const char *method, const char *path);

/* http_metrics.c */
/* GET /metrics into resp: 0, or -ENOMEM. */
int http_metrics(struct http_server *s, const char *method, const char *query,
		 const struct api_access *acc, struct api_response *resp);

/* http_cache.c */
/* Copy of a cached answer for key, or false.  When stale and nobody is
 * refreshing it, the caller is elected to refresh (*refresh = true). */
bool http_cache_get(struct http_server *s, const char *key, struct api_response *out,
		    bool *refresh);
/* Keep a copy of r for key, computed at generation gen. */
void http_cache_put(struct http_server *s, const char *key, uint64_t gen,
		    const struct api_response *r);
/* The refresh of key was given up: another request may refresh it. */
void http_cache_release(struct http_server *s, const char *key);

/* http_respond.c */
/* Queue body (malloc'd, len bytes; freed here in every case) as the
 * answer; html: with the page's Content-Security-Policy. */
enum MHD_Result http_respond(struct MHD_Connection *conn, int status, const char *type,
			     char *body, size_t len, bool html);
/* resp's answer with its extra header fields; its body is libmicrohttpd's
 * to free from here on. */
enum MHD_Result http_respond_api(struct MHD_Connection *conn, struct api_response *resp);
/* Queue a copy of the JSON text json as the answer. */
enum MHD_Result http_send_text(struct MHD_Connection *conn, int status, const char *json);
/* 429: this peer's share of the server's work is in use (peer true), or
 * 503: every place is (false); with Retry-After: 1 both. */
enum MHD_Result http_send_busy(struct MHD_Connection *conn, bool peer);

#endif
