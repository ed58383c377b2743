/*
 * window_share.h - one window's per-process sums shared by every request
 * for that window length (lib/api.h, struct api_windows).
 *
 * /api/v1/top and /api/v1/processes/PID differ only in what they take from
 * the same query_window(): a dashboard's distinct URLs (sort, limit, user,
 * pid) each summed the whole window again, and under load many summed the
 * same one at once on the two CPUs (the 1.13 s tail of issue 34).  Here a
 * window is computed by one request while the others asking for it wait
 * (none kept yet) or take the previous one (a refresh under way), and is
 * kept until the store's next interval - or, for long windows, until it
 * is older than its length / WINDOW_SHARE_LAG_DIV (a 1 y window is
 * recomputed every 2.4 h, a 1 d one every 24 s: its to_ns says how old it
 * is), since summing a year of hour rollups takes seconds of a CPU.
 * A failed computation's answer goes to every request that waited for
 * it, and no request waits past WINDOW_SHARE_WAIT_NS (503, try again).
 */
#ifndef STACKD_WINDOW_SHARE_H
#define STACKD_WINDOW_SHARE_H

#include "lib/api.h"
#include "lib/query.h"

#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

#define WINDOW_SHARE_ENTRIES 8
#define WINDOW_SHARE_LAG_DIV 3600
/* During a refresh the previous window is lent if no older than this (or
 * its lag); a request waits this long for another's computation, then is
 * answered 503 (try again); a window nobody asks for this long is freed. */
#define WINDOW_SHARE_LEND_NS (5ULL * 1000000000ULL)
#define WINDOW_SHARE_WAIT_NS (10ULL * 1000000000ULL)
#define WINDOW_SHARE_IDLE_NS (60ULL * 1000000000ULL)

struct window_share;

/* Computes a window as query_window does (the tests give their own). */
typedef int window_share_compute_fn(struct db *db, uint64_t window_ns, struct window *out,
				    char *err, size_t errlen);

/* A share whose windows are current while *generation (bumped at each
 * stored interval) has not moved; compute NULL: query_window.  NULL when
 * out of memory. */
struct window_share *window_share_new(atomic_uint_fast64_t *generation,
				      window_share_compute_fn *compute);
void window_share_free(struct window_share *ws);   /* NULL is a no-op */

/* api_windows's get and put (ctx: the share). */
int window_share_get(void *ctx, struct db *db, uint64_t window_ns, const struct window **out,
		     char *err, size_t errlen);
void window_share_put(void *ctx, const struct window *w);

/* Start a thread that sums windows again in the background: a request
 * that finds its window's sums out of date but lendable (WINDOW_SHARE_LEND_NS,
 * or the window's lag) is lent them at once and the thread computes newer
 * ones, on its own connection to database (NULL: compute gets db NULL, for
 * tests) within cpu_cap_ns of CPU time each.  Without it the first request
 * after a new interval sums the window itself.  0 or -EAGAIN. */
int window_share_start_refresher(struct window_share *ws, const char *database,
				 uint64_t cpu_cap_ns);

/* Free the windows nobody asked for in WINDOW_SHARE_IDLE_NS before now_ns
 * (CLOCK_MONOTONIC): called at each stored interval, so a window of a
 * fork storm does not stay until the next request, which may never come. */
void window_share_release_idle(struct window_share *ws, uint64_t now_ns);

/* The database was replaced or the model changed: no window computed
 * before is lent again (a long window's lag would otherwise serve the old
 * file's sums for hours). */
void window_share_forget(struct window_share *ws);

/* How many windows were computed (for the tests and the bench). */
uint64_t window_share_computed(struct window_share *ws);

#endif
