/*
 * perf's tables (lib/perfdb/perf_tables.c, generated from Linux 7.2's
 * pmu-events JSON) encoded by perfdb_encode() against libpfm4 (Debian's
 * 4.13, its own event tables): two independent sources of the same raw
 * config bits.  For every pair below, in a child with LIBPFM_FORCE_PMU set
 * before pfm_initialize() (as test_model_encodings does), every table event
 * libpfm4 also knows is encoded both ways and must agree, but for the
 * explained differences listed in `explained`.
 *
 * How an event is found in libpfm4:
 *   Intel, by name: perf's EVENT.UMASK is libpfm4's EVENT:UMASK (later dots
 *   become '_', as libpfm4 spells CYCLES_0_UOPS_DELIV_CORE); perf's terms
 *   become libpfm4 modifiers (cmask c=, edge e=1, inv i=1, any t=1, ldlat=)
 *   and a umask term a raw umask (EVENT:0x3, PFMLIB_PMU_FL_RAW_UMASK).
 *   AMD, by code: perf names AMD events by the PPR mnemonic, libpfm4 by a
 *   description, so the libpfm4 event is the one with perf's event code;
 *   perf's umask must then be made of that event's libpfm4 umask bits, and
 *   the full config is compared with libpfm4 given the raw umask.
 * A name libpfm4 does not know is not compared (counted as "unknown").
 * libpfm4 4.13 built for x86 has no Arm PMU (arm_n1, arm_v1 ... exist only
 * in its arm64 build): Arm codes are checked in test_perfdb_tables against
 * the kernel's architected numbers instead.
 */
#include "tests/sim/perfdb_encode.h"
#include "test.h"

#include <perfmon/pfmlib_perf_event.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/wait.h>
#include <unistd.h>

/* Bits either side may set that are not the event's: USR 16 and OS 17
 * (perf_event sets them from exclude_user/exclude_kernel), INT 20 and EN 22
 * (the kernel sets them when it programs the counter).  libpfm4's
 * PFM_OS_PERF_EVENT encoding already leaves them out; masked so that a
 * future libpfm4 choosing otherwise is not read as a disagreement. */
#define NOT_EVENT_BITS ((1ULL << 16) | (1ULL << 17) | (1ULL << 20) | (1ULL << 22))

/* perf table -> libpfm4 PMU.  libpfm4's own model lists say which CPU a
 * PMU serves (lib/pfmlib_intel_icl.c: icl covers Tiger Lake and Rocket
 * Lake); Emerald Rapids has the Sapphire Rapids core and no libpfm4 PMU
 * of its own in 4.13, so its table is checked against spr too. */
static const struct { const char *table, *pfm; } pairs[] = {
	{ "sandybridge", "snb" }, { "jaketown", "snb_ep" }, { "ivybridge", "ivb" },
	{ "ivytown", "ivb_ep" }, { "haswell", "hsw" }, { "haswellx", "hsw_ep" },
	{ "broadwell", "bdw" }, { "broadwellde", "bdw_ep" }, { "broadwellx", "bdw_ep" },
	{ "skylake", "skl" }, { "skylakex", "skx" }, { "cascadelakex", "clx" },
	{ "icelake", "icl" }, { "icelakex", "icx" }, { "tigerlake", "icl" },
	{ "rocketlake", "icl" }, { "sapphirerapids", "spr" }, { "emeraldrapids", "spr" },
	{ "snowridgex", "tmt" }, { "goldmont", "glm" }, { "silvermont", "slm" },
	{ "knightslanding", "knl" }, { "nehalemep", "nhm" }, { "nehalemex", "nhm_ex" },
	{ "westmereep-sp", "wsm" }, { "westmereep-dp", "wsm_dp" }, { "westmereex", "wsm_dp" },
	{ "amdzen1", "amd64_fam17h_zen1" }, { "amdzen2", "amd64_fam17h_zen2" },
	{ "amdzen3", "amd64_fam19h_zen3" }, { "amdzen4", "amd64_fam19h_zen4" },
};

/* Every difference between the two sources, explained; a new one fails.
 * Keyed by libpfm4 PMU and perf's event (its variants with terms too). */
#define JEVENTS_REAL "perf opens the fixed event by its general-counter code (jevents.py " \
	"real_event()), libpfm4 by another code; both count it, on the fixed counter"
#define L2_RQSTS "perf's Intel list sets umask bit 7 (0xc1/0xc2), libpfm4 4.13 has " \
	"the older 0x41/0x42: the two lists differ, not resolved here"
#define SPR_FE "libpfm4 4.13 puts the frontend MSR value in the umask; perf's UMask " \
	"plus frontend MSR is the kernel's (core.c SPR extra_regs 0x40ad/0x04c2, " \
	"MSR_PEBS_FRONTEND 0x7/0x8): a libpfm4 error"
#define AMD_ALL "same config; perf's umask (AMD's list) sets bits libpfm4 4.13 does " \
	"not name (all eight for a total, where libpfm4 names fewer)"
static const struct { const char *pfm, *event, *why; } explained[] = {
	{ "snb", "BR_MISP_RETIRED.ALL_BRANCHES", "perf's umask 0 is the JSON's non-PEBS "
	  "event; libpfm4's 0x4 is the JSON's ALL_BRANCHES_PEBS: the same count" },
	{ "snb_ep", "BR_MISP_RETIRED.ALL_BRANCHES", "as snb" },
	{ "ivb_ep", "MEM_LOAD_UOPS_LLC_MISS_RETIRED.LOCAL_DRAM", "perf's ivytown list has "
	  "umask 0x3, libpfm4's ivb_ep the Ivy Bridge client's 0x1: a libpfm4 error" },
	{ "hsw", "L2_RQSTS.RFO_HIT", L2_RQSTS }, { "hsw_ep", "L2_RQSTS.RFO_HIT", L2_RQSTS },
	{ "bdw", "L2_RQSTS.RFO_HIT", L2_RQSTS }, { "bdw_ep", "L2_RQSTS.RFO_HIT", L2_RQSTS },
	{ "bdw", "L2_RQSTS.DEMAND_DATA_RD_HIT", L2_RQSTS },
	{ "bdw_ep", "L2_RQSTS.DEMAND_DATA_RD_HIT", L2_RQSTS },
	{ "icl", "INST_RETIRED.ANY", JEVENTS_REAL }, { "icx", "INST_RETIRED.ANY", JEVENTS_REAL },
	{ "spr", "INST_RETIRED.ANY", JEVENTS_REAL }, { "wsm", "INST_RETIRED.ANY", JEVENTS_REAL },
	{ "wsm_dp", "INST_RETIRED.ANY", JEVENTS_REAL },
	{ "spr", "CPU_CLK_UNHALTED.THREAD", JEVENTS_REAL },
	{ "glm", "CPU_CLK_UNHALTED.CORE", JEVENTS_REAL },
	{ "icl", "MEM_LOAD_MISC_RETIRED.UC", "libpfm4 4.13 gives event code 0xc4 "
	  "(BR_INST_RETIRED's); Intel's list 0xd4: a libpfm4 error" },
	{ "icx", "MEM_LOAD_MISC_RETIRED.UC", "as icl" },
	{ "spr", "INT_MISC.UNKNOWN_BRANCH_CYCLES", SPR_FE },
	{ "spr", "UOPS_RETIRED.MS", SPR_FE },
	{ "spr", "EXE.AMX_BUSY", "same config; libpfm4 also sets config1 = 0x2, which the "
	  "kernel ignores (no extra register for 0x02b7 on SPR)" },
	{ "amd64_fam17h_zen1", "l2_pf_hit_l2", AMD_ALL },
	{ "amd64_fam17h_zen1", "l2_pf_miss_l2_hit_l3", AMD_ALL },
	{ "amd64_fam17h_zen1", "l2_pf_miss_l2_l3", AMD_ALL },
	{ "amd64_fam17h_zen2", "l2_pf_hit_l2", AMD_ALL },
	{ "amd64_fam17h_zen2", "l2_pf_miss_l2_hit_l3", AMD_ALL },
	{ "amd64_fam17h_zen2", "l2_pf_miss_l2_l3", AMD_ALL },
	{ "amd64_fam17h_zen2", "bp_l1_tlb_fetch_hit", AMD_ALL },
	{ "amd64_fam17h_zen2", "bp_l1_tlb_miss_l2_tlb_miss", AMD_ALL },
	{ "amd64_fam19h_zen3", "bp_l1_tlb_miss_l2_tlb_miss", AMD_ALL },
	{ "amd64_fam19h_zen3", "l2_request_g1.all_no_prefetch", "same config 0xf960; "
	  "libpfm4 4.13 names no umask bit 0 of REQUESTS_TO_L2_GROUP1" },
	{ "amd64_fam19h_zen4", "ls_any_fills_from_sys.all", AMD_ALL },
};

struct tally {
	unsigned events, compared, agree, explained, unknown, bad;
};

/* libpfm4's perf_event encoding of str; false when it has no such event. */
static bool pfm_encode(const char *str, uint64_t *config, uint64_t *config1)
{
	struct perf_event_attr attr;
	pfm_perf_encode_arg_t arg;

	memset(&attr, 0, sizeof(attr));
	memset(&arg, 0, sizeof(arg));
	arg.attr = &attr;
	arg.size = sizeof(arg);
	if (pfm_get_os_event_encoding(str, PFM_PLM0 | PFM_PLM3, PFM_OS_PERF_EVENT, &arg) !=
	    PFM_SUCCESS)
		return false;
	*config = attr.config;
	*config1 = attr.config1;
	return true;
}

/* perf's name without pmu/.../ and modifiers: "EV,t=v" (into buf). */
static char *event_body(const char *name, char *buf, size_t len)
{
	const char *s = strchr(name, '/');
	size_t n;

	if (s != NULL) {
		const char *end = strchr(s + 1, '/');

		n = end ? (size_t)(end - s - 1) : strlen(s + 1);
		s++;
	} else {
		s = name;
		n = strcspn(name, ":");
	}
	snprintf(buf, len, "%.*s", (int)n, s);
	return buf;
}

/* Why perf and libpfm4 differ on this event (its base: perf's name without
 * pmu, terms, modifier), or NULL when that is not explained. */
static const char *explanation(const char *pfm, const char *name)
{
	char base[256];
	size_t i;

	event_body(name, base, sizeof(base));
	base[strcspn(base, ",")] = '\0';
	for (i = 0; i < sizeof(explained) / sizeof(explained[0]); i++)
		if (strcmp(explained[i].pfm, pfm) == 0 && strcasecmp(explained[i].event, base) == 0)
			return explained[i].why;
	return NULL;
}

/* perf's terms as libpfm4 modifiers (appended to out); a umask term goes
 * to *raw_umask; false for a term libpfm4 has no modifier for. */
static bool add_terms(char *terms, char *out, size_t len, int *raw_umask)
{
	char *t, *save = NULL;
	size_t used = strlen(out);

	for (t = strtok_r(terms, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
		const char *v = strchr(t, '=');
		const char *mod;

		v = v ? v + 1 : "1";
		if (strncmp(t, "umask", 5) == 0) {
			*raw_umask = (int)strtol(v, NULL, 0);
			continue;
		}
		mod = strncmp(t, "cmask", 5) == 0 ? "c" : strncmp(t, "edge", 4) == 0 ? "e" :
		      strncmp(t, "inv", 3) == 0 ? "i" : strncmp(t, "any", 3) == 0 ? "t" :
		      strncmp(t, "ldlat", 5) == 0 ? "ldlat" : NULL;
		if (mod == NULL)
			return false;
		used += (size_t)snprintf(out + used, used < len ? len - used : 0, ":%s=%s", mod, v);
	}
	return used < len;
}

/* The libpfm4 string for an Intel table event: false when perf's name has
 * a term libpfm4 cannot say. */
static bool intel_pfm_name(const char *name, char *out, size_t len)
{
	char body[256], mods[128] = "", *terms, *dot;
	int raw_umask = -1;

	event_body(name, body, sizeof(body));
	terms = strchr(body, ',');
	if (terms != NULL) {
		*terms++ = '\0';
		if (!add_terms(terms, mods, sizeof(mods), &raw_umask))
			return false;
	}
	dot = strchr(body, '.');
	if (dot != NULL) {
		size_t i;

		*dot = '\0';
		for (i = 1; dot[i]; i++)
			if (dot[i] == '.')
				dot[i] = '_';
	}
	if (raw_umask >= 0)
		snprintf(out, len, "%s:0x%x%s", body, raw_umask, mods);
	else if (dot != NULL)
		snprintf(out, len, "%s:%s%s", body, dot + 1, mods);
	else
		snprintf(out, len, "%s%s", body, mods);
	return true;
}

/* libpfm4's events of one PMU by event code (AMD). */
struct pfm_code {
	uint64_t code, umasks;
	char name[64];
};

static unsigned pfm_codes(const char *pmu, struct pfm_code *out, unsigned max)
{
	pfm_pmu_info_t pinfo;
	unsigned n = 0;
	int p, idx;

	for (p = 0; p < PFM_PMU_MAX; p++) {
		memset(&pinfo, 0, sizeof(pinfo));
		pinfo.size = sizeof(pinfo);
		if (pfm_get_pmu_info(p, &pinfo) == PFM_SUCCESS && pinfo.name &&
		    strcmp(pinfo.name, pmu) == 0)
			break;
	}
	CHECK(p < PFM_PMU_MAX);
	for (idx = pinfo.first_event; idx != -1 && n < max; idx = pfm_get_event_next(idx)) {
		pfm_event_info_t einfo;
		int a;

		memset(&einfo, 0, sizeof(einfo));
		einfo.size = sizeof(einfo);
		CHECK(pfm_get_event_info(idx, PFM_OS_NONE, &einfo) == PFM_SUCCESS);
		out[n].code = einfo.code;
		out[n].umasks = 0;
		snprintf(out[n].name, sizeof(out[n].name), "%s", einfo.name);
		for (a = 0; a < einfo.nattrs; a++) {
			pfm_event_attr_info_t ainfo;

			memset(&ainfo, 0, sizeof(ainfo));
			ainfo.size = sizeof(ainfo);
			CHECK(pfm_get_event_attr_info(idx, a, PFM_OS_NONE, &ainfo) == PFM_SUCCESS);
			if (ainfo.type == PFM_ATTR_UMASK)
				out[n].umasks |= ainfo.code;
		}
		n++;
	}
	return n;
}

/* The libpfm4 string for an AMD table event, found by its code; NULL
 * name when libpfm4 has no event of that code.  *umask_ok: perf's umask is
 * made of that event's libpfm4 umask bits. */
static const char *amd_pfm_name(const struct perfdb_event *e, const struct pfm_code *codes,
				unsigned n, char *out, size_t len, bool *umask_ok)
{
	char body[256], mods[128] = "", *terms;
	int raw_umask = -1;
	unsigned i;

	for (i = 0; i < n; i++)
		if (codes[i].code == e->event_code)
			break;
	if (i == n)
		return NULL;
	*umask_ok = (e->umask & ~codes[i].umasks) == 0;
	event_body(e->name, body, sizeof(body));
	terms = strchr(body, ',');
	if (terms != NULL && !add_terms(terms + 1, mods, sizeof(mods), &raw_umask))
		return NULL;
	snprintf(out, len, "%s:0x%x%s", codes[i].name, e->umask, mods);
	return out;
}

/* Compare one event; the verdict goes to the tally (and stderr). */
static void compare(const struct perfdb_table *t, const struct perfdb_event *e,
		    const char *pfm, const struct pfm_code *codes, unsigned n, struct tally *tl)
{
	uint64_t c0, c1, p0, p1;
	char name[512], err[256];
	bool umask_ok = true;
	const char *why;

	tl->events++;
	if (e->kind != PERFDB_EV_RAW && e->kind != PERFDB_EV_FIXED)
		return;         /* generic, perf metrics, retirement latency: no libpfm4 form */
	CHECK(perfdb_encode(t, e, &c0, &c1, err, sizeof(err)) == 0);
	if (t->vendor == PERFDB_AMD) {
		if (amd_pfm_name(e, codes, n, name, sizeof(name), &umask_ok) == NULL) {
			tl->unknown++;
			return;
		}
	} else if (!intel_pfm_name(e->name, name, sizeof(name))) {
		tl->unknown++;
		return;
	}
	if (!pfm_encode(name, &p0, &p1)) {
		tl->unknown++;
		return;
	}
	tl->compared++;
	if (umask_ok && (c0 & ~NOT_EVENT_BITS) == (p0 & ~NOT_EVENT_BITS) && c1 == p1) {
		tl->agree++;
		return;
	}
	why = explanation(pfm, e->name);
	if (why != NULL) {
		tl->explained++;
		printf("  %s: %s: perf 0x%llx/0x%llx, libpfm4 %s 0x%llx/0x%llx: %s\n", t->name,
		       e->name, (unsigned long long)c0, (unsigned long long)c1, name,
		       (unsigned long long)p0, (unsigned long long)p1, why);
		return;
	}
	tl->bad++;
	fprintf(stderr, "%s/%s: %s: perf 0x%llx/0x%llx, libpfm4 %s 0x%llx/0x%llx%s\n", t->name,
		pfm, e->name, (unsigned long long)c0, (unsigned long long)c1, name,
		(unsigned long long)p0, (unsigned long long)p1,
		umask_ok ? "" : " (umask bits libpfm4 does not define)");
}

/* In a child: one pair; exit 1 on any unexplained disagreement. */
static int check_pair(const char *table, const char *pfm)
{
	static struct pfm_code codes[1024];
	const struct perfdb_table *t = perfdb_table_by_name(table);
	struct tally tl = { 0 };
	unsigned n = 0, i;

	CHECK(t != NULL);
	setenv("LIBPFM_FORCE_PMU", pfm, 1);
	CHECK(pfm_initialize() == PFM_SUCCESS);
	if (t->vendor == PERFDB_AMD)
		n = pfm_codes(pfm, codes, sizeof(codes) / sizeof(codes[0]));
	for (i = 0; i < t->n_events; i++)
		compare(t, &t->events[i], pfm, codes, n, &tl);
	printf("%-15s %-18s %3u events: %3u compared, %3u agree, %u explained, %u differ; "
	       "%u unknown to libpfm4\n", table, pfm, tl.events, tl.compared, tl.agree,
	       tl.explained, tl.bad, tl.unknown);
	fflush(stdout);
	return tl.bad ? 1 : 0;
}

int main(void)
{
	unsigned failed = 0;
	size_t i;

	for (i = 0; i < sizeof(pairs) / sizeof(pairs[0]); i++) {
		pid_t pid;
		int status;

		fflush(stdout);
		pid = fork();
		CHECK(pid >= 0);
		if (pid == 0)
			_exit(check_pair(pairs[i].table, pairs[i].pfm));
		CHECK(waitpid(pid, &status, 0) == pid);
		if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
			failed++;
	}
	CHECK(failed == 0);
	return 0;
}
