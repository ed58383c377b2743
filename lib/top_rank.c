/*
 * top_rank.c - see top_rank.h.
 */
#include "lib/top_rank.h"

#include <errno.h>
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>

struct top_ranks {
	/* held while an order is computed: the requests that want it wait
	 * for that one computation rather than each make its own */
	pthread_mutex_t lock;
	struct {
		int col;
		struct top_rank_entry *e;
		size_t n;
	} kept[TOP_RANKS_COLUMNS];
	size_t n_kept;
};

struct top_ranks *top_ranks_new(void)
{
	struct top_ranks *r = calloc(1, sizeof(*r));

	if (r != NULL)
		pthread_mutex_init(&r->lock, NULL);
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
	pthread_mutex_destroy(&r->lock);
	free(r);
}

int top_ranks_get(struct top_ranks *r, int col, top_rank_fn *fn, const void *arg,
		  const struct top_rank_entry **out, size_t *n, bool *owned)
{
	struct top_rank_entry *e = NULL;
	size_t i, count = 0;
	int ret;

	*owned = true;
	if (r == NULL) {
		ret = fn(arg, col, &e, &count);
		*out = e;
		*n = count;
		return ret;
	}
	pthread_mutex_lock(&r->lock);
	for (i = 0; i < r->n_kept; i++)
		if (r->kept[i].col == col) {
			*out = r->kept[i].e;
			*n = r->kept[i].n;
			*owned = false;
			pthread_mutex_unlock(&r->lock);
			return 0;
		}
	ret = fn(arg, col, &e, &count);
	if (ret == 0 && r->n_kept < TOP_RANKS_COLUMNS) {
		r->kept[r->n_kept].col = col;
		r->kept[r->n_kept].e = e;
		r->kept[r->n_kept].n = count;
		r->n_kept++;
		*owned = false;
	}
	pthread_mutex_unlock(&r->lock);
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
