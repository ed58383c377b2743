/* /proc/stat's CPU lines (daemon/collect/cpustat.h): busy, idle and stolen
 * time in ns for one CPU or all, guest time not counted twice, a kernel
 * without the steal column, lines that are not there or make no sense;
 * the busy share between two reads; and this machine's own file. */
#include "daemon/collect/cpustat.h"
#include "test.h"

#include <errno.h>
#include <math.h>

static const char stat_text[] =
	"cpu  100 5 50 1000 20 3 2 10 40 0\n"
	"cpu0 60 5 30 400 10 2 1 6 40 0\n"
	"cpu1 40 0 20 600 10 1 1 4 0 0\n"
	"cpu10 1 1 1 1 1 1 1 1 0 0\n"
	"intr 12345 0 0\n"
	"ctxt 999\n";

int main(void)
{
	struct cpustat a, b;
	const uint64_t T = CPUSTAT_TICK_NS;

	CHECK(cpustat_parse(stat_text, -1, &a) == 0);
	CHECK_EQ_U(a.busy_ns, (100 + 5 + 50 + 3 + 2) * T);   /* guest 40 is in user */
	CHECK_EQ_U(a.idle_ns, (1000 + 20) * T);
	CHECK_EQ_U(a.steal_ns, 10 * T);
	CHECK(cpustat_parse(stat_text, 1, &a) == 0);
	CHECK_EQ_U(a.busy_ns, (40 + 20 + 1 + 1) * T);
	CHECK(cpustat_parse(stat_text, 10, &a) == 0);         /* not cpu1's line */
	CHECK_EQ_U(a.idle_ns, 2 * T);
	CHECK(cpustat_parse(stat_text, 2, &a) == -ENOENT);
	CHECK(cpustat_parse("cpu0 1 2\n", 0, &a) == -EINVAL);
	/* before Linux 2.6.11: no steal column */
	CHECK(cpustat_parse("cpu3 1 2 3 4 5 6 7\n", 3, &a) == 0);
	CHECK_EQ_U(a.steal_ns, 0);
	CHECK_EQ_U(a.busy_ns, (1 + 2 + 3 + 6 + 7) * T);

	/* 30 ticks busy and 10 stolen of 100: 40 % */
	a = (struct cpustat){ 100 * T, 500 * T, 10 * T };
	b = (struct cpustat){ 130 * T, 560 * T, 20 * T };
	CHECK(fabs(cpustat_busy_share(&a, &b) - 0.4) < 1e-12);
	CHECK(cpustat_busy_share(&a, &a) == 0);               /* no tick passed */
	CHECK(cpustat_busy_share(&b, &a) == 0);               /* backwards: nothing */

	CHECK(cpustat_read(-1, &a) == 0);
	CHECK(a.busy_ns + a.idle_ns > 0);
	CHECK(cpustat_read(0, &b) == 0);
	CHECK(cpustat_read(1 << 20, &b) == -ENOENT);
	return 0;
}
