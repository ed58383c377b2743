/*
 * writer_status.h - how the daemon's database writer is doing: failed
 * writes, intervals waiting in memory, intervals lost, the database file
 * deleted or replaced under it.  Daemon-level facts (per-interval health is
 * lib/health_fields.h): the main thread publishes them after every flush,
 * the HTTP threads read them live for /api/v1/system and /metrics, so an
 * outage shows while it lasts, not after the next successful write.
 */
#ifndef STACKD_WRITER_STATUS_H
#define STACKD_WRITER_STATUS_H

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>

struct writer_status {
	uint64_t write_errors;      /* failed write attempts since the start */
	uint64_t pending;           /* intervals waiting in memory to be written */
	uint64_t dropped;           /* intervals dropped unwritten (retry_buffer full) */
	uint64_t replaced;          /* times the database file was found deleted or replaced */
	uint64_t lost_in_replaced;  /* intervals written to such a file before that was seen */
	uint64_t last_write_ns;     /* CLOCK_REALTIME of the last successful write; 0: none */
	uint64_t failing_since_ns;  /* CLOCK_REALTIME of this outage's first failure; 0: none */
	uint64_t space_cap_bytes;   /* the size cap the filesystem imposes (it filled up); 0: none */
	char last_error[256];       /* this outage's latest error; "" when writing */
};

/* One writer_status shared between threads. */
struct writer_status_box {
	pthread_mutex_t lock;
	struct writer_status st;
};

void writer_status_init(struct writer_status_box *b);
void writer_status_done(struct writer_status_box *b);
/* Copy st in; true when it differs from what was there (answers built on
 * the old one are stale). */
bool writer_status_publish(struct writer_status_box *b, const struct writer_status *st);
/* A consistent copy. */
void writer_status_read(struct writer_status_box *b, struct writer_status *ret);

#endif
