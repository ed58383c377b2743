/*
 * argv_hoist.c - see argv_hoist.h.
 */
#include "cli/argv_hoist.h"

#include <errno.h>
#include <string.h>

/* How many arguments the global at argv[i] takes up (1 or 2), 0 when
 * argv[i] is not a global, -1 when its value is missing. */
static int global_at(int argc, char **argv, int i, const struct argv_global *g, size_t n)
{
	size_t k;

	for (k = 0; k < n; k++) {
		size_t len = strlen(g[k].name);

		if (strncmp(argv[i], g[k].name, len) != 0)
			continue;
		if (argv[i][len] == '\0')
			return !g[k].takes_value ? 1 : i + 1 < argc ? 2 : -1;
		if (argv[i][len] == '=' && g[k].takes_value)
			return 1;
	}
	return 0;
}

int argv_hoist(int argc, char **argv, const struct argv_global *globals, size_t n_globals,
	       char **out, int *bad)
{
	int i = 1, n = 1, first, taken, k;

	out[0] = argv[0];
	while (i < argc && (taken = global_at(argc, argv, i, globals, n_globals)) != 0) {
		if (taken < 0) {
			*bad = i;
			return -EINVAL;
		}
		i += taken;
	}
	if (i >= argc)
		return -ENOENT;
	first = i;
	out[n++] = argv[first];
	for (k = 1; k < first; k++)
		out[n++] = argv[k];
	for (k = first + 1; k < argc; k++)
		out[n++] = argv[k];
	out[n] = NULL;
	return 0;
}
