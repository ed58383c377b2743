/* The start's sampling-cost calibration (daemon/collect/calibrate.h): the cost per
 * sampled switch from two ping-pong rates, the cases it cannot measure,
 * and a real ping-pong on this machine's CPU 0 (no sampler: just that the
 * threads bounce and the caller's affinity comes back). */
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
	cpu_set_t before, after;

	CHECK(sched_getaffinity(0, sizeof(before), &before) == 0);
	CHECK(calibrate_pingpong(0) > 1000);   /* thousands of round trips a second */
	CHECK(sched_getaffinity(0, sizeof(after), &after) == 0);
	CHECK(CPU_EQUAL(&before, &after));
	CHECK(calibrate_pingpong(100000) == 0);   /* no such CPU: no run */
}

#define S 1000000000ULL

/* Feed one rate per 1 s interval from *now on, n times; the step (1-based)
 * that asked for a re-check, or 0. */
static unsigned feed(struct calibrate_trigger *t, uint64_t *now, uint64_t rate, unsigned n)
{
	unsigned i, due = 0;

	for (i = 1; i <= n; i++) {
		if (calibrate_trigger_step(t, rate, *now, *now + S) && due == 0)
			due = i;
		*now += S;
	}
	return due;
}

/* The re-check's trigger: a change by 4x either way that lasts 30 s, no
 * sooner than 10 minutes after the last calibration; not a shorter burst,
 * not a smaller change, not the re-check's own interval after it. */
static void test_trigger(void)
{
	struct calibrate_trigger t;
	uint64_t now = 1000 * S;

	calibrate_trigger_init(&t, now);
	CHECK_EQ_U(feed(&t, &now, 5000, 1), 0);          /* the base: 5000/s */
	CHECK_EQ_U(t.base_rate, 5000);
	CHECK_EQ_U(feed(&t, &now, 19999, 700), 0);       /* under 4x, ever */
	CHECK_EQ_U(feed(&t, &now, 20000, 29), 0);        /* 4x, 29 s */
	CHECK_EQ_U(feed(&t, &now, 5000, 1), 0);          /* back: starts over */
	CHECK_EQ_U(feed(&t, &now, 20000, 30), 30);       /* 30 s of 4x */
	calibrate_trigger_done(&t, 20000, now);
	CHECK_EQ_U(feed(&t, &now, 500000, 1), 0);        /* its own ping-pong */
	/* down by 4x: lasting, but 10 minutes must pass since the last */
	CHECK_EQ_U(feed(&t, &now, 5000, 598), 0);
	CHECK_EQ_U(feed(&t, &now, 5000, 2), 1);
	/* idle rates compare at the floor: 10/s against 900/s is no change */
	calibrate_trigger_init(&t, now);
	CHECK_EQ_U(feed(&t, &now, 10, 1), 0);
	CHECK_EQ_U(feed(&t, &now, 900, 1000), 0);
	CHECK_EQ_U(feed(&t, &now, 4000, 40), 30);
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
	test_pingpong();
	return 0;
}
