/*
 * simpmu.c - the simulated host: its CPUs and counters, the table of open
 * events (fd -> event), the other PMU user, rule violations and queries.
 */
#include "simpmu_int.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

int simpmu_new(const struct simpmu_params *p, struct simpmu **ret)
{
	return simpmu_new_table(p, NULL, ret);
}

int simpmu_new_table(const struct simpmu_params *p, const struct simpmu_table_cpu *cpu,
		     struct simpmu **ret)
{
	const struct simpmu_arch *a = NULL;
	struct simpmu *sim;
	unsigned i;
	int r;

	if (p->pmu == NULL || p->n_cpus == 0)
		return -EINVAL;
	/* cpu_atom's PMU type is dynamic: its sysfs tree is not simulated */
	if (cpu != NULL && cpu->unit != NULL && strcmp(cpu->unit, "cpu_core") != 0)
		return -EINVAL;
	if (cpu == NULL) {
		a = simpmu_arch_find(p->pmu);
		if (a == NULL)
			return -EINVAL;
	}
	sim = calloc(1, sizeof(*sim));
	if (sim == NULL)
		return -ENOMEM;
	if (a == NULL) {
		r = simpmu_arch_from_table(p->pmu, cpu, &sim->table_arch);
		if (r < 0) {
			free(sim);
			return r;
		}
		a = &sim->table_arch;
	}
	sim->arch = a;
	sim->p = *p;
	sim->n_gp = p->smt_on ? a->gp_smt : a->gp_nosmt;
	/* Ids as the kernel's: unique, never 0.  The clock starts away from 0,
	 * which stackd reads as "no time". */
	sim->next_id = 1;
	sim->now_ns = 1000000000ULL;
	sim->cpus = calloc(p->n_cpus, sizeof(*sim->cpus));
	if (sim->cpus == NULL) {
		free(sim);
		return -ENOMEM;
	}
	sim->idle = simpmu_task_new(sim, 0, 0, "swapper", 0);
	if (sim->idle == NULL) {
		simpmu_free(sim);
		return -ENOMEM;
	}
	for (i = 0; i < p->n_cpus; i++) {
		sim->cpus[i].cur = sim->idle;
		sim->cpus[i].wd_idx = -1;
		memset(sim->cpus[i].reserve_idx, 0xff, sizeof(sim->cpus[i].reserve_idx));
	}
	simpmu_hw_watchdog_need(a, sim->n_gp, &sim->wd_need);
	r = simpmu_sysfs_make(sim);
	if (r < 0) {
		simpmu_free(sim);
		return r;
	}
	*ret = sim;
	return 0;
}

void simpmu_free(struct simpmu *sim)
{
	struct simpmu_task *t, *tn;
	struct sim_ring *r, *rn;
	size_t i;

	if (sim == NULL)
		return;
	simpmu_sysfs_remove(sim);
	for (i = 0; i < sim->n_ev; i++)
		free(sim->ev[i]);
	free(sim->ev);
	for (r = sim->rings; r != NULL; r = rn) {
		rn = r->next;
		(void)munmap(r->map, r->len);
		free(r);
	}
	for (t = sim->tasks; t != NULL; t = tn) {
		tn = t->next;
		free(t);
	}
	free(sim->cpus);
	free(sim);
}

struct sim_event *simpmu_event(const struct simpmu *sim, int fd)
{
	size_t i;

	if (fd < SIMPMU_FD_BASE)
		return NULL;
	i = (size_t)(fd - SIMPMU_FD_BASE);
	return i < sim->n_ev ? sim->ev[i] : NULL;
}

int simpmu_event_add(struct simpmu *sim, struct sim_event *e)
{
	struct sim_event **more;
	size_t i;

	/* Like the kernel, hand out the lowest free number. */
	for (i = 0; i < sim->n_ev; i++)
		if (sim->ev[i] == NULL)
			break;
	if (i == sim->n_ev) {
		more = realloc(sim->ev, (sim->n_ev + 1) * sizeof(*more));
		if (more == NULL)
			return -ENOMEM;
		sim->ev = more;
		sim->n_ev++;
	}
	sim->ev[i] = e;
	e->fd = SIMPMU_FD_BASE + (int)i;
	return e->fd;
}

void simpmu_event_remove(struct simpmu *sim, struct sim_event *e)
{
	sim->ev[e->fd - SIMPMU_FD_BASE] = NULL;
	free(e);
}

void simpmu_violation(struct simpmu *sim, const char *fmt, ...)
{
	char msg[256];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	if (sim->violations++ == 0)
		snprintf(sim->violation, sizeof(sim->violation), "%s", msg);
	if (sim->p.abort_on_violation) {
		fprintf(stderr, "simpmu: rule violated: %s\n", msg);
		simpmu_sysfs_remove(sim);   /* no temporary tree left behind */
		abort();
	}
}

unsigned simpmu_violations(const struct simpmu *sim)
{
	return sim->violations;
}

const char *simpmu_violation_text(const struct simpmu *sim)
{
	return sim->violation;
}

unsigned simpmu_gp_counters(const struct simpmu *sim)
{
	return sim->n_gp;
}

unsigned simpmu_fixed_counters(const struct simpmu *sim)
{
	return sim->arch->n_fixed;
}

static int reserve(struct simpmu *sim, int cpu, unsigned k, uint32_t mask)
{
	struct sim_cpu *c;

	if (cpu < 0 || (unsigned)cpu >= sim->p.n_cpus || k > sim->n_gp ||
	    (mask >> sim->n_gp) != 0)
		return -EINVAL;
	c = &sim->cpus[cpu];
	c->reserve_held = false;
	c->reserve_k = k;
	c->reserve_mask = mask;
	simpmu_sched(sim, cpu);
	return 0;
}

int simpmu_reserve(struct simpmu *sim, int cpu, unsigned k)
{
	return reserve(sim, cpu, k, 0);
}

int simpmu_reserve_mask(struct simpmu *sim, int cpu, uint32_t mask)
{
	return reserve(sim, cpu, 0, mask);
}

bool simpmu_reserved_held(const struct simpmu *sim, int cpu)
{
	return cpu >= 0 && (unsigned)cpu < sim->p.n_cpus && sim->cpus[cpu].reserve_held;
}

int simpmu_other_reader(struct simpmu *sim, int cpu, uint64_t id, int64_t offset_ns)
{
	struct sim_cpu *c;

	if (cpu < 0 || (unsigned)cpu >= sim->p.n_cpus)
		return -EINVAL;
	c = &sim->cpus[cpu];
	c->other_reader = true;
	c->other_id = id;
	c->other_offset_ns = offset_ns;
	return 0;
}

int simpmu_preempt_on_enable(struct simpmu *sim, int cpu, struct simpmu_task *t, uint64_t ns)
{
	if (cpu < 0 || (unsigned)cpu >= sim->p.n_cpus)
		return -EINVAL;
	sim->cpus[cpu].preempt_by = t;
	sim->cpus[cpu].preempt_ns = ns;
	return 0;
}

uint64_t simpmu_now(const struct simpmu *sim)
{
	return sim->now_ns;
}

int simpmu_group_state(const struct simpmu *sim, int fd, enum simpmu_state *state)
{
	const struct sim_event *e = simpmu_event(sim, fd);

	if (e == NULL)
		return -EBADF;
	*state = e->leader->state;
	return 0;
}

int simpmu_times(struct simpmu *sim, int fd, uint64_t *enabled_ns, uint64_t *running_ns)
{
	struct sim_event *e = simpmu_event(sim, fd);

	if (e == NULL)
		return -EBADF;
	simpmu_times_update(sim, e->leader);
	*enabled_ns = e->leader->t_enabled;
	*running_ns = e->leader->t_running;
	return 0;
}

uint64_t simpmu_lost(const struct simpmu *sim, int cpu)
{
	const struct sim_ring *r;
	uint64_t n = 0;

	for (r = sim->rings; r != NULL; r = r->next)
		if (r->cpu == cpu)
			n += r->lost_total;
	return n;
}
