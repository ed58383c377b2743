/*
 * clock.h - the three clocks stackd uses, in ns.
 *   monotonic: perf record times (use_clockid), rotation and flush timing
 *   boottime:  process start times (/proc/PID/stat counts from boot)
 *   realtime:  what is stored and shown to people
 * and the one set of ns-per-unit constants every file uses.  They are
 * signed so that int64_t arithmetic (SQLite columns, bucket bounds) stays
 * signed; mixed with uint64_t they convert to unsigned as usual.
 */
#ifndef STACKD_CLOCK_H
#define STACKD_CLOCK_H

#include <stdint.h>
#include <time.h>

#define NS_PER_USEC 1000LL
#define NS_PER_MSEC 1000000LL
#define NS_PER_SEC  1000000000LL

static inline uint64_t clock_ns(clockid_t id)
{
	struct timespec ts;

	clock_gettime(id, &ts);
	return (uint64_t)ts.tv_sec * NS_PER_SEC + (uint64_t)ts.tv_nsec;
}

static inline uint64_t monotonic_ns(void)
{
	return clock_ns(CLOCK_MONOTONIC);
}

#endif
