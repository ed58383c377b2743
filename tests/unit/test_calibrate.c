/* The start's sampling-cost calibration (daemon/calibrate.h): the cost per
 * sampled switch from two ping-pong rates, the cases it cannot measure,
 * and a real ping-pong on this machine's CPU 0 (no sampler: just that the
 * threads bounce and the caller's affinity comes back). */
#include "calibrate.h"
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

int main(void)
{
	test_finish();
	test_pingpong();
	return 0;
}
