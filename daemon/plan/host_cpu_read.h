/*
 * host_cpu_read.h - this host's CPU and core PMUs (lib/perfdb/host_cpu.h),
 * read from its files: the planner's and the model choice's first input.
 */
#ifndef STACKD_HOST_CPU_READ_H
#define STACKD_HOST_CPU_READ_H

#include "lib/perfdb/host_cpu.h"

/*
 * Read the CPU and its core PMUs from the files under root ("" or "/" for
 * this host): proc/cpuinfo, sys/devices/system/cpu/..., and
 * sys/bus/event_source/devices/.  0 on success; -ENOENT when cpuinfo is
 * missing, -EINVAL when it names no CPU we can identify; err says why.
 * A vendor perf has no tables for still reads (vendor 0): it may count.
 */
int host_cpu_read(const char *root, struct host_cpu *out, char *err, size_t len);

#endif
