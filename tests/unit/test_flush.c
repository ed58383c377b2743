/* The main thread's flush on hand-made handovers from two CPUs: side-band
 * records merged in time order, entries charged to the right generation of
 * a reused pid, a span across the reuse left unattributed (and split when
 * the exit came from another CPU's worker's log), a dying task's last
 * switch after its exit kept apart from the pid's next process (the cut at
 * the exit: cpuacc.h), a re-plan's extra handovers (its side-band records
 * during the switch, the gap's time), sums and stats;
 * every health field combined as lib/health_fields.h says. */
#include "daemon/collect/flush.h"
#include "test.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define MS 1000000ULL

static void add_life(struct handover *h, uint8_t type, int32_t pid, int32_t ppid, uint64_t t,
		     const char *comm, bool exec)
{
	struct life_rec *lr;

	if (h->n_life == h->cap_life) {
		h->cap_life = h->cap_life ? h->cap_life * 2 : 8;
		h->life = realloc(h->life, h->cap_life * sizeof(*h->life));
		CHECK(h->life != NULL);
	}
	lr = &h->life[h->n_life++];
	memset(lr, 0, sizeof(*lr));
	lr->type = type;
	lr->pid = lr->tid = pid;
	lr->ppid = ppid;
	lr->time = t;
	lr->exec = exec;
	if (comm != NULL)
		strncpy(lr->comm, comm, sizeof(lr->comm) - 1);
}

static void add_entry(struct handover *h, int32_t pid, unsigned g, uint64_t first, uint64_t last,
		      uint64_t sw, uint64_t tc, uint64_t v0)
{
	uint64_t d[2] = { sw, v0 };

	CHECK(cpuacc_add(&h->acc, pid, g, first, tc, false, d, 2) == 0);
	if (last != first) {
		uint64_t zero[2] = { 0, 0 };

		CHECK(cpuacc_add(&h->acc, pid, g, last, 0, false, zero, 2) == 0);
	}
}

static const struct iv_row *row(const struct interval_data *iv, const char *comm, unsigned g)
{
	size_t i;

	for (i = 0; i < iv->n_rows; i++)
		if (strcmp(iv->procs[iv->rows[i].proc].comm, comm) == 0 && iv->rows[i].group == g)
			return &iv->rows[i];
	return NULL;
}

/* Every health field of the table reaches the interval, summed over CPUs
 * or the maximum taken, as the table says; the busiest CPU goes with the
 * maximum switch rate. */
static void check_health_fields(struct flusher *f)
{
	struct handover *h[2];
	struct interval_data *iv;
	unsigned i, k;

	iv = calloc(1, sizeof(*iv));
	CHECK(iv != NULL);
	iv->st.busiest_cpu = -1;
	for (i = 0; i < 2; i++) {
		h[i] = calloc(1, sizeof(*h[i]));
		CHECK(h[i] != NULL);
		CHECK(cpuacc_init(&h[i]->acc) == 0);
		h[i]->cpu = 7 - (int)i;
		k = 0;
		/* field k: 10 k + 1 on the first CPU, 10 k + 5 on the second */
#define SET_FIELD(name, ...) h[i]->st.name = 10 * k++ + 1 + 4 * i;
		HEALTH_FIELDS(SET_FIELD)
#undef SET_FIELD
		CHECK(flush_add_handover(f, iv, h[i]) == 0);
	}
	k = 0;
#define CHECK_FIELD(name, combine, ...) \
	CHECK_EQ_U(iv->st.name, HEALTH_COMBINE_##combine(10 * k + 1, 10 * k + 5)); k++;
	HEALTH_FIELDS(CHECK_FIELD)
#undef CHECK_FIELD
	CHECK_EQ_U(k, HEALTH_N_FIELDS);
	CHECK(iv->st.busiest_cpu == 6);
	interval_free(iv);
	for (i = 0; i < 2; i++)
		handover_free(h[i]);
}

/* Pid 200's first process runs on cpu 1, moves to cpu 0 and exits there
 * (its EXIT in cpu 0's ring); a new process with the same pid then runs on
 * cpu 1, all in one interval.  With cpu 0's worker's exit in the shared
 * log, cpu 1's accumulator opens a new entry at the reuse and each process
 * gets its own time; without it, cpu 1's one entry straddles the reuse and
 * goes to [unattributed].  Returns the interval's straddles. */
static uint64_t exit_elsewhere(struct collector *col, const char *root, bool shared)
{
	static struct exitlog exits;
	struct proctab pt;
	struct flusher f;
	struct handover *h[2];
	struct interval_data *iv;
	const struct iv_row *r;
	uint64_t straddles;
	unsigned i;

	memset(&exits, 0, sizeof(exits));
	CHECK(proctab_init(&pt, root, 10 * MS, 0) == 0);
	CHECK(flush_init(&f, col, NULL, 0, &pt, 0) == 0);
	f.seq = 1;
	for (i = 0; i < 2; i++) {
		h[i] = calloc(1, sizeof(*h[i]));
		CHECK(h[i] != NULL);
		CHECK(cpuacc_init(&h[i]->acc) == 0);
		h[i]->cpu = (int)i;
		h[i]->acc.shared = shared ? &exits : NULL;
	}
	add_life(h[0], LIFE_FORK, 200, 1, 100 * MS, NULL, false);
	add_life(h[0], LIFE_COMM, 200, 0, 101 * MS, "gen-one", true);
	add_entry(h[1], 200, 0, 200 * MS, 400 * MS, 3, 200, 5);   /* gen-one on cpu 1 */
	add_entry(h[0], 200, 0, 500 * MS, 500 * MS, 1, 100, 1);   /* gen-one on cpu 0 */
	/* cpu 0's worker takes the EXIT record: its own mark and the log */
	CHECK(cpuacc_mark_exit(&h[0]->acc, 200, 600 * MS) == 0);
	exitlog_add(&exits, 200, 600 * MS);
	add_life(h[0], LIFE_EXIT, 200, 1, 600 * MS, NULL, false);
	add_life(h[1], LIFE_FORK, 200, 1, 700 * MS, NULL, false);
	add_life(h[1], LIFE_COMM, 200, 0, 701 * MS, "gen-two", true);
	add_entry(h[1], 200, 0, 800 * MS, 900 * MS, 2, 300, 7);   /* gen-two on cpu 1 */

	iv = calloc(1, sizeof(*iv));
	CHECK(iv != NULL);
	iv->n_groups = 2;
	iv->st.busiest_cpu = -1;
	CHECK(flush_apply_life(&f, h, 2) == 0);
	CHECK(flush_add_handover(&f, iv, h[0]) == 0);
	CHECK(flush_add_handover(&f, iv, h[1]) == 0);
	CHECK(flush_finish(&f, iv) == 0);
	straddles = iv->st.straddles;
	if (shared) {
		r = row(iv, "gen-one", 0);
		CHECK(r != NULL && r->task_clock_ns == 300 && r->context_switches == 4);
		r = row(iv, "gen-two", 0);
		CHECK(r != NULL && r->task_clock_ns == 300 && r->v[0] == 7);
		CHECK(row(iv, "[unattributed]", 0) == NULL);
	} else {
		r = row(iv, "[unattributed]", 0);
		CHECK(r != NULL && r->task_clock_ns == 500);
	}
	interval_free(iv);
	for (i = 0; i < 2; i++)
		handover_free(h[i]);
	flush_done(&f);
	proctab_done(&pt);
	return straddles;
}

/* Pid 300's first process runs on cpu 1 and cpu 0, writes its EXIT on cpu
 * 0 and is preempted there before its last switch; it migrates and
 * switches out for the last time on cpu 1 (the tail: still pid 300, not
 * yet reaped), after its exit and before the pid's next process is forked.
 * That one runs on cpu 1 too.  The cut at the exit keeps the tail and the
 * new process in entries of their own, whether the exit was in the shared
 * log when the tail was charged or only came later (log_late: cpu 0's
 * worker drained it after cpu 1 charged the tail): each generation gets
 * exactly its time, nothing straddles.  Returns the straddles. */
static uint64_t exit_tail(struct collector *col, const char *root, bool log_late)
{
	static struct exitlog exits;
	struct proctab pt;
	struct flusher f;
	struct handover *h[2];
	struct interval_data *iv;
	uint64_t straddles;
	unsigned i;

	memset(&exits, 0, sizeof(exits));
	CHECK(proctab_init(&pt, root, 10 * MS, 0) == 0);
	CHECK(flush_init(&f, col, NULL, 0, &pt, 0) == 0);
	f.seq = 1;
	for (i = 0; i < 2; i++) {
		h[i] = calloc(1, sizeof(*h[i]));
		CHECK(h[i] != NULL);
		CHECK(cpuacc_init(&h[i]->acc) == 0);
		h[i]->cpu = (int)i;
		h[i]->acc.shared = &exits;
	}
	add_life(h[0], LIFE_FORK, 300, 1, 100 * MS, NULL, false);
	add_life(h[0], LIFE_COMM, 300, 0, 101 * MS, "gen-one", true);
	add_entry(h[1], 300, 0, 200 * MS, 400 * MS, 3, 200, 5);   /* gen-one on cpu 1 */
	add_entry(h[0], 300, 0, 500 * MS, 500 * MS, 1, 100, 1);   /* gen-one on cpu 0 */
	CHECK(cpuacc_mark_exit(&h[0]->acc, 300, 600 * MS) == 0);
	if (!log_late)
		exitlog_add(&exits, 300, 600 * MS);
	add_life(h[0], LIFE_EXIT, 300, 1, 600 * MS, NULL, false);
	/* the tail, on cpu 1: 0.1 ms of exit path, charged after the exit */
	add_entry(h[1], 300, 0, 600 * MS + MS / 2, 600 * MS + MS / 2, 1, 9, 2);
	if (log_late)
		exitlog_add(&exits, 300, 600 * MS);
	add_life(h[0], LIFE_FORK, 300, 1, 601 * MS, NULL, false);
	add_life(h[0], LIFE_COMM, 300, 0, 602 * MS, "gen-two", true);
	add_entry(h[1], 300, 0, 650 * MS, 700 * MS, 2, 300, 7);   /* gen-two on cpu 1 */
	add_entry(h[1], 300, 0, 800 * MS, 800 * MS, 1, 100, 1);

	iv = calloc(1, sizeof(*iv));
	CHECK(iv != NULL);
	iv->n_groups = 2;
	iv->st.busiest_cpu = -1;
	CHECK(flush_apply_life(&f, h, 2) == 0);
	CHECK(flush_add_handover(&f, iv, h[0]) == 0);
	CHECK(flush_add_handover(&f, iv, h[1]) == 0);
	CHECK(flush_finish(&f, iv) == 0);
	straddles = iv->st.straddles;
	if (straddles == 0) {
		const struct iv_row *r = row(iv, "gen-one", 0);

		CHECK(r != NULL && r->task_clock_ns == 309 && r->context_switches == 5);
		r = row(iv, "gen-two", 0);
		CHECK(r != NULL && r->task_clock_ns == 400 && r->v[0] == 8);
		CHECK(row(iv, "[unattributed]", 0) == NULL);
	}
	interval_free(iv);
	for (i = 0; i < 2; i++)
		handover_free(h[i]);
	flush_done(&f);
	proctab_done(&pt);
	return straddles;
}

/* A re-plan's switch (replan.c): the old side-band's records since the
 * final cut, and the gap's CPU time, handed over as extra handovers.  A
 * process that started and ended in the gap, charged nothing, is stored
 * all the same, named; one forked just before the final cut and ended in
 * the gap too; the gap's busy time goes to [unattributed], its idle time
 * to [idle], its length to replan_gap_ns; the extras are the flusher's to
 * free (ASan sees a leak or a double free). */
static void extras(struct collector *col, const char *root)
{
	uint64_t zero[2] = { 0, 0 };
	struct proctab pt;
	struct flusher f;
	struct handover *side, *gap, *before;
	struct interval_data *iv;
	const struct iv_row *r;
	unsigned seen = 0;
	size_t i;

	CHECK(proctab_init(&pt, root, 10 * MS, 0) == 0);
	CHECK(flush_init(&f, col, NULL, 0, &pt, 0) == 0);
	f.seq = 1;
	/* the last interval before the switch saw pid 501 forked, not run */
	before = handover_new(0, NULL);
	CHECK(before != NULL);
	add_life(before, LIFE_FORK, 501, 1, 90 * MS, NULL, false);
	CHECK(flush_apply_life(&f, &before, 1) == 0);
	handover_free(before);

	side = handover_new(1, NULL);
	gap = handover_new(-1, NULL);
	CHECK(side != NULL && gap != NULL);
	add_life(side, LIFE_FORK, 500, 1, 100 * MS, NULL, false);
	add_life(side, LIFE_COMM, 500, 0, 101 * MS, "gapkid", false);
	add_life(side, LIFE_EXIT, 500, 1, 102 * MS, NULL, false);
	add_life(side, LIFE_COMM, 501, 0, 103 * MS, "latekid", false);
	add_life(side, LIFE_EXIT, 501, 1, 104 * MS, NULL, false);
	CHECK(cpuacc_add(&gap->acc, PID_UNATTRIBUTED, 0, 150 * MS, 60 * MS, false, zero, 0) == 0);
	CHECK(cpuacc_add(&gap->acc, PID_IDLE, 0, 150 * MS, 40 * MS, false, zero, 0) == 0);
	gap->st.replan_gap_ns = 100 * MS;
	flush_add_extra(&f, side);
	flush_add_extra(&f, gap);

	CHECK(flush_request(&f, false, &iv) == 0);
	CHECK(flush_collect(&f, iv, &iv) == 0);
	CHECK(f.extra == NULL);
	for (i = 0; i < iv->n_procs; i++) {
		const struct iv_proc *p = &iv->procs[i];

		if (strcmp(p->comm, "gapkid") == 0 || strcmp(p->comm, "latekid") == 0) {
			CHECK(p->exit_ns != 0);
			seen++;
		}
	}
	CHECK_EQ_U(seen, 2);
	r = row(iv, "[unattributed]", 0);
	CHECK(r != NULL && r->task_clock_ns == 60 * MS);
	r = row(iv, "[idle]", 0);
	CHECK(r != NULL && r->task_clock_ns == 40 * MS);
	CHECK_EQ_U(iv->st.replan_gap_ns, 100 * MS);
	interval_free(iv);
	/* one not taken yet goes with the flusher */
	flush_add_extra(&f, handover_new(0, NULL));
	flush_done(&f);
	proctab_done(&pt);
}

/* The log itself: a pid's two newest exits, another pid in the same slot
 * replacing them, and nothing known before any exit. */
static void check_exitlog(void)
{
	static struct exitlog l;

	CHECK(!exitlog_between(&l, 7, 0, UINT64_MAX));
	exitlog_add(&l, 7, 500);
	exitlog_add(&l, 7, 300);   /* drained late by its CPU's worker */
	CHECK(exitlog_between(&l, 7, 300, 301));
	CHECK(exitlog_between(&l, 7, 400, 501));
	CHECK(!exitlog_between(&l, 7, 301, 500));   /* [from, to) */
	CHECK(!exitlog_between(&l, 8, 0, UINT64_MAX));
	exitlog_add(&l, 7 + EXITLOG_SLOTS, 900);
	CHECK(!exitlog_between(&l, 7, 0, UINT64_MAX));
	CHECK(exitlog_between(&l, 7 + EXITLOG_SLOTS, 900, 901));
}

int main(void)
{
	char root[] = "/tmp/stackd-unit-flush.XXXXXX";
	struct collector col;
	struct proctab pt;
	struct flusher f;
	struct handover *h[2];
	struct interval_data *iv;
	const struct iv_row *r;
	unsigned g, i;

	CHECK(mkdtemp(root) != NULL);
	memset(&col, 0, sizeof(col));
	col.model = &model_software;
	col.n_groups = 2;
	for (g = 0; g < 2; g++) {
		col.layout[g].n_members = 2;
		col.layout[g].switches_idx = 0;
		col.layout[g].n_model = 1;
		col.layout[g].model_idx[0] = 1;
	}
	CHECK(proctab_init(&pt, root, 10 * MS, 0) == 0);
	CHECK(flush_init(&f, &col, NULL, 0, &pt, 0) == 0);
	f.seq = 1;
	for (i = 0; i < 2; i++) {
		h[i] = calloc(1, sizeof(*h[i]));
		CHECK(h[i] != NULL);
		CHECK(cpuacc_init(&h[i]->acc) == 0);
		h[i]->cpu = (int)i;
		h[i]->enabled_ns[0] = 500 * MS;
		h[i]->enabled_ns[1] = 400 * MS;
		h[i]->st.samples = 100 + i;
		h[i]->st.max_cpu_switch_rate = 1000 * (i + 1);
	}
	/* pid 100: "alpha" forks, execs, exits on cpu 0; the pid is reused by
	 * "beta", forked on cpu 1.  Records arrive per CPU, out of global order. */
	add_life(h[1], LIFE_FORK, 100, 1, 1700 * MS, NULL, false);
	add_life(h[1], LIFE_COMM, 100, 0, 1701 * MS, "beta", true);
	add_life(h[0], LIFE_FORK, 100, 1, 900 * MS, NULL, false);
	add_life(h[0], LIFE_COMM, 100, 0, 901 * MS, "alpha", true);
	add_life(h[0], LIFE_EXIT, 100, 1, 1600 * MS, NULL, false);

	add_entry(h[0], 100, 0, 1000 * MS, 1500 * MS, 2, 500, 3);   /* alpha */
	add_entry(h[1], 100, 0, 1800 * MS, 1900 * MS, 1, 70, 1);    /* beta */
	add_entry(h[1], 100, 1, 1500 * MS, 1800 * MS, 1, 40, 0);    /* spans the reuse */
	add_entry(h[0], 0, 1, 1000 * MS, 1000 * MS, 0, 900, 0);     /* idle */
	add_entry(h[0], PID_UNATTRIBUTED, 0, 1100 * MS, 1100 * MS, 1, 11, 0);

	iv = calloc(1, sizeof(*iv));
	CHECK(iv != NULL);
	iv->n_groups = 2;
	iv->st.busiest_cpu = -1;
	CHECK(flush_apply_life(&f, h, 2) == 0);
	CHECK(flush_add_handover(&f, iv, h[0]) == 0);
	CHECK(flush_add_handover(&f, iv, h[1]) == 0);
	CHECK(flush_finish(&f, iv) == 0);

	r = row(iv, "alpha", 0);
	CHECK(r != NULL);
	CHECK_EQ_U(r->task_clock_ns, 500);
	CHECK_EQ_U(r->context_switches, 2);
	CHECK_EQ_U(r->v[0], 3);
	r = row(iv, "beta", 0);
	CHECK(r != NULL);
	CHECK_EQ_U(r->task_clock_ns, 70);
	CHECK(row(iv, "beta", 1) == NULL);
	CHECK(row(iv, "alpha", 1) == NULL);
	r = row(iv, "[unattributed]", 1);
	CHECK(r != NULL && r->task_clock_ns == 40);
	r = row(iv, "[unattributed]", 0);
	CHECK(r != NULL && r->task_clock_ns == 11);
	r = row(iv, "[idle]", 1);
	CHECK(r != NULL && r->task_clock_ns == 900);
	CHECK_EQ_U(iv->st.straddles, 1);
	CHECK_EQ_U(iv->st.samples, 201);
	CHECK_EQ_U(iv->st.max_cpu_switch_rate, 2000);
	CHECK(iv->st.busiest_cpu == 1);
	CHECK_EQ_U(iv->enabled_ns[0], 1000 * MS);
	CHECK_EQ_U(iv->enabled_ns[1], 800 * MS);
	for (i = 0; i < iv->n_procs; i++) {
		const struct iv_proc *p = &iv->procs[i];

		if (strcmp(p->comm, "alpha") == 0) {
			CHECK(p->pid == 100 && p->exit_ns != 0);
			CHECK_EQ_U(p->start_ns, 900 * MS);
		} else if (strcmp(p->comm, "beta") == 0) {
			CHECK(p->pid == 100 && p->exit_ns == 0);
			CHECK_EQ_U(p->start_ns, 1700 * MS);
		}
	}
	interval_free(iv);
	for (i = 0; i < 2; i++)
		handover_free(h[i]);
	check_health_fields(&f);
	check_exitlog();
	CHECK_EQ_U(exit_elsewhere(&col, root, true), 0);
	CHECK_EQ_U(exit_elsewhere(&col, root, false), 1);
	CHECK_EQ_U(exit_tail(&col, root, false), 0);
	CHECK_EQ_U(exit_tail(&col, root, true), 0);
	extras(&col, root);
	flush_done(&f);
	proctab_done(&pt);
	rmdir(root);
	return 0;
}
