/*
 * event_encode.h - turn a model's event name into perf_event_attr fields.
 * libpfm4 names ("perf::PAGE-FAULTS", "INT_MISC:RECOVERY_CYCLES") go through
 * pfm_get_os_event_encoding(); "pmu/event/" pseudo events through sysfs.
 */
#ifndef STACKD_EVENT_ENCODE_H
#define STACKD_EVENT_ENCODE_H

#include <linux/perf_event.h>
#include <stddef.h>

/* Initialise libpfm4 once; safe to call again.  Returns 0 or -EIO with a
 * reason in err. */
int event_encode_init(char *err, size_t errlen);

/* Fill attr->type, config, config1, config2 and the exclude_* bits for the
 * named event, counting user and kernel.  Returns 0, -ENOENT (unknown here)
 * or -EINVAL, with a one-line reason in err. */
int event_encode(const char *name, struct perf_event_attr *attr, char *err, size_t errlen);

/* The name libpfm4 detected for the host's core PMU ("skl", "amd64_fam19h_zen4"),
 * or NULL when it knows none.  Detection says what the CPU is, not that its
 * counters can be used here (a VM may hide them). */
const char *event_encode_host_pmu(void);

#endif
