/*
 * mkfixture.c - writes the golden tests' databases: DB, the constructed
 * Skylake host of daemon/demo/demo_data.c (the data `stackd --demo` serves), and
 * beside it fixture-zen3.db and fixture-zen4.db, the AMD hosts of
 * fixture_zen.c, each at a fixed time and with the fixture's own meta.
 * Deterministic: same files, same outputs.
 */
#include "daemon/demo/demo_data.h"
#include "fixture_zen.h"

#include <libgen.h>
#include <stdio.h>
#include <string.h>

#define T0 1767225600ULL   /* 2026-01-01 00:00:00 UTC */

/* One host's database at path.  0, or 1 with a message. */
static int write_host(const char *path, const char *host, const char *smt, unsigned ncpus,
		      const struct demo_host *h)
{
	const char *const kv[] = {
		"version", "fixture", "host", host, "pid", "0",
		"started_ns", "1767225600000000000", "interval", "1s", "rotate_period", "100ms",
		"model_reason", "constructed for the golden tests", "smt", smt,
		"switch_event", "member",
	};
	const struct demo_data_spec spec = {
		T0, ncpus, "fixture-boot", kv, sizeof(kv) / sizeof(kv[0]) / 2, h,
	};
	char err[1024];

	remove(path);
	if (demo_data_write(path, &spec, err, sizeof(err)) < 0) {
		fprintf(stderr, "mkfixture: %s: %s\n", path, err);
		return 1;
	}
	return 0;
}

int main(int argc, char **argv)
{
	char copy[4096], zen3[4200], zen4[4200];
	const char *dir;

	if (argc != 2) {
		fprintf(stderr, "usage: mkfixture DB (fixture-zen3.db and fixture-zen4.db go "
			"beside it)\n");
		return 2;
	}
	snprintf(copy, sizeof(copy), "%s", argv[1]);
	dir = dirname(copy);
	snprintf(zen3, sizeof(zen3), "%s/fixture-zen3.db", dir);
	snprintf(zen4, sizeof(zen4), "%s/fixture-zen4.db", dir);
	if (write_host(argv[1], "fixture-host", "off", 2, NULL) != 0 ||
	    write_host(zen3, "fixture-zen3", "off", 4, &fixture_zen3) != 0 ||
	    write_host(zen4, "fixture-zen4", "on", 4, &fixture_zen4) != 0)
		return 1;
	return 0;
}
