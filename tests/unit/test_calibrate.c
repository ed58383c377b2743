/* The start's sampling-cost calibration (daemon/collect/calibrate.h): the cost per
 * sampled switch from two ping-pong rates, the cases it cannot measure,
 * runs judged by the share of the CPU they had (a calibration under load
 * is not believed: an estimate, re-checked when the host is quiet, never
 * replacing a credible figure), and a real ping-pong on this machine's
 * CPU 0 (no sampler: just that the threads bounce, time their share, and
 * the caller's affinity comes back). */
#include "daemon/collect/calibrate.h"
#include "daemon/collect/cost_budget.h"
#include "daemon/collect/kernel_ops.h"
#include "test.h"

#include <math.h>
#include <sched.h>
#include <string.h>

static void test_finish(void)
{
	struct calibration c;

	memset(&c, 0, sizeof(c));
	c.cpu = 3;
	c.off_per_s = 400000;   /* 2.5 us a round trip */
	c.on_per_s = 250000;    /* 4 us: 1.5 us more for two switches */
	calibrate_finish(&c);
	CHECK(fabs(c.cost_ns - 750.0) < 1e-6);
	CHECK(strstr(c.method, "cpu 3") != NULL);
	CHECK(strstr(c.method, "400000 round trips/s without sampling, 250000 with") != NULL);
	c.recheck = true;   /* a re-check says so, and at what rate */
	c.rate = 80000;
	calibrate_finish(&c);
	CHECK(fabs(c.cost_ns - 750.0) < 1e-6);
	CHECK(strstr(c.method, "re-checked at 80000 switches/s") != NULL);
	c.recheck = false;
	/* faster with sampling: noise below what the method resolves */
	c.on_per_s = 410000;
	calibrate_finish(&c);
	CHECK(c.cost_ns == 0);
	/* no run: not measured, and said so */
	c.on_per_s = 0;
	calibrate_finish(&c);
	CHECK(c.cost_ns < 0);
	CHECK(strstr(c.method, "not measured") != NULL);
}

static void test_pingpong(void)
{
	struct calibrate_runs runs;
	cpu_set_t before, after;
	clockid_t self = CLOCK_THREAD_CPUTIME_ID;
	unsigned i;

	CHECK(sched_getaffinity(0, sizeof(before), &before) == 0);
	CHECK(calibrate_pingpong(0, NULL, &runs) > 1000);   /* thousands of round trips a second */
	CHECK(sched_getaffinity(0, sizeof(after), &after) == 0);
	CHECK(CPU_EQUAL(&before, &after));
	CHECK_EQ_U(runs.n, CALIBRATE_RUNS);
	/* both threads' time over the wall time: some of one CPU, never more
	 * than all of it (a little slack for the clocks' reads) */
	for (i = 0; i < runs.n; i++)
		CHECK(runs.run[i].share > 0.01 && runs.run[i].share < 1.05);
	/* a clock beside the runs adds its thread's time (here the caller's
	 * own, which the runs also count: up to twice) */
	CHECK(calibrate_pingpong(0, &self, &runs) > 1000);
	for (i = 0; i < runs.n; i++)
		CHECK(runs.run[i].share > 0.01 && runs.run[i].share < 2.1);
	CHECK(calibrate_pingpong(100000, NULL, &runs) == 0);   /* no such CPU: no run */
}

/* Runs of rate r each, the share of the CPU each had (see calibrate.h). */
static struct calibrate_runs runs3(double r1, double s1, double r2, double s2, double r3,
				   double s3)
{
	struct calibrate_runs r = { { { r1, s1 }, { r2, s2 }, { r3, s3 } }, 3 };

	return r;
}

/* A figure from runs: the best run that had the CPU; where none had it,
 * the best rate for the whole CPU (rate / share), not credible; runs
 * whose share is unknown count as before (best of). */
static void test_best(void)
{
	struct calibrate_runs r;
	bool credible;
	double share;

	r = runs3(300000, 0.97, 390000, 0.99, 310000, 0.98);
	CHECK(calibrate_best(&r, &credible, &share) == 390000);
	CHECK(credible && share == 0.99);
	/* one run had the CPU, two did not: the one */
	r = runs3(200000, 0.5, 380000, 0.9, 250000, 0.6);
	CHECK(calibrate_best(&r, &credible, &share) == 380000);
	CHECK(credible);
	/* none had it: 220000 at 55 % of the CPU stands for 400000 */
	r = runs3(190000, 0.5, 220000, 0.55, 150000, 0.5);
	CHECK(fabs(calibrate_best(&r, &credible, &share) - 400000) < 1e-6);
	CHECK(!credible && share == 0.55);
	/* shares unknown: best of, as ever */
	r = runs3(200000, -1, 220000, -1, 0, -1);
	CHECK(calibrate_best(&r, &credible, &share) == 220000);
	CHECK(credible);
	r.n = 0;
	CHECK(calibrate_best(&r, &credible, &share) == 0);
}

/* The torture run's case: a host where a quiet start reads 593 ns per
 * switch (400000 round trips/s without sampling, 271297 with), started
 * under a 50 % CPU quota, every run getting half of the CPU.  Best-of the
 * rates (what the calibration took before) reads 1186 ns, twice the cost,
 * and CPUs would go periodic at half the rate they could sample exactly;
 * judged by their share, the runs give the quiet figure back - said to be
 * an estimate made under load - and a quiet re-check replaces it. */
static void test_under_load(void)
{
	struct calibration quota, quiet, noisy;

	memset(&quota, 0, sizeof(quota));
	quota.cpu = 1;
	quota.off_runs = runs3(190000, 0.48, 200000, 0.5, 180000, 0.47);
	quota.on_runs = runs3(135648, 0.5, 130000, 0.49, 120000, 0.46);
	calibrate_finish(&quota);
	CHECK(fabs(quota.cost_ns - 593) < 1);
	CHECK(!quota.credible);
	CHECK(fabs(quota.share - 0.5) < 1e-9);
	CHECK(strstr(quota.method, "UNDER LOAD: the runs had 50% of cpu 1 at best") != NULL);
	CHECK(fabs((1.0 / 135648 - 1.0 / 200000) * 1e9 / 2 - 1186) < 1);   /* best-of's */

	/* quiet: credible, and it replaces the estimate */
	memset(&quiet, 0, sizeof(quiet));
	quiet.cpu = 1;
	quiet.off_runs = runs3(400000, 0.99, 395000, 0.99, 380000, 0.97);
	quiet.on_runs = runs3(271297, 0.96, 260000, 0.95, 0, -1);
	calibrate_finish(&quiet);
	CHECK(fabs(quiet.cost_ns - 593) < 1);
	CHECK(quiet.credible);
	CHECK(strstr(quiet.method, "the runs had 96% of cpu 1") != NULL);
	CHECK(calibrate_better(&quota, &quiet));
	/* a later one under load (a fork storm's 2030 ns even after the
	 * correction) never replaces a credible figure ... */
	memset(&noisy, 0, sizeof(noisy));
	noisy.cpu = 1;
	noisy.off_runs = runs3(100000, 0.25, 90000, 0.2, 80000, 0.2);
	noisy.on_runs = runs3(40000, 0.2, 30000, 0.2, 20000, 0.1);
	calibrate_finish(&noisy);
	CHECK(!noisy.credible);
	CHECK(noisy.cost_ns > 1000);
	CHECK(!calibrate_better(&quiet, &noisy));
	/* ... and of two made under load the lower stands */
	CHECK(!calibrate_better(&quota, &noisy));
	CHECK(calibrate_better(&noisy, &quota));
	/* nothing measured never replaces; anything replaces nothing */
	noisy.cost_ns = -1;
	CHECK(!calibrate_better(&quota, &noisy));
	CHECK(calibrate_better(&noisy, &quota));
}

#define S 1000000000ULL

/* Feed one rate per 1 s interval from *now on, n times; the step (1-based)
 * that asked for a re-check, or 0. */
static unsigned feed_quiet(struct calibrate_trigger *t, uint64_t *now, uint64_t rate,
			   bool quiet, unsigned n)
{
	unsigned i, due = 0;

	for (i = 1; i <= n; i++) {
		if (calibrate_trigger_step(t, rate, quiet, *now, *now + S) && due == 0)
			due = i;
		*now += S;
	}
	return due;
}

static unsigned feed(struct calibrate_trigger *t, uint64_t *now, uint64_t rate, unsigned n)
{
	return feed_quiet(t, now, rate, false, n);
}

/* The re-check's trigger: a change by 4x either way that lasts 30 s, no
 * sooner than 10 minutes after the last calibration; not a shorter burst,
 * not a smaller change, not the re-check's own interval after it. */
static void test_trigger(void)
{
	struct calibrate_trigger t;
	uint64_t now = 1000 * S;

	calibrate_trigger_init(&t, now, true);
	CHECK_EQ_U(feed(&t, &now, 5000, 1), 0);          /* the base: 5000/s */
	CHECK_EQ_U(t.base_rate, 5000);
	CHECK_EQ_U(feed(&t, &now, 19999, 700), 0);       /* under 4x, ever */
	CHECK_EQ_U(feed(&t, &now, 20000, 29), 0);        /* 4x, 29 s */
	CHECK_EQ_U(feed(&t, &now, 5000, 1), 0);          /* back: starts over */
	CHECK_EQ_U(feed(&t, &now, 20000, 30), 30);       /* 30 s of 4x */
	calibrate_trigger_done(&t, 20000, now, true);
	CHECK_EQ_U(feed(&t, &now, 500000, 1), 0);        /* its own ping-pong */
	/* down by 4x: lasting, but 10 minutes must pass since the last */
	CHECK_EQ_U(feed(&t, &now, 5000, 598), 0);
	CHECK_EQ_U(feed(&t, &now, 5000, 2), 1);
	/* idle rates compare at the floor: 10/s against 900/s is no change */
	calibrate_trigger_init(&t, now, true);
	CHECK_EQ_U(feed(&t, &now, 10, 1), 0);
	CHECK_EQ_U(feed(&t, &now, 900, 1000), 0);
	CHECK_EQ_U(feed(&t, &now, 4000, 40), 30);
	/* a credible figure: quiet intervals ask for nothing */
	calibrate_trigger_done(&t, 4000, now, true);
	CHECK_EQ_U(feed_quiet(&t, &now, 4000, true, 700), 0);
}

/* A figure made under load is measured again at the first quiet interval
 * 30 s on; made under load again, after 60 s, 120 s, ... up to the 10
 * minutes of any re-check; once credible, no more. */
static void test_trigger_quiet(void)
{
	struct calibrate_trigger t;
	uint64_t now = 1000 * S;

	calibrate_trigger_init(&t, now, false);
	CHECK_EQ_U(feed_quiet(&t, &now, 5000, true, 29), 0);   /* too soon */
	CHECK_EQ_U(feed_quiet(&t, &now, 5000, false, 100), 0);  /* busy */
	CHECK_EQ_U(feed_quiet(&t, &now, 5000, true, 3), 1);
	calibrate_trigger_done(&t, 5000, now, false);            /* under load again */
	CHECK_EQ_U(feed_quiet(&t, &now, 5000, true, 1), 0);     /* its own interval */
	CHECK_EQ_U(feed_quiet(&t, &now, 5000, true, 100), 59);   /* 60 s after */
	calibrate_trigger_done(&t, 5000, now, false);
	CHECK_EQ_U(feed_quiet(&t, &now, 5000, true, 200), 120);
	for (int i = 0; i < 4; i++)                               /* 240, 480, 600, 600 */
		calibrate_trigger_done(&t, 5000, now, false);
	CHECK_EQ_U(t.quiet_gap_ns, CALIBRATE_RECHECK_GAP_NS);
	calibrate_trigger_done(&t, 5000, now, true);             /* quiet at last */
	CHECK_EQ_U(feed_quiet(&t, &now, 5000, true, 2000), 0);
}

/* Periodic mode's costs from the three rates. */
static void test_finish_periodic(void)
{
	struct calibration c;

	memset(&c, 0, sizeof(c));
	c.cpu = 1;
	c.off_per_s = 400000;
	c.clock_per_s = 300000;   /* 25 % of the CPU to 10,000 samples/s: 25 us each */
	c.count_per_s = 380000;   /* (1/380000 - 1/400000) s / 2 switches: 65.8 ns */
	calibrate_finish_periodic(&c);
	CHECK(fabs(c.clock_sample_ns - 25000.0) < 1e-6);
	CHECK(fabs(c.switch_count_ns - (1.0 / 380000 - 1.0 / 400000) * 1e9 / 2) < 1e-6);
	CHECK(strstr(c.clock_method, "300000 round trips/s beside a 10000 Hz cpu-clock "
		     "sampler, 380000 beside a switch counter, 400000 without") != NULL);
	c.clock_hz = 5000;        /* the same loss over half the samples: twice each */
	calibrate_finish_periodic(&c);
	CHECK(fabs(c.clock_sample_ns - 50000.0) < 1e-6);
	CHECK(strstr(c.clock_method, "beside a 5000 Hz cpu-clock") != NULL);
	c.clock_hz = 0;
	c.count_per_s = 410000;   /* faster beside it: below what the runs resolve */
	calibrate_finish_periodic(&c);
	CHECK(c.switch_count_ns == 0);
	c.clock_per_s = 0;        /* the sampler could not be opened */
	calibrate_finish_periodic(&c);
	CHECK(c.clock_sample_ns < 0 && c.switch_count_ns < 0);
	CHECK(strstr(c.clock_method, "not measured") != NULL);
}

/* The calibration's sampler: 10 kHz, or half the kernel's sample-rate
 * cap where that is lower (above it the kernel throttles the sampler). */
static void test_clock_hz(void)
{
	CHECK_EQ_U(calibrate_clock_hz(100000), CALIBRATE_CLOCK_HZ);
	CHECK_EQ_U(calibrate_clock_hz(20000), CALIBRATE_CLOCK_HZ);
	CHECK_EQ_U(calibrate_clock_hz(8000), 4000);
	CHECK_EQ_U(calibrate_clock_hz(1), 1);
	CHECK_EQ_U(calibrate_clock_hz(0), CALIBRATE_CLOCK_HZ);   /* unread */
	CHECK_EQ_U(calibrate_clock_hz(-5), CALIBRATE_CLOCK_HZ);
}

/* The clock period keeps the clock samples within a quarter of the budget,
 * between 1000 and 100 Hz; unmeasured or no budget: 1000 Hz. */
static void test_clock_period(void)
{
	CHECK_EQ_U(cost_budget_clock_period(1000, 0.02), COST_BUDGET_FASTEST_CLOCK_NS);
	CHECK_EQ_U(cost_budget_clock_period(28000, 0.02), 5600000);   /* 179 Hz: 0.5 % */
	CHECK_EQ_U(cost_budget_clock_period(28000, 0.01), COST_BUDGET_SLOWEST_CLOCK_NS);
	CHECK_EQ_U(cost_budget_clock_period(-1, 0.02), COST_BUDGET_FASTEST_CLOCK_NS);
	CHECK_EQ_U(cost_budget_clock_period(28000, 0), COST_BUDGET_FASTEST_CLOCK_NS);
	CHECK_EQ_U(cost_budget_clock_period(5000.75, 0.02), 1001000);   /* 1000150: whole us, up */
}

/* The real runs on this machine's CPU 0 (software events exist on any
 * kernel): a clock sampler at 10 kHz costs a measurable share, the caller's
 * affinity comes back, and a CPU that does not exist gives no figures. */
static void test_periodic_runs(void)
{
	struct calibration c;
	cpu_set_t before, after;

	memset(&c, 0, sizeof(c));
	CHECK(sched_getaffinity(0, sizeof(before), &before) == 0);
	calibrate_periodic_runs(&c, &kernel_ops_linux);
	CHECK(sched_getaffinity(0, sizeof(after), &after) == 0);
	CHECK(CPU_EQUAL(&before, &after));
	CHECK(c.off_per_s > 1000);
	CHECK(c.clock_hz > 0 && c.clock_hz <= CALIBRATE_CLOCK_HZ);
	if (c.clock_per_s > 0) {   /* perf_event_paranoid may forbid it to a user */
		/* a figure, and a sane one: 10 kHz of samples under 100 us
		 * each leaves the CPU more than nothing (on bare metal the
		 * loss is within the runs' noise, so no lower bound) */
		calibrate_finish_periodic(&c);
		CHECK(c.clock_sample_ns >= 0 && c.clock_sample_ns < 100000);
		CHECK(c.switch_count_ns >= 0);
	}
	memset(&c, 0, sizeof(c));
	c.cpu = 100000;
	calibrate_periodic_runs(&c, &kernel_ops_linux);
	CHECK(c.off_per_s == 0 && c.clock_per_s == 0 && c.count_per_s == 0);
}

int main(void)
{
	test_finish();
	test_finish_periodic();
	test_clock_hz();
	test_clock_period();
	test_periodic_runs();
	test_trigger();
	test_trigger_quiet();
	test_best();
	test_under_load();
	test_pingpong();
	return 0;
}
