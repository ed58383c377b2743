/*
 * simpmu_ring.c - records written into a CPU's ring as the kernel lays
 * them out (include/uapi/linux/perf_event.h, enum perf_event_type):
 *   SAMPLE: the fields of sample_type in the kernel's order (IDENTIFIER,
 *           IP, TID, TIME, ID, STREAM_ID, CPU, PERIOD, READ);
 *   COMM, FORK, EXIT, LOST: their body, then with sample_id_all the
 *           sample_id trailer (TID, TIME, ID, STREAM_ID, CPU, IDENTIFIER).
 * The writer publishes data_head with release semantics after the record,
 * and a full ring drops records and announces them with one LOST record,
 * carrying the id of the event writing then, when there is room again
 * (kernel/events/ring_buffer.c, perf_output_begin).
 */
#include "simpmu_int.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#define REC_MAX_WORDS 512

struct rec {
	uint64_t w[REC_MAX_WORDS];
	size_t n;
};

static void rec_u64(struct rec *r, uint64_t v)
{
	if (r->n < REC_MAX_WORDS)
		r->w[r->n] = v;
	r->n++;
}

static void rec_pid_tid(struct rec *r, const struct simpmu_task *t)
{
	uint32_t pid = (uint32_t)t->pid, tid = (uint32_t)t->tid;

	rec_u64(r, (uint64_t)tid << 32 | pid);   /* u32 pid, tid (little endian) */
}

static void rec_header(struct rec *r, uint32_t type, uint16_t misc)
{
	r->n = 0;
	rec_u64(r, type);   /* size is filled in by rec_finish */
	r->w[0] |= (uint64_t)misc << 32;
}

static void rec_finish(struct rec *r)
{
	r->w[0] |= (uint64_t)(uint16_t)(r->n * 8) << 48;
}

static void rec_trailer(struct rec *r, const struct simpmu *sim, const struct sim_event *e,
			const struct simpmu_task *cur)
{
	uint64_t st = e->attr.sample_type;

	if (!e->attr.sample_id_all)
		return;
	if (st & PERF_SAMPLE_TID)
		rec_pid_tid(r, cur);
	if (st & PERF_SAMPLE_TIME)
		rec_u64(r, sim->now_ns);
	if (st & PERF_SAMPLE_ID)
		rec_u64(r, e->id);
	if (st & PERF_SAMPLE_STREAM_ID)
		rec_u64(r, e->id);
	if (st & PERF_SAMPLE_CPU)
		rec_u64(r, (uint64_t)e->cpu);
	if (st & PERF_SAMPLE_IDENTIFIER)
		rec_u64(r, e->id);
}

static void ring_copy(struct sim_ring *r, uint64_t head, const void *rec, size_t size)
{
	unsigned char *data = r->map + r->page;
	uint64_t off = head & (r->data_size - 1);
	size_t first = size;

	if (off + size > r->data_size)
		first = (size_t)(r->data_size - off);
	memcpy(data + off, rec, first);
	memcpy(data, (const unsigned char *)rec + first, size - first);
}

static bool ring_room(const struct sim_ring *r, uint64_t head, size_t size)
{
	struct perf_event_mmap_page *pg = (struct perf_event_mmap_page *)(void *)r->map;
	uint64_t tail = __atomic_load_n(&pg->data_tail, __ATOMIC_ACQUIRE);

	return head - tail + size <= r->data_size;
}

void simpmu_ring_write(struct simpmu *sim, const struct sim_event *writer, const void *rec,
		       size_t size, const struct simpmu_task *cur)
{
	struct sim_ring *r = writer->output;
	struct perf_event_mmap_page *pg;
	uint64_t head;
	struct rec lost = { .n = 0 };

	if (r == NULL)
		return;
	pg = (struct perf_event_mmap_page *)(void *)r->map;
	head = pg->data_head;
	if (r->lost > 0) {
		rec_header(&lost, PERF_RECORD_LOST, 0);
		rec_u64(&lost, writer->id);
		rec_u64(&lost, r->lost);
		rec_trailer(&lost, sim, writer, cur);
		rec_finish(&lost);
	}
	if (!ring_room(r, head, size + lost.n * 8)) {
		r->lost++;
		r->lost_total++;
		return;
	}
	if (r->lost > 0) {
		ring_copy(r, head, lost.w, lost.n * 8);
		head += lost.n * 8;
		r->lost = 0;
	}
	ring_copy(r, head, rec, size);
	__atomic_store_n(&pg->data_head, head + size, __ATOMIC_RELEASE);
}

void simpmu_ring_sample(struct simpmu *sim, struct sim_event *sampler,
			const struct simpmu_task *out)
{
	const struct sim_cpu *c = &sim->cpus[sampler->cpu];
	uint64_t st = sampler->attr.sample_type;
	uint64_t id = sampler->id, time = sim->now_ns;
	struct rec r;

	/* Another reader's switch sampler filled the shared fields first
	 * (simpmu_other_reader): its time, and its id when it has one. */
	if (c->other_reader && sampler->key.type == PERF_TYPE_SOFTWARE &&
	    sampler->key.config == PERF_COUNT_SW_CONTEXT_SWITCHES) {
		time = (uint64_t)((int64_t)time + c->other_offset_ns);
		if (c->other_id != 0)
			id = c->other_id;
	}
	rec_header(&r, PERF_RECORD_SAMPLE, PERF_RECORD_MISC_KERNEL);
	if (st & PERF_SAMPLE_IDENTIFIER)
		rec_u64(&r, id);
	if (st & PERF_SAMPLE_IP)
		rec_u64(&r, 0);
	if (st & PERF_SAMPLE_TID)
		rec_pid_tid(&r, out);
	if (st & PERF_SAMPLE_TIME)
		rec_u64(&r, time);
	if (st & PERF_SAMPLE_ID)
		rec_u64(&r, id);
	if (st & PERF_SAMPLE_STREAM_ID)
		rec_u64(&r, id);
	if (st & PERF_SAMPLE_CPU)
		rec_u64(&r, (uint64_t)sampler->cpu);
	if (st & PERF_SAMPLE_PERIOD)
		rec_u64(&r, sampler->attr.sample_period);
	if (st & PERF_SAMPLE_READ) {
		ssize_t n = simpmu_read_values(sim, sampler, &r.w[r.n], (REC_MAX_WORDS - r.n) * 8);
		if (n < 0)
			return;
		r.n += (size_t)n / 8;
	}
	rec_finish(&r);
	simpmu_ring_write(sim, sampler, r.w, r.n * 8, out);
}

/* COMM, FORK, EXIT: from every side-band event of cpu that asks for them. */
static void side_band(struct simpmu *sim, int cpu, struct rec *body, bool task_rec,
		      const struct simpmu_task *cur)
{
	size_t i, n0 = body->n;

	for (i = 0; i < sim->n_ev; i++) {
		struct sim_event *e = sim->ev[i];

		if (e == NULL || e->cpu != cpu || e->leader->state != SIMPMU_ACTIVE ||
		    !(task_rec ? e->attr.task : e->attr.comm))
			continue;
		body->n = n0;
		body->w[0] &= 0x0000ffffffffffffULL;
		rec_trailer(body, sim, e, cur);
		rec_finish(body);
		simpmu_ring_write(sim, e, body->w, body->n * 8, cur);
	}
}

void simpmu_fork(struct simpmu *sim, int cpu, const struct simpmu_task *parent,
		 const struct simpmu_task *child)
{
	struct rec r;

	rec_header(&r, PERF_RECORD_FORK, 0);
	rec_u64(&r, (uint64_t)(uint32_t)parent->pid << 32 | (uint32_t)child->pid);
	rec_u64(&r, (uint64_t)(uint32_t)parent->tid << 32 | (uint32_t)child->tid);
	rec_u64(&r, sim->now_ns);
	side_band(sim, cpu, &r, true, parent);
}

void simpmu_exit(struct simpmu *sim, int cpu, const struct simpmu_task *t)
{
	struct rec r;

	rec_header(&r, PERF_RECORD_EXIT, 0);
	rec_u64(&r, (uint64_t)(uint32_t)t->ppid << 32 | (uint32_t)t->pid);
	rec_u64(&r, (uint64_t)(uint32_t)t->ptid << 32 | (uint32_t)t->tid);
	rec_u64(&r, sim->now_ns);
	side_band(sim, cpu, &r, true, t);
}

void simpmu_exec(struct simpmu *sim, int cpu, struct simpmu_task *t, const char *comm)
{
	struct rec r;
	size_t len;

	memset(t->comm, 0, sizeof(t->comm));
	strncpy(t->comm, comm, sizeof(t->comm) - 1);
	len = strlen(t->comm) + 1;
	rec_header(&r, PERF_RECORD_COMM, PERF_RECORD_MISC_COMM_EXEC);
	rec_pid_tid(&r, t);
	memset(&r.w[r.n], 0, 16);
	memcpy(&r.w[r.n], t->comm, len);
	r.n += (len + 7) / 8;    /* ALIGN(strlen(comm) + 1, sizeof(u64)) */
	side_band(sim, cpu, &r, false, t);
}
