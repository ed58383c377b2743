/*
 * ring.c - see ring.h.  Ordering follows the kernel's contract in
 * include/uapi/linux/perf_event.h: read data_head with acquire semantics
 * before reading records, and store data_tail with release semantics after.
 */
#include "daemon/collect/ring.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define RING_SCRATCH_BYTES (65536 + 8)

static int setup(struct ring *r, void *map, size_t page_size, uint64_t data_size)
{
	struct perf_event_mmap_page *pg = map;

	r->map = map;
	r->data = (unsigned char *)map + page_size;
	r->data_size = data_size;
	/* Kernels since 4.1 say where the data area is; trust them when they do. */
	if (pg->data_offset != 0 && pg->data_size != 0) {
		r->data = (unsigned char *)map + pg->data_offset;
		r->data_size = pg->data_size;
	}
	r->head = r->tail = __atomic_load_n(&pg->data_tail, __ATOMIC_ACQUIRE);
	r->scratch = malloc(RING_SCRATCH_BYTES);
	return r->scratch != NULL ? 0 : -ENOMEM;
}

int ring_map(struct ring *r, const struct kernel_ops *k, int fd, unsigned data_pages)
{
	long page = sysconf(_SC_PAGESIZE);
	size_t len;
	void *map;
	int ret, err = 0;

	memset(r, 0, sizeof(*r));
	if (data_pages == 0 || (data_pages & (data_pages - 1)) != 0)
		return -EINVAL;
	len = (size_t)(data_pages + 1) * (size_t)page;
	map = k->mmap_ring(k->ctx, fd, len, &err);
	if (map == NULL)
		return -err;
	r->map_len = len;
	r->owner = k;
	ret = setup(r, map, (size_t)page, (uint64_t)data_pages * (uint64_t)page);
	if (ret < 0)
		ring_unmap(r);
	return ret;
}

int ring_attach(struct ring *r, void *map, size_t page_size, uint64_t data_size)
{
	memset(r, 0, sizeof(*r));
	return setup(r, map, page_size, data_size);
}

void ring_unmap(struct ring *r)
{
	if (r->owner != NULL && r->map != NULL)
		r->owner->munmap_ring(r->owner->ctx, r->map, r->map_len);
	free(r->scratch);
	memset(r, 0, sizeof(*r));
}

const struct perf_event_header *ring_peek(struct ring *r)
{
	struct perf_event_mmap_page *pg = r->map;
	const struct perf_event_header *h;
	uint64_t off, size;

	if (r->tail == r->head) {
		r->head = __atomic_load_n(&pg->data_head, __ATOMIC_ACQUIRE);
		if (r->tail == r->head)
			return NULL;
	}
	off = r->tail & (r->data_size - 1);
	h = (const struct perf_event_header *)(const void *)(r->data + off);
	size = h->size;
	if (size < sizeof(*h) || size > r->head - r->tail) {
		/* Cannot happen with a sane kernel; skipping everything is the
		 * only way not to stall on it forever. */
		r->skipped_bytes += r->head - r->tail;
		r->tail = r->head;
		return NULL;
	}
	if (off + size > r->data_size) {
		uint64_t first = r->data_size - off;

		memcpy(r->scratch, r->data + off, first);
		memcpy((unsigned char *)r->scratch + first, r->data, size - first);
		h = (const struct perf_event_header *)(const void *)r->scratch;
	}
	return h;
}

uint64_t ring_head(struct ring *r)
{
	struct perf_event_mmap_page *pg = r->map;

	r->head = __atomic_load_n(&pg->data_head, __ATOMIC_ACQUIRE);
	return r->head;
}

void ring_consume(struct ring *r, const struct perf_event_header *h)
{
	r->tail += h->size;
}

void ring_publish(struct ring *r)
{
	struct perf_event_mmap_page *pg = r->map;

	__atomic_store_n(&pg->data_tail, r->tail, __ATOMIC_RELEASE);
}
