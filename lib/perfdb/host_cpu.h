/*
 * host_cpu.h - which CPU this is, the way Linux perf decides it, and the core
 * PMUs the kernel gives it.
 *
 * The CPU id is perf's PERF_CPUID string (tools/perf/arch/x86/util/header.c
 * get_cpuid_str(), tools/perf/arch/arm64/util/header.c): "GenuineIntel-6-AD-1"
 * (vendor, decimal family, upper-case hex model and stepping) on x86, the
 * MIDR "0x00000000410fd4f0" on Arm.  It is matched against perf's mapfile
 * rows (perfdb_maps[]) with perf's own rules, so the table we pick is the one
 * `perf stat -M` would use on that host.  libpfm4 is not asked.
 *
 * Leaf code: it reads /proc and /sys files under a root directory (tests pass
 * a fixture, tests/data/hosts/) and parses strings; it never logs.
 */
#ifndef STACKD_HOST_CPU_H
#define STACKD_HOST_CPU_H

#include "lib/perfdb/perfdb.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define HOST_CPU_MAX_PMUS 8
#define HOST_CPU_ID_LEN 64

/* One core PMU: /sys/bus/event_source/devices/<name>/. */
struct host_pmu {
	char name[64];           /* "cpu", "cpu_core", "cpu_atom", "armv8_pmuv3_0" */
	uint32_t type;           /* its type file: perf_event_attr.type */
	/* The CPUs it counts on, as the kernel lists them ("0-15,32").  From
	 * its cpus file; a PMU with none (x86's "cpu") counts on every online
	 * CPU, as perf assumes, so this is sys/devices/system/cpu/online. */
	char cpus[256];
	char pmu_name[32];       /* caps/pmu_name (Intel: "sapphire_rapids"), or "" */
	uint32_t slots;          /* caps/slots (Arm PMMIR_EL1.SLOTS), 0 when absent */
	/* events/slots is published: Intel's perf-metrics Top-Down (the
	 * kernel shows it only where PERF_METRICS is enumerated). */
	bool perf_metrics;
	/* PERF_CPUID of the PMU's first CPU, as perf matches a table per PMU:
	 * on Arm each core type has its own MIDR; on x86 the host's. */
	char cpuid[HOST_CPU_ID_LEN];
};

struct host_cpu {
	/* enum perfdb_vendor (PERFDB_ARM: any arm64 CPU, named by its MIDR);
	 * 0 = an x86 vendor perf has no tables for. */
	uint8_t vendor;
	char vendor_id[16];      /* x86 CPUID vendor: "GenuineIntel"; "" on Arm */
	char cpuid[HOST_CPU_ID_LEN];  /* PERF_CPUID, as perf spells it */
	/* x86: CPUID family/model/stepping with the extended fields folded in
	 * (what /proc/cpuinfo shows and perf prints). */
	unsigned family, model, stepping;
	/* Arm: MIDR_EL1 and its fields. */
	uint64_t midr;
	unsigned implementer, variant, part, revision;
	char model_name[128];    /* /proc/cpuinfo "model name"; "" where none (Arm) */
	struct host_pmu pmus[HOST_CPU_MAX_PMUS];   /* core PMUs, by name */
	unsigned n_pmus;
	bool has_core_pmu;       /* n_pmus > 0: hardware counters can be opened */
	bool hybrid;             /* several core PMUs: cpu_core + cpu_atom, big.LITTLE */
	/* Parsed from a --cpuid string, not read from a host: no PMUs known
	 * (a hybrid table says by itself that it has two). */
	bool hypothetical;
};


/*
 * Fill out from perf's own PERF_CPUID spelling: "GenuineIntel-6-AD-1",
 * "AuthenticAMD-26-2-0" (stepping optional), or an Arm MIDR
 * "0x00000000410fd4f0".  The result is hypothetical: no PMUs.  0, or
 * -EINVAL with err saying what is wrong.
 */
int host_cpu_parse_cpuid(const char *perf_cpuid, struct host_cpu *out, char *err, size_t len);

/*
 * perf's strcmp_cpuid_str(): does a mapfile row's id serve this PERF_CPUID?
 * x86: the row is a POSIX extended regex that must match the whole id (the
 * id without its stepping when the row names none); Arm ("0x..." on both
 * sides): the MIDRs agree but for variant and revision, and the host's
 * variant.revision is at least the row's.  An x86 row never serves an Arm
 * id, nor the reverse (perf holds one arch's rows only).
 */
bool host_cpu_id_matches(const char *map_cpuid, const char *cpuid);

/* The first row of maps[0..n) serving cpuid, in mapfile order, or NULL. */
const struct perfdb_map *host_cpu_match_id_in(const struct perfdb_map *maps, unsigned n,
					      const char *cpuid);

/* The host's table row (its first CPU's id), or NULL: no table. */
const struct perfdb_map *host_cpu_match_in(const struct perfdb_map *maps, unsigned n,
					   const struct host_cpu *c);

/* Shared by host_cpu.c and host_cpu_read.c: set the ids of c from x86
 * CPUID values (as /proc/cpuinfo shows them) or from an Arm MIDR. */
uint8_t host_cpu_x86_vendor(const char *vendor_id);
void host_cpu_set_x86(struct host_cpu *c, const char *vendor_id, unsigned family,
		      unsigned model, unsigned stepping);
void host_cpu_set_midr(struct host_cpu *c, uint64_t midr);

/* The same against perf's tables compiled into stackd (perf_tables.c). */
static inline const struct perfdb_map *host_cpu_match(const struct host_cpu *c)
{
	return host_cpu_match_in(perfdb_maps, perfdb_n_maps, c);
}

#endif
