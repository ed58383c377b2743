/*
 * perf_record.c - parse the records described in perf_record.h.
 * Records are 8-byte aligned in the ring (ring.c copies wrapped ones into an
 * aligned buffer), so fields are read in place.
 */
#include "daemon/collect/perf_record.h"

#include <errno.h>
#include <string.h>

#define SAMPLE_FIXED_BYTES (sizeof(struct perf_event_header) + 8 + 8 + 8 + 8)

static const unsigned char *body(const struct perf_event_header *h)
{
	return (const unsigned char *)(h + 1);
}

static uint64_t u64_at(const struct perf_event_header *h, size_t off)
{
	uint64_t v;

	memcpy(&v, (const unsigned char *)h + off, sizeof(v));
	return v;
}

static int32_t i32_at(const struct perf_event_header *h, size_t off)
{
	int32_t v;

	memcpy(&v, (const unsigned char *)h + off, sizeof(v));
	return v;
}

int perf_record_parse_sample(const struct perf_event_header *h, struct rec_sample *out)
{
	const unsigned char *p = body(h);

	if (h->size < SAMPLE_FIXED_BYTES)
		return -EINVAL;
	out->id = u64_at(h, 8);
	out->pid = i32_at(h, 16);
	out->tid = i32_at(h, 20);
	out->time = u64_at(h, 24);
	out->nr = u64_at(h, 32);
	if (out->nr > (h->size - SAMPLE_FIXED_BYTES) / 8)
		return -EINVAL;
	out->values = (const uint64_t *)(const void *)(p + 32);
	return 0;
}

int perf_record_parse_task(const struct perf_event_header *h, struct rec_task *out)
{
	if (h->size < sizeof(*h) + 24 + RECORD_TRAILER_BYTES)
		return -EINVAL;
	out->pid = i32_at(h, 8);
	out->ppid = i32_at(h, 12);
	out->tid = i32_at(h, 16);
	out->ptid = i32_at(h, 20);
	out->time = u64_at(h, 24);
	return 0;
}

int perf_record_parse_comm(const struct perf_event_header *h, struct rec_comm *out)
{
	size_t room;

	if (h->size < sizeof(*h) + 8 + 8 + RECORD_TRAILER_BYTES)
		return -EINVAL;
	out->pid = i32_at(h, 8);
	out->tid = i32_at(h, 12);
	out->exec = (h->misc & PERF_RECORD_MISC_COMM_EXEC) != 0;
	room = h->size - sizeof(*h) - 8 - RECORD_TRAILER_BYTES;
	if (room > sizeof(out->comm) - 1)
		room = sizeof(out->comm) - 1;
	memcpy(out->comm, (const unsigned char *)h + 16, room);
	out->comm[room] = '\0';
	out->time = perf_record_time(h);
	return 0;
}

int perf_record_parse_switch(const struct perf_event_header *h, struct rec_switch *out)
{
	if (h->size < sizeof(*h) + 8 + RECORD_TRAILER_BYTES)
		return -EINVAL;
	out->out = (h->misc & PERF_RECORD_MISC_SWITCH_OUT) != 0;
	out->next_prev_pid = i32_at(h, 8);
	out->next_prev_tid = i32_at(h, 12);
	out->pid = i32_at(h, h->size - RECORD_TRAILER_BYTES);
	out->tid = i32_at(h, h->size - RECORD_TRAILER_BYTES + 4);
	out->time = perf_record_time(h);
	return 0;
}

int perf_record_parse_lost(const struct perf_event_header *h, struct rec_lost *out)
{
	if (h->size < sizeof(*h) + 16 + RECORD_TRAILER_BYTES)
		return -EINVAL;
	out->id = u64_at(h, 8);
	out->lost = u64_at(h, 16);
	out->time = perf_record_time(h);
	return 0;
}

uint64_t perf_record_time(const struct perf_event_header *h)
{
	if (h->type == PERF_RECORD_SAMPLE)
		return h->size >= 32 ? u64_at(h, 24) : 0;
	if (h->size < sizeof(*h) + RECORD_TRAILER_BYTES)
		return 0;
	return u64_at(h, h->size - 16);
}

uint64_t perf_record_id(const struct perf_event_header *h)
{
	if (h->type == PERF_RECORD_SAMPLE)
		return h->size >= 16 ? u64_at(h, 8) : 0;
	if (h->size < sizeof(*h) + RECORD_TRAILER_BYTES)
		return 0;
	return u64_at(h, h->size - 8);
}
