/*
 * http_server.c - the HTTP side started and stopped: its listeners bound,
 * libmicrohttpd's daemons started on them, its state freed.  Requests are
 * http_request.c's and connections http_conn.c's (http_server_private.h
 * lists the files).
 */
#include "daemon/serve/http_server.h"
#include "daemon/serve/http_server_private.h"
#include "daemon/serve/http_budget.h"
#include "daemon/base/log.h"
#include "lib/clock.h"
#include "lib/query.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define CONNECTION_TIMEOUT_S 10
#define CONNECTION_MEMORY 32768      /* headers + URL of one request */

/* libmicrohttpd's own messages, as debug lines. */
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
	s->wake_fd = -1;
	snprintf(s->listen_copy, sizeof(s->listen_copy), "%s", cfg->listen);
	snprintf(s->web_dir, sizeof(s->web_dir), "%s", cfg->web_dir ? cfg->web_dir : "");
	snprintf(s->database, sizeof(s->database), "%s", cfg->info.database);
	s->cfg.info.database = s->database;
	pthread_mutex_init(&s->lock, NULL);
	s->windows = window_share_new(&s->generation, NULL);
	if (s->windows == NULL) {
		pthread_mutex_destroy(&s->lock);
		free(s);
		return -ENOMEM;
	}
	s->api_windows = (struct api_windows){ window_share_get, window_share_put, s->windows };
	s->cfg.info.windows = &s->api_windows;
	r = http_hosts_parse(cfg->allowed_hosts != NULL ? cfg->allowed_hosts : "", &s->hosts, err,
			     errlen);
	for (item = strtok_r(s->listen_copy, ",", &save); item != NULL && r == 0;
	     item = strtok_r(NULL, ",", &save)) {
		struct sockaddr_storage addr;
		socklen_t len;
		int fd;

		while (*item == ' ')
			item++;
		if (s->n_listen == HTTP_MAX_LISTENERS) {
			snprintf(err, errlen, "listen: at most %d addresses", HTTP_MAX_LISTENERS);
			r = -EINVAL;
			break;
		}
		fd = http_listen_open(item, s->unix_paths[s->n_listen], sizeof(s->unix_paths[0]),
				      err, errlen);
		if (fd < 0) {
			r = fd;
			break;
		}
		s->listen_fd[s->n_listen] = fd;
		s->listen_text[s->n_listen] = item;
		s->n_listen++;
		if (http_server_parse_listen(item, &addr, &len, err, errlen) == 0)
			http_hosts_add_addr(&s->hosts, (struct sockaddr *)&addr);
	}
	if (r < 0) {
		http_server_stop(s);
		return r;
	}
	*ret = s;
	return 0;
}

/* What the open-file limit leaves the HTTP side, now that the counters
 * and the store are open (http_budget.h). */
static void size_to_fds(struct http_server *s, struct http_budget *b)
{
	http_budget_measure(s->cfg.max_connections, b);
	s->max_idle_db = b->work < IDLE_DB_CONNECTIONS ? b->work : IDLE_DB_CONNECTIONS;
	if (b->fd_bound)
		log_warning("http: the open-file limit (%llu, %llu open) leaves room for %u "
			    "connections at once and %u uncached answers, not "
			    "http_max_connections = %u; more are told 503 (raise LimitNOFILE= "
			    "or ulimit -n)", b->fd_limit, b->fds_open, b->connections, b->work,
			    s->cfg.max_connections);
}

int http_server_serve(struct http_server *s, char *err, size_t errlen)
{
	struct http_budget b;
	unsigned i;
	int r;

	if (s == NULL)
		return 0;
	size_to_fds(s, &b);
	r = http_guard_new(b.connections, b.work, &s->guard);
	if (r < 0) {
		snprintf(err, errlen, "cannot start the HTTP guard: %s", strerror(-r));
		return r;
	}
	s->mhd = MHD_start_daemon(
		/* A thread per connection: a slow answer holds up only its own
		 * client (the guard bounds how many). */
		MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_THREAD_PER_CONNECTION |
		MHD_USE_POLL | MHD_USE_NO_LISTEN_SOCKET | MHD_USE_ITC | MHD_USE_ERROR_LOG,
		0, NULL, NULL, http_handle, s,
		MHD_OPTION_EXTERNAL_LOGGER, mhd_log, s,
		/* The guard admits b.connections; closed ones take a moment
		 * to leave libmicrohttpd's count. */
		MHD_OPTION_CONNECTION_LIMIT, b.connections + HTTP_FD_REFUSALS,
		MHD_OPTION_CONNECTION_TIMEOUT, (unsigned)CONNECTION_TIMEOUT_S,
		MHD_OPTION_CONNECTION_MEMORY_LIMIT, (size_t)CONNECTION_MEMORY,
		MHD_OPTION_URI_LOG_CALLBACK, http_uri_seen, s,
		MHD_OPTION_NOTIFY_COMPLETED, http_request_done, s,
		MHD_OPTION_NOTIFY_CONNECTION, http_connection_event, s,
		MHD_OPTION_END);
	if (s->mhd == NULL) {
		snprintf(err, errlen, "listen '%s': libmicrohttpd could not start", s->cfg.listen);
		return -EIO;
	}
	/* started with the server's other threads (after the privileges
	 * are dropped), on a connection of its own */
	r = window_share_start_refresher(s->windows, s->database,
					 s->cfg.query_cpu_ns ? s->cfg.query_cpu_ns :
							       HTTP_QUERY_CPU_DEFAULT_NS);
	if (r < 0) {
		snprintf(err, errlen, "cannot start the window refresher: %s", strerror(-r));
		return r;
	}
	/* accept() must not block the loop: a client gone between poll()
	 * and accept() would hold every listener up. */
	for (i = 0; i < s->n_listen; i++)
		(void)fcntl(s->listen_fd[i], F_SETFL, fcntl(s->listen_fd[i], F_GETFL) | O_NONBLOCK);
	return http_accept_start(s, err, errlen);
}

void http_server_stop(struct http_server *s)
{
	size_t i;

	if (s == NULL)
		return;
	http_accept_stop(s);   /* no new connection from here on */
	if (s->mhd != NULL)
		MHD_stop_daemon(s->mhd);   /* every connection closed, and told so */
	if (s->guard != NULL)
		http_conn_drop_all(s);
	for (i = 0; i < s->n_listen; i++) {
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
	window_share_free(s->windows);
	pthread_mutex_destroy(&s->lock);
	free(s);
}

void http_server_data_changed(struct http_server *s)
{
	if (s == NULL)
		return;
	atomic_fetch_add(&s->generation, 1);
	window_share_release_idle(s->windows, clock_ns(CLOCK_MONOTONIC));
}

void http_server_model_changed(struct http_server *s)
{
	if (s == NULL)
		return;
	window_share_forget(s->windows);
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
	window_share_forget(s->windows);
	for (i = 0; i < n; i++)
		db_close(old[i]);
	http_server_data_changed(s);
}
