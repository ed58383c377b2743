/*
 * perfdb_encode.h - a perf table's event as the raw perf_event_attr config
 * bits of its core PMU, and the look-ups the tables need.
 *
 * The bit positions are the kernel's format attributes, per vendor
 * (perfdb_encode.c names each source); no libpfm4, no sysfs.  The result
 * is what perf itself would put in attr.config/config1 for the event's
 * JSON fields: the kernel sets the enable, interrupt and privilege bits.
 */
#ifndef STACKD_PERFDB_ENCODE_H
#define STACKD_PERFDB_ENCODE_H

#include "lib/perfdb/perfdb.h"

/* The raw config (and config1: Intel's offcore_rsp, ldlat, frontend) of e,
 * an event of table t (PERFDB_EV_RAW, FIXED or PERF_METRICS).  0, or
 * -EINVAL with the reason in err: a GENERIC event is opened by its name,
 * a RETIRE_LATENCY one is not counted at all, and a field the vendor's
 * format has no bits for (an Arm umask, an AMD AnyThread) is refused. */
int perfdb_encode(const struct perfdb_table *t, const struct perfdb_event *e,
		  uint64_t *config, uint64_t *config1, char *err, size_t len);

/* The index of the event named name (case-insensitive, as perfdb.h spells
 * names) in t, for pmu ("cpu_core", "cpu_atom"; NULL for a non-hybrid
 * table's one core PMU, compared exactly); -1 when t has none. */
int perfdb_find_event(const struct perfdb_table *t, const char *name, const char *pmu);

/* The table of perf's directory name ("sapphirerapids", "arm/neoverse-v3"),
 * or NULL. */
const struct perfdb_table *perfdb_table_by_name(const char *name);

#endif
