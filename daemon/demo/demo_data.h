/*
 * demo_data.h - a constructed database: a Skylake host of five processes of
 * known character, written through the daemon's own store code.  The golden
 * tests' fixture (tests/golden/mkfixture.c) and `stackd --demo` are the same
 * data; nothing in it was measured.  The fixture also writes hosts of other
 * models (struct demo_host, tests/golden/fixture_zen.c); --demo does not.
 */
#ifndef STACKD_DEMO_DATA_H
#define STACKD_DEMO_DATA_H

#include <stddef.h>
#include <stdint.h>

struct model;

/* The label every surface shows for such data (meta "demo"). */
#define DEMO_DATA_LABEL "demo: constructed data, not measured"

/* A process of a constructed host: who it is and how much it runs. */
struct demo_proc {
	int32_t pid;
	const char *comm, *cmdline, *unit;
	int64_t uid;
	double cpu;                 /* share of one CPU */
};

/* A constructed host of a model other than Skylake.  Its intervals have a
 * row per process and group, the groups sharing each process's time as
 * the daemon's rotation inside an interval shares it, so every interval
 * holds every family (what a fit over intervals needs). */
struct demo_host {
	const struct model *model;
	const struct demo_proc *procs;
	size_t n_procs;
	/* The counts v[0..] of group g for process k in detailed interval i
	 * (0..DEMO_DATA_INTERVALS-1), in which it ran tc ns in that group. */
	void (*counts)(size_t k, unsigned g, unsigned i, uint64_t tc, uint64_t *v);
};

/* The detailed 1 s intervals every host has from t0_s. */
#define DEMO_DATA_INTERVALS 120

struct demo_data_spec {
	uint64_t t0_s;              /* the detailed minutes start here (Unix s) */
	unsigned ncpus;             /* the host's CPUs (the processes use 2.25) */
	const char *boot_id;
	const char *const *meta;    /* key, value pairs for the meta table */
	size_t n_meta;              /* pairs */
	const struct demo_host *host;   /* NULL: the Skylake host (`stackd --demo`) */
};

/* Write the database at path (a new file): for Skylake three hours of
 * history rolled up as the daemon's retention would, then (every host) two
 * minutes of 1 s intervals from t0_s.  Deterministic for a given spec.  0,
 * or -errno with err. */
int demo_data_write(const char *path, const struct demo_data_spec *spec, char *err,
		    size_t errlen);

/* Second i of the Skylake host as `stackd --demo` replays it into
 * /metrics, from start_s: its processes as in the detailed minutes
 * (interval i modulo DEMO_DATA_INTERVALS), but every group in every
 * second, each counting an equal part of it as the daemon's rotation
 * inside an interval does, so each second has every family.  NULL
 * without memory; interval_free() frees it. */
struct interval_data *demo_data_replay(unsigned i, uint64_t start_s, unsigned ncpus);

#endif
