/*
 * demo_data.h - a constructed database: a Skylake host of five processes of
 * known character, written through the daemon's own store code.  The golden
 * tests' fixture (tests/golden/mkfixture.c) and `stackd --demo` are the same
 * data; nothing in it was measured.
 */
#ifndef STACKD_DEMO_DATA_H
#define STACKD_DEMO_DATA_H

#include <stddef.h>
#include <stdint.h>

/* The label every surface shows for such data (meta "demo"). */
#define DEMO_DATA_LABEL "demo: constructed data, not measured"

struct demo_data_spec {
	uint64_t t0_s;              /* the detailed minutes start here (Unix s) */
	unsigned ncpus;             /* the host's CPUs (the processes use 2.25) */
	const char *boot_id;
	const char *const *meta;    /* key, value pairs for the meta table */
	size_t n_meta;              /* pairs */
};

/* Write the database at path (a new file): three hours of history rolled
 * up as the daemon's retention would, then two minutes of 1 s intervals
 * from t0_s.  Deterministic for a given spec.  0, or -errno with err. */
int demo_data_write(const char *path, const struct demo_data_spec *spec, char *err,
		    size_t errlen);

#endif
