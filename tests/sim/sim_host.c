/*
 * sim_host.c - see sim_host.h.
 */
#include "sim_host.h"
#include "daemon/collect/collector_degrade.h"
#include "daemon/store/store.h"
#include "lib/clock.h"
#include "lib/query.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define SIM_SLICE_NS (1 * NS_PER_MSEC)

const char *sim_host_pmu_of(const struct model *m)
{
	const struct perfdb_table *t;
	const char *unit;

	if (sim_host_table_of(m, &t, &unit))
		return unit == NULL || strcmp(unit, "cpu_core") == 0 ? t->name : NULL;
	switch (m->vendor) {
	case VENDOR_INTEL:
		return m->pmus[0];
	case VENDOR_AMD:
		return "amd64_fam19h_zen4";
	case VENDOR_ARM:
		return "arm_n1";
	default:
		return NULL;
	}
}

int32_t sim_host_pid(unsigned i)
{
	return (int32_t)(1001 + i);
}

/* Top-Down events whose rates must add up as the pipeline's slots do, so
 * that level 1 sums to 1 as on real hardware: per cycle, in slots of the
 * model's width W (perf metrics in 255ths, as the hardware reports them). */
struct td_rate {
	const char *column;
	double per_w;     /* x W per cycle */
	double per_task;  /* moved between classes per task, x W */
};

static const struct td_rate td_rates[] = {
	/* Intel perf metrics: 51 + 26 + 77 + 101 = 255 */
	{ "slots", 1.0, 0 },
	{ "td_retiring", 51.0 / 255, 0 }, { "td_bad_spec", 26.0 / 255, 0 },
	{ "td_fe_bound", 77.0 / 255, 0 }, { "td_be_bound", 101.0 / 255, 0 },
	{ "td_heavy_ops", 20.0 / 255, 0 }, { "td_br_mispredict", 13.0 / 255, 0 },
	{ "td_fetch_lat", 40.0 / 255, 0 }, { "td_mem_bound", 50.0 / 255, 0 },
	/* Ice Lake's corrections, small as on hardware (bad_speculation is
	 * what the other classes leave) */
	{ "uop_dropping", 0.01, 0 }, { "clears_count", 0.0005, 0 },
	/* Zen 4: dispatched + frontend + backend + SMT contention = slots */
	{ "dispatched_ops", 0.30, 0 }, { "retired_ops", 0.25, 0 },
	{ "fe_no_ops", 0.28, -0.02 }, { "be_stalls", 0.34, 0.02 },
	{ "smt_contention_slots", 0.08, 0 },
	/* Arm: STALL_SLOT = STALL_SLOT_FRONTEND + STALL_SLOT_BACKEND */
	{ "stall_slot", 0.5, 0 }, { "stall_slot_frontend", 0.2, -0.05 },
	{ "stall_slot_backend", 0.3, 0.05 },
	{ "op_spec", 0.45, 0 }, { "op_retired", 0.4, 0 },
	/* Models of perf's tables, by their columns (model_table_event.c).
	 * Intel perf metrics as above; */
	{ "topdown_retiring", 51.0 / 255, 0 }, { "topdown_bad_spec", 26.0 / 255, 0 },
	{ "topdown_fe_bound", 77.0 / 255, 0 }, { "topdown_be_bound", 101.0 / 255, 0 },
	{ "topdown_heavy_ops", 20.0 / 255, 0 }, { "topdown_br_mispredict", 13.0 / 255, 0 },
	{ "topdown_fetch_lat", 40.0 / 255, 0 }, { "topdown_mem_bound", 50.0 / 255, 0 },
	{ "int_misc_uop_dropping", 0.01, 0 },
	/* Intel E-cores: the four TOPDOWN_*.ALL_P classes share the slots; */
	{ "topdown_retiring_all_p", 0.25, 0 }, { "topdown_bad_speculation_all_p", 0.10, 0 },
	{ "topdown_fe_bound_all_p", 0.28, -0.02 }, { "topdown_be_bound_all_p", 0.37, 0.02 },
	/* AMD Zen 5 as Zen 4 above, under perf's names. */
	{ "de_src_op_disp_all", 0.30, 0 }, { "ex_ret_ops", 0.25, 0 },
	{ "de_no_dispatch_per_slot_no_ops_from_frontend", 0.28, -0.02 },
	{ "de_no_dispatch_per_slot_backend_stalls", 0.34, 0.02 },
	{ "de_no_dispatch_per_slot_smt_contention", 0.08, 0 },
};

/* Per-cycle rate of an event for task i: the Top-Down table, else a value
 * from the column's name, different for every task and event, never 0. */
static double rate(const struct sim_host *h, unsigned i, const char *column)
{
	unsigned hash = 0;

	for (size_t k = 0; k < sizeof(td_rates) / sizeof(td_rates[0]); k++)
		if (strcmp(td_rates[k].column, column) == 0)
			return (double)h->width *
			       (td_rates[k].per_w + td_rates[k].per_task * (double)i);
	for (const char *p = column; *p != '\0'; p++)
		hash = hash * 31 + (unsigned char)*p;
	return 0.05 + 0.01 * (double)(hash % 11) + 0.003 * (double)i;
}

/* Every event of every family, by the bits the truth knows it by (an
 * event in two families gets the same rate twice). */
static int set_rates(struct sim_host *h, unsigned i)
{
	const struct model *m = h->model;
	struct perf_event_attr a;
	unsigned g, e;
	int r;

	for (g = 0; g < m->n_groups; g++)
		for (e = 0; e < m->groups[g].n_events; e++) {
			const char *col = m->groups[g].events[e].column;

			if (strcmp(col, "cycles") == 0)
				continue;
			r = sim_host_event_attr(h, &m->groups[g].events[e], &a);
			if (r == 0)
				r = simpmu_rate_attr(h->sim, h->tasks[i], &a, rate(h, i, col));
			if (r < 0)
				return r;
		}
	return 0;
}

static int open_store(struct sim_host *h, char *err, size_t errlen)
{
	int r;

	snprintf(h->dir, sizeof(h->dir), "/tmp/stackd-sim.XXXXXX");
	if (mkdtemp(h->dir) == NULL)
		return -errno;
	snprintf(h->db_path, sizeof(h->db_path), "%s/sim.db", h->dir);
	r = store_open(h->db_path, &h->store, err, errlen);
	if (r == 0 && h->table != NULL && h->model->vendor == VENDOR_ARM) {
		/* the simulated Arm PMU's caps/slots, kept as the daemon keeps
		 * the host's (daemon/meta.c): perf's #slots */
		char slots[16];
		const char *kv[] = { "pmu_slots", slots };

		snprintf(slots, sizeof(slots), "%u", h->width);
		r = store_set_meta(h->store, kv, 1, err, errlen);
	}
	return r;
}

static int open_collection(struct sim_host *h, char *err, size_t errlen)
{
	struct collector_params p;
	size_t i;
	int r;

	memset(&p, 0, sizeof(p));
	p.plan = &h->plan;
	p.kops = &h->ops;
	p.switch_position = SWITCH_LEADER;
	p.ring_pages = 64;
	p.count_user = p.count_kernel = true;
	/* as the daemon opens it: a family the host refuses is planned around */
	r = collector_open_what_opens(&p, &h->plan, "sim", &h->col, err, errlen);
	if (r == 0)
		r = store_register(h->store, h->model, &h->plan, "sim-boot", 1, err, errlen);
	if (r < 0)
		return r;
	if (h->col->n_cpus != SIM_HOST_CPUS) {
		snprintf(err, errlen, "the collector opened %zu CPUs", h->col->n_cpus);
		return -EINVAL;
	}
	for (i = 0; i < SIM_HOST_CPUS; i++) {
		r = worker_init(&h->workers[i], h->col, &h->col->cpus[i], h->rotate_ns,
				SIM_HOST_WORKER_PID);
		if (r < 0)
			return r;
	}
	/* The host's /proc is an empty directory: every process comes from the
	 * simulated side-band records alone. */
	r = proctab_init(&h->pt, h->dir, 10 * NS_PER_MSEC, 0);
	if (r == 0)
		r = flush_init(&h->fl, h->col, h->workers, SIM_HOST_CPUS, &h->pt,
			       clock_ns(CLOCK_REALTIME));
	return r;
}

int sim_host_open(struct sim_host *h, const struct model *m, const char *sim_pmu, bool smt,
		  bool watchdog, unsigned reserved, char *err, size_t errlen)
{
	return sim_host_open_refusing(h, m, sim_pmu, smt, watchdog, reserved, NULL, err, errlen);
}

/* The simulated kernel refuses the model event whose column is refuse
 * (NULL: none): "column", or "column@cpu:errno" for one CPU and errno. */
static int refuse_event(struct sim_host *h, const char *refuse, char *err, size_t errlen)
{
	char column[64];
	int cpu = -1, code = ENOENT;
	unsigned g, e;

	if (refuse != NULL) {
		snprintf(column, sizeof(column), "%.*s", (int)strcspn(refuse, "@"), refuse);
		if (strchr(refuse, '@') != NULL)
			sscanf(strchr(refuse, '@') + 1, "%d:%d", &cpu, &code);
		refuse = column;
	}
	for (g = 0; refuse != NULL && g < h->model->n_groups; g++)
		for (e = 0; e < h->model->groups[g].n_events; e++) {
			const struct model_event *ev = &h->model->groups[g].events[e];
			struct perf_event_attr a;

			if (strcmp(ev->column, refuse) != 0)
				continue;
			if (sim_host_event_attr(h, ev, &a) < 0) {
				snprintf(err, errlen, "cannot encode %s", refuse);
				return -EINVAL;
			}
			simpmu_refuse_event(h->sim, a.type, a.config, cpu, code);
			return 0;
		}
	if (refuse != NULL) {
		snprintf(err, errlen, "model %s has no event %s", h->model->name, refuse);
		return -ENOENT;
	}
	return 0;
}

int sim_host_open_refusing(struct sim_host *h, const struct model *m, const char *sim_pmu,
			   bool smt, bool watchdog, unsigned reserved, const char *refuse,
			   char *err, size_t errlen)
{
	struct simpmu_params sp = { sim_pmu, SIM_HOST_CPUS, smt, watchdog, 0, false };
	bool off[MODEL_MAX_GROUPS] = { false };
	struct plan_budget b;
	unsigned i;
	int r;

	memset(h, 0, sizeof(*h));
	h->model = m;
	h->rotate_ns = 100 * NS_PER_MSEC;
	h->width = m->pipeline_width;
	plan_budget_for(m, smt, watchdog, reserved, &b);
	r = plan_make(m, off, &b, &h->plan, err, errlen);
	if (r < 0)
		return r;
	if (sim_host_table_of(m, &h->table, &h->unit)) {
		/* the counters as the model has them; simpmu holds them to
		 * perf's counter.json where it has one */
		struct simpmu_table_cpu cpu = { h->unit, m->gp_counters_smt, m->gp_counters_nosmt,
						m->fixed_counters };

		h->width = sim_host_slot_width(m, h->table, h->unit);
		r = simpmu_new_table(&sp, &cpu, &h->sim);
	} else {
		r = simpmu_new(&sp, &h->sim);
	}
	if (r < 0) {
		snprintf(err, errlen, "simpmu_new(%s): %s", sim_pmu, strerror(-r));
		return r;
	}
	h->ops = simpmu_ops(h->sim);
	r = refuse_event(h, refuse, err, errlen);
	if (r < 0)
		return r;
	for (i = 0; i < SIM_HOST_CPUS && reserved > 0; i++)
		if (simpmu_reserve(h->sim, (int)i, reserved) < 0)
			return -EINVAL;
	for (i = 0; i < SIM_HOST_TASKS; i++) {
		char comm[16];

		snprintf(comm, sizeof(comm), "task%u", i);
		/* About a thousand times a real core's clock: counts large
		 * enough that whole-count rounding moves no ratio by 1e-12 (the
		 * truth is compared to 1e-9); 1020 = 4 x 255 makes every
		 * millisecond's slots a whole number of perf-metrics 255ths. */
		h->tasks[i] = simpmu_task_new(h->sim, sim_host_pid(i), sim_host_pid(i), comm,
					      1020.0 * (1.0 + 0.5 * i));
		if (h->tasks[i] == NULL)
			return -ENOMEM;
		r = set_rates(h, i);
		if (r < 0) {
			snprintf(err, errlen, "simpmu_rate_for: %s", strerror(-r));
			return r;
		}
	}
	h->init = simpmu_task_new(h->sim, 1, 1, "init", 1.0);
	if (h->init == NULL)
		return -ENOMEM;
	for (i = 0; i < SIM_HOST_CPUS; i++) {
		h->worker_task[i] = simpmu_task_new(h->sim, SIM_HOST_WORKER_PID,
						    SIM_HOST_WORKER_PID + 1 + (int)i, "stackd", 1.0);
		if (h->worker_task[i] == NULL)
			return -ENOMEM;
	}
	r = open_store(h, err, errlen);
	if (r == 0)
		r = open_collection(h, err, errlen);
	return r;
}

/* CPU c's schedule: task0 3 ms, task1 2 ms, idle 1 ms, task2 4 ms, ... and
 * CPU 1 the other way round, so tasks move between CPUs. */
static struct simpmu_task *next_task(struct sim_host *h, unsigned c, uint64_t *slices)
{
	static const int order[2][5] = { { 0, 1, -1, 2, 1 }, { 2, -1, 1, 0, 0 } };
	static const uint64_t len[2][5] = { { 3, 2, 1, 4, 1 }, { 2, 1, 3, 2, 5 } };
	unsigned s = h->slot[c]++ % 5;
	int t = order[c][s];

	*slices = len[c][s];
	return t < 0 ? simpmu_task_idle(h->sim) : h->tasks[t];
}

/* The worker of every CPU runs: the CPU switches to it, it does what is
 * due (request, if given, asks for a cut first), and the CPU goes back. */
static void workers_run(struct sim_host *h, struct simpmu_task *const *current)
{
	unsigned c;

	for (c = 0; c < SIM_HOST_CPUS; c++) {
		simpmu_run(h->sim, (int)c, h->worker_task[c], 0);
		(void)worker_tick(&h->workers[c]);
		simpmu_run(h->sim, (int)c, current[c], 0);
	}
}

static int flush_once(struct sim_host *h, struct simpmu_task *const *current, char *err,
		      size_t errlen)
{
	struct interval_data *iv = NULL, *done = NULL;
	int r = flush_request(&h->fl, false, &iv);

	if (r < 0)
		return r;
	workers_run(h, current);
	r = flush_collect(&h->fl, iv, &done);
	if (r < 0)
		return r;
	if (h->on_interval != NULL)
		for (const struct interval_data *d = done; d != NULL; d = d->next)
			h->on_interval(h->on_interval_ctx, d);
	r = store_write_intervals(h->store, done, err, errlen);
	interval_free(done);
	return r;
}

void sim_host_start(struct sim_host *h)
{
	uint64_t start = simpmu_now(h->sim);
	unsigned c;

	for (c = 0; c < SIM_HOST_CPUS; c++) {
		h->current[c] = h->worker_task[c];
		simpmu_run(h->sim, (int)c, h->worker_task[c], 0);
		worker_begin(&h->workers[c]);
	}
	/* The tasks are born (FORK, then COMM at exec) as the side band would
	 * tell: the host's /proc is empty, so this is how stackd knows them. */
	for (c = 0; c < SIM_HOST_TASKS; c++) {
		char comm[16];

		snprintf(comm, sizeof(comm), "task%u", c);
		simpmu_fork(h->sim, 0, h->init, h->tasks[c]);
		simpmu_exec(h->sim, 0, h->tasks[c], comm);
	}
	h->next_rotate = start + h->rotate_ns;
	h->next_flush = start + NS_PER_SEC;
}

int sim_host_run(struct sim_host *h, uint64_t ns, bool last, char *err, size_t errlen)
{
	struct simpmu_task **current = h->current;
	uint64_t *left = h->left, end = simpmu_now(h->sim) + ns;
	unsigned c;
	int r;

	while (simpmu_now(h->sim) < end) {
		uint64_t now = simpmu_now(h->sim);

		for (c = 0; c < SIM_HOST_CPUS; c++) {
			if (left[c] > 0)
				continue;
			current[c] = next_task(h, c, &left[c]);
			simpmu_run(h->sim, (int)c, current[c], 0);
		}
		if (now >= h->next_flush) {
			r = flush_once(h, current, err, errlen);
			if (r < 0)
				return r;
			h->next_flush += NS_PER_SEC;
		} else if (now >= h->next_rotate) {
			workers_run(h, current);
		}
		if (now >= h->next_rotate)
			h->next_rotate += h->rotate_ns;
		simpmu_advance(h->sim, SIM_SLICE_NS);
		for (c = 0; c < SIM_HOST_CPUS; c++)
			left[c]--;
	}
	return last ? flush_once(h, current, err, errlen) : 0;
}

void sim_host_truth(const struct sim_host *h, unsigned i, struct group_sums *sums)
{
	const struct model *m = h->model;
	struct perf_event_attr a;
	unsigned g, e;

	memset(sums, 0, sizeof(*sums) * MODEL_MAX_GROUPS);
	for (g = 0; g < m->n_groups; g++) {
		sums[g].present = true;
		sums[g].task_clock_ns = simpmu_truth_ns(h->tasks[i]);
		for (e = 0; e < m->groups[g].n_events; e++) {
			const struct model_event *ev = &m->groups[g].events[e];
			bool counted = false;

			/* counted in this SMT state: some planned group has it */
			for (unsigned k = 0; k < h->plan.n_groups && !counted; k++)
				for (unsigned j = 0; j < h->plan.groups[k].n_events; j++)
					counted |= h->plan.groups[k].family == g &&
						   h->plan.groups[k].events[j] == e;
			if (!counted || sim_host_event_attr(h, ev, &a) < 0 ||
			    simpmu_truth_attr(h->tasks[i], &a, &sums[g].v[e]) < 0)
				sums[g].missing |= 1u << e;
		}
	}
}

static bool close_enough(double got, double want)
{
	return fabs(got - want) <= 1e-9 * fmax(1.0, fabs(want));
}

/* Bit of Top-Down level 1 class name; 0 for another node (AMD's
 * smt_contention, a fifth class, still in the sum). */
static unsigned td_class(const char *name)
{
	static const char *const classes[] = { "retiring", "bad_speculation", "frontend_bound",
					       "backend_bound" };

	for (unsigned c = 0; c < 4; c++)
		if (strcmp(name, classes[c]) == 0)
			return 1u << c;
	return 0;
}

/* Task i as stored (p) against its truth. */
static int check_task(const struct sim_host *h, const struct window *w,
		      const struct window_proc *p, unsigned i, bool *checked, char *err,
		      size_t errlen)
{
	const struct model *m = h->model;
	struct metric_value got[MODEL_MAX_METRICS], want[MODEL_MAX_METRICS];
	struct group_sums truth[MODEL_MAX_GROUPS];
	/* #slots as the readers take it: the stored PMU's (meta pmu_slots) */
	struct model_context ctx = { .smt_on = h->plan.budget.smt_on, .slots = w->slots };
	double l1 = 0.0;
	unsigned l1_classes = 0;

	sim_host_truth(h, i, truth);
	if (p->task_clock_ns != truth[0].task_clock_ns) {
		snprintf(err, errlen, "task %u: %llu ns measured, %llu true", i,
			 (unsigned long long)p->task_clock_ns,
			 (unsigned long long)truth[0].task_clock_ns);
		return -1;
	}
	memset(got, 0, sizeof(got));
	memset(want, 0, sizeof(want));
	m->compute(m, p->sums, &ctx, got);
	m->compute(m, truth, &ctx, want);
	for (unsigned k = 0; k < m->n_metrics; k++) {
		if (!want[k].valid)
			continue;
		if (checked != NULL)
			checked[k] = true;
		if (!got[k].valid || !close_enough(got[k].value, want[k].value)) {
			snprintf(err, errlen, "task %u: %s = %.12g (%s), truth %.12g", i,
				 m->metrics[k].name, got[k].value,
				 got[k].valid ? "valid" : "invalid", want[k].value);
			return -1;
		}
		if (m->metrics[k].stack != NULL && strcmp(m->metrics[k].stack, "topdown") == 0 &&
		    m->metrics[k].parent == NULL) {
			l1 += got[k].value;
			l1_classes |= td_class(m->metrics[k].name);
		}
	}
	/* Level 1 sums to 1 where all four classes are there: a table model
	 * may have only some (perf's Neoverse V3 retiring and backend_bound
	 * read #slots, which its PMU publishes and a model does not know). */
	if (l1_classes == 0xf && fabs(l1 - 1.0) > 1e-9) {
		snprintf(err, errlen, "task %u: Top-Down level 1 sums to %.12g", i, l1);
		return -1;
	}
	return 0;
}

/* The stored window's row of task i, or NULL. */
static const struct window_proc *stored(const struct window *w, unsigned i)
{
	const struct window_proc *p = NULL;

	for (size_t k = 0; k < w->n_procs; k++)
		if (w->procs[k].pid == sim_host_pid(i))
			p = &w->procs[k];
	return p;
}

int sim_host_verify(const struct sim_host *h, char *err, size_t errlen)
{
	return sim_host_verify_metrics(h, NULL, err, errlen);
}

int sim_host_verify_metrics(const struct sim_host *h, bool checked[MODEL_MAX_METRICS],
			    char *err, size_t errlen)
{
	struct window w;
	struct db *db;
	int r = 0;

	if (db_open(h->db_path, &db, err, errlen) < 0)
		return -1;
	if (query_window(db, 3600 * NS_PER_SEC, &w, err, errlen) < 0) {
		db_close(db);
		return -1;
	}
	if (getenv("SIM_DEBUG") != NULL)
		fprintf(stderr, "samples %llu backwards %llu lost %llu unattributed %llu "
			"unknown %llu foreign %llu\n", (unsigned long long)w.samples,
			(unsigned long long)w.backwards_reads, (unsigned long long)w.lost_records,
			(unsigned long long)w.unattributed_spans,
			(unsigned long long)w.unknown_id_samples,
			(unsigned long long)w.foreign_id_samples);
	if (w.unschedulable != 0) {
		snprintf(err, errlen, "the plan did not fit: %llu unschedulable",
			 (unsigned long long)w.unschedulable);
		r = -1;
	}
	for (unsigned i = 0; i < SIM_HOST_TASKS && r == 0; i++) {
		const struct window_proc *p = stored(&w, i);

		if (p == NULL) {
			snprintf(err, errlen, "task %u: not stored", i);
			r = -1;
		} else {
			r = check_task(h, &w, p, i, checked, err, errlen);
		}
	}
	window_done(&w);
	db_close(db);
	return r;
}

void sim_host_close(struct sim_host *h)
{
	unsigned c;

	if (h->fl.workers != NULL)
		flush_done(&h->fl);
	for (c = 0; c < SIM_HOST_CPUS; c++)
		if (h->workers[c].col != NULL) {
			worker_end(&h->workers[c]);
			worker_done(&h->workers[c]);
		}
	collector_close(h->col);
	if (h->pt.proc_root != NULL)
		proctab_done(&h->pt);
	store_close(h->store);
	simpmu_free(h->sim);
	if (h->db_path[0] != '\0') {
		char p[128];

		unlink(h->db_path);
		snprintf(p, sizeof(p), "%s-wal", h->db_path);
		unlink(p);
		snprintf(p, sizeof(p), "%s-shm", h->db_path);
		unlink(p);
		snprintf(p, sizeof(p), "%s.lock", h->db_path);
		unlink(p);
		rmdir(h->dir);
	}
}
