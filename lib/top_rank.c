/*
 * top_rank.c - see top_rank.h.
 */
#include "lib/top_rank.h"

#include <errno.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>

struct top_ranks {
	pthread_mutex_t lock;
	pthread_cond_t done;      /* an order was computed (or failed) */
	struct {
		int col;          /* -1: a slot whose computation failed */
		bool computing;   /* by one request; the others wait for it */
		bool not_kept;    /* text keys: each request computes its own */
		struct top_rank_entry *e;
		size_t n;
	} kept[TOP_RANKS_COLUMNS];
	size_t n_kept;
};

struct top_ranks *top_ranks_new(void)
{
	struct top_ranks *r = calloc(1, sizeof(*r));

	if (r != NULL) {
		pthread_mutex_init(&r->lock, NULL);
		pthread_cond_init(&r->done, NULL);
	}
	return r;
}

void top_rank_entries_free(const struct top_rank_entry *e, size_t n)
{
	size_t i;

	for (i = 0; e != NULL && i < n; i++)
		free(e[i].key.s);
	free((void *)(uintptr_t)e);
}

void top_ranks_free(struct top_ranks *r)
{
	size_t i;

	if (r == NULL)
		return;
	for (i = 0; i < r->n_kept; i++)
		top_rank_entries_free(r->kept[i].e, r->kept[i].n);
	pthread_cond_destroy(&r->done);
	pthread_mutex_destroy(&r->lock);
	free(r);
}

/* An order by text (a command line, a unit): not kept, as its copies of
 * every text can outweigh the window itself. */
static bool has_text(const struct top_rank_entry *e, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (e[i].key.type == RS_TEXT)
			return true;
	return false;
}

/* The slot of col, or -1 (under the lock). */
static int slot_of(const struct top_ranks *r, int col)
{
	size_t i;

	for (i = 0; i < r->n_kept; i++)
		if (r->kept[i].col == col)
			return (int)i;
	return -1;
}

int top_ranks_get(struct top_ranks *r, int col, top_rank_fn *fn, const void *arg,
		  const struct top_rank_entry **out, size_t *n, bool *owned)
{
	struct top_rank_entry *e = NULL;
	size_t count = 0;
	int ret, k = -1;

	*owned = true;
	if (r != NULL) {
		pthread_mutex_lock(&r->lock);
		/* one computation per column: the others wait for it (it fails
		 * only when out of memory: then each computes its own) */
		while ((k = slot_of(r, col)) >= 0 && r->kept[k].computing)
			pthread_cond_wait(&r->done, &r->lock);
		if (k >= 0 && !r->kept[k].not_kept) {
			*out = r->kept[k].e;
			*n = r->kept[k].n;
			*owned = false;
			pthread_mutex_unlock(&r->lock);
			return 0;
		}
		if (k >= 0) {
			k = -1;
		} else if (r->n_kept < TOP_RANKS_COLUMNS) {
			k = (int)r->n_kept++;
			r->kept[k].col = col;
			r->kept[k].computing = true;
		}
		pthread_mutex_unlock(&r->lock);
	}
	/* outside the lock: requests for kept columns go on meanwhile */
	ret = fn(arg, col, &e, &count);
	if (k >= 0) {
		pthread_mutex_lock(&r->lock);
		r->kept[k].computing = false;
		if (ret == 0 && !has_text(e, count)) {
			r->kept[k].e = e;
			r->kept[k].n = count;
			*owned = false;
		} else {
			/* (slots stay where they are: another request may be
			 * computing into one) */
			r->kept[k].not_kept = ret == 0;
			r->kept[k].col = ret == 0 ? col : -1;
		}
		pthread_cond_broadcast(&r->done);
		pthread_mutex_unlock(&r->lock);
	}
	*out = e;
	*n = count;
	return ret;
}

int top_rank_entry_compare(const void *a, const void *b)
{
	const struct top_rank_entry *x = a, *y = b;
	int d = rowset_cell_compare(&x->key, &y->key);

	if (d != 0)
		return d;
	return (x->proc > y->proc) - (x->proc < y->proc);
}
