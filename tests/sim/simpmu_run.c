/*
 * simpmu_run.c - the scripted workload: tasks with known rates, context
 * switches on a CPU, the virtual clock, and the truth kept per task.
 *
 * A context switch does what perf_event_task_sched_out() does while the
 * outgoing task is still current: every running context-switch event of
 * the CPU counts 1 and, each sample_period, writes a sample (pid/tid of the
 * task switched out, the time, its group read) to its output ring.
 *
 * A cpu-clock sampler is an hrtimer (perf_swevent_hrtimer): it fires each
 * sample_period ns that its group runs, in whatever task is current then
 * (idle included), its group read taken at that instant.  Disabled, it
 * keeps what was left of its period (perf_swevent_cancel_hrtimer saves
 * period_left), so the clock advances in steps that end at each firing.
 */
#include "simpmu_int.h"

#include "daemon/collect/event_encode.h"
#include "daemon/collect/sysfs_event.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* arch/x86/events/intel/core.c: EVENT_ATTR_STR(slots, ..., "event=0x00,umask=0x4"),
 * topdown-* "event=0x00,umask=0x80".."0x87"; the cpu PMU's type is PERF_TYPE_RAW
 * on hosts without hybrid cores. */
static const struct { const char *name; uint64_t config; } perf_metrics[] = {
	{ "cpu/slots/", 0x0400 },
	{ "cpu/topdown-retiring/", 0x8000 },
	{ "cpu/topdown-bad-spec/", 0x8100 },
	{ "cpu/topdown-fe-bound/", 0x8200 },
	{ "cpu/topdown-be-bound/", 0x8300 },
	{ "cpu/topdown-heavy-ops/", 0x8400 },
	{ "cpu/topdown-br-mispredict/", 0x8500 },
	{ "cpu/topdown-fetch-lat/", 0x8600 },
	{ "cpu/topdown-mem-bound/", 0x8700 },
};

int simpmu_encode(const char *name, struct perf_event_attr *attr)
{
	char err[256];
	size_t i;
	int r;

	r = event_encode(name, attr, err, sizeof(err));
	if (r != -ENOENT || !sysfs_event_is_spec(name))
		return r;
	for (i = 0; i < sizeof(perf_metrics) / sizeof(perf_metrics[0]); i++) {
		if (strcmp(perf_metrics[i].name, name) == 0) {
			attr->type = PERF_TYPE_RAW;
			attr->config = perf_metrics[i].config;
			attr->config1 = attr->config2 = 0;
			return 0;
		}
	}
	return r;
}

struct simpmu_task *simpmu_task_new(struct simpmu *sim, pid_t pid, pid_t tid,
				    const char *comm, double cycles_per_ns)
{
	struct simpmu_task *t = calloc(1, sizeof(*t));

	if (t == NULL)
		return NULL;
	t->sim = sim;
	t->pid = pid;
	t->tid = tid;
	snprintf(t->comm, sizeof(t->comm), "%s", comm);
	t->cycles_per_ns = cycles_per_ns;
	t->next = sim->tasks;
	sim->tasks = t;
	return t;
}

struct simpmu_task *simpmu_task_idle(struct simpmu *sim)
{
	return sim->idle;
}

static int key_of(const struct simpmu *sim, const char *event_string, struct simpmu_key *key)
{
	struct perf_event_attr a;
	int r;

	memset(&a, 0, sizeof(a));
	r = simpmu_encode(event_string, &a);
	if (r < 0)
		return r;
	return simpmu_hw_key(sim->arch, &a, key);
}

int simpmu_rate_for(struct simpmu *sim, struct simpmu_task *t, const char *event_string,
		    double per_cycle)
{
	struct simpmu_key key;
	unsigned i;
	int r;

	/* The truth is over all of a task's run time: rates come first. */
	if (t->run_ns > 0 || per_cycle < 0)
		return -EINVAL;
	r = key_of(sim, event_string, &key);
	if (r < 0)
		return r;
	for (i = 0; i < t->n_rates; i++)
		if (simpmu_hw_key_eq(t->rates[i].key, key))
			break;
	if (i == SIMPMU_MAX_RATES)
		return -ENOSPC;
	if (i == t->n_rates)
		t->n_rates++;
	t->rates[i] = (struct sim_rate){ key, per_cycle, 0 };
	return 0;
}

static void check_cpu(const struct simpmu *sim, int cpu)
{
	if (cpu < 0 || (unsigned)cpu >= sim->p.n_cpus) {
		fprintf(stderr, "simpmu: no cpu %d (the test's script is wrong)\n", cpu);
		abort();
	}
}

static void context_switch(struct simpmu *sim, int cpu, struct simpmu_task *next)
{
	struct sim_cpu *c = &sim->cpus[cpu];
	size_t i;

	for (i = 0; i < sim->n_ev; i++) {
		struct sim_event *e = sim->ev[i];

		if (e == NULL || e->cpu != cpu || e->leader->state != SIMPMU_ACTIVE ||
		    e->key.type != PERF_TYPE_SOFTWARE ||
		    e->key.config != PERF_COUNT_SW_CONTEXT_SWITCHES)
			continue;
		e->count++;
		if (e->attr.freq || e->attr.sample_period == 0 ||
		    ++e->since_sample < e->attr.sample_period)
			continue;
		e->since_sample = 0;
		simpmu_ring_sample(sim, e, c->cur);
	}
	c->cur = next;
}

void simpmu_run(struct simpmu *sim, int cpu, struct simpmu_task *t, uint64_t duration_ns)
{
	unsigned i;

	check_cpu(sim, cpu);
	/* A thread runs on one CPU at a time: it leaves the other first. */
	for (i = 0; i < sim->p.n_cpus; i++)
		if (t != sim->idle && (int)i != cpu && sim->cpus[i].cur == t)
			context_switch(sim, (int)i, sim->idle);
	if (sim->cpus[cpu].cur != t)
		context_switch(sim, cpu, t);
	simpmu_advance(sim, duration_ns);
}

static bool is_clock_sampler(const struct sim_event *e)
{
	return e != NULL && e->leader->state == SIMPMU_ACTIVE &&
	       e->key.type == PERF_TYPE_SOFTWARE && e->key.config == PERF_COUNT_SW_CPU_CLOCK &&
	       !e->attr.freq && e->attr.sample_period != 0;
}

/* The time until the first running cpu-clock sampler fires, at most max. */
static uint64_t next_firing(const struct simpmu *sim, uint64_t max)
{
	uint64_t step = max;
	size_t i;

	for (i = 0; i < sim->n_ev; i++) {
		const struct sim_event *e = sim->ev[i];

		if (is_clock_sampler(e) && e->attr.sample_period - e->since_sample < step)
			step = e->attr.sample_period - e->since_sample;
	}
	return step;
}

/* step ns have passed: every running cpu-clock sampler's timer advances,
 * and those that reach their period write a sample in the current task. */
static void clock_samplers(struct simpmu *sim, uint64_t step)
{
	size_t i;

	for (i = 0; i < sim->n_ev; i++) {
		struct sim_event *e = sim->ev[i];

		if (!is_clock_sampler(e))
			continue;
		e->since_sample += step;
		if (e->since_sample < e->attr.sample_period)
			continue;
		e->since_sample = 0;
		simpmu_ring_sample(sim, e, sim->cpus[e->cpu].cur);
	}
}

void simpmu_advance(struct simpmu *sim, uint64_t duration_ns)
{
	while (duration_ns > 0) {
		uint64_t step = next_firing(sim, duration_ns);
		unsigned i;

		for (i = 0; i < sim->p.n_cpus; i++)
			simpmu_count_cpu(sim, (int)i, sim->cpus[i].cur, step);
		sim->now_ns += step;
		duration_ns -= step;
		clock_samplers(sim, step);
	}
}

uint64_t simpmu_truth_ns(const struct simpmu_task *t)
{
	return t->run_ns;
}

int simpmu_truth(const struct simpmu_task *t, const char *event_string, uint64_t *count)
{
	struct simpmu_key key;
	unsigned i;
	int r;

	r = key_of(t->sim, event_string, &key);
	if (r < 0)
		return r;
	for (i = 0; i < t->n_rates; i++) {
		if (simpmu_hw_key_eq(t->rates[i].key, key)) {
			*count = t->rates[i].truth;
			return 0;
		}
	}
	if (simpmu_hw_key_eq(key, simpmu_hw_cycles(t->sim->arch))) {
		*count = t->cycles;
		return 0;
	}
	return -ENOENT;
}
