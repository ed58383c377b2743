/*
 * event_encode.h - turn a model's event name into perf_event_attr fields.
 * libpfm4 names ("perf::PAGE-FAULTS", "INT_MISC:RECOVERY_CYCLES") go through
 * pfm_get_os_event_encoding(); "pmu/event/" pseudo events through sysfs;
 * perf's raw syntax "r<hex>" ("r4c2", "r3f") straight to PERF_TYPE_RAW, for
 * events libpfm4 does not know on this build (an x86 libpfm4 has no ARM
 * tables; Skylake's UOPS_RETIRED.MACRO_FUSED is missing from 4.13).
 */
#ifndef STACKD_EVENT_ENCODE_H
#define STACKD_EVENT_ENCODE_H

#include <linux/perf_event.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Initialise libpfm4 once; safe to call again.  Returns 0 or -EIO with a
 * reason in err. */
int event_encode_init(char *err, size_t errlen);

/* Whether name is perf's raw form "r" + 1..16 hex digits; the code goes to
 * *config. */
bool event_encode_parse_raw(const char *name, uint64_t *config);

/* Fill attr->type, config, config1, config2 and the exclude_* bits for the
 * named event, counting user and kernel.  Returns 0, -ENOENT (unknown here)
 * or -EINVAL, with a one-line reason in err. */
int event_encode(const char *name, struct perf_event_attr *attr, char *err, size_t errlen);

/* The name libpfm4 detected for the host's core PMU ("skl", "amd64_fam19h_zen4"),
 * or NULL when it knows none.  Detection says what the CPU is, not that its
 * counters can be used here (a VM may hide them). */
const char *event_encode_host_pmu(void);

#endif
