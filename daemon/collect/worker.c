/*
 * worker.c - see worker.h.
 */
#include "daemon/collect/worker.h"
#include "lib/clock.h"
#include "daemon/base/log.h"
#include "daemon/collect/perf_record.h"
#include "daemon/collect/switch_records.h"

#include <errno.h>
#include <poll.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <unistd.h>

#define WORKER_MAX_SPARES 2
/* A group found unschedulable sits out of rotation this long, then gets
 * one more try (which costs a group read when it fails again). */
#define WORKER_BENCH_NS (10 * NS_PER_SEC)

/* A handover for cpu, its accumulator reading the workers' shared exit
 * log. */
static struct handover *handover_new(int cpu, struct exitlog *shared)
{
	struct handover *h = calloc(1, sizeof(*h));

	if (h == NULL)
		return NULL;
	if (cpuacc_init(&h->acc) < 0) {
		free(h);
		return NULL;
	}
	h->cpu = cpu;
	h->acc.shared = shared;
	return h;
}

void handover_free(struct handover *h)
{
	if (h == NULL)
		return;
	cpuacc_done(&h->acc);
	free(h->life);
	free(h);
}

static void handover_clear(struct handover *h)
{
	cpuacc_reset(&h->acc);
	h->n_life = 0;
	memset(&h->st, 0, sizeof(h->st));
	memset(h->enabled_ns, 0, sizeof(h->enabled_ns));
	h->cut_ns = 0;
	h->next = NULL;
}

static void life_push(struct worker *w, const struct life_rec *r)
{
	struct handover *h = w->cur;

	if (h->n_life == h->cap_life) {
		size_t cap = h->cap_life ? h->cap_life * 2 : 64;
		struct life_rec *more = realloc(h->life, cap * sizeof(*more));

		if (more == NULL) {
			w->at.st.dropped++;
			return;
		}
		h->life = more;
		h->cap_life = cap;
	}
	h->life[h->n_life++] = *r;
}

/* The group whose sampler wrote id; *clock: its cpu-clock (periodic mode). */
static int group_of_id(const struct worker *w, uint64_t id, bool *clock)
{
	unsigned g;

	for (g = 0; g < w->col->n_groups; g++) {
		*clock = id != 0 && w->ev->groups[g].clock_id == id;
		if (w->ev->groups[g].sampler_id == id || *clock)
			return (int)g;
	}
	*clock = false;
	return -1;
}

/* A sample in this CPU's ring whose id is not one of ours.  When another
 * reader samples context switches too (a second stackd, a profiler), the
 * kernel fills one sample record's data for every software event of a
 * switch and skips fields already filled, so our sample can carry the
 * other reader's id (seen on 6.x kernels; tests/system/240-coexist.sh).
 * The rest is ours: this ring holds only our events, the group read in it
 * is ours, and one group of ours is enabled at a time - the one enabled at
 * the sample's time.  The ring is drained at every rotation, so it holds
 * samples of at most the previous group (up to prev_until) and the active
 * one.  -1 when the read does not fit that group. */
static int group_of_foreign(struct worker *w, const struct rec_sample *s)
{
	unsigned g = w->prev_until != 0 && s->time <= w->prev_until ? w->prev_active : w->active;

	if (s->nr != w->ev->groups[g].n_fds)
		return -1;
	w->at.st.foreign_id_samples++;
	return (int)g;
}

void worker_handle_record(struct worker *w, const struct perf_event_header *h)
{
	struct life_rec lr;

	switch (h->type) {
	case PERF_RECORD_SAMPLE: {
		struct rec_sample s;
		bool clock;
		int g;

		if (perf_record_parse_sample(h, &s) < 0) {
			w->at.st.bad_samples++;
			return;
		}
		g = group_of_id(w, s.id, &clock);
		if (g < 0)
			g = group_of_foreign(w, &s);
		if (g < 0) {
			/* Its deltas are lost: counted, so the loss shows. */
			w->at.st.unknown_id_samples++;
			return;
		}
		if (clock)
			attrib_clock_sample(&w->at, (unsigned)g, s.pid, s.time, s.values,
					    (unsigned)s.nr);
		else
			attrib_sample(&w->at, (unsigned)g, s.pid, s.tid, s.time, s.values,
				      (unsigned)s.nr);
		return;
	}
	case PERF_RECORD_FORK:
	case PERF_RECORD_EXIT: {
		struct rec_task t;

		if (perf_record_parse_task(h, &t) < 0) {
			w->at.st.bad_samples++;
			return;
		}
		if (h->type == PERF_RECORD_EXIT)
			attrib_exit(&w->at, t.pid, t.tid, t.time);
		/* every CPU's accumulator must split at a leader's exit */
		if (h->type == PERF_RECORD_EXIT && t.pid == t.tid)
			exitlog_add(&w->col->exits, t.pid, t.time);
		/* Threads share their process's identity: only leaders matter. */
		if (t.pid != t.tid)
			return;
		memset(&lr, 0, sizeof(lr));
		lr.type = h->type == PERF_RECORD_FORK ? LIFE_FORK : LIFE_EXIT;
		lr.pid = t.pid;
		lr.ppid = t.ppid;
		lr.tid = t.tid;
		lr.time = t.time;
		life_push(w, &lr);
		return;
	}
	case PERF_RECORD_COMM: {
		struct rec_comm c;

		if (perf_record_parse_comm(h, &c) < 0) {
			w->at.st.bad_samples++;
			return;
		}
		if (c.pid != c.tid)
			return;
		memset(&lr, 0, sizeof(lr));
		lr.type = LIFE_COMM;
		lr.exec = c.exec;
		lr.pid = c.pid;
		lr.tid = c.tid;
		lr.time = c.time;
		memcpy(lr.comm, c.comm, sizeof(lr.comm));
		life_push(w, &lr);
		return;
	}
	case PERF_RECORD_SWITCH_CPU_WIDE: {
		struct rec_switch sw;

		if (perf_record_parse_switch(h, &sw) < 0) {
			w->at.st.bad_samples++;
			return;
		}
		/* out: the writer is leaving for next_prev; in: it arrived from it */
		if (sw.out)
			attrib_switch_in(&w->at, sw.time, sw.pid, sw.next_prev_pid);
		else
			attrib_switch_in(&w->at, sw.time, sw.next_prev_pid, sw.pid);
		return;
	}
	case PERF_RECORD_LOST: {
		struct rec_lost l;

		if (perf_record_parse_lost(h, &l) < 0) {
			w->at.st.bad_samples++;
			return;
		}
		w->at.st.lost_records++;
		w->at.st.lost_samples += l.lost;
		return;
	}
	case PERF_RECORD_THROTTLE:
		w->at.st.throttles++;
		return;
	default:
		return;
	}
}

/* Open (false when that failed) or close this CPU's switch records. */
static bool set_switch_records(struct worker *w, bool on)
{
	if (!on) {
		collector_close_switch_records(w->col, w->ev);
		w->switch_records = false;
		return true;
	}
	if (collector_open_switch_records(w->col, w->ev) < 0)
		return false;
	w->switch_records = true;
	return true;
}

/* The busiest CPU's switches/s at its worker's last rotation. */
static uint64_t host_switch_rate(const struct worker *w)
{
	uint64_t max = 0;
	size_t i;

	for (i = 0; i < w->col->n_cpus; i++) {
		uint64_t r = __atomic_load_n(&w->col->cpus[i].switch_rate, __ATOMIC_RELAXED);

		if (r > max)
			max = r;
	}
	return max;
}

/* At every rotation, in either mode: this CPU's switches/s since the last
 * review (from the switch counters, which count in both), for every
 * worker's host_switch_rate(). */
static void publish_switch_rate(struct worker *w, uint64_t now)
{
	uint64_t elapsed_ns = now - w->switch_review_ns;
	uint64_t rate = elapsed_ns > 0 ? (w->at.switches_counted - w->switch_review_switches) *
		NS_PER_SEC / elapsed_ns : 0;

	__atomic_store_n(&w->ev->switch_rate, rate, __ATOMIC_RELAXED);
}

static void rebase_switch_review(struct worker *w, uint64_t now)
{
	w->at.unsampled_span_ns = 0;
	w->switch_review_ns = now;
	w->switch_review_switches = w->at.switches_counted;
}

/* At every rotation: the records on or off as switch_records_wanted()
 * says, from this CPU's unsampled spans since the last review and the
 * busiest CPU's rate (switch records cost every CPU's switches: records
 * on cpu 0 alone cost a ping-pong on cpu 1 7 % of its round trips on the
 * development VM, 0.14 us a switch - perf record --switch-events -C 0
 * beside one reading the group on every switch).  On from the start, so
 * the first spans are split. */
static void review_switch_records(struct worker *w, uint64_t now)
{
	uint64_t elapsed_ns = now - w->switch_review_ns;
	uint64_t ppm = elapsed_ns > 0 ?
		(uint64_t)((unsigned __int128)w->at.unsampled_span_ns * 1000000 / elapsed_ns) : 0;
	struct switch_records_view v = { w->switch_records, w->switch_records_needed, ppm,
					  host_switch_rate(w) };
	bool needed = switch_records_needed_now(&v);
	bool want = switch_records_wanted(&v);

	rebase_switch_review(w, now);
	if (needed)
		w->switch_records_needed = true;
	if (!w->switch_records && want && !w->switch_records_failed &&
	    !set_switch_records(w, true))
		w->switch_records_failed = true;
	else if (w->switch_records && !want)
		(void)set_switch_records(w, false);
	if (!needed || w->switch_records_told)
		return;
	w->switch_records_told = true;   /* once per CPU */
	if (w->switch_records)
		log_info("cpu %d: the kernel counts context switches it does not sample; "
			 "recording its switch records while that matters, to split those spans "
			 "(split_spans)", w->ev->cpu);
	else
		log_warning("cpu %d: the kernel counts context switches it does not sample, and "
			    "switch records cannot be opened: those spans stay unattributed",
			    w->ev->cpu);
}

/* Attribute every record up to limit (CLOCK_MONOTONIC; UINT64_MAX: all). */
static void drain(struct worker *w, uint64_t limit)
{
	struct ring *r = &w->ev->ring;
	const struct perf_event_header *h;
	uint64_t skipped = r->skipped_bytes;

	while ((h = ring_peek(r)) != NULL) {
		if (limit != UINT64_MAX && perf_record_time(h) > limit)
			break;
		worker_handle_record(w, h);
		ring_consume(r, h);
	}
	/* A record header that made no sense: the rest of the ring went. */
	if (r->skipped_bytes != skipped)
		w->at.st.bad_samples++;
	ring_publish(r);
}

static uint64_t now_ns(const struct worker *w)
{
	return w->col->kops->now_ns(w->col->kops->ctx);
}

static void group_ioctl(struct worker *w, unsigned g, unsigned long request)
{
	const struct kernel_ops *k = w->col->kops;

	/* Leader only (flags 0): PERF_IOC_FLAG_GROUP breaks sampling members. */
	(void)k->ioctl(k->ctx, w->ev->groups[g].fds[0], request, 0);
}

/* A pinned group the PMU cannot schedule (counters taken by the watchdog or
 * another user) goes into error state and counts nothing: take it out of
 * rotation for a while and say so. */
static void bench(struct worker *w, unsigned g, uint64_t now)
{
	w->at.st.unschedulable++;
	w->unschedulable[g]++;
	w->benched_until[g] = now + WORKER_BENCH_NS;
}

static uint64_t clock_period(const struct worker *w)
{
	uint64_t p = __atomic_load_n(&w->clock_period_ns, __ATOMIC_RELAXED);

	return p != 0 ? p : COLLECTOR_PERIODIC_NS;
}

/* In periodic mode each turn of a group samples at a period drawn afresh,
 * uniform in [A/2, 3A/2) with A = P ln 3 (P = clock_period(), the mean
 * period asked for), from the enable on.  A fixed period keeps its phase
 * to the scheduler's tick (1, 4 or 10 ms: whole multiples of 1 ms) and to
 * the rotation (100 ms) for seconds, and a task whose runs follow the tick
 * is then sampled at the same point of them every time: measured on the
 * development VM, a spinner beside a ping-pong came out 4.8 % low in one
 * run and 2.7 % high in the next, where the binomial error of the samples
 * was 1.3 %.  Each sample charges its actual delta, so a varying period
 * biases nothing.  Why A and not P: a turn of length T holds about T/d
 * samples, and the mean of 1/d over [A/2, 3A/2) is ln 3 / A, so drawing
 * around P itself would sample 1.099 times as often as asked (and cost
 * that much more than stated); around P ln 3 the rate is 1/P. */
#define PERIOD_SPREAD_LN3 1.0986122886681098

static void draw_period(struct worker *w, unsigned g)
{
	uint64_t a = (uint64_t)((double)clock_period(w) * PERIOD_SPREAD_LN3);
	uint64_t r;

	w->period_rng = w->period_rng * 6364136223846793005ULL + 1442695040888963407ULL;
	r = (w->period_rng >> 33) % a;
	(void)collector_set_clock_period(w->col, w->ev, g, a / 2 + r);
}

/* Enable g; false (and g disabled and benched) when it cannot be
 * scheduled.  A pinned group that does not fit goes into error state at
 * once, so one read right after the enable tells. */
static bool try_enable(struct worker *w, unsigned g)
{
	uint64_t values[ACC_MAX_MEMBERS];
	uint64_t t = now_ns(w);
	int nv;

	if (w->mode.periodic)
		draw_period(w, g);
	group_ioctl(w, g, PERF_EVENT_IOC_ENABLE);
	nv = collector_read_group(w->col, w->ev, g, values, ACC_MAX_MEMBERS);
	if (nv == -EIO) {
		group_ioctl(w, g, PERF_EVENT_IOC_DISABLE);
		bench(w, g, t);
		return false;
	}
	/* The read anchors the group's clock: its samples' times follow. */
	attrib_enabled(&w->at, g, now_ns(w), nv > 0 ? values : NULL, nv > 0 ? (unsigned)nv : 0);
	if (w->dark_since != 0) {
		attrib_lost(&w->at, g, w->dark_since, t);
		w->dark_since = 0;
	}
	w->enabled_since = t;
	w->active = g;
	w->running = true;
	return true;
}

/* Nothing is enabled from t on (every group benched or failing): that
 * time is no process's, and is charged as unattributed when it ends. */
static void go_dark(struct worker *w, uint64_t t)
{
	if (!w->running && w->dark_since == 0)
		w->dark_since = t;
}

/* Enable the first group after g (cyclically, g excluded) that is in
 * rotation and schedulable; false when none is. */
static bool enable_other(struct worker *w, unsigned g)
{
	uint64_t now = now_ns(w);
	unsigned i, n = w->col->n_groups;

	w->running = false;
	for (i = 1; i < n; i++) {
		unsigned next = (g + i) % n;

		if (w->benched_until[next] > now)
			continue;
		w->benched_until[next] = 0;
		if (try_enable(w, next))
			return true;
	}
	return false;
}

/* The same, g itself last.  None: nothing runs until the next rotation. */
static void enable_next(struct worker *w, unsigned g)
{
	if (enable_other(w, g) || w->benched_until[g] > now_ns(w))
		return;
	w->benched_until[g] = 0;
	(void)try_enable(w, g);
}

/* Whether a group other than g may run now (not benched). */
static bool others_ready(const struct worker *w, unsigned g, uint64_t now)
{
	unsigned i;

	for (i = 0; i < w->col->n_groups; i++)
		if (i != g && w->benched_until[i] <= now)
			return true;
	return false;
}

/* The active group, read at time t: in error state since some time after
 * it was enabled (another user took its counters), its span measured
 * nothing, so it counts for no coverage. */
static bool active_failed(struct worker *w, uint64_t t, uint64_t *values, int *nv)
{
	*nv = collector_read_group(w->col, w->ev, w->active, values, ACC_MAX_MEMBERS);
	if (*nv != -EIO)
		return false;
	group_ioctl(w, w->active, PERF_EVENT_IOC_DISABLE);
	attrib_failed(&w->at, w->active, t);
	bench(w, w->active, t);
	w->enabled_since = t;
	w->running = false;
	return true;
}

/* The cost budget as the main thread set it last. */
static struct sampling_budget budget_of(const struct worker *w)
{
	return (struct sampling_budget){
		(double)__atomic_load_n(&w->budget_ppm, __ATOMIC_RELAXED) / 1e6,
		(double)__atomic_load_n(&w->cost_ps, __ATOMIC_RELAXED) / 1e3,
	};
}

/* At a rotation, before it: whether this CPU's mode should change there. */
static void review_sampling_mode(struct worker *w, uint64_t now)
{
	struct sampling_budget b = budget_of(w);

	if (w->periodic_failed)
		return;
	drain(w, UINT64_MAX);   /* the switches counted up to now */
	if (cost_budget_review(&w->mode, &b, now, w->at.switches_counted))
		w->mode_change = true;
}

/* Going periodic: what periodic mode itself costs this CPU at the rate that
 * sent it there - the clock samples, and the switch counting it keeps (the
 * budget needs the rate to see it fall; counting costs every per-CPU
 * switch counter the same, perf stat -e context-switches alike) - and,
 * where that is over the budget too, says so. */
static void log_periodic_cost(const struct worker *w, const struct sampling_budget *b)
{
	double sample_ns = (double)__atomic_load_n(&w->clock_sample_ps, __ATOMIC_RELAXED) / 1e3;
	double count_ns = (double)__atomic_load_n(&w->switch_count_ps, __ATOMIC_RELAXED) / 1e3;
	double hz = (double)NS_PER_SEC / (double)clock_period(w);
	double counting = periodic_cost_fraction(w->mode.rate, count_ns, 0, 0);
	double clock = periodic_cost_fraction(0, 0, hz, sample_ns);

	if (sample_ns <= 0 && count_ns <= 0)
		return;   /* not measured: nothing true to add */
	if (counting + clock > b->max_cost)
		log_warning("cpu %d: periodic sampling itself still costs about %.2f%% of it, over "
			    "max_sampling_cost %.2f%%: counting its %llu switches/s (%.0f ns each, "
			    "as any per-CPU switch counter does) %.2f%%, %.0f Hz of clock samples "
			    "(about %.1f us each) %.2f%%", w->ev->cpu, 100.0 * (counting + clock),
			    100.0 * b->max_cost, (unsigned long long)w->mode.rate, count_ns,
			    100.0 * counting, hz, OWN_CLOCK_SAMPLE_FACTOR * sample_ns / 1e3,
			    100.0 * clock);
	else
		log_info("cpu %d: periodic sampling costs about %.2f%% of it: counting its "
			 "switches %.2f%%, %.0f Hz of clock samples %.2f%%", w->ev->cpu,
			 100.0 * (counting + clock), 100.0 * counting, hz, 100.0 * clock);
}

static void log_mode_change(const struct worker *w, bool on)
{
	struct sampling_budget b = budget_of(w);

	if (on) {
		log_info("cpu %d: sampling every context switch costs %.2f%% of it (%llu "
			 "switches/s x %.0f ns), over max_sampling_cost %.2f%%: periodic sampling "
			 "(%.0f Hz, statistical) from now", w->ev->cpu, 100.0 * w->mode.cost,
			 (unsigned long long)w->mode.rate, b.cost_ns, 100.0 * b.max_cost,
			 (double)NS_PER_SEC / (double)clock_period(w));
		log_periodic_cost(w, &b);
	} else if (b.max_cost <= 0) {
		log_info("cpu %d: max_sampling_cost off: sampling every context switch (exact) "
			 "again", w->ev->cpu);
	} else {
		log_info("cpu %d: sampling every context switch would cost %.2f%% of it (%llu "
			 "switches/s x %.0f ns), under half of max_sampling_cost %.2f%% for %d "
			 "windows of %.0f s: sampling every switch (exact) again", w->ev->cpu,
			 100.0 * w->mode.cost, (unsigned long long)w->mode.rate, b.cost_ns,
			 100.0 * b.max_cost, COST_BUDGET_CALM_WINDOWS,
			 (double)COST_BUDGET_WINDOW_NS / NS_PER_SEC);
	}
}

/* Leaving periodic mode: the tails the groups other than skip (whose
 * samples are still in the ring: rotate settles it after them) left for
 * their next clock sample are settled now, before any of them runs. */
static void settle_tails(struct worker *w, uint64_t t, unsigned skip)
{
	uint64_t values[ACC_MAX_MEMBERS];
	unsigned g;
	int nv;

	for (g = 0; g < w->col->n_groups; g++) {
		if (g == skip || !w->at.turn_periodic[g])
			continue;
		nv = collector_read_group(w->col, w->ev, g, values, ACC_MAX_MEMBERS);
		if (nv > 0)
			attrib_remainder(&w->at, g, t, values, (unsigned)nv);
	}
}

/* Every group of the CPU is disabled (at a rotation, at time t): the CPU
 * changes mode.  skip: the group just disabled (n_groups: none). */
static void change_mode(struct worker *w, uint64_t t, unsigned skip)
{
	bool on = !w->mode.periodic;
	int r;

	w->mode_change = false;
	r = collector_set_periodic(w->col, w->ev, on);
	if (r < 0 && on) {
		w->periodic_failed = true;
		log_warning("cpu %d: cannot set a sampling period (%s): sampling every context "
			    "switch whatever it costs", w->ev->cpu, strerror(-r));
		return;
	}
	if (r < 0) {   /* still periodic; the next calm review tries again */
		log_warning("cpu %d: cannot go back to sampling every switch (%s): periodic "
			    "sampling goes on", w->ev->cpu, strerror(-r));
		return;
	}
	log_mode_change(w, on);
	attrib_set_periodic(&w->at, on);
	if (on) {
		w->periodic_since = t;
		if (w->switch_records)
			(void)set_switch_records(w, false);
	} else {
		w->at.st.periodic_ns += t - w->periodic_since;
		settle_tails(w, t, skip);
	}
	cost_budget_set(&w->mode, on, t, w->at.switches_counted);
	__atomic_store_n(&w->periodic_now, on ? 1 : 0, __ATOMIC_RELAXED);
}

static void rotate(struct worker *w)
{
	unsigned from = w->active;
	uint64_t values[ACC_MAX_MEMBERS];
	uint64_t t, span;
	bool moved;
	int nv;

	if (!w->running) {   /* everything was unschedulable: try again */
		drain(w, UINT64_MAX);
		if (w->mode_change)
			change_mode(w, now_ns(w), w->col->n_groups);
		enable_next(w, from);
		return;
	}
	t = now_ns(w);
	if (!w->mode_change && !others_ready(w, from, t)) {   /* one group on, the rest benched */
		drain(w, UINT64_MAX);
		return;
	}
	/* Disable before enabling: two groups must never compete for counters.
	 * The next enable follows at once: with the worker under SCHED_OTHER a
	 * task may preempt it, and no time should pass with nothing counting. */
	group_ioctl(w, from, PERF_EVENT_IOC_DISABLE);
	span = t - w->enabled_since;
	w->enabled_acc[from] += span;
	w->prev_active = from;
	/* after the disable returned: nothing of from's can be later */
	w->prev_until = now_ns(w);
	if (w->mode_change)
		change_mode(w, t, from);
	moved = enable_other(w, from);
	w->at.st.rotations++;
	/* The old group's last samples are in the ring now; take them before
	 * its final read so the remainder is exactly what came after them. */
	drain(w, UINT64_MAX);
	w->prev_until = 0;
	nv = collector_read_group(w->col, w->ev, from, values, ACC_MAX_MEMBERS);
	if (nv > 0) {
		attrib_remainder(&w->at, from, t, values, (unsigned)nv);
	} else if (nv == -EIO) {
		/* It failed while enabled: its span counted nothing. */
		w->enabled_acc[from] -= span;
		attrib_failed(&w->at, from, t);
		bench(w, from, t);
	}
	/* Every other group turned out unschedulable: from runs on, enabled
	 * again only now that its samples and remainder are taken (an enable
	 * restarts its span). */
	if (!moved && nv != -EIO)
		(void)try_enable(w, from);
	go_dark(w, t);
}

static void post(struct worker *w, struct handover *h, uint64_t seq)
{
	struct handover **tail;

	pthread_mutex_lock(&w->lock);
	tail = &w->ready;
	while (*tail != NULL)
		tail = &(*tail)->next;
	*tail = h;
	if (seq > w->posted_seq)
		w->posted_seq = seq;
	pthread_cond_broadcast(&w->cond);
	pthread_mutex_unlock(&w->lock);
}

static struct handover *take_spare(struct worker *w)
{
	struct handover *h;

	pthread_mutex_lock(&w->lock);
	h = w->spare;
	if (h != NULL)
		w->spare = h->next;
	pthread_mutex_unlock(&w->lock);
	if (h != NULL) {
		handover_clear(h);
		return h;
	}
	return handover_new(w->ev->cpu, &w->col->exits);
}

/* Everything up to now becomes a handover for the main thread. */
static void cut(struct worker *w, uint64_t seq)
{
	uint64_t now = now_ns(w);
	struct handover *h = w->cur;
	struct handover *next;
	unsigned g;

	drain(w, now);
	if (w->running) {
		uint64_t values[ACC_MAX_MEMBERS];
		unsigned failed = w->active;
		int nv;

		if (active_failed(w, now, values, &nv)) {
			enable_next(w, failed);
			go_dark(w, now);
		} else {
			w->enabled_acc[w->active] += now - w->enabled_since;
			/* cpu-clock is not slewed like CLOCK_MONOTONIC: anchor it
			 * again, so one group left alone for long does not drift */
			if (nv > 0)
				attrib_reanchor(&w->at, w->active, now_ns(w), values, (unsigned)nv);
		}
	}
	if (w->dark_since != 0) {   /* the dark time so far belongs here */
		attrib_lost(&w->at, w->active, w->dark_since, now);
		w->dark_since = now;
	}
	w->enabled_since = now;
	for (g = 0; g < w->col->n_groups; g++) {
		h->enabled_ns[g] = w->enabled_acc[g];
		h->unschedulable[g] = w->unschedulable[g];
		w->enabled_acc[g] = 0;
		w->unschedulable[g] = 0;
	}
	h->cut_ns = now;
	if (w->mode.periodic) {   /* clipped to the interval */
		w->at.st.periodic_ns += now - w->periodic_since;
		w->periodic_since = now;
	}
	h->st = w->at.st;
	/* From the switch counters, which count in both modes (a periodic
	 * CPU writes no switch samples, and its rate is what the budget and
	 * the warnings are about). */
	h->st.max_cpu_switch_rate = now > w->last_cut_ns ?
		(w->at.switches_counted - w->switches_at_cut) * (uint64_t)NS_PER_SEC /
		(now - w->last_cut_ns) : 0;
	memset(&w->at.st, 0, sizeof(w->at.st));
	w->last_cut_ns = now;
	w->switches_at_cut = w->at.switches_counted;

	next = take_spare(w);
	if (next == NULL) {
		/* Out of memory: keep filling the same table; the main thread
		 * gets it at the next flush that finds memory. */
		w->at.st = h->st;
		return;
	}
	w->cur = next;
	w->at.acc = &next->acc;
	post(w, h, seq);
}

/* Pinned to its CPU, under SCHED_OTHER.  SCHED_FIFO would wake it sooner
 * on a busy CPU (make bench, "wake-up lateness": p99 tens of microseconds
 * against up to a few milliseconds), but nothing it computes depends on
 * waking on time: switch samples carry their own times, a late rotation
 * only lengthens one group's turn (coverage counts the real time), a late
 * cut moves an interval's end.  A real-time thread that loops would own
 * its CPU; the unit keeps RestrictRealtime=yes, and stackd asks for no
 * real-time privilege anywhere. */
static void setup_thread(struct worker *w)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(w->ev->cpu, &set);
	if (sched_setaffinity(0, sizeof(set), &set) < 0)
		w->setup_error = errno;
}

void worker_begin(struct worker *w)
{
	uint64_t now = now_ns(w);

	w->last_cut_ns = now;
	w->switches_at_cut = w->at.switches_counted;
	w->switch_review_ns = now;
	w->switch_review_switches = w->at.switches_counted;
	cost_budget_init(&w->mode, now, w->at.switches_counted);
	if (!set_switch_records(w, true))
		w->switch_records_failed = true;
	enable_next(w, w->col->n_groups - 1);
	go_dark(w, now);
	w->next_rotate_ns = now + __atomic_load_n(&w->rotate_ns, __ATOMIC_RELAXED);
}

/* A re-check of the sampling cost asks this CPU to sample nothing for its
 * runs "without": the active group is disabled (its remainder read, as at
 * a rotation) and the switch records closed; the time until the resume is
 * dark, charged as unattributed.  No rotation meanwhile. */
static void pause_groups(struct worker *w)
{
	uint64_t t = now_ns(w);

	if (w->running) {
		uint64_t values[ACC_MAX_MEMBERS];
		int nv;

		group_ioctl(w, w->active, PERF_EVENT_IOC_DISABLE);
		w->enabled_acc[w->active] += t - w->enabled_since;
		w->prev_active = w->active;
		w->prev_until = now_ns(w);
		drain(w, UINT64_MAX);
		w->prev_until = 0;
		nv = collector_read_group(w->col, w->ev, w->active, values, ACC_MAX_MEMBERS);
		if (nv > 0)
			attrib_remainder(&w->at, w->active, t, values, (unsigned)nv);
		w->running = false;
	}
	w->paused_records = w->switch_records;
	if (w->switch_records)
		(void)set_switch_records(w, false);
	go_dark(w, t);
}

static void resume_groups(struct worker *w)
{
	unsigned n = w->col->n_groups;

	if (w->paused_records && !set_switch_records(w, true))
		w->switch_records_failed = true;
	enable_next(w, (w->active + n - 1) % n);   /* the same group first */
	go_dark(w, now_ns(w));
}

/* Put in place the pause the main thread asked for, and tell it. */
static void apply_pause(struct worker *w)
{
	int want = __atomic_load_n(&w->pause, __ATOMIC_ACQUIRE);

	if ((want != 0) == w->paused)
		return;
	if (want != 0)
		pause_groups(w);
	else
		resume_groups(w);
	w->paused = want != 0;
	pthread_mutex_lock(&w->lock);
	w->pause_applied = want;
	pthread_cond_broadcast(&w->cond);
	pthread_mutex_unlock(&w->lock);
}

uint64_t worker_wake_at(const struct worker *w, uint64_t now)
{
	if (w->paused)
		return now + NS_PER_SEC;   /* no rotation: the resume nudges us */
	return w->next_rotate_ns;
}

bool worker_tick(struct worker *w)
{
	/* stop first: worker_stop() is called after the last flush request,
	 * so seeing stop guarantees seeing that request. */
	int stopping = __atomic_load_n(&w->stop, __ATOMIC_ACQUIRE);
	uint64_t seq = __atomic_load_n(&w->flush_seq, __ATOMIC_ACQUIRE);
	uint64_t now;

	if (seq != w->done_seq) {
		/* The last cut: the tails periodic turns left for their next
		 * clock sample have none to wait for (attrib.h's sums hold). */
		if (stopping && w->mode.periodic) {
			drain(w, UINT64_MAX);
			settle_tails(w, now_ns(w), w->col->n_groups);
		}
		cut(w, seq);
		w->done_seq = seq;
	}
	if (stopping)
		return false;
	apply_pause(w);
	now = now_ns(w);
	if (now >= w->next_rotate_ns && !w->paused) {
		uint64_t rotate_ns = __atomic_load_n(&w->rotate_ns, __ATOMIC_RELAXED);
		int hold = __atomic_load_n(&w->review_hold, __ATOMIC_RELAXED);

		if (hold != 0)
			cost_budget_rebase(&w->mode, now, w->at.switches_counted);
		else
			review_sampling_mode(w, now);
		rotate(w);
		if (hold != 0) {
			/* the held time (up to this tick) is not part of the
			 * next review's rate; once released, one more tick */
			rebase_switch_review(w, now);
			if (hold == REVIEW_RELEASED)
				__atomic_compare_exchange_n(&w->review_hold, &hold, 0, false,
							    __ATOMIC_RELAXED, __ATOMIC_RELAXED);
		} else if (w->mode.periodic) {
			/* no switch samples, no unsampled switches: nothing
			 * to review, and the records stay closed */
			publish_switch_rate(w, now);
			rebase_switch_review(w, now);
		} else {
			/* (not while held: a calibration's burst is not this
			 * host's rate, for this worker or the others) */
			publish_switch_rate(w, now);
			review_switch_records(w, now);
		}
		w->next_rotate_ns += rotate_ns;
		if (w->next_rotate_ns <= now)
			w->next_rotate_ns = now + rotate_ns;
	} else {
		drain(w, UINT64_MAX);
	}
	return true;
}

void worker_end(struct worker *w)
{
	for (unsigned g = 0; g < w->col->n_groups; g++)
		group_ioctl(w, g, PERF_EVENT_IOC_DISABLE);
	if (w->switch_records)
		set_switch_records(w, false);
	w->running = false;
	/* a stopped CPU switches at no rate we know: its last one must not
	 * keep the other CPUs' switch records closed (switch_records.h) */
	__atomic_store_n(&w->ev->switch_rate, 0, __ATOMIC_RELAXED);
}

static void *worker_main(void *arg)
{
	struct worker *w = arg;
	struct pollfd pfd[2];

	setup_thread(w);
	worker_begin(w);
	pfd[0].fd = w->ev->side_fd;
	pfd[0].events = POLLIN;
	pfd[1].fd = w->cmd_fd;
	pfd[1].events = POLLIN;

	for (;;) {
		uint64_t now = now_ns(w);
		uint64_t wake = worker_wake_at(w, now);
		uint64_t wait = wake > now ? wake - now : 0;
		struct timespec ts = { (time_t)(wait / NS_PER_SEC), (long)(wait % NS_PER_SEC) };

		if (ppoll(pfd, 2, &ts, NULL) > 0) {
			if (pfd[1].revents & POLLIN) {
				uint64_t v;

				(void)!read(w->cmd_fd, &v, sizeof(v));
			}
			/* A dead ring fd would make ppoll return at once forever. */
			if (pfd[0].revents & (POLLHUP | POLLERR | POLLNVAL))
				pfd[0].fd = -1;
		}
		if (!worker_tick(w))
			break;
	}
	worker_end(w);
	return NULL;
}

int worker_init(struct worker *w, struct collector *col, struct cpu_events *ev,
		uint64_t rotate_ns, int32_t self_pid)
{
	pthread_condattr_t ca;

	memset(w, 0, sizeof(*w));
	w->col = col;
	w->ev = ev;
	w->rotate_ns = rotate_ns;
	w->self_pid = self_pid;
	w->period_rng = (uint64_t)ev->cpu + 1;
	w->cmd_fd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
	if (w->cmd_fd < 0)
		return -errno;
	w->cur = handover_new(ev->cpu, &col->exits);
	if (w->cur == NULL) {
		close(w->cmd_fd);
		return -ENOMEM;
	}
	attrib_init(&w->at, col->layout, col->n_groups, self_pid, &w->cur->acc);
	pthread_mutex_init(&w->lock, NULL);
	pthread_condattr_init(&ca);
	pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
	pthread_cond_init(&w->cond, &ca);
	pthread_condattr_destroy(&ca);
	return 0;
}

int worker_start(struct worker *w)
{
	int r = pthread_create(&w->thread, NULL, worker_main, w);

	if (r != 0)
		return -r;
	w->started = true;
	return 0;
}

static void nudge(struct worker *w)
{
	uint64_t one = 1;

	(void)!write(w->cmd_fd, &one, sizeof(one));
}

void worker_request_flush(struct worker *w, uint64_t seq)
{
	__atomic_store_n(&w->flush_seq, seq, __ATOMIC_RELEASE);
	nudge(w);
}

struct handover *worker_collect(struct worker *w, uint64_t seq, uint64_t deadline_ns,
				bool *ret_timed_out)
{
	struct handover *list;
	struct timespec ts = { (time_t)(deadline_ns / NS_PER_SEC),
			       (long)(deadline_ns % NS_PER_SEC) };
	bool timed_out = false;

	pthread_mutex_lock(&w->lock);
	while (w->posted_seq < seq) {
		if (pthread_cond_timedwait(&w->cond, &w->lock, &ts) == ETIMEDOUT) {
			timed_out = w->posted_seq < seq;
			break;
		}
	}
	list = w->ready;
	w->ready = NULL;
	pthread_mutex_unlock(&w->lock);
	if (ret_timed_out != NULL)
		*ret_timed_out = timed_out;
	return list;
}

void worker_recycle(struct worker *w, struct handover *h)
{
	struct handover *s;
	unsigned n = 0;

	pthread_mutex_lock(&w->lock);
	for (s = w->spare; s != NULL; s = s->next)
		n++;
	if (n < WORKER_MAX_SPARES) {
		h->next = w->spare;
		w->spare = h;
		h = NULL;
	}
	pthread_mutex_unlock(&w->lock);
	handover_free(h);
}

void worker_hold_review(struct worker *w, bool on)
{
	/* released: the worker re-baselines at its next tick before reviewing
	 * again, so no held time reaches a review */
	__atomic_store_n(&w->review_hold, on ? REVIEW_HELD : REVIEW_RELEASED, __ATOMIC_RELAXED);
}

bool worker_pause(struct worker *w, bool on, uint64_t deadline_ns)
{
	struct timespec ts = { (time_t)(deadline_ns / NS_PER_SEC),
			       (long)(deadline_ns % NS_PER_SEC) };
	bool done;

	__atomic_store_n(&w->pause, on ? 1 : 0, __ATOMIC_RELEASE);
	nudge(w);
	pthread_mutex_lock(&w->lock);
	while (w->pause_applied != (on ? 1 : 0))
		if (pthread_cond_timedwait(&w->cond, &w->lock, &ts) == ETIMEDOUT)
			break;
	done = w->pause_applied == (on ? 1 : 0);
	pthread_mutex_unlock(&w->lock);
	return done;
}

void worker_set_rotate(struct worker *w, uint64_t rotate_ns)
{
	__atomic_store_n(&w->rotate_ns, rotate_ns, __ATOMIC_RELAXED);
}

void worker_set_budget(struct worker *w, double max_cost, double cost_ns)
{
	__atomic_store_n(&w->budget_ppm, max_cost > 0 ? (uint64_t)(max_cost * 1e6 + 0.5) : 0,
			 __ATOMIC_RELAXED);
	__atomic_store_n(&w->cost_ps, cost_ns > 0 ? (uint64_t)(cost_ns * 1e3 + 0.5) : 0,
			 __ATOMIC_RELAXED);
}

static uint64_t to_ps(double ns)
{
	return ns > 0 ? (uint64_t)(ns * 1e3 + 0.5) : 0;
}

void worker_set_periodic(struct worker *w, uint64_t period_ns, double clock_sample_ns,
			 double switch_count_ns)
{
	__atomic_store_n(&w->clock_period_ns, period_ns, __ATOMIC_RELAXED);
	__atomic_store_n(&w->clock_sample_ps, to_ps(clock_sample_ns), __ATOMIC_RELAXED);
	__atomic_store_n(&w->switch_count_ps, to_ps(switch_count_ns), __ATOMIC_RELAXED);
}

bool worker_periodic(const struct worker *w)
{
	return __atomic_load_n(&w->periodic_now, __ATOMIC_RELAXED) != 0;
}

void worker_stop(struct worker *w)
{
	__atomic_store_n(&w->stop, 1, __ATOMIC_RELEASE);
	nudge(w);
	if (w->started)
		pthread_join(w->thread, NULL);
	w->started = false;
}

void worker_done(struct worker *w)
{
	struct handover *h;

	if (w->started)
		worker_stop(w);
	handover_free(w->cur);
	while ((h = w->ready) != NULL) {
		w->ready = h->next;
		handover_free(h);
	}
	while ((h = w->spare) != NULL) {
		w->spare = h->next;
		handover_free(h);
	}
	if (w->cmd_fd >= 0)
		close(w->cmd_fd);
	pthread_mutex_destroy(&w->lock);
	pthread_cond_destroy(&w->cond);
	memset(w, 0, sizeof(*w));
	w->cmd_fd = -1;
}
