/*
 * jsonw.h - the one JSON writer: every JSON stackd and stackctl print (the
 * API answers, the rowset printer) goes through it, so every document is
 * valid whatever bytes a process name or command line holds.
 *
 * Streaming: values go straight to a FILE (an open_memstream for the API),
 * and the writer keeps the comma and nesting state.  Strings are checked
 * as UTF-8 (utf8.h): invalid sequences become U+FFFD; ", \ and control
 * characters are escaped (\n, \t, \r, else \u00XX, DEL included).
 *
 * Where names are repaired: stackd stores the raw bytes the kernel gave
 * (comm, cmdline; SQLite TEXT holds any bytes) and repairs them only on
 * output, here, in the CSV and table printer and in Prometheus labels.
 * Nothing stored is lost, and a fixed output needs no database migration.
 *
 * Layout: members and elements are separated by ", ", keys by ": ".
 * jsonw_break() asks for a line break (and an indent) before the next
 * member, element or closing bracket instead, so the API's answers keep
 * their line-per-row shape.  The outermost closing bracket ends the line.
 */
#ifndef STACKD_JSONW_H
#define STACKD_JSONW_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#define JSONW_MAX_DEPTH 16

struct jsonw {
	FILE *f;
	unsigned depth;
	int indent;                 /* pending line break's indent, -1: none */
	bool after_key;             /* a member's key is written, its value is next */
	bool overflow;              /* nested deeper than JSONW_MAX_DEPTH */
	bool first[JSONW_MAX_DEPTH];   /* per level: nothing written in it yet */
};

void jsonw_init(struct jsonw *w, FILE *f);
/* 0 when the document is complete: every container closed, none too deep. */
int jsonw_done(const struct jsonw *w);

void jsonw_object_begin(struct jsonw *w);
void jsonw_object_end(struct jsonw *w);
void jsonw_array_begin(struct jsonw *w);
void jsonw_array_end(struct jsonw *w);
/* The next member, element or closing bracket starts a new line indented
 * by indent spaces.  Ignored outside any container. */
void jsonw_break(struct jsonw *w, unsigned indent);

/* A member's key; its value follows with any of the value calls. */
void jsonw_key(struct jsonw *w, const char *key);

void jsonw_string(struct jsonw *w, const char *s);
void jsonw_string_or_null(struct jsonw *w, const char *s);   /* NULL: null */
void jsonw_int(struct jsonw *w, int64_t v);
void jsonw_uint(struct jsonw *w, uint64_t v);
void jsonw_double(struct jsonw *w, double v);    /* %.9g; null when not finite */
void jsonw_double_g(struct jsonw *w, double v, int digits);    /* %.*g */
void jsonw_double_f(struct jsonw *w, double v, int decimals);  /* %.*f */
void jsonw_bool(struct jsonw *w, bool v);
void jsonw_null(struct jsonw *w);
/* A value written as is: only for JSON this program made itself (the
 * plan stackd records in meta). */
void jsonw_raw(struct jsonw *w, const char *json);

/* A key and its value in one call. */
void jsonw_field_string(struct jsonw *w, const char *key, const char *s);
void jsonw_field_string_or_null(struct jsonw *w, const char *key, const char *s);
void jsonw_field_int(struct jsonw *w, const char *key, int64_t v);
void jsonw_field_uint(struct jsonw *w, const char *key, uint64_t v);
void jsonw_field_double(struct jsonw *w, const char *key, double v);
void jsonw_field_bool(struct jsonw *w, const char *key, bool v);

#endif
