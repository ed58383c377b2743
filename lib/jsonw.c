/*
 * jsonw.c - see jsonw.h.
 */
#include "lib/jsonw.h"
#include "lib/utf8.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>

void jsonw_init(struct jsonw *w, FILE *f)
{
	w->f = f;
	w->depth = 0;
	w->indent = -1;
	w->after_key = false;
	w->overflow = false;
}

int jsonw_done(const struct jsonw *w)
{
	return w->depth == 0 && !w->overflow && !w->after_key ? 0 : -EINVAL;
}

static bool *first(struct jsonw *w)
{
	return &w->first[w->depth <= JSONW_MAX_DEPTH ? w->depth - 1 : JSONW_MAX_DEPTH - 1];
}

static void flush_break(struct jsonw *w)
{
	if (w->indent < 0)
		return;
	fprintf(w->f, "\n%*s", w->indent, "");
	w->indent = -1;
}

/* The separator before a key, or before a value that is not a member's. */
static void separate(struct jsonw *w)
{
	bool *is_first;

	if (w->after_key) {
		w->after_key = false;
		return;
	}
	if (w->depth == 0)
		return;
	is_first = first(w);
	if (!*is_first)
		fputc(',', w->f);
	if (w->indent >= 0)
		flush_break(w);
	else if (!*is_first)
		fputc(' ', w->f);
	*is_first = false;
}

static void begin(struct jsonw *w, char bracket)
{
	separate(w);
	fputc(bracket, w->f);
	w->depth++;
	if (w->depth > JSONW_MAX_DEPTH)
		w->overflow = true;
	*first(w) = true;
}

static void end(struct jsonw *w, char bracket)
{
	if (w->depth == 0) {
		w->overflow = true;   /* more closed than opened */
		return;
	}
	flush_break(w);
	fputc(bracket, w->f);
	w->depth--;
	if (w->depth == 0)
		fputc('\n', w->f);
}

void jsonw_object_begin(struct jsonw *w)
{
	begin(w, '{');
}

void jsonw_object_end(struct jsonw *w)
{
	end(w, '}');
}

void jsonw_array_begin(struct jsonw *w)
{
	begin(w, '[');
}

void jsonw_array_end(struct jsonw *w)
{
	end(w, ']');
}

void jsonw_break(struct jsonw *w, unsigned indent)
{
	if (w->depth > 0)
		w->indent = (int)indent;
}

/* Whether p starts a character that goes out as it is; *len its bytes. */
static bool plain(const char *p, size_t *len)
{
	unsigned char c = (unsigned char)*p;

	if (c >= 0x80) {
		int32_t cp = utf8_decode(p, len);

		/* C1 controls (U+0080..009F) escaped like C0: some terminals act
		 * on them (U+009B is CSI), and names come from other users */
		return cp >= 0 && !utf8_is_control(cp);
	}
	*len = 1;
	return c >= 0x20 && c != 0x7f && c != '"' && c != '\\';
}

static void put_escaped(FILE *f, unsigned char c)
{
	switch (c) {
	case '"':
		fputs("\\\"", f);
		return;
	case '\\':
		fputs("\\\\", f);
		return;
	case '\n':
		fputs("\\n", f);
		return;
	case '\t':
		fputs("\\t", f);
		return;
	case '\r':
		fputs("\\r", f);
		return;
	default:
		fprintf(f, "\\u%04x", c);
	}
}

static void put_string(FILE *f, const char *s)
{
	size_t len;

	fputc('"', f);
	while (*s != '\0') {
		const char *run = s;

		/* Runs of plain characters in one write: exports print
		 * millions of strings. */
		while (*s != '\0' && plain(s, &len))
			s += len;
		if (s > run)
			fwrite(run, 1, (size_t)(s - run), f);
		if (*s == '\0')
			break;
		if ((unsigned char)*s >= 0x80) {
			int32_t cp = utf8_decode(s, &len);

			if (cp >= 0)
				fprintf(f, "\\u%04x", (unsigned)cp);   /* a C1 control */
			else
				fputs(UTF8_REPLACEMENT, f);   /* the invalid part */
			s += len;
		} else {
			put_escaped(f, (unsigned char)*s);
			s++;
		}
	}
	fputc('"', f);
}

void jsonw_key(struct jsonw *w, const char *key)
{
	separate(w);
	put_string(w->f, key);
	fputs(": ", w->f);
	w->after_key = true;
}

void jsonw_string(struct jsonw *w, const char *s)
{
	separate(w);
	put_string(w->f, s);
}

void jsonw_string_or_null(struct jsonw *w, const char *s)
{
	if (s != NULL)
		jsonw_string(w, s);
	else
		jsonw_null(w);
}

void jsonw_int(struct jsonw *w, int64_t v)
{
	separate(w);
	fprintf(w->f, "%" PRId64, v);
}

void jsonw_uint(struct jsonw *w, uint64_t v)
{
	separate(w);
	fprintf(w->f, "%" PRIu64, v);
}

void jsonw_double_g(struct jsonw *w, double v, int digits)
{
	separate(w);
	if (isfinite(v))
		fprintf(w->f, "%.*g", digits, v);
	else
		fputs("null", w->f);
}

void jsonw_double_f(struct jsonw *w, double v, int decimals)
{
	separate(w);
	if (isfinite(v))
		fprintf(w->f, "%.*f", decimals, v);
	else
		fputs("null", w->f);
}

void jsonw_double(struct jsonw *w, double v)
{
	jsonw_double_g(w, v, 9);
}

void jsonw_bool(struct jsonw *w, bool v)
{
	separate(w);
	fputs(v ? "true" : "false", w->f);
}

void jsonw_null(struct jsonw *w)
{
	separate(w);
	fputs("null", w->f);
}

void jsonw_field_string(struct jsonw *w, const char *key, const char *s)
{
	jsonw_key(w, key);
	jsonw_string(w, s);
}

void jsonw_field_string_or_null(struct jsonw *w, const char *key, const char *s)
{
	jsonw_key(w, key);
	jsonw_string_or_null(w, s);
}

void jsonw_field_int(struct jsonw *w, const char *key, int64_t v)
{
	jsonw_key(w, key);
	jsonw_int(w, v);
}

void jsonw_field_uint(struct jsonw *w, const char *key, uint64_t v)
{
	jsonw_key(w, key);
	jsonw_uint(w, v);
}

void jsonw_field_double(struct jsonw *w, const char *key, double v)
{
	jsonw_key(w, key);
	jsonw_double(w, v);
}

void jsonw_field_bool(struct jsonw *w, const char *key, bool v)
{
	jsonw_key(w, key);
	jsonw_bool(w, v);
}

void jsonw_raw(struct jsonw *w, const char *json)
{
	separate(w);
	fputs(json, w->f);
}
