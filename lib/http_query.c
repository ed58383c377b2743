/*
 * http_query.c - see http_query.h.
 */
#include "lib/http_query.h"
#include "lib/hex.h"
#include "lib/duration.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

/* Decode text[0..len) into out (size cap, NUL-terminated).  Returns the
 * length, or -EINVAL: bad %XX, a NUL or control byte, or too long. */
static int decode_as(const char *text, size_t len, char *out, size_t cap, bool plus_is_space)
{
	size_t i, n = 0;

	for (i = 0; i < len; i++) {
		int c = (unsigned char)text[i];

		if (c == '+' && plus_is_space) {
			c = ' ';
		} else if (c == '%') {
			int hi, lo;

			if (i + 2 >= len)
				return -EINVAL;   /* "%" or "%4" at the end */
			hi = hex_digit((unsigned char)text[i + 1]);
			lo = hex_digit((unsigned char)text[i + 2]);
			if (hi < 0 || lo < 0)
				return -EINVAL;
			c = hi << 4 | lo;
			i += 2;
		}
		if (c < 0x20 || c == 0x7f)
			return -EINVAL;   /* no NULs or control bytes in names and values */
		if (n + 1 >= cap)
			return -EINVAL;
		out[n++] = (char)c;
	}
	out[n] = '\0';
	return (int)n;
}

static int decode(const char *text, size_t len, char *out, size_t cap)
{
	return decode_as(text, len, out, cap, true);
}

int http_query_decode_segment(const char *text, char *out, size_t cap)
{
	return decode_as(text, strlen(text), out, cap, false);
}

static void list_allowed(const char *const *allowed, char *buf, size_t len)
{
	size_t used = 0;
	unsigned i;

	buf[0] = '\0';
	for (i = 0; allowed[i] != NULL && used < len; i++) {
		int n = snprintf(buf + used, len - used, "%s%s", i ? ", " : "", allowed[i]);

		if (n > 0)
			used += (size_t)n;
	}
}

static bool is_allowed(const char *const *allowed, const char *key)
{
	unsigned i;

	for (i = 0; allowed[i] != NULL; i++)
		if (strcmp(allowed[i], key) == 0)
			return true;
	return false;
}

int http_query_parse(const char *text, const char *const *allowed, struct http_query *q,
		     char *err, size_t errlen)
{
	const char *p = text;

	memset(q, 0, sizeof(*q));
	if (p == NULL)
		return 0;
	while (*p != '\0') {
		const char *amp = strchr(p, '&'), *eq;
		size_t len = amp != NULL ? (size_t)(amp - p) : strlen(p);
		char key[sizeof(q->p[0].key)];
		unsigned i;

		if (len == 0) {
			snprintf(err, errlen, "empty parameter in the query string");
			return -EINVAL;
		}
		eq = memchr(p, '=', len);
		if (eq == NULL) {
			snprintf(err, errlen, "parameter '%.*s' has no value (use %.*s=VALUE)",
				 (int)(len > 32 ? 32 : len), p, (int)(len > 32 ? 32 : len), p);
			return -EINVAL;
		}
		if (decode(p, (size_t)(eq - p), key, sizeof(key)) <= 0) {
			snprintf(err, errlen, "malformed parameter name in the query string");
			return -EINVAL;
		}
		/* "_": a cache buster (jQuery's cache: false appends _=<time>):
		 * accepted and ignored, so such clients are served */
		if (strcmp(key, "_") != 0 && !is_allowed(allowed, key)) {
			char list[256];

			list_allowed(allowed, list, sizeof(list));
			snprintf(err, errlen, "unknown parameter '%s' (expected one of: %s)", key,
				 list[0] ? list : "none");
			return -EINVAL;
		}
		for (i = 0; i < q->n; i++)
			if (strcmp(q->p[i].key, key) == 0) {
				snprintf(err, errlen, "parameter '%s' given twice", key);
				return -EINVAL;
			}
		if (q->n == HTTP_QUERY_MAX_PARAMS) {
			snprintf(err, errlen, "too many parameters");
			return -EINVAL;
		}
		if (decode(eq + 1, len - (size_t)(eq + 1 - p), q->p[q->n].value,
			   sizeof(q->p[q->n].value)) < 0) {
			snprintf(err, errlen, "parameter '%s': malformed or too long value", key);
			return -EINVAL;
		}
		snprintf(q->p[q->n].key, sizeof(q->p[q->n].key), "%s", key);
		q->n += strcmp(key, "_") != 0;
		p += len;
		if (*p == '&') {
			p++;
			if (*p == '\0') {
				snprintf(err, errlen, "empty parameter in the query string");
				return -EINVAL;
			}
		}
	}
	return 0;
}

const char *http_query_get(const struct http_query *q, const char *key)
{
	unsigned i;

	for (i = 0; i < q->n; i++)
		if (strcmp(q->p[i].key, key) == 0)
			return q->p[i].value;
	return NULL;
}

int http_query_uint(const struct http_query *q, const char *key, uint64_t max, uint64_t *ret,
		    char *err, size_t errlen)
{
	const char *v = http_query_get(q, key);
	uint64_t n = 0;
	const char *c;

	if (v == NULL)
		return 1;
	for (c = v; *c != '\0'; c++) {
		if (*c < '0' || *c > '9' || n > (UINT64_MAX - 9) / 10)
			break;
		n = n * 10 + (uint64_t)(*c - '0');
	}
	if (*v == '\0' || *c != '\0' || n > max) {
		snprintf(err, errlen, "parameter '%s': '%s' is not a whole number from 0 to %llu",
			 key, v, (unsigned long long)max);
		return -EINVAL;
	}
	*ret = n;
	return 0;
}

int http_query_duration(const struct http_query *q, const char *key, uint64_t max_ns,
			uint64_t *ret_ns, char *err, size_t errlen)
{
	const char *v = http_query_get(q, key);
	char limit[32];
	uint64_t ns;

	if (v == NULL)
		return 1;
	duration_format(max_ns, limit, sizeof(limit));
	if (duration_parse(v, &ns) < 0 || ns == 0) {
		snprintf(err, errlen, "parameter '%s': invalid duration '%s' (expected e.g. 60s, "
			 "5m, 1h)", key, v);
		return -EINVAL;
	}
	if (ns > max_ns) {
		snprintf(err, errlen, "parameter '%s': %s is longer than the limit, %s", key, v,
			 limit);
		return -EINVAL;
	}
	*ret_ns = ns;
	return 0;
}

int http_query_bool(const struct http_query *q, const char *key, bool *ret, char *err,
		    size_t errlen)
{
	const char *v = http_query_get(q, key);

	if (v == NULL)
		return 1;
	if (strcmp(v, "1") == 0 || strcmp(v, "true") == 0) {
		*ret = true;
		return 0;
	}
	if (strcmp(v, "0") == 0 || strcmp(v, "false") == 0) {
		*ret = false;
		return 0;
	}
	snprintf(err, errlen, "parameter '%s': '%s' is not a boolean (1, 0, true, false)", key, v);
	return -EINVAL;
}
