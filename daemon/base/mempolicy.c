/*
 * mempolicy.c - see mempolicy.h.
 */
#include "daemon/base/mempolicy.h"

#include <errno.h>
#include <malloc.h>

int mempolicy_init(void)
{
	int ok = 1;

	/* mallopt returns 1 on success, 0 on error (mallopt(3)). */
	ok &= mallopt(M_ARENA_MAX, MEMPOLICY_ARENA_MAX);
	/* Setting the threshold also turns off its dynamic raise (and the
	 * trim threshold's, which stays at its 128 KiB default). */
	ok &= mallopt(M_MMAP_THRESHOLD, MEMPOLICY_MMAP_THRESHOLD);
	return ok ? 0 : -EINVAL;
}

int mempolicy_trim(struct mempolicy *mp, uint64_t now_ns)
{
	if (mp->last_trim_ns != 0 && now_ns - mp->last_trim_ns < MEMPOLICY_TRIM_PERIOD_NS)
		return 0;
	mp->last_trim_ns = now_ns;
	/* Every arena, and free pages inside them too (glibc >= 2.8), not
	 * only the main heap's top. */
	(void)malloc_trim(0);
	return 1;
}
