/*
 * u64map.h - open-addressing hash from a 64-bit key to a 32-bit index.
 * The collector's hot path looks up (pid, group) once per context switch, so
 * this is a flat array with linear probing and no deletion: callers that
 * need "remove" repoint the key instead.
 */
#ifndef STACKD_U64MAP_H
#define STACKD_U64MAP_H

#include <stddef.h>
#include <stdint.h>

struct u64map {
	uint64_t *keys;
	uint32_t *vals;   /* value + 1; 0 marks an empty slot */
	size_t cap;       /* power of two */
	size_t used;
};

int u64map_init(struct u64map *m, size_t cap_hint);
void u64map_done(struct u64map *m);
void u64map_clear(struct u64map *m);
/* Index stored for key, or -1. */
int64_t u64map_get(const struct u64map *m, uint64_t key);
/* Insert or overwrite.  Returns 0 or -ENOMEM (the map is then unchanged). */
int u64map_put(struct u64map *m, uint64_t key, uint32_t val);

#endif
