/*
 * perf_names.c - our metric -> Linux perf's metric, where the two are the
 * same quantity (see perf_names.h).  Intel: the names of the local perf
 * 6.1's tables (and perf 6.6's where they changed).  AMD Zen 4 and Arm
 * Neoverse N2, V1, V2: perf 6.1 has no tables for them, so the names are
 * those of the kernel files tests/oracle/tables/ copies (amdzen4/
 * pipeline.json; arm64/sbsa.json with neoverse-n2-v2/ or neoverse-v1/
 * metrics.json), at the commits named there; the oracle checks those.
 *
 * Left out on purpose (not the same quantity as any perf metric):
 *   dsb_coverage on icx/spr - perf 6.1's DSB_Coverage there leaves the
 *     LSD's uops out of the sum; ours is the DSB's share of all delivered
 *     uops, as perf's icl has it;
 *   icache_stall_fraction on skl/skx - perf's tma_icache_misses adds twice
 *     the miss episodes there (our icache_misses is that node);
 *   gflops - perf's GFLOPs is per second of wall time, ours per second of
 *     the task's CPU time (the same for one thread busy all along only);
 *     `stackctl analyze` adds gflops_wall, which is perf's GFLOPs, and
 *     names it itself (a recording has the wall time, the daemon not);
 *   mite_share, ms_share, lsd_share, dsb/mite_p_*, flop_peak_fraction, the
 *     FLOPS stack and the two-stage ranges: perf has no such metric;
 *   on Zen 4 ipc, cpi, dsb_coverage (op cache) and FLOPS: amdzen4's
 *     pipeline.json and recommended.json have no such metric;
 *   on Neoverse cpi, the regression CPI stack and FLOPS: no such metric in
 *     the kernel's Arm JSON; frontend/backend_stalled_cycles on N2 and V2:
 *     only neoverse-v1/metrics.json defines them.
 * Neoverse V1's frontend_bound and bad_speculation are perf's since
 * arm_v1's formula version 2 took Arm's mispredict correction
 * (neoverse-v1/metrics.json); before, stackd had sbsa.json's, which that
 * file overrides.
 */
#include "lib/model/perf_names.h"

#include <string.h>

struct perf_name {
	const char *metric;
	const char *v61, *v66;    /* perf 6.1's name (AMD, Arm: the kernel file's);
				     perf 6.6's where it differs */
	const char *models;       /* ",skl,icl," - NULL: every Intel model */
};

#define ZEN4 ",amd64_fam19h_zen4,"
#define NEOVERSE ",arm_n2,arm_v1,arm_v2,"

static const struct perf_name names[] = {
	{ "retiring", "tma_retiring", NULL, NULL },
	{ "bad_speculation", "tma_bad_speculation", NULL, NULL },
	{ "frontend_bound", "tma_frontend_bound", NULL, NULL },
	{ "backend_bound", "tma_backend_bound", NULL, NULL },
	{ "fetch_latency", "tma_fetch_latency", NULL, NULL },
	{ "fetch_bandwidth", "tma_fetch_bandwidth", NULL, NULL },
	{ "branch_mispredicts", "tma_branch_mispredicts", NULL, NULL },
	{ "machine_clears", "tma_machine_clears", NULL, NULL },
	{ "memory_bound", "tma_memory_bound", NULL, NULL },
	{ "core_bound", "tma_core_bound", NULL, NULL },
	{ "light_ops", "tma_light_operations", NULL, NULL },
	{ "heavy_ops", "tma_heavy_operations", NULL, NULL },
	{ "icache_misses", "tma_icache_misses", NULL, NULL },
	{ "itlb_misses", "tma_itlb_misses", NULL, NULL },
	{ "branch_resteers", "tma_branch_resteers", NULL, NULL },
	{ "ms_switches", "tma_ms_switches", NULL, NULL },
	{ "dsb_switches", "tma_dsb_switches", NULL, NULL },
	{ "lcp", "tma_lcp", NULL, NULL },
	{ "mite", "tma_mite", NULL, NULL },
	{ "dsb", "tma_dsb", NULL, NULL },
	{ "lsd", "tma_lsd", NULL, NULL },
	{ "ipc", "IPC", "tma_info_thread_ipc", NULL },
	{ "cpi", "CPI", "tma_info_thread_cpi", NULL },
	{ "dsb_coverage", "DSB_Coverage", "tma_info_frontend_dsb_coverage", ",skl,skx,icl," },
	{ "flops_per_cycle", "FLOPc", "tma_info_core_flopc", NULL },
	{ "itlb_stall_fraction", "tma_itlb_misses", NULL, NULL },
	{ "dsb_switch_fraction", "tma_dsb_switches", NULL, NULL },
	{ "icache_stall_fraction", "tma_icache_misses", NULL, ",icl,icx,spr," },
	/* Zen 4: pipeline.json's level 1 under its own names, level 2 under
	 * the generic ones (model_zen4.c) */
	{ "retiring", "retiring", NULL, ZEN4 NEOVERSE },
	{ "bad_speculation", "bad_speculation", NULL, ZEN4 NEOVERSE },
	{ "frontend_bound", "frontend_bound", NULL, ZEN4 NEOVERSE },
	{ "backend_bound", "backend_bound", NULL, ZEN4 NEOVERSE },
	{ "smt_contention", "smt_contention", NULL, ZEN4 },
	{ "fetch_latency", "frontend_bound_latency", NULL, ZEN4 },
	{ "fetch_bandwidth", "frontend_bound_bandwidth", NULL, ZEN4 },
	{ "branch_mispredicts", "bad_speculation_mispredicts", NULL, ZEN4 },
	{ "machine_clears", "bad_speculation_pipeline_restarts", NULL, ZEN4 },
	{ "memory_bound", "backend_bound_memory", NULL, ZEN4 },
	{ "core_bound", "backend_bound_cpu", NULL, ZEN4 },
	{ "light_ops", "retiring_fastpath", NULL, ZEN4 },
	{ "heavy_ops", "retiring_microcode", NULL, ZEN4 },
	/* Neoverse: per-kilo-instruction counts and IPC as the core files
	 * name them; cycle accounting where the file has it (V1) */
	{ "ipc", "ipc", NULL, NEOVERSE },
	{ "branch_mpki", "branch_mpki", NULL, NEOVERSE },
	{ "l1i_mpki", "l1i_cache_mpki", NULL, NEOVERSE },
	{ "l2_mpki", "l2_cache_mpki", NULL, NEOVERSE },
	{ "itlb_walk_pki", "itlb_mpki", NULL, NEOVERSE },
	{ "dtlb_walk_pki", "dtlb_mpki", NULL, NEOVERSE },
	{ "llc_read_mpki", "ll_cache_read_mpki", NULL, NEOVERSE },
	{ "frontend_stalled_cycles", "frontend_stalled_cycles", NULL, ",arm_v1," },
	{ "backend_stalled_cycles", "backend_stalled_cycles", NULL, ",arm_v1," },
};

/* The model's name appears in the ",a,b," list. */
static bool listed(const char *list, const char *model)
{
	const char *p = list;
	size_t n = strlen(model);

	while ((p = strstr(p, model)) != NULL) {
		if (p > list && p[-1] == ',' && p[n] == ',')
			return true;
		p += n;
	}
	return false;
}

unsigned perf_names_of(const struct model *m, const char *metric,
		       const char *out[PERF_NAMES_MAX])
{
	unsigned i, n = 0;

	out[0] = out[1] = NULL;
	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		const struct perf_name *p = &names[i];

		if (strcmp(p->metric, metric) != 0 ||
		    (p->models != NULL ? !listed(p->models, m->name) : m->vendor != VENDOR_INTEL))
			continue;
		out[n++] = p->v61;
		if (p->v66 != NULL)
			out[n++] = p->v66;
		break;
	}
	return n;
}
