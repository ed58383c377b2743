/*
 * simpmu_ops.c - struct kernel_ops over the simulated host: what
 * perf_event_open(2), its ioctls, read(2) and mmap(2) would do, with the
 * kernel's checks (kernel/events/core.c unless named):
 *  - a group's events are on one CPU, and the group must fit an empty PMU
 *    (arch/x86/events/core.c, validate_group), else EINVAL;
 *  - perf metrics (arch/x86/events/intel/core.c, intel_pmu_hw_config): a
 *    metric event needs slots as its group's leader, and neither samples;
 *  - SET_OUTPUT: same CPU, same clock, the target mapped, the event not;
 *  - read() of a group leader in ERROR returns 0 bytes (__perf_read), and
 *    a buffer smaller than the read gets ENOSPC;
 *  - PERF_EVENT_IOC_PERIOD (perf_event_period): only on an event opened
 *    sampling, not 0, not bit 63; the next sample is a whole new period
 *    away (__perf_event_period zeroes period_left).
 * The simulator counts CPU-wide events only (pid -1) and samples only
 * software events (no hardware overflow interrupts): other requests get
 * EOPNOTSUPP rather than a silent difference.
 */
#include "simpmu_int.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#define SAMPLE_TYPES (PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_IP | PERF_SAMPLE_TID | \
	PERF_SAMPLE_TIME | PERF_SAMPLE_ID | PERF_SAMPLE_STREAM_ID | PERF_SAMPLE_CPU | \
	PERF_SAMPLE_PERIOD | PERF_SAMPLE_READ)
#define READ_FORMATS (PERF_FORMAT_GROUP | PERF_FORMAT_TOTAL_TIME_ENABLED | \
	PERF_FORMAT_TOTAL_TIME_RUNNING | PERF_FORMAT_ID)

static int sim_online_cpus(void *ctx, int **cpus, size_t *n)
{
	struct simpmu *sim = ctx;
	int *v = calloc(sim->p.n_cpus, sizeof(*v));
	unsigned i;

	if (v == NULL)
		return -ENOMEM;
	for (i = 0; i < sim->p.n_cpus; i++)
		v[i] = (int)i;
	*cpus = v;
	*n = sim->p.n_cpus;
	return 0;
}

static bool is_sampling(const struct perf_event_attr *a)
{
	return a->sample_period != 0;   /* sample_freq shares the field */
}

/* The kernel's group checks for e joining leader (NULL: e leads). */
static int check_group(struct simpmu *sim, struct sim_event *leader, struct sim_event *e)
{
	struct sim_event *evs[SIMPMU_MAX_GROUP];
	unsigned n = 0;

	if (leader != NULL) {
		if (leader->leader != leader || leader->cpu != e->cpu ||
		    leader->n_members >= SIMPMU_MAX_GROUP)
			return -EINVAL;
		memcpy(evs, leader->members, leader->n_members * sizeof(evs[0]));
		n = leader->n_members;
	}
	if (e->need.kind == SIMPMU_METRIC) {
		if (leader == NULL || leader->need.kind != SIMPMU_SLOTS ||
		    is_sampling(&e->attr) || is_sampling(&leader->attr))
			return -EINVAL;
	}
	evs[n++] = e;
	return simpmu_group_fits(sim, evs, n) ? 0 : -EINVAL;
}

static int new_event(struct simpmu *sim, const struct perf_event_attr *attr, int cpu,
		     struct sim_event **ret)
{
	struct sim_event *e;
	int r;

	if ((attr->sample_type & ~(uint64_t)SAMPLE_TYPES) ||
	    (attr->read_format & ~(uint64_t)READ_FORMATS) || attr->inherit)
		return -EOPNOTSUPP;
	e = calloc(1, sizeof(*e));
	if (e == NULL)
		return -ENOMEM;
	e->attr = *attr;
	e->cpu = cpu;
	e->clock = attr->use_clockid ? attr->clockid : CLOCK_MONOTONIC;
	r = simpmu_hw_key(sim->arch, attr, &e->key);
	if (r == 0)
		r = simpmu_hw_need(sim->arch, sim->n_gp, sim->p.smt_on, attr, &e->need);
	if (r == 0 && is_sampling(attr) && e->need.kind != SIMPMU_SOFTWARE)
		r = e->need.kind == SIMPMU_METRIC ? -EINVAL : -EOPNOTSUPP;
	if (r < 0) {
		free(e);
		return r;
	}
	e->hw = e->hw_prev = sim->p.counter_start & SIMPMU_MASK48;
	e->hw_idx = -1;
	e->state = attr->disabled ? SIMPMU_OFF : SIMPMU_INACTIVE;
	e->t_stamp = sim->now_ns;
	*ret = e;
	return 0;
}

static int sim_perf_open(void *ctx, struct perf_event_attr *attr, pid_t pid, int cpu,
			 int group_fd)
{
	struct simpmu *sim = ctx;
	struct sim_event *e, *leader = NULL;
	int r, fd = -1;

	if (pid != -1)
		return -EOPNOTSUPP;
	if (cpu < 0 || (unsigned)cpu >= sim->p.n_cpus)
		return -EINVAL;
	if (sim->refuse && attr->type == sim->refuse_type && attr->config == sim->refuse_config &&
	    (sim->refuse_cpu < 0 || sim->refuse_cpu == cpu))
		return -sim->refuse_errno;
	if (group_fd != -1) {
		leader = simpmu_event(sim, group_fd);
		if (leader == NULL)
			return -EBADF;
	}
	r = new_event(sim, attr, cpu, &e);
	if (r < 0)
		return r;
	r = check_group(sim, leader, e);
	if (r == 0)
		r = fd = simpmu_event_add(sim, e);
	if (r < 0) {
		free(e);
		return r;
	}
	e->id = sim->next_id++;
	if (leader == NULL) {
		e->leader = e;
		e->members[e->n_members++] = e;
	} else {
		e->leader = leader;
		leader->members[leader->n_members++] = e;
		/* A member joining a counting group: schedule the group anew. */
		if (leader->state == SIMPMU_ACTIVE)
			simpmu_set_state(sim, leader, SIMPMU_INACTIVE);
	}
	simpmu_sched(sim, cpu);
	return fd;
}

/* Our groups: a pinned leader or a leader with members (not the lone
 * side-band dummy). */
static bool is_collector_group(const struct sim_event *leader)
{
	return leader->attr.pinned || leader->n_members > 1;
}

static void check_one_enabled(struct simpmu *sim, const struct sim_event *g)
{
	size_t i;

	if (!is_collector_group(g))
		return;
	for (i = 0; i < sim->n_ev; i++) {
		const struct sim_event *o = sim->ev[i];

		if (o != NULL && o != g && o->cpu == g->cpu && o->leader == o &&
		    is_collector_group(o) && o->state != SIMPMU_OFF)
			simpmu_violation(sim, "cpu %d: group fd %d enabled while group fd %d is "
					 "still enabled (disable before enable)", g->cpu, g->fd,
					 o->fd);
	}
}

static int set_output(struct simpmu *sim, struct sim_event *e, int target_fd)
{
	struct sim_event *t;

	if (target_fd == -1) {
		e->output = e->ring;
		return 0;
	}
	t = simpmu_event(sim, target_fd);
	if (t == NULL)
		return -EBADF;
	if (t == e || t->cpu != e->cpu || t->clock != e->clock || t->output == NULL ||
	    e->ring != NULL)
		return -EINVAL;
	e->output = t->output;
	return 0;
}

static int set_period(struct sim_event *e, uint64_t period)
{
	if (!is_sampling(&e->attr) || e->attr.freq || period == 0 || (period & (1ULL << 63)))
		return -EINVAL;
	e->attr.sample_period = period;
	e->since_sample = 0;
	return 0;
}

/* Whether leader's group counts context switches (one of our counting
 * groups, not a side-band or switch-record event). */
static bool counts_switches(const struct sim_event *leader)
{
	unsigned i;

	for (i = 0; i < leader->n_members; i++)
		if (leader->members[i]->key.type == PERF_TYPE_SOFTWARE &&
		    leader->members[i]->key.config == PERF_COUNT_SW_CONTEXT_SWITCHES)
			return true;
	return false;
}

/* simpmu_preempt_on_enable: the caller is preempted right after its enable
 * of leader, and then runs again. */
static void preempt_after_enable(struct simpmu *sim, const struct sim_event *leader)
{
	struct sim_cpu *c = &sim->cpus[leader->cpu];
	struct simpmu_task *back = c->cur;

	if (c->preempt_by == NULL || c->preempt_by == back || !counts_switches(leader))
		return;
	simpmu_run(sim, leader->cpu, c->preempt_by, c->preempt_ns);
	simpmu_run(sim, leader->cpu, back, 0);
}

static int sim_ioctl(void *ctx, int fd, unsigned long request, unsigned long arg)
{
	struct simpmu *sim = ctx;
	struct sim_event *e = simpmu_event(sim, fd);

	if (e == NULL)
		return -EBADF;
	switch (request) {
	case PERF_EVENT_IOC_ENABLE:
		if (e->leader == e && e->state < SIMPMU_INACTIVE) {
			check_one_enabled(sim, e);
			simpmu_set_state(sim, e, SIMPMU_INACTIVE);
			simpmu_sched(sim, e->cpu);
			preempt_after_enable(sim, e);
		}
		return 0;
	case PERF_EVENT_IOC_DISABLE:
		if (e->leader == e && e->state != SIMPMU_OFF) {
			simpmu_set_state(sim, e, SIMPMU_OFF);
			simpmu_sched(sim, e->cpu);
		}
		return 0;
	case PERF_EVENT_IOC_SET_OUTPUT:
		return set_output(sim, e, (int)arg);
	case PERF_EVENT_IOC_ID:
		*(uint64_t *)arg = e->id;
		return 0;
	case PERF_EVENT_IOC_PERIOD:
		return set_period(e, *(const uint64_t *)arg);
	default:
		return -ENOTTY;
	}
}

static ssize_t sim_read(void *ctx, int fd, void *buf, size_t len)
{
	struct simpmu *sim = ctx;
	struct sim_event *e = simpmu_event(sim, fd);

	if (e == NULL)
		return -EBADF;
	if (e->leader == e && e->state == SIMPMU_ERROR)
		return 0;
	return simpmu_read_values(sim, e, buf, len);
}

static void *sim_mmap_ring(void *ctx, int fd, size_t len, int *err)
{
	struct simpmu *sim = ctx;
	struct sim_event *e = simpmu_event(sim, fd);
	size_t page = (size_t)sysconf(_SC_PAGESIZE);
	size_t data = len > page ? len - page : 0;
	struct sim_ring *r;
	void *map;

	if (e == NULL) {
		*err = -EBADF;
		return NULL;
	}
	/* 1 + 2^n pages, and not an event whose output goes elsewhere. */
	if (len % page != 0 || data == 0 || (data & (data - 1)) != 0 || e->output != NULL) {
		*err = -EINVAL;
		return NULL;
	}
	r = calloc(1, sizeof(*r));
	map = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (r == NULL || map == MAP_FAILED) {
		free(r);
		if (map != MAP_FAILED)
			(void)munmap(map, len);
		*err = -ENOMEM;
		return NULL;
	}
	r->map = map;
	r->len = len;
	r->page = page;
	r->data_size = data;
	r->cpu = e->cpu;
	((struct perf_event_mmap_page *)map)->data_offset = page;
	((struct perf_event_mmap_page *)map)->data_size = data;
	r->next = sim->rings;
	sim->rings = r;
	e->ring = e->output = r;
	return map;
}

static struct sim_ring *unlink_ring(struct simpmu *sim, const void *map)
{
	struct sim_ring *r, *prev = NULL;

	for (r = sim->rings; r != NULL; prev = r, r = r->next) {
		if (r->map != map)
			continue;
		if (prev == NULL)
			sim->rings = r->next;
		else
			prev->next = r->next;
		return r;
	}
	return NULL;
}

static void sim_munmap_ring(void *ctx, void *map, size_t len)
{
	struct simpmu *sim = ctx;
	struct sim_ring *r = unlink_ring(sim, map);
	size_t i;

	if (r == NULL || r->len != len) {
		fprintf(stderr, "simpmu: munmap_ring of a mapping it did not make\n");
		abort();
	}
	for (i = 0; i < sim->n_ev; i++) {
		struct sim_event *e = sim->ev[i];

		if (e != NULL && e->ring == r)
			e->ring = NULL;
		if (e != NULL && e->output == r)
			e->output = NULL;
	}
	(void)munmap(r->map, r->len);
	free(r);
}

static void sim_close(void *ctx, int fd)
{
	struct simpmu *sim = ctx;
	struct sim_event *e = simpmu_event(sim, fd);
	struct sim_event *g;
	unsigned i;
	int cpu;

	if (e == NULL)
		return;
	cpu = e->cpu;
	g = e->leader;
	if (g == e) {
		simpmu_set_state(sim, e, SIMPMU_OFF);
		/* Members left behind stand alone, disabled. */
		for (i = 1; i < e->n_members; i++) {
			struct sim_event *m = e->members[i];

			m->leader = m;
			m->members[0] = m;
			m->n_members = 1;
			m->state = SIMPMU_OFF;
			m->t_stamp = sim->now_ns;
		}
	} else {
		unsigned j;

		if (g->state == SIMPMU_ACTIVE)
			simpmu_fold(e);
		for (i = j = 0; i < g->n_members; i++)
			if (g->members[i] != e)
				g->members[j++] = g->members[i];
		g->n_members = j;
	}
	simpmu_event_remove(sim, e);
	simpmu_sched(sim, cpu);
}

static uint64_t sim_now_ns(void *ctx)
{
	return ((const struct simpmu *)ctx)->now_ns;
}

/* Event strings as the collector encodes them on this host (simpmu_encode):
 * the "pmu/.../" ones against the simulated host's sysfs tree. */
static int sim_encode(void *ctx, const char *name, struct perf_event_attr *attr, char *err,
		      size_t errlen)
{
	return simpmu_encode_err(ctx, name, attr, err, errlen);
}

struct kernel_ops simpmu_ops(struct simpmu *sim)
{
	return (struct kernel_ops){
		.ctx = sim,
		.online_cpus = sim_online_cpus,
		.perf_open = sim_perf_open,
		.ioctl = sim_ioctl,
		.read = sim_read,
		.mmap_ring = sim_mmap_ring,
		.munmap_ring = sim_munmap_ring,
		.close = sim_close,
		.now_ns = sim_now_ns,
		.encode = sim_encode,
	};
}

void simpmu_refuse_event(struct simpmu *sim, uint32_t type, uint64_t config, int cpu, int err)
{
	sim->refuse = true;
	sim->refuse_type = type;
	sim->refuse_config = config;
	sim->refuse_cpu = cpu;
	sim->refuse_errno = err;
}
