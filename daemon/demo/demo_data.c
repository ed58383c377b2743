/*
 * demo_data.c - writes a constructed Skylake host: two detailed minutes
 * after three hours of history that retention has turned into hour and
 * minute rollups (model skl, its groups rotating one per interval), with
 * processes of known character - a frontend-bound JIT, two memory-bound
 * stream copies, a branchy parser, a dgemm - through the daemon's own
 * store code.  Counts are built from the shares wanted, so the expected
 * stacks are known: jitserver 35% frontend bound, stream 55% backend
 * bound, branchy 30% bad speculation, dgemm 70% retiring.
 *
 * The golden tests compare stackctl's answers on it byte for byte, so any
 * change here changes tests/golden/expected.  Hosts of other models
 * (struct demo_host) get the same detailed minutes from their own
 * profiles, with no history.
 */
#include "daemon/demo/demo_data.h"
#include "daemon/attribute/interval.h"
#include "daemon/store/store.h"
#include "lib/clock.h"
#include "lib/pids.h"
#include "lib/model/model.h"

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define SEC ((uint64_t)NS_PER_SEC)   /* unsigned: ns fields are uint64_t */
#define N_INTERVALS DEMO_DATA_INTERVALS
#define HISTORY_INTERVALS 1080   /* 3 h of 10 s before t0 */

struct profile {
	struct demo_proc id;
	double ipc, fe, bs, ret;    /* Top-Down level-1 shares; backend is the rest */
	double flops_per_cycle;
};

static const struct profile procs[] = {
	{ { 1001, "jitserver", "/usr/bin/jitserver --port 8080", "jit.service", 0, 0.90 },
	  0.9, 0.35, 0.08, 0.22, 0.0 },
	{ { 1002, "stream", "./stream -n 100000000", "user@4242.service", 4242, 0.60 },
	  0.5, 0.05, 0.02, 0.38, 0.4 },
	{ { 1003, "stream", "./stream -n 50000000", "user@4242.service", 4242, 0.30 },
	  0.5, 0.05, 0.02, 0.38, 0.4 },
	{ { 1004, "branchy", "python3 parse.py big.json", "batch.slice", 4242, 0.10 },
	  1.1, 0.15, 0.30, 0.30, 0.0 },
	{ { 1005, "dgemm", "./dgemm 4096", "hpc.slice", 4343, 0.05 }, 2.6, 0.05, 0.02, 0.70, 12.0 },
};
#define N_PROCS (sizeof(procs) / sizeof(procs[0]))

/* CYCLE_ACTIVITY.STALLS_TOTAL per cycle: the backend's stalls, and the
 * cycles nothing executed because the frontend stalled (i-cache and i-TLB,
 * group 5) or the allocator recovered (0.6 x bs, group 10) with no load
 * outstanding: execution stalls then too. */
static double stalls_total(const struct profile *p)
{
	return (1.0 - p->fe - p->bs - p->ret) + 0.31 * p->fe + 0.6 * p->bs;
}

/* Uops per cycle each frontend path delivers while it delivers: the DSB
 * and MITE within Skylake's 6 and 4 (the thesis measures 4 to 5.33 and
 * 1.6 to 4 for NOPs), the microcode sequencer's 4. */
#define DSB_P_ONLY 3.0
#define MITE_P_ONLY 2.5
#define MS_P_ONLY 4.0

/* v[2..] of groups 0-5 (Top-Down level 1 and the frontend's detail) for
 * a process of profile p over `cycles` cycles (`slots`, 4 a cycle). */
static void counts_topdown(const struct profile *p, unsigned g, double cycles, double slots,
			   uint64_t *v)
{
	switch (g) {
	case 0:   /* uops_issued retire_slots idq_not_delivered recovery_cycles */
		v[3] = (uint64_t)(p->ret * slots);
		v[2] = v[3] + (uint64_t)(0.5 * p->bs * slots);
		v[4] = (uint64_t)(p->fe * slots);
		v[5] = (uint64_t)(0.125 * p->bs * slots);
		break;
	case 1:   /* idq_not_delivered idq_0_uops_cycles br_misp_retired machine_clears */
		v[2] = (uint64_t)(p->fe * slots);
		v[3] = (uint64_t)(0.6 * p->fe * cycles);
		v[4] = (uint64_t)(p->bs * cycles / 25.0);
		v[5] = (uint64_t)(p->bs * cycles / 400.0);
		break;
	case 2: { /* stalls_mem_any bound_on_stores stalls_total ports_util_1 */
		double be = 1.0 - p->fe - p->bs - p->ret;

		v[2] = (uint64_t)(0.7 * be * cycles);
		v[3] = (uint64_t)(0.05 * be * cycles);
		v[4] = (uint64_t)(stalls_total(p) * cycles);
		v[5] = (uint64_t)(0.1 * cycles);
		break;
	}
	case 3:   /* ports_util_2 retire_slots macro_fused rs_empty_cycles */
		v[2] = (uint64_t)(0.1 * cycles);
		v[3] = (uint64_t)(p->ret * slots);
		v[4] = (uint64_t)(0.05 * cycles * p->ipc);
		/* the scheduler empties on a frontend stall and while the
		 * allocator recovers from a mispredict (cyc_cpi's recovery and
		 * resteer cycles, 0.6 x bs: RS-empty cycles include them) */
		v[5] = (uint64_t)((0.8 * p->fe + 0.6 * p->bs) * cycles);
		break;
	case 4:   /* dsb_uops mite_uops ms_uops dsb_cycles mite_cycles ms_cycles:
		   * a path delivering delivers at least a uop a cycle, so each
		   * path's cycles are its uops over its throughput (P_only) */
		v[2] = (uint64_t)(p->ret * slots * (p->fe > 0.3 ? 0.4 : 0.85));
		v[3] = (uint64_t)(p->ret * slots * (p->fe > 0.3 ? 0.5 : 0.12));
		v[4] = (uint64_t)(p->ret * slots * (p->fe > 0.3 ? 0.1 : 0.03));
		v[5] = (uint64_t)((double)v[2] / DSB_P_ONLY);
		v[6] = (uint64_t)((double)v[3] / MITE_P_ONLY);
		v[7] = (uint64_t)((double)v[4] / MS_P_ONLY);
		break;
	case 5:   /* mite_cycles dsb2mite_penalty_cycles icache_stall_cycles itlb_stall_cycles */
		v[2] = (uint64_t)(p->ret * slots * (p->fe > 0.3 ? 0.5 : 0.12) / MITE_P_ONLY);
		v[3] = (uint64_t)(0.1 * p->fe * cycles);
		v[4] = (uint64_t)(0.25 * p->fe * cycles);
		v[5] = (uint64_t)(0.06 * p->fe * cycles);
		break;
	}
}

/* v[2..] of groups 6-10 (FLOPs, the frontend's and the backend's finer
 * detail), the same way. */
static void counts_detail(const struct profile *p, unsigned g, double cycles, uint64_t *v)
{
	switch (g) {
	case 6:   /* fp_scalar_dp fp_scalar_sp fp_128_dp fp_128_sp: FLOPs 2%
		   * scalar, 3% 128-bit, 95% 256-bit, so dgemm's 12 FLOP a cycle
		   * take 3.27 FP_ARITH counts a cycle, within the 4 Skylake's two
		   * FMA units retire (an FMA counts two) */
		v[2] = (uint64_t)(0.02 * p->flops_per_cycle * cycles);
		v[4] = (uint64_t)(0.03 * p->flops_per_cycle * cycles / 2.0);
		break;
	case 7:   /* fp_256_dp fp_256_sp */
		v[2] = (uint64_t)(0.95 * p->flops_per_cycle * cycles / 4.0);
		break;
	case 8:   /* icache_stall_edges clear_resteer_cycles baclears idq_ms_switches lcp_cycles */
		v[2] = (uint64_t)(0.01 * p->fe * cycles);
		v[3] = (uint64_t)(0.05 * p->bs * cycles);
		v[4] = (uint64_t)(0.002 * p->fe * cycles);
		v[5] = (uint64_t)(0.005 * p->fe * cycles);
		v[6] = (uint64_t)(0.01 * p->fe * cycles);
		break;
	case 9:   /* mite_any_cycles mite_4_cycles dsb_any_cycles dsb_4_cycles (SMT off):
		   * MITE and DSB limiting 0.1 x fe of cycles each, within
		   * fetch_bandwidth's 0.4 x fe */
		v[2] = (uint64_t)(0.5 * p->fe * cycles);
		v[3] = (uint64_t)(0.3 * p->fe * cycles);
		v[4] = (uint64_t)(0.6 * p->fe * cycles);
		v[5] = (uint64_t)(0.4 * p->fe * cycles);
		break;
	case 10: { /* stalls_total stalls_mem_any stalls_l1d/l2/l3_miss divider_active
		    * recovery_cycles_thread clear_resteer_cycles: nested as the
		    * hardware's are (L3 miss <= L2 miss <= L1D miss <= any load) */
		double be = 1.0 - p->fe - p->bs - p->ret;

		v[2] = (uint64_t)(stalls_total(p) * cycles);
		v[3] = (uint64_t)(0.7 * be * cycles);
		v[4] = (uint64_t)(0.55 * be * cycles);
		v[5] = (uint64_t)(0.4 * be * cycles);
		v[6] = (uint64_t)(0.25 * be * cycles);
		v[7] = (uint64_t)(0.02 * cycles);
		v[8] = (uint64_t)(0.5 * p->bs * cycles);
		v[9] = (uint64_t)(0.1 * p->bs * cycles);
		break;
	}
	}
}

/* The counts of group g for a process running tc ns with profile p. */
static void counts(const struct profile *p, unsigned g, uint64_t tc, uint64_t *v)
{
	double cycles = (double)tc * 3.0, slots = 4.0 * cycles;

	v[0] = (uint64_t)cycles;
	v[1] = (uint64_t)(cycles * p->ipc);
	if (g <= 5)
		counts_topdown(p, g, cycles, slots, v);
	else
		counts_detail(p, g, cycles, v);
}

/* Interval i is one of the five in which one of the two CPUs sampled
 * periodically (the cost budget): jitserver and branchy (0.9 and 0.1 CPU)
 * ran on it, so their figures there are all statistical, the others' all
 * exact. */
static bool periodic_interval(unsigned i)
{
	return i >= 110 && i < 115;
}

static bool periodic_proc(unsigned i, int32_t pid)
{
	return periodic_interval(i) && (pid == 1001 || pid == 1004);
}

/* Interval i of len_s seconds on ncpus starting at start_s, with room
 * for n_procs processes and n_rows rows and none set; NULL without
 * memory. */
static struct interval_data *interval_new(unsigned i, uint64_t start_s, uint64_t len_s,
					  unsigned ncpus, size_t n_procs, size_t n_rows)
{
	struct interval_data *iv = calloc(1, sizeof(*iv));

	if (iv == NULL)
		return NULL;
	iv->start_ns = start_s * SEC;
	iv->end_ns = (start_s + len_s) * SEC;
	iv->ncpus = ncpus;
	iv->st.samples = 900;
	iv->st.max_cpu_switch_rate = 450;
	iv->st.busiest_cpu = 1;
	iv->st.lost_samples = i == 60 ? 3 : 0;
	iv->st.lost_records = i == 60 ? 1 : 0;
	iv->st.rotations = 20 * len_s;
	iv->st.backwards_reads = i == 61 ? 2 : 0;
	iv->st.unknown_id_samples = i == 62 ? 5 : 0;
	iv->st.foreign_id_samples = i == 61 ? 40 : 0;
	iv->st.bad_samples = i == 63 ? 1 : 0;
	/* Five intervals in which one CPU switched too often for the cost
	 * budget and was sampled periodically all along (statistical): the
	 * sampling mode and its share show in every reader. */
	iv->st.periodic_ns = periodic_interval(i) ? len_s * SEC : 0;
	iv->procs = calloc(n_procs, sizeof(*iv->procs));
	iv->rows = calloc(n_rows, sizeof(*iv->rows));
	if (iv->procs == NULL || iv->rows == NULL) {
		interval_free(iv);
		return NULL;
	}
	return iv;
}

/* Process k of iv is p (the k-th process of its host: its start time
 * tells them apart).  0 or -ENOMEM (iv stays whole for interval_free). */
static int put_proc(struct interval_data *iv, size_t k, const struct demo_proc *p)
{
	iv->procs[k] = (struct iv_proc){ .pid = p->pid, .start_ns = 1000 * SEC + k, .uid = p->uid,
					 .cmdline = strdup(p->cmdline), .unit = strdup(p->unit) };
	iv->n_procs = k + 1;   /* interval_free frees what was set */
	if (iv->procs[k].cmdline == NULL || iv->procs[k].unit == NULL)
		return -ENOMEM;
	snprintf(iv->procs[k].comm, sizeof(iv->procs[k].comm), "%s", p->comm);
	return 0;
}

/* Skylake interval i: one group per interval, the groups rotating over
 * intervals.  NULL without memory. */
static struct interval_data *make_interval(unsigned i, uint64_t start_s, uint64_t len_s,
					   unsigned ncpus)
{
	struct interval_data *iv = interval_new(i, start_s, len_s, ncpus, N_PROCS, N_PROCS);
	unsigned g = i % model_skl.n_groups, k;

	if (iv == NULL)
		return NULL;
	iv->n_groups = model_skl.n_groups;
	iv->enabled_ns[g] = ncpus * len_s * SEC;
	for (k = 0; k < N_PROCS; k++) {
		const struct profile *p = &procs[k];
		/* stream ramps up in the second minute: history has a shape */
		double share = p->id.cpu * (p->id.pid == 1002 && i >= 60 ? 1.5 : 1.0);
		uint64_t tc = (uint64_t)(share * (double)(len_s * SEC));

		if (put_proc(iv, k, &p->id) < 0) {
			interval_free(iv);
			return NULL;
		}
		iv->rows[k] = (struct iv_row){ .proc = k, .group = (uint16_t)g, .task_clock_ns = tc,
					       .context_switches = 100 + k };
		if (periodic_proc(i, p->id.pid))
			iv->rows[k].periodic_ns = tc;
		counts(p, g, tc, iv->rows[k].v);
	}
	iv->n_rows = N_PROCS;
	return iv;
}

struct interval_data *demo_data_replay(unsigned i, uint64_t start_s, unsigned ncpus)
{
	unsigned ng = model_skl.n_groups, j = i % N_INTERVALS, g;
	struct interval_data *iv = interval_new(j, start_s, 1, ncpus, N_PROCS, N_PROCS * ng);
	size_t k;

	if (iv == NULL)
		return NULL;
	iv->n_groups = ng;
	for (g = 0; g < ng; g++)
		iv->enabled_ns[g] = ncpus * SEC / ng;
	for (k = 0; k < N_PROCS; k++) {
		const struct profile *p = &procs[k];
		double share = p->id.cpu * (p->id.pid == 1002 && j >= 60 ? 1.5 : 1.0);
		uint64_t tc = (uint64_t)(share * (double)SEC) / ng;

		if (put_proc(iv, k, &p->id) < 0) {
			interval_free(iv);
			return NULL;
		}
		for (g = 0; g < ng; g++) {
			struct iv_row *row = &iv->rows[iv->n_rows++];

			*row = (struct iv_row){ .proc = (uint32_t)k, .group = (uint16_t)g,
						.task_clock_ns = tc,
						.context_switches = (100 + k) / ng + (g == 0) };
			if (periodic_proc(j, p->id.pid))
				row->periodic_ns = tc;
			counts(p, g, tc, row->v);
		}
	}
	return iv;
}

/* Detailed interval i (1 s from start_s) of host h: every group of every
 * process, each group counting an equal part of the process's time.
 * NULL without memory. */
static struct interval_data *make_host_interval(const struct demo_host *h, unsigned i,
						uint64_t start_s, unsigned ncpus)
{
	unsigned ng = h->model->n_groups, g;
	struct interval_data *iv = interval_new(i, start_s, 1, ncpus, h->n_procs,
						h->n_procs * ng);
	size_t k;

	if (iv == NULL)
		return NULL;
	iv->n_groups = ng;
	for (g = 0; g < ng; g++)
		iv->enabled_ns[g] = ncpus * SEC / ng;
	for (k = 0; k < h->n_procs; k++) {
		uint64_t tc = (uint64_t)(h->procs[k].cpu * (double)SEC) / ng;

		if (put_proc(iv, k, &h->procs[k]) < 0) {
			interval_free(iv);
			return NULL;
		}
		for (g = 0; g < ng; g++) {
			struct iv_row *row = &iv->rows[iv->n_rows++];

			*row = (struct iv_row){ .proc = (uint32_t)k, .group = (uint16_t)g,
						.task_clock_ns = tc, .context_switches = 30 + k };
			/* its first process ran on the periodic CPU */
			if (k == 0 && periodic_interval(i))
				row->periodic_ns = tc;
			h->counts(k, g, i, tc, row->v);
		}
	}
	return iv;
}

/* Five seconds of the detailed minutes in which stackd could not charge
 * 0.3 CPU-s a second (and 40 switches) to anyone: the attributed share
 * there is low, and every reader must say so.  0 or -ENOMEM. */
static int add_unattributed(struct interval_data *iv, unsigned i)
{
	struct iv_proc *more_procs;
	struct iv_row *rows;

	if (i < 100 || i >= 105)
		return 0;
	more_procs = realloc(iv->procs, (iv->n_procs + 1) * sizeof(*more_procs));
	if (more_procs == NULL)
		return -ENOMEM;
	iv->procs = more_procs;
	rows = realloc(iv->rows, (iv->n_rows + 1) * sizeof(*rows));
	if (rows == NULL)
		return -ENOMEM;
	iv->rows = rows;
	iv->procs[iv->n_procs] = (struct iv_proc){ .pid = PID_UNATTRIBUTED, .uid = -1 };
	snprintf(iv->procs[iv->n_procs].comm, sizeof(iv->procs[0].comm), "%s",
		 PID_UNATTRIBUTED_COMM);
	iv->rows[iv->n_rows] = (struct iv_row){ .proc = (uint32_t)iv->n_procs,
						.group = iv->rows[0].group,
						.task_clock_ns = 3 * SEC / 10,
						.context_switches = 40 };
	iv->n_procs++;
	iv->n_rows++;
	return 0;
}

/* Write interval i (without branchy's row when drop_branchy; the
 * unattributed seconds when detailed); frees it.  0 or -errno with err. */
static int write_one(struct store *s, const struct demo_data_spec *spec, unsigned i,
		     uint64_t start_s, uint64_t len_s, bool drop_branchy, bool detailed, char *err,
		     size_t errlen)
{
	struct interval_data *iv = make_interval(i, start_s, len_s, spec->ncpus);
	int r = iv == NULL ? -ENOMEM : 0;

	if (r == 0 && detailed)
		r = add_unattributed(iv, i);
	if (r == 0 && drop_branchy) {   /* dgemm (the last) moves over branchy */
		free(iv->procs[3].cmdline);
		free(iv->procs[3].unit);
		iv->procs[3] = iv->procs[4];
		iv->rows[3] = iv->rows[4];
		iv->rows[3].proc = 3;
		iv->n_procs = iv->n_rows = N_PROCS - 1;
	}
	if (r == -ENOMEM)
		snprintf(err, errlen, "out of memory");
	else
		r = store_write_intervals(s, iv, err, errlen);
	interval_free(iv);
	return r;
}

/* As the daemon would have: rolled up, raw kept 1 h and minutes 2 h, so
 * the history is read from hours, then minutes, then raw. */
static int roll_up(struct store *s, uint64_t t0_s, char *err, size_t errlen)
{
	struct store_retention ret = {
		.now_ns = (t0_s + N_INTERVALS) * SEC,
		.keep_ns = { 3600 * SEC, 7200 * SEC, 400ULL * 86400 * SEC },
		.max_intervals = 1000,
	};
	bool more = true;
	int r = 0;

	while (more && r >= 0)
		r = store_rollup(s, 1000, UINT64_MAX / 2, &more, err, errlen);
	while (r >= 0 && (r = store_prune(s, &ret, err, errlen)) > 0)
		;
	return r < 0 ? r : 0;
}

/* The regression CPI stack's fit, as the daemon makes it at the end of
 * the data (nothing for a model without one). */
static int fit_cpi_stack(struct store *s, uint64_t t0_s, char *err, size_t errlen)
{
	struct store_cpifit_result res;
	int r = store_cpifit(s, (t0_s + N_INTERVALS) * SEC, 3600 * SEC, &res, err, errlen);

	return r < 0 ? r : 0;
}

/* The Skylake host: history, detailed minutes, rollups.  0 or -errno
 * with err. */
static int write_skylake(struct store *s, const struct demo_data_spec *spec, char *err,
			 size_t errlen)
{
	uint64_t t0 = spec->t0_s;
	unsigned i;
	int r = 0;

	/* History: the three hours before, in 10 s intervals (branchy runs
	 * in the first hour only)... */
	for (i = 0; r == 0 && i < HISTORY_INTERVALS; i++)
		r = write_one(s, spec, i, t0 - 10 * HISTORY_INTERVALS + 10 * i, 10, i >= 360, false,
			      err, errlen);
	/* ...then the two detailed minutes, 1 s each. */
	for (i = 0; r == 0 && i < N_INTERVALS; i++)
		r = write_one(s, spec, i, t0 + i, 1, false, true, err, errlen);
	if (r == 0)
		r = roll_up(s, t0, err, errlen);
	return r;
}

/* Another model's host: the detailed minutes only.  0 or -errno with err. */
static int write_host(struct store *s, const struct demo_data_spec *spec, char *err,
		      size_t errlen)
{
	unsigned i;
	int r = 0;

	for (i = 0; r == 0 && i < N_INTERVALS; i++) {
		struct interval_data *iv = make_host_interval(spec->host, i, spec->t0_s + i,
							      spec->ncpus);

		if (iv == NULL) {
			snprintf(err, errlen, "out of memory");
			return -ENOMEM;
		}
		r = store_write_intervals(s, iv, err, errlen);
		interval_free(iv);
	}
	return r;
}

int demo_data_write(const char *path, const struct demo_data_spec *spec, char *err,
		    size_t errlen)
{
	const struct model *m = spec->host != NULL ? spec->host->model : &model_skl;
	struct store *s = NULL;
	int r;

	r = store_open(path, &s, err, errlen);
	if (r == 0)
		r = store_register(s, m, NULL, spec->boot_id, spec->t0_s * SEC - 3600 * SEC, err,
				   errlen);
	if (r == 0)
		r = store_set_meta(s, spec->meta, spec->n_meta, err, errlen);
	if (r == 0)
		r = spec->host != NULL ? write_host(s, spec, err, errlen)
				       : write_skylake(s, spec, err, errlen);
	if (r == 0)
		r = fit_cpi_stack(s, spec->t0_s, err, errlen);
	store_close(s);
	return r;
}
