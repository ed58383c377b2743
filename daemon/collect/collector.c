/*
 * collector.c - open and close the per-CPU perf_event groups and rings.
 * Settings follow COLLECTOR-NOTES.md (measured on a VM like ours).
 */
#include "daemon/collect/collector.h"
#include "daemon/collect/cpulist.h"
#include "lib/model/model_hybrid.h"
#include "daemon/collect/fdlimit.h"
#include "daemon/collect/event_encode.h"
#include "daemon/collect/perf_record.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static int read_paranoid(void)
{
	FILE *f = fopen("/proc/sys/kernel/perf_event_paranoid", "re");
	int v = 2;

	if (f == NULL)
		return v;
	if (fscanf(f, "%d", &v) != 1)
		v = 2;
	fclose(f);
	return v;
}

/* One line that says why perf_event_open failed and what to do about it. */
static void explain_open_error(int r, int cpu, const char *group, const char *event,
			       char *err, size_t errlen)
{
	const char *hint = "";
	char buf[256];

	switch (-r) {
	case EACCES:
	case EPERM:
		snprintf(buf, sizeof(buf),
			 ": system-wide counting needs CAP_PERFMON (or CAP_SYS_ADMIN), or "
			 "sysctl kernel.perf_event_paranoid=0 or lower (it is %d)",
			 read_paranoid());
		hint = buf;
		break;
	case ENOENT:
	case EOPNOTSUPP:
		hint = ": this machine cannot count that event (choose another model)";
		break;
	case EMFILE:
	case ENFILE:
		hint = ": out of file descriptors; raise the limit (LimitNOFILE=, ulimit -n)";
		break;
	case ENODEV:
		hint = ": the CPU went offline";
		break;
	default:
		break;
	}
	snprintf(err, errlen, "cpu %d, group '%s': perf_event_open(%s): %s%s", cpu, group, event,
		 strerror(-r), hint);
}

static void base_attr(struct perf_event_attr *a)
{
	memset(a, 0, sizeof(*a));
	a->size = sizeof(*a);
	a->sample_type = STACKD_SAMPLE_TYPE;
	a->read_format = STACKD_READ_FORMAT;
	a->sample_id_all = 1;
	/* CLOCK_MONOTONIC is NMI-safe, so hardware groups accept it too, and
	 * every event sharing a ring must use the same clock. */
	a->use_clockid = 1;
	a->clockid = CLOCK_MONOTONIC;
}

/* ROLE_CLOCK: cpu-clock, so every sample carries the time its group has
 * run - a span's CPU time that no other reader can overwrite (the kernel
 * fills one sample's data for all samplers of a switch: with perf record
 * running, our samples carry perf's timestamp, on its clock, 3.4 ms behind
 * CLOCK_MONOTONIC on the development VM). */
enum member_role { ROLE_SWITCHES, ROLE_CLOCK, ROLE_MODEL };

struct member_spec {
	enum member_role role;
	unsigned part_idx;      /* index into the plan group's events (stored v index) */
	const char *name;
};

/* The order members are created in, which is the order of a group read. */
static unsigned group_members(const struct collector *c, unsigned g, struct member_spec *out)
{
	const struct plan_group *pg = &c->plan.groups[g];
	const struct model_group *mg = &c->model->groups[pg->family];
	unsigned n = 0, i;

	if ((mg->model_leads || c->switch_position == SWITCH_MEMBER) && pg->n_events > 0) {
		for (i = 0; i < pg->n_events; i++)
			out[n++] = (struct member_spec){ ROLE_MODEL, i,
							 mg->events[pg->events[i]].name };
		out[n++] = (struct member_spec){ ROLE_SWITCHES, 0, "context-switches" };
		out[n++] = (struct member_spec){ ROLE_CLOCK, 0, "cpu-clock" };
		return n;
	}
	out[n++] = (struct member_spec){ ROLE_SWITCHES, 0, "context-switches" };
	out[n++] = (struct member_spec){ ROLE_CLOCK, 0, "cpu-clock" };
	for (i = 0; i < pg->n_events; i++)
		out[n++] = (struct member_spec){ ROLE_MODEL, i, mg->events[pg->events[i]].name };
	return n;
}

static int member_attr(const struct collector *c, const struct member_spec *m, bool leader,
		       struct perf_event_attr *a, char *err, size_t errlen)
{
	int r;

	base_attr(a);
	switch (m->role) {
	case ROLE_SWITCHES:
		a->type = PERF_TYPE_SOFTWARE;
		a->config = PERF_COUNT_SW_CONTEXT_SWITCHES;
		a->sample_period = 1;
		break;
	case ROLE_CLOCK:
		a->type = PERF_TYPE_SOFTWARE;
		a->config = PERF_COUNT_SW_CPU_CLOCK;
		/* a sampler that stays silent until periodic mode */
		a->sample_period = COLLECTOR_NEVER_PERIOD;
		break;
	case ROLE_MODEL:
		r = c->kops->encode != NULL ?
		    c->kops->encode(c->kops->ctx, m->name, a, err, errlen) :
		    event_encode(m->name, a, err, errlen);
		if (r < 0)
			return r;
		/* count_modes: as perf's :u and :k modifiers. */
		a->exclude_user = !c->count_user;
		a->exclude_kernel = !c->count_kernel;
		break;
	}
	a->disabled = leader ? 1 : 0;
	a->pinned = leader ? 1 : 0;
	return 0;
}

static void close_groups(const struct collector *c, struct cpu_events *ce)
{
	unsigned g, i;

	for (g = 0; g < c->n_groups; g++)
		for (i = 0; i < ce->groups[g].n_fds; i++)
			if (ce->groups[g].fds[i] >= 0) {
				c->kops->close(c->kops->ctx, ce->groups[g].fds[i]);
				ce->groups[g].fds[i] = -1;
			}
	collector_close_switch_records(c, ce);
}

static void close_cpu(const struct collector *c, struct cpu_events *ce)
{
	close_groups(c, ce);
	ring_unmap(&ce->ring);
	if (ce->side_fd >= 0)
		c->kops->close(c->kops->ctx, ce->side_fd);
	ce->side_fd = -1;
}

static int open_side_band(struct collector *c, struct cpu_events *ce, char *err, size_t errlen)
{
	struct perf_event_attr a;
	long page = sysconf(_SC_PAGESIZE);
	int r;

	base_attr(&a);
	a.type = PERF_TYPE_SOFTWARE;
	a.config = PERF_COUNT_SW_DUMMY;
	a.comm = 1;
	a.comm_exec = 1;
	a.task = 1;
	/* Wake the reader when half the ring is full, not per record: the
	 * worker also polls with a timeout, so quiet CPUs are drained too. */
	a.watermark = 1;
	a.wakeup_watermark = (uint32_t)((size_t)c->ring_pages * (size_t)page / 2);
	r = c->kops->perf_open(c->kops->ctx, &a, -1, ce->cpu, -1);
	if (r < 0) {
		explain_open_error(r, ce->cpu, "side-band", "dummy", err, errlen);
		return r;
	}
	ce->side_fd = r;
	r = ring_map(&ce->ring, c->kops, ce->side_fd, c->ring_pages);
	if (r < 0) {
		snprintf(err, errlen,
			 "cpu %d: cannot map a %u KiB ring buffer: %s%s", ce->cpu,
			 (unsigned)((size_t)c->ring_pages * (size_t)page / 1024), strerror(-r),
			 r == -EPERM ? " (over kernel.perf_event_mlock_kb: lower ring_pages, or "
				       "grant CAP_IPC_LOCK)" : "");
		return r;
	}
	return 0;
}

int collector_open_switch_records(const struct collector *c, struct cpu_events *ce)
{
	struct perf_event_attr a;
	int r;

	if (ce->switch_fd >= 0)
		return 0;
	base_attr(&a);
	a.type = PERF_TYPE_SOFTWARE;
	a.config = PERF_COUNT_SW_DUMMY;
	a.context_switch = 1;
	r = c->kops->perf_open(c->kops->ctx, &a, -1, ce->cpu, -1);
	if (r < 0)
		return r;
	ce->switch_fd = r;
	r = c->kops->ioctl(c->kops->ctx, ce->switch_fd, PERF_EVENT_IOC_SET_OUTPUT,
			   (unsigned long)ce->side_fd);
	if (r < 0)
		collector_close_switch_records(c, ce);
	return r;
}

void collector_close_switch_records(const struct collector *c, struct cpu_events *ce)
{
	if (ce->switch_fd < 0)
		return;
	c->kops->close(c->kops->ctx, ce->switch_fd);
	ce->switch_fd = -1;
}

/* A sampler's records into the CPU's ring, and its id (to tell its samples). */
static int route_sampler(const struct collector *c, const struct cpu_events *ce, int fd,
			 uint64_t *id)
{
	int r = c->kops->ioctl(c->kops->ctx, fd, PERF_EVENT_IOC_SET_OUTPUT,
			       (unsigned long)ce->side_fd);

	if (r == 0)
		r = c->kops->ioctl(c->kops->ctx, fd, PERF_EVENT_IOC_ID, (unsigned long)id);
	return r;
}

static int set_period(const struct collector *c, int fd, uint64_t period)
{
	return c->kops->ioctl(c->kops->ctx, fd, PERF_EVENT_IOC_PERIOD, (unsigned long)&period);
}

int collector_set_clock_period(const struct collector *c, struct cpu_events *ce, unsigned g,
			       uint64_t period_ns)
{
	return set_period(c, ce->groups[g].clock_fd, period_ns);
}

int collector_set_periodic(const struct collector *c, struct cpu_events *ce, bool on)
{
	unsigned g;
	int r = 0;

	/* Into periodic mode: stop at the first refusal and put every group
	 * back.  Back to every switch: every group, whatever one refuses (a
	 * group left periodic would sample nothing per switch). */
	for (g = 0; g < c->n_groups && (r == 0 || !on); g++) {
		const struct cpu_group *cg = &ce->groups[g];
		int rc, rs;

		if (!collector_group_here(ce, g))
			continue;
		rc = set_period(c, cg->clock_fd, on ? COLLECTOR_PERIODIC_NS : COLLECTOR_NEVER_PERIOD);
		rs = set_period(c, cg->sampler_fd, on ? COLLECTOR_NEVER_PERIOD : 1);
		if (r == 0)
			r = rc < 0 ? rc : rs;
	}
	if (r < 0 && on)
		(void)collector_set_periodic(c, ce, false);
	return r;
}

/* Whether the kernel's answer r to one of the model's events refuses that
 * event (or its group) on this host, rather than stackd as a whole:
 * permission, descriptors and memory stop the start whatever is planned. */
static bool event_refused(int r)
{
	/* ENODEV: the CPU went offline during the open (perf_event_open's
	 * cpu check), not the event */
	return r != -EACCES && r != -EPERM && r != -EMFILE && r != -ENFILE && r != -ENOMEM &&
	       r != -EINTR && r != -ENODEV;
}

static void note_refusal(struct collector *c, unsigned g, int r, const char *why)
{
	if (c->refusal == NULL || !event_refused(r))
		return;
	c->refusal->refused = true;
	c->refusal->group = g;
	c->refusal->error = r;
	snprintf(c->refusal->why, sizeof(c->refusal->why), "%s", why);
}

static int open_group(struct collector *c, struct cpu_events *ce, unsigned g, char *err,
		      size_t errlen)
{
	struct member_spec members[ACC_MAX_MEMBERS];
	struct cpu_group *cg = &ce->groups[g];
	unsigned n = group_members(c, g, members);
	unsigned i;
	int leader = -1;
	char label[96];
	int r;

	plan_group_label(&c->plan, g, label, sizeof(label));

	cg->n_fds = 0;
	cg->sampler_fd = -1;
	cg->clock_fd = -1;
	for (i = 0; i < n; i++) {
		struct perf_event_attr a;
		char why[256];

		r = member_attr(c, &members[i], i == 0, &a, why, sizeof(why));
		if (r < 0) {
			snprintf(err, errlen, "group '%s': %s", label, why);
			if (members[i].role == ROLE_MODEL)
				note_refusal(c, g, r, why);
			return r;
		}
		r = c->kops->perf_open(c->kops->ctx, &a, -1, ce->cpu, leader);
		if (r < 0) {
			explain_open_error(r, ce->cpu, label, members[i].name, err, errlen);
			if (members[i].role == ROLE_MODEL) {
				snprintf(why, sizeof(why), "perf_event_open(%s) on cpu %d: %s",
					 members[i].name, ce->cpu, strerror(-r));
				note_refusal(c, g, r, why);
			}
			return r;
		}
		cg->fds[cg->n_fds++] = r;
		if (i == 0)
			leader = r;
		if (members[i].role == ROLE_SWITCHES)
			cg->sampler_fd = r;
		else if (members[i].role == ROLE_CLOCK)
			cg->clock_fd = r;
	}
	r = route_sampler(c, ce, cg->sampler_fd, &cg->sampler_id);
	if (r == 0)
		r = route_sampler(c, ce, cg->clock_fd, &cg->clock_id);
	if (r < 0) {
		snprintf(err, errlen, "cpu %d, group '%s': cannot route samples to the ring: %s",
			 ce->cpu, label, strerror(-r));
		return r;
	}
	return 0;
}

static void build_layouts(struct collector *c)
{
	unsigned g, i;

	for (g = 0; g < c->n_groups; g++) {
		struct member_spec members[ACC_MAX_MEMBERS];
		struct attrib_layout *lay = &c->layout[g];
		unsigned n = group_members(c, g, members);

		memset(lay, 0, sizeof(*lay));
		lay->n_members = n;
		lay->n_model = c->plan.groups[g].n_events;
		for (i = 0; i < n; i++) {
			if (members[i].role == ROLE_SWITCHES) {
				lay->switches_idx = i;
			} else if (members[i].role == ROLE_CLOCK) {
				lay->has_clock = true;
				lay->clock_idx = i;
			} else {
				lay->model_idx[members[i].part_idx] = i;
			}
		}
	}
}

size_t collector_fds_per_cpu(const struct plan *p)
{
	size_t n = 3;   /* side-band event, switch records, worker wakeup */
	unsigned g;

	for (g = 0; g < p->n_groups; g++)
		n += p->groups[g].n_events + 2;
	return n;
}

/* EMFILE met anyway (more CPUs came online, another thread's files): the
 * same line as the check before opening. */
static void explain_emfile(const struct collector *c, char *err, size_t errlen)
{
	struct fdlimit_need need = { c->n_cpus, c->n_groups, collector_fds_per_cpu(&c->plan) };

	fdlimit_explain(&need, err, errlen);
}

/* The core types' CPU lists, parsed; every group of a hybrid model must
 * have its core type's. */
static int parse_core_types(struct collector *c, const struct collector_core_types *t,
			    char *err, size_t errlen)
{
	unsigned i, g;

	for (i = 0; i < t->n && i < COLLECTOR_MAX_CORE_TYPES; i++) {
		int r;

		snprintf(c->type_unit[i], sizeof(c->type_unit[i]), "%s", t->unit[i]);
		c->n_types = i + 1;
		/* every CPU of the type offline: the kernel lists none */
		if (strpbrk(t->cpus[i], "0123456789") == NULL)
			continue;
		r = cpulist_parse(t->cpus[i], &c->type_cpus[i], &c->type_n_cpus[i]);
		if (r < 0) {
			snprintf(err, errlen, "core type %s: CPU list '%s': %s", t->unit[i],
				 t->cpus[i], strerror(-r));
			return r;
		}
	}
	for (g = 0; g < c->plan.n_groups; g++) {
		const char *unit = model_hybrid_group_unit(c->model, c->plan.groups[g].family);

		for (i = 0; unit != NULL && i < c->n_types; i++)
			if (strcmp(c->type_unit[i], unit) == 0)
				break;
		if (unit != NULL && i == c->n_types) {
			snprintf(err, errlen, "core type %s: which CPUs it has is not known "
				 "(/sys/bus/event_source/devices/%s/cpus)", unit, unit);
			return -EINVAL;
		}
	}
	return 0;
}

/* Whether group g counts on cpu: every CPU, or its core type's. */
static bool group_on_cpu(const struct collector *c, unsigned g, int cpu)
{
	const char *unit = model_hybrid_group_unit(c->model, c->plan.groups[g].family);
	unsigned i;
	size_t k;

	if (unit == NULL)
		return true;
	for (i = 0; i < c->n_types; i++)
		if (strcmp(c->type_unit[i], unit) == 0)
			for (k = 0; k < c->type_n_cpus[i]; k++)
				if (c->type_cpus[i][k] == cpu)
					return true;
	return false;
}

static struct collector *collector_new(const struct collector_params *p)
{
	struct collector *c = calloc(1, sizeof(*c));

	if (c == NULL)
		return NULL;
	c->plan = *p->plan;
	c->model = p->plan->model;
	c->kops = p->kops != NULL ? p->kops : &kernel_ops_linux;
	c->switch_position = p->switch_position;
	c->count_user = p->count_user;
	c->count_kernel = p->count_kernel;
	c->ring_pages = p->ring_pages;
	c->n_groups = p->plan->n_groups;
	c->refusal = p->refusal;
	if (c->refusal != NULL)
		c->refusal->refused = false;
	return c;
}

int collector_open(const struct collector_params *p, struct collector **ret,
		   char *err, size_t errlen)
{
	struct collector *c;
	int *cpus = NULL;
	size_t n_cpus = 0, i;
	unsigned g;
	int r;

	if (p->plan->n_groups == 0 || p->plan->n_groups > PLAN_MAX_GROUPS) {
		snprintf(err, errlen, "the plan has %u groups (1..%d allowed)", p->plan->n_groups,
			 PLAN_MAX_GROUPS);
		return -EINVAL;
	}
	c = collector_new(p);
	if (c == NULL)
		return -ENOMEM;
	r = c->kops->online_cpus(c->kops->ctx, &cpus, &n_cpus);
	if (r < 0) {
		snprintf(err, errlen, "cannot read /sys/devices/system/cpu/online: %s",
			 strerror(-r));
		free(c);
		return r;
	}
	c->cpus = calloc(n_cpus, sizeof(*c->cpus));
	if (c->cpus == NULL) {
		free(cpus);
		free(c);
		return -ENOMEM;
	}
	c->n_cpus = n_cpus;
	for (i = 0; i < n_cpus; i++) {
		c->cpus[i].cpu = cpus[i];
		c->cpus[i].side_fd = -1;
		c->cpus[i].switch_fd = -1;
		for (g = 0; g < PLAN_MAX_GROUPS; g++) {   /* not here until opened */
			struct cpu_group *cg = &c->cpus[i].groups[g];

			cg->fds[0] = cg->sampler_fd = cg->clock_fd = -1;
		}
	}
	free(cpus);
	build_layouts(c);
	r = parse_core_types(c, &p->core_types, err, errlen);
	if (r < 0)
		goto fail;

	for (i = 0; i < c->n_cpus; i++) {
		r = open_side_band(c, &c->cpus[i], err, errlen);
		for (g = 0; g < c->n_groups && r == 0; g++)
			if (group_on_cpu(c, g, c->cpus[i].cpu))
				r = open_group(c, &c->cpus[i], g, err, errlen);
		if (r < 0)
			goto fail;
	}
	*ret = c;
	return 0;
fail:
	if (r == -EMFILE)
		explain_emfile(c, err, errlen);
	collector_close(c);
	return r;
}

void collector_close(struct collector *c)
{
	size_t i;

	if (c == NULL)
		return;
	for (i = 0; i < c->n_cpus; i++)
		close_cpu(c, &c->cpus[i]);
	for (i = 0; i < c->n_types; i++)
		free(c->type_cpus[i]);
	free(c->cpus);
	free(c);
}

void collector_close_groups(struct collector *c)
{
	size_t i;

	for (i = 0; i < c->n_cpus; i++)
		close_groups(c, &c->cpus[i]);
}

int collector_read_group(const struct collector *c, const struct cpu_events *cpu, unsigned g,
			 uint64_t *values, unsigned max)
{
	uint64_t buf[1 + ACC_MAX_MEMBERS];
	const struct cpu_group *cg = &cpu->groups[g];
	ssize_t n;
	unsigned i, nr;

	n = c->kops->read(c->kops->ctx, cg->fds[0], buf, sizeof(buf));
	if (n < 0)
		return (int)n;
	if (n < 8)
		return -EIO;   /* a pinned group in error state reads as 0 bytes */
	nr = (unsigned)buf[0];
	if ((size_t)n < (1 + (size_t)nr) * 8)
		return -EIO;
	for (i = 0; i < nr && i < max; i++)
		values[i] = buf[1 + i];
	return (int)i;
}

int collector_probe_hardware(char *why, size_t len)
{
	struct perf_event_attr a;
	int r;

	memset(&a, 0, sizeof(a));
	a.size = sizeof(a);
	a.type = PERF_TYPE_HARDWARE;
	a.config = PERF_COUNT_HW_CPU_CYCLES;
	a.disabled = 1;
	a.exclude_kernel = 1;   /* allowed for our own task at any paranoid level */
	r = kernel_ops_linux.perf_open(NULL, &a, 0, -1, -1);
	if (r >= 0) {
		close(r);
		return 0;
	}
	if (r == -ENOENT || r == -EOPNOTSUPP || r == -ENODEV)
		snprintf(why, len, "cycles: %s (no hardware PMU)", strerror(-r));
	else
		snprintf(why, len, "cycles: %s", strerror(-r));
	return r;
}
