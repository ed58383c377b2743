/*
 * writer_space.h - the writer's disk space (writer_space.c): the size cap
 * retention keeps, the filesystem's share of the database, the WAL's
 * allowance, the reserve that lets a full filesystem be pruned, and what
 * a full filesystem means: ours to prune, or someone else's to wait out.
 * Internal to the writer (writer.c calls it; it calls only the store).
 */
#ifndef STACKD_WRITER_SPACE_H
#define STACKD_WRITER_SPACE_H

#include "daemon/store/writer.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The writer's file suffix for the space it holds in reserve. */
#define WRITER_RESERVE_SUFFIX ".reserve"

/* A store was opened (at start, or anew at its path): its WAL's allowance
 * set from its filesystem's size, the share the filesystem gives it
 * measured (never below what it holds now, when that fits); the reserve
 * is made at the next writer_space_restore. */
void writer_space_open(struct writer *w);

/* The size cap retention keeps: max_database_mb, or the filesystem's
 * share when that is less; 0: none. */
uint64_t writer_space_cap(struct writer *w);

/* What a rollup call may write now (store_set_rollup_room): 0, no limit,
 * unless the filesystem has little free space. */
uint64_t writer_space_rollup_room(struct writer *w);

/* Over the cap now (retention is due at once).  The first time in a
 * minute the filesystem is what caps, logged, and shown in status. */
bool writer_space_over_cap(struct writer *w);

/* One bounded retention step (store_prune) against the cap: rows deleted,
 * or -errno with err. */
int writer_space_prune(struct writer *w, char *err, size_t errlen);

/* A write failed with ENOSPC.  When the store is over its own cap, room is
 * made (the reserve spent if need be, the oldest data deleted down to the
 * cap): true, write again.  Otherwise someone else filled the filesystem
 * and nothing is deleted: false, err says why writes are held. */
bool writer_space_full(struct writer *w, char *err, size_t errlen);

/* The reserve (made, or again after it was spent), when there is room. */
void writer_space_restore(struct writer *w);

#endif
