/*
 * simpmu_count.c - counting: what a task's run adds to each counting event
 * of its CPU, the 48-bit hardware counters folded into 64-bit counts, the
 * Intel perf-metrics fractions, and the read() layout.
 *
 * Hardware counters are 48 bits wide.  As x86_perf_event_update() does, a
 * count grows by (new - prev) & (2^48 - 1); the kernel's max_period (2^47
 * - 1) makes a PMI fold the counter before it can wrap twice, so additions
 * are folded in pieces no larger than that.
 *
 * Perf metrics (arch/x86/events/intel/core.c, icl_update_topdown_event):
 * fixed counter 3 counts slots and PERF_METRICS holds each class as an
 * 8-bit fraction of them (sum 0xff); every read adds slots * fraction / 0xff
 * to each metric event and resets both registers.  The hardware's rounding
 * of the fractions is not published: the simulator truncates.
 */
#include "simpmu_int.h"

#include <errno.h>
#include <math.h>
#include <string.h>

#define INTEL_SLOTS   0x0400
#define INTEL_METRIC0 0x8000

void simpmu_fold(struct sim_event *e)
{
	if (e->need.kind != SIMPMU_COUNTER && e->need.kind != SIMPMU_SLOTS)
		return;
	e->count += (e->hw - e->hw_prev) & SIMPMU_MASK48;
	e->hw_prev = e->hw;
}

static void hw_add(struct sim_event *e, uint64_t inc)
{
	while (inc > 0) {
		uint64_t piece = inc < SIMPMU_MAX_PERIOD ? inc : SIMPMU_MAX_PERIOD;

		e->hw = (e->hw + piece) & SIMPMU_MASK48;
		simpmu_fold(e);
		inc -= piece;
	}
}

static bool is_active(const struct sim_event *e, int cpu)
{
	return e != NULL && e->cpu == cpu && e->leader->state == SIMPMU_ACTIVE;
}

void simpmu_topdown_update(struct simpmu *sim, int cpu)
{
	struct sim_cpu *c = &sim->cpus[cpu];
	size_t i;

	if (c->td_slots == 0)
		return;
	for (i = 0; i < sim->n_ev; i++) {
		struct sim_event *e = sim->ev[i];
		uint64_t frac;

		if (!is_active(e, cpu) || e->need.kind != SIMPMU_METRIC)
			continue;
		/* Rounded to the nearest 1/255: the hardware's rounding is not
		 * published, and a truncation would bias every read by up to
		 * 1/255 where the test's truth is exact fractions. */
		frac = (uint64_t)(((unsigned __int128)c->td_metric[e->need.metric] * 0xff +
				   c->td_slots / 2) / c->td_slots);
		if (frac > 0xff)
			frac = 0xff;
		e->count += (uint64_t)((unsigned __int128)c->td_slots * frac / 0xff);
	}
	c->td_slots = 0;
	memset(c->td_metric, 0, sizeof(c->td_metric));
}

/* What one slice of t's run adds, per key: cycles, run time, each rate.
 * Totals are floor(rate * all cycles so far), so slicing changes nothing. */
struct slice {
	uint64_t dur_ns, cycles;
	uint64_t d[SIMPMU_MAX_RATES];
};

static void task_slice(struct simpmu_task *t, uint64_t dur_ns, struct slice *s)
{
	uint64_t old = t->cycles;
	unsigned i;

	s->dur_ns = dur_ns;
	t->run_ns += dur_ns;
	t->cycles = (uint64_t)floorl((long double)t->cycles_per_ns * (long double)t->run_ns);
	s->cycles = t->cycles - old;
	for (i = 0; i < t->n_rates; i++) {
		uint64_t total = (uint64_t)floorl((long double)t->rates[i].per_cycle *
						  (long double)t->cycles);

		s->d[i] = total - t->rates[i].truth;
		t->rates[i].truth = total;
	}
}

static uint64_t slice_for(const struct simpmu *sim, const struct simpmu_task *t,
			  const struct slice *s, struct simpmu_key key)
{
	unsigned i;

	for (i = 0; i < t->n_rates; i++)
		if (simpmu_hw_key_eq(t->rates[i].key, key))
			return s->d[i];
	if (simpmu_hw_key_eq(key, simpmu_hw_cycles(sim->arch)))
		return s->cycles;
	if (key.type == PERF_TYPE_SOFTWARE &&
	    (key.config == PERF_COUNT_SW_CPU_CLOCK || key.config == PERF_COUNT_SW_TASK_CLOCK))
		return s->dur_ns;
	return 0;
}

void simpmu_count_cpu(struct simpmu *sim, int cpu, struct simpmu_task *t, uint64_t dur_ns)
{
	struct sim_cpu *c = &sim->cpus[cpu];
	struct slice s;
	bool slots_on = false;
	unsigned m;
	size_t i;

	task_slice(t, dur_ns, &s);
	for (i = 0; i < sim->n_ev; i++) {
		struct sim_event *e = sim->ev[i];

		if (!is_active(e, cpu))
			continue;
		switch (e->need.kind) {
		case SIMPMU_SLOTS:
			slots_on = true;
			/* fall through */
		case SIMPMU_COUNTER:
			hw_add(e, slice_for(sim, t, &s, e->key));
			break;
		case SIMPMU_SOFTWARE:
			if (e->key.config != PERF_COUNT_SW_CONTEXT_SWITCHES)
				e->count += slice_for(sim, t, &s, e->key);
			break;
		case SIMPMU_METRIC:
			break;   /* counted on read, from the fractions */
		}
	}
	if (!slots_on)
		return;
	c->td_slots += slice_for(sim, t, &s, (struct simpmu_key){ PERF_TYPE_RAW, INTEL_SLOTS, 0 });
	for (m = 0; m < sim->arch->n_metrics; m++)
		c->td_metric[m] += slice_for(sim, t, &s, (struct simpmu_key){
			PERF_TYPE_RAW, INTEL_METRIC0 + 0x100 * (uint64_t)m, 0 });
}

/* Bring the group's counts up to now before anyone looks at them. */
static void group_update(struct simpmu *sim, struct sim_event *leader)
{
	unsigned i;

	simpmu_times_update(sim, leader);
	if (leader->state != SIMPMU_ACTIVE)
		return;
	simpmu_topdown_update(sim, leader->cpu);
	for (i = 0; i < leader->n_members; i++)
		simpmu_fold(leader->members[i]);
}

static size_t put(uint64_t *out, size_t n, size_t max, uint64_t v)
{
	if (n < max)
		out[n] = v;
	return n + 1;
}

ssize_t simpmu_read_values(struct simpmu *sim, struct sim_event *e, void *buf, size_t len)
{
	struct sim_event *g = e->leader;
	uint64_t rf = e->attr.read_format;
	uint64_t *out = buf;
	size_t max = len / 8, n = 0;

	group_update(sim, g);
	if (rf & PERF_FORMAT_GROUP) {
		unsigned i;

		n = put(out, n, max, g->n_members);
		if (rf & PERF_FORMAT_TOTAL_TIME_ENABLED)
			n = put(out, n, max, g->t_enabled);
		if (rf & PERF_FORMAT_TOTAL_TIME_RUNNING)
			n = put(out, n, max, g->t_running);
		for (i = 0; i < g->n_members; i++) {
			n = put(out, n, max, g->members[i]->count);
			if (rf & PERF_FORMAT_ID)
				n = put(out, n, max, g->members[i]->id);
		}
	} else {
		n = put(out, n, max, e->count);
		if (rf & PERF_FORMAT_TOTAL_TIME_ENABLED)
			n = put(out, n, max, g->t_enabled);
		if (rf & PERF_FORMAT_TOTAL_TIME_RUNNING)
			n = put(out, n, max, g->t_running);
		if (rf & PERF_FORMAT_ID)
			n = put(out, n, max, e->id);
	}
	return n <= max ? (ssize_t)(n * 8) : -ENOSPC;
}
