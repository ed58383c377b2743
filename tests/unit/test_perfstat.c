/* perf stat -x, parsing: names normalise across perf, sysfs and libpfm4
 * spellings; -A lines of one event sum over CPUs, also with thousands of
 * lines per interval; the nth group naming an event takes its nth copy
 * (perf stat -e '{..}' -e '{..}' prints groups in order). */
#include "lib/model/model.h"
#include "lib/perfstat.h"
#include "test.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void names(void)
{
	char out[128];

	perfstat_normalise("IDQ_UOPS_NOT_DELIVERED:CORE", out, sizeof(out));
	CHECK_STR(out, "idq_uops_not_delivered.core");
	perfstat_normalise("cpu/topdown-fe-bound/", out, sizeof(out));
	CHECK_STR(out, "topdown-fe-bound");
	perfstat_normalise("cpu-cycles:u", out, sizeof(out));
	CHECK_STR(out, "cycles");
	perfstat_normalise("cpu/event=0x1a0,umask=0x1,cmask=0x6/", out, sizeof(out));
	CHECK_STR(out, "cpu/event=0x1a0,umask=0x1,cmask=0x6/");
}

/* 3000 CPUs x two copies of each skl td_l1 event, one -I interval. */
static void many_cpus(void)
{
	static const char *const ev[] = { "cycles", "instructions", "UOPS_ISSUED.ANY",
		"UOPS_RETIRED.RETIRE_SLOTS", "IDQ_UOPS_NOT_DELIVERED.CORE",
		"INT_MISC.RECOVERY_CYCLES" };
	static const unsigned val[] = { 1000, 1500, 2200, 2000, 800, 20 };
	struct group_sums sums[MODEL_MAX_GROUPS];
	struct ps_recording rec;
	char *buf = NULL, err[256];
	size_t len = 0;
	double secs;
	FILE *f = open_memstream(&buf, &len);
	unsigned copy, cpu, e;
	int td = model_group_index(&model_skl, "td_l1");

	CHECK(f != NULL && td >= 0);
	for (copy = 0; copy < 2; copy++)
		for (cpu = 0; cpu < 3000; cpu++)
			for (e = 0; e < 6; e++)
				fprintf(f, "1.000000000,CPU%u,%u,,%s,1000,100.00,,\n", cpu,
					val[e] * (copy + 1), ev[e]);
	fclose(f);
	f = fmemopen(buf, len, "r");
	CHECK(f != NULL);
	CHECK(perfstat_read(f, &rec, err, sizeof(err)) == 0);
	fclose(f);
	CHECK(rec.interval_mode);
	CHECK_EQ_U(rec.n, 1);
	CHECK_EQ_U(rec.iv[0].n, 12);  /* six events, two copies, CPUs summed */
	perfstat_group_sums(&rec, 0, &model_skl, sums, &secs);
	CHECK(sums[td].present);
	CHECK_EQ_U(sums[td].v[0], 1000ULL * 3000);  /* the first group: first copy */
	/* td_l2_fe_bs names IDQ_UOPS_NOT_DELIVERED.CORE second: second copy */
	{
		int g2 = model_group_index(&model_skl, "td_l2_fe_bs");

		CHECK(g2 >= 0);
		CHECK_EQ_U(sums[g2].v[2], 800ULL * 2 * 3000);
	}
	perfstat_free(&rec);
	free(buf);
}

int main(void)
{
	names();
	many_cpus();
	return 0;
}
