/*
 * Every perf name a Zen 2 / Zen 3 model binds to an event (model_event
 * .perf_name: what `stackctl analyze` matches a recording by and
 * --perf-command prints) counts what the model counts: perf's encoding of
 * that name, from Linux perf 7.2.12's own JSON (facts below, with their
 * file), equals libpfm4's encoding of the model's event (forced PMU, as
 * test_model_encodings does); a raw "cpu/event=E,umask=U/" is its own
 * encoding.  A name perf's JSON for the CPU does not have fails.  Issue 31
 * found ic_fw32_miss (0x81, fetch windows missed) and
 * ic_fetch_stall.ic_stall_any (0x87, stall cycles) bound to the i-cache
 * refill columns (0x82, 0x83).
 */
#include "daemon/collect/event_encode.h"
#include "lib/model/model.h"
#include "test.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

/* perf 7.2.12 tools/perf/pmu-events/arch/x86/{amdzen2,amdzen3}/ JSON files:
 * EventCode | UMask << 8 (config as the kernel's amd "cpu" format lays it
 * out).  Only the events a model binds; each listed for the CPU whose
 * JSON has it. */
static const struct { const char *pmu, *name; uint64_t config; } perf_json[] = {
	{ "amd64_fam17h_zen2", "cycles", 0 },          /* generic: not compared */
	{ "amd64_fam17h_zen2", "instructions", 0 },
	{ "amd64_fam17h_zen2", "ex_ret_brn_misp", 0xc3 },              /* core.json */
	{ "amd64_fam17h_zen2", "ic_cache_fill_l2", 0x82 },             /* cache.json */
	{ "amd64_fam17h_zen2", "ic_cache_fill_sys", 0x83 },            /* cache.json */
	{ "amd64_fam17h_zen2", "bp_l1_tlb_miss_l2_tlb_miss", 0xff85 }, /* cache.json */
	{ "amd64_fam17h_zen2", "fp_ret_sse_avx_ops.all", 0xff03 },     /* floating-point.json */
	/* names a model must not take for the events above: other counts */
	{ "amd64_fam17h_zen2", "ic_fw32_miss", 0x81 },                 /* cache.json */
	{ "amd64_fam17h_zen2", "ic_fetch_stall.ic_stall_any", 0x487 }, /* cache.json */
	{ "amd64_fam17h_zen2", "ls_refills_from_sys.ls_mabresp_lcl_dram", 0x843 },
	{ "amd64_fam19h_zen3", "ic_fw32_miss", 0x81 },
	{ "amd64_fam19h_zen3", "ic_fetch_stall.ic_stall_any", 0x487 },
	{ "amd64_fam19h_zen3", "ls_dmnd_fills_from_sys.mem_io_local", 0x843 },
	{ "amd64_fam19h_zen3", "cycles", 0 },
	{ "amd64_fam19h_zen3", "instructions", 0 },
	{ "amd64_fam19h_zen3", "ex_ret_brn_misp", 0xc3 },
	{ "amd64_fam19h_zen3", "ic_cache_fill_l2", 0x82 },
	{ "amd64_fam19h_zen3", "ic_cache_fill_sys", 0x83 },
	{ "amd64_fam19h_zen3", "bp_l1_tlb_miss_l2_tlb_miss", 0xff85 },
	{ "amd64_fam19h_zen3", "fp_ret_sse_avx_ops.all", 0xff03 },
};

/* Bits perf's umask sets that the CPU defines no count for: the same
 * count.  The defined bits are the umasks of the same JSON's named
 * sub-events: amdzen2's bp_l1_tlb_miss_l2_tlb_miss.{if1g,if2m,if4k} 0x07
 * (amdzen3's adds coalesced_4k, 0x08: there 0xff is not 0x07, so the
 * model binds a raw name); fp_ret_sse_avx_ops.{add_sub,mult,div,mac}_flops
 * 0x0f on both. */
static const struct { const char *pmu, *name; uint64_t defined; } defined_bits[] = {
	{ "amd64_fam17h_zen2", "bp_l1_tlb_miss_l2_tlb_miss", 0x0785 },
	{ "amd64_fam17h_zen2", "fp_ret_sse_avx_ops.all", 0x0f03 },
	{ "amd64_fam19h_zen3", "fp_ret_sse_avx_ops.all", 0x0f03 },
};

static uint64_t defined_mask(const char *pmu, const char *name, uint64_t config)
{
	size_t i;

	for (i = 0; i < sizeof(defined_bits) / sizeof(defined_bits[0]); i++)
		if (strcmp(defined_bits[i].pmu, pmu) == 0 && strcmp(defined_bits[i].name, name) == 0)
			return defined_bits[i].defined;
	return config;
}

/* perf's config of name on pmu: its JSON's, or a raw cpu/event=,umask=/. */
static bool perf_config(const char *pmu, const char *name, uint64_t *config, bool *generic)
{
	unsigned ev, um;
	size_t i;

	*generic = false;
	if (sscanf(name, "cpu/event=0x%x,umask=0x%x/", &ev, &um) == 2) {
		*config = ev | (uint64_t)um << 8;
		return true;
	}
	for (i = 0; i < sizeof(perf_json) / sizeof(perf_json[0]); i++)
		if (strcmp(perf_json[i].pmu, pmu) == 0 && strcmp(perf_json[i].name, name) == 0) {
			*config = perf_json[i].config;
			*generic = *config == 0;
			return true;
		}
	return false;
}

static int check_pmu(const char *pmu)
{
	const struct model *m = model_for_pmu(pmu);
	struct perf_event_attr a;
	char err[512];
	unsigned g, e, bad = 0;

	setenv("LIBPFM_FORCE_PMU", pmu, 1);
	CHECK(m != NULL);
	CHECK(event_encode_init(err, sizeof(err)) == 0);
	for (g = 0; g < m->n_groups; g++)
		for (e = 0; e < m->groups[g].n_events; e++) {
			const struct model_event *ev = &m->groups[g].events[e];
			const char *perf = model_event_perf_name(ev);
			uint64_t want, mask;
			bool generic;

			if (!perf_config(pmu, perf, &want, &generic)) {
				fprintf(stderr, "%s: %s: perf's JSON has no '%s'\n", pmu, ev->column,
					perf);
				bad++;
				continue;
			}
			if (generic)
				continue;
			memset(&a, 0, sizeof(a));
			CHECK(event_encode(ev->name, &a, err, sizeof(err)) == 0);
			mask = defined_mask(pmu, perf, want);
			if ((a.config & 0xffffULL) != (want & mask)) {
				fprintf(stderr, "%s: %s counts 0x%llx, perf's %s 0x%llx\n", pmu,
					ev->column, (unsigned long long)a.config,
					perf, (unsigned long long)want);
				bad++;
			}
		}
	return bad == 0 ? 0 : 1;
}

int main(void)
{
	static const char *const pmus[] = { "amd64_fam17h_zen2", "amd64_fam19h_zen3" };
	size_t i;

	for (i = 0; i < sizeof(pmus) / sizeof(pmus[0]); i++) {
		pid_t pid = fork();
		int status;

		CHECK(pid >= 0);
		if (pid == 0)
			_exit(check_pmu(pmus[i]));
		CHECK(waitpid(pid, &status, 0) == pid);
		CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	}
	return 0;
}
