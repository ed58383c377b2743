/* The ring reader and record parsers on a fake mmap area: records in the
 * layout of perf_record.h, including one that wraps around the end. */
#include "daemon/collect/perf_record.h"
#include "daemon/collect/ring.h"
#include "test.h"

#include <stdlib.h>
#include <string.h>

#define PAGE 4096
#define DATA (2 * PAGE)

static unsigned char *map;
static uint64_t head;

static void write_bytes(const void *src, size_t n)
{
	const unsigned char *p = src;
	size_t i;

	for (i = 0; i < n; i++)
		map[PAGE + ((head + i) & (DATA - 1))] = p[i];
	head += n;
}

static void publish(void)
{
	struct perf_event_mmap_page *pg = (struct perf_event_mmap_page *)(void *)map;

	pg->data_head = head;
}

/* A switch sample with nr values. */
static void put_sample(uint64_t id, int32_t pid, int32_t tid, uint64_t t, const uint64_t *v,
		       uint64_t nr)
{
	struct perf_event_header h = { PERF_RECORD_SAMPLE, 0, (uint16_t)(40 + 8 * nr) };
	uint64_t fixed[4] = { id, 0, t, nr };
	int32_t ids[2] = { pid, tid };

	memcpy(&fixed[1], ids, 8);
	write_bytes(&h, sizeof(h));
	write_bytes(fixed, sizeof(fixed));
	write_bytes(v, 8 * nr);
}

static void put_task(uint32_t type, int32_t pid, int32_t ppid, uint64_t t)
{
	struct perf_event_header h = { type, 0, 8 + 24 + 24 };
	int32_t ids[4] = { pid, ppid, pid, ppid };
	uint64_t trailer[3] = { 0, t, 77 };

	write_bytes(&h, sizeof(h));
	write_bytes(ids, sizeof(ids));
	write_bytes(&t, 8);
	write_bytes(trailer, sizeof(trailer));
}

static void put_comm(int32_t pid, const char *comm, int exec, uint64_t t)
{
	struct perf_event_header h = { PERF_RECORD_COMM, exec ? PERF_RECORD_MISC_COMM_EXEC : 0,
				       8 + 8 + 16 + 24 };
	int32_t ids[2] = { pid, pid };
	char name[16] = { 0 };
	uint64_t trailer[3] = { 0, t, 77 };

	strncpy(name, comm, sizeof(name) - 1);
	write_bytes(&h, sizeof(h));
	write_bytes(ids, sizeof(ids));
	write_bytes(name, sizeof(name));
	write_bytes(trailer, sizeof(trailer));
}

static void put_lost(uint64_t lost, uint64_t t)
{
	struct perf_event_header h = { PERF_RECORD_LOST, 0, 8 + 16 + 24 };
	uint64_t body[2] = { 5, lost };
	uint64_t trailer[3] = { 0, t, 77 };

	write_bytes(&h, sizeof(h));
	write_bytes(body, sizeof(body));
	write_bytes(trailer, sizeof(trailer));
}

int main(void)
{
	const struct perf_event_header *h;
	struct rec_sample s;
	struct rec_task tk;
	struct rec_comm c;
	struct rec_lost l;
	struct ring r;
	uint64_t v[3] = { 1, 2, 3 };
	int i;

	map = calloc(1, PAGE + DATA);
	CHECK(map != NULL);
	CHECK(ring_attach(&r, map, PAGE, DATA) == 0);
	CHECK(ring_peek(&r) == NULL);

	put_task(PERF_RECORD_FORK, 100, 1, 1000);
	put_comm(100, "worker", 1, 1001);
	put_sample(42, 100, 101, 1002, v, 3);
	put_lost(9, 1003);
	publish();

	h = ring_peek(&r);
	CHECK(h != NULL && h->type == PERF_RECORD_FORK);
	CHECK(perf_record_parse_task(h, &tk) == 0);
	CHECK(tk.pid == 100 && tk.ppid == 1 && tk.time == 1000);
	CHECK_EQ_U(perf_record_time(h), 1000);
	CHECK_EQ_U(perf_record_id(h), 77);
	ring_consume(&r, h);

	h = ring_peek(&r);
	CHECK(h != NULL && h->type == PERF_RECORD_COMM);
	CHECK(perf_record_parse_comm(h, &c) == 0);
	CHECK_STR(c.comm, "worker");
	CHECK(c.exec && c.pid == 100 && c.time == 1001);
	ring_consume(&r, h);

	h = ring_peek(&r);
	CHECK(h != NULL && h->type == PERF_RECORD_SAMPLE);
	CHECK(perf_record_parse_sample(h, &s) == 0);
	CHECK(s.id == 42 && s.pid == 100 && s.tid == 101 && s.time == 1002 && s.nr == 3);
	CHECK(s.values[0] == 1 && s.values[1] == 2 && s.values[2] == 3);
	CHECK_EQ_U(perf_record_time(h), 1002);
	CHECK_EQ_U(perf_record_id(h), 42);
	ring_consume(&r, h);

	h = ring_peek(&r);
	CHECK(h != NULL && h->type == PERF_RECORD_LOST);
	CHECK(perf_record_parse_lost(h, &l) == 0);
	CHECK(l.lost == 9 && l.time == 1003);
	ring_consume(&r, h);
	CHECK(ring_peek(&r) == NULL);
	ring_publish(&r);
	CHECK_EQ_U(((struct perf_event_mmap_page *)(void *)map)->data_tail, head);

	/* Fill past the end so a sample wraps, and read it intact. */
	while ((head & (DATA - 1)) < DATA - 100)   /* stop 60..100 bytes short of the end */
		put_sample(1, 1, 1, 2000, v, 0);
	publish();
	while ((h = ring_peek(&r)) != NULL)
		ring_consume(&r, h);
	for (i = 0; i < 3; i++) {
		uint64_t big[8] = { 10, 20, 30, 40, 50, 60, 70, 80 };

		put_sample(7, 300 + i, 300 + i, 3000 + (uint64_t)i, big, 8);
	}
	publish();
	for (i = 0; i < 3; i++) {
		h = ring_peek(&r);
		CHECK(h != NULL);
		CHECK(perf_record_parse_sample(h, &s) == 0);
		CHECK(s.pid == 300 + i && s.nr == 8 && s.values[7] == 80 && s.values[0] == 10);
		ring_consume(&r, h);
	}
	CHECK(ring_peek(&r) == NULL);

	/* A nonsense header is skipped, never looped on. */
	{
		struct perf_event_header bad = { PERF_RECORD_SAMPLE, 0, 4 };
		uint32_t pad = 0;

		write_bytes(&bad, sizeof(bad));
		write_bytes(&pad, sizeof(pad));
		write_bytes(&pad, sizeof(pad));
		publish();
		CHECK(ring_peek(&r) == NULL);
		CHECK_EQ_U(r.skipped_bytes, 16);
	}

	/* Short records are refused, not read past their end. */
	{
		struct perf_event_header tiny = { PERF_RECORD_SAMPLE, 0, 32 };

		CHECK(perf_record_parse_sample(&tiny, &s) < 0);
		tiny.type = PERF_RECORD_FORK;
		CHECK(perf_record_parse_task(&tiny, &tk) < 0);
	}
	ring_unmap(&r);
	free(map);
	return 0;
}
