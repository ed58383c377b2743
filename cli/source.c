/*
 * source.c - see source.h.
 */
#include "cli/source.h"
#include "cli/http_client.h"
#include "lib/api.h"
#include "lib/db.h"
#include "lib/paths.h"
#include "lib/query.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define SOURCE_PROBE_TIMEOUT_MS 2000

static int open_db(struct source *s, const char *path, char *err, size_t errlen)
{
	s->is_http = false;
	snprintf(s->db_path, sizeof(s->db_path), "%s", path);
	return db_open(path, &s->db, err, errlen);
}

/* Is a daemon answering at url?  Any HTTP answer says so; an unknown API
 * path costs it no database work. */
static int probe(const char *url, char *err, size_t errlen)
{
	char *body = NULL;
	size_t len;
	int status, r;

	r = http_client_get(url, "/api/v1/", SOURCE_PROBE_TIMEOUT_MS, &status, &body, &len, err,
			    errlen);
	free(body);
	return r;
}

int source_open(struct source *s, const char *url, const char *db, char *err, size_t errlen)
{
	static const char *const daemon_urls[] = { "unix:" STACKD_DEFAULT_SOCKET,
						   "http://" STACKD_DEFAULT_TCP };
	const char *env_url = getenv("STACKD_URL"), *env_db = getenv("STACKD_DB");
	char tried[2][300];
	size_t i;
	int r;

	memset(s, 0, sizeof(*s));
	if (db != NULL)
		return open_db(s, db, err, errlen);
	if (url == NULL && env_url != NULL && env_url[0] != '\0')
		url = env_url;
	if (url != NULL) {
		s->is_http = true;
		snprintf(s->url, sizeof(s->url), "%s", url);
		return 0;   /* the first request says what is wrong with it */
	}
	if (env_db != NULL && env_db[0] != '\0')
		return open_db(s, env_db, err, errlen);
	for (i = 0; i < 2; i++) {
		if (probe(daemon_urls[i], tried[i], sizeof(tried[i])) == 0) {
			s->is_http = true;
			snprintf(s->url, sizeof(s->url), "%s", daemon_urls[i]);
			return 0;
		}
	}
	/* $STACKD_DB is empty or unset here: the daemon's default file */
	r = open_db(s, STACKD_DEFAULT_DB, err, errlen);
	if (r < 0) {
		char why[512];

		snprintf(why, sizeof(why), "%s", err);
		snprintf(err, errlen, "stackd is not reachable (%s; %s), and %s", tried[0], tried[1],
			 why);
		return r;
	}
	snprintf(s->note, sizeof(s->note), "stackd is not reachable; reading %s", s->db_path);
	return 0;
}

void source_close(struct source *s)
{
	db_close(s->db);
	s->db = NULL;
}

void source_describe(const struct source *s, char *buf, size_t len)
{
	if (s->is_http)
		snprintf(buf, len, "stackd at %s", s->url);
	else
		snprintf(buf, len, "database %s", s->db_path);
}

/* Split target into path and query, answer in-process. */
static int get_local(struct source *s, const char *target, int *status, char **body)
{
	struct api_info info = { .database = s->db_path };
	struct api_access full = { true, (int64_t)getuid() };
	struct api_response resp;
	char path[1024];
	const char *q = strchr(target, '?');
	int r;

	snprintf(path, sizeof(path), "%.*s", (int)(q ? (size_t)(q - target) : strlen(target)),
		 target);
	r = api_handle(&info, s->db, "", "GET", path, q ? q + 1 : NULL, &full, &resp);
	if (r < 0)
		return r;
	*status = resp.status;
	*body = resp.body;
	return 0;
}

int source_get(struct source *s, const char *target, json_t **ret, char *err, size_t errlen)
{
	json_error_t jerr;
	char *body = NULL;
	size_t len = 0;
	json_t *j;
	int status = 0, r;

	if (s->is_http)
		r = http_client_get(s->url, target, SOURCE_TIMEOUT_MS, &status, &body, &len, err,
				    errlen);
	else if ((r = get_local(s, target, &status, &body)) < 0)
		snprintf(err, errlen, "%s", strerror(-r));
	if (r < 0)
		return r;
	j = json_loads(body, JSON_DECODE_ANY, &jerr);
	free(body);
	if (j == NULL) {
		snprintf(err, errlen, "the answer to %s is not JSON (%s)", target, jerr.text);
		return -EIO;
	}
	if (status != 200) {
		r = source_refused(status, j, err, errlen);
		json_decref(j);
		return r;
	}
	*ret = j;
	return 0;
}

int source_refused(int status, json_t *answer, char *err, size_t errlen)
{
	const char *msg = json_string_value(json_object_get(answer, "error"));

	snprintf(err, errlen, "%s", msg ? msg : "the daemon refused the request");
	switch (status) {
	case 400:
		return -EINVAL;
	case 403:
		return -EACCES;
	case 404:
		return -ENOENT;
	case 503:
		return -ENODATA;
	default:
		return -EIO;
	}
}

void source_encode(const char *value, char *buf, size_t len)
{
	const unsigned char *p = (const unsigned char *)value;
	size_t used = 0;

	for (; *p != '\0' && used + 4 < len; p++) {
		if ((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') ||
		    strchr("-_.~:@", *p) != NULL)
			buf[used++] = (char)*p;
		else
			used += (size_t)snprintf(buf + used, len - used, "%%%02X", *p);
	}
	if (len > 0)
		buf[used < len ? used : len - 1] = '\0';
}

void source_add_param(char *target, size_t len, const char *key, const char *value)
{
	size_t used = strlen(target);

	used += (size_t)snprintf(target + used, used < len ? len - used : 0, "%s%s=",
				 strchr(target, '?') ? "&" : "?", key);
	if (used < len)
		source_encode(value, target + used, len - used);
}
