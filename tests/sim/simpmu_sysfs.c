/*
 * simpmu_sysfs.c - the simulated host's core PMU as the kernel shows it in
 * /sys/bus/event_source/devices, written to a temporary directory so that
 * the collector's own resolver (daemon/collect/sysfs_event.c) encodes the
 * "pmu/.../" specs of our models there as it does on a real host:
 *
 *   <pmu>/type             4: the core PMU registers as PERF_TYPE_RAW
 *                          (arch/x86/events/core.c: perf_pmu_register(...,
 *                          "cpu", PERF_TYPE_RAW); on a hybrid, the big
 *                          cores' "cpu_core" does, "cpu_atom" gets a
 *                          dynamic type, not simulated)
 *   <pmu>/format/<term>    the kernel's format attributes, from
 *                          tests/sim/perfdb_encode.c (which names them);
 *                          "any" only where the CPU's tables use AnyThread
 *                          (deprecated from Ice Lake: intel_arch_formats_attr
 *                          leaves it out), umask with its second byte where
 *                          the tables need it (umask2_show)
 *   <pmu>/events/<name>    Intel perf metrics (intel/core.c EVENT_ATTR_STR):
 *                          slots "event=0x00,umask=0x4", topdown-retiring
 *                          "event=0x00,umask=0x80" ... topdown-mem-bound
 *                          "event=0x00,umask=0x87", as many as the PMU has
 *
 * Arm's PMU takes raw "rNN" events and is not written.
 */
#include "simpmu_int.h"
#include "tests/sim/perfdb_encode.h"

#include <errno.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static const struct { const char *name, *terms; } perf_metrics_events[] = {
	{ "topdown-retiring", "event=0x00,umask=0x80" },
	{ "topdown-bad-spec", "event=0x00,umask=0x81" },
	{ "topdown-fe-bound", "event=0x00,umask=0x82" },
	{ "topdown-be-bound", "event=0x00,umask=0x83" },
	{ "topdown-heavy-ops", "event=0x00,umask=0x84" },
	{ "topdown-br-mispredict", "event=0x00,umask=0x85" },
	{ "topdown-fetch-lat", "event=0x00,umask=0x86" },
	{ "topdown-mem-bound", "event=0x00,umask=0x87" },
};

static int write_file(const char *dir, const char *name, const char *text)
{
	char path[256];
	FILE *f;
	int r = 0;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "we");
	if (f == NULL)
		return -errno;
	if (fprintf(f, "%s\n", text) < 0)
		r = -EIO;
	if (fclose(f) != 0 && r == 0)
		r = -errno;
	return r;
}

static int make_dir(char *buf, size_t len, const char *parent, const char *name)
{
	snprintf(buf, len, "%s/%s", parent, name);
	return mkdir(buf, 0700) == 0 ? 0 : -errno;
}

/* The perf table whose traits (AnyThread, umask2) the PMU has: a table
 * arch's own, a hand PMU's by its JSON directory; NULL for none. */
static const struct perfdb_table *traits_table(const struct simpmu_arch *a)
{
	if (a->table != NULL)
		return a->table;
	return a->json != NULL ? perfdb_table_by_name(a->json) : NULL;
}

static int write_formats(const struct simpmu_arch *a, unsigned vendor, const char *pmu_dir)
{
	const struct perfdb_table *t = traits_table(a);
	bool umask2 = t != NULL && perfdb_table_has_umask2(t);
	bool any = t != NULL && perfdb_table_has_any(t);
	const char *const *term;
	char dir[160];
	int r;

	r = make_dir(dir, sizeof(dir), pmu_dir, "format");
	for (term = perfdb_format_terms(vendor); r == 0 && *term != NULL; term++) {
		if (strcmp(*term, "any") == 0 && !any)
			continue;
		r = write_file(dir, *term, perfdb_format(vendor, *term, umask2));
	}
	return r;
}

static int write_events(const struct simpmu_arch *a, const char *pmu_dir)
{
	char dir[160];
	unsigned i;
	int r;

	if (a->n_metrics == 0)
		return 0;
	r = make_dir(dir, sizeof(dir), pmu_dir, "events");
	if (r == 0)
		r = write_file(dir, "slots", "event=0x00,umask=0x4");
	for (i = 0; r == 0 && i < a->n_metrics && i < 8; i++)
		r = write_file(dir, perf_metrics_events[i].name, perf_metrics_events[i].terms);
	return r;
}

int simpmu_sysfs_make(struct simpmu *sim)
{
	const struct simpmu_arch *a = sim->arch;
	unsigned vendor = a->vendor == SIMPMU_INTEL ? PERFDB_INTEL : PERFDB_AMD;
	char pmu_dir[128];
	int r;

	snprintf(sim->sysfs_root, sizeof(sim->sysfs_root), "/tmp/simpmu-sysfs.XXXXXX");
	if (mkdtemp(sim->sysfs_root) == NULL) {
		sim->sysfs_root[0] = '\0';
		return -errno;
	}
	if (a->vendor == SIMPMU_ARM)
		return 0;
	r = make_dir(pmu_dir, sizeof(pmu_dir), sim->sysfs_root, a->unit != NULL ? a->unit : "cpu");
	if (r == 0)
		r = write_file(pmu_dir, "type", "4");
	if (r == 0)
		r = write_formats(a, vendor, pmu_dir);
	if (r == 0 && a->vendor == SIMPMU_INTEL)
		r = write_events(a, pmu_dir);
	return r;
}

static int remove_one(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st;
	(void)flag;
	(void)ftw;
	return remove(path) == 0 ? 0 : -1;
}

void simpmu_sysfs_remove(struct simpmu *sim)
{
	if (sim->sysfs_root[0] == '\0')
		return;
	(void)nftw(sim->sysfs_root, remove_one, 8, FTW_DEPTH | FTW_PHYS);
	sim->sysfs_root[0] = '\0';
}
