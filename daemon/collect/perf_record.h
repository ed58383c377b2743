/*
 * perf_record.h - the record layout stackd asks the kernel for, and parsers.
 *
 * Every event stackd opens uses the same sample_type and read_format, so one
 * parser reads every record in a CPU's ring:
 *   sample: id, pid, tid, time, { nr, value[nr] }
 *   others: their body, then the sample_id trailer { pid, tid, time, id }
 * The layout is as lean as attribution allows, because the kernel writes one
 * sample per context switch (make bench measures each choice):
 *  - no PERF_FORMAT_ID: a group read lists values in creation order, leader
 *    first, so ids would only repeat what stackd already knows;
 *  - no PERF_FORMAT_TOTAL_TIME_*: working them out costs every sample a clock
 *    read; the worker knows when it enabled and disabled each group;
 *  - a cpu-clock member, not the sample's time, times each span: the kernel
 *    shares the time field among all samplers of a switch (collector.c);
 *  - no PERF_SAMPLE_CPU: one ring per CPU.
 */
#ifndef STACKD_PERF_RECORD_H
#define STACKD_PERF_RECORD_H

#include <linux/perf_event.h>
#include <stdbool.h>
#include <stdint.h>

#define STACKD_SAMPLE_TYPE \
	(PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_READ)
#define STACKD_READ_FORMAT PERF_FORMAT_GROUP

#define RECORD_TRAILER_BYTES 24   /* sample_id: pid/tid, time, identifier */

struct rec_sample {
	uint64_t id;
	int32_t pid, tid;
	uint64_t time;
	uint64_t nr;
	const uint64_t *values;   /* nr values, points into the record */
};

struct rec_task {             /* PERF_RECORD_FORK, PERF_RECORD_EXIT */
	int32_t pid, ppid, tid, ptid;
	uint64_t time;
};

struct rec_comm {
	int32_t pid, tid;
	bool exec;
	char comm[16];
	uint64_t time;
};

/* PERF_RECORD_SWITCH_CPU_WIDE (attr.context_switch on a CPU-wide event):
 * out records name the next task, in records the previous one; the trailer
 * names the task running when the record was written. */
struct rec_switch {
	bool out;
	int32_t next_prev_pid, next_prev_tid;
	int32_t pid, tid;
	uint64_t time;
};

struct rec_lost {
	uint64_t id, lost;
	uint64_t time;
};

/* Each returns 0, or -EINVAL when the record is too short for its type. */
int perf_record_parse_sample(const struct perf_event_header *h, struct rec_sample *out);
int perf_record_parse_task(const struct perf_event_header *h, struct rec_task *out);
int perf_record_parse_comm(const struct perf_event_header *h, struct rec_comm *out);
int perf_record_parse_switch(const struct perf_event_header *h, struct rec_switch *out);
int perf_record_parse_lost(const struct perf_event_header *h, struct rec_lost *out);

/* The time of any record (sample field or trailer); 0 if it has none. */
uint64_t perf_record_time(const struct perf_event_header *h);

/* The identifier of the event that wrote any record; 0 if it has none. */
uint64_t perf_record_id(const struct perf_event_header *h);

#endif
