/* A worker's record handling counts what it cannot use: a sample of an
 * event id no group of ours has whose read fits no enabled group
 * (unknown_id_samples), attributes one that does (foreign_id_samples) to
 * the group its place in the ring says, whatever its time, records too short for
 * their type (bad_samples), and still attributes the good samples and
 * keeps the side-band records; the thread's next wake-up.  Records are built by hand in the layout of
 * perf_record.h; no perf_event, no thread. */
#include "daemon/collect/worker.h"
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

/* A well-formed sample of id at time t, the switch count at switches. */
static const struct perf_event_header *sample_at(uint64_t id, uint64_t t, uint64_t switches)
{
	sample(id, 56);
	rec[3] = t;
	rec[5] = switches;
	return (const struct perf_event_header *)(const void *)rec;
}

static const struct perf_event_header *short_record(uint32_t type)
{
	struct perf_event_header h = { type, 0, 16 };

	memset(rec, 0, sizeof(rec));
	memcpy(&rec[0], &h, sizeof(h));
	return (const struct perf_event_header *)(const void *)rec;
}

/* The switches charged in group g, to anyone. */
static uint64_t switches_of(const struct worker *w, unsigned g)
{
	uint64_t sum = 0;
	size_t i;

	for (i = 0; i < w->cur->acc.n; i++)
		if (w->cur->acc.entries[i].group == g)
			sum += w->cur->acc.entries[i].d[0];
	return sum;
}

/* Another reader's id on our sample (a second sampler of switches): the
 * read is ours, charged to the group that was enabled where the sample
 * lies in the ring - the previous one before the rotation's boundary, the
 * active one after it - whatever its time says, which is the other
 * reader's and may run ahead of ours or behind; counted.  A read that
 * fits neither stays unknown. */
static void check_foreign(struct worker *w, struct cpu_events *ev)
{
	uint64_t known = w->at.st.unknown_id_samples;

	ev->groups[0].n_fds = ev->groups[1].n_fds = 2;
	w->active = 1;
	w->prev_active = 0;
	w->prev_end = 4096;   /* group 0 wrote before ring position 4096, group 1 after */

	w->rec_pos = 1000;
	worker_handle_record(w, sample_at(OUR_ID, 8000, 10));       /* group 0 */
	/* before the boundary, its time far ahead of the rotation's */
	w->rec_pos = 1056;
	worker_handle_record(w, sample_at(12345, 90000, 12));
	CHECK_EQ_U(w->at.st.foreign_id_samples, 1);
	CHECK_EQ_U(switches_of(w, 0), 12);   /* its counter's value: every delta */
	w->rec_pos = 4096;
	worker_handle_record(w, sample_at(OUR_ID + 2, 9100, 20));   /* group 1 */
	/* after it, its time far behind (before group 1 was even enabled) */
	w->rec_pos = 4152;
	worker_handle_record(w, sample_at(12345, 100, 21));
	CHECK_EQ_U(w->at.st.foreign_id_samples, 2);
	CHECK_EQ_U(switches_of(w, 1), 21);
	CHECK_EQ_U(switches_of(w, 0), 12);
	w->prev_end = 0;                                            /* drained */
	w->rec_pos = 4208;
	worker_handle_record(w, sample_at(12345, 9800, 22));
	CHECK_EQ_U(w->at.st.foreign_id_samples, 3);
	CHECK_EQ_U(switches_of(w, 1), 22);
	CHECK_EQ_U(w->at.st.backwards_reads, 0);
	CHECK_EQ_U(w->at.st.unknown_id_samples, known);
	/* a read of another size is not this group's */
	ev->groups[1].n_fds = 3;
	worker_handle_record(w, sample_at(12345, 9900, 23));
	CHECK_EQ_U(w->at.st.foreign_id_samples, 3);
	CHECK_EQ_U(w->at.st.unknown_id_samples, known + 1);
}

int main(void)
{
	static struct collector col;
	static struct cpu_events ev;
	static struct worker w;

	col.n_groups = 2;
	col.layout[0].n_members = 2;
	col.layout[0].switches_idx = 0;
	col.layout[0].n_model = 1;
	col.layout[0].model_idx[0] = 1;
	col.layout[1] = col.layout[0];
	ev.cpu = 0;
	ev.groups[0].sampler_id = OUR_ID;
	ev.groups[1].sampler_id = OUR_ID + 2;   /* n_fds 0 until check_foreign */
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

	check_foreign(&w, &ev);
	/* the next wake-up is the due rotation; none while paused (a
	 * calibration's runs without sampling), the resume nudges */
	w.next_rotate_ns = 5000;
	CHECK_EQ_U(worker_wake_at(&w, 4000), 5000);
	w.paused = true;
	CHECK_EQ_U(worker_wake_at(&w, 6000), 6000 + 1000000000ULL);
	w.paused = false;
	worker_done(&w);
	return 0;
}
