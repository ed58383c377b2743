/*
 * sampling_mode.h - which sampling mode measured a stretch of CPU time, and
 * in what share, as every surface says it (the API, stackctl, /metrics and
 * through the API the dashboard).
 *
 * A CPU samples every context switch (per-switch: each span is charged to
 * the task that ran it, exact) unless that would cost more than
 * max_sampling_cost; then a clock sampler charges each delta to the task it
 * interrupts (periodic: statistically fair over time, not exact).  The
 * store keeps the CPU time measured periodically per interval, summed over
 * CPUs (the health field periodic_ns); its share of all the CPUs' time
 * (ncpus x length, struct cpu_split's cpu_ns) says how far a figure is an
 * estimate.  Defined once here, beside the attributed share (query.h).
 */
#ifndef STACKD_LIB_SAMPLING_MODE_H
#define STACKD_LIB_SAMPLING_MODE_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

enum sampling_mode {
	SAMPLING_PER_SWITCH,   /* no periodic time at all */
	SAMPLING_MIXED,
	SAMPLING_PERIODIC,     /* all of it (SAMPLING_ALL_PERIODIC_FROM) */
	_SAMPLING_MODE_MAX
};

/* A share this close to 1 is all periodic: each CPU measures its periodic
 * spans on its own clock, which may miss the interval's length by a tick. */
#define SAMPLING_ALL_PERIODIC_FROM 0.999

/* Room for sampling_mode_describe()'s longest text. */
#define SAMPLING_MODE_TEXT_MAX 128

/* The share (0..1) of cpu_ns, all the CPUs' time, measured in periodic
 * mode; 0 when there is no time (nothing was measured at all). */
static inline double sampling_mode_share(uint64_t periodic_ns, uint64_t cpu_ns)
{
	if (cpu_ns == 0 || periodic_ns == 0)
		return 0.0;
	if (periodic_ns >= cpu_ns)
		return 1.0;
	return (double)periodic_ns / (double)cpu_ns;
}

/* The mode of a stretch with this periodic share (a readers' share from
 * the API will do: it is 0 exactly when no time was periodic). */
static inline enum sampling_mode sampling_mode_of(double share)
{
	if (!(share > 0.0))
		return SAMPLING_PER_SWITCH;
	return share >= SAMPLING_ALL_PERIODIC_FROM ? SAMPLING_PERIODIC : SAMPLING_MIXED;
}

/* The API's spelling: "per-switch", "mixed", "periodic". */
static inline const char *sampling_mode_name(enum sampling_mode m)
{
	static const char *const names[_SAMPLING_MODE_MAX] = {
		[SAMPLING_PER_SWITCH] = "per-switch",
		[SAMPLING_MIXED] = "mixed",
		[SAMPLING_PERIODIC] = "periodic",
	};

	return m >= 0 && m < _SAMPLING_MODE_MAX ? names[m] : "?";
}

/* Less than 0.05%: printed "<0.1%", never "0.0%" (none). */
static inline bool sampling_mode_sliver(double share)
{
	return share > 0.0 && share < 0.0005;
}

/* A share in tenths of a percent, as printed: a sliver of periodic time
 * is 1 (never 0, which would read as none), and short of all periodic at
 * most 999 (never 1000, which would read as all). */
static inline unsigned sampling_mode_tenths(double share)
{
	unsigned tenths = (unsigned)(share * 1000.0 + 0.5);

	if (sampling_mode_of(share) != SAMPLING_MIXED)
		return share > 0.0 ? 1000 : 0;
	if (tenths < 1)
		return 1;
	return tenths > 999 ? 999 : tenths;
}

/* The periodic share as people read it: "25.0%", "<0.1%" for a sliver,
 * "0.0%" and "100.0%" only for none and all.  Returns buf. */
static inline const char *sampling_mode_percent(double share, char *buf, size_t len)
{
	unsigned tenths = sampling_mode_tenths(share);

	if (sampling_mode_sliver(share))
		snprintf(buf, len, "<0.1%%");
	else
		snprintf(buf, len, "%u.%u%%", tenths / 10, tenths % 10);
	return buf;
}

/* For people: "per-switch (exact)", "periodic (statistical)", or "mixed,
 * 75.0% per-switch (exact) and 25.0% periodic (statistical)".  The two
 * shares add up to 100.0% as printed (a sliver is "<0.1%" beside
 * ">99.9%"): mixed means both modes ran.  Into buf (at least
 * SAMPLING_MODE_TEXT_MAX bytes to hold it all); returns buf. */
static inline const char *sampling_mode_describe(double share, char *buf, size_t len)
{
	enum sampling_mode m = sampling_mode_of(share);
	unsigned tenths = sampling_mode_tenths(share);

	if (m != SAMPLING_MIXED)
		snprintf(buf, len, "%s", m == SAMPLING_PER_SWITCH ? "per-switch (exact)" :
			 "periodic (statistical)");
	else if (sampling_mode_sliver(share))
		snprintf(buf, len, "mixed, >99.9%% per-switch (exact) and <0.1%% periodic "
			 "(statistical)");
	else
		snprintf(buf, len, "mixed, %u.%u%% per-switch (exact) and %u.%u%% periodic "
			 "(statistical)", (1000 - tenths) / 10, (1000 - tenths) % 10, tenths / 10,
			 tenths % 10);
	return buf;
}

#endif
