/*
 * store.h - the daemon's writer to SQLite.  The only file that writes the
 * database: owns the connection and the prepared statements; callers see
 * struct store and struct interval_data.  Does not log: returns -errno and
 * a one-line message in err.
 */
#ifndef STACKD_STORE_H
#define STACKD_STORE_H

#include "interval.h"
#include "lib/model.h"

#include <stddef.h>
#include <stdint.h>

struct store;

/* Open (creating if needed) the database at path, in WAL mode, and apply
 * schema/ steps up to the newest.  A database from a newer stackd is refused
 * untouched; a database this call created is removed again if setup fails. */
int store_open(const char *path, struct store **ret, char *err, size_t errlen);
void store_close(struct store *s);   /* NULL is a no-op */

/* Register this boot and the model's groups (idempotent). */
int store_register(struct store *s, const struct model *m, const char *boot_id,
		   uint64_t booted_ns, char *err, size_t errlen);

/* Write one or more intervals (linked by ->next) in one transaction.  On
 * error nothing of them is stored and they can be written again later. */
int store_write_intervals(struct store *s, const struct interval_data *iv,
			  char *err, size_t errlen);

/* How long a write waits for a lock held by someone else before failing
 * with -EBUSY (default 5 s). */
void store_set_busy_timeout(struct store *s, int ms);

/* Retention, one bounded step (a flush calls it; the collector's workers
 * never wait on it): delete the oldest intervals that ended before
 * keep_from_ns, and, while the stored data outgrows max_bytes (0: no cap),
 * the oldest intervals whatever their age (the newest minute stays), at
 * most max_intervals in one transaction, with their samples and the
 * processes no sample names any more; then hand freed pages back to the
 * filesystem.  Returns the number of intervals deleted, or -errno with err. */
int store_prune(struct store *s, uint64_t keep_from_ns, uint64_t max_bytes,
		unsigned max_intervals, char *err, size_t errlen);

/* Bytes the stored data takes (pages in use, not free ones). */
int store_used_bytes(struct store *s, uint64_t *ret);

/* key/value facts for `stackctl status`: version, model, started, ... */
int store_set_meta(struct store *s, const char *const *kv, size_t n_pairs,
		   char *err, size_t errlen);

#endif
