/*
 * name_index.c - see name_index.h.  Open addressing with linear probing;
 * FNV-1a over the lower-cased bytes.
 */
#include "lib/perfdb/name_index.h"

#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <strings.h>

static unsigned hash(const char *s)
{
	unsigned h = 2166136261u;

	for (; *s != '\0'; s++)
		h = (h ^ (unsigned)tolower((unsigned char)*s)) * 16777619u;
	return h;
}

int name_index_init(struct name_index *ix, unsigned n)
{
	unsigned cap = 16;

	while (cap < 2 * n + 2)
		cap *= 2;
	ix->cap = cap;
	ix->n = 0;
	ix->keys = calloc(cap, sizeof(*ix->keys));
	ix->vals = calloc(cap, sizeof(*ix->vals));
	if (ix->keys == NULL || ix->vals == NULL) {
		name_index_free(ix);
		return -ENOMEM;
	}
	return 0;
}

void name_index_free(struct name_index *ix)
{
	free(ix->keys);
	free(ix->vals);
	ix->keys = NULL;
	ix->vals = NULL;
	ix->cap = 0;
}

void name_index_put(struct name_index *ix, const char *key, int val)
{
	unsigned i;

	if (ix->cap == 0 || 2 * (ix->n + 1) > ix->cap)
		return;  /* full: more names than name_index_init() was told */
	for (i = hash(key) & (ix->cap - 1); ix->keys[i] != NULL; i = (i + 1) & (ix->cap - 1))
		if (strcasecmp(ix->keys[i], key) == 0)
			return;
	ix->keys[i] = key;
	ix->vals[i] = val;
	ix->n++;
}

int name_index_get(const struct name_index *ix, const char *key)
{
	unsigned i;

	if (ix->cap == 0)
		return -1;
	for (i = hash(key) & (ix->cap - 1); ix->keys[i] != NULL; i = (i + 1) & (ix->cap - 1))
		if (strcasecmp(ix->keys[i], key) == 0)
			return ix->vals[i];
	return -1;
}
