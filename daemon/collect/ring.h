/*
 * ring.h - read a perf_event mmap ring buffer.
 * One reader per ring; records are consumed in order.  A record that wraps
 * around the end of the data area is copied into an aligned scratch buffer.
 */
#ifndef STACKD_RING_H
#define STACKD_RING_H

#include "daemon/collect/kernel_ops.h"

#include <linux/perf_event.h>
#include <stddef.h>
#include <stdint.h>

struct ring {
	void *map;            /* header page + data pages */
	size_t map_len;
	unsigned char *data;
	uint64_t data_size;   /* power of two */
	uint64_t head;        /* last data_head read */
	uint64_t tail;        /* next byte to read (published on ring_publish) */
	uint64_t *scratch;    /* for wrapped records, 64 KiB + 8 */
	uint64_t skipped_bytes;  /* dropped because a record header made no sense */
	const struct kernel_ops *owner;   /* mapped through it; NULL: the caller's memory */
};

/* mmap 1 + data_pages pages of fd (data_pages a power of two).
 * Returns 0, -EPERM (over perf_event_mlock_kb without CAP_IPC_LOCK) or -errno. */
int ring_map(struct ring *r, const struct kernel_ops *k, int fd, unsigned data_pages);

/* Use memory the caller owns (tests): map is a header page followed by data. */
int ring_attach(struct ring *r, void *map, size_t page_size, uint64_t data_size);

void ring_unmap(struct ring *r);

/* The next unread record, or NULL when the ring is empty (after re-reading
 * the kernel's head).  The pointer is valid until ring_consume(). */
const struct perf_event_header *ring_peek(struct ring *r);

/* Where the kernel will write the next record: every record it wrote
 * before this call lies before it (ring positions only grow). */
uint64_t ring_head(struct ring *r);

/* Step past the record ring_peek() returned. */
void ring_consume(struct ring *r, const struct perf_event_header *h);

/* Tell the kernel the space up to tail is free. */
void ring_publish(struct ring *r);

#endif
