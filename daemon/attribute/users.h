/*
 * users.h - lists of users as the config names them: user names or uids,
 * separated by commas and/or spaces (http_full_access, exclude_user).
 */
#ifndef STACKD_USERS_H
#define STACKD_USERS_H

#include <stddef.h>
#include <sys/types.h>

/* list -> uids[max], *n of them.  Returns 0, or -EINVAL with err naming a
 * user this host does not have, or saying there are more than max. */
int users_parse_list(const char *list, uid_t *uids, size_t max, size_t *n, char *err,
		     size_t errlen);

#endif
