/*
 * Every event of every hardware model encodes with libpfm4 under a forced
 * PMU (LIBPFM_FORCE_PMU), the raw codes equal Linux perf's pmu-events JSON,
 * every group stays within the stored columns, and the Intel perf-metrics
 * pseudo events resolve from sysfs to the kernel's codes.  (Whether a
 * family fits the host's counters is the planner's question, daemon/plan/plan.c;
 * test_model_rules checks the facts it plans from.)
 *
 * Golden codes (config = EventCode | UMask << 8 | Edge << 18 | AnyThread <<
 * 21 | CounterMask << 24; AMD event bits 8-11 go to config bits 32-35), from
 * tools/perf/pmu-events/arch/x86/:
 *   skylake/pipeline.json, frontend.json, floating-point.json, memory.json
 *   icelake/pipeline.json, frontend.json
 *   sapphirerapids/pipeline.json, frontend.json, floating-point.json
 *   amdzen4/pipeline.json, core.json, floating-point.json (event names as
 *   de_no_dispatch_per_slot.*, de_src_op_disp.*, ex_ret_*, ex_no_retire.*)
 *   Arm: arm64/common-and-microarch.json (architected event numbers)
 * Perf metrics: arch/x86/events/intel/core.c, EVENT_ATTR_STR(slots ...,
 * "event=0x00,umask=0x4") and topdown-* "event=0x00,umask=0x80".."0x87".
 */
#include "daemon/collect/event_encode.h"
#include "lib/model/model.h"
#include "daemon/collect/sysfs_event.h"
#include "test.h"

#include <stdint.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

struct golden {
	const char *pmu, *event;
	uint64_t config;
	const char *json_name;
};

static const struct golden goldens[] = {
	{ "skl", "UOPS_ISSUED:ANY", 0x10e, "UOPS_ISSUED.ANY" },
	{ "skl", "UOPS_RETIRED:RETIRE_SLOTS", 0x2c2, "UOPS_RETIRED.RETIRE_SLOTS" },
	{ "skl", "IDQ_UOPS_NOT_DELIVERED:CORE", 0x19c, "IDQ_UOPS_NOT_DELIVERED.CORE" },
	{ "skl", "IDQ_UOPS_NOT_DELIVERED:CYCLES_0_UOPS_DELIV_CORE", 0x400019c,
	  "IDQ_UOPS_NOT_DELIVERED.CYCLES_0_UOPS_DELIV.CORE" },
	{ "skl", "INT_MISC:RECOVERY_CYCLES", 0x10d, "INT_MISC.RECOVERY_CYCLES" },
	{ "skl", "INT_MISC:RECOVERY_CYCLES_ANY", 0x20010d, "INT_MISC.RECOVERY_CYCLES_ANY (AnyThread)" },
	{ "skl", "CPU_CLK_UNHALTED:ONE_THREAD_ACTIVE", 0x23c, "CPU_CLK_UNHALTED.ONE_THREAD_ACTIVE" },
	{ "skl", "CPU_CLK_UNHALTED:REF_XCLK", 0x13c, "CPU_CLK_UNHALTED.REF_XCLK" },
	{ "skx", "INT_MISC:RECOVERY_CYCLES_ANY", 0x20010d, "INT_MISC.RECOVERY_CYCLES_ANY (AnyThread)" },
	{ "skx", "CPU_CLK_UNHALTED:ONE_THREAD_ACTIVE", 0x23c, "CPU_CLK_UNHALTED.ONE_THREAD_ACTIVE" },
	{ "skx", "CPU_CLK_UNHALTED:REF_XCLK", 0x13c, "CPU_CLK_UNHALTED.REF_XCLK" },
	{ "skl", "BR_MISP_RETIRED:ALL_BRANCHES", 0xc5, "BR_MISP_RETIRED.ALL_BRANCHES" },
	{ "skl", "MACHINE_CLEARS:COUNT", 0x10401c3, "MACHINE_CLEARS.COUNT" },
	{ "skl", "IDQ:DSB_UOPS", 0x879, "IDQ.DSB_UOPS" },
	{ "skl", "IDQ:MITE_UOPS", 0x479, "IDQ.MITE_UOPS" },
	{ "skl", "IDQ:MS_UOPS", 0x3079, "IDQ.MS_UOPS" },
	{ "skl", "IDQ:DSB_UOPS:c=1", 0x1000879, "IDQ.DSB_CYCLES" },
	{ "skl", "IDQ:MITE_UOPS:c=1", 0x1000479, "IDQ.MITE_CYCLES" },
	{ "skl", "DSB2MITE_SWITCHES:PENALTY_CYCLES", 0x2ab, "DSB2MITE_SWITCHES.PENALTY_CYCLES" },
	/* the thesis's cycle decomposition: skylake/frontend.json IDQ.MS_CYCLES
	 * (0x79, umask 0x30, cmask 1); icelake/ and sapphirerapids/frontend.json
	 * IDQ.MS_CYCLES_ANY (umask 0x30 and 0x20, cmask 1), pipeline.json
	 * LSD.CYCLES_ACTIVE (0xa8, umask 0x1, cmask 1) */
	{ "skl", "IDQ:MS_UOPS:c=1", 0x1003079, "IDQ.MS_CYCLES" },
	{ "icl", "IDQ:MS_UOPS:c=1", 0x1003079, "IDQ.MS_CYCLES_ANY" },
	{ "spr", "IDQ:MS_UOPS:c=1", 0x1002079, "IDQ.MS_CYCLES_ANY" },
	{ "icl", "LSD:UOPS:c=1", 0x10001a8, "LSD.CYCLES_ACTIVE" },
	{ "spr", "LSD:UOPS:c=1", 0x10001a8, "LSD.CYCLES_ACTIVE" },
	{ "skl", "ICACHE_16B:IFDATA_STALL", 0x480, "ICACHE_16B.IFDATA_STALL" },
	{ "skl", "ICACHE_64B:IFTAG_STALL", 0x483, "ICACHE_64B.IFTAG_STALL" },
	{ "skl", "FP_ARITH_INST_RETIRED:SCALAR_DOUBLE", 0x1c7, "FP_ARITH_INST_RETIRED.SCALAR_DOUBLE" },
	{ "skl", "FP_ARITH_INST_RETIRED:SCALAR_SINGLE", 0x2c7, "FP_ARITH_INST_RETIRED.SCALAR_SINGLE" },
	{ "skl", "FP_ARITH_INST_RETIRED:128B_PACKED_DOUBLE", 0x4c7, "...128B_PACKED_DOUBLE" },
	{ "skl", "FP_ARITH_INST_RETIRED:128B_PACKED_SINGLE", 0x8c7, "...128B_PACKED_SINGLE" },
	{ "skl", "FP_ARITH_INST_RETIRED:256B_PACKED_DOUBLE", 0x10c7, "...256B_PACKED_DOUBLE" },
	{ "skl", "FP_ARITH_INST_RETIRED:256B_PACKED_SINGLE", 0x20c7, "...256B_PACKED_SINGLE" },
	{ "skl", "CYCLE_ACTIVITY:STALLS_TOTAL", 0x40004a3, "CYCLE_ACTIVITY.STALLS_TOTAL" },
	{ "skl", "CYCLE_ACTIVITY:STALLS_MEM_ANY", 0x140014a3, "CYCLE_ACTIVITY.STALLS_MEM_ANY" },
	{ "skl", "EXE_ACTIVITY:BOUND_ON_STORES", 0x40a6, "EXE_ACTIVITY.BOUND_ON_STORES" },
	{ "skl", "EXE_ACTIVITY:1_PORTS_UTIL", 0x2a6, "EXE_ACTIVITY.1_PORTS_UTIL" },
	{ "skl", "EXE_ACTIVITY:2_PORTS_UTIL", 0x4a6, "EXE_ACTIVITY.2_PORTS_UTIL" },
	{ "skl", "CPU_CLK_UNHALTED:THREAD_P", 0x3c, "CPU_CLK_UNHALTED.THREAD_P" },
	{ "skl", "INST_RETIRED:ANY_P", 0xc0, "INST_RETIRED.ANY_P" },
	{ "skx", "FP_ARITH_INST_RETIRED:512B_PACKED_DOUBLE", 0x40c7, "...512B_PACKED_DOUBLE" },
	{ "skx", "FP_ARITH_INST_RETIRED:512B_PACKED_SINGLE", 0x80c7, "...512B_PACKED_SINGLE" },
	{ "icl", "INT_MISC:UOP_DROPPING", 0x100d, "INT_MISC.UOP_DROPPING" },
	{ "icl", "INT_MISC:RECOVERY_CYCLES:c=1:e=1", 0x104010d, "INT_MISC.CLEARS_COUNT" },
	{ "icl", "LSD:UOPS", 0x1a8, "LSD.UOPS" },
	{ "icl", "IDQ:MS_UOPS", 0x3079, "IDQ.MS_UOPS" },
	{ "spr", "INT_MISC:UOP_DROPPING", 0x10ad, "INT_MISC.UOP_DROPPING" },
	{ "spr", "DSB2MITE_SWITCHES:PENALTY_CYCLES", 0x261, "DSB2MITE_SWITCHES.PENALTY_CYCLES" },
	{ "spr", "ICACHE_DATA:STALLS", 0x480, "ICACHE_DATA.STALLS" },
	{ "spr", "ICACHE_TAG:STALLS", 0x483, "ICACHE_TAG.STALLS" },
	{ "spr", "IDQ:MS_UOPS", 0x2079, "IDQ.MS_UOPS" },
	{ "amd64_fam19h_zen4", "CYCLES_NOT_IN_HALT", 0x76, "ls_not_halted_cyc" },
	{ "amd64_fam19h_zen4", "RETIRED_INSTRUCTIONS", 0xc0, "ex_ret_instr" },
	{ "amd64_fam19h_zen4", "RETIRED_OPS", 0xc1, "ex_ret_ops" },
	{ "amd64_fam19h_zen4", "OPS_SOURCE_DISPATCHED_FROM_DECODER:DECODER:OPCACHE:LOOP_BUFFER",
	  0x7aa, "de_src_op_disp.all" },
	{ "amd64_fam19h_zen4", "DISPATCH_STALLS_1:FE_NO_OPS", 0x1000001a0,
	  "de_no_dispatch_per_slot.no_ops_from_frontend" },
	{ "amd64_fam19h_zen4", "DISPATCH_STALLS_1:BE_STALLS", 0x100001ea0,
	  "de_no_dispatch_per_slot.backend_stalls" },
	{ "amd64_fam19h_zen4", "DISPATCH_STALLS_1:SMT_CONTENTION", 0x1000060a0,
	  "de_no_dispatch_per_slot.smt_contention" },
	{ "amd64_fam19h_zen4", "DISPATCH_STALLS_1:FE_NO_OPS:c=6", 0x1060001a0,
	  "no_ops_from_frontend,cmask=0x6 (pipeline.json frontend_bound_latency)" },
	{ "amd64_fam19h_zen4", "RETIRED_BRANCH_INSTRUCTIONS_MISPREDICTED", 0xc3, "ex_ret_brn_misp" },
	{ "amd64_fam19h_zen4", "RESYNCS", 0x96, "resyncs_or_nc_redirects" },
	{ "amd64_fam19h_zen4", "CYCLES_NO_RETIRE:NOT_COMPLETE_MISSING_LOAD", 0xa2d6,
	  "ex_no_retire.load_not_complete" },
	{ "amd64_fam19h_zen4", "CYCLES_NO_RETIRE:NOT_COMPLETE_LOAD_AND_ALU", 0x2d6,
	  "ex_no_retire.not_complete" },
	{ "amd64_fam19h_zen4", "RETIRED_UCODE_OPS", 0x1000000c2, "ex_ret_ucode_ops" },
	{ "amd64_fam19h_zen4", "RETIRED_SSE_AVX_FLOPS:ANY", 0x1f03, "fp_ret_sse_avx_ops.all" },
	{ "amd64_fam19h_zen4", "RETIRED_SSE_AVX_FLOPS:MAC_FLOPS", 0x803,
	  "fp_ret_sse_avx_ops.mac_flops" },
	{ "amd64_fam19h_zen4", "CYCLES_NO_RETIRE:EMPTY", 0x1d6, "ex_no_retire.empty" },
	{ "amd64_fam19h_zen4", "CYCLES_NO_RETIRE:OTHER", 0x8d6, "ex_no_retire.other" },
	{ "amd64_fam19h_zen4", "CYCLES_NO_RETIRE:THREAD_NOT_SELECTED", 0x10d6,
	  "ex_no_retire.thread_not_selected" },
	{ "spr", "FP_ARITH_DISPATCHED:PORT_0", 0x1b3, "FP_ARITH_DISPATCHED.PORT_0" },
	{ "spr", "FP_ARITH_DISPATCHED:PORT_1", 0x2b3, "FP_ARITH_DISPATCHED.PORT_1" },
	{ "spr", "FP_ARITH_DISPATCHED:PORT_5", 0x4b3, "FP_ARITH_DISPATCHED.PORT_5" },
	{ "amd64_fam19h_zen3", "RETIRED_SSE_AVX_FLOPS:ANY", 0xf03, "fp_ret_sse_avx_ops.all" },
	{ "amd64_fam19h_zen3", "L1_ITLB_MISS_L2_ITLB_MISS:IF1G:IF2M:IF4K", 0x785,
	  "bp_l1_tlb_miss_l2_tlb_miss" },
	{ "skl", "RS_EVENTS:EMPTY_CYCLES", 0x15e, "RS_EVENTS.EMPTY_CYCLES" },
	{ "skl", "r4c2", 0x4c2, "UOPS_RETIRED.MACRO_FUSED (Intel SKL event list: 0xC2/0x04)" },
	{ "icl", "RS_EVENTS:EMPTY_CYCLES", 0x15e, "RS_EVENTS.EMPTY_CYCLES" },
	{ "spr", "RS:EMPTY", 0x7a5, "RS.EMPTY" },
	{ "spr", "CYCLE_ACTIVITY:STALLS_TOTAL", 0x40004a3, "CYCLE_ACTIVITY.STALLS_TOTAL" },
	/* level 3 under the frontend: skylake/frontend.json, pipeline.json */
	{ "skl", "ICACHE_16B:IFDATA_STALL:c=1:e=1", 0x1040480,
	  "ICACHE_16B.IFDATA_STALL,cmask=1,edge (perf tma_icache_misses)" },
	{ "skl", "INT_MISC:CLEAR_RESTEER_CYCLES", 0x800d, "INT_MISC.CLEAR_RESTEER_CYCLES" },
	{ "skl", "BACLEARS:ANY", 0x1e6, "BACLEARS.ANY" },
	{ "skl", "IDQ:MS_SWITCHES", 0x1043079, "IDQ.MS_SWITCHES" },
	{ "skl", "ILD_STALL:LCP", 0x187, "ILD_STALL.LCP" },
	{ "skl", "IDQ:ALL_MITE_CYCLES_ANY_UOPS", 0x1002479, "IDQ.ALL_MITE_CYCLES_ANY_UOPS" },
	{ "skl", "IDQ:ALL_MITE_CYCLES_4_UOPS", 0x4002479, "IDQ.ALL_MITE_CYCLES_4_UOPS" },
	{ "skl", "IDQ:ALL_DSB_CYCLES_ANY_UOPS", 0x1001879, "IDQ.ALL_DSB_CYCLES_ANY_UOPS" },
	{ "skl", "IDQ:ALL_DSB_CYCLES_4_UOPS", 0x4001879, "IDQ.ALL_DSB_CYCLES_4_UOPS" },
	{ "skx", "IDQ:ALL_MITE_CYCLES_4_UOPS", 0x4002479, "IDQ.ALL_MITE_CYCLES_4_UOPS" },
	/* icelake/frontend.json, pipeline.json */
	{ "icl", "INT_MISC:CLEAR_RESTEER_CYCLES", 0x800d, "INT_MISC.CLEAR_RESTEER_CYCLES" },
	{ "icl", "BACLEARS:ANY", 0x1e6, "BACLEARS.ANY" },
	{ "icl", "IDQ:MS_SWITCHES", 0x1043079, "IDQ.MS_SWITCHES" },
	{ "icl", "ILD_STALL:LCP", 0x187, "ILD_STALL.LCP" },
	{ "icl", "IDQ:MITE_CYCLES_ANY", 0x1000479, "IDQ.MITE_CYCLES_ANY" },
	{ "icl", "IDQ:MITE_CYCLES_OK", 0x5000479, "IDQ.MITE_CYCLES_OK" },
	{ "icl", "IDQ:DSB_CYCLES_ANY", 0x1000879, "IDQ.DSB_CYCLES_ANY" },
	{ "icl", "IDQ:DSB_CYCLES_OK", 0x5000879, "IDQ.DSB_CYCLES_OK" },
	{ "icl", "LSD:CYCLES_ACTIVE", 0x10001a8, "LSD.CYCLES_ACTIVE" },
	{ "icl", "LSD:CYCLES_OK", 0x50001a8, "LSD.CYCLES_OK" },
	{ "icl", "CPU_CLK_UNHALTED:DISTRIBUTED", 0x2ec, "CPU_CLK_UNHALTED.DISTRIBUTED" },
	/* sapphirerapids/frontend.json, pipeline.json */
	{ "spr", "IDQ:MS_SWITCHES", 0x1042079, "IDQ.MS_SWITCHES" },
	{ "spr", "DECODE:LCP", 0x187, "DECODE.LCP" },
	{ "spr", "IDQ:MITE_CYCLES_ANY", 0x1000479, "IDQ.MITE_CYCLES_ANY" },
	{ "spr", "IDQ:MITE_CYCLES_OK", 0x6000479, "IDQ.MITE_CYCLES_OK" },
	{ "spr", "IDQ:DSB_CYCLES_ANY", 0x1000879, "IDQ.DSB_CYCLES_ANY" },
	{ "spr", "IDQ:DSB_CYCLES_OK", 0x6000879, "IDQ.DSB_CYCLES_OK" },
	{ "spr", "CPU_CLK_UNHALTED:DISTRIBUTED", 0x2ec, "CPU_CLK_UNHALTED.DISTRIBUTED" },
	/* sapphirerapids/floating-point.json (event 0xcf), pipeline.json (AMX
	 * 0xce umask 0x2): the half precision and AMX FLOPs */
	{ "spr", "FP_ARITH_INST_RETIRED2:SCALAR_HALF", 0x1cf, "FP_ARITH_INST_RETIRED2.SCALAR_HALF" },
	{ "spr", "FP_ARITH_INST_RETIRED2:COMPLEX_SCALAR_HALF", 0x2cf, "...COMPLEX_SCALAR_HALF" },
	{ "spr", "FP_ARITH_INST_RETIRED2:128B_PACKED_HALF", 0x4cf, "...128B_PACKED_HALF" },
	{ "spr", "FP_ARITH_INST_RETIRED2:256B_PACKED_HALF", 0x8cf, "...256B_PACKED_HALF" },
	{ "spr", "FP_ARITH_INST_RETIRED2:512B_PACKED_HALF", 0x10cf, "...512B_PACKED_HALF" },
	{ "spr", "AMX_OPS_RETIRED:BF16", 0x2ce, "AMX_OPS_RETIRED.BF16" },
	/* icelake/pipeline.json: UOPS_DECODED.DEC0 0x56 umask 0x1, and its
	 * cycles (cmask 1) for heavy_ops */
	{ "icl", "UOPS_DECODED:DEC0", 0x156, "UOPS_DECODED.DEC0" },
	{ "icl", "UOPS_DECODED:DEC0:c=1", 0x1000156, "UOPS_DECODED.DEC0 cmask=1" },
	{ "icl", "UOPS_ISSUED:ANY", 0x10e, "UOPS_ISSUED.ANY" },
	/* the cycle-accounted CPI stack (family cyc_cpi): skylake/memory.json,
	 * pipeline.json; icelake/memory.json, pipeline.json (DIVIDER_ACTIVE
	 * umask 0x09); sapphirerapids/memory.json (MEMORY_ACTIVITY 0x47,
	 * EXE_ACTIVITY.BOUND_ON_LOADS), pipeline.json (INT_MISC 0xad, ARITH 0xb0) */
	{ "skl", "CYCLE_ACTIVITY:STALLS_L1D_MISS", 0xc000ca3, "CYCLE_ACTIVITY.STALLS_L1D_MISS" },
	{ "skl", "CYCLE_ACTIVITY:STALLS_L2_MISS", 0x50005a3, "CYCLE_ACTIVITY.STALLS_L2_MISS" },
	{ "skl", "CYCLE_ACTIVITY:STALLS_L3_MISS", 0x60006a3, "CYCLE_ACTIVITY.STALLS_L3_MISS" },
	{ "skl", "ARITH:DIVIDER_ACTIVE", 0x1000114, "ARITH.DIVIDER_ACTIVE" },
	{ "skx", "ARITH:DIVIDER_ACTIVE", 0x1000114, "ARITH.DIVIDER_ACTIVE" },
	{ "icl", "CYCLE_ACTIVITY:STALLS_L1D_MISS", 0xc000ca3, "CYCLE_ACTIVITY.STALLS_L1D_MISS" },
	{ "icl", "CYCLE_ACTIVITY:STALLS_L2_MISS", 0x50005a3, "CYCLE_ACTIVITY.STALLS_L2_MISS" },
	{ "icl", "CYCLE_ACTIVITY:STALLS_L3_MISS", 0x60006a3, "CYCLE_ACTIVITY.STALLS_L3_MISS" },
	{ "icl", "CYCLE_ACTIVITY:STALLS_MEM_ANY", 0x140014a3, "CYCLE_ACTIVITY.STALLS_MEM_ANY" },
	{ "icl", "CYCLE_ACTIVITY:STALLS_TOTAL", 0x40004a3, "CYCLE_ACTIVITY.STALLS_TOTAL" },
	{ "icl", "ARITH:DIVIDER_ACTIVE", 0x1000914, "ARITH.DIVIDER_ACTIVE" },
	{ "icl", "INT_MISC:RECOVERY_CYCLES", 0x10d, "INT_MISC.RECOVERY_CYCLES" },
	{ "spr", "MEMORY_ACTIVITY:STALLS_L1D_MISS", 0x3000347, "MEMORY_ACTIVITY.STALLS_L1D_MISS" },
	{ "spr", "MEMORY_ACTIVITY:STALLS_L2_MISS", 0x5000547, "MEMORY_ACTIVITY.STALLS_L2_MISS" },
	{ "spr", "MEMORY_ACTIVITY:STALLS_L3_MISS", 0x9000947, "MEMORY_ACTIVITY.STALLS_L3_MISS" },
	{ "spr", "EXE_ACTIVITY:BOUND_ON_LOADS", 0x50021a6, "EXE_ACTIVITY.BOUND_ON_LOADS" },
	{ "spr", "ARITH:DIVIDER_ACTIVE", 0x10009b0, "ARITH.DIVIDER_ACTIVE (ARITH.DIV_ACTIVE)" },
	{ "spr", "INT_MISC:RECOVERY_CYCLES", 0x1ad, "INT_MISC.RECOVERY_CYCLES" },
	{ "spr", "INT_MISC:CLEAR_RESTEER_CYCLES", 0x80ad, "INT_MISC.CLEAR_RESTEER_CYCLES" },
};

/* Arm architected events (arm64/common-and-microarch.json EventCode), by
 * the perf name each Neoverse model gives them: the model's raw code must
 * be the architecture's number. */
static const struct { const char *perf_name; uint64_t config; } arm_goldens[] = {
	{ "CPU_CYCLES", 0x11 }, { "INST_RETIRED", 0x08 }, { "STALL_SLOT", 0x3f },
	{ "STALL_SLOT_FRONTEND", 0x3e }, { "STALL_SLOT_BACKEND", 0x3d }, { "OP_RETIRED", 0x3a },
	{ "OP_SPEC", 0x3b }, { "BR_MIS_PRED_RETIRED", 0x22 }, { "L1I_CACHE_REFILL", 0x01 },
	{ "L2D_CACHE_REFILL", 0x17 }, { "ITLB_WALK", 0x35 }, { "DTLB_WALK", 0x34 },
	{ "LL_CACHE_MISS_RD", 0x37 }, { "FP_FIXED_OPS_SPEC", 0x80c1 },
	{ "FP_SCALE_OPS_SPEC", 0x80c0 }, { "STALL_FRONTEND", 0x23 }, { "STALL_BACKEND", 0x24 },
	{ "BR_MIS_PRED", 0x10 }, { "STALL_BACKEND_MEM", 0x4005 },
};

/* Every event of an Arm model is raw, encodes without libpfm4 and carries
 * the architected number its perf name stands for. */
static void check_arm(const struct model *m)
{
	struct perf_event_attr a;
	char err[512];
	unsigned g, e;
	size_t i;

	for (g = 0; g < m->n_groups; g++)
		for (e = 0; e < m->groups[g].n_events; e++) {
			const struct model_event *ev = &m->groups[g].events[e];
			bool known = false;

			memset(&a, 0, sizeof(a));
			CHECK(event_encode(ev->name, &a, err, sizeof(err)) == 0);
			CHECK_EQ_U(a.type, PERF_TYPE_RAW);
			for (i = 0; i < sizeof(arm_goldens) / sizeof(arm_goldens[0]); i++)
				if (strcmp(arm_goldens[i].perf_name, ev->perf_name) == 0) {
					if (a.config != arm_goldens[i].config)
						fprintf(stderr, "%s: %s is 0x%llx, Arm's is 0x%llx\n",
							m->name, ev->perf_name,
							(unsigned long long)a.config,
							(unsigned long long)arm_goldens[i].config);
					CHECK_EQ_U(a.config, arm_goldens[i].config);
					known = true;
				}
			if (!known)
				fprintf(stderr, "%s: %s has no golden code\n", m->name, ev->perf_name);
			CHECK(known);
		}
}

/* perf's raw syntax: "r" and hex digits, nothing else. */
static void check_raw_syntax(void)
{
	uint64_t v;

	CHECK(event_encode_parse_raw("r4c2", &v) && v == 0x4c2);
	CHECK(event_encode_parse_raw("r80C1", &v) && v == 0x80c1);
	CHECK(event_encode_parse_raw("rffffffffffffffff", &v) && v == UINT64_MAX);
	CHECK(!event_encode_parse_raw("r", &v));
	CHECK(!event_encode_parse_raw("r1ffffffffffffffff", &v));  /* 17 digits */
	CHECK(!event_encode_parse_raw("r4g", &v));
	CHECK(!event_encode_parse_raw("RETIRED_OPS", &v));
	CHECK(!event_encode_parse_raw("x3c", &v));
}

/* In a child with the PMU forced: every model event for pmu encodes, and
 * the golden ones to their codes. */
static int check_pmu(const char *pmu)
{
	const struct model *m = model_for_pmu(pmu);
	struct perf_event_attr a;
	char err[512];
	size_t i;
	unsigned g, e;

	setenv("LIBPFM_FORCE_PMU", pmu, 1);
	CHECK(m != NULL);
	CHECK(event_encode_init(err, sizeof(err)) == 0);
	for (g = 0; g < m->n_groups; g++)
		for (e = 0; e < m->groups[g].n_events; e++) {
			const char *name = m->groups[g].events[e].name;

			if (sysfs_event_is_spec(name))
				continue;  /* perf metrics: checked from a sysfs tree below */
			memset(&a, 0, sizeof(a));
			if (event_encode(name, &a, err, sizeof(err)) != 0) {
				fprintf(stderr, "%s: %s: %s\n", pmu, name, err);
				return 1;
			}
			CHECK_EQ_U(a.type, PERF_TYPE_RAW);
		}
	for (i = 0; i < sizeof(goldens) / sizeof(goldens[0]); i++) {
		if (strcmp(goldens[i].pmu, pmu) != 0)
			continue;
		memset(&a, 0, sizeof(a));
		if (event_encode(goldens[i].event, &a, err, sizeof(err)) != 0) {
			fprintf(stderr, "%s: %s: %s\n", pmu, goldens[i].event, err);
			return 1;
		}
		if (a.config != goldens[i].config) {
			fprintf(stderr, "%s: %s encodes 0x%llx, perf's %s is 0x%llx\n", pmu,
				goldens[i].event, (unsigned long long)a.config, goldens[i].json_name,
				(unsigned long long)goldens[i].config);
			return 1;
		}
	}
	return 0;
}

static void write_file(const char *dir, const char *name, const char *text)
{
	char path[512];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "w");
	CHECK(f != NULL);
	fputs(text, f);
	fclose(f);
}

/* The kernel's perf-metrics strings in a fake sysfs tree resolve to the
 * codes every Ice Lake+ model relies on. */
static void check_perf_metrics(void)
{
	static const struct { const char *name, *text; uint64_t config; } ev[] = {
		{ "slots", "event=0x00,umask=0x4", 0x400 },
		{ "topdown-retiring", "event=0x00,umask=0x80", 0x8000 },
		{ "topdown-bad-spec", "event=0x00,umask=0x81", 0x8100 },
		{ "topdown-fe-bound", "event=0x00,umask=0x82", 0x8200 },
		{ "topdown-be-bound", "event=0x00,umask=0x83", 0x8300 },
		{ "topdown-heavy-ops", "event=0x00,umask=0x84", 0x8400 },
		{ "topdown-br-mispredict", "event=0x00,umask=0x85", 0x8500 },
		{ "topdown-fetch-lat", "event=0x00,umask=0x86", 0x8600 },
		{ "topdown-mem-bound", "event=0x00,umask=0x87", 0x8700 },
	};
	char root[] = "/tmp/stackd-sysfs.XXXXXX", dir[600], spec[64], err[512];
	const struct model *models[] = { &model_icl, &model_icx, &model_spr };
	struct perf_event_attr a;
	size_t i, k;
	unsigned g, e;

	CHECK(mkdtemp(root) != NULL);
	snprintf(dir, sizeof(dir), "%s/cpu", root);
	CHECK(mkdir(dir, 0755) == 0);
	write_file(dir, "type", "4\n");
	snprintf(dir, sizeof(dir), "%s/cpu/format", root);
	CHECK(mkdir(dir, 0755) == 0);
	write_file(dir, "event", "config:0-7\n");
	write_file(dir, "umask", "config:8-15\n");
	snprintf(dir, sizeof(dir), "%s/cpu/events", root);
	CHECK(mkdir(dir, 0755) == 0);
	for (i = 0; i < sizeof(ev) / sizeof(ev[0]); i++)
		write_file(dir, ev[i].name, ev[i].text);
	for (i = 0; i < sizeof(ev) / sizeof(ev[0]); i++) {
		snprintf(spec, sizeof(spec), "cpu/%s/", ev[i].name);
		memset(&a, 0, sizeof(a));
		CHECK(sysfs_event_resolve(root, spec, &a, err, sizeof(err)) == 0);
		CHECK_EQ_U(a.config, ev[i].config);
	}
	/* and every pseudo event a model names is one of these */
	for (k = 0; k < sizeof(models) / sizeof(models[0]); k++)
		for (g = 0; g < models[k]->n_groups; g++)
			for (e = 0; e < models[k]->groups[g].n_events; e++) {
				const char *name = models[k]->groups[g].events[e].name;

				if (!sysfs_event_is_spec(name))
					continue;
				memset(&a, 0, sizeof(a));
				if (sysfs_event_resolve(root, name, &a, err, sizeof(err)) != 0) {
					fprintf(stderr, "%s: %s\n", models[k]->name, err);
					CHECK(0);
				}
				/* perf metrics lead their group */
				CHECK(models[k]->groups[g].model_leads);
				CHECK(strcmp(models[k]->groups[g].events[0].name, "cpu/slots/") == 0);
			}
	snprintf(dir, sizeof(dir), "rm -rf '%s'", root);
	CHECK(system(dir) == 0);
}

int main(void)
{
	static const char *const pmus[] = {
		"skl", "skx", "icl", "icx", "spr", "amd64_fam19h_zen4", "amd64_fam19h_zen3",
		"amd64_fam17h_zen2",
	};
	const struct model *const *all;
	size_t n, i;
	unsigned g;

	for (i = 0; i < sizeof(pmus) / sizeof(pmus[0]); i++) {
		pid_t pid = fork();
		int status;

		CHECK(pid >= 0);
		if (pid == 0)
			_exit(check_pmu(pmus[i]));
		CHECK(waitpid(pid, &status, 0) == pid);
		if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
			fprintf(stderr, "pmu %s failed\n", pmus[i]);
		CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	}
	check_perf_metrics();
	check_raw_syntax();
	check_arm(&model_arm_n1);
	check_arm(&model_arm_n2);
	check_arm(&model_arm_v1);
	check_arm(&model_arm_v2);

	all = model_all(&n);
	for (i = 0; i < n; i++) {
		const struct model *m = all[i];

		CHECK(m->n_groups <= MODEL_MAX_GROUPS);
		CHECK(m->n_metrics <= MODEL_MAX_METRICS);
		if (m->vendor == VENDOR_NONE)
			continue;
		CHECK(m->n_groups >= 2);
		for (g = 0; g < m->n_groups; g++)
			CHECK(m->groups[g].n_events <= MODEL_MAX_EVENTS);
	}
	return 0;
}
