/*
 * cpustat.h - a CPU's time as the kernel's /proc/stat counts it: busy,
 * idle, and stolen by the hypervisor, in the kernel's ticks (USER_HZ,
 * 100 a second: 10 ms resolution).
 *
 * For what stackd cannot time itself: whether the host is quiet enough to
 * believe a calibration (calibrate.h), and how busy the CPUs were while
 * nothing of stackd's counted (a re-plan's switch: replan.c).
 */
#ifndef STACKD_CPUSTAT_H
#define STACKD_CPUSTAT_H

#include <stdint.h>

#define CPUSTAT_TICK_NS 10000000ULL   /* USER_HZ is 100 on every Linux ABI */

struct cpustat {
	uint64_t busy_ns;    /* user, nice, system, irq, softirq (guests are in user) */
	uint64_t idle_ns;    /* idle, iowait */
	uint64_t steal_ns;   /* the hypervisor ran something else */
};

/* cpu's line of /proc/stat's text (cpu -1: the "cpu" line, every CPU's
 * sum) into *out.  0, -ENOENT (no such line) or -EINVAL. */
int cpustat_parse(const char *text, int cpu, struct cpustat *out);

/* The same from /proc/stat now. */
int cpustat_read(int cpu, struct cpustat *out);

/* From a to b (b read later): the share of the time the CPU was busy or
 * stolen, 0 to 1 (0 when no tick passed). */
double cpustat_busy_share(const struct cpustat *a, const struct cpustat *b);

#endif
