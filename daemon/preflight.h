/*
 * preflight.h - the checks of a configuration against this host that the
 * start makes before it opens anything, shared with `stackd -n` so that a
 * configuration -n accepts does not fail at start for a reason -n could
 * have seen: the model, the user to become, the families of the model that
 * will run, the database path, the open-file limit, the web directory.
 * Opens no counter and no database.
 */
#ifndef STACKD_PREFLIGHT_H
#define STACKD_PREFLIGHT_H

#include "daemon/config.h"

#include <stddef.h>

/* 0, or -errno with the first problem as one line in err ("families:
 * model 'software' has no family 'x' (it has: ...)").  May raise the soft
 * open-file limit (fdlimit.h). */
int preflight_check(const struct config *c, char *err, size_t errlen);

/* web_dir is "none", "builtin" or a readable directory (not needed with
 * listen = none).  Only -n asks: the start goes on without it (the API works, the
 * dashboard's pages answer 404), so that a failed start still prints one
 * line alone. */
int preflight_web_dir(const struct config *c, char *err, size_t errlen);

#endif
