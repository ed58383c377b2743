/*
 * sysfs_event.h - perf pseudo events published by the kernel in sysfs, such
 * as cpu/slots/ and cpu/topdown-fe-bound/ (Intel perf metrics), which libpfm4
 * does not know.  Reads <root>/<pmu>/type, <root>/<pmu>/events/<name> and the
 * <root>/<pmu>/format/<term> files that say where each term's bits go.
 */
#ifndef STACKD_SYSFS_EVENT_H
#define STACKD_SYSFS_EVENT_H

#include <linux/perf_event.h>
#include <stdbool.h>
#include <stddef.h>

#define SYSFS_EVENT_ROOT "/sys/bus/event_source/devices"

/* True when spec looks like "pmu/name/". */
bool sysfs_event_is_spec(const char *spec);

/* Fill attr->type, config, config1, config2 for spec.  root is normally
 * SYSFS_EVENT_ROOT (tests pass a fake tree).  Returns 0, -ENOENT (no such PMU
 * or event here), -EINVAL (malformed spec or sysfs content); err gets a
 * one-line reason either way on failure. */
int sysfs_event_resolve(const char *root, const char *spec, struct perf_event_attr *attr,
			char *err, size_t errlen);

#endif
