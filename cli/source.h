/*
 * source.h - where stackctl gets its data: the daemon's HTTP API (Unix
 * socket or loopback TCP), or a database file read in-process by the very
 * same API code (lib/api.h).  Either way a verb asks for an API path and
 * gets the API's JSON, so the two can never disagree.
 *
 * Which one: --db FILE, else --url URL, else $STACKD_URL, else $STACKD_DB,
 * else the daemon at unix:/run/stackd/stackd.sock or 127.0.0.1:9466, else
 * the default database file when the daemon is not running.
 */
#ifndef STACKCTL_SOURCE_H
#define STACKCTL_SOURCE_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>

struct db;

#define SOURCE_TIMEOUT_MS 10000   /* one answer of the daemon's */

struct source {
	bool is_http;
	char url[512];            /* is_http */
	char db_path[4096];       /* !is_http */
	struct db *db;
	/* Why this source, when it was not named: "stackd is not running;
	 * reading /var/lib/stackd/stackd.db". */
	char note[4200];
};

#define SOURCE_HELP \
	"  --url URL        the daemon's API: unix:/PATH or http://HOST:PORT (default\n" \
	"                   $STACKD_URL, else unix:/run/stackd/stackd.sock, else\n" \
	"                   http://127.0.0.1:9466)\n" \
	"  --db FILE        read a database file instead of asking the daemon\n" \
	"                   (default when the daemon is not running: $STACKD_DB, else\n" \
	"                   /var/lib/stackd/stackd.db)\n"

/* Pick the source; url/db are the flags (NULL when not given).  Returns 0,
 * or -errno with a one-line reason that names what was tried. */
int source_open(struct source *s, const char *url, const char *db, char *err, size_t errlen);
void source_close(struct source *s);

/* GET target ("/api/v1/top?limit=5") and parse the JSON answer into *ret
 * (json_decref it).  Returns 0, -ENOENT (404), -EACCES (403), -EINVAL
 * (400: our request was wrong), -ENODATA (503: no data yet) or -EIO, with
 * the API's own error message in err. */
int source_get(struct source *s, const char *target, json_t **ret, char *err, size_t errlen);

/* A refusal (status not 200, answer its JSON or NULL) as source_get
 * returns it: the -errno, and the API's message in err. */
int source_refused(int status, json_t *answer, char *err, size_t errlen);

/* "stackd at unix:/run/stackd/stackd.sock" or "database FILE". */
void source_describe(const struct source *s, char *buf, size_t len);

/* Append "&key=value" (value %-encoded) to a target being built. */
void source_add_param(char *target, size_t len, const char *key, const char *value);

/* value %-encoded (letters, digits and -_.~:@ kept) into buf. */
void source_encode(const char *value, char *buf, size_t len);

#endif
