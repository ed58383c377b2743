/*
 * exclude.h - processes an administrator asked stackd not to store one by
 * one (exclude_comm, exclude_unit, exclude_user).  Their counts are not
 * dropped: they add up in one row per group of the pseudo-process
 * "[excluded]" (PID_EXCLUDED, lib/pids.h), so every CPU second stays
 * accounted for and the host's totals do not change.
 */
#ifndef STACKD_EXCLUDE_H
#define STACKD_EXCLUDE_H

#include "daemon/attribute/interval.h"
#include "lib/pids.h"

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#define EXCLUDE_MAX 32          /* patterns of each kind */

struct exclusions {
	char comm[EXCLUDE_MAX][64];    /* fnmatch(3) patterns of command names */
	size_t n_comm;
	char unit[EXCLUDE_MAX][256];   /* fnmatch(3) patterns of unit names */
	size_t n_unit;
	uid_t uid[EXCLUDE_MAX];
	size_t n_uid;
};

/* Comma-separated patterns and users (names or uids); "" for none.
 * Returns 0, or -EINVAL with err. */
int exclude_parse(struct exclusions *x, const char *comms, const char *units,
		  const char *users, char *err, size_t errlen);

bool exclude_empty(const struct exclusions *x);

/* Whether p is excluded.  The idle and unattributed rows never are. */
bool exclude_match(const struct exclusions *x, const struct iv_proc *p);

/* Fold the excluded processes of iv into "[excluded]": their rows summed
 * per group, their process entries removed.  Returns how many processes
 * were folded, or -ENOMEM (iv is then unchanged). */
int exclude_apply(const struct exclusions *x, struct interval_data *iv);

#endif
