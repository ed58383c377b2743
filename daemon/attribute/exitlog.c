/*
 * exitlog.c - see exitlog.h.  A seqlock per slot: writers take it with a
 * compare-and-swap to odd, readers retry while it is odd or moved.
 */
#include "daemon/attribute/exitlog.h"

static struct exitlog_slot *slot_of(struct exitlog *l, int32_t pid)
{
	return &l->slots[(uint32_t)pid % EXITLOG_SLOTS];
}

void exitlog_add(struct exitlog *l, int32_t pid, uint64_t exit_ns)
{
	struct exitlog_slot *s = slot_of(l, pid);
	uint64_t newest;
	uint32_t seq;

	do {
		seq = __atomic_load_n(&s->seq, __ATOMIC_RELAXED);
	} while ((seq & 1) != 0 ||
		 !__atomic_compare_exchange_n(&s->seq, &seq, seq + 1, false, __ATOMIC_ACQUIRE,
					      __ATOMIC_RELAXED));
	if (__atomic_load_n(&s->pid, __ATOMIC_RELAXED) != pid) {
		__atomic_store_n(&s->pid, pid, __ATOMIC_RELAXED);
		__atomic_store_n(&s->exit_ns[1], 0, __ATOMIC_RELAXED);
		__atomic_store_n(&s->exit_ns[0], exit_ns, __ATOMIC_RELAXED);
	} else if (exit_ns != s->exit_ns[0]) {
		/* workers drain at their own pace: keep the two newest in order */
		uint64_t a = s->exit_ns[0], b = exit_ns;

		__atomic_store_n(&s->exit_ns[0], a > b ? a : b, __ATOMIC_RELAXED);
		__atomic_store_n(&s->exit_ns[1], a > b ? b : a, __ATOMIC_RELAXED);
	}
	__atomic_store_n(&s->seq, seq + 2, __ATOMIC_RELEASE);
	newest = __atomic_load_n(&l->newest_ns, __ATOMIC_RELAXED);
	while (newest < exit_ns &&
	       !__atomic_compare_exchange_n(&l->newest_ns, &newest, exit_ns, false,
					    __ATOMIC_RELAXED, __ATOMIC_RELAXED))
		;
}

bool exitlog_between(struct exitlog *l, int32_t pid, uint64_t from, uint64_t to)
{
	struct exitlog_slot *s;
	uint64_t t[2];
	uint32_t before, after;
	int32_t p;

	/* the common case, on every charge: no exit at all since from */
	if (__atomic_load_n(&l->newest_ns, __ATOMIC_RELAXED) < from)
		return false;
	s = slot_of(l, pid);
	do {
		before = __atomic_load_n(&s->seq, __ATOMIC_ACQUIRE);
		p = __atomic_load_n(&s->pid, __ATOMIC_RELAXED);
		t[0] = __atomic_load_n(&s->exit_ns[0], __ATOMIC_RELAXED);
		t[1] = __atomic_load_n(&s->exit_ns[1], __ATOMIC_RELAXED);
		__atomic_thread_fence(__ATOMIC_ACQUIRE);
		after = __atomic_load_n(&s->seq, __ATOMIC_RELAXED);
	} while ((before & 1) != 0 || before != after);
	if (p != pid)
		return false;
	return (t[0] != 0 && from <= t[0] && t[0] < to) || (t[1] != 0 && from <= t[1] && t[1] < to);
}
