/*
 * writer_status.c - see writer_status.h.
 */
#include "lib/writer_status.h"

#include <string.h>

void writer_status_init(struct writer_status_box *b)
{
	memset(b, 0, sizeof(*b));
	pthread_mutex_init(&b->lock, NULL);
}

void writer_status_done(struct writer_status_box *b)
{
	pthread_mutex_destroy(&b->lock);
}

bool writer_status_publish(struct writer_status_box *b, const struct writer_status *st)
{
	bool changed;

	pthread_mutex_lock(&b->lock);
	changed = memcmp(&b->st, st, sizeof(*st)) != 0;
	b->st = *st;
	pthread_mutex_unlock(&b->lock);
	return changed;
}

void writer_status_read(struct writer_status_box *b, struct writer_status *ret)
{
	pthread_mutex_lock(&b->lock);
	*ret = b->st;
	pthread_mutex_unlock(&b->lock);
}
