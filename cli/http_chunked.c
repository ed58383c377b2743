/*
 * http_chunked.c - see http_chunked.h.  Every length is checked against the
 * end of the input; nothing relies on a NUL after it.
 */
#include "cli/http_chunked.h"
#include "lib/hex.h"

#include <errno.h>
#include <stdint.h>
#include <string.h>

/* The first CRLF at or after p before end, or NULL. */
static char *find_crlf(char *p, const char *end)
{
	return memmem(p, (size_t)(end - p), "\r\n", 2);
}

/* A chunk-size line "1*HEXDIG [ BWS ; chunk-ext ] CRLF" at *in: its size,
 * and *in moved past its CRLF.  Returns 0 or -EPROTO. */
static int chunk_size_line(char **in, const char *end, size_t *size)
{
	char *p = *in, *crlf = find_crlf(p, end);
	size_t n = 0;

	if (crlf == NULL || p == crlf || hex_digit(*p) < 0)
		return -EPROTO;
	for (; p < crlf; p++) {
		int d = hex_digit(*p);

		if (d < 0)
			break;
		if (n > (SIZE_MAX >> 4))
			return -EPROTO;
		n = n << 4 | (size_t)d;
	}
	while (p < crlf && (*p == ' ' || *p == '\t'))
		p++;
	/* chunk extensions carry nothing stackctl uses */
	if (p < crlf && *p != ';')
		return -EPROTO;
	*in = crlf + 2;
	*size = n;
	return 0;
}

int http_chunked_decode(char *body, size_t len, size_t *out_len)
{
	char *in = body, *out = body;
	const char *end = body + len;
	size_t size;

	for (;;) {
		if (chunk_size_line(&in, end, &size) < 0)
			return -EPROTO;
		if (size == 0)
			break;
		if (size > (size_t)(end - in) || (size_t)(end - in) - size < 2 ||
		    memcmp(in + size, "\r\n", 2) != 0)
			return -EPROTO;
		memmove(out, in, size);
		out += size;
		in += size + 2;
	}
	/* trailer fields, then the empty line that ends the message */
	for (;;) {
		char *crlf = find_crlf(in, end);

		if (crlf == NULL)
			return -EPROTO;
		if (crlf == in)
			break;
		in = crlf + 2;
	}
	*out = '\0';
	*out_len = (size_t)(out - body);
	return 0;
}
