/*
 * attrib.c - see attrib.h.
 */
#include "daemon/attribute/attrib.h"
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

static void charge(struct attrib_cpu *c, int32_t pid, unsigned g, uint64_t t, uint64_t time_ns,
		   const uint64_t *d, unsigned n)
{
	if (cpuacc_add(c->acc, pid, g, t, time_ns, false, d, n) < 0)
		c->st.dropped++;
}

/* As charge(), for a span measured in periodic mode: the entry's
 * periodic_ns says its time is statistical. */
static void charge_periodic(struct attrib_cpu *c, int32_t pid, unsigned g, uint64_t t,
			    uint64_t time_ns, const uint64_t *d, unsigned n)
{
	if (cpuacc_add(c->acc, pid, g, t, time_ns, true, d, n) < 0)
		c->st.dropped++;
}

void attrib_enabled(struct attrib_cpu *c, unsigned g, uint64_t t, const uint64_t *values,
		    unsigned n)
{
	const struct attrib_layout *lay;

	if (g >= c->n_groups)
		return;
	lay = &c->layout[g];
	if (c->failed[g] && values != NULL) {
		/* Counted after the last sample of the turn that failed: no
		 * owner.  From here the deltas start afresh. */
		uint64_t d[ACC_MAX_MEMBERS] = { 0 };
		unsigned i, m = n < lay->n_members ? n : lay->n_members;

		for (i = 0; i < m; i++)
			d[i] = values[i] >= c->last[g][i] ? values[i] - c->last[g][i] : 0;
		memcpy(c->last[g], values, m * sizeof(*values));
		charge(c, PID_UNATTRIBUTED, g, t, 0, d, m);
	}
	if (values != NULL)
		c->failed[g] = false;   /* not read: the tail waits for an enable that reads */
	c->turn_periodic[g] = c->periodic;
	c->last_time[g] = t;
	c->anchor_time[g] = t;
	/* Not read: the clock stood still since the group's last read. */
	c->anchor_clock[g] = values != NULL && lay->clock_idx < n ? values[lay->clock_idx] :
			     c->last[g][lay->clock_idx];
}

void attrib_lost(struct attrib_cpu *c, unsigned g, uint64_t from, uint64_t to)
{
	uint64_t none[ACC_MAX_MEMBERS] = { 0 };

	if (g >= c->n_groups || to <= from)
		return;
	c->st.unattributed_spans++;
	charge(c, PID_UNATTRIBUTED, g, to, to - from, none, c->layout[g].n_members);
}

void attrib_failed(struct attrib_cpu *c, unsigned g, uint64_t t)
{
	if (g >= c->n_groups)
		return;
	attrib_lost(c, g, c->last_time[g], t);
	if (t > c->last_time[g])
		c->last_time[g] = t;
	c->failed[g] = true;
}

void attrib_reanchor(struct attrib_cpu *c, unsigned g, uint64_t t, const uint64_t *values,
		     unsigned n)
{
	const struct attrib_layout *lay;

	if (g >= c->n_groups)
		return;
	lay = &c->layout[g];
	if (!lay->has_clock || lay->clock_idx >= n)
		return;
	c->anchor_time[g] = t;
	c->anchor_clock[g] = values[lay->clock_idx];
}

/* When group g's read values[n] was taken: from its clock, or the
 * sample's own time t for a layout without one. */
static uint64_t read_time(const struct attrib_cpu *c, unsigned g, const uint64_t *values,
			  unsigned n, uint64_t t)
{
	const struct attrib_layout *lay = &c->layout[g];
	uint64_t v;

	if (!lay->has_clock || lay->clock_idx >= n)
		return t;
	v = values[lay->clock_idx];
	return v >= c->anchor_clock[g] ? c->anchor_time[g] + (v - c->anchor_clock[g]) :
	       c->anchor_time[g];
}

/* d = values - last; last = values; *span = the clock's delta (or t -
 * last_time without a clock); last_time = t.  False when a counter went
 * backwards, which would turn into a huge unsigned delta if charged. */
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
	if (c->layout[g].has_clock && c->layout[g].clock_idx < n)
		*span = d[c->layout[g].clock_idx];
	else   /* ring records are in time order but for a few ns */
		*span = t > c->last_time[g] ? t - c->last_time[g] : 0;
	if (t > c->last_time[g])
		c->last_time[g] = t;
	if (!ok)
		c->st.backwards_reads++;
	else
		c->switches_counted += d[c->layout[g].switches_idx];
	return ok;
}

/* The out and in records of one switch (a few microseconds apart) are
 * one boundary; either alone is one too (the guest kernel above writes
 * no in record for the idle task, no out record for its switch-out). */
#define SWITCH_PAIR_NS 1000000

void attrib_switch_in(struct attrib_cpu *c, uint64_t t, int32_t prev_pid, int32_t next_pid)
{
	struct attrib_switch_in *s = &c->switch_in[c->n_switch_in % ATTRIB_SWITCH_HISTORY];

	if (c->n_switch_in > 0) {
		const struct attrib_switch_in *last =
			&c->switch_in[(c->n_switch_in - 1) % ATTRIB_SWITCH_HISTORY];

		if (last->prev_pid == prev_pid && last->next_pid == next_pid &&
		    t >= last->time && t - last->time < SWITCH_PAIR_NS)
			return;
	}

	s->time = t;
	s->prev_pid = prev_pid;
	s->next_pid = next_pid;
	c->n_switch_in++;
}

/* The switch-ins after t0 and up to t, oldest first, into out; how many,
 * or -1 when the history no longer reaches back to t0. */
static int switch_ins_between(const struct attrib_cpu *c, uint64_t t0, uint64_t t,
			      struct attrib_switch_in *out)
{
	uint64_t kept = c->n_switch_in;
	uint64_t i, first = c->n_switch_in;
	int n = 0;

	if (kept > ATTRIB_SWITCH_HISTORY)
		kept = ATTRIB_SWITCH_HISTORY;

	/* Newest first: stop at the first one at or before t0. */
	for (i = 0; i < kept; i++) {
		const struct attrib_switch_in *s =
			&c->switch_in[(c->n_switch_in - 1 - i) % ATTRIB_SWITCH_HISTORY];

		if (s->time <= t0)
			break;
		first = c->n_switch_in - 1 - i;
	}
	if (i == kept && c->n_switch_in > kept)
		return -1;
	for (i = first; i < c->n_switch_in; i++) {
		const struct attrib_switch_in *s = &c->switch_in[i % ATTRIB_SWITCH_HISTORY];

		if (s->time <= t)
			out[n++] = *s;
	}
	return n;
}

/* Split the span (t0, t] of group g, whose deltas d[n] hold more switches
 * than samples, at the switch-ins inside it: the piece before each
 * switch-in is its previous task's, the last piece final_pid's (charged at
 * charge_t).  Each piece that ends in a switch gets that switch - the last
 * one only when final_switch (a sample's own switch; a remainder has none),
 * the earliest piece none when its switch was the previous sample's;
 * switches beyond the records go to unattributed.  CPU time is exact; other
 * counts go in proportion to time, remainders to the last piece so sums
 * stay exact.  False (nothing charged) when no record falls in the span or
 * the last does not hand the CPU to final_pid. */
#define MIN_U64(a, b) ((a) < (b) ? (a) : (b))

static bool split_span(struct attrib_cpu *c, unsigned g, uint64_t t0, uint64_t t,
		       uint64_t charge_t, int32_t final_pid, bool final_switch,
		       const uint64_t *d, unsigned n, uint64_t cpu_ns)
{
	const struct attrib_layout *lay = &c->layout[g];
	struct attrib_switch_in in[ATTRIB_SWITCH_HISTORY];
	uint64_t given[ACC_MAX_MEMBERS] = { 0 };
	unsigned switches_of[ATTRIB_SWITCH_HISTORY] = { 0 };
	uint64_t left, time_left = cpu_ns, span = t > t0 ? t - t0 : 0;
	int m = switch_ins_between(c, t0, t, in), j;
	unsigned i;

	if (m < 1 || span == 0 || in[m - 1].next_pid != final_pid)
		return false;
	left = d[lay->switches_idx];
	if (final_switch) {
		if (left == 0)
			return false;
		left--;
	}
	for (j = m - 1; j >= 0 && left > 0; j--, left--)
		switches_of[j] = 1;
	for (j = 0; j < m; j++)
		if (in[j].prev_pid < 0)
			return false;
	/* More switches than switch-ins (the guest kernel above also counts
	 * idle switch-outs that write no record): who ran when is still known,
	 * only whose those switches were is not. */
	if (left > 0) {
		uint64_t extra[ACC_MAX_MEMBERS] = { 0 };

		extra[lay->switches_idx] = left;
		charge(c, PID_UNATTRIBUTED, g, charge_t, 0, extra, n);
	}
	for (j = 0; j <= m; j++) {
		uint64_t from = j == 0 ? t0 : in[j - 1].time;
		uint64_t to = j == m ? t : in[j].time;
		uint64_t piece = to > from ? to - from : 0;
		uint64_t part[ACC_MAX_MEMBERS];

		/* The pieces' times come from the records, their sum from the
		 * span's clock: the last piece takes what is left. */
		if (j == m || piece > time_left)
			piece = time_left;
		time_left -= piece;
		for (i = 0; i < n; i++) {
			if (lay->has_clock && i == lay->clock_idx)
				part[i] = j == m ? d[i] - given[i] : MIN_U64(piece, d[i] - given[i]);
			else if (i == lay->switches_idx)
				part[i] = j == m ? (final_switch ? 1 : 0) : switches_of[j];
			else if (j == m)
				part[i] = d[i] - given[i];
			else   /* never past what is left, whatever the records say */
				part[i] = MIN_U64((uint64_t)((unsigned __int128)d[i] * piece / span),
						  d[i] - given[i]);
			given[i] += part[i];
		}
		charge(c, j == m ? final_pid : in[j].prev_pid, g, j == m ? charge_t : to, piece,
		       part, n);
	}
	c->st.split_spans++;
	return true;
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
	uint64_t switches, span, t0, sample_t;

	if (g >= c->n_groups)
		return;
	lay = &c->layout[g];
	if (n > lay->n_members)
		n = lay->n_members;
	c->st.samples++;
	c->samples_seen++;
	t0 = c->last_time[g];
	t = read_time(c, g, values, n, t);
	sample_t = t;
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
	c->st.unsampled_switches += switches - 1;
	c->unsampled_span_ns += span;
	if (split_span(c, g, t0, sample_t, t, pid, true, d, n, span))
		return;
	/* The span holds switches that produced no sample: it covers more than
	 * one task.  This sample's own switch is certain; the rest is not. */
	{
		uint64_t own[ACC_MAX_MEMBERS] = { 0 };

		own[lay->switches_idx] = 1;
		d[lay->switches_idx] -= 1;
		c->st.unattributed_spans++;
		charge(c, pid, g, t, 0, own, n);
		charge(c, PID_UNATTRIBUTED, g, t, span, d, n);
	}
}

void attrib_clock_sample(struct attrib_cpu *c, unsigned g, int32_t pid, uint64_t t,
			 const uint64_t *values, unsigned n)
{
	uint64_t d[ACC_MAX_MEMBERS];
	uint64_t span;

	if (g >= c->n_groups)
		return;
	if (n > c->layout[g].n_members)
		n = c->layout[g].n_members;
	t = read_time(c, g, values, n, t);
	if (!take_delta(c, g, t, values, n, d, &span))
		return;
	c->clock_samples_seen++;
	/* Every switch in the span is this sample's, by design: no split. */
	if (pid == PERF_PID_GONE) {
		c->st.orphan_exits++;
		c->st.unattributed_spans++;
		pid = PID_UNATTRIBUTED;
	}
	charge_periodic(c, pid, g, t, span, d, n);
}

void attrib_set_periodic(struct attrib_cpu *c, bool on)
{
	c->periodic = on;
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
	uint64_t span, t0;

	if (g >= c->n_groups)
		return;
	lay = &c->layout[g];
	if (n > lay->n_members)
		n = lay->n_members;
	if (c->turn_periodic[g] && c->periodic)
		return;   /* the tail waits for the group's next clock sample */
	t0 = c->last_time[g];
	t = read_time(c, g, values, n, t);
	if (!take_delta(c, g, t, values, n, d, &span))
		return;
	if (c->turn_periodic[g]) {
		/* A periodic tail, its switches included: statistical, the
		 * task the read interrupts (this thread) takes it whole. */
		c->turn_periodic[g] = false;
		charge_periodic(c, c->self_pid, g, t, span, d, n);
		return;
	}
	/* Our thread is running, so no switch is expected in the remainder; one
	 * means a switch went unsampled and the span is not ours alone. */
	if (d[lay->switches_idx] != 0) {
		c->st.unsampled_switches += d[lay->switches_idx];
		c->unsampled_span_ns += span;
		if (split_span(c, g, t0, t, t, c->self_pid, false, d, n, span))
			return;
		c->st.unattributed_spans++;
		charge(c, PID_UNATTRIBUTED, g, t, span, d, n);
		return;
	}
	charge(c, c->self_pid, g, t, span, d, n);
}
