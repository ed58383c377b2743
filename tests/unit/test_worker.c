/* A worker's record handling counts what it cannot use: a sample of an
 * event id no group of ours has (unknown_id_samples), records too short for
 * their type (bad_samples), and still attributes the good samples and
 * keeps the side-band records.  Records are built by hand in the layout of
 * perf_record.h; no perf_event, no thread. */
#include "worker.h"
#include "test.h"

#include <string.h>

#define OUR_ID 7

/* A record buffer, 8-byte aligned as in the ring. */
static uint64_t rec[16];

static const struct perf_event_header *sample(uint64_t id, uint16_t size)
{
	struct perf_event_header h = { PERF_RECORD_SAMPLE, 0, size };
	int32_t ids[2] = { 100, 100 };

	memset(rec, 0, sizeof(rec));
	memcpy(&rec[0], &h, sizeof(h));
	rec[1] = id;
	memcpy(&rec[2], ids, sizeof(ids));
	rec[3] = 5000;          /* time */
	rec[4] = 2;             /* nr */
	rec[5] = 1;             /* switches */
	rec[6] = 9;             /* the model's event */
	return (const struct perf_event_header *)(const void *)rec;
}

static const struct perf_event_header *short_record(uint32_t type)
{
	struct perf_event_header h = { type, 0, 16 };

	memset(rec, 0, sizeof(rec));
	memcpy(&rec[0], &h, sizeof(h));
	return (const struct perf_event_header *)(const void *)rec;
}

int main(void)
{
	static struct collector col;
	static struct cpu_events ev;
	static struct worker w;

	col.n_groups = 1;
	col.group_on[0] = true;
	col.layout[0].n_members = 2;
	col.layout[0].switches_idx = 0;
	col.layout[0].n_model = 1;
	col.layout[0].model_idx[0] = 1;
	ev.cpu = 0;
	ev.groups[0].sampler_id = OUR_ID;
	CHECK(worker_init(&w, &col, &ev, 100000000, 999) == 0);

	worker_handle_record(&w, sample(OUR_ID, 56));
	CHECK_EQ_U(w.at.st.samples, 1);
	CHECK_EQ_U(w.cur->acc.n, 1);

	/* not one of our groups: dropped, counted */
	worker_handle_record(&w, sample(OUR_ID + 1, 56));
	CHECK_EQ_U(w.at.st.unknown_id_samples, 1);
	CHECK_EQ_U(w.at.st.samples, 1);

	/* nr says more values than the record holds */
	worker_handle_record(&w, sample(OUR_ID, 48));
	CHECK_EQ_U(w.at.st.bad_samples, 1);
	/* side-band records too short for their type */
	worker_handle_record(&w, short_record(PERF_RECORD_FORK));
	worker_handle_record(&w, short_record(PERF_RECORD_EXIT));
	worker_handle_record(&w, short_record(PERF_RECORD_COMM));
	worker_handle_record(&w, short_record(PERF_RECORD_LOST));
	CHECK_EQ_U(w.at.st.bad_samples, 5);
	CHECK_EQ_U(w.cur->n_life, 0);
	CHECK_EQ_U(w.at.st.samples, 1);
	CHECK_EQ_U(w.at.st.unknown_id_samples, 1);
	CHECK_EQ_U(w.cur->acc.n, 1);

	worker_done(&w);
	return 0;
}
