/*
 * The JSON writer and the UTF-8 repair every output shares: any bytes in
 * a name give valid UTF-8 (invalid sequences as U+FFFD, one per maximal
 * invalid subpart), control characters are escaped, valid text is kept
 * as it is; commas and nesting come out right.  Every document is parsed
 * back by jansson, which rejects invalid UTF-8.  The rowset printer (JSON,
 * CSV, table) gets the same names.
 */
#include "lib/jsonw.h"
#include "lib/rowset.h"
#include "lib/utf8.h"
#include "test.h"

#include <jansson.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define FFFD UTF8_REPLACEMENT

/* jansson's own check: strict UTF-8, no surrogates, nothing past U+10FFFF. */
static int valid_utf8(const char *s)
{
	json_t *j = json_string(s);

	json_decref(j);
	return j != NULL;
}

/* Integers read as doubles: a uint64_t is too big for jansson's json_int_t. */
static void check_json(const char *text)
{
	json_error_t err;
	json_t *j = json_loads(text, JSON_DECODE_INT_AS_REAL, &err);

	if (j == NULL)
		fprintf(stderr, "not JSON (%s): %s\n", err.text, text);
	CHECK(j != NULL);
	json_decref(j);
}

/* s written as the one element of an array. */
static char *write_string(const char *s)
{
	struct jsonw w;
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	CHECK(f != NULL);
	jsonw_init(&w, f);
	jsonw_array_begin(&w);
	jsonw_string(&w, s);
	jsonw_array_end(&w);
	CHECK(jsonw_done(&w) == 0);
	fclose(f);
	check_json(buf);
	return buf;
}

static const struct {
	const char *in, *out;   /* out: the JSON array jsonw writes */
} strings[] = {
	{ "plain", "[\"plain\"]\n" },
	/* "процессор" cut by the kernel at 15 bytes, inside the 8th letter */
	{ "\xd0\xbf\xd1\x80\xd0\xbe\xd1\x86\xd0\xb5\xd1\x81\xd1\x81\xd0",
	  "[\"процесс" FFFD "\"]\n" },
	{ "\xff", "[\"" FFFD "\"]\n" },
	{ "exec-a-\xff\xfe", "[\"exec-a-" FFFD FFFD "\"]\n" },
	{ "a\x80" "b\xbf\xbf", "[\"a" FFFD "b" FFFD FFFD "\"]\n" },   /* stray continuations */
	{ "\xc0\xaf", "[\"" FFFD FFFD "\"]\n" },                    /* overlong '/' */
	{ "\xe0\x80\xaf", "[\"" FFFD FFFD FFFD "\"]\n" },
	{ "\xf0\x80\x80\xaf", "[\"" FFFD FFFD FFFD FFFD "\"]\n" },
	{ "\xc1\xbf", "[\"" FFFD FFFD "\"]\n" },
	{ "\xed\xa0\x80", "[\"" FFFD FFFD FFFD "\"]\n" },           /* U+D800 */
	{ "\xed\xbf\xbf", "[\"" FFFD FFFD FFFD "\"]\n" },           /* U+DFFF */
	{ "\xf4\x90\x80\x80", "[\"" FFFD FFFD FFFD FFFD "\"]\n" },  /* U+110000 */
	{ "\xf5\x80", "[\"" FFFD FFFD "\"]\n" },
	{ "\xe2\x82x", "[\"" FFFD "x\"]\n" },   /* one U+FFFD for a cut sequence */
	{ "x\xe2\x82", "[\"x" FFFD "\"]\n" },
	{ "\xf0\x9f\x98", "[\"" FFFD "\"]\n" },
	/* valid: kept byte for byte, the extremes of each length included
	 * (U+00A0, the first after the C1 controls) */
	{ "\xf0\x9f\x98\x80 \xe2\x82\xac \xc2\xa0 \xef\xbf\xbf \xf4\x8f\xbf\xbf \xed\x9f\xbf",
	  "[\"\xf0\x9f\x98\x80 \xe2\x82\xac \xc2\xa0 \xef\xbf\xbf \xf4\x8f\xbf\xbf \xed\x9f\xbf\"]\n" },
	/* C1 controls escaped like C0 ones: U+009B is CSI to some terminals */
	{ "\xc2\x80 \xc2\x9b[31m \xc2\x9f", "[\"\\u0080 \\u009b[31m \\u009f\"]\n" },
	{ "\"q\" \\b", "[\"\\\"q\\\" \\\\b\"]\n" },
	{ "\x1b]0;PWNED\x07", "[\"\\u001b]0;PWNED\\u0007\"]\n" },
	{ "a\nb\tc\rd\x7f", "[\"a\\nb\\tc\\rd\\u007f\"]\n" },
	{ "", "[\"\"]\n" },
};

static void test_strings(void)
{
	char controls[33];
	size_t i;
	char *out;

	for (i = 0; i < sizeof(strings) / sizeof(strings[0]); i++) {
		out = write_string(strings[i].in);
		CHECK_STR(out, strings[i].out);
		free(out);
	}
	/* every control character, decoded back to itself */
	for (i = 0; i < 31; i++)
		controls[i] = (char)(i + 1);
	controls[31] = 0x7f;
	controls[32] = '\0';
	out = write_string(controls);
	{
		json_t *j = json_loads(out, 0, NULL);

		CHECK(j != NULL);
		CHECK_STR(json_string_value(json_array_get(j, 0)), controls);
		json_decref(j);
	}
	free(out);
}

static void test_nesting(void)
{
	struct jsonw w;
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	CHECK(f != NULL);
	jsonw_init(&w, f);
	jsonw_object_begin(&w);
	jsonw_field_string(&w, "\xff" "key", "v");
	jsonw_key(&w, "empty_a");
	jsonw_array_begin(&w);
	jsonw_array_end(&w);
	jsonw_key(&w, "empty_o");
	jsonw_object_begin(&w);
	jsonw_object_end(&w);
	jsonw_break(&w, 1);
	jsonw_key(&w, "rows");
	jsonw_array_begin(&w);
	jsonw_break(&w, 2);
	jsonw_object_begin(&w);
	jsonw_field_int(&w, "i", INT64_MIN);
	jsonw_field_uint(&w, "u", UINT64_MAX);
	jsonw_key(&w, "list");
	jsonw_array_begin(&w);
	jsonw_double(&w, NAN);
	jsonw_double(&w, INFINITY);
	jsonw_double(&w, 1.0 / 3);
	jsonw_double_g(&w, 2.0 / 3, 6);
	jsonw_double_f(&w, 1.5, 3);
	jsonw_array_begin(&w);
	jsonw_array_end(&w);
	jsonw_array_end(&w);
	jsonw_object_end(&w);
	jsonw_break(&w, 2);
	jsonw_object_begin(&w);
	jsonw_field_bool(&w, "t", true);
	jsonw_field_string_or_null(&w, "n", NULL);
	jsonw_object_end(&w);
	jsonw_break(&w, 0);
	jsonw_array_end(&w);
	jsonw_object_end(&w);
	CHECK(jsonw_done(&w) == 0);
	fclose(f);
	CHECK_STR(buf, "{\"" FFFD "key\": \"v\", \"empty_a\": [], \"empty_o\": {},\n \"rows\": [\n"
		  "  {\"i\": -9223372036854775808, \"u\": 18446744073709551615, \"list\": "
		  "[null, null, 0.333333333, 0.666667, 1.500, []]},\n  {\"t\": true, \"n\": null}\n]}\n");
	check_json(buf);
	free(buf);

	/* an unclosed or over-closed document is reported */
	f = open_memstream(&buf, &len);
	CHECK(f != NULL);
	jsonw_init(&w, f);
	jsonw_object_begin(&w);
	jsonw_key(&w, "a");
	CHECK(jsonw_done(&w) < 0);
	jsonw_null(&w);
	CHECK(jsonw_done(&w) < 0);
	jsonw_object_end(&w);
	CHECK(jsonw_done(&w) == 0);
	jsonw_object_end(&w);
	CHECK(jsonw_done(&w) < 0);
	fclose(f);
	free(buf);
}

/* Copies are cut at a character, never inside one; controls shown as '?'. */
static void test_sanitize(void)
{
	char buf[8];

	CHECK_EQ_U(utf8_sanitize(buf, sizeof(buf), "ab\xe2\x82\xac\xe2\x82\xac", 0), 3);
	CHECK_STR(buf, "ab\xe2\x82\xac");
	CHECK_EQ_U(utf8_sanitize(buf, sizeof(buf), "\x1b[2J\xc2\x9b", UTF8_CONTROLS_VISIBLE), 5);
	CHECK_STR(buf, "?[2J?");
	CHECK_EQ_U(utf8_sanitize(buf, sizeof(buf), "\xff" "a", 0), 2);
	CHECK_STR(buf, FFFD "a");
	CHECK_EQ_U(utf8_prefix_bytes("\xd0\xbf\xd1\x80x", 2), 4);
	CHECK_EQ_U(utf8_prefix_bytes("ab", 5), 2);
}

static char *render(const struct rowset *rs, enum rs_format fmt)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	CHECK(f != NULL);
	rowset_print(rs, fmt, 0, f);
	fclose(f);
	return buf;
}

/* Hostile names through the one printer: JSON parses, CSV and the table
 * are valid UTF-8, the table holds no control character. */
static void test_rowset(void)
{
	static const char *const names[] = {
		"\xd0\xbf\xd1\x80\xd0\xbe\xd1\x86\xd0\xb5\xd1\x81\xd1\x81\xd0", "\xff",
		"\x1b]0;PWNED\x07", "new\nline", "\xed\xa0\x80\xf4\x90\x80\x80", "\xf0\x9f\x98\x80",
		"\xd0\xbf\xd1\x80\xd0\xbe\xd1\x86\xd0\xb5\xd1\x81\xd1\x81 with a long command "
		"line that the table has to cut \xd0\xbf\xd1\x80\xd0\xbe\xd1\x86\xd0\xb5\xd1\x81",
	};
	struct rowset rs;
	size_t i;
	char *out;
	int comm, pid;

	rowset_init(&rs);
	pid = rowset_add_column(&rs, "pid", "PID", RS_UNIT_NONE);
	comm = rowset_add_column(&rs, "comm", "COMM", RS_UNIT_NONE);
	CHECK(rowset_add_column(&rs, "cmdline", "CMD", RS_UNIT_NONE) == 2);
	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		CHECK(rowset_add_row(&rs) == (int)i);
		rowset_set_int(&rs, i, pid, (int64_t)i);
		CHECK(rowset_set_text(&rs, i, comm, names[i]) == 0);
		CHECK(rowset_set_text(&rs, i, 2, names[i]) == 0);
	}
	out = render(&rs, RS_JSON);
	check_json(out);
	CHECK(strstr(out, "\"\\u001b]0;PWNED\\u0007\"") != NULL);
	free(out);
	out = render(&rs, RS_CSV);
	CHECK(valid_utf8(out));
	CHECK(strstr(out, "\n1," FFFD "," FFFD "\n") != NULL);
	CHECK(strstr(out, "\"new\nline\"") != NULL);   /* CSV keeps text exact */
	free(out);
	out = render(&rs, RS_TABLE);
	CHECK(valid_utf8(out));
	for (i = 0; out[i] != '\0'; i++)
		CHECK(out[i] == '\n' || (unsigned char)out[i] >= 0x20);
	CHECK(strchr(out, 0x7f) == NULL);
	CHECK(strstr(out, "?]0;PWNED?") != NULL);
	CHECK(strstr(out, "new?line") != NULL);
	/* columns line up by characters: "процесс" + U+FFFD is 8 wide */
	CHECK(strstr(out, "\n  0  \xd0\xbf\xd1\x80\xd0\xbe\xd1\x86\xd0\xb5\xd1\x81\xd1\x81" FFFD
		      "                                  ") != NULL);
	free(out);
	rowset_done(&rs);
}

int main(void)
{
	test_strings();
	test_nesting();
	test_sanitize();
	test_rowset();
	return 0;
}
