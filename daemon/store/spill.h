/*
 * spill.h - intervals that could not reach the database at a clean stop
 * (a lock held by another program, say), saved beside it in DB.spill and
 * written at the next start (spill.c).  Nothing counted is dropped at a
 * clean stop so long as the directory takes the file.
 */
#ifndef STACKD_SPILL_H
#define STACKD_SPILL_H

#include "daemon/attribute/interval.h"
#include "daemon/plan/plan.h"
#include "daemon/store/store.h"
#include "lib/model/model.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The spill file beside the database: path + this. */
#define SPILL_SUFFIX ".spill"

/* What the store needs besides the intervals to write them as they would
 * have been: the model, the plan their rows' group indices name, the boot. */
struct spill_context {
	const struct model *model;
	const struct plan *plan;
	const char *boot_id;
	uint64_t booted_ns;
};

/* Append the intervals iv (linked by ->next) to path + SPILL_SUFFIX, in
 * one batch, synced.  0, or -errno with err. */
int spill_save(const char *path, const struct spill_context *ctx,
	       const struct interval_data *iv, char *err, size_t errlen);

/* Whether path + SPILL_SUFFIX exists. */
bool spill_exists(const char *path);

/* Write every batch of path + SPILL_SUFFIX to s (each under its own model,
 * plan and boot; a batch found already stored is skipped, so a replay cut
 * short can run again), then remove the file.  *n_written: intervals
 * written.  After it s must be registered again for the current plan.
 * -EBUSY, -ENOSPC, ...: the store could not take them, the file stays, try
 * again later; -EBADMSG: the file is damaged or from an unknown layout,
 * the batches before the damage written, the file renamed to
 * path.spill.bad-TIME (named in err). */
int spill_replay(struct store *s, const char *path, size_t *n_written, char *err,
		 size_t errlen);

#endif
