/* Delta attribution rules on constructed switch samples, and the invariant
 * that everything charged (tasks + self + unattributed) sums to the counter
 * totals and to the enabled time.  Layouts: [switches, page-faults], timed
 * by the sample times (the fallback without a clock), and stackd's own
 * [switches, cpu-clock, page-faults], timed by the clock. */
#include "daemon/attribute/attrib.h"
#include "test.h"

#include <string.h>

#define ALL 0x7fffffff

static struct attrib_layout layout[2];

static uint64_t charged(const struct cpuacc *a, int32_t pid, unsigned g, int member)
{
	uint64_t sum = 0;
	size_t i;

	for (i = 0; i < a->n; i++)
		if ((pid == ALL || a->entries[i].pid == pid) && a->entries[i].group == g)
			sum += member < 0 ? a->entries[i].time_ns : a->entries[i].d[member];
	return sum;
}

static size_t entries_of(const struct cpuacc *a, int32_t pid)
{
	size_t i, n = 0;

	for (i = 0; i < a->n; i++)
		n += a->entries[i].pid == pid;
	return n;
}

#define TIME (-1)
#define SW 0
#define PF 1
#define CLK 1   /* the clocked layout: [switches, cpu-clock, page-faults] */
#define CPF 2
#define BOGUS 77   /* a sample time on another reader's clock */

/* One group [switches, cpu-clock, page-faults], as stackd lays its groups
 * out, enabled at 1000 with its clock at 0; stackd's own pid is 999. */
static void clocked_start(struct attrib_cpu *c, struct cpuacc *acc)
{
	static struct attrib_layout lay[1];
	const uint64_t zero[3] = { 0, 0, 0 };

	lay[0].n_members = 3;
	lay[0].switches_idx = 0;
	lay[0].has_clock = true;
	lay[0].clock_idx = 1;
	lay[0].n_model = 1;
	lay[0].model_idx[0] = 2;
	CHECK(cpuacc_init(acc) == 0);
	attrib_init(c, lay, 1, 999, acc);
	attrib_enabled(c, 0, 1000, zero, 3);
}

/* Stackd's own layout carries cpu-clock: times come from it, whatever the
 * sample's time field says; spans holding an unsampled switch are split at
 * the kernel's switch-in records. */
static void test_clock_and_split(void)
{
	struct attrib_cpu c;
	struct cpuacc acc;
	uint64_t v[3] = { 0, 0, 0 };

	clocked_start(&c, &acc);   /* clock 0 at 1000 */

	/* The clock, not the sample's time, gives the span and the time. */
	v[0] = 1; v[1] = 500; v[2] = 3;
	attrib_sample(&c, 0, 10, 10, BOGUS, v, 3);
	CHECK_EQ_U(charged(&acc, 10, 0, TIME), 500);
	CHECK_EQ_U(c.last_time[0], 1500);

	/* Idle's switch-out counted, not sampled; its switch-in record says
	 * 20 took over at 1700: idle 1500..1700, 20 1700..2000. */
	attrib_switch_in(&c, 1700, 0, 20);
	v[0] = 3; v[1] = 1000; v[2] = 8;
	attrib_sample(&c, 0, 20, 20, BOGUS, v, 3);
	CHECK_EQ_U(charged(&acc, PID_IDLE, 0, TIME), 200);
	CHECK_EQ_U(charged(&acc, PID_IDLE, 0, SW), 1);
	CHECK_EQ_U(charged(&acc, PID_IDLE, 0, CPF), 2);   /* 5 x 200/500 */
	CHECK_EQ_U(charged(&acc, 20, 0, TIME), 300);
	CHECK_EQ_U(charged(&acc, 20, 0, SW), 1);
	CHECK_EQ_U(charged(&acc, 20, 0, CPF), 3);
	CHECK_EQ_U(c.st.split_spans, 1);
	CHECK_EQ_U(c.st.unsampled_switches, 1);
	CHECK_EQ_U(charged(&acc, PID_UNATTRIBUTED, 0, TIME), 0);

	/* A remainder: idle until our thread woke at 2600, ours to 2800. */
	attrib_switch_in(&c, 2600, 0, 999);
	v[0] = 4; v[1] = 1800; v[2] = 8;
	attrib_remainder(&c, 0, BOGUS, v, 3);
	CHECK_EQ_U(charged(&acc, PID_IDLE, 0, TIME), 200 + 600);
	CHECK_EQ_U(charged(&acc, PID_IDLE, 0, SW), 2);
	CHECK_EQ_U(charged(&acc, 999, 0, TIME), 200);
	CHECK_EQ_U(charged(&acc, 999, 0, SW), 0);

	/* More switches than records: time still split, the switches nobody
	 * can own go to unattributed, with no time. */
	attrib_switch_in(&c, 2900, 0, 30);
	v[0] = 8; v[1] = 2000; v[2] = 8;
	attrib_sample(&c, 0, 30, 30, BOGUS, v, 3);
	CHECK_EQ_U(charged(&acc, 30, 0, TIME), 100);
	CHECK_EQ_U(charged(&acc, PID_IDLE, 0, TIME), 800 + 100);
	CHECK_EQ_U(charged(&acc, PID_UNATTRIBUTED, 0, SW), 2);
	CHECK_EQ_U(charged(&acc, PID_UNATTRIBUTED, 0, TIME), 0);

	/* A record that hands the CPU to someone else than the sampled task
	 * does not explain the span: unattributed, as without records. */
	attrib_switch_in(&c, 3100, 0, 41);
	v[0] = 10; v[1] = 2300; v[2] = 9;
	attrib_sample(&c, 0, 40, 40, BOGUS, v, 3);
	CHECK_EQ_U(charged(&acc, PID_UNATTRIBUTED, 0, TIME), 300);
	CHECK_EQ_U(c.st.split_spans, 3);

	/* Invariant: every count and the clock are charged exactly once. */
	CHECK_EQ_U(charged(&acc, ALL, 0, SW), 10);
	CHECK_EQ_U(charged(&acc, ALL, 0, CPF), 9);
	CHECK_EQ_U(charged(&acc, ALL, 0, CLK), 2300);
	CHECK_EQ_U(charged(&acc, ALL, 0, TIME), 2300);
	cpuacc_done(&acc);
}

/* A group found in error state, and time when nothing was enabled: the
 * time is unattributed (no process credited, the host's time whole), and
 * what the group counted after its last sample is charged to unattributed
 * when it is enabled again, so its next span starts clean. */
static void test_failed_and_lost(void)
{
	struct attrib_cpu c;
	struct cpuacc acc;
	uint64_t v[3] = { 0, 0, 0 };

	clocked_start(&c, &acc);
	v[0] = 1; v[1] = 400; v[2] = 2;
	attrib_sample(&c, 0, 10, 10, BOGUS, v, 3);   /* 10 ran 1000..1400 */
	attrib_failed(&c, 0, 2000);
	CHECK_EQ_U(charged(&acc, PID_UNATTRIBUTED, 0, TIME), 600);
	/* Before failing it counted one more switch, 300 ns, 3 faults. */
	v[0] = 2; v[1] = 700; v[2] = 5;
	attrib_enabled(&c, 0, 3000, v, 3);
	CHECK_EQ_U(charged(&acc, PID_UNATTRIBUTED, 0, SW), 1);
	CHECK_EQ_U(charged(&acc, PID_UNATTRIBUTED, 0, CPF), 3);
	CHECK_EQ_U(charged(&acc, PID_UNATTRIBUTED, 0, TIME), 600);
	v[0] = 3; v[1] = 900; v[2] = 6;
	attrib_sample(&c, 0, 20, 20, BOGUS, v, 3);   /* 20 ran 3000..3200 */
	CHECK_EQ_U(charged(&acc, 20, 0, TIME), 200);
	CHECK_EQ_U(charged(&acc, 20, 0, CPF), 1);
	CHECK_EQ_U(charged(&acc, 20, 0, SW), 1);
	attrib_lost(&c, 0, 4000, 4500);
	CHECK_EQ_U(charged(&acc, PID_UNATTRIBUTED, 0, TIME), 1100);
	CHECK_EQ_U(c.st.unattributed_spans, 2);
	/* Every count charged once. */
	CHECK_EQ_U(charged(&acc, ALL, 0, SW), 3);
	CHECK_EQ_U(charged(&acc, ALL, 0, CPF), 6);
	CHECK_EQ_U(charged(&acc, ALL, 0, CLK), 900);
	cpuacc_done(&acc);
}

int main(void)
{
	struct attrib_cpu c;
	struct cpuacc acc;
	uint64_t v[2];
	unsigned g;

	for (g = 0; g < 2; g++) {
		layout[g].n_members = 2;
		layout[g].switches_idx = 0;
		layout[g].n_model = 1;
		layout[g].model_idx[0] = 1;
	}
	CHECK(cpuacc_init(&acc) == 0);
	attrib_init(&c, layout, 2, 999, &acc);
	attrib_enabled(&c, 0, 1000, NULL, 0);

	/* Plain switches: each span goes to the task switched out. */
	v[0] = 1; v[1] = 5;
	attrib_sample(&c, 0, 10, 10, 2000, v, 2);   /* 10 ran 1000..2000 */
	v[0] = 2; v[1] = 5;
	attrib_sample(&c, 0, 20, 21, 4000, v, 2);   /* 20 ran 2000..4000 */
	v[0] = 3; v[1] = 7;
	attrib_sample(&c, 0, 10, 10, 4500, v, 2);
	CHECK_EQ_U(charged(&acc, 10, 0, TIME), 1500);
	CHECK_EQ_U(charged(&acc, 10, 0, SW), 2);
	CHECK_EQ_U(charged(&acc, 10, 0, PF), 7);
	CHECK_EQ_U(charged(&acc, 20, 0, TIME), 2000);

	/* A span with an unsampled switch: the task keeps its own switch, the
	 * rest (time, faults, the other switch) is unattributed. */
	v[0] = 5; v[1] = 9;
	attrib_sample(&c, 0, 20, 21, 10500, v, 2);
	CHECK_EQ_U(charged(&acc, 20, 0, SW), 2);
	CHECK_EQ_U(charged(&acc, 20, 0, TIME), 2000);
	CHECK_EQ_U(charged(&acc, PID_UNATTRIBUTED, 0, SW), 1);
	CHECK_EQ_U(charged(&acc, PID_UNATTRIBUTED, 0, TIME), 6000);
	CHECK_EQ_U(charged(&acc, PID_UNATTRIBUTED, 0, PF), 2);
	CHECK_EQ_U(c.st.unsampled_switches, 1);

	/* Exit: the trailing sample (pid -1: reaped elsewhere first) belongs to
	 * the exit on this ring; its span is real time, its key the exit's. */
	attrib_exit(&c, 30, 30, 10550);
	v[0] = 6; v[1] = 9;
	attrib_sample(&c, 0, -1, -1, 10600, v, 2);
	CHECK_EQ_U(charged(&acc, 30, 0, TIME), 100);
	/* A later pid -1 sample has no exit to own it. */
	v[0] = 7; v[1] = 9;
	attrib_sample(&c, 0, -1, -1, 10700, v, 2);
	CHECK_EQ_U(c.st.orphan_exits, 1);
	CHECK_EQ_U(charged(&acc, PID_UNATTRIBUTED, 0, TIME), 6100);

	/* pid 30 reused after its exit on this CPU: a separate entry. */
	v[0] = 8; v[1] = 9;
	attrib_sample(&c, 0, 30, 30, 10900, v, 2);
	CHECK_EQ_U(entries_of(&acc, 30), 2);
	CHECK_EQ_U(charged(&acc, 30, 0, TIME), 300);

	/* A thread's trailing sample (tid -1, pid = its process). */
	attrib_exit(&c, 40, 41, 10950);
	v[0] = 9; v[1] = 9;
	attrib_sample(&c, 0, 40, -1, 11000, v, 2);
	CHECK_EQ_U(charged(&acc, 40, 0, TIME), 100);
	CHECK_EQ_U(entries_of(&acc, 40), 1);

	/* Rotation remainder: stackd's own thread, until the disable. */
	v[0] = 9; v[1] = 9;
	attrib_remainder(&c, 0, 11250, v, 2);
	CHECK_EQ_U(charged(&acc, 999, 0, TIME), 250);
	/* Group 1 starts from zero at its enable, with its own baseline. */
	attrib_enabled(&c, 1, 11300, NULL, 0);
	v[0] = 1; v[1] = 3;
	attrib_sample(&c, 1, 10, 10, 12000, v, 2);
	CHECK_EQ_U(charged(&acc, 10, 1, TIME), 700);
	CHECK_EQ_U(charged(&acc, 10, 1, PF), 3);
	/* ...but a remainder that contains a switch is not ours alone. */
	attrib_enabled(&c, 0, 20000, NULL, 0);
	v[0] = 10; v[1] = 9;
	attrib_remainder(&c, 0, 20300, v, 2);
	CHECK_EQ_U(charged(&acc, 999, 0, TIME), 250);
	CHECK_EQ_U(charged(&acc, PID_UNATTRIBUTED, 0, TIME), 6400);

	/* A read below the previous one is counted, not charged as 2^64. */
	v[0] = 0; v[1] = 0;
	attrib_sample(&c, 1, 10, 10, 12100, v, 2);
	CHECK_EQ_U(c.st.backwards_reads, 1);
	CHECK_EQ_U(charged(&acc, 10, 1, PF), 3);

	/* Invariant for group 0: all charges sum to the last read, and the time
	 * to the enabled spans: 1000..11250 and 20000..20300. */
	CHECK_EQ_U(charged(&acc, ALL, 0, SW), 10);
	CHECK_EQ_U(charged(&acc, ALL, 0, PF), 9);
	CHECK_EQ_U(charged(&acc, ALL, 0, TIME), (11250 - 1000) + (20300 - 20000));

	/* Many pids: the table grows and keeps every entry. */
	cpuacc_reset(&acc);
	for (int i = 0; i < 20000; i++) {
		uint64_t d[2] = { 1, (uint64_t)i };

		CHECK(cpuacc_add(&acc, i, (unsigned)(i % 2), 1000 + (uint64_t)i, 5, false, d, 2) == 0);
	}
	CHECK_EQ_U(acc.n, 20000);
	for (int i = 0; i < 20000; i += 997)
		CHECK_EQ_U(charged(&acc, i, (unsigned)(i % 2), PF), (uint64_t)i);
	cpuacc_done(&acc);
	test_clock_and_split();
	test_failed_and_lost();
	return 0;
}
