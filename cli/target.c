/*
 * target.c - see target.h.
 */
#include "cli/target.h"

#include <errno.h>
#include <stdbool.h>
#include <string.h>

static bool all_digits(const char *s)
{
	return s[0] != '\0' && strspn(s, "0123456789") == strlen(s);
}

int target_parse(const char *text, const char **kind, const char **name)
{
	static const char *const unit_suffixes[] = { ".service", ".scope", ".slice", ".socket",
						     ".mount", ".timer", ".target", ".swap", ".path" };
	size_t i, len = strlen(text);

	*kind = "comm";
	*name = text;
	if (strncmp(text, "pid:", 4) == 0) {
		*kind = "pid";
		*name = text + 4;
		return all_digits(*name) ? 0 : -EINVAL;
	}
	if (strncmp(text, "comm:", 5) == 0 || strncmp(text, "unit:", 5) == 0) {
		*kind = text[0] == 'c' ? "comm" : "unit";
		*name = text + 5;
	} else if (all_digits(text)) {
		*kind = "pid";
	} else {
		for (i = 0; i < sizeof(unit_suffixes) / sizeof(unit_suffixes[0]); i++) {
			size_t n = strlen(unit_suffixes[i]);

			if (len > n && strcmp(text + len - n, unit_suffixes[i]) == 0)
				*kind = "unit";
		}
	}
	return (*name)[0] != '\0' ? 0 : -EINVAL;
}
