/*
 * health_fields.h - the collector's health counts, defined once.
 *
 * Every count the collector keeps about its own losses and troubles is one
 * entry of HEALTH_FIELDS below, and everything that spells the fields is
 * generated from it: the structs (worker, interval, window), the sums at a
 * flush, the store's INSERT, the rollups, the readers' window sums, the
 * JSON of /api/v1/system and /api/v1/top, /metrics, `stackctl status` and
 * the field lists in docs/api.md and stackctl(1) (`make docs-health`).
 * Adding a field is one entry here plus one schema step adding its column
 * to `interval` (tests/unit/test_health.c fails until both agree).
 *
 * X(name, combine, prom, help, label):
 *  name     the C member, which is also the `interval` column and the JSON
 *           key (one spelling: STYLE.md, practice 10)
 *  combine  how values add up over CPUs at a flush and over intervals in a
 *           window or a rollup: sum, or max (also the SQL aggregate's name)
 *  prom     the /metrics name after "stackd_": a sum is a counter (_total)
 *           since stackd started, a max a gauge of the newest interval; a
 *           field named *_ns is a duration, printed there in seconds
 *  help     one sentence: the metric's HELP and the documentation
 *  label    what `stackctl status` calls it
 *
 * A worker counts the fields of its CPU in a struct health_counts (the
 * ones only the flusher sees - straddles, late_cpus - stay 0 there); the
 * flusher combines the CPUs' counts into the interval's struct iv_stats.
 */
#ifndef STACKD_HEALTH_FIELDS_H
#define STACKD_HEALTH_FIELDS_H

#include <stdbool.h>
#include <stdint.h>

#define HEALTH_FIELDS(X)								\
	X(samples, sum, "samples_total",						\
	  "Context-switch samples read.",						\
	  "switch samples read")							\
	X(lost_records, sum, "lost_records_total",					\
	  "Ring-buffer records the kernel dropped.",					\
	  "ring overflows (lost records)")						\
	X(lost_samples, sum, "lost_samples_total",					\
	  "Samples the kernel dropped.",						\
	  "samples lost in ring overflows")						\
	X(throttles, sum, "throttles_total",						\
	  "Times the kernel throttled sampling.",					\
	  "times the kernel throttled sampling")					\
	X(unsampled_switches, sum, "unsampled_switches_total",				\
	  "Context switches that produced no sample (their spans split or unattributed).",	\
	  "switches that produced no sample")						\
	X(split_spans, sum, "split_spans_total",					\
	  "Spans holding unsampled switches, split at the kernel's switch-in records "	\
	  "(CPU time exact, other counts in proportion to time).",			\
	  "spans split at switch-in records")						\
	X(unattributed_spans, sum, "unattributed_spans_total",				\
	  "Counter spans no process could be charged with.",				\
	  "spans charged to [unattributed]")						\
	X(orphan_exits, sum, "orphan_exits_total",					\
	  "Samples of an exited task with no exit record to own them.",			\
	  "exited-task samples with no owner")						\
	X(straddles, sum, "straddles_total",						\
	  "Spans across a pid reuse, left unattributed.",				\
	  "spans across a pid reuse")							\
	X(late_cpus, sum, "late_cpus_total",						\
	  "CPUs whose worker missed a flush deadline.",					\
	  "CPUs late for a flush")							\
	X(dropped, sum, "dropped_total",						\
	  "Deltas lost to memory exhaustion.",						\
	  "deltas dropped (out of memory)")						\
	X(rotations, sum, "rotations_total",						\
	  "Counter group rotations.",							\
	  "group rotations")								\
	X(unschedulable, sum, "unschedulable_total",					\
	  "Group reads that found a group unschedulable (its counters taken).",		\
	  "group reads finding the PMU taken")						\
	X(max_cpu_switch_rate, max, "max_cpu_switch_rate",				\
	  "Context switches per second on the busiest CPU (counted, in either "	\
	  "sampling mode).",								\
	  "context switches/s on the busiest CPU")					\
	X(backwards_reads, sum, "backwards_reads_total",				\
	  "Group reads below the previous read of the group, charged nothing.",		\
	  "counter reads that went backwards")						\
	X(unknown_id_samples, sum, "unknown_id_samples_total",				\
	  "Samples whose event id matches no group of stackd's and whose read fits no "	\
	  "enabled group, dropped.",							\
	  "samples of an unknown event id")						\
	X(foreign_id_samples, sum, "foreign_id_samples_total",				\
	  "Samples carrying another reader's event id (a second sampler of context "	\
	  "switches), attributed to the group that was enabled where they lie in the "	\
	  "ring (their time may be the other reader's).",				\
	  "samples with another reader's id")						\
	X(bad_samples, sum, "bad_samples_total",					\
	  "Ring records that could not be parsed (truncated or malformed), dropped.",	\
	  "ring records that failed to parse")						\
	X(periodic_ns, sum, "periodic_mode_cpu_seconds_total",			\
	  "CPU time (summed over CPUs) measured in periodic mode: a clock sampler "	\
	  "charging each delta to the task it interrupts (statistical), because "	\
	  "sampling every switch would have cost more than max_sampling_cost.",		\
	  "CPU-ns measured in periodic (statistical) mode")				\
	X(replan_gap_ns, sum, "replan_gap_cpu_seconds_total",				\
	  "CPU time (summed over CPUs) in which no counter group was open: a "		\
	  "re-plan's switch between two sets of groups (SIGHUP). Its busy part "	\
	  "(from /proc/stat) is charged to [unattributed], its idle part to [idle].",	\
	  "CPU-ns with no group open (re-plans)")

/* The attributed share (busy CPU time charged to a process, switches
 * sampled) below which every surface warns: status, top, the API, the
 * dashboard, /metrics and the daemon's log. */
#define ATTRIBUTED_WARN_BELOW 0.95
/* ...and only when what went to no process is this share of all the CPUs'
 * time too: on a nearly idle host a few ms unattributed (a start, a stop)
 * make a low share of almost nothing. */
#define ATTRIBUTED_MIN_LOST 0.01

/* cpu: the busy CPU time's attributed share; lost_of_all: the time no
 * process was charged with over all the CPUs' time; sw: the switches'
 * attributed share. */
static inline bool attribution_is_low(double cpu, double lost_of_all, double sw)
{
	return (cpu < ATTRIBUTED_WARN_BELOW && lost_of_all >= ATTRIBUTED_MIN_LOST) ||
	       sw < ATTRIBUTED_WARN_BELOW;
}

/* Helpers for HEALTH_FIELDS(...). */
#define HEALTH_DECLARE(name, ...) uint64_t name;
/* SQL text: ", name", ", ?", ", sum(name)" for each field. */
#define HEALTH_SQL_COLUMN(name, ...) ", " #name
#define HEALTH_SQL_PARAM(name, ...) ", ?"
#define HEALTH_SQL_COMBINE(name, combine, ...) ", " #combine "(" #name ")"
/* The C side of combine: HEALTH_COMBINE_##combine(a, b). */
#define HEALTH_COMBINE_sum(a, b) ((a) + (b))
#define HEALTH_COMBINE_max(a, b) ((a) > (b) ? (a) : (b))
/* The /metrics type of each combine (prom.c). */
#define HEALTH_PROM_TYPE_sum "counter"
#define HEALTH_PROM_TYPE_max "gauge"
#define HEALTH_COUNT_ONE(name, ...) + 1
#define HEALTH_N_FIELDS (0 HEALTH_FIELDS(HEALTH_COUNT_ONE))

/* One CPU's counts between two flushes (worker_cut.c, attrib.c). */
struct health_counts {
	HEALTH_FIELDS(HEALTH_DECLARE)
};

#endif
