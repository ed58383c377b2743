/*
 * families.c - see families.h.
 */
#include "daemon/plan/families.h"
#include "daemon/plan/plan.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static bool entry_matches(const char *entry, const char *group)
{
	size_t n = strlen(entry);

	/* "td_l1" names a hybrid CPU's "td_l1@cpu_core" and "td_l1@cpu_atom" */
	return strcmp(entry, "all") == 0 || strcmp(entry, group) == 0 ||
	       (strncmp(entry, group, n) == 0 && (group[n] == '_' || group[n] == '@'));
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

bool families_auto(const char *list)
{
	return strcmp(list, "auto") == 0;
}

int families_check_reserved(const char *value, char *err, size_t errlen)
{
	char *end;
	unsigned long n;

	if (strcmp(value, "auto") == 0)
		return 0;
	n = strtoul(value, &end, 10);
	if (value[0] >= '0' && value[0] <= '9' && *end == '\0' && n <= 32)
		return 0;
	snprintf(err, errlen, "invalid value '%s' (expected auto, or a number of general "
		 "counters 0..32)", value);
	return -EINVAL;
}

unsigned families_reserved(const char *reserved_counters)
{
	return strcmp(reserved_counters, "auto") == 0 ? 0 :
	       (unsigned)strtoul(reserved_counters, NULL, 10);
}

void families_policy(const char *families, const char *reserved_counters,
		     struct plan_budget *b)
{
	b->families_auto = families_auto(families);
	b->spare_one = strcmp(reserved_counters, "auto") == 0;
}

int families_check_syntax(const char *list, char *err, size_t errlen)
{
	const char *p = list;

	if (*list == '\0') {
		snprintf(err, errlen, "empty (expected auto, all, or family names)");
		return -EINVAL;
	}
	if (families_auto(list))
		return 0;
	for (; *p != '\0'; p += strcspn(p, ",") + (p[strcspn(p, ",")] == ',')) {
		size_t skip = strspn(p, " "), len = strcspn(p + skip, ", ");

		if (len == 4 && strncmp(p + skip, "auto", 4) == 0) {
			snprintf(err, errlen, "auto goes alone (expected auto, or all,-NAME, or "
				 "family names)");
			return -EINVAL;
		}
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
	/* auto: every family is a candidate; the planner chooses among them
	 * for the budget (plan_budget.families_auto). */
	if (families_auto(list)) {
		for (g = 0; g < MODEL_MAX_GROUPS; g++)
			off[g] = false;
		return 0;
	}
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
