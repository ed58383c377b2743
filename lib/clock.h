/*
 * clock.h - the three clocks stackd uses, in ns.
 *   monotonic: perf record times (use_clockid), rotation and flush timing
 *   boottime:  process start times (/proc/PID/stat counts from boot)
 *   realtime:  what is stored and shown to people
 */
#ifndef STACKD_CLOCK_H
#define STACKD_CLOCK_H

#include <stdint.h>
#include <time.h>

static inline uint64_t clock_ns(clockid_t id)
{
	struct timespec ts;

	clock_gettime(id, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

static inline uint64_t monotonic_ns(void)
{
	return clock_ns(CLOCK_MONOTONIC);
}

#endif
