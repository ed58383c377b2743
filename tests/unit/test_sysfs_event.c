/* Pseudo events from sysfs, resolved against a fake tree that copies what
 * an Ice Lake publishes (/sys/bus/event_source/devices/cpu/events/slots is
 * "event=0x00,umask=0x4", topdown-fe-bound "event=0x00,umask=0x82"; format
 * event "config:0-7", umask "config:8-15"; perf encodes them as raw
 * config 0x0400 and 0x8200), plus an AMD-style split event field. */
#include "daemon/collect/sysfs_event.h"
#include "test.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static char root[64];

static void put(const char *rel, const char *text)
{
	char path[256], cmd[300];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", root, rel);
	snprintf(cmd, sizeof(cmd), "mkdir -p \"$(dirname '%s')\"", path);
	CHECK(system(cmd) == 0);
	f = fopen(path, "w");
	CHECK(f != NULL);
	fputs(text, f);
	fclose(f);
}

int main(void)
{
	struct perf_event_attr a;
	char err[512], cmd[128];

	snprintf(root, sizeof(root), "/tmp/stackd-unit-sysfs.XXXXXX");
	CHECK(mkdtemp(root) != NULL);
	put("cpu/type", "4\n");
	put("cpu/events/slots", "event=0x00,umask=0x4\n");
	put("cpu/events/topdown-fe-bound", "event=0x00,umask=0x82\n");
	put("cpu/events/edgy", "event=0x3c,edge\n");
	put("cpu/events/toobig", "event=0x1ff\n");
	put("cpu/events/noformat", "colour=2\n");
	put("cpu/format/event", "config:0-7\n");
	put("cpu/format/umask", "config:8-15\n");
	put("cpu/format/edge", "config:18\n");
	put("cpu/format/inv", "config:23\n");
	put("cpu/format/cmask", "config:24-31\n");
	put("amd/type", "8\n");
	put("amd/format/event", "config:0-7,32-35\n");
	put("amd/events/wide", "event=0x1c7\n");

	CHECK(sysfs_event_is_spec("cpu/slots/"));
	CHECK(sysfs_event_is_spec("cpu_core/topdown-retiring/"));
	CHECK(!sysfs_event_is_spec("perf::PAGE-FAULTS"));
	CHECK(!sysfs_event_is_spec("INT_MISC:RECOVERY_CYCLES"));
	CHECK(!sysfs_event_is_spec("cpu//"));
	CHECK(!sysfs_event_is_spec("/slots/"));

	memset(&a, 0, sizeof(a));
	CHECK(sysfs_event_resolve(root, "cpu/slots/", &a, err, sizeof(err)) == 0);
	CHECK_EQ_U(a.type, 4);
	CHECK_EQ_U(a.config, 0x0400);
	CHECK(sysfs_event_resolve(root, "cpu/topdown-fe-bound/", &a, err, sizeof(err)) == 0);
	CHECK_EQ_U(a.config, 0x8200);
	CHECK(sysfs_event_resolve(root, "cpu/edgy/", &a, err, sizeof(err)) == 0);
	CHECK_EQ_U(a.config, 0x3cULL | (1ULL << 18));
	/* 0x1c7: low 8 bits 0xc7 in 0-7, the next bit in 32 */
	CHECK(sysfs_event_resolve(root, "amd/wide/", &a, err, sizeof(err)) == 0);
	CHECK_EQ_U(a.type, 8);
	CHECK_EQ_U(a.config, 0xc7ULL | (1ULL << 32));

	/* perf's term spelling, as perf's tables give an event
	 * (UOPS_ISSUED.ANY,cmask=1,inv on Skylake: event 0x0e, umask 0x01) */
	CHECK(sysfs_event_resolve(root, "cpu/event=0x0e,umask=0x01,cmask=1,inv/", &a, err,
				  sizeof(err)) == 0);
	CHECK_EQ_U(a.config, 0x0eULL | 0x01ULL << 8 | 1ULL << 23 | 1ULL << 24);
	CHECK(sysfs_event_resolve(root, "amd/event=0x1c7,umask=0x3/", &a, err, sizeof(err)) ==
	      -EINVAL);  /* no umask format in that fake PMU */
	CHECK(strstr(err, "no format for term 'umask'") != NULL);

	CHECK(sysfs_event_resolve(root, "cpu/toobig/", &a, err, sizeof(err)) == -EINVAL);
	CHECK(strstr(err, "cannot place event=0x1ff") != NULL);
	CHECK(sysfs_event_resolve(root, "cpu/noformat/", &a, err, sizeof(err)) == -EINVAL);
	CHECK(strstr(err, "no format for term 'colour'") != NULL);
	CHECK(sysfs_event_resolve(root, "cpu/nosuch/", &a, err, sizeof(err)) == -ENOENT);
	CHECK(strstr(err, "PMU 'cpu' has no event 'nosuch'") != NULL);
	CHECK(sysfs_event_resolve(root, "gpu/slots/", &a, err, sizeof(err)) == -ENOENT);
	CHECK(strstr(err, "no PMU 'gpu'") != NULL);
	CHECK(sysfs_event_resolve(root, "../cpu/slots/", &a, err, sizeof(err)) == -EINVAL);

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", root);
	CHECK(system(cmd) == 0);
	return 0;
}
