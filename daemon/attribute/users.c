/*
 * users.c - see users.h.
 */
#include "daemon/attribute/users.h"

#include <ctype.h>
#include <errno.h>
#include <pwd.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int users_parse_list(const char *list, uid_t *uids, size_t max, size_t *n, char *err,
		     size_t errlen)
{
	char copy[1024], *save = NULL, *item;

	*n = 0;
	if (strlen(list) >= sizeof(copy)) {
		snprintf(err, errlen, "user list too long");
		return -EINVAL;
	}
	snprintf(copy, sizeof(copy), "%s", list);
	for (item = strtok_r(copy, ", ", &save); item != NULL; item = strtok_r(NULL, ", ", &save)) {
		const struct passwd *pw = getpwnam(item);
		char *end;
		unsigned long uid;

		if (*n == max) {
			snprintf(err, errlen, "at most %zu users", max);
			return -EINVAL;
		}
		if (pw != NULL) {
			uids[(*n)++] = pw->pw_uid;
			continue;
		}
		uid = strtoul(item, &end, 10);
		if (*end != '\0' || !isdigit((unsigned char)item[0]) || uid > INT32_MAX) {
			snprintf(err, errlen, "no user '%s' on this host", item);
			return -EINVAL;
		}
		uids[(*n)++] = (uid_t)uid;
	}
	return 0;
}
