/*
 * name_index.h - names to numbers, case apart, in O(1): how perf's metric
 * and event names are looked up on every evaluation (a metric is evaluated
 * per query row, and each names a dozen others), where a scan of a
 * table's hundreds of names would cost milliseconds a row.
 */
#ifndef STACKD_NAME_INDEX_H
#define STACKD_NAME_INDEX_H

struct name_index {
	unsigned cap;          /* a power of two, at least twice the names */
	unsigned n;            /* names held (at most cap / 2) */
	const char **keys;     /* the caller's strings, kept by pointer */
	int *vals;
};

/* Room for n names; 0 or -ENOMEM. */
int name_index_init(struct name_index *ix, unsigned n);
void name_index_free(struct name_index *ix);
/* key (which must outlive ix) -> val; the first put of a name wins. */
void name_index_put(struct name_index *ix, const char *key, int val);
/* The value of key, compared without case; -1 when absent. */
int name_index_get(const struct name_index *ix, const char *key);

#endif
