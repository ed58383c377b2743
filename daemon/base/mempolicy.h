/*
 * mempolicy.h - how stackd's heap gives memory back (issue 34: RSS rose
 * from 11.7 MB to 64.7 MB under a fork storm and stayed there).
 *
 * glibc's defaults suit a short program, not a daemon whose transient
 * allocations come in bursts from short-lived threads:
 *  - every thread that allocates may get an arena of its own, up to 8 per
 *    CPU, each a 64 MiB reservation that is trimmed only from its top;
 *    the HTTP server starts a thread per connection, so a request lands in
 *    any of them and leaves its high-water mark there;
 *  - after a large block (above M_MMAP_THRESHOLD, 128 KiB) is freed, glibc
 *    raises the threshold to that block's size (up to 32 MiB), so the next
 *    large arrays - a window's processes, a rowset - come from an arena
 *    instead of mmap and stay in it after free().
 * mempolicy_init() fixes both; mempolicy_trim() hands free pages in the
 * middle of the arenas back to the kernel (malloc_trim), now and then.
 */
#ifndef STACKD_MEMPOLICY_H
#define STACKD_MEMPOLICY_H

#include <stdint.h>

/* Arenas: the main one and one more for every other thread.  The threads
 * that allocate in steady state (the CPU workers) do so amortised (arrays
 * that grow and are reused), so one lock between them costs nothing. */
#define MEMPOLICY_ARENA_MAX 2
/* Blocks from this size up are mmap'd, so free() unmaps them at once. */
#define MEMPOLICY_MMAP_THRESHOLD (256 * 1024)
/* malloc_trim at most this often (it walks every arena: ~0.1 ms for a few
 * MB here, nothing beside an interval's write). */
#define MEMPOLICY_TRIM_PERIOD_NS (10ULL * 1000000000ULL)

struct mempolicy {
	uint64_t last_trim_ns;   /* CLOCK_MONOTONIC; 0 never */
};

/* Set the arena and mmap limits above.  Call before any thread starts.
 * Returns 0, or -EINVAL when the C library refused one (then its default
 * stays; the daemon runs on). */
int mempolicy_init(void);

/* Give free heap pages back if MEMPOLICY_TRIM_PERIOD_NS have passed since
 * the last time (now: CLOCK_MONOTONIC).  Returns whether it trimmed. */
int mempolicy_trim(struct mempolicy *mp, uint64_t now_ns);

#endif
