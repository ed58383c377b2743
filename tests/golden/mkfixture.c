/*
 * mkfixture.c - writes the golden tests' database: the constructed Skylake
 * host of daemon/demo_data.c (the data `stackd --demo` serves), at a fixed
 * time and with the fixture's own meta.  Deterministic: same file, same
 * outputs.
 */
#include "demo_data.h"

#include <stdio.h>

#define T0 1767225600ULL   /* 2026-01-01 00:00:00 UTC */

int main(int argc, char **argv)
{
	static const char *const kv[] = {
		"version", "fixture", "host", "fixture-host", "pid", "0",
		"started_ns", "1767225600000000000", "interval", "1s", "rotate_period", "100ms",
		"model_reason", "constructed for the golden tests", "smt", "off",
		"switch_event", "member",
	};
	const struct demo_data_spec spec = {
		T0, 2, "fixture-boot", kv, sizeof(kv) / sizeof(kv[0]) / 2,
	};
	char err[1024];

	if (argc != 2) {
		fprintf(stderr, "usage: mkfixture DB\n");
		return 2;
	}
	remove(argv[1]);
	if (demo_data_write(argv[1], &spec, err, sizeof(err)) < 0) {
		fprintf(stderr, "mkfixture: %s\n", err);
		return 1;
	}
	return 0;
}
