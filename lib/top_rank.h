/*
 * top_rank.h - a window's processes in the order of one column, kept with
 * a window that many requests read (the daemon's shared windows,
 * daemon/serve/window_share.h), so that a request for the first N rows
 * fills N rows instead of every process's row and a sort of them all.
 *
 * The orders are computed by the caller (top_rows.c); this keeps them,
 * one computation per column however many requests ask at once.
 */
#ifndef STACKD_TOP_RANK_H
#define STACKD_TOP_RANK_H

#include "lib/rowset.h"

#include <stdbool.h>
#include <stddef.h>

/* One process: its cell in the column (text copied), its index in the
 * window's procs. */
struct top_rank_entry {
	struct rs_cell key;
	size_t proc;
};

/* Columns ranked and kept per window (40 bytes a process each); an order
 * asked for beyond them, or by a text column, is computed for its request
 * alone. */
#define TOP_RANKS_COLUMNS 4

struct top_ranks;

struct top_ranks *top_ranks_new(void);   /* NULL when out of memory */
void top_ranks_free(struct top_ranks *r);

/* Computes the order of column col: 0 and *out (malloc'd), *n; or
 * -ENOMEM. */
typedef int top_rank_fn(const void *arg, int col, struct top_rank_entry **out, size_t *n);

/* The order of column col: the kept one, or fn's, kept when there is room
 * (*owned false: valid as long as r), else the caller's to free
 * (*owned true: top_rank_entries_free).  fn runs outside r's lock, once
 * per column kept: requests for a column being computed wait for it.
 * Returns 0 or fn's error. */
int top_ranks_get(struct top_ranks *r, int col, top_rank_fn *fn, const void *arg,
		  const struct top_rank_entry **out, size_t *n, bool *owned);

void top_rank_entries_free(const struct top_rank_entry *e, size_t n);

/* rowset_sort's order (rowset_cell_compare), ties by the window's order. */
int top_rank_entry_compare(const void *a, const void *b);

#endif
