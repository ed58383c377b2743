/*
 * metric_expr_int.h - what the metric expression lexer, parser and
 * evaluator share (private to lib/perfdb/metric_expr_*.c; callers use
 * metric_expr.h).
 *
 * A parsed expression is a flat array of nodes, children before parents,
 * so one allocation holds it and a walk touches contiguous memory.  Names
 * are interned: each distinct canonical string is stored once, numbered
 * in order of first appearance, which gives metric_expr_names() its
 * de-duplication and its order for free.
 */
#ifndef STACKD_METRIC_EXPR_INT_H
#define STACKD_METRIC_EXPR_INT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Node kinds; the comment gives the expr.y rule each comes from. */
enum mx_op {
	MX_NUM,         /* NUMBER, and NaN */
	MX_LITERAL,     /* LITERAL: u.lit indexes mx_literal_names */
	MX_ID,          /* ID: u.str names an event or metric */
	MX_SOURCE_COUNT,/* SOURCE_COUNT '(' ID ')' */
	MX_AGGR_NR,     /* AGGR_NR '(' ID ')' */
	MX_HAS_EVENT,   /* HAS_EVENT '(' ID ')' */
	MX_STRCMP_CPUID,/* STRCMP_CPUID_STR '(' ID ')' */
	MX_NEG,         /* '-' expr %prec NEG */
	MX_OR,          /* expr '|' expr, and so on down to '%' */
	MX_XOR,
	MX_AND,
	MX_LT,
	MX_GT,
	MX_ADD,
	MX_SUB,
	MX_MUL,
	MX_DIV,
	MX_MOD,
	MX_D_RATIO,     /* D_RATIO '(' expr ',' expr ')' */
	MX_MIN,
	MX_MAX,
	MX_IF,          /* expr IF expr ELSE if_expr: a IF b ELSE c */
	_MX_OP_MAX,
};

struct mx_node {
	uint8_t op;             /* enum mx_op */
	uint16_t depth;         /* 1 + the deepest operand's: bounds recursion */
	uint32_t a, b, c;       /* operands (node indices) */
	union {
		double num;     /* MX_NUM */
		uint32_t lit;   /* MX_LITERAL */
		uint32_t str;   /* MX_ID ... MX_STRCMP_CPUID: interned string */
	} u;
};

struct metric_expr {
	uint32_t root;
	uint32_t n_nodes;
	uint32_t n_strs;
	const struct mx_node *nodes;
	const uint32_t *str_off;        /* string i is pool + str_off[i] */
	const char *pool;
};

static inline const char *mx_str(const struct metric_expr *e, uint32_t i)
{
	return e->pool + e->str_off[i];
}

/* Lexer tokens: the one-character operators are their own character. */
enum mx_tok {
	MX_T_END = 256,
	MX_T_ERROR,     /* expr.l's EXPR_ERROR: a number out of range, a bad literal */
	MX_T_NUMBER,
	MX_T_LITERAL,
	MX_T_ID,
	MX_T_D_RATIO,
	MX_T_MAX,
	MX_T_MIN,
	MX_T_IF,
	MX_T_ELSE,
	MX_T_SOURCE_COUNT,
	MX_T_AGGR_NR,
	MX_T_HAS_EVENT,
	MX_T_STRCMP_CPUID_STR,
};

struct mx_token {
	int kind;               /* enum mx_tok or an operator character */
	size_t pos, len;        /* where it is in the text */
	double num;             /* MX_T_NUMBER */
	uint32_t lit;           /* MX_T_LITERAL */
	const char *why;        /* MX_T_ERROR: what is wrong */
};

#define MX_N_LITERALS 11
extern const char *const mx_literal_names[MX_N_LITERALS];

/* The token at or after *pos (skipped characters are passed over);
 * *pos moves past it.  Never fails: errors are MX_T_ERROR tokens. */
void mx_lex(const char *text, size_t *pos, struct mx_token *tok);

/* Canonical form of the name token text[0..len) into buf (cap bytes, NUL
 * terminated when cap > 0).  Returns the length it needs, as snprintf. */
size_t mx_canonical(const char *text, size_t len, char *buf, size_t cap);

/* The form strcmp_cpuid_str() receives: rules 1 and 2 of the canonical
 * form only ('@' kept), which is what expr.l's normalize() does. */
size_t mx_unescape(const char *text, size_t len, char *buf, size_t cap);

/* A value while evaluating: perf's double, and whether it is NaN because
 * a needed name is missing (metric_expr_eval.c). */
struct mx_val {
	double v;
	bool missing;
};

/* expr.y's '|', '&' and '^' (MX_OR, MX_AND, MX_XOR). */
struct mx_val mx_logic(int op, struct mx_val a, struct mx_val b);

/* expr.y's arithmetic on two plain numbers for + - * < > / % d_ratio():
 * NaN in, NaN out (but x / 0 is NaN and d_ratio(x, 0) is 0 whatever x);
 * -EDOM for a % perf cannot compute (metric_expr_eval says which). */
int mx_arith(int op, double a, double b, double *r);

#endif
