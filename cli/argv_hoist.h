/*
 * argv_hoist.h - options that may come before a command's verb, as with
 * `systemctl -H HOST status`, `git -C DIR log`, `kubectl --context X get`:
 * moved to just after the verb, so the verb's own option parser reads
 * them as if they had been written there.
 */
#ifndef STACKD_ARGV_HOIST_H
#define STACKD_ARGV_HOIST_H

#include <stdbool.h>
#include <stddef.h>

struct argv_global {
	const char *name;     /* "--url" (also taken as "--url=VALUE") */
	bool takes_value;
};

/* out (argc + 1 pointers) receives argv[0], the first argument that is not
 * one of globals (the verb, or whatever stands there), the globals found
 * before it in their order, then the rest; NULL-terminated.  Returns 0,
 * -ENOENT when nothing follows the globals (no verb), or -EINVAL when the
 * last global lacks its value (*bad: its index in argv). */
int argv_hoist(int argc, char **argv, const struct argv_global *globals, size_t n_globals,
	       char **out, int *bad);

#endif
