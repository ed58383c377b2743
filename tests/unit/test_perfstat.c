/* perf stat -x, parsing as perf writes it: every aggregation shape (-A,
 * --per-core/-die/-socket/-node, --per-thread, each with and without -I;
 * shapes copied from perf 6.1's own output), comments and blank lines,
 * <not counted>, duration_time as the run's time, event names with
 * unquoted commas; events matched by what they count (Ice Lake's recovery
 * term, Zen 4's cmask event); per-row lines of one event summed, also with
 * thousands of lines per interval; the nth group naming an event takes its
 * nth copy, and "EV:k" is not one (the kernel's part of EV); every model's
 * --perf-command reads back with every event. */
#include "lib/model/model.h"
#include "cli/perfstat.h"
#include "test.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void read_text(const char *text, struct ps_recording *rec)
{
	char err[256];
	FILE *f = fmemopen((void *)(uintptr_t)text, strlen(text), "r");
	int r;

	CHECK(f != NULL);
	r = perfstat_read(f, rec, err, sizeof(err));
	if (r != 0)
		fprintf(stderr, "perfstat_read: %s\n", err);
	CHECK(r == 0);
	fclose(f);
}

/* Group and event index of a model's column. */
static void column_at(const struct model *m, const char *group, const char *column, int *g,
		      int *e)
{
	unsigned i;

	*g = model_group_index(m, group);
	CHECK(*g >= 0);
	for (i = 0; i < m->groups[*g].n_events; i++)
		if (strcmp(m->groups[*g].events[i].column, column) == 0) {
			*e = (int)i;
			return;
		}
	CHECK(!"no such column");
}

/* The sums of interval iv under m. */
static double sums_of(const struct ps_recording *rec, size_t iv, const struct model *m,
		      struct group_sums *sums)
{
	struct ps_match mt;
	double secs;

	CHECK(perfstat_match(rec, m, &mt) == 0);
	perfstat_group_sums(rec, &mt, iv, m, sums, &secs);
	perfstat_match_free(&mt);
	return secs;
}

/* One shape of perf's output (page-faults, cpu-migrations, task-clock);
 * what the first interval's page faults and seconds sum to, and the time
 * the faults group measured (seconds x running share; 0: not checked). */
struct shape {
	const char *what;
	const char *text;
	bool interval;
	size_t n_iv;
	uint64_t faults;
	double secs;
	uint64_t faults_ns;
};

static const struct shape shapes[] = {
	{ "plain", "# started on Tue Nov 24 06:00:02 2026\n\n"
	  "0.93,msec,task-clock,928825,100.00,0.009,CPUs utilized\n"
	  "76,,page-faults,928825,100.00,73.259,K/sec\n"
	  "1,,cpu-migrations,928825,100.00,1.077,K/sec\n", false, 1, 76, 0.00093, 930000 },
	{ "-A", "# started on Tue Nov 24 06:00:02 2026\n\n"
	  "CPU0,102.22,msec,task-clock,102215243,100.00,1.000,CPUs utilized\n"
	  "CPU1,102.25,msec,task-clock,102249108,100.00,1.000,CPUs utilized\n"
	  "CPU0,15,,page-faults,102215687,100.00,146.749,/sec\n"
	  "CPU1,14,,page-faults,102249624,100.00,136.921,/sec\n", false, 1, 29, 0.20447, 0 },
	{ "--per-core", "S0-D0-C0,2,101.73,msec,task-clock,101734535,100.00,1.000,CPUs utilized\n"
	  "S0-D0-C0,2,24,,page-faults,101735085,100.00,235.908,/sec\n"
	  "S0-D0-C1,2,101.75,msec,task-clock,101752004,100.00,1.000,CPUs utilized\n"
	  "S0-D0-C1,2,16,,page-faults,101752477,100.00,157.245,/sec\n", false, 1, 40, 0.20348, 0 },
	{ "--per-die", "S0-D0,4,204.00,msec,task-clock,203999949,100.00,2.000,CPUs utilized\n"
	  "S0-D0,4,30,,page-faults,204001277,100.00,147.059,/sec\n"
	  "S0-D1,4,4.00,msec,task-clock,203999949,100.00,2.000,CPUs utilized\n"
	  "S0-D1,4,3,,page-faults,204001277,100.00,147.059,/sec\n", false, 1, 33, 0.208, 0 },
	{ "--per-socket", "S0,2,203.70,msec,task-clock,203702396,100.00,2.000,CPUs utilized\n"
	  "S0,2,34,,page-faults,203702957,100.00,166.910,/sec\n"
	  "S1,2,3.70,msec,task-clock,203702396,100.00,2.000,CPUs utilized\n"
	  "S1,2,4,,page-faults,203702957,100.00,166.910,/sec\n", false, 1, 38, 0.2074, 0 },
	{ "--per-node", "N0,2,203.74,msec,task-clock,203744368,100.00,2.000,CPUs utilized\n"
	  "N0,2,34,,page-faults,203744722,100.00,166.876,/sec\n", false, 1, 34, 0.20374, 0 },
	{ "--per-thread", "sleep-32659,1.5,msec,task-clock,1500000,100.00,,\n"
	  "sleep-32659,<not counted>,,cpu-migrations,0,100.00,,\n"
	  "sleep-32659,7,,page-faults,1500000,100.00,,\n"
	  "my-app-4021,2.5,msec,task-clock,2500000,100.00,,\n"
	  "my-app-4021,5,,page-faults,2500000,100.00,,\n", false, 1, 12, 0.004, 0 },
	{ "-I -A", "# started on Tue Nov 24 06:00:03 2026\n\n"
	  "     0.100206453,CPU0,100.37,msec,task-clock,100369827,100.00,1.004,CPUs utilized\n"
	  "     0.100206453,CPU1,100.41,msec,task-clock,100408673,100.00,1.004,CPUs utilized\n"
	  "     0.100206453,CPU0,21,,page-faults,100370527,100.00,209.225,/sec\n"
	  "     0.100206453,CPU1,7,,page-faults,100408672,100.00,69.715,/sec\n"
	  "     0.200781321,CPU0,100.57,msec,task-clock,100572684,100.00,1.006,CPUs utilized\n"
	  "     0.200781321,CPU1,100.57,msec,task-clock,100573278,100.00,1.006,CPUs utilized\n"
	  "     0.200781321,CPU0,7,,page-faults,100572696,100.00,69.601,/sec\n"
	  "     0.200781321,CPU1,5,,page-faults,100573440,100.00,49.715,/sec\n",
	  true, 2, 28, 0.20078, 0 },
	{ "-I --per-core",
	  "     0.100240377,S0-D0-C0,1,100.62,msec,task-clock,100620908,100.00,1.006,CPUs utilized\n"
	  "     0.100240377,S0-D0-C0,1,9,,page-faults,100621857,100.00,89.444,/sec\n"
	  "     0.100240377,S0-D0-C1,1,100.62,msec,task-clock,100622297,100.00,1.006,CPUs utilized\n"
	  "     0.100240377,S0-D0-C1,1,15,,page-faults,100621726,100.00,149.072,/sec\n"
	  "     0.201022902,S0-D0-C0,1,100.81,msec,task-clock,100815060,100.00,1.008,CPUs utilized\n"
	  "     0.201022902,S0-D0-C0,1,7,,page-faults,100814789,100.00,69.434,/sec\n",
	  true, 2, 24, 0.20124, 0 },
	{ "-I --per-socket",
	  "     0.100186163,S0,2,200.85,msec,task-clock,200843803,100.00,2.008,CPUs utilized\n"
	  "     0.100186163,S0,2,31,,page-faults,200845621,100.00,154.348,/sec\n"
	  "     0.200785885,S0,2,201.14,msec,task-clock,201137848,100.00,2.011,CPUs utilized\n"
	  "     0.200785885,S0,2,12,,page-faults,201137250,100.00,59.661,/sec\n", true, 2, 31,
	  0.20085, 0 },
	{ "-I --per-thread",
	  "     0.100178241,sleep-32670,<not counted>,msec,task-clock,0,100.00,,\n"
	  "     0.100178241,sleep-32670,3,,page-faults,0,100.00,,\n"
	  "     0.100178241,sleep-32671,4,,page-faults,0,100.00,,\n"
	  "     0.200528053,sleep-32670,<not counted>,msec,task-clock,0,100.00,,\n"
	  "     0.200528053,sleep-32670,<not counted>,,page-faults,0,100.00,,\n", true, 2, 7,
	  0.100178241, 0 },  /* no task-clock counted: the -I step */
	{ "duration_time", "# started on Tue Nov 24 06:00:02 2026\n\n"
	  "76,,page-faults,928825,100.00,73.259,K/sec\n"
	  "101544198,ns,duration_time,101544198,100.00,109.325,G/sec\n", false, 1, 76, 0.101544198, 0 },
	{ "-r 3", "0.76,msec,task-clock,3.25%,762839,100.00,0.668,CPUs utilized\n"
	  "49,,page-faults,0.68%,762839,50.00,62.924,K/sec\n", false, 1, 49, 0.00076, 380000 },
	{ "-I --summary",
	  "     0.100144665,0.94,msec,task-clock,935437,100.00,0.009,CPUs utilized\n"
	  "     0.100144665,78,,page-faults,935437,100.00,83.383,K/sec\n"
	  "     0.150693880,0.04,msec,task-clock,40543,100.00,0.000,CPUs utilized\n"
	  "     0.150693880,0,,page-faults,40543,100.00,0.000,/sec\n"
	  "         summary,0.98,msec,task-clock,975980,100.00,0.006,CPUs utilized\n"
	  "         summary,78,,page-faults,975980,100.00,79.920,K/sec\n", true, 2, 78, 0.00094, 0 },
	{ "--per-thread S0-123", "S0-123,2.5,msec,task-clock,2500000,100.00,,\n"
	  "S0-123,5,,page-faults,2500000,100.00,,\n", false, 1, 5, 0.0025, 0 },
	{ "-A duration_time", "CPU0,15,,page-faults,101536173,100.00,1.000,/sec\n"
	  "CPU1,16,,page-faults,101547675,100.00,1.000,/sec\n"
	  "CPU0,101530490,ns,duration_time,101530490,100.00,999.944,M/sec\n"
	  "CPU1,101530490,ns,duration_time,101530490,100.00,999.944,M/sec\n", false, 1, 31,
	  0.10153049, 0 },  /* one wall time, however many rows show it */
};

static void shape_sums(void)
{
	struct group_sums sums[MODEL_MAX_GROUPS];
	struct ps_recording rec;
	size_t i;

	for (i = 0; i < sizeof(shapes) / sizeof(shapes[0]); i++) {
		const struct shape *s = &shapes[i];
		double secs;

		read_text(s->text, &rec);
		secs = sums_of(&rec, 0, &model_software, sums);
		if (rec.interval_mode != s->interval || rec.n != s->n_iv ||
		    sums[0].v[0] != s->faults || fabs(secs - s->secs) > 1e-5)
			fprintf(stderr, "%s: interval %d, %zu intervals, %llu faults, %.9f s\n",
				s->what, rec.interval_mode, rec.n, (unsigned long long)sums[0].v[0],
				secs);
		CHECK(rec.interval_mode == s->interval);
		CHECK_EQ_U(rec.n, s->n_iv);
		CHECK_EQ_U(sums[0].v[0], s->faults);
		CHECK(fabs(secs - s->secs) < 1e-5);
		CHECK(s->faults_ns == 0 || sums[0].task_clock_ns == s->faults_ns);
		perfstat_free(&rec);
	}
}

/* Ice Lake as perf writes its recovery term (unquoted commas) and with
 * the '@' form; it is stackd's INT_MISC.CLEARS_COUNT.  Modifiers are noted,
 * and the same ones make the '@' line a copy of the '/' ones. */
static void icelake(void)
{
	static const char text[] =
		"     1.000000000,CPU0,4000,,cycles:u,1000,100.00,,\n"
		"     1.000000000,CPU0,55,,cpu/INT_MISC.RECOVERY_CYCLES,cmask=1,edge/u,1000,100.00,,\n"
		"     1.000000000,CPU1,45,,cpu/INT_MISC.RECOVERY_CYCLES,cmask=1,edge/u,1000,100.00,,\n"
		"     1.000000000,CPU0,7,,cpu@INT_MISC.RECOVERY_CYCLES\\,cmask\\=1\\,edge@u,1000,"
		"100.00,,\n"
		"     1.000000000,CPU0,30,,MACHINE_CLEARS.COUNT,1000,100.00,,\n"
		"     1.000000000,CPU0,30,,branch-misses,1000,100.00,,\n";
	struct group_sums sums[MODEL_MAX_GROUPS];
	struct ps_recording rec;
	struct ps_match mt;
	char unused[256];
	int g, e, g2, e2;

	read_text(text, &rec);
	CHECK_EQ_U(rec.n_names, 4);  /* the '@' spelling is the same name */
	CHECK_EQ_U(rec.n_modifiers, 2);  /* "u" and none */
	column_at(&model_icl, "td_l2", "clears_count", &g, &e);
	column_at(&model_icl, "td_mem", "clears_count", &g2, &e2);
	sums_of(&rec, 0, &model_icl, sums);
	CHECK_EQ_U(sums[g].v[e], 100);  /* first copy: CPU0 + CPU1 */
	CHECK_EQ_U(sums[g2].v[e2], 7);  /* the second group's copy */
	CHECK(perfstat_match(&rec, &model_icl, &mt) == 0);
	CHECK_EQ_U(perfstat_unused(&rec, &mt, unused, sizeof(unused)), 1);
	CHECK_STR(unused, "branch-misses");
	perfstat_match_free(&mt);
	perfstat_free(&rec);
}

/* "EV:k" is the kernel's part of EV, not another copy of it: perf's
 * metrics read both (tma_info_system_kernel_utilization =
 * CPU_CLK_UNHALTED.THREAD_P:k / CPU_CLK_UNHALTED.THREAD), in either order,
 * and a model's event reads EV. */
static void modifiers_apart(void)
{
	static const char text[] =
		"300,,CPU_CLK_UNHALTED.THREAD_P:k,1000,100.00,,\n"
		"200,,INST_RETIRED.ANY_P:k,1000,100.00,,\n"
		"1000,,CPU_CLK_UNHALTED.THREAD,1000,100.00,,\n"
		"800,,cpu/INST_RETIRED.ANY_P/k,1000,100.00,,\n"
		"2000,,instructions,1000,100.00,,\n";
	struct group_sums sums[MODEL_MAX_GROUPS];
	struct ps_recording rec;
	int g, e;

	read_text(text, &rec);
	CHECK_EQ_U(rec.n_names, 4);  /* :k ones (instructions:k spelt twice), plain ones */
	CHECK_EQ_U(rec.iv[0].n, 5);
	CHECK_EQ_U(rec.n_modifiers, 2);
	column_at(&model_skl, "td_l1", "cycles", &g, &e);
	sums_of(&rec, 0, &model_skl, sums);
	CHECK_EQ_U(sums[g].v[e], 1000);
	column_at(&model_skl, "td_l1", "instructions", &g, &e);
	CHECK_EQ_U(sums[g].v[e], 2000);
	perfstat_free(&rec);
}

/* Zen 4: the cmask=0x6 event symbolic (perf's JSON name) or raw. */
static void zen4(void)
{
	static const char *const spellings[] = {
		"cpu/de_no_dispatch_per_slot.no_ops_from_frontend,cmask=0x6/",
		"cpu/event=0x1a0,umask=0x1,cmask=0x6/",
		"cpu/config=0x1060001a0/",
	};
	struct group_sums sums[MODEL_MAX_GROUPS];
	struct ps_recording rec;
	char text[512];
	size_t i;
	int g, e, gf, ef;

	column_at(&model_zen4, "td_l2_fe_bs", "fe_no_ops_cycles", &g, &e);
	column_at(&model_zen4, "td_l2_fe_bs", "fe_no_ops", &gf, &ef);
	for (i = 0; i < sizeof(spellings) / sizeof(spellings[0]); i++) {
		snprintf(text, sizeof(text), "S0,8,1000,,de_no_dispatch_per_slot.no_ops_from_frontend,"
			 "1,100.00,,\nS0,8,1000,,de_no_dispatch_per_slot.no_ops_from_frontend,"
			 "1,100.00,,\nS0,8,123,,%s,1,100.00,,\nS1,8,7,,%s,1,100.00,,\n",
			 spellings[i], spellings[i]);
		read_text(text, &rec);
		sums_of(&rec, 0, &model_zen4, sums);
		CHECK(!(sums[g].missing & (1u << e)));
		CHECK_EQ_U(sums[g].v[e], 130);
		CHECK_EQ_U(sums[gf].v[ef], 1000);  /* not mistaken for the cmask one */
		perfstat_free(&rec);
	}
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
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	unsigned copy, cpu, e;
	int td = model_group_index(&model_skl, "td_l1");
	int g2 = model_group_index(&model_skl, "td_l2_fe_bs");

	CHECK(f != NULL && td >= 0 && g2 >= 0);
	for (copy = 0; copy < 2; copy++)
		for (cpu = 0; cpu < 3000; cpu++)
			for (e = 0; e < 6; e++)
				fprintf(f, "1.000000000,CPU%u,%u,,%s,1000,100.00,,\n", cpu,
					val[e] * (copy + 1), ev[e]);
	fclose(f);
	read_text(buf, &rec);
	CHECK(rec.interval_mode);
	CHECK_EQ_U(rec.n, 1);
	CHECK_EQ_U(rec.iv[0].n, 12);  /* six events, two copies, CPUs summed */
	sums_of(&rec, 0, &model_skl, sums);
	CHECK(sums[td].present);
	CHECK_EQ_U(sums[td].v[0], 1000ULL * 3000);  /* the first group: first copy */
	/* td_l2_fe_bs names IDQ_UOPS_NOT_DELIVERED.CORE second: second copy */
	CHECK_EQ_U(sums[g2].v[2], 800ULL * 2 * 3000);
	perfstat_free(&rec);
	free(buf);
}

/* The events of a perf command: each -e '{a,b,...}' split at commas
 * outside a "pmu/.../" name.  Returns how many, into ev[]. */
static size_t command_events(char *cmd, char **ev, size_t max)
{
	size_t n = 0;
	char *p = cmd;

	while ((p = strstr(p, "-e '{")) != NULL) {
		char *end = strstr(p, "}'");
		bool in_pmu = false;

		CHECK(end != NULL);
		*end = '\0';
		p += strlen("-e '{");
		CHECK(n < max);
		ev[n++] = p;
		for (; *p != '\0'; p++) {
			if (*p == '/')
				in_pmu = !in_pmu;
			if (*p == ',' && !in_pmu) {
				*p = '\0';
				CHECK(n < max);
				ev[n++] = p + 1;
			}
		}
		p = end + 2;
	}
	return n;
}

/* Every model's --perf-command, recorded in perf's -I 1000 shape with
 * those very spellings, reads back with every event found, each group
 * taking its own copy. */
static void perf_command_round_trip(void)
{
	const struct model *const *all;
	size_t n_models, i;

	all = model_all(&n_models);
	for (i = 0; i < n_models; i++) {
		const struct model *m = all[i];
		struct group_sums sums[MODEL_MAX_GROUPS];
		struct ps_recording rec;
		struct ps_match mt;
		char *cmd = NULL, *text = NULL, *ev[MODEL_MAX_GROUPS * MODEL_MAX_EVENTS];
		size_t len = 0, tlen = 0, n, k;
		FILE *f = open_memstream(&cmd, &len);
		unsigned g, e;

		CHECK(f != NULL);
		perfstat_perf_command(m, f);
		fclose(f);
		CHECK(strncmp(cmd, "perf stat -x, -I 1000 ", 22) == 0);
		n = command_events(cmd, ev, sizeof(ev) / sizeof(ev[0]));
		f = open_memstream(&text, &tlen);
		CHECK(f != NULL);
		fprintf(f, "# started on Tue Nov 24 06:00:02 2026\n\n");
		for (k = 0; k < n; k++)
			fprintf(f, "     1.000123456,%zu,,%s,1000000,100.00,,\n", 1000 + k, ev[k]);
		fclose(f);
		read_text(text, &rec);
		CHECK(perfstat_match(&rec, m, &mt) == 0);
		if (mt.found != mt.n_events)
			fprintf(stderr, "%s: %u of %u events found\n", m->name, mt.found,
				mt.n_events);
		CHECK_EQ_U(mt.found, mt.n_events);
		perfstat_match_free(&mt);
		sums_of(&rec, 0, m, sums);
		for (g = 0, k = 0; g < m->n_groups; g++)
			for (e = 0; e < m->groups[g].n_events; e++, k++) {
				if (sums[g].v[e] != 1000 + k)
					fprintf(stderr, "%s: %s\n", m->name, ev[k]);
				CHECK_EQ_U(sums[g].v[e], 1000 + k);
			}
		CHECK_EQ_U(k, n);
		perfstat_free(&rec);
		free(text);
		free(cmd);
	}
}

int main(void)
{
	shape_sums();
	icelake();
	modifiers_apart();
	zen4();
	many_cpus();
	perf_command_round_trip();
	return 0;
}
