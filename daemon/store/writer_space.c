/*
 * writer_space.c - the writer's disk space.  See writer_space.h.
 *
 * The policy (docs/operations.md, "History and retention"):
 *  - Retention deletes by size only to keep the store (its pages in use
 *    and its WAL) under its cap: max_database_mb, or, on a filesystem too
 *    small for that, the filesystem's share: the store's files and the
 *    free space, less room for the WAL, less an eighth to spare.
 *  - That share only grows while stackd runs.  Space someone else takes
 *    later lowers the free space, never the share, so another user's files
 *    never make retention erase history; and at start the share is at
 *    least what the store holds (the floor), unless that is more than its
 *    whole filesystem could hold.
 *  - The WAL is kept near an allowance sized from the filesystem (a
 *    sixteenth of it, 128 KiB to 4 MiB): it is counted in the size, and a
 *    small filesystem has no room for SQLite's default of 4 MiB.
 *  - A write that finds the filesystem full: over the cap, the store makes
 *    room, spending if need be a reserve file as large as the WAL's
 *    allowance (deleting writes the WAL too); within the cap, someone else
 *    filled the filesystem: writes wait in memory (retry_buffer), the log
 *    and status say so, and they resume once space is freed.
 */
#include "daemon/store/writer_space.h"
#include "daemon/base/log.h"
#include "lib/clock.h"

#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>

#define WAL_LIMIT_MIN (128ULL << 10)
#define WAL_LIMIT_MAX (4ULL << 20)   /* about SQLite's own 1000 pages */
#define PRUNE_BATCH_INTERVALS 60
/* Over the cap, prune for at most this long per flush; making room on a
 * full filesystem, for at most this long. */
#define PRUNE_BUDGET_NS (50ULL * NS_PER_MSEC)
#define MAKE_ROOM_BUDGET_NS (300ULL * NS_PER_MSEC)
#define MIB 1048576.0

static uint64_t file_bytes(const char *path, const char *suffix)
{
	char file[PATH_MAX + 16];
	struct stat st;

	snprintf(file, sizeof(file), "%s%s", path, suffix);
	return stat(file, &st) == 0 ? (uint64_t)st.st_size : 0;
}

/* The size and free space of the database's filesystem, in bytes. */
static int fs_bytes(const struct writer *w, uint64_t *total, uint64_t *avail)
{
	char *copy = strdup(w->database);
	struct statvfs vfs;
	int r;

	if (copy == NULL)
		return -ENOMEM;
	r = statvfs(dirname(copy), &vfs);
	free(copy);
	if (r < 0)
		return -errno;
	*total = (uint64_t)vfs.f_blocks * vfs.f_frsize;
	*avail = (uint64_t)vfs.f_bavail * vfs.f_frsize;
	return 0;
}

/* What the store can grow to out of bytes of disk: less the reserve and
 * one transaction past the WAL's allowance, less an eighth to spare. */
static uint64_t share_of(const struct writer *w, uint64_t bytes)
{
	uint64_t room = 2 * w->wal_limit;

	bytes = bytes > room ? bytes - room : 0;
	bytes -= bytes / 8;
	return bytes > 0 ? bytes : 1;
}

/* The store's files on disk: the database, its WAL, the reserve. */
static uint64_t files_bytes(const struct writer *w)
{
	return file_bytes(w->database, "") + file_bytes(w->database, "-wal") +
	       file_bytes(w->database, WRITER_RESERVE_SUFFIX);
}

/* The share again: it grows when space was freed, never shrinks. */
static void measure_share(struct writer *w)
{
	uint64_t total = 0, avail = 0, fit;

	if (fs_bytes(w, &total, &avail) < 0)
		return;
	fit = share_of(w, files_bytes(w) + avail);
	if (fit > w->fs_share)
		w->fs_share = fit;
}

/* What the store takes against its cap: its pages in use and its WAL. */
static int store_bytes(struct writer *w, uint64_t *ret)
{
	uint64_t used = 0;
	int r = store_used_bytes(w->store, &used);

	if (r == 0)
		*ret = used + file_bytes(w->database, "-wal");
	return r;
}

static void reserve_path(const struct writer *w, char *path, size_t len)
{
	snprintf(path, len, "%s%s", w->database, WRITER_RESERVE_SUFFIX);
}

/* The reserve: wal_limit bytes of the filesystem held, so that a store
 * over its cap on a full filesystem can still delete (which writes the
 * WAL).  A file of ours only: never through a link someone planted. */
void writer_space_restore(struct writer *w)
{
	char path[PATH_MAX + 16];
	struct stat st;
	int fd;

	if (w->wal_limit == 0)
		return;
	reserve_path(w, path, sizeof(path));
	fd = open(path, O_WRONLY | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0600);
	if (fd < 0 && errno == EACCES && unlink(path) == 0)   /* root's, from a run as root */
		fd = open(path, O_WRONLY | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0600);
	if (fd < 0) {
		w->reserve_missing = true;
		return;
	}
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode) || st.st_nlink != 1 ||
	    (st.st_uid != geteuid() && st.st_uid != 0)) {
		close(fd);
		w->reserve_missing = true;   /* not ours: left alone */
		return;
	}
	w->reserve_missing = (uint64_t)st.st_size < w->wal_limit &&
			     posix_fallocate(fd, 0, (off_t)w->wal_limit) != 0;
	/* A part of it is no reserve: given back (and made again later). */
	if (w->reserve_missing && ftruncate(fd, 0) < 0)
		w->reserve_missing = true;
	close(fd);
}

static void spend_reserve(struct writer *w)
{
	char path[PATH_MAX + 16];

	reserve_path(w, path, sizeof(path));
	if (unlink(path) == 0 || errno == ENOENT)
		w->reserve_missing = true;
}

void writer_space_open(struct writer *w)
{
	uint64_t total = 0, avail = 0, held, whole;

	if (fs_bytes(w, &total, &avail) < 0)
		return;
	w->wal_limit = total / 16;
	if (w->wal_limit < WAL_LIMIT_MIN)
		w->wal_limit = WAL_LIMIT_MIN;
	if (w->wal_limit > WAL_LIMIT_MAX)
		w->wal_limit = WAL_LIMIT_MAX;
	store_set_wal_limit(w->store, w->wal_limit);
	held = file_bytes(w->database, "") + file_bytes(w->database, "-wal");
	whole = share_of(w, total);
	if ((held < whole ? held : whole) > w->fs_share)
		w->fs_share = held < whole ? held : whole;
	/* made at the first flush, by the user the daemon runs as by then */
	w->reserve_missing = true;
	measure_share(w);
}

/* Free space past which a rollup is not held back. */
#define ROLLUP_ROOM_ANY (256ULL << 20)

uint64_t writer_space_rollup_room(struct writer *w)
{
	uint64_t total = 0, avail = 0;

	/* Its rows go to the WAL, then to the file: half the free space. */
	if (fs_bytes(w, &total, &avail) < 0 || avail / 2 >= ROLLUP_ROOM_ANY)
		return 0;
	return avail / 2 > 0 ? avail / 2 : 1;
}

uint64_t writer_space_cap(struct writer *w)
{
	uint64_t cap = (uint64_t)w->max_database_mb << 20;

	measure_share(w);
	return w->fs_share != 0 && (cap == 0 || w->fs_share < cap) ? w->fs_share : cap;
}

bool writer_space_over_cap(struct writer *w)
{
	uint64_t used = 0, cap = writer_space_cap(w);

	if (cap == 0 || w->store == NULL)
		return false;
	/* What the store takes is never more than its files hold: under the
	 * cap, no need for the three queries (each a read transaction). */
	if (file_bytes(w->database, "") + file_bytes(w->database, "-wal") <= cap)
		return false;
	if (store_bytes(w, &used) < 0 || used <= cap)
		return false;
	if (cap < (uint64_t)w->max_database_mb << 20 || w->max_database_mb == 0) {
		if (log_throttle(&w->warned_full, monotonic_ns()))
			log_warning("max_database_mb = %u does not fit on the filesystem of %s: "
				    "keeping the database under %.1f MiB", w->max_database_mb,
				    w->database, (double)cap / MIB);
		w->ws.space_cap_bytes = cap;
	}
	return true;
}

/* One bounded retention step (store_prune) against the cap. */
static int prune_step(struct writer *w, char *err, size_t errlen)
{
	struct store_retention ret;
	int n;

	memset(&ret, 0, sizeof(ret));
	ret.now_ns = clock_ns(CLOCK_REALTIME);
	memcpy(ret.keep_ns, w->retention_ns, sizeof(ret.keep_ns));
	ret.max_bytes = writer_space_cap(w);
	ret.other_bytes = file_bytes(w->database, "-wal");
	ret.max_intervals = PRUNE_BATCH_INTERVALS;
	ret.max_delete_bytes = w->wal_limit / 4;
	n = store_prune(w->store, &ret, err, errlen);
	/* Deleted pages leave the file, and the WAL is written from its start
	 * again, at a checkpoint: at every step on a store kept at its cap. */
	if (n > 0) {
		char ckpt_err[256];

		(void)store_checkpoint(w->store, false, ckpt_err, sizeof(ckpt_err));
	}
	return n;
}

static bool still_over(struct writer *w)
{
	uint64_t used = 0;

	return store_bytes(w, &used) == 0 && used > writer_space_cap(w);
}

/* Steps while over the cap, for at most budget_ns; on a full filesystem
 * (full) the reserve is spent when deleting cannot write even so.  Rows
 * deleted, or -errno with err. */
static int prune_down(struct writer *w, uint64_t budget_ns, bool full, char *err,
		      size_t errlen)
{
	uint64_t start = monotonic_ns();
	int n, all = 0;

	do {
		n = prune_step(w, err, errlen);
		if (n == -ENOSPC && full && !w->reserve_missing) {
			spend_reserve(w);
			(void)store_checkpoint(w->store, false, err, errlen);
			n = prune_step(w, err, errlen);
		}
		if (n > 0)
			all += n;
	} while (n > 0 && monotonic_ns() - start < budget_ns && still_over(w));
	return n < 0 ? n : all;
}

int writer_space_prune(struct writer *w, char *err, size_t errlen)
{
	return prune_down(w, PRUNE_BUDGET_NS, false, err, errlen);
}

/* Down to the cap on a full filesystem: the WAL copied back first (its
 * space is then reused, not grown).  What is left goes at the next
 * flushes. */
static void make_room(struct writer *w)
{
	char err[1024];

	(void)store_checkpoint(w->store, false, err, sizeof(err));
	if (prune_down(w, MAKE_ROOM_BUDGET_NS, true, err, sizeof(err)) < 0 &&
	    log_throttle(&w->warned_prune, monotonic_ns()))
		log_warning("retention: cannot make room on the full filesystem of %s: %s",
			    w->database, err);
	w->next_prune_ns = 0;
}

bool writer_space_full(struct writer *w, char *err, size_t errlen)
{
	uint64_t used = 0, cap = writer_space_cap(w);

	if (store_bytes(w, &used) == 0 && cap != 0 && used > cap) {
		make_room(w);
		return true;
	}
	snprintf(err, errlen, "the filesystem is full, and not by stackd: the database's %.1f MiB "
		 "are within its cap of %.1f MiB; holding writes in memory (history kept) until "
		 "space is freed", (double)used / MIB, (double)cap / MIB);
	return false;
}
