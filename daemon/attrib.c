/*
 * attrib.c - see attrib.h.
 */
#include "attrib.h"
#include "lib/pids.h"

#include <string.h>

/* perf's pid or tid of a task it can no longer name (reaped before the
 * record was written); not a pseudo pid of ours (lib/pids.h). */
#define PERF_PID_GONE (-1)

void attrib_init(struct attrib_cpu *c, const struct attrib_layout *layout, unsigned n_groups,
		 int32_t self_pid, struct cpuacc *acc)
{
	memset(c, 0, sizeof(*c));
	c->layout = layout;
	c->n_groups = n_groups;
	c->self_pid = self_pid;
	c->acc = acc;
}

void attrib_enabled(struct attrib_cpu *c, unsigned g, uint64_t t)
{
	if (g < c->n_groups)
		c->last_time[g] = t;
}

static void charge(struct attrib_cpu *c, int32_t pid, unsigned g, uint64_t t, uint64_t time_ns,
		   const uint64_t *d, unsigned n)
{
	if (cpuacc_add(c->acc, pid, g, t, time_ns, d, n) < 0)
		c->st.dropped++;
}

/* d = values - last; last = values; *span = t - last_time; last_time = t.
 * False when a counter went backwards, which would turn into a huge
 * unsigned delta if charged. */
static bool take_delta(struct attrib_cpu *c, unsigned g, uint64_t t, const uint64_t *values,
		       unsigned n, uint64_t *d, uint64_t *span)
{
	uint64_t *last = c->last[g];
	bool ok = true;
	unsigned i;

	for (i = 0; i < n; i++) {
		if (values[i] < last[i])
			ok = false;
		d[i] = values[i] - last[i];
	}
	memcpy(last, values, n * sizeof(*values));
	/* Records of one ring are in time order but for a few ns when an
	 * interrupt writes one between the stamping and the writing of another. */
	*span = t > c->last_time[g] ? t - c->last_time[g] : 0;
	if (t > c->last_time[g])
		c->last_time[g] = t;
	if (!ok)
		c->st.backwards_reads++;
	return ok;
}

/* Which task the sample's span belongs to, and the time to charge it at.
 * The trailing sample after an EXIT is charged at the exit's time, so a pid
 * reused right after the exit cannot claim it. */
static bool resolve_owner(struct attrib_cpu *c, int32_t *pid, int32_t tid, uint64_t *t)
{
	bool trailing = false;

	if (c->exit_pending) {
		if (*pid == PERF_PID_GONE || (tid == PERF_PID_GONE && *pid == c->exit_pid) ||
		    tid == c->exit_tid)
			trailing = true;
	}
	if (trailing) {
		*pid = c->exit_pid;
		*t = c->exit_ns;
		c->exit_pending = false;
		return true;
	}
	if (*pid == PERF_PID_GONE) {
		c->st.orphan_exits++;
		return false;
	}
	return true;
}

void attrib_sample(struct attrib_cpu *c, unsigned g, int32_t pid, int32_t tid, uint64_t t,
		   const uint64_t *values, unsigned n)
{
	const struct attrib_layout *lay;
	uint64_t d[ACC_MAX_MEMBERS];
	uint64_t switches, span;

	if (g >= c->n_groups)
		return;
	lay = &c->layout[g];
	if (n > lay->n_members)
		n = lay->n_members;
	c->st.samples++;
	if (!take_delta(c, g, t, values, n, d, &span))
		return;
	if (!resolve_owner(c, &pid, tid, &t)) {
		c->st.unattributed_spans++;
		charge(c, PID_UNATTRIBUTED, g, t, span, d, n);
		return;
	}
	switches = d[lay->switches_idx];
	if (switches <= 1) {
		charge(c, pid, g, t, span, d, n);
		return;
	}
	/* The span holds switches that produced no sample: it covers more than
	 * one task.  This sample's own switch is certain; the rest is not. */
	{
		uint64_t own[ACC_MAX_MEMBERS] = { 0 };

		own[lay->switches_idx] = 1;
		d[lay->switches_idx] -= 1;
		c->st.unsampled_switches += switches - 1;
		c->st.unattributed_spans++;
		charge(c, pid, g, t, 0, own, n);
		charge(c, PID_UNATTRIBUTED, g, t, span, d, n);
	}
}

void attrib_exit(struct attrib_cpu *c, int32_t pid, int32_t tid, uint64_t t)
{
	c->exit_pending = true;
	c->exit_pid = pid;
	c->exit_tid = tid;
	c->exit_ns = t;
	/* Only the group leader's exit ends the process's generation. */
	if (pid == tid && cpuacc_mark_exit(c->acc, pid, t) < 0)
		c->st.dropped++;
}

void attrib_remainder(struct attrib_cpu *c, unsigned g, uint64_t t, const uint64_t *values,
		      unsigned n)
{
	const struct attrib_layout *lay;
	uint64_t d[ACC_MAX_MEMBERS];
	uint64_t span;

	if (g >= c->n_groups)
		return;
	lay = &c->layout[g];
	if (n > lay->n_members)
		n = lay->n_members;
	if (!take_delta(c, g, t, values, n, d, &span))
		return;
	/* Our thread is running, so no switch is expected in the remainder; one
	 * means a switch went unsampled and the span is not ours alone. */
	if (d[lay->switches_idx] != 0) {
		c->st.unsampled_switches += d[lay->switches_idx];
		c->st.unattributed_spans++;
		charge(c, PID_UNATTRIBUTED, g, t, span, d, n);
		return;
	}
	charge(c, c->self_pid, g, t, span, d, n);
}
