/*
 * u64map.c - see u64map.h.  Load factor stays at or below one half.
 */
#include "daemon/base/u64map.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

static size_t slot_of(uint64_t key, size_t cap)
{
	/* Fibonacci hashing spreads consecutive pids over the table. */
	return (size_t)((key * 0x9E3779B97F4A7C15ULL) >> 17) & (cap - 1);
}

int u64map_init(struct u64map *m, size_t cap_hint)
{
	size_t cap = 64;

	while (cap < cap_hint * 2)
		cap <<= 1;
	memset(m, 0, sizeof(*m));
	m->keys = calloc(cap, sizeof(*m->keys));
	m->vals = calloc(cap, sizeof(*m->vals));
	if (m->keys == NULL || m->vals == NULL) {
		u64map_done(m);
		return -ENOMEM;
	}
	m->cap = cap;
	return 0;
}

void u64map_done(struct u64map *m)
{
	free(m->keys);
	free(m->vals);
	memset(m, 0, sizeof(*m));
}

void u64map_clear(struct u64map *m)
{
	if (m->used == 0)
		return;
	memset(m->vals, 0, m->cap * sizeof(*m->vals));
	m->used = 0;
}

int64_t u64map_get(const struct u64map *m, uint64_t key)
{
	size_t i = slot_of(key, m->cap);

	while (m->vals[i] != 0) {
		if (m->keys[i] == key)
			return (int64_t)m->vals[i] - 1;
		i = (i + 1) & (m->cap - 1);
	}
	return -1;
}

static void put_unchecked(struct u64map *m, uint64_t key, uint32_t stored)
{
	size_t i = slot_of(key, m->cap);

	while (m->vals[i] != 0 && m->keys[i] != key)
		i = (i + 1) & (m->cap - 1);
	if (m->vals[i] == 0)
		m->used++;
	m->keys[i] = key;
	m->vals[i] = stored;
}

static int grow(struct u64map *m)
{
	struct u64map bigger;
	size_t i;

	bigger.cap = m->cap * 2;
	bigger.used = 0;
	bigger.keys = calloc(bigger.cap, sizeof(*bigger.keys));
	bigger.vals = calloc(bigger.cap, sizeof(*bigger.vals));
	if (bigger.keys == NULL || bigger.vals == NULL) {
		free(bigger.keys);
		free(bigger.vals);
		return -ENOMEM;
	}
	for (i = 0; i < m->cap; i++)
		if (m->vals[i] != 0)
			put_unchecked(&bigger, m->keys[i], m->vals[i]);
	u64map_done(m);
	*m = bigger;
	return 0;
}

int u64map_put(struct u64map *m, uint64_t key, uint32_t val)
{
	if ((m->used + 1) * 2 > m->cap) {
		int r = grow(m);

		if (r < 0)
			return r;
	}
	put_unchecked(m, key, val + 1);
	return 0;
}
