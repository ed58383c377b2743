/* Options before the verb: moved after it, in order, values kept with
 * their option; "--opt=value" too; a missing value or verb refused. */
#include "cli/argv_hoist.h"
#include "test.h"

#include <errno.h>
#include <string.h>

static const struct argv_global globals[] = {
	{ "--url", true }, { "--db", true }, { "--json", false },
};

/* argv (space separated words) hoisted, joined by spaces into out. */
static int hoist(const char *line, char *out, size_t len, int *bad)
{
	char copy[256], *argv[16], *res[17];
	int argc = 0, r, i;

	snprintf(copy, sizeof(copy), "%s", line);
	for (char *w = strtok(copy, " "); w != NULL && argc < 16; w = strtok(NULL, " "))
		argv[argc++] = w;
	r = argv_hoist(argc, argv, globals, sizeof(globals) / sizeof(globals[0]), res, bad);
	out[0] = '\0';
	for (i = 0; r == 0 && res[i] != NULL; i++) {
		strncat(out, i ? " " : "", len - strlen(out) - 1);
		strncat(out, res[i], len - strlen(out) - 1);
	}
	return r;
}

int main(void)
{
	static const struct { const char *in, *out; } cases[] = {
		{ "stackctl top", "stackctl top" },
		{ "stackctl top --url X -d 1", "stackctl top --url X -d 1" },
		{ "stackctl --url X top", "stackctl top --url X" },
		{ "stackctl --db F --json show 1234", "stackctl show --db F --json 1234" },
		{ "stackctl --url=unix:/s status", "stackctl status --url=unix:/s" },
		/* the value of a global is never taken for the verb */
		{ "stackctl --db top show top", "stackctl show --db top top" },
		/* not a global: it stands where the verb would, for main to judge */
		{ "stackctl --window 1s top", "stackctl --window 1s top" },
		{ "stackctl --json --help", "stackctl --help --json" },
		/* a value only for options that take one */
		{ "stackctl --json=1 top", "stackctl --json=1 top" },
	};
	char out[256];
	size_t i;
	int bad = -1;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		CHECK(hoist(cases[i].in, out, sizeof(out), &bad) == 0);
		CHECK_STR(out, cases[i].out);
	}
	CHECK(hoist("stackctl --url", out, sizeof(out), &bad) == -EINVAL);
	CHECK(bad == 1);
	CHECK(hoist("stackctl --json --url", out, sizeof(out), &bad) == -EINVAL);
	CHECK(bad == 2);
	CHECK(hoist("stackctl --url X", out, sizeof(out), &bad) == -ENOENT);
	CHECK(hoist("stackctl", out, sizeof(out), &bad) == -ENOENT);
	return 0;
}
