/*
 * test_http_chunked.c - chunked transfer decoding as stackctl's HTTP client
 * does it: one and many chunks, extensions and trailers dropped, data that
 * holds CRLF itself; and every malformed or cut-short body refused.
 */
#include "test.h"
#include "cli/http_chunked.h"

#include <errno.h>
#include <string.h>

/* Decode a copy of in (a string literal may not be written to); the result
 * is returned in a static buffer, or NULL when decoding failed. */
static const char *decode(const char *in, size_t *n)
{
	static char buf[256];
	size_t len = strlen(in);

	CHECK(len < sizeof(buf));
	memcpy(buf, in, len + 1);
	if (http_chunked_decode(buf, len, n) < 0)
		return NULL;
	return buf;
}

static void test_good(void)
{
	size_t n = 99;

	CHECK_STR(decode("5\r\nhello\r\n0\r\n\r\n", &n), "hello");
	CHECK_EQ_U(n, 5);
	CHECK_STR(decode("3\r\nabc\r\nA\r\n0123456789\r\n1\r\n!\r\n0\r\n\r\n", &n),
		  "abc0123456789!");
	CHECK_EQ_U(n, 14);
	/* extensions, with and without whitespace before them, and a longer last-chunk */
	CHECK_STR(decode("5;name=value\r\nhello\r\n2 ;x\r\n, \r\n000;last\r\n\r\n", &n),
		  "hello, ");
	/* trailer fields are dropped */
	CHECK_STR(decode("2\r\n{}\r\n0\r\nX-Checksum: 1\r\nX-More: 2\r\n\r\n", &n), "{}");
	/* CRLF inside the data is data: sizes, not line breaks, delimit chunks */
	CHECK_STR(decode("4\r\n\r\n\r\n\r\n0\r\n\r\n", &n), "\r\n\r\n");
	CHECK_EQ_U(n, 4);
	CHECK_STR(decode("0\r\n\r\n", &n), "");
	CHECK_EQ_U(n, 0);
	/* lower- and upper-case hex */
	CHECK_STR(decode("b\r\n0123456789a\r\nB\r\n0123456789A\r\n0\r\n\r\n", &n),
		  "0123456789a0123456789A");
}

static void test_truncated(void)
{
	size_t n;

	CHECK(decode("", &n) == NULL);
	CHECK(decode("5", &n) == NULL);                       /* no CRLF after the size */
	CHECK(decode("5\r\nhel", &n) == NULL);                /* data cut short */
	CHECK(decode("5\r\nhello", &n) == NULL);              /* no CRLF after the data */
	CHECK(decode("5\r\nhello\r\n", &n) == NULL);          /* no last chunk */
	CHECK(decode("5\r\nhello\r\n0\r\n", &n) == NULL);     /* no closing empty line */
	CHECK(decode("5\r\nhello\r\n0\r\nX-A: 1\r\n", &n) == NULL);
}

static void test_bad(void)
{
	size_t n;

	CHECK(decode("zz\r\nhello\r\n0\r\n\r\n", &n) == NULL);  /* not hex */
	CHECK(decode("5g\r\nhello\r\n0\r\n\r\n", &n) == NULL);  /* junk after the size */
	CHECK(decode("-5\r\nhello\r\n0\r\n\r\n", &n) == NULL);
	CHECK(decode("0x5\r\nhello\r\n0\r\n\r\n", &n) == NULL);
	CHECK(decode(" 5\r\nhello\r\n0\r\n\r\n", &n) == NULL);
	CHECK(decode("\r\nhello\r\n0\r\n\r\n", &n) == NULL);    /* empty size */
	/* the size says 3: "hel" is not followed by CRLF */
	CHECK(decode("3\r\nhello\r\n0\r\n\r\n", &n) == NULL);
	/* a size beyond the input, and one beyond size_t */
	CHECK(decode("ff\r\nhello\r\n0\r\n\r\n", &n) == NULL);
	CHECK(decode("10000000000000000\r\nhello\r\n0\r\n\r\n", &n) == NULL);
	CHECK(decode("ffffffffffffffff\r\nhello\r\n0\r\n\r\n", &n) == NULL);
}

int main(void)
{
	test_good();
	test_truncated();
	test_bad();
	return 0;
}
