/*
 * worker_record.c - the worker's ring records, one at a time: a sample's
 * deltas to attribution, a fork, exit or comm kept for the main thread's
 * process table, a switch record, a loss counted.  And the drain that
 * feeds them in, in the ring's order.
 */
#include "daemon/collect/worker_private.h"
#include "daemon/collect/perf_record.h"

#include <stdlib.h>
#include <string.h>

/* Keep a side-band record in the handover being filled (out of memory:
 * dropped, and counted). */
static void life_push(struct worker *w, const struct life_rec *r)
{
	struct handover *h = w->cur;

	if (h->n_life == h->cap_life) {
		size_t cap = h->cap_life ? h->cap_life * 2 : 64;
		struct life_rec *more = realloc(h->life, cap * sizeof(*more));

		if (more == NULL) {
			w->at.st.dropped++;
			return;
		}
		h->life = more;
		h->cap_life = cap;
	}
	h->life[h->n_life++] = *r;
}

/* The group whose sampler wrote id; *clock: its cpu-clock (periodic mode). */
static int group_of_id(const struct worker *w, uint64_t id, bool *clock)
{
	unsigned g;

	for (g = 0; g < w->col->n_groups; g++) {
		/* id 0 is no event's (the kernel's ids start at 1): a group not
		 * opened on this CPU (another core type's) has ids 0 */
		*clock = id != 0 && w->ev->groups[g].clock_id == id;
		if ((id != 0 && w->ev->groups[g].sampler_id == id) || *clock)
			return (int)g;
	}
	*clock = false;
	return -1;
}

/* A sample in this CPU's ring whose id is not one of ours.  When another
 * reader samples context switches too (a second stackd, a profiler), the
 * kernel fills one sample record's data for every software event of a
 * switch and skips fields already filled (perf_prepare_sample's
 * sample_flags, 6.x kernels; tests/system/240-coexist.sh), so our sample
 * can carry the other reader's id - and its time, on its clock, which
 * may run ahead of ours or behind it by any amount (perf record's clock
 * is perf_clock, not CLOCK_MONOTONIC).  The rest is ours: this ring holds
 * only our events, the group read in it is ours, and one group of ours is
 * enabled at a time.  So the group is found by where the sample lies in
 * the ring, never by its time: a rotation reads the ring's head after its
 * disable returned and before the next enable (prev_end), and the ring is
 * drained at every rotation, so a sample before that position is the
 * previous group's, one after it the active group's.  -1 when the read
 * does not fit that group. */
static int group_of_foreign(struct worker *w, const struct rec_sample *s)
{
	unsigned g = w->prev_end != 0 && w->rec_pos < w->prev_end ? w->prev_active : w->active;

	if (s->nr != w->ev->groups[g].n_fds)
		return -1;
	w->at.st.foreign_id_samples++;
	return (int)g;
}

/* A sample: the deltas of the group that wrote it, to its task. */
static void take_sample(struct worker *w, const struct perf_event_header *h)
{
	struct rec_sample s;
	bool clock;
	int g;

	if (perf_record_parse_sample(h, &s) < 0) {
		w->at.st.bad_samples++;
		return;
	}
	g = group_of_id(w, s.id, &clock);
	if (g < 0)
		g = group_of_foreign(w, &s);
	if (g < 0) {
		/* Its deltas are lost: counted, so the loss shows. */
		w->at.st.unknown_id_samples++;
		return;
	}
	if (clock)
		attrib_clock_sample(&w->at, (unsigned)g, s.pid, s.time, s.values,
				    (unsigned)s.nr);
	else
		attrib_sample(&w->at, (unsigned)g, s.pid, s.tid, s.time, s.values,
			      (unsigned)s.nr);
}

/* A fork or an exit (h->type says which). */
static void take_task(struct worker *w, const struct perf_event_header *h)
{
	struct life_rec lr;
	struct rec_task t;

	if (perf_record_parse_task(h, &t) < 0) {
		w->at.st.bad_samples++;
		return;
	}
	if (h->type == PERF_RECORD_EXIT)
		attrib_exit(&w->at, t.pid, t.tid, t.time);
	/* every CPU's accumulator must split at a leader's exit */
	if (h->type == PERF_RECORD_EXIT && t.pid == t.tid)
		exitlog_add(&w->col->exits, t.pid, t.time);
	/* Threads share their process's identity: only leaders matter. */
	if (t.pid != t.tid)
		return;
	memset(&lr, 0, sizeof(lr));
	lr.type = h->type == PERF_RECORD_FORK ? LIFE_FORK : LIFE_EXIT;
	lr.pid = t.pid;
	lr.ppid = t.ppid;
	lr.tid = t.tid;
	lr.time = t.time;
	life_push(w, &lr);
}

/* A new name: a rename, or an exec. */
static void take_comm(struct worker *w, const struct perf_event_header *h)
{
	struct life_rec lr;
	struct rec_comm c;

	if (perf_record_parse_comm(h, &c) < 0) {
		w->at.st.bad_samples++;
		return;
	}
	if (c.pid != c.tid)
		return;
	memset(&lr, 0, sizeof(lr));
	lr.type = LIFE_COMM;
	lr.exec = c.exec;
	lr.pid = c.pid;
	lr.tid = c.tid;
	lr.time = c.time;
	memcpy(lr.comm, c.comm, sizeof(lr.comm));
	life_push(w, &lr);
}

static void take_switch(struct worker *w, const struct perf_event_header *h)
{
	struct rec_switch sw;

	if (perf_record_parse_switch(h, &sw) < 0) {
		w->at.st.bad_samples++;
		return;
	}
	/* out: the writer is leaving for next_prev; in: it arrived from it */
	if (sw.out)
		attrib_switch_in(&w->at, sw.time, sw.pid, sw.next_prev_pid);
	else
		attrib_switch_in(&w->at, sw.time, sw.next_prev_pid, sw.pid);
}

static void take_lost(struct worker *w, const struct perf_event_header *h)
{
	struct rec_lost l;

	if (perf_record_parse_lost(h, &l) < 0) {
		w->at.st.bad_samples++;
		return;
	}
	w->at.st.lost_records++;
	w->at.st.lost_samples += l.lost;
}

void worker_handle_record(struct worker *w, const struct perf_event_header *h)
{
	switch (h->type) {
	case PERF_RECORD_SAMPLE:
		take_sample(w, h);
		return;
	case PERF_RECORD_FORK:
	case PERF_RECORD_EXIT:
		take_task(w, h);
		return;
	case PERF_RECORD_COMM:
		take_comm(w, h);
		return;
	case PERF_RECORD_SWITCH_CPU_WIDE:
		take_switch(w, h);
		return;
	case PERF_RECORD_LOST:
		take_lost(w, h);
		return;
	case PERF_RECORD_THROTTLE:
		w->at.st.throttles++;
		return;
	default:
		return;
	}
}

void worker_drain(struct worker *w, uint64_t end)
{
	struct ring *r = &w->ev->ring;
	const struct perf_event_header *h;
	uint64_t skipped = r->skipped_bytes;

	while (r->tail < end && (h = ring_peek(r)) != NULL) {
		w->rec_pos = r->tail;
		worker_handle_record(w, h);
		ring_consume(r, h);
	}
	if (w->prev_end != 0 && r->tail >= w->prev_end)
		w->prev_end = 0;   /* the previous group's records are all taken */
	/* A record header that made no sense: the rest of the ring went. */
	if (r->skipped_bytes != skipped)
		w->at.st.bad_samples++;
	ring_publish(r);
}
