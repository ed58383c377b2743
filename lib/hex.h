/*
 * hex.h - the value of one hexadecimal digit, for the parsers that read
 * %XX escapes (http_query.c) and chunk sizes (http_chunked.c).
 */
#ifndef STACKD_HEX_H
#define STACKD_HEX_H

/* 0..15, or -1 when c is not a hex digit. */
static inline int hex_digit(int c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

#endif
