/*
 * The simulated PMU (tests/sim) keeps the kernel's rules, so tests built on
 * it prove something about real hosts:
 *  - its records parse with perf_record.c through ring.c, with the counts
 *    the script says (per task, switch to switch), and its side-band
 *    records (COMM with exec, FORK, EXIT) carry the sample_id trailer;
 *  - Skylake with SMT on: the NMI watchdog holds fixed counter 1, so a
 *    group's cycles needs a general counter; a group that does not fit goes
 *    to ERROR and reads 0 bytes; one that fits counts; a running group keeps
 *    its counters when another user arrives, and loses them at its next
 *    enable while that user holds them; AMD's watchdog takes a general one;
 *  - per-event counter constraints (the kernel's tables, which perf's JSON
 *    agrees with here) are honoured (validation at open, ERROR at enable,
 *    the kernel's reassignment that moves the other user aside);
 *  - perf metrics need slots as leader, and their counts are slots x
 *    (8-bit fraction / 255), the fractions reset on every read;
 *  - 48-bit counters wrap without losing counts, and counts pass 2^48;
 *  - two of our groups enabled at once on one CPU is recorded (and aborts
 *    in abort mode); disable-before-enable is not.
 */
#include "daemon/collect/event_encode.h"
#include "daemon/collect/perf_record.h"
#include "daemon/collect/ring.h"
#include "test.h"
#include "tests/sim/simpmu.h"

#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define RING_PAGES 2

static struct simpmu *sim_new(const char *pmu, bool smt_on, bool watchdog, uint64_t start)
{
	struct simpmu_params p = { pmu, 2, smt_on, watchdog, start, false };
	struct simpmu *sim = NULL;

	CHECK(simpmu_new(&p, &sim) == 0);
	return sim;
}

/* The attr the collector gives every event (daemon/collect/collector.c, base_attr). */
static void base_attr(struct perf_event_attr *a)
{
	memset(a, 0, sizeof(*a));
	a->size = sizeof(*a);
	a->sample_type = STACKD_SAMPLE_TYPE;
	a->read_format = STACKD_READ_FORMAT;
	a->sample_id_all = 1;
	a->use_clockid = 1;
	a->clockid = CLOCK_MONOTONIC;
}

static int open_event(const struct kernel_ops *ops, const char *name, int cpu, int group_fd)
{
	struct perf_event_attr a;

	base_attr(&a);
	if (strcmp(name, "context-switches") == 0) {
		a.type = PERF_TYPE_SOFTWARE;
		a.config = PERF_COUNT_SW_CONTEXT_SWITCHES;
		a.sample_period = 1;
	} else {
		CHECK(simpmu_encode(ops->ctx, name, &a) == 0);
	}
	a.disabled = group_fd == -1;
	a.pinned = group_fd == -1;
	return ops->perf_open(ops->ctx, &a, -1, cpu, group_fd);
}

/* A group as the collector opens it: events in order, the first leading. */
static int open_group(const struct kernel_ops *ops, int cpu, const char *const *names,
		      int *fds)
{
	int i, leader = -1;

	for (i = 0; names[i] != NULL; i++) {
		fds[i] = open_event(ops, names[i], cpu, leader);
		if (fds[i] < 0)
			return fds[i];
		if (i == 0)
			leader = fds[i];
	}
	return i;
}

static void *open_side_band(const struct kernel_ops *ops, int cpu, int *fd, int *err)
{
	struct perf_event_attr a;
	size_t len = (1 + RING_PAGES) * (size_t)sysconf(_SC_PAGESIZE);
	void *map;

	base_attr(&a);
	a.type = PERF_TYPE_SOFTWARE;
	a.config = PERF_COUNT_SW_DUMMY;
	a.comm = a.comm_exec = a.task = 1;
	*fd = ops->perf_open(ops->ctx, &a, -1, cpu, -1);
	CHECK(*fd >= 0);
	map = ops->mmap_ring(ops->ctx, *fd, len, err);
	CHECK(map != NULL);
	return map;
}

static uint64_t read_one(const struct kernel_ops *ops, int fd, unsigned idx)
{
	uint64_t buf[16];
	ssize_t n = ops->read(ops->ctx, fd, buf, sizeof(buf));

	CHECK(n >= 16 && (size_t)n == (1 + buf[0]) * 8 && idx < buf[0]);
	return buf[1 + idx];
}

static enum simpmu_state state_of(struct simpmu *sim, int fd)
{
	enum simpmu_state st;

	CHECK(simpmu_group_state(sim, fd, &st) == 0);
	return st;
}

static uint64_t truth(const struct simpmu_task *t, const char *ev)
{
	uint64_t v = 0;

	CHECK(simpmu_truth(t, ev, &v) == 0);
	return v;
}

/* Samples, COMM, FORK and EXIT from the ring, through ring.c and
 * perf_record.c; the counts between two samples are the task's own. */
static void check_records(void)
{
	static const char *const names[] = {
		"CPU_CLK_UNHALTED:THREAD_P", "INST_RETIRED:ANY_P", "context-switches", NULL,
	};
	struct simpmu *sim = sim_new("skl", false, false, 0);
	struct kernel_ops ops = simpmu_ops(sim);
	struct simpmu_task *a, *b, *idle = simpmu_task_idle(sim);
	const struct perf_event_header *h;
	uint64_t sampler_id, side_id, prev[3] = { 0, 0, 0 };
	uint64_t got_cyc[2] = { 0, 0 }, got_ins[2] = { 0, 0 }, got_ns[2] = { 0, 0 };
	uint64_t last_t = simpmu_now(sim);
	unsigned n_samples = 0, n_comm = 0, n_fork = 0, n_exit = 0, round;
	struct ring ring;
	int fds[4], side, err = 0;
	void *map = open_side_band(&ops, 0, &side, &err);

	CHECK(open_group(&ops, 0, names, fds) == 3);
	CHECK(ops.ioctl(ops.ctx, fds[2], PERF_EVENT_IOC_SET_OUTPUT, (unsigned long)side) == 0);
	CHECK(ops.ioctl(ops.ctx, fds[2], PERF_EVENT_IOC_ID, (unsigned long)&sampler_id) == 0);
	CHECK(ops.ioctl(ops.ctx, side, PERF_EVENT_IOC_ID, (unsigned long)&side_id) == 0);
	CHECK(ops.ioctl(ops.ctx, fds[0], PERF_EVENT_IOC_ENABLE, 0) == 0);
	CHECK(state_of(sim, fds[0]) == SIMPMU_ACTIVE);

	a = simpmu_task_new(sim, 100, 100, "bash", 2.0);
	b = simpmu_task_new(sim, 200, 201, "worker", 1.5);
	CHECK(simpmu_rate_for(sim, a, "INST_RETIRED:ANY_P", 0.5) == 0);
	CHECK(simpmu_rate_for(sim, b, "r00c0", 3.0) == 0);   /* the same event, raw */
	simpmu_fork(sim, 0, idle, a);
	simpmu_exec(sim, 0, a, "alpha-long-name!");
	CHECK(ring_attach(&ring, map, (size_t)sysconf(_SC_PAGESIZE), 0) == 0);
	/* Enough rounds to wrap the 8 KiB ring several times, drained as we go. */
	for (round = 0; round < 300; round++) {
		simpmu_run(sim, 0, a, 1000 + round);
		simpmu_run(sim, 0, b, 3001);
		simpmu_run(sim, 0, idle, 77);
		while ((h = ring_peek(&ring)) != NULL) {
			struct rec_sample s;
			struct rec_comm c;
			struct rec_task tk;
			int who;

			switch (h->type) {
			case PERF_RECORD_SAMPLE:
				CHECK(perf_record_parse_sample(h, &s) == 0);
				CHECK(s.id == sampler_id && s.nr == 3 && s.time >= last_t);
				who = s.pid == 100 ? 0 : s.pid == 200 ? 1 : -1;
				CHECK(s.values[2] == prev[2] + 1);
				if (who >= 0) {
					got_cyc[who] += s.values[0] - prev[0];
					got_ins[who] += s.values[1] - prev[1];
					got_ns[who] += s.time - last_t;
				} else {
					CHECK(s.pid == 0 && s.values[0] == prev[0]);
				}
				CHECK(who != 1 || s.tid == 201);
				memcpy(prev, s.values, sizeof(prev));
				last_t = s.time;
				n_samples++;
				break;
			case PERF_RECORD_COMM:
				CHECK(perf_record_parse_comm(h, &c) == 0);
				CHECK(c.pid == 100 && c.exec && perf_record_id(h) == side_id);
				CHECK_STR(c.comm, "alpha-long-name");   /* TASK_COMM_LEN 16 */
				n_comm++;
				break;
			case PERF_RECORD_FORK:
			case PERF_RECORD_EXIT:
				CHECK(perf_record_parse_task(h, &tk) == 0);
				CHECK(tk.pid == 100 && perf_record_id(h) == side_id);
				CHECK(tk.time == perf_record_time(h));
				if (h->type == PERF_RECORD_FORK)
					n_fork++;
				else
					n_exit++;
				break;
			default:
				CHECK(0);
			}
			ring_consume(&ring, h);
		}
		ring_publish(&ring);
	}
	simpmu_exit(sim, 0, a);
	CHECK((h = ring_peek(&ring)) != NULL && h->type == PERF_RECORD_EXIT);
	CHECK(perf_record_parse_task(h, &(struct rec_task){ 0 }) == 0 && ++n_exit == 1);
	CHECK(n_samples == 900 && n_comm == 1 && n_fork == 1);
	CHECK(ring.skipped_bytes == 0 && simpmu_lost(sim, 0) == 0);
	CHECK_EQ_U(got_cyc[0], truth(a, "CPU_CLK_UNHALTED:THREAD_P"));
	CHECK_EQ_U(got_ins[0], truth(a, "INST_RETIRED:ANY_P"));
	CHECK_EQ_U(got_cyc[1], truth(b, "r3c"));
	CHECK_EQ_U(got_ins[1], truth(b, "INST_RETIRED:ANY_P"));
	CHECK_EQ_U(got_ns[0], simpmu_truth_ns(a));
	CHECK_EQ_U(got_ns[1], simpmu_truth_ns(b));
	CHECK(got_ins[1] == 3 * got_cyc[1] && got_cyc[1] == (uint64_t)(1.5 * 3001 * 300));
	ring_unmap(&ring);   /* ring_attach'ed: frees the scratch only */
	ops.munmap_ring(ops.ctx, map, (1 + RING_PAGES) * (size_t)sysconf(_SC_PAGESIZE));
	simpmu_free(sim);
}

/* Skylake, SMT on: 4 general counters per thread, the watchdog on fixed 1. */
static void check_watchdog_and_other_user(void)
{
	static const char *const with_cycles[] = {
		"UOPS_ISSUED:ANY", "UOPS_RETIRED:RETIRE_SLOTS", "IDQ_UOPS_NOT_DELIVERED:CORE",
		"INT_MISC:RECOVERY_CYCLES", "CPU_CLK_UNHALTED:THREAD_P", "context-switches", NULL,
	};
	static const char *const four_gp[] = {
		"context-switches", "UOPS_ISSUED:ANY", "UOPS_RETIRED:RETIRE_SLOTS",
		"IDQ_UOPS_NOT_DELIVERED:CORE", "INT_MISC:RECOVERY_CYCLES", NULL,
	};
	static const char *const fits[] = {
		"UOPS_ISSUED:ANY", "UOPS_RETIRED:RETIRE_SLOTS", "IDQ_UOPS_NOT_DELIVERED:CORE",
		"CPU_CLK_UNHALTED:THREAD_P", "INST_RETIRED:ANY_P", "context-switches", NULL,
	};
	struct simpmu *sim = sim_new("skl", true, true, 0);
	struct kernel_ops ops = simpmu_ops(sim);
	struct simpmu_task *t = simpmu_task_new(sim, 300, 300, "spin", 1.0);
	uint64_t buf[16], en, run;
	int g1[8], g2[8], g3[8];

	CHECK(simpmu_gp_counters(sim) == 4 && simpmu_fixed_counters(sim) == 3);
	/* 4 general events + cycles: it opens (an empty PMU has fixed 1) but
	 * cannot run beside the watchdog. */
	CHECK(open_group(&ops, 0, with_cycles, g1) == 6);
	CHECK(ops.ioctl(ops.ctx, g1[0], PERF_EVENT_IOC_ENABLE, 0) == 0);
	CHECK(state_of(sim, g1[0]) == SIMPMU_ERROR);
	CHECK(ops.read(ops.ctx, g1[0], buf, sizeof(buf)) == 0);
	simpmu_run(sim, 0, t, 1000);
	CHECK(simpmu_times(sim, g1[0], &en, &run) == 0 && en == 0 && run == 0);
	CHECK(ops.ioctl(ops.ctx, g1[0], PERF_EVENT_IOC_DISABLE, 0) == 0);

	/* 3 general + cycles on the 4th + instructions on fixed 0: runs. */
	CHECK(open_group(&ops, 0, fits, g2) == 6);
	CHECK(ops.ioctl(ops.ctx, g2[0], PERF_EVENT_IOC_ENABLE, 0) == 0);
	CHECK(state_of(sim, g2[0]) == SIMPMU_ACTIVE);
	simpmu_run(sim, 0, t, 2000);
	CHECK(read_one(&ops, g2[0], 3) == 2000);
	/* Another user arrives: the running group keeps its counters... */
	CHECK(simpmu_reserve(sim, 0, 1) == 0);
	CHECK(!simpmu_reserved_held(sim, 0) && state_of(sim, g2[0]) == SIMPMU_ACTIVE);
	simpmu_run(sim, 0, t, 500);
	CHECK(read_one(&ops, g2[0], 3) == 2500);
	/* ...until it is disabled; at its next enable the user holds them. */
	CHECK(ops.ioctl(ops.ctx, g2[0], PERF_EVENT_IOC_DISABLE, 0) == 0);
	CHECK(simpmu_reserved_held(sim, 0));
	CHECK(ops.ioctl(ops.ctx, g2[0], PERF_EVENT_IOC_ENABLE, 0) == 0);
	CHECK(state_of(sim, g2[0]) == SIMPMU_ERROR);
	CHECK(ops.read(ops.ctx, g2[0], buf, sizeof(buf)) == 0);
	simpmu_run(sim, 0, t, 700);
	CHECK(simpmu_times(sim, g2[0], &en, &run) == 0 && en == 2500 && run == 2500);
	/* The user leaves: re-enabled, the group counts again, from where it was. */
	CHECK(simpmu_reserve(sim, 0, 0) == 0);
	CHECK(state_of(sim, g2[0]) == SIMPMU_ERROR);   /* ERROR until enabled again */
	CHECK(ops.ioctl(ops.ctx, g2[0], PERF_EVENT_IOC_ENABLE, 0) == 0);
	CHECK(state_of(sim, g2[0]) == SIMPMU_ACTIVE);
	simpmu_run(sim, 0, t, 300);
	CHECK(read_one(&ops, g2[0], 3) == 2800);
	CHECK(simpmu_times(sim, g2[0], &en, &run) == 0 && en == 2800 && run == 2800);
	CHECK(ops.ioctl(ops.ctx, g2[0], PERF_EVENT_IOC_DISABLE, 0) == 0);

	/* 4 general events, no cycles: fits beside the watchdog, not beside
	 * the watchdog and one counter held by another user. */
	CHECK(open_group(&ops, 0, four_gp, g3) == 5);
	CHECK(ops.ioctl(ops.ctx, g3[0], PERF_EVENT_IOC_ENABLE, 0) == 0);
	CHECK(state_of(sim, g3[0]) == SIMPMU_ACTIVE);
	CHECK(ops.ioctl(ops.ctx, g3[0], PERF_EVENT_IOC_DISABLE, 0) == 0);
	CHECK(simpmu_reserve(sim, 0, 1) == 0 && simpmu_reserved_held(sim, 0));
	CHECK(ops.ioctl(ops.ctx, g3[0], PERF_EVENT_IOC_ENABLE, 0) == 0);
	CHECK(state_of(sim, g3[0]) == SIMPMU_ERROR);
	/* the other CPU is untouched */
	CHECK(!simpmu_reserved_held(sim, 1));
	CHECK(simpmu_violations(sim) == 0);
	simpmu_free(sim);
}

/* AMD Zen 4: 6 general counters, the watchdog takes one of them. */
static void check_amd_watchdog(void)
{
	static const char *const six[] = { "r76", "rc0", "rc1", "rc2", "rc3", "ra9", NULL };
	static const char *const five[] = { "r76", "rc0", "rc1", "rc2", "rc3", NULL };
	int i, pass;

	for (pass = 0; pass < 2; pass++) {
		struct simpmu *sim = sim_new("amd64_fam19h_zen4", true, pass == 1, 0);
		struct kernel_ops ops = simpmu_ops(sim);
		int g6[8], g5[8];

		CHECK(open_group(&ops, 1, six, g6) == 6);
		CHECK(open_group(&ops, 1, five, g5) == 5);
		CHECK(ops.ioctl(ops.ctx, g6[0], PERF_EVENT_IOC_ENABLE, 0) == 0);
		CHECK(state_of(sim, g6[0]) == (pass == 1 ? SIMPMU_ERROR : SIMPMU_ACTIVE));
		CHECK(ops.ioctl(ops.ctx, g6[0], PERF_EVENT_IOC_DISABLE, 0) == 0);
		CHECK(ops.ioctl(ops.ctx, g5[0], PERF_EVENT_IOC_ENABLE, 0) == 0);
		CHECK(state_of(sim, g5[0]) == SIMPMU_ACTIVE);
		for (i = 0; i < 6; i++)
			ops.close(ops.ctx, g6[i]);
		for (i = 0; i < 5; i++)
			ops.close(ops.ctx, g5[i]);
		simpmu_free(sim);
	}
}

/* Skylake INST_RETIRED.PREC_DIST (r1c0) runs on general counter 1 only
 * (skylake/pipeline.json "Counter": "1"; the kernel's
 * INTEL_UEVENT_CONSTRAINT(0x1c0, 0x2)). */
static void check_counter_masks(void)
{
	static const char *const two_on_1[] = { "r1c0", "r1c0", NULL };
	static const char *const one_on_1[] = { "r1c0", "context-switches", NULL };
	struct simpmu *sim = sim_new("skl", true, false, 0);
	struct kernel_ops ops = simpmu_ops(sim);
	int g[4];

	/* Two events that both need counter 1 cannot be one group. */
	CHECK(open_group(&ops, 0, two_on_1, g) == -EINVAL);
	ops.close(ops.ctx, g[0]);
	CHECK(open_group(&ops, 0, one_on_1, g) == 2);
	/* Another user on counter 1: ERROR, though three counters are free. */
	CHECK(simpmu_reserve_mask(sim, 0, 0x2) == 0 && simpmu_reserved_held(sim, 0));
	CHECK(ops.ioctl(ops.ctx, g[0], PERF_EVENT_IOC_ENABLE, 0) == 0);
	CHECK(state_of(sim, g[0]) == SIMPMU_ERROR);
	CHECK(ops.ioctl(ops.ctx, g[0], PERF_EVENT_IOC_DISABLE, 0) == 0);
	/* Another user on any three counters: it is given 0, 2 and 3. */
	CHECK(simpmu_reserve(sim, 0, 3) == 0 && simpmu_reserved_held(sim, 0));
	CHECK(ops.ioctl(ops.ctx, g[0], PERF_EVENT_IOC_ENABLE, 0) == 0);
	CHECK(state_of(sim, g[0]) == SIMPMU_ACTIVE);
	simpmu_free(sim);
}

/* slots x fraction / 0xff, the fraction truncated to 8 bits
 * (icl_get_metrics_event_value). */
static uint64_t metric_of(uint64_t slots, uint64_t class_slots)
{
	return slots * ((class_slots * 255 + slots / 2) / slots) / 255;   /* nearest 1/255 */
}

static void check_perf_metrics(void)
{
	static const char *const td[] = {
		"cpu/slots/", "cpu/topdown-retiring/", "cpu/topdown-fe-bound/",
		"context-switches", NULL,
	};
	static const char *const bad[] = { "CPU_CLK_UNHALTED:THREAD_P", "cpu/topdown-retiring/", NULL };
	struct simpmu *sim = sim_new("icl", true, true, 0);
	struct kernel_ops ops = simpmu_ops(sim);
	struct simpmu_task *t = simpmu_task_new(sim, 400, 400, "td", 1.0);
	struct perf_event_attr a;
	int g[8];

	CHECK(simpmu_fixed_counters(sim) == 4);
	CHECK(open_group(&ops, 0, bad, g) == -EINVAL);       /* leader not slots */
	ops.close(ops.ctx, g[0]);
	CHECK(open_event(&ops, "cpu/topdown-retiring/", 0, -1) == -EINVAL);   /* leads */
	base_attr(&a);
	CHECK(simpmu_encode(sim, "cpu/slots/", &a) == 0);
	a.disabled = a.pinned = 1;
	g[0] = ops.perf_open(ops.ctx, &a, -1, 0, -1);
	CHECK(g[0] >= 0);
	CHECK(simpmu_encode(sim, "cpu/topdown-be-bound/", &a) == 0);
	a.disabled = a.pinned = 0;
	a.sample_period = 1000;                              /* metrics do not sample */
	CHECK(ops.perf_open(ops.ctx, &a, -1, 0, g[0]) == -EINVAL);
	ops.close(ops.ctx, g[0]);

	CHECK(simpmu_rate_for(sim, t, "cpu/slots/", 4.0) == 0);
	CHECK(simpmu_rate_for(sim, t, "cpu/topdown-retiring/", 1.0) == 0);    /* 25 % */
	CHECK(simpmu_rate_for(sim, t, "cpu/topdown-fe-bound/", 1.3) == 0);    /* 32.5 % */
	CHECK(open_group(&ops, 0, td, g) == 4);
	CHECK(ops.ioctl(ops.ctx, g[0], PERF_EVENT_IOC_ENABLE, 0) == 0);
	CHECK(state_of(sim, g[0]) == SIMPMU_ACTIVE);
	simpmu_run(sim, 0, t, 1000);
	CHECK_EQ_U(read_one(&ops, g[0], 0), 4000);
	CHECK_EQ_U(read_one(&ops, g[0], 1), metric_of(4000, 1000));
	CHECK(read_one(&ops, g[0], 1) != 1000);              /* 8 bits move it */
	/* The fractions were reset by that read: the next read adds the same. */
	simpmu_run(sim, 0, t, 1000);
	CHECK_EQ_U(read_one(&ops, g[0], 1), 2 * metric_of(4000, 1000));
	CHECK_EQ_U(read_one(&ops, g[0], 2), 2 * metric_of(4000, 1300));
	CHECK_EQ_U(read_one(&ops, g[0], 0), 8000);
	CHECK_EQ_U(truth(t, "cpu/topdown-retiring/"), 2000);
	simpmu_free(sim);
}

/* 48-bit counters: a start just below the wrap, then past 2^48 in all. */
static void check_wrap(void)
{
	static const char *const cyc[] = { "CPU_CLK_UNHALTED:THREAD_P", NULL };
	const uint64_t start = (1ULL << 48) - 1000;
	struct simpmu *sim = sim_new("skl", false, false, start);
	struct kernel_ops ops = simpmu_ops(sim);
	struct simpmu_task *slow = simpmu_task_new(sim, 500, 500, "slow", 1.0);
	struct simpmu_task *fast = simpmu_task_new(sim, 501, 501, "fast", 1024.0);
	int g[2];

	CHECK(open_group(&ops, 0, cyc, g) == 1);
	CHECK(ops.ioctl(ops.ctx, g[0], PERF_EVENT_IOC_ENABLE, 0) == 0);
	simpmu_run(sim, 0, slow, 5000);
	CHECK_EQ_U(read_one(&ops, g[0], 0), 5000);
	simpmu_run(sim, 0, fast, 1ULL << 40);
	CHECK_EQ_U(read_one(&ops, g[0], 0), 5000 + (1ULL << 50));
	CHECK_EQ_U(truth(fast, "r3c"), 1ULL << 50);
	simpmu_free(sim);
}

static void check_two_enabled(void)
{
	static const char *const grp[] = { "context-switches", "r3c", NULL };
	struct simpmu *sim = sim_new("skl", false, false, 0);
	struct kernel_ops ops = simpmu_ops(sim);
	int a[2], b[2], c[2], status;
	pid_t pid;

	CHECK(open_group(&ops, 0, grp, a) == 2 && open_group(&ops, 0, grp, b) == 2);
	CHECK(open_group(&ops, 1, grp, c) == 2);
	CHECK(ops.ioctl(ops.ctx, a[0], PERF_EVENT_IOC_ENABLE, 0) == 0);
	CHECK(ops.ioctl(ops.ctx, c[0], PERF_EVENT_IOC_ENABLE, 0) == 0);   /* other CPU */
	CHECK(ops.ioctl(ops.ctx, a[0], PERF_EVENT_IOC_DISABLE, 0) == 0);
	CHECK(ops.ioctl(ops.ctx, b[0], PERF_EVENT_IOC_ENABLE, 0) == 0);
	CHECK(simpmu_violations(sim) == 0 && simpmu_violation_text(sim)[0] == '\0');
	CHECK(ops.ioctl(ops.ctx, a[0], PERF_EVENT_IOC_ENABLE, 0) == 0);
	CHECK(simpmu_violations(sim) == 1);
	CHECK(strstr(simpmu_violation_text(sim), "disable before enable") != NULL);
	simpmu_free(sim);

	pid = fork();
	CHECK(pid >= 0);
	if (pid == 0) {
		struct simpmu_params p = { "skl", 1, false, false, 0, true };

		CHECK(simpmu_new(&p, &sim) == 0);
		ops = simpmu_ops(sim);
		CHECK(open_group(&ops, 0, grp, a) == 2 && open_group(&ops, 0, grp, b) == 2);
		CHECK(ops.ioctl(ops.ctx, a[0], PERF_EVENT_IOC_ENABLE, 0) == 0);
		(void)ops.ioctl(ops.ctx, b[0], PERF_EVENT_IOC_ENABLE, 0);
		_exit(0);
	}
	CHECK(waitpid(pid, &status, 0) == pid);
	CHECK(WIFSIGNALED(status) && WTERMSIG(status) == SIGABRT);
}

int main(void)
{
	/* libpfm4 encodes for the Skylake tables whatever this host is. */
	CHECK(setenv("LIBPFM_FORCE_PMU", "skl", 1) == 0);
	check_records();
	check_watchdog_and_other_user();
	check_amd_watchdog();
	check_counter_masks();
	check_perf_metrics();
	check_wrap();
	check_two_enabled();
	printf("simpmu: records, watchdog, masks, perf metrics, wrap, rules ok\n");
	return 0;
}
