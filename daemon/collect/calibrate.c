/*
 * calibrate.c - the per-switch sampling cost, measured at start (see
 * calibrate.h).
 */
#include "daemon/collect/calibrate.h"
#include "daemon/collect/kernel_ops.h"
#include "lib/clock.h"

#include <errno.h>
#include <linux/perf_event.h>
#include <string.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <time.h>
#include <unistd.h>

struct bouncer {
	int cpu;
	int in, out;     /* read a byte from in, write it to out */
	int pinned;      /* 0 pinned, else errno */
};

static uint64_t mono_ns(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (uint64_t)t.tv_sec * NS_PER_SEC + (uint64_t)t.tv_nsec;
}

/* A thread's CPU time (its clock cid); -1 when it cannot be read. */
static int64_t cpu_ns(clockid_t cid)
{
	struct timespec t;

	if (clock_gettime(cid, &t) < 0)
		return -1;
	return (int64_t)t.tv_sec * (int64_t)NS_PER_SEC + t.tv_nsec;
}

/* The CPU times of a run's threads at one moment, summed; -1: unknown. */
static int64_t threads_ns(const clockid_t *clocks, unsigned n)
{
	int64_t sum = 0;
	unsigned i;

	for (i = 0; i < n; i++) {
		int64_t v = cpu_ns(clocks[i]);

		if (v < 0)
			return -1;
		sum += v;
	}
	return sum;
}

static int pin(int cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	return sched_setaffinity(0, sizeof(set), &set) < 0 ? errno : 0;
}

/* The echo side: returns each byte until its pipe closes. */
static void *echo(void *arg)
{
	struct bouncer *b = arg;
	char c;

	b->pinned = pin(b->cpu);
	while (read(b->in, &c, 1) == 1)
		if (write(b->out, &c, 1) != 1)
			break;
	return NULL;
}

/* The bouncing of one run from the calling thread (pinned already), with
 * clocks[n] the CPU clocks of its threads: *out's rate and share. */
static void bounce(int to, int back, const clockid_t *clocks, unsigned n,
		   struct calibrate_run *out)
{
	int64_t cpu0 = threads_ns(clocks, n), cpu1;
	uint64_t start = mono_ns(), n_trips = 0, wall;
	char c = 0;

	while (mono_ns() - start < CALIBRATE_RUN_NS) {
		if (write(to, &c, 1) != 1 || read(back, &c, 1) != 1)
			break;
		n_trips++;
	}
	cpu1 = threads_ns(clocks, n);
	wall = mono_ns() - start;
	out->rate = (double)n_trips * (double)NS_PER_SEC / (double)wall;
	out->share = cpu0 >= 0 && cpu1 >= cpu0 ? (double)(cpu1 - cpu0) / (double)wall : -1;
}

/* One run of CALIBRATE_RUN_NS, from a thread of its own pinned to cpu:
 * its rate and share (beside: a clock whose time counts as the run's own,
 * or NULL); rate 0 on failure. */
static struct calibrate_run one_run(int cpu, const clockid_t *beside)
{
	struct calibrate_run run = { 0, -1 };
	clockid_t clocks[3];
	int to[2], back[2];
	struct bouncer b;
	pthread_t t;

	if (pipe(to) < 0)
		return run;
	if (pipe(back) < 0) {
		close(to[0]);
		close(to[1]);
		return run;
	}
	b = (struct bouncer){ cpu, to[0], back[1], 0 };
	if (pthread_create(&t, NULL, echo, &b) == 0) {
		unsigned n = 0;

		clocks[n++] = CLOCK_THREAD_CPUTIME_ID;
		if (pthread_getcpuclockid(t, &clocks[n]) == 0)
			n++;
		if (beside != NULL)
			clocks[n++] = *beside;
		if (pin(cpu) == 0)
			bounce(to[1], back[0], clocks, n, &run);
		if (n < 2 + (beside != NULL ? 1u : 0u))
			run.share = -1;   /* the echo thread's time unknown */
		close(to[1]);   /* the echo thread reads EOF and ends */
		pthread_join(t, NULL);
		if (b.pinned != 0)
			run.rate = 0;
	} else {
		close(to[1]);
	}
	close(to[0]);
	close(back[0]);
	close(back[1]);
	return run;
}

/* Keep a run (a failed one, rate 0, too: it counts as a run made). */
static void add_run(struct calibrate_runs *r, struct calibrate_run run)
{
	if (r->n < CALIBRATE_RUNS)
		r->run[r->n++] = run;
}

double calibrate_best(const struct calibrate_runs *r, bool *credible, double *share)
{
	double best = 0, estimate = 0, best_share = -1, estimate_share = -1;
	unsigned i;

	for (i = 0; i < r->n; i++) {
		const struct calibrate_run *x = &r->run[i];

		if (x->rate <= 0)
			continue;
		if (x->share < 0 || x->share >= CALIBRATE_MIN_SHARE) {
			if (x->rate > best) {
				best = x->rate;
				best_share = x->share;
			}
		} else if (x->share > 0 && x->rate / x->share > estimate) {
			estimate = x->rate / x->share;
			estimate_share = x->share;
		}
	}
	*credible = best > 0 || estimate <= 0;
	*share = best > 0 ? best_share : estimate_share;
	return best > 0 ? best : estimate;
}

double calibrate_pingpong(int cpu, const clockid_t *beside, struct calibrate_runs *out)
{
	cpu_set_t saved;
	bool credible;
	double share;
	int i;

	out->n = 0;
	/* the runs pin the calling thread: put it back as it was after */
	if (sched_getaffinity(0, sizeof(saved), &saved) < 0)
		return 0;
	for (i = 0; i < CALIBRATE_RUNS; i++)
		add_run(out, one_run(cpu, beside));
	(void)sched_setaffinity(0, sizeof(saved), &saved);
	return calibrate_best(out, &credible, &share);
}

/* The figure of runs (when there are any, else *rate as set, credible):
 * into *rate; whether credible, and the lowest share so far into *share. */
static bool judge(const struct calibrate_runs *r, double *rate, double *share)
{
	bool credible = true;
	double s;

	if (r->n == 0)
		return true;
	*rate = calibrate_best(r, &credible, &s);
	if (s >= 0 && (*share < 0 || s < *share))
		*share = s;
	return credible;
}

/* "; the runs had 97% of cpu 1", or what a figure made under load is;
 * periodic mode's, measured at start only, in few words (the API reads
 * its method into 256 bytes). */
static void describe_share(const struct calibration *c, bool credible, double share,
			   bool periodic, char *buf, size_t len)
{
	if (share < 0)
		buf[0] = '\0';
	else if (credible)
		snprintf(buf, len, "; the runs had %.0f%% of cpu %d", 100.0 * share, c->cpu);
	else if (periodic)
		snprintf(buf, len, "; UNDER LOAD: runs had %.0f%% of cpu %d: estimates",
			 100.0 * share, c->cpu);
	else
		snprintf(buf, len, "; UNDER LOAD: the runs had %.0f%% of cpu %d at best, so the "
			 "rates are estimated for the whole CPU from the time they had; measured "
			 "again when the host is quiet", 100.0 * share, c->cpu);
}

void calibrate_finish(struct calibration *c)
{
	char load[200];

	c->share = -1;
	c->credible = judge(&c->off_runs, &c->off_per_s, &c->share);
	c->credible &= judge(&c->on_runs, &c->on_per_s, &c->share);
	if (c->off_per_s <= 0 || c->on_per_s <= 0) {
		c->cost_ns = -1;
		snprintf(c->method, sizeof(c->method), "not measured (the ping-pong threads could "
			 "not run on cpu %d)", c->cpu);
		return;
	}
	/* two switches per round trip; a faster run with sampling on is
	 * noise, and the cost then below what this method resolves: 0 */
	c->cost_ns = (1.0 / c->on_per_s - 1.0 / c->off_per_s) * (double)NS_PER_SEC / 2.0;
	if (c->cost_ns < 0)
		c->cost_ns = 0;
	describe_share(c, c->credible, c->share, false, load, sizeof(load));
	if (c->recheck)
		snprintf(c->method, sizeof(c->method), "same-CPU pipe ping-pong on cpu %d, re-checked "
			 "at %llu switches/s on the busiest CPU (its worker paused for the runs "
			 "without, its events open), best of %d x %llu ms: %.0f round trips/s without sampling, %.0f "
			 "with%s", c->cpu, (unsigned long long)c->rate, CALIBRATE_RUNS,
			 CALIBRATE_RUN_NS / 1000000ULL, c->off_per_s, c->on_per_s, load);
	else
		snprintf(c->method, sizeof(c->method), "same-CPU pipe ping-pong on cpu %d at start, "
			 "best of %d x %llu ms: %.0f round trips/s without sampling, %.0f with%s",
			 c->cpu, CALIBRATE_RUNS, CALIBRATE_RUN_NS / 1000000ULL, c->off_per_s,
			 c->on_per_s, load);
}

bool calibrate_better(const struct calibration *cur, const struct calibration *next)
{
	if (next->cost_ns < 0)
		return false;
	if (cur->cost_ns < 0 || next->credible)
		return true;
	if (cur->credible)
		return false;
	return next->cost_ns < cur->cost_ns;
}

/* A software event on cpu, opened disabled: the clock sampler or the
 * counting-only switch counter; -errno. */
static int open_beside(int cpu, const struct kernel_ops *k, bool clock, uint64_t clock_hz)
{
	struct perf_event_attr a;

	memset(&a, 0, sizeof(a));
	a.size = sizeof(a);
	a.type = PERF_TYPE_SOFTWARE;
	a.disabled = 1;
	if (clock) {
		a.config = PERF_COUNT_SW_CPU_CLOCK;
		a.sample_period = NS_PER_SEC / clock_hz;
		a.sample_type = PERF_SAMPLE_TID | PERF_SAMPLE_TIME;
	} else {
		a.config = PERF_COUNT_SW_CONTEXT_SWITCHES;
	}
	return k->perf_open(k->ctx, &a, -1, cpu, -1);
}

enum beside { BESIDE_NOTHING, BESIDE_CLOCK, BESIDE_COUNTER };

/* One run beside the event, opened for this run alone and closed after
 * it: opening a software switch event already turns the kernel's switch
 * hook on (perf_swevent_init), so a run without must have none open;
 * 0 when the event or the run could not run (*failed then set). */
static struct calibrate_run run_beside(const struct calibration *c, const struct kernel_ops *k,
				       enum beside what, bool *failed)
{
	struct calibrate_run run = { 0, -1 };
	int cpu = c->cpu;
	int fd = -1;

	if (what != BESIDE_NOTHING) {
		fd = open_beside(cpu, k, what == BESIDE_CLOCK, c->clock_hz);
		if (fd < 0 || k->ioctl(k->ctx, fd, PERF_EVENT_IOC_ENABLE, 0) < 0) {
			if (fd >= 0)
				k->close(k->ctx, fd);
			*failed = true;
			return run;
		}
	}
	run = one_run(cpu, NULL);
	if (fd >= 0) {
		(void)k->ioctl(k->ctx, fd, PERF_EVENT_IOC_DISABLE, 0);
		k->close(k->ctx, fd);
	}
	return run;
}

/* kernel.perf_event_max_sample_rate; 0 when it cannot be read. */
static long max_sample_rate(void)
{
	FILE *f = fopen("/proc/sys/kernel/perf_event_max_sample_rate", "re");
	long v = 0;

	if (f == NULL)
		return 0;
	if (fscanf(f, "%ld", &v) != 1)
		v = 0;
	fclose(f);
	return v;
}

uint64_t calibrate_clock_hz(long max_sample_rate)
{
	uint64_t half = max_sample_rate > 0 ? (uint64_t)max_sample_rate / 2 : 0;

	if (max_sample_rate <= 0 || half >= CALIBRATE_CLOCK_HZ)
		return CALIBRATE_CLOCK_HZ;
	return half > 0 ? half : 1;
}

void calibrate_periodic_runs(struct calibration *c, const struct kernel_ops *k)
{
	bool clock_failed = false, count_failed = false, nothing_failed = false, credible;
	cpu_set_t saved;
	double share;

	c->off_per_s = c->clock_per_s = c->count_per_s = 0;
	c->off_runs.n = c->clock_runs.n = c->count_runs.n = 0;
	c->clock_hz = calibrate_clock_hz(max_sample_rate());
	if (sched_getaffinity(0, sizeof(saved), &saved) < 0)
		return;
	/* interleaved: a disturbance that lasts (another task, the host)
	 * slows all three alike instead of one of them */
	for (int i = 0; i < CALIBRATE_PERIODIC_ROUNDS; i++) {
		struct calibrate_run off = run_beside(c, k, BESIDE_NOTHING, &nothing_failed);

		add_run(&c->off_runs, off);
		if (!clock_failed) {
			struct calibrate_run clock = run_beside(c, k, BESIDE_CLOCK, &clock_failed);

			/* The sampler's interrupts may be accounted to no
			 * thread (IRQ time accounting): the share of the run
			 * without, just before, stands for the CPU's then. */
			clock.share = off.share;
			add_run(&c->clock_runs, clock);
		}
		if (!count_failed)
			add_run(&c->count_runs, run_beside(c, k, BESIDE_COUNTER, &count_failed));
	}
	(void)sched_setaffinity(0, sizeof(saved), &saved);
	/* an event that failed once is not measured, even if a run before
	 * it succeeded: the figure would rest on fewer runs than stated */
	if (clock_failed)
		c->clock_runs.n = 0;
	if (count_failed)
		c->count_runs.n = 0;
	/* the figures as they stand; calibrate_finish_periodic judges them */
	c->off_per_s = calibrate_best(&c->off_runs, &credible, &share);
	c->clock_per_s = calibrate_best(&c->clock_runs, &credible, &share);
	c->count_per_s = calibrate_best(&c->count_runs, &credible, &share);
}

void calibrate_finish_periodic(struct calibration *c)
{
	double hz = c->clock_hz > 0 ? (double)c->clock_hz : (double)CALIBRATE_CLOCK_HZ;
	double share = -1;
	char load[80];

	c->clock_sample_ns = -1;
	c->switch_count_ns = -1;
	c->periodic_credible = judge(&c->off_runs, &c->off_per_s, &share);
	c->periodic_credible &= judge(&c->clock_runs, &c->clock_per_s, &share);
	c->periodic_credible &= judge(&c->count_runs, &c->count_per_s, &share);
	if (c->off_per_s <= 0 || c->clock_per_s <= 0 || c->count_per_s <= 0) {
		snprintf(c->clock_method, sizeof(c->clock_method), "not measured (the cpu-clock "
			 "sampler, the switch counter or the ping-pong could not run on cpu %d)",
			 c->cpu);
		return;
	}
	/* the share of the CPU the samples took, over the samples a second;
	 * two switches a round trip; faster beside them is noise: 0 */
	c->clock_sample_ns = (1.0 - c->clock_per_s / c->off_per_s) * (double)NS_PER_SEC / hz;
	if (c->clock_sample_ns < 0)
		c->clock_sample_ns = 0;
	c->switch_count_ns = (1.0 / c->count_per_s - 1.0 / c->off_per_s) * (double)NS_PER_SEC / 2.0;
	if (c->switch_count_ns < 0)
		c->switch_count_ns = 0;
	describe_share(c, c->periodic_credible, share, true, load, sizeof(load));
	snprintf(c->clock_method, sizeof(c->clock_method), "same-CPU pipe ping-pong on cpu %d "
		 "at start, best of %d x %llu ms each, interleaved: %.0f round trips/s beside a "
		 "%.0f Hz cpu-clock sampler, %.0f beside a switch counter, %.0f without%s", c->cpu,
		 CALIBRATE_PERIODIC_ROUNDS, CALIBRATE_RUN_NS / 1000000ULL, c->clock_per_s, hz,
		 c->count_per_s, c->off_per_s, load);
}

/* The figure in use is credible from now_ns on, or an estimate made under
 * load, to be measured again at the next quiet interval after a wait that
 * doubles with each such try. */
static void set_load(struct calibrate_trigger *t, uint64_t now_ns, bool credible)
{
	t->under_load = !credible;
	if (credible) {
		t->quiet_gap_ns = 0;
		return;
	}
	t->quiet_gap_ns = t->quiet_gap_ns == 0 ? CALIBRATE_QUIET_FIRST_NS : 2 * t->quiet_gap_ns;
	if (t->quiet_gap_ns > CALIBRATE_RECHECK_GAP_NS)
		t->quiet_gap_ns = CALIBRATE_RECHECK_GAP_NS;
	t->quiet_after_ns = now_ns + t->quiet_gap_ns;
}

void calibrate_trigger_init(struct calibrate_trigger *t, uint64_t now_ns, bool credible)
{
	t->base_rate = 0;
	t->last_ns = now_ns;
	t->off_since_ns = 0;
	t->skip = 0;
	t->quiet_gap_ns = 0;
	set_load(t, now_ns, credible);
}

static uint64_t floored(uint64_t rate)
{
	return rate > CALIBRATE_RATE_FLOOR ? rate : CALIBRATE_RATE_FLOOR;
}

bool calibrate_trigger_step(struct calibrate_trigger *t, uint64_t rate, bool quiet,
			    uint64_t start_ns, uint64_t end_ns)
{
	uint64_t r = floored(rate);

	if (t->skip > 0) {
		t->skip--;
		return false;
	}
	/* an estimate made under load: the first quiet interval in time */
	if (t->under_load && quiet && end_ns >= t->quiet_after_ns)
		return true;
	if (t->base_rate == 0) {   /* the first interval: the rate measured at */
		t->base_rate = r;
		return false;
	}
	if (r < t->base_rate * CALIBRATE_RECHECK_FACTOR &&
	    r * CALIBRATE_RECHECK_FACTOR > t->base_rate) {
		t->off_since_ns = 0;
		return false;
	}
	if (t->off_since_ns == 0)
		t->off_since_ns = start_ns;
	return end_ns >= t->off_since_ns + CALIBRATE_RECHECK_HOLD_NS &&
	       end_ns >= t->last_ns + CALIBRATE_RECHECK_GAP_NS;
}

void calibrate_trigger_done(struct calibrate_trigger *t, uint64_t rate, uint64_t now_ns,
			    bool credible)
{
	t->base_rate = floored(rate);
	t->last_ns = now_ns;
	t->off_since_ns = 0;
	t->skip = 1;
	set_load(t, now_ns, credible);
}
