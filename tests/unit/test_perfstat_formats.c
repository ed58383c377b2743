/* perf stat's three output formats as perf writes them (format strings of
 * tools/perf/util/stat-display.c, Linux 7.2; lines copied from this VM's
 * perf 6.1 where software events show them): the default text with its
 * metric column, continuation lines, multiplexing share, <not counted>,
 * thousands separators, -I and -A prefixes, perf >= 6.5's metric-group
 * headers; -x, metric rows (",,,,,figure,unit") and group header rows
 * (",run,pct,,,,NAME"); -j JSON lines.  Each count lands in its interval
 * with perf's figures beside it; a hybrid's cpu_core/ and cpu_atom/ counts
 * stay apart; what is not perf's is skipped and counted, a bad count names
 * its line. */
#include "cli/perfstat.h"
#include "test.h"

#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <string.h>

static int read_text(const char *text, struct ps_recording *rec, char *err, size_t len)
{
	FILE *f = fmemopen((void *)(uintptr_t)text, strlen(text), "r");
	int r;

	CHECK(f != NULL);
	r = perfstat_read(f, rec, err, len);
	fclose(f);
	return r;
}

static void read_ok(const char *text, struct ps_recording *rec)
{
	char err[256];

	if (read_text(text, rec, err, sizeof(err)) != 0) {
		fprintf(stderr, "perfstat_read: %s\n", err);
		CHECK(!"read failed");
	}
}

/* The interval's count of the name spelled so (its first copy). */
static const struct ps_count *count(const struct ps_recording *rec, size_t iv, const char *name)
{
	size_t i;

	for (i = 0; i < rec->iv[iv].n; i++)
		if (strcmp(rec->names[rec->iv[iv].counts[i].name].spelling, name) == 0)
			return &rec->iv[iv].counts[i];
	return NULL;
}

static bool near(double a, double b)
{
	return fabs(a - b) <= 1e-9 * fmax(1, fabs(b));
}

/* perf 6.1 on this VM: perf stat -e task-clock,context-switches,page-faults */
static void human_plain(void)
{
	struct ps_recording rec;

	read_ok("\n Performance counter stats for 'sleep 0.1':\n\n"
		"              8.78 msec task-clock                       #    0.075 CPUs utilized          \n"
		"                 3      context-switches                 #  341.716 /sec                   \n"
		"                75      page-faults                      #    8.543 K/sec                  \n"
		"   <not supported>      cycles                                                      \n"
		"\n       0.116450663 seconds time elapsed\n\n"
		"       0.011418000 seconds user\n       0.005709000 seconds sys\n\n", &rec);
	CHECK_EQ_U(rec.n, 1);
	CHECK(!rec.interval_mode);
	CHECK(near(count(&rec, 0, "task-clock")->value, 8.78e6));
	CHECK(near(count(&rec, 0, "task-clock")->err, 0.005e6));
	CHECK(near(count(&rec, 0, "page-faults")->value, 75));
	CHECK(!count(&rec, 0, "cycles")->counted);
	CHECK(near(rec.elapsed, 0.116450663));
	CHECK_EQ_U(rec.n_printed, 3);
	CHECK_STR(rec.printed[1].name, "/sec");
	CHECK_STR(rec.printed[1].event, "context-switches");
	CHECK(near(rec.printed[1].value, 341.716));
	CHECK_EQ_U(rec.printed[1].decimals, 3);
	CHECK_STR(rec.printed[2].name, "K/sec");
	CHECK_EQ_U(rec.n_skipped, 0);
	perfstat_free(&rec);
}

/* Thousands separators ("%'18.0f"), a table metric's "%8.1f" then "%  name"
 * with further metrics on lines of their own, a multiplexed event's
 * "  (50.00%)", a metric line a paste left at column 0 ("#  ..."). */
static void human_metrics(void)
{
	struct ps_recording rec;

	read_ok("# started on Sat Nov 28 10:00:00 2026\n"
		"     8,012,345,678      TOPDOWN.SLOTS                    #     30.0 %  tma_backend_bound      \n"
		"                                                         #     35.0 %  tma_retiring           \n"
		"#     10.5 %  tma_bad_speculation\n"
		"     3,012,345,678      cpu_atom/CPU_CLK_UNHALTED.CORE/  #     25.0 %  tma_backend_bound        (50.00%)\n"
		"     3,765,432,109      cpu_atom/TOPDOWN_BE_BOUND.ALL/    (50.00%)\n"
		"       721,000,000      cpu_atom/instructions/           #     0.24  insn per cycle             (50.00%)\n"
		"     3,012,345,678      CPU_CYCLES                       #     23.6 percent of slots  frontend_bound\n",
		&rec);
	CHECK(near(count(&rec, 0, "TOPDOWN.SLOTS")->value, 8012345678.0));
	CHECK(near(count(&rec, 0, "cpu_atom/TOPDOWN_BE_BOUND.ALL/")->running, 0.5));
	CHECK_EQ_U(rec.n_printed, 6);
	CHECK_STR(rec.printed[1].name, "tma_retiring");
	CHECK_STR(rec.printed[1].event, "TOPDOWN.SLOTS");
	CHECK(rec.printed[1].percent);
	CHECK_STR(rec.printed[2].name, "tma_bad_speculation");
	CHECK_STR(rec.printed[3].pmu, "cpu_atom");
	CHECK_STR(rec.printed[4].name, "insn per cycle");
	CHECK(!rec.printed[4].percent);
	CHECK_EQ_U(rec.printed[4].decimals, 2);
	CHECK_STR(rec.printed[5].name, "frontend_bound");
	CHECK(rec.printed[5].percent);
	perfstat_free(&rec);
}

/* perf 6.1 on this VM: perf stat -I 50 -A -a (the -I header, "%6lu.%09lu "
 * times, "CPU%-*d" rows summed per interval) and --per-core ("S0-D0-C0"
 * then the CPUs it has, "<not counted>" after it). */
static void human_rows(void)
{
	struct ps_recording rec;

	read_ok("#           time CPU                    counts unit events\n"
		"     0.050422228 CPU0                    50.72 msec task-clock                       #    1.014 CPUs utilized          \n"
		"     0.050422228 CPU1                    50.74 msec task-clock                       #    1.015 CPUs utilized          \n"
		"     0.050422228 CPU0                       39      context-switches                 #  768.972 /sec                   \n"
		"     0.050422228 CPU1                       22      context-switches                 #  433.573 /sec                   \n"
		"     0.106422328 CPU0                    57.30 msec task-clock                       #    1.146 CPUs utilized          \n"
		"     0.106422328 CPU0                       64      context-switches                 #    1.117 K/sec                  \n",
		&rec);
	CHECK(rec.interval_mode);
	CHECK_EQ_U(rec.n, 2);
	CHECK(near(rec.iv[1].time, 0.106422328));
	CHECK(near(count(&rec, 0, "context-switches")->value, 61));
	CHECK(near(count(&rec, 0, "task-clock")->value, 101.46e6));
	CHECK_STR(rec.printed[0].row, "CPU0");
	perfstat_free(&rec);
	read_ok("S0-D0-C0           1             109.10 msec task-clock                       #    0.970 CPUs utilized          \n"
		"S0-D0-C0           1                 34      context-switches                 #  311.653 /sec                   \n"
		"S0-D0-C1           1                 31      context-switches                 #  275.402 /sec                   \n"
		"S0-D0-C1           0      <not counted> ns   duration_time                                               \n",
		&rec);
	CHECK(near(count(&rec, 0, "context-switches")->value, 65));
	CHECK(!count(&rec, 0, "duration_time")->counted);
	perfstat_free(&rec);
}

/* perf >= 6.5's default metric groups: the group's name where the count
 * would be ("TopdownL1 (cpu_core)" on a hybrid), its metrics below. */
static void human_group_header(void)
{
	struct ps_recording rec;

	read_ok("     1,336,000,000      cpu_core/cycles/                 #    1.334 GHz\n"
		"             TopdownL1 (cpu_core)                 #     22.8 %  tma_backend_bound\n"
		"                                                  #     11.6 %  tma_bad_speculation\n"
		"             TopdownL1 (cpu_atom)                 #     20.1 %  tma_bad_speculation\n",
		&rec);
	CHECK_EQ_U(rec.n_printed, 4);
	CHECK_STR(rec.printed[1].pmu, "cpu_core");
	CHECK_STR(rec.printed[1].event, "");
	CHECK_STR(rec.printed[2].pmu, "cpu_core");
	CHECK_STR(rec.printed[3].pmu, "cpu_atom");
	perfstat_free(&rec);
}

/* -x,: a metric row after its event's, a group header row, with -I and a
 * --per-core id (print_metric_csv, new_line_csv's four separators,
 * print_metricgroup_header_csv). */
static void csv_metric_rows(void)
{
	struct ps_recording rec;

	read_ok("24012345678,,TOPDOWN.SLOTS,1000123456,100.00,35.0,%  tma_backend_bound\n"
		",,,,,40.0,%  tma_retiring\n"
		",1001320000,100.00,,,,TopdownL1 (cpu_core)\n"
		",,,,,22.8,%  tma_backend_bound\n", &rec);
	CHECK_EQ_U(rec.n_printed, 3);
	CHECK_STR(rec.printed[1].name, "tma_retiring");
	CHECK_STR(rec.printed[1].event, "TOPDOWN.SLOTS");
	CHECK_STR(rec.printed[2].pmu, "cpu_core");
	perfstat_free(&rec);
	read_ok("1.001002003,S0-D0-C0,2,24012345678,,TOPDOWN.SLOTS,1000123456,100.00,35.0,%  tma_backend_bound\n"
		"1.001002003,S0-D0-C0,2,,,,,,40.0,%  tma_retiring\n"
		"2.002003004,S0-D0-C0,2,12006172839,,TOPDOWN.SLOTS,1000123456,100.00,35.0,%  tma_backend_bound\n",
		&rec);
	CHECK_EQ_U(rec.n, 2);
	CHECK_EQ_U(rec.n_printed, 3);
	CHECK_EQ_U(rec.printed[1].interval, 0);
	CHECK_STR(rec.printed[1].row, "S0-D0-C0");
	CHECK_EQ_U(rec.printed[2].interval, 1);
	perfstat_free(&rec);
}

/* -j: perf 6.1 on this VM (bare metric-value), perf 7.2's quoted one, -I,
 * -A's "cpu", a metric-only line, a group header, <not counted>. */
static void json_lines(void)
{
	struct ps_recording rec;

	read_ok("{\"counter-value\" : \"3.590402\", \"unit\" : \"msec\", \"event\" : \"task-clock\", "
		"\"event-runtime\" : 3590402, \"pcnt-running\" : 100.00, \"metric-value\" : 0.032591, "
		"\"metric-unit\" : \"CPUs utilized\"}\n"
		"{\"counter-value\" : \"74.000000\", \"unit\" : \"\", \"event\" : \"page-faults\", "
		"\"event-runtime\" : 3590402, \"pcnt-running\" : 50.00, \"metric-value\" : \"20.610505\", "
		"\"metric-unit\" : \"K/sec\"}\n"
		"{\"metric-value\" : \"37.700000\", \"metric-unit\" : \"%  tma_backend_bound\"}\n"
		"{\"counter-value\" : \"<not counted>\", \"unit\" : \"\", \"event\" : \"cycles\", "
		"\"event-runtime\" : 0, \"pcnt-running\" : 0.00}\n", &rec);
	CHECK(near(count(&rec, 0, "task-clock")->value, 3.590402e6));
	CHECK(near(count(&rec, 0, "page-faults")->running, 0.5));
	CHECK(!count(&rec, 0, "cycles")->counted);
	CHECK_EQ_U(rec.n_printed, 3);
	CHECK_STR(rec.printed[2].name, "tma_backend_bound");
	CHECK_STR(rec.printed[2].event, "page-faults");
	perfstat_free(&rec);
	read_ok("{\"interval\" : 0.100888039, \"cpu\" : \"1\", \"counter-value\" : \"7.000000\", "
		"\"unit\" : \"\", \"event\" : \"page-faults\", \"event-runtime\" : 1, "
		"\"pcnt-running\" : 100.00}\n"
		"{\"interval\" : 0.100888039, \"cpu\" : \"0\", \"counter-value\" : \"5.000000\", "
		"\"unit\" : \"\", \"event\" : \"page-faults\", \"event-runtime\" : 1, "
		"\"pcnt-running\" : 100.00}\n"
		"{\"interval\" : 0.100888039, \"event-runtime\" : 1, \"pcnt-running\" : 100.00, "
		"\"metricgroup\" : \"TopdownL1\"}\n", &rec);
	CHECK(rec.interval_mode);
	CHECK(near(count(&rec, 0, "page-faults")->value, 12));
	perfstat_free(&rec);
}

/* A hybrid's counts of one event on each core PMU stay two counts, and a
 * PMU's part reads them without the prefix (perf 6.1-6.2 spelled
 * "cpu_core/slots:u/"). */
static void hybrid_parts(void)
{
	struct ps_recording rec, core, atom;
	char pmus[4][16];

	read_ok("1336000000,,cpu_core/cycles/,1,100.00,,\n"
		"3012345678,,cpu_atom/cycles/,1,50.00,,\n"
		"8012345678,,cpu_core/slots:u/,1,100.00,,\n"
		"1.00,msec,task-clock,1,100.00,,\n", &rec);
	CHECK_EQ_U(perfstat_core_pmus(&rec, pmus, 4), 2);
	CHECK_STR(pmus[0], "cpu_core");
	CHECK_STR(pmus[1], "cpu_atom");
	CHECK(perfstat_pmu_part(&rec, "cpu_core", &core) == 0);
	CHECK(perfstat_pmu_part(&rec, "cpu_atom", &atom) == 0);
	CHECK_EQ_U(core.iv[0].n, 3);
	CHECK_EQ_U(atom.iv[0].n, 2);
	CHECK(near(count(&core, 0, "cpu/cycles/")->value, 1336000000.0));
	CHECK(near(count(&atom, 0, "cpu/cycles/")->value, 3012345678.0));
	CHECK_STR(core.names[2].key, "slots");
	CHECK(count(&atom, 0, "task-clock") != NULL);
	perfstat_free(&core);
	perfstat_free(&atom);
	perfstat_free(&rec);
}

/* perf 5.13-6.2's Top-Down level 2: two figures on one event's line
 * (lines of a perf 6.0 run on a Sapphire Rapids quoted in the kernel mail
 * "perf stat: Fix L2 Topdown metrics disappear for raw events", Zhengjun
 * Xing, 26 Aug 2022). */
static void human_two_figures(void)
{
	struct ps_recording rec;

	read_ok("         1,223,697      topdown-retiring                 #     23.1% Retiring\n"
		"           186,665      topdown-heavy-ops                #      3.5% Heavy Operations"
		"       #     19.6% Light Operations\n", &rec);
	CHECK_EQ_U(rec.n_printed, 3);
	CHECK_STR(rec.printed[1].name, "Heavy Operations");
	CHECK(near(rec.printed[1].value, 3.5) && rec.printed[1].percent);
	CHECK_STR(rec.printed[2].name, "Light Operations");
	CHECK(near(rec.printed[2].value, 19.6) && rec.printed[2].percent);
	CHECK_STR(rec.printed[2].event, "topdown-heavy-ops");
	CHECK(near(count(&rec, 0, "topdown-heavy-ops")->value, 186665));
	perfstat_free(&rec);
}

/* A line no format of perf's holds is skipped and counted; a count perf
 * cannot have printed names its line; the CPU id a comment names is kept. */
static void skips_and_errors(void)
{
	struct ps_recording rec;
	char err[256];

	read_ok("# cpuid : 0x00000000410fd493\n"
		"Sent from my phone\n"
		"                75      page-faults\n", &rec);
	CHECK_EQ_U(rec.n_skipped, 1);
	CHECK_EQ_U(rec.skipped[0].line, 2);
	CHECK_STR(rec.cpuid, "0x00000000410fd493");
	perfstat_free(&rec);
	CHECK(read_text("                75      page-faults\n"
			"        <not known>      cycles\n", &rec, err, sizeof(err)) == -EINVAL);
	CHECK_STR(err, "line 2: '<not' is not a count");
	perfstat_free(&rec);
	CHECK(read_text("1000,,cycles,1,100.00,,\n,,,,,x\n", &rec, err, sizeof(err)) == -EINVAL);
	CHECK(strncmp(err, "line 2: no value", 16) == 0);
	perfstat_free(&rec);
	CHECK(read_text("hello\nworld\n", &rec, err, sizeof(err)) == -EINVAL);
	CHECK_STR(err, "line 2: no counts found (no line is perf stat's output)");
	perfstat_free(&rec);
}

int main(void)
{
	human_plain();
	human_metrics();
	human_rows();
	human_group_header();
	csv_metric_rows();
	json_lines();
	hybrid_parts();
	human_two_figures();
	skips_and_errors();
	return 0;
}
