/*
 * recorded_label.c - see recorded_label.h.
 */
#include "cli/recorded_label.h"
#include "cli/term.h"

#include <string.h>

/* "a,b" from the entry's missing_events (at most what fits). */
static void missing_list(const json_t *entry, char *buf, size_t len)
{
	const json_t *e;
	size_t i, used = 0;

	buf[0] = '\0';
	json_array_foreach(json_object_get(entry, "missing_events"), i, e) {
		char safe[128];
		int n;

		if (!json_is_string(e))
			continue;
		n = snprintf(buf + used, len - used, "%s%s", used > 0 ? ", " : "",
			     term_safe(json_string_value(e), safe, sizeof(safe)));
		if (n < 0 || (size_t)n >= len - used)
			break;
		used += (size_t)n;
	}
}

void recorded_label(const json_t *answer, const json_t *entry, char *buf, size_t len)
{
	const json_t *model = json_object_get(entry, "model");
	json_int_t n = json_integer_value(json_object_get(entry, "intervals"));
	char safe[128], missing[512], head[256];

	snprintf(head, sizeof(head), "recorded under %s formula v%lld (%lld interval%s)",
		 term_safe(json_is_string(model) ? json_string_value(model) : "?", safe,
			   sizeof(safe)),
		 (long long)json_integer_value(json_object_get(entry, "formula_version")),
		 (long long)n, n == 1 ? "" : "s");
	missing_list(entry, missing, sizeof(missing));
	if (json_is_true(json_object_get(entry, "recomputed")))
		snprintf(buf, len, "%s: recomputed with v%lld", head,
			 (long long)json_integer_value(json_object_get(answer, "formula_version")));
	else if (missing[0] != '\0')
		snprintf(buf, len, "%s: events differ (lacks %s): counts kept, figures that "
			 "need them not computed", head, missing);
	else
		snprintf(buf, len, "%s: events differ: counts kept, stacks not computed", head);
}

void recorded_label_print(const json_t *answer, const char *indent, FILE *f)
{
	const json_t *entry;
	size_t i;

	json_array_foreach(json_object_get(answer, "recorded_under"), i, entry) {
		char line[1024];

		recorded_label(answer, entry, line, sizeof(line));
		fprintf(f, "%s%s\n", indent, line);
	}
}
