/*
 * test_plan_host.c - the budget readers (daemon/plan/plan_detect.c) on
 * host fixtures (tests/data/hosts/, written by make-hosts.py from the
 * kernel's facts, each named there):
 * - an AMD guest whose CPU model hides PerfCtrExtCore: 4 legacy counters
 *   (arch/x86/events/amd/core.c AMD64_NUM_COUNTERS), the perf watchdog
 *   holding one of them: 3 left for Zen 4's plan, not the model's 6;
 * - Zen 3 (perfctr_core, no PerfMonV2): 6 (AMD64_NUM_COUNTERS_CORE); Zen 4
 *   (PerfMonV2): the count is in CPUID 0x80000022 only, no file: the
 *   model's figure, and the reason said;
 * - an Arm host with the buddy detector (kernel.nmi_watchdog = 1, the
 *   kernel built with HARDLOCKUP_DETECTOR_BUDDY): no counter held, so
 *   cycles stays on the cycle counter, where reading the sysctl alone
 *   (the planner before issue 30) took it as held;
 * - an Arm host with pseudo-NMI on the command line and no config: the
 *   perf detector, holding the cycle counter;
 * - Skylake with the perf detector: the fixed cycles counter held;
 * - an Ice Lake-SP guest whose PMU shows no events/slots: no perf metrics.
 */
#include "daemon/plan/plan_host.h"
#include "test.h"

#include <stdio.h>
#include <string.h>

#define HOSTS "tests/data/hosts/"

static void budget_of(const char *host, const char *model, struct plan_host *h,
		      struct plan_budget *b)
{
	const struct model *m = model_find(model);

	CHECK(m != NULL);
	plan_host_read(HOSTS "" , false, h);   /* a root with none of the files */
	CHECK(!h->watchdog_running);
	plan_host_read(host, false, h);
	plan_host_budget(m, host, h, -1, -1, 0, b);
	fprintf(stderr, "%-40s %u of %u free (%s); watchdog %s (%s)\n", host, b->gp_free,
		b->gp_total, b->counters_from, b->watchdog_on ? "holds" : "holds none",
		b->watchdog_from);
}

static void test_amd(void)
{
	struct plan_host h;
	struct plan_budget b;

	budget_of(HOSTS "zen4-guest", "amd64_fam19h_zen4", &h, &b);
	CHECK_EQ_U(h.gp, 4);
	CHECK(strstr(h.gp_from, "perfctr_core") != NULL);
	CHECK(h.watchdog_running && h.watchdog_holds);
	CHECK_EQ_U(b.gp_total, 4);
	CHECK_EQ_U(b.gp_free, 3);
	CHECK(!b.smt_on);

	budget_of(HOSTS "zen3", "amd64_fam19h_zen3", &h, &b);
	CHECK_EQ_U(h.gp, 6);

	budget_of(HOSTS "zen4", "amd64_fam19h_zen4", &h, &b);
	CHECK_EQ_U(h.gp, 0);   /* PerfMonV2: in no file */
	CHECK(strstr(h.gp_from, "0x80000022") != NULL);
	CHECK_EQ_U(b.gp_total, 6);
	CHECK(b.smt_on && b.watchdog_on && b.watchdog_takes_gp);
	CHECK_EQ_U(b.gp_free, 5);

	/* no flags line (the older fixtures): the host does not say */
	budget_of(HOSTS "zen2", "amd64_fam17h_zen2", &h, &b);
	CHECK_EQ_U(h.gp, 0);
	CHECK(!h.watchdog_running);
}

static void test_arm(void)
{
	struct plan_host h;
	struct plan_budget b;

	budget_of(HOSTS "neoverse-n2-buddy", "arm_n2", &h, &b);
	CHECK(h.watchdog_running);
	CHECK(!h.watchdog_holds);
	CHECK(strstr(h.watchdog_from, "buddy") != NULL);
	CHECK(!b.watchdog_on && b.cycles_on_fixed);
	/* the reader the planner had before issue 30 (the sysctl alone) said
	 * it holds one */
	CHECK(!plan_root_watchdog_on(HOSTS "neoverse-n2-buddy"));
	CHECK(plan_root_watchdog_on(HOSTS "skylake"));
	CHECK_EQ_U(h.gp, 0);
	CHECK(strstr(h.gp_from, "PMCR_EL0.N") != NULL);
	CHECK_EQ_U(b.gp_total, model_find("arm_n2")->gp_counters_nosmt);

	budget_of(HOSTS "neoverse-v2", "arm_v2", &h, &b);
	CHECK(h.watchdog_running && h.watchdog_holds);
	CHECK(strstr(h.watchdog_from, "pseudo-NMI") != NULL);
	CHECK(b.watchdog_on && !b.cycles_on_fixed && !b.watchdog_takes_gp);
}

static void test_intel(void)
{
	struct plan_host h;
	struct plan_budget b;

	budget_of(HOSTS "skylake", "skl", &h, &b);
	CHECK(h.watchdog_holds && !h.watchdog_raw);
	CHECK(b.smt_on && b.watchdog_on && !b.cycles_on_fixed);
	CHECK(h.perf_metrics_known && !h.perf_metrics);
	CHECK(!b.no_perf_metrics);   /* Skylake's model uses none */

	budget_of(HOSTS "icelake-sp", "icx", &h, &b);
	CHECK(h.perf_metrics_known && h.perf_metrics && !b.no_perf_metrics);

	budget_of(HOSTS "icelake-sp-guest", "icx", &h, &b);
	CHECK(h.perf_metrics_known && !h.perf_metrics);
	CHECK(b.no_perf_metrics);
}

int main(void)
{
	test_amd();
	test_arm();
	test_intel();
	return 0;
}
