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

int simpmu_encode(const struct simpmu *sim, const char *name, struct perf_event_attr *attr)
{
	char err[256];

	return simpmu_encode_err(sim, name, attr, err, sizeof(err));
}

int simpmu_encode_err(const struct simpmu *sim, const char *name, struct perf_event_attr *attr,
		      char *err, size_t errlen)
{
	/* Never the machine's own sysfs: its CPU is not the simulated one. */
	if (sysfs_event_is_spec(name))
		return sysfs_event_resolve(sim->sysfs_root, name, attr, err, errlen);
	return event_encode(name, attr, err, errlen);
}

const char *simpmu_sysfs_root(const struct simpmu *sim)
{
	return sim->sysfs_root;
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
	r = simpmu_encode(sim, event_string, &a);
	if (r < 0)
		return r;
	return simpmu_hw_key(sim->arch, &a, key);
}

int simpmu_rate_for(struct simpmu *sim, struct simpmu_task *t, const char *event_string,
		    double per_cycle)
{
	struct perf_event_attr a;
	int r;

	memset(&a, 0, sizeof(a));
	r = simpmu_encode(sim, event_string, &a);
	return r < 0 ? r : simpmu_rate_attr(sim, t, &a, per_cycle);
}

int simpmu_rate_attr(struct simpmu *sim, struct simpmu_task *t,
		     const struct perf_event_attr *attr, double per_cycle)
{
	struct simpmu_key key;
	unsigned i;
	int r;

	/* The truth is over all of a task's run time: rates come first. */
	if (t->run_ns > 0 || per_cycle < 0)
		return -EINVAL;
	r = simpmu_hw_key(sim->arch, attr, &key);
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

static int truth_key(const struct simpmu_task *t, struct simpmu_key key, uint64_t *count)
{
	unsigned i;

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

int simpmu_truth(const struct simpmu_task *t, const char *event_string, uint64_t *count)
{
	struct simpmu_key key;
	int r;

	r = key_of(t->sim, event_string, &key);
	return r < 0 ? r : truth_key(t, key, count);
}

int simpmu_truth_attr(const struct simpmu_task *t, const struct perf_event_attr *attr,
		      uint64_t *count)
{
	struct simpmu_key key;
	int r;

	r = simpmu_hw_key(t->sim->arch, attr, &key);
	return r < 0 ? r : truth_key(t, key, count);
}
