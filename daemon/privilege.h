/*
 * privilege.h - started as root (not by systemd, which starts stackd as
 * its own user), stackd opens what needs root and then becomes the user
 * `user` (config key, default "stackd") keeping one capability,
 * CAP_PERFMON, in its permitted, effective and bounding sets: the same
 * privilege the systemd unit grants.  user = root keeps root, on request.
 */
#ifndef STACKD_PRIVILEGE_H
#define STACKD_PRIVILEGE_H

#include <stddef.h>

/* Whether a drop will happen, and that it can: 0 (nothing to do: not root,
 * or user is root), 1 (will drop), -ENOENT (no such user: err says how to
 * create it, or to keep root). */
int privilege_check(const char *user, char *err, size_t errlen);

/* Give the files in paths (NULL-terminated; missing ones skipped) to the
 * user, then become it with CAP_PERFMON only.  Returns 0 or -errno with
 * err; on error the process may be half-dropped: the caller exits. */
int privilege_drop(const char *user, const char *const *paths, char *err, size_t errlen);

#endif
