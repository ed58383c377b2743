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

/* Round trips per second of one run of CALIBRATE_RUN_NS, from a thread
 * of its own pinned to cpu; 0 on failure. */
static double one_run(int cpu)
{
	int to[2], back[2];
	struct bouncer b;
	pthread_t t;
	double rate = 0;
	char c = 0;

	if (pipe(to) < 0)
		return 0;
	if (pipe(back) < 0) {
		close(to[0]);
		close(to[1]);
		return 0;
	}
	b = (struct bouncer){ cpu, to[0], back[1], 0 };
	if (pthread_create(&t, NULL, echo, &b) == 0) {
		int pinned = pin(cpu);
		uint64_t start = mono_ns(), n = 0;

		while (pinned == 0 && mono_ns() - start < CALIBRATE_RUN_NS) {
			if (write(to[1], &c, 1) != 1 || read(back[0], &c, 1) != 1)
				break;
			n++;
		}
		rate = (double)n * (double)NS_PER_SEC / (double)(mono_ns() - start);
		close(to[1]);   /* the echo thread reads EOF and ends */
		pthread_join(t, NULL);
		if (pinned != 0 || b.pinned != 0)
			rate = 0;
	} else {
		close(to[1]);
	}
	close(to[0]);
	close(back[0]);
	close(back[1]);
	return rate;
}

double calibrate_pingpong(int cpu)
{
	cpu_set_t saved;
	double best = 0;
	int i;

	/* the runs pin the calling thread: put it back as it was after */
	if (sched_getaffinity(0, sizeof(saved), &saved) < 0)
		return 0;
	for (i = 0; i < CALIBRATE_RUNS; i++) {
		double r = one_run(cpu);

		if (r > best)
			best = r;
	}
	(void)sched_setaffinity(0, sizeof(saved), &saved);
	return best;
}

void calibrate_finish(struct calibration *c)
{
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
	if (c->recheck)
		snprintf(c->method, sizeof(c->method), "same-CPU pipe ping-pong on cpu %d, re-checked "
			 "at %llu switches/s on the busiest CPU (its worker paused for the runs "
			 "without, its events open), best of %d x %llu ms: %.0f round trips/s without sampling, %.0f "
			 "with", c->cpu, (unsigned long long)c->rate, CALIBRATE_RUNS,
			 CALIBRATE_RUN_NS / 1000000ULL, c->off_per_s, c->on_per_s);
	else
		snprintf(c->method, sizeof(c->method), "same-CPU pipe ping-pong on cpu %d at start, "
			 "best of %d x %llu ms: %.0f round trips/s without sampling, %.0f with",
			 c->cpu, CALIBRATE_RUNS, CALIBRATE_RUN_NS / 1000000ULL, c->off_per_s,
			 c->on_per_s);
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
static double run_beside(const struct calibration *c, const struct kernel_ops *k,
			 enum beside what, bool *failed)
{
	int cpu = c->cpu;
	int fd = -1;
	double rate;

	if (what != BESIDE_NOTHING) {
		fd = open_beside(cpu, k, what == BESIDE_CLOCK, c->clock_hz);
		if (fd < 0 || k->ioctl(k->ctx, fd, PERF_EVENT_IOC_ENABLE, 0) < 0) {
			if (fd >= 0)
				k->close(k->ctx, fd);
			*failed = true;
			return 0;
		}
	}
	rate = one_run(cpu);
	if (fd >= 0) {
		(void)k->ioctl(k->ctx, fd, PERF_EVENT_IOC_DISABLE, 0);
		k->close(k->ctx, fd);
	}
	return rate;
}

static void keep_best(double *best, double r)
{
	if (r > *best)
		*best = r;
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
	bool clock_failed = false, count_failed = false, nothing_failed = false;
	cpu_set_t saved;

	c->off_per_s = c->clock_per_s = c->count_per_s = 0;
	c->clock_hz = calibrate_clock_hz(max_sample_rate());
	if (sched_getaffinity(0, sizeof(saved), &saved) < 0)
		return;
	/* interleaved: a disturbance that lasts (another task, the host)
	 * slows all three alike instead of one of them */
	for (int i = 0; i < CALIBRATE_PERIODIC_ROUNDS; i++) {
		keep_best(&c->off_per_s, run_beside(c, k, BESIDE_NOTHING, &nothing_failed));
		if (!clock_failed)
			keep_best(&c->clock_per_s, run_beside(c, k, BESIDE_CLOCK,
							      &clock_failed));
		if (!count_failed)
			keep_best(&c->count_per_s, run_beside(c, k, BESIDE_COUNTER,
							      &count_failed));
	}
	(void)sched_setaffinity(0, sizeof(saved), &saved);
	/* an event that failed once is not measured, even if a run before
	 * it succeeded: the figure would rest on fewer runs than stated */
	if (clock_failed)
		c->clock_per_s = 0;
	if (count_failed)
		c->count_per_s = 0;
}

void calibrate_finish_periodic(struct calibration *c)
{
	double hz = c->clock_hz > 0 ? (double)c->clock_hz : (double)CALIBRATE_CLOCK_HZ;

	c->clock_sample_ns = -1;
	c->switch_count_ns = -1;
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
	snprintf(c->clock_method, sizeof(c->clock_method), "same-CPU pipe ping-pong on cpu %d "
		 "at start, best of %d x %llu ms each, interleaved: %.0f round trips/s beside a "
		 "%.0f Hz cpu-clock sampler, %.0f beside a switch counter, %.0f without", c->cpu,
		 CALIBRATE_PERIODIC_ROUNDS,
		 CALIBRATE_RUN_NS / 1000000ULL, c->clock_per_s, hz, c->count_per_s, c->off_per_s);
}

void calibrate_trigger_init(struct calibrate_trigger *t, uint64_t now_ns)
{
	t->base_rate = 0;
	t->last_ns = now_ns;
	t->off_since_ns = 0;
	t->skip = 0;
}

static uint64_t floored(uint64_t rate)
{
	return rate > CALIBRATE_RATE_FLOOR ? rate : CALIBRATE_RATE_FLOOR;
}

bool calibrate_trigger_step(struct calibrate_trigger *t, uint64_t rate, uint64_t start_ns,
			    uint64_t end_ns)
{
	uint64_t r = floored(rate);

	if (t->skip > 0) {
		t->skip--;
		return false;
	}
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

void calibrate_trigger_done(struct calibrate_trigger *t, uint64_t rate, uint64_t now_ns)
{
	t->base_rate = floored(rate);
	t->last_ns = now_ns;
	t->off_since_ns = 0;
	t->skip = 1;
}
