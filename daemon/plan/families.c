/*
 * families.c - see families.h.
 */
#include "daemon/plan/families.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>

static bool entry_matches(const char *entry, const char *group)
{
	size_t n = strlen(entry);

	return strcmp(entry, "all") == 0 || strcmp(entry, group) == 0 ||
	       (strncmp(entry, group, n) == 0 && group[n] == '_');
}

/* Every comma-separated item names something: ",,," or "td_l1,,flops" is
 * a typo, not a list (strtok would skip the empty items and leave nothing
 * or less than meant). */
static int check_items(const char *list, char *err, size_t errlen)
{
	size_t item = 1;
	bool named = false;

	for (const char *p = list;; p++) {
		if (*p == ',' || *p == '\0') {
			if (!named) {
				snprintf(err, errlen, "item %zu is empty (expected all, or family "
					 "names separated by commas, e.g. td_l1,flops)", item);
				return -EINVAL;
			}
			if (*p == '\0')
				return 0;
			item++;
			named = false;
		} else if (*p != ' ') {
			named = true;
		}
	}
}

int families_check_syntax(const char *list, char *err, size_t errlen)
{
	const char *p = list;

	if (*list == '\0') {
		snprintf(err, errlen, "empty (expected all, or family names)");
		return -EINVAL;
	}
	for (; *p != '\0'; p++) {
		if (isalnum((unsigned char)*p) || *p == '_' || *p == ',' || *p == '-' || *p == ' ')
			continue;
		snprintf(err, errlen, "invalid character '%c' (expected family names separated "
			 "by commas, e.g. all,-fe_uops or td_l1,flops)", *p);
		return -EINVAL;
	}
	return check_items(list, err, errlen);
}

static void list_groups(const struct model *m, char *buf, size_t len)
{
	size_t used = 0;
	unsigned g;

	buf[0] = '\0';
	for (g = 0; g < m->n_groups && used < len; g++) {
		int n = snprintf(buf + used, len - used, "%s%s", g ? ", " : "", m->groups[g].name);

		if (n > 0)
			used += (size_t)n;
	}
}

int families_parse(const struct model *m, const char *list, bool off[MODEL_MAX_GROUPS],
		   char *err, size_t errlen)
{
	char copy[512], *save = NULL, *item;
	bool any_on = false, first = true;
	unsigned g;
	int r = families_check_syntax(list, err, errlen);

	if (r < 0)
		return r;
	snprintf(copy, sizeof(copy), "%s", list);
	for (item = strtok_r(copy, ", ", &save); item != NULL; item = strtok_r(NULL, ", ", &save)) {
		bool minus = item[0] == '-', matched = false;
		const char *name = minus ? item + 1 : item;

		/* A list that starts by adding starts from nothing. */
		if (first)
			for (g = 0; g < MODEL_MAX_GROUPS; g++)
				off[g] = !minus;
		first = false;
		for (g = 0; g < m->n_groups; g++) {
			if (entry_matches(name, m->groups[g].name)) {
				off[g] = minus;
				matched = true;
			}
		}
		if (!matched) {
			char groups[512];

			list_groups(m, groups, sizeof(groups));
			snprintf(err, errlen, "model '%s' has no family '%s' (it has: %s)", m->name,
				 name, groups);
			return -EINVAL;
		}
	}
	for (g = 0; g < m->n_groups; g++)
		any_on |= !off[g];
	if (!any_on) {
		snprintf(err, errlen, "'%s' leaves no family of model '%s' to collect", list,
			 m->name);
		return -EINVAL;
	}
	return 0;
}
