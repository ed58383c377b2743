/*
 * The API's query-string parser: decoding, strictness (unknown, repeated,
 * empty, malformed parameters are errors naming the parameter), typed
 * readers with caps; and listen-address parsing.
 */
#include "lib/http_query.h"
#include "daemon/serve/http_server.h"
#include "test.h"

#include <errno.h>
#include <netinet/in.h>
#include <string.h>
#include <sys/un.h>

static const char *const keys[] = { "window", "sort", "limit", "comm", "all", NULL };

static int parse(const char *text, struct http_query *q, char *err)
{
	return http_query_parse(text, keys, q, err, 256);
}

int main(void)
{
	struct http_query q;
	struct sockaddr_storage a;
	socklen_t len;
	char err[256];
	uint64_t v;
	bool b;

	CHECK(parse(NULL, &q, err) == 0 && q.n == 0);
	CHECK(parse("", &q, err) == 0 && q.n == 0);
	CHECK(parse("window=60s&comm=my+app%2Fx&limit=5", &q, err) == 0);
	CHECK(strcmp(http_query_get(&q, "comm"), "my app/x") == 0);
	CHECK(http_query_get(&q, "sort") == NULL);
	CHECK(http_query_uint(&q, "limit", 100, &v, err, sizeof(err)) == 0 && v == 5);
	CHECK(http_query_duration(&q, "window", 3600000000000ULL, &v, err, sizeof(err)) == 0 &&
	      v == 60000000000ULL);
	CHECK(http_query_uint(&q, "sort", 100, &v, err, sizeof(err)) == 1);   /* not given */
	CHECK(parse("comm=", &q, err) == 0 && strcmp(http_query_get(&q, "comm"), "") == 0);

	CHECK(parse("windw=1", &q, err) == -EINVAL && strstr(err, "unknown parameter 'windw'"));
	/* "_", a cache buster, is accepted and ignored, wherever it is */
	CHECK(parse("_=1700000000000&limit=3", &q, err) == 0 && q.n == 1 &&
	      strcmp(http_query_get(&q, "limit"), "3") == 0 && http_query_get(&q, "_") == NULL);
	CHECK(parse("limit=3&_=x", &q, err) == 0 && q.n == 1);
	CHECK(parse("limit=3&_=x&", &q, err) == -EINVAL);
	CHECK(parse("_", &q, err) == -EINVAL && strstr(err, "has no value"));
	CHECK(parse("limit=1&limit=2", &q, err) == -EINVAL && strstr(err, "given twice"));
	CHECK(parse("limit", &q, err) == -EINVAL && strstr(err, "has no value"));
	CHECK(parse("limit=1&", &q, err) == -EINVAL);
	CHECK(parse("&limit=1", &q, err) == -EINVAL);
	CHECK(parse("limit=1&&sort=x", &q, err) == -EINVAL);
	CHECK(parse("comm=%zz", &q, err) == -EINVAL && strstr(err, "'comm'"));
	CHECK(parse("comm=%4", &q, err) == -EINVAL);
	CHECK(parse("comm=%00", &q, err) == -EINVAL);   /* no NUL smuggling */
	CHECK(parse("comm=a%0Ab", &q, err) == -EINVAL);
	CHECK(parse("%6cimit=3", &q, err) == 0 && strcmp(http_query_get(&q, "limit"), "3") == 0);

	CHECK(parse("limit=101", &q, err) == 0);
	CHECK(http_query_uint(&q, "limit", 100, &v, err, sizeof(err)) == -EINVAL);
	CHECK(parse("limit=99999999999999999999999", &q, err) == 0);
	CHECK(http_query_uint(&q, "limit", 100, &v, err, sizeof(err)) == -EINVAL);
	CHECK(parse("limit=1x", &q, err) == 0);
	CHECK(http_query_uint(&q, "limit", 100, &v, err, sizeof(err)) == -EINVAL &&
	      strstr(err, "parameter 'limit'"));
	CHECK(parse("window=2h", &q, err) == 0);
	CHECK(http_query_duration(&q, "window", 3600000000000ULL, &v, err, sizeof(err)) == -EINVAL &&
	      strstr(err, "longer than the limit"));
	CHECK(parse("window=0s", &q, err) == 0);
	CHECK(http_query_duration(&q, "window", 3600000000000ULL, &v, err, sizeof(err)) == -EINVAL);
	CHECK(parse("all=true", &q, err) == 0);
	CHECK(http_query_bool(&q, "all", &b, err, sizeof(err)) == 0 && b);
	CHECK(parse("all=yes", &q, err) == 0);
	CHECK(http_query_bool(&q, "all", &b, err, sizeof(err)) == -EINVAL);

	CHECK(http_server_parse_listen("127.0.0.1:9466", &a, &len, err, sizeof(err)) == 0);
	CHECK(a.ss_family == AF_INET && ntohs(((struct sockaddr_in *)&a)->sin_port) == 9466);
	CHECK(http_server_parse_listen("[::1]:80", &a, &len, err, sizeof(err)) == 0 &&
	      a.ss_family == AF_INET6);
	CHECK(http_server_parse_listen("localhost:1", &a, &len, err, sizeof(err)) == 0);
	CHECK(http_server_parse_listen("unix:/run/stackd/api.sock", &a, &len, err,
				       sizeof(err)) == 0 && a.ss_family == AF_UNIX);
	CHECK(http_server_parse_listen("unix:relative", &a, &len, err, sizeof(err)) == -EINVAL);
	CHECK(http_server_parse_listen("127.0.0.1:0", &a, &len, err, sizeof(err)) == -EINVAL);
	CHECK(http_server_parse_listen("127.0.0.1:70000", &a, &len, err, sizeof(err)) == -EINVAL);
	CHECK(http_server_parse_listen("example.com:80", &a, &len, err, sizeof(err)) == -EINVAL &&
	      strstr(err, "not an IP address"));
	CHECK(http_server_parse_listen("9466", &a, &len, err, sizeof(err)) == -EINVAL);
	return 0;
}
