/*
 * cpulist.h - parse kernel CPU lists such as "0-3,8,10-11"
 * (/sys/devices/system/cpu/online).
 */
#ifndef STACKD_CPULIST_H
#define STACKD_CPULIST_H

#include <stddef.h>

/* Parse text into a malloc'd ascending array of CPU numbers; on success
 * *ret_cpus is the caller's to free().  Returns 0, -EINVAL or -ENOMEM. */
int cpulist_parse(const char *text, int **ret_cpus, size_t *ret_n);

/* Read and parse /sys/devices/system/cpu/online. */
int cpulist_online(int **ret_cpus, size_t *ret_n);

#endif
