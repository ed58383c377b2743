/*
 * perfdb_encode.h - a perf table's event as the raw perf_event_attr config
 * bits of its core PMU, and the look-ups the tables need.
 *
 * The bit positions are the kernel's format attributes, per vendor
 * (perfdb_encode.c names each source), written as the kernel writes them
 * in sysfs ("config:0-7,32-35"); no libpfm4, no sysfs.  The result is what
 * perf itself would put in attr.config/config1 for the event's JSON fields:
 * the kernel sets the enable, interrupt and privilege bits.  The simulated
 * PMU (tests/sim/simpmu_sysfs.c) writes the same formats out as its sysfs
 * tree, so that the collector's own term parser reads them.
 */
#ifndef STACKD_PERFDB_ENCODE_H
#define STACKD_PERFDB_ENCODE_H

#include "lib/perfdb/perfdb.h"

#include <stdbool.h>

/* The raw config (and config1: Intel's offcore_rsp, ldlat, frontend) of e,
 * an event of table t (PERFDB_EV_RAW, FIXED or PERF_METRICS).  0, or
 * -EINVAL with the reason in err: a GENERIC event is opened by its name,
 * a RETIRE_LATENCY one is not counted at all, and a field the vendor's
 * format has no bits for (an Arm umask, an AMD AnyThread) is refused. */
int perfdb_encode(const struct perfdb_table *t, const struct perfdb_event *e,
		  uint64_t *config, uint64_t *config1, char *err, size_t len);

/* The format file of term on the core PMU of vendor (enum perfdb_vendor),
 * as the kernel publishes it in <pmu>/format/<term>: "config:24-31".
 * umask2: the CPU has Intel's second umask byte (config 40-47).  NULL when
 * that PMU has no such term. */
const char *perfdb_format(unsigned vendor, const char *term, bool umask2);
/* The terms of vendor's format directory, NULL-terminated (Intel's "any"
 * included: a CPU that deprecates AnyThread does not publish it). */
const char *const *perfdb_format_terms(unsigned vendor);
/* Put value into *config / *config1 where format ("config:0-7,32-35",
 * "config1:0-23") says, low bits first.  0; -ERANGE when value has bits
 * beyond the format's; -EINVAL for a malformed format or another field. */
int perfdb_format_place(const char *format, uint64_t value, uint64_t *config,
			uint64_t *config1);
/* Whether table t has events that need Intel's umask2 byte, or AnyThread. */
bool perfdb_table_has_umask2(const struct perfdb_table *t);
bool perfdb_table_has_any(const struct perfdb_table *t);

/* The index of the event named name (case-insensitive, as perfdb.h spells
 * names) in t, for pmu ("cpu_core", "cpu_atom"; NULL for a non-hybrid
 * table's one core PMU, compared exactly); -1 when t has none. */
int perfdb_find_event(const struct perfdb_table *t, const char *name, const char *pmu);

/* The table of perf's directory name ("sapphirerapids", "arm/neoverse-v3"),
 * or NULL. */
const struct perfdb_table *perfdb_table_by_name(const char *name);

#endif
