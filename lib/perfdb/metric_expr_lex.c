/*
 * metric_expr_lex.c - the tokens of perf's metric expressions, as
 * tools/perf/util/expr.l (Linux 7.2) defines them, and the canonical
 * spelling of names (metric_expr.h says what it is and why).
 *
 * expr.l is a flex scanner, so a token is the longest match of any rule
 * and a tie goes to the rule listed first: the keywords, then #literal,
 * number, symbol, the one-character operators, and a catch-all that skips
 * one character.  Hence "if" is a keyword but "iffy" a name, "1e5" a
 * number (number is listed before symbol) but "1e5x" and "2_PORTS" names,
 * and "1e-3" a number (a symbol cannot hold '-').
 */
#include "lib/perfdb/metric_expr.h"
#include "lib/perfdb/metric_expr_int.h"

#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* tool_pmu.c's tool events that tool_pmu__read_event() gives a value
 * without an evsel, i.e. those a #literal may name. */
const char *const mx_literal_names[MX_N_LITERALS] = {
	"has_pmem", "num_cores", "num_cpus", "num_cpus_online", "num_dies",
	"num_packages", "slots", "smt_on", "system_tsc_freq", "core_wide",
	"target_cpu",
};

/* expr.l's keywords, in its rule order ("NaN" is a number). */
static const struct {
	const char *word;
	int kind;
} keywords[] = {
	{ "d_ratio", MX_T_D_RATIO },
	{ "max", MX_T_MAX },
	{ "min", MX_T_MIN },
	{ "if", MX_T_IF },
	{ "else", MX_T_ELSE },
	{ "source_count", MX_T_SOURCE_COUNT },
	{ "aggr_nr", MX_T_AGGR_NR },
	{ "has_event", MX_T_HAS_EVENT },
	{ "strcmp_cpuid_str", MX_T_STRCMP_CPUID_STR },
	{ "NaN", MX_T_NUMBER },
};

/* Not locale-dependent, unlike isdigit()/isalnum(). */
static bool is_digit(char c)
{
	return c >= '0' && c <= '9';
}

static bool is_alnum(char c)
{
	return is_digit(c) || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

/* expr.l: sym [0-9a-zA-Z_\.:@?] */
static bool is_sym(char c)
{
	return is_alnum(c) || c == '_' || c == '.' || c == ':' || c == '@' || c == '?';
}

/* expr.l: symbol ({spec}|{sym})+ with spec \\[-,=] */
static size_t symbol_len(const char *s)
{
	size_t i = 0;

	for (;;) {
		if (is_sym(s[i]))
			i++;
		else if (s[i] == '\\' && s[i + 1] != '\0' && strchr("-,=", s[i + 1]) != NULL)
			i += 2;
		else
			return i;
	}
}

/* expr.l: number ([0-9]+\.?[0-9]*|[0-9]*\.?[0-9]+)(e-?[0-9]+)? - digits
 * with at most one '.', at least one digit, then an optional exponent. */
static size_t number_len(const char *s)
{
	size_t i = 0, digits = 0, j;

	while (is_digit(s[i])) {
		i++;
		digits++;
	}
	if (s[i] == '.') {
		i++;
		while (is_digit(s[i])) {
			i++;
			digits++;
		}
	}
	if (digits == 0)
		return 0;
	if (s[i] != 'e')
		return i;
	j = i + 1;
	if (s[j] == '-')
		j++;
	if (!is_digit(s[j]))
		return i;
	while (is_digit(s[j]))
		j++;
	return j;
}

/* expr.l: literal #[0-9a-zA-Z_\.\-]+ */
static size_t literal_len(const char *s)
{
	size_t i = 1;

	if (s[0] != '#')
		return 0;
	while (is_alnum(s[i]) || s[i] == '_' || s[i] == '.' || s[i] == '-')
		i++;
	return i > 1 ? i : 0;
}

/* expr.l's value(): strtod, and a range error is EXPR_ERROR.  The token
 * is never followed by more that strtod would read (a longer symbol would
 * have won), but the end is checked all the same: strtod follows
 * LC_NUMERIC, and stackd never leaves the C locale. */
static void lex_number(const char *s, size_t len, struct mx_token *tok)
{
	int saved = errno;
	char *end;

	errno = 0;
	tok->num = strtod(s, &end);
	tok->kind = MX_T_ERROR;
	if (errno != 0)
		tok->why = "number out of range";
	else if (end != s + len)
		tok->why = "unreadable number (not the C locale?)";
	else
		tok->kind = MX_T_NUMBER;
	errno = saved;
}

/* expr.c's expr__get_literal(): a tool event read without an evsel, else
 * an error (duration_time and the process times have no constant value). */
static void lex_literal(const char *s, size_t len, struct mx_token *tok)
{
	uint32_t i;

	for (i = 0; i < MX_N_LITERALS; i++) {
		if (strlen(mx_literal_names[i]) == len - 1 &&
		    strncasecmp(s + 1, mx_literal_names[i], len - 1) == 0) {
			tok->kind = MX_T_LITERAL;
			tok->lit = i;
			return;
		}
	}
	tok->kind = MX_T_ERROR;
	tok->why = "unknown literal";
}

/* A name or a number starting here, or a keyword: which one flex picks. */
static void lex_word(const char *s, size_t symlen, size_t numlen, struct mx_token *tok)
{
	size_t i;

	for (i = 0; i < sizeof(keywords) / sizeof(keywords[0]); i++) {
		if (strlen(keywords[i].word) == symlen &&
		    memcmp(s, keywords[i].word, symlen) == 0) {
			tok->len = symlen;
			tok->kind = keywords[i].kind;
			tok->num = NAN;
			return;
		}
	}
	if (numlen >= symlen) {
		tok->len = numlen;
		lex_number(s, numlen, tok);
	} else {
		tok->len = symlen;
		tok->kind = MX_T_ID;
	}
}

void mx_lex(const char *text, size_t *pos, struct mx_token *tok)
{
	size_t p = *pos;

	memset(tok, 0, sizeof(*tok));
	for (;; p++) {
		const char *s = text + p;
		size_t symlen, numlen, litlen;

		tok->pos = p;
		if (*s == '\0') {
			tok->kind = MX_T_END;
			break;
		}
		litlen = literal_len(s);
		if (litlen > 0) {
			tok->len = litlen;
			lex_literal(s, litlen, tok);
			break;
		}
		symlen = symbol_len(s);
		numlen = number_len(s);
		if (symlen > 0 || numlen > 0) {
			lex_word(s, symlen, numlen, tok);
			break;
		}
		if (strchr("|^&<>-+*/%(),", *s) != NULL) {
			tok->kind = (unsigned char)*s;
			tok->len = 1;
			break;
		}
		/* expr.l's ". { }" (and flex's default rule for '\n'): skip */
	}
	*pos = tok->pos + tok->len;
}

/* Appends c at *n, keeping buf NUL-terminated within cap. */
static void put(char *buf, size_t cap, size_t *n, char c)
{
	if (*n + 1 < cap) {
		buf[*n] = c;
		buf[*n + 1] = '\0';
	}
	(*n)++;
}

/* Rules 1 and 2, plus rule 3 when at_first/at_last point at the '@'s to
 * write as '/' (SIZE_MAX: none). */
static size_t rewrite(const char *text, size_t len, size_t at_first, size_t at_last,
		      char *buf, size_t cap)
{
	size_t i, n = 0;

	if (cap > 0)
		buf[0] = '\0';
	for (i = 0; i < len; i++) {
		if (text[i] == '\\' && i + 1 < len) {
			/* expr.l's normalize(): the escaped character itself */
			i++;
			put(buf, cap, &n, text[i]);
		} else if (text[i] == '?') {
			/* normalize(): the runtime parameter, 0 unless expanded */
			put(buf, cap, &n, '0');
		} else if (i == at_first || i == at_last) {
			put(buf, cap, &n, '/');
		} else {
			put(buf, cap, &n, text[i]);
		}
	}
	return n;
}

size_t mx_unescape(const char *text, size_t len, char *buf, size_t cap)
{
	return rewrite(text, len, SIZE_MAX, SIZE_MAX, buf, cap);
}

size_t mx_canonical(const char *text, size_t len, char *buf, size_t cap)
{
	size_t i, first = SIZE_MAX, last = SIZE_MAX;

	/* An escape is of '-', ',' or '=' only, so every '@' is a real one. */
	for (i = 0; i < len; i++) {
		if (text[i] == '\\') {
			i++;
		} else if (text[i] == '@') {
			if (first == SIZE_MAX)
				first = i;
			last = i;
		}
	}
	return rewrite(text, len, first, last, buf, cap);
}

int metric_expr_canonical(const char *token, char *buf, size_t len)
{
	struct mx_token tok;
	size_t pos = 0, n;

	if (token == NULL)
		return -EINVAL;
	mx_lex(token, &pos, &tok);
	if (tok.kind != MX_T_ID || tok.pos != 0 || tok.len != strlen(token))
		return -EINVAL;
	n = mx_canonical(token, tok.len, buf, len);
	if (n >= len || n > INT32_MAX)
		return -ENOSPC;
	return (int)n;
}
