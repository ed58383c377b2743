/*
 * metric_expr_parse.c - perf's metric expressions into a flat array of
 * nodes, by recursive descent over the grammar of Linux 7.2's
 * tools/perf/util/expr.y:
 *
 *	start   : if_expr
 *	if_expr : expr IF expr ELSE if_expr | expr
 *	expr    : NUMBER | ID | LITERAL | '(' if_expr ')' | '-' expr
 *	        | expr op expr            (op: | ^ & < > + - * / %)
 *	        | D_RATIO|MIN|MAX '(' expr ',' expr ')'
 *	        | SOURCE_COUNT|AGGR_NR|HAS_EVENT|STRCMP_CPUID_STR '(' ID ')'
 *
 * with its precedence declarations (%left, lowest first): IF; '|'; '^';
 * '&'; '<' '>'; '-' '+'; '*' '/' '%'; NEG.  Bison resolves "expr op expr
 * IF" by reducing (IF is lowest), so the if side and the condition of an
 * if are whole expressions; an if nests only as the else side or inside
 * parentheses; unary minus binds tightest.  Precedence climbing over the
 * six binary levels gives the same trees.
 *
 * Every node is appended after its operands, so the array is in post
 * order: metric_expr_names() relies on it to fold constants in one pass.
 */
#include "lib/perfdb/metric_expr.h"
#include "lib/perfdb/metric_expr_int.h"

#include <errno.h>
#include <stdalign.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct mx_parser {
	const char *text;
	size_t pos;             /* the lexer's position, after tok */
	struct mx_token tok;    /* the lookahead */
	unsigned nest;          /* open if_expr / unary minus calls */
	int rc;                 /* the first error; the parse stops there */
	char *err;
	size_t errlen;
	struct mx_node *nodes;
	uint32_t n_nodes, cap_nodes;
	uint32_t *str_off;
	uint32_t n_strs, cap_strs;
	char *pool;
	size_t pool_len, pool_cap;
};

#define NO_NODE UINT32_MAX

static void next(struct mx_parser *p)
{
	mx_lex(p->text, &p->pos, &p->tok);
}

/* Records the first error only: what follows it is noise. */
static uint32_t fail(struct mx_parser *p, int rc, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static uint32_t fail(struct mx_parser *p, int rc, const char *fmt, ...)
{
	if (p->rc != 0)
		return NO_NODE;
	p->rc = rc;
	if (p->err != NULL && p->errlen > 0) {
		va_list ap;

		va_start(ap, fmt);
		vsnprintf(p->err, p->errlen, fmt, ap);
		va_end(ap);
	}
	return NO_NODE;
}

/* "'else'", "end of expression": the lookahead, for a message. */
static void describe(const struct mx_token *tok, const char *text, char *buf, size_t cap)
{
	if (tok->kind == MX_T_END)
		snprintf(buf, cap, "end of expression");
	else
		snprintf(buf, cap, "'%.*s'", tok->len > 32 ? 32 : (int)tok->len, text + tok->pos);
}

/* An error at the lookahead: the lexer's own reason when it has one. */
static uint32_t unexpected(struct mx_parser *p, const char *wanted)
{
	char found[48];

	describe(&p->tok, p->text, found, sizeof(found));
	if (p->tok.kind == MX_T_ERROR)
		return fail(p, -EINVAL, "offset %zu: %s %s", p->tok.pos, p->tok.why, found);
	return fail(p, -EINVAL, "offset %zu: expected %s, found %s", p->tok.pos, wanted, found);
}

static bool expect(struct mx_parser *p, int kind, const char *wanted)
{
	if (p->tok.kind != kind) {
		unexpected(p, wanted);
		return false;
	}
	next(p);
	return true;
}

/* Grows *arr (of size elements) to hold want; false when out of memory. */
static bool grow(void **arr, uint32_t *cap, size_t want, size_t size)
{
	size_t n = *cap ? *cap : 16;
	void *q;

	if (want <= *cap)
		return true;
	while (n < want)
		n *= 2;
	if (n > UINT32_MAX / size)
		return false;
	q = realloc(*arr, n * size);
	if (q == NULL)
		return false;
	*arr = q;
	*cap = (uint32_t)n;
	return true;
}

static uint32_t node_depth(const struct mx_parser *p, uint32_t i)
{
	return i == NO_NODE ? 0 : p->nodes[i].depth;
}

/* Appends a node over operands a, b, c (NO_NODE where none). */
static uint32_t add_node(struct mx_parser *p, int op, uint32_t a, uint32_t b, uint32_t c)
{
	uint32_t depth = node_depth(p, a), d;
	struct mx_node *n;

	d = node_depth(p, b);
	depth = d > depth ? d : depth;
	d = node_depth(p, c);
	depth = d > depth ? d : depth;
	if (depth + 1 > METRIC_EXPR_MAX_DEPTH)
		return fail(p, -E2BIG, "offset %zu: expression nested deeper than %d",
			    p->tok.pos, METRIC_EXPR_MAX_DEPTH);
	if (!grow((void **)&p->nodes, &p->cap_nodes, (size_t)p->n_nodes + 1, sizeof(*n)))
		return fail(p, -ENOMEM, "out of memory");
	n = &p->nodes[p->n_nodes];
	memset(n, 0, sizeof(*n));
	n->op = (uint8_t)op;
	n->depth = (uint16_t)(depth + 1);
	n->a = a;
	n->b = b;
	n->c = c;
	return p->n_nodes++;
}

/* The string's number, appending it to the pool when it is new. */
static int intern(struct mx_parser *p, const char *s, size_t len, uint32_t *ret)
{
	uint32_t i;
	size_t need = p->pool_len + len + 1;
	char *q;

	for (i = 0; i < p->n_strs; i++) {
		const char *t = p->pool + p->str_off[i];

		if (strlen(t) == len && memcmp(t, s, len) == 0) {
			*ret = i;
			return 0;
		}
	}
	if (need > UINT32_MAX ||
	    !grow((void **)&p->str_off, &p->cap_strs, (size_t)p->n_strs + 1, sizeof(uint32_t)))
		return -ENOMEM;
	if (need > p->pool_cap) {
		size_t cap = p->pool_cap ? p->pool_cap : 256;

		while (cap < need)
			cap *= 2;
		q = realloc(p->pool, cap);
		if (q == NULL)
			return -ENOMEM;
		p->pool = q;
		p->pool_cap = cap;
	}
	memcpy(p->pool + p->pool_len, s, len);
	p->pool[p->pool_len + len] = '\0';
	p->str_off[p->n_strs] = (uint32_t)p->pool_len;
	p->pool_len = need;
	*ret = p->n_strs++;
	return 0;
}

/* A node for the ID token at the lookahead, in its canonical form
 * (strcmp_cpuid_str's argument: escapes removed, '@' kept). */
static uint32_t name_node(struct mx_parser *p, int op)
{
	const char *s = p->text + p->tok.pos;
	size_t len = p->tok.len, n;
	char *buf;
	uint32_t str, i;
	int rc;

	buf = malloc(len + 1);
	if (buf == NULL)
		return fail(p, -ENOMEM, "out of memory");
	if (op == MX_STRCMP_CPUID)
		n = mx_unescape(s, len, buf, len + 1);
	else
		n = mx_canonical(s, len, buf, len + 1);
	rc = intern(p, buf, n, &str);
	free(buf);
	if (rc < 0)
		return fail(p, rc, "out of memory");
	i = add_node(p, op, NO_NODE, NO_NODE, NO_NODE);
	if (i != NO_NODE)
		p->nodes[i].u.str = str;
	next(p);
	return i;
}

static uint32_t parse_if(struct mx_parser *p);
static uint32_t parse_binary(struct mx_parser *p, int min_level);

/* FN '(' ID ')': the argument is one name, never an expression. */
static uint32_t parse_name_call(struct mx_parser *p, int op)
{
	uint32_t i;

	next(p);
	if (!expect(p, '(', "'('"))
		return NO_NODE;
	if (p->tok.kind != MX_T_ID)
		return unexpected(p, "a name");
	i = name_node(p, op);
	if (i == NO_NODE || !expect(p, ')', "')'"))
		return NO_NODE;
	return i;
}

/* FN '(' expr ',' expr ')': expressions, not ifs (expr.y uses expr). */
static uint32_t parse_pair_call(struct mx_parser *p, int op)
{
	uint32_t a, b;

	next(p);
	if (!expect(p, '(', "'('"))
		return NO_NODE;
	a = parse_binary(p, 0);
	if (a == NO_NODE || !expect(p, ',', "','"))
		return NO_NODE;
	b = parse_binary(p, 0);
	if (b == NO_NODE || !expect(p, ')', "')'"))
		return NO_NODE;
	return add_node(p, op, a, b, NO_NODE);
}

static uint32_t parse_leaf(struct mx_parser *p)
{
	uint32_t i;

	switch (p->tok.kind) {
	case MX_T_NUMBER:
		i = add_node(p, MX_NUM, NO_NODE, NO_NODE, NO_NODE);
		if (i != NO_NODE)
			p->nodes[i].u.num = p->tok.num;
		break;
	case MX_T_LITERAL:
		i = add_node(p, MX_LITERAL, NO_NODE, NO_NODE, NO_NODE);
		if (i != NO_NODE)
			p->nodes[i].u.lit = p->tok.lit;
		break;
	default:
		return unexpected(p, "a number, name, literal, '(' or function");
	}
	if (i != NO_NODE)
		next(p);
	return i;
}

static uint32_t parse_primary(struct mx_parser *p)
{
	uint32_t i;

	switch (p->tok.kind) {
	case MX_T_ID:
		return name_node(p, MX_ID);
	case '(':
		next(p);
		i = parse_if(p);
		if (i == NO_NODE || !expect(p, ')', "')'"))
			return NO_NODE;
		return i;
	case MX_T_D_RATIO:
		return parse_pair_call(p, MX_D_RATIO);
	case MX_T_MIN:
		return parse_pair_call(p, MX_MIN);
	case MX_T_MAX:
		return parse_pair_call(p, MX_MAX);
	case MX_T_SOURCE_COUNT:
		return parse_name_call(p, MX_SOURCE_COUNT);
	case MX_T_AGGR_NR:
		return parse_name_call(p, MX_AGGR_NR);
	case MX_T_HAS_EVENT:
		return parse_name_call(p, MX_HAS_EVENT);
	case MX_T_STRCMP_CPUID_STR:
		return parse_name_call(p, MX_STRCMP_CPUID);
	default:
		return parse_leaf(p);
	}
}

/* Recursion guard for the two rules that nest without a node each. */
static bool enter(struct mx_parser *p)
{
	if (++p->nest > METRIC_EXPR_MAX_DEPTH) {
		fail(p, -E2BIG, "offset %zu: expression nested deeper than %d", p->tok.pos,
		     METRIC_EXPR_MAX_DEPTH);
		return false;
	}
	return true;
}

/* '-' expr %prec NEG: NEG is above every binary operator, so the operand
 * is a primary or another unary minus. */
static uint32_t parse_unary(struct mx_parser *p)
{
	uint32_t a;

	if (p->tok.kind != '-')
		return parse_primary(p);
	if (!enter(p))
		return NO_NODE;
	next(p);
	a = parse_unary(p);
	p->nest--;
	if (a == NO_NODE)
		return NO_NODE;
	return add_node(p, MX_NEG, a, NO_NODE, NO_NODE);
}

/* The binary operator at the lookahead: its level (0 = '|', lowest) and
 * node kind, or -1. */
static int binary_level(int kind, int *op)
{
	switch (kind) {
	case '|': *op = MX_OR; return 0;
	case '^': *op = MX_XOR; return 1;
	case '&': *op = MX_AND; return 2;
	case '<': *op = MX_LT; return 3;
	case '>': *op = MX_GT; return 3;
	case '+': *op = MX_ADD; return 4;
	case '-': *op = MX_SUB; return 4;
	case '*': *op = MX_MUL; return 5;
	case '/': *op = MX_DIV; return 5;
	case '%': *op = MX_MOD; return 5;
	default: return -1;
	}
}

/* Precedence climbing: every level is %left, so the right operand binds
 * only operators of a higher level. */
static uint32_t parse_binary(struct mx_parser *p, int min_level)
{
	uint32_t lhs = parse_unary(p);

	while (lhs != NO_NODE) {
		uint32_t rhs;
		int op = 0;
		int level = binary_level(p->tok.kind, &op);

		if (level < min_level)
			break;
		next(p);
		rhs = parse_binary(p, level + 1);
		if (rhs == NO_NODE)
			return NO_NODE;
		lhs = add_node(p, op, lhs, rhs, NO_NODE);
	}
	return lhs;
}

/* if_expr: expr IF expr ELSE if_expr | expr.  The node keeps a = the if
 * side, b = the condition, c = the else side. */
static uint32_t parse_if(struct mx_parser *p)
{
	uint32_t a;

	if (!enter(p))
		return NO_NODE;
	a = parse_binary(p, 0);
	if (a != NO_NODE && p->tok.kind == MX_T_IF) {
		uint32_t b, c = NO_NODE;

		next(p);
		b = parse_binary(p, 0);
		if (b != NO_NODE && expect(p, MX_T_ELSE, "'else'"))
			c = parse_if(p);
		a = c == NO_NODE ? NO_NODE : add_node(p, MX_IF, a, b, c);
	}
	p->nest--;
	return a;
}

static size_t align_up(size_t n, size_t a)
{
	return (n + a - 1) / a * a;
}

/* One allocation for the expression, its nodes, string offsets and pool,
 * so that metric_expr_free() is one free(). */
static struct metric_expr *pack(const struct mx_parser *p, uint32_t root)
{
	size_t o_nodes = align_up(sizeof(struct metric_expr), alignof(struct mx_node));
	size_t o_off = align_up(o_nodes + p->n_nodes * sizeof(struct mx_node), alignof(uint32_t));
	size_t o_pool = o_off + p->n_strs * sizeof(uint32_t);
	struct metric_expr *e;
	char *base;

	base = malloc(o_pool + p->pool_len + 1);
	if (base == NULL)
		return NULL;
	e = (struct metric_expr *)(void *)base;
	memcpy(base + o_nodes, p->nodes, p->n_nodes * sizeof(struct mx_node));
	if (p->n_strs > 0)
		memcpy(base + o_off, p->str_off, p->n_strs * sizeof(uint32_t));
	if (p->pool_len > 0)
		memcpy(base + o_pool, p->pool, p->pool_len);
	base[o_pool + p->pool_len] = '\0';
	e->root = root;
	e->n_nodes = p->n_nodes;
	e->n_strs = p->n_strs;
	e->nodes = (const struct mx_node *)(const void *)(base + o_nodes);
	e->str_off = (const uint32_t *)(const void *)(base + o_off);
	e->pool = base + o_pool;
	return e;
}

int metric_expr_parse(const char *text, struct metric_expr **out, char *err, size_t len)
{
	struct mx_parser p = { .text = text, .err = err, .errlen = len };
	struct metric_expr *e = NULL;
	uint32_t root;

	if (err != NULL && len > 0)
		err[0] = '\0';
	if (text == NULL || out == NULL) {
		fail(&p, -EINVAL, "no expression");
		return p.rc;
	}
	next(&p);
	root = parse_if(&p);
	if (root != NO_NODE && p.tok.kind != MX_T_END)
		unexpected(&p, "an operator or end of expression");
	if (p.rc == 0) {
		e = pack(&p, root);
		if (e == NULL)
			fail(&p, -ENOMEM, "out of memory");
	}
	free(p.nodes);
	free(p.str_off);
	free(p.pool);
	if (p.rc != 0)
		return p.rc;
	*out = e;
	return 0;
}

void metric_expr_free(struct metric_expr *e)
{
	free(e);
}
