/*
 * http_chunked.h - undo HTTP/1.1 chunked transfer coding (RFC 9112 7.1).
 * stackctl asks in HTTP/1.1, so any server or proxy on the way may answer
 * chunked; stackd itself sends Content-Length (its bodies are built whole).
 */
#ifndef STACKD_HTTP_CHUNKED_H
#define STACKD_HTTP_CHUNKED_H

#include <stddef.h>

/* Decode the chunked body of len bytes at body in place, extensions and
 * trailers dropped, and NUL-terminate it.  Returns 0 with the decoded
 * length in *out_len, or -EPROTO when the body is not well-formed chunked
 * coding: a size that is not hex, data not followed by CRLF, or input that
 * ends before the last chunk and its closing empty line. */
int http_chunked_decode(char *body, size_t len, size_t *out_len);

#endif
