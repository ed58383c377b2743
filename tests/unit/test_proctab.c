/* Process generations: (pid, start) identity, lookup by time, pid reuse,
 * lost records, comm changes, enrichment from a fake /proc, and GC. */
#include "daemon/attribute/proctab.h"
#include "test.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#define TICK 10000000ULL   /* 100 Hz */
#define MS 1000000ULL

int main(void)
{
	char root[] = "/tmp/stackd-unit-proctab.XXXXXX";
	struct proctab pt;
	struct proc_gen *g, *g2;
	char path[512], cmd[600];
	FILE *f;

	CHECK(mkdtemp(root) != NULL);
	/* boot time = monotonic + 5 s */
	CHECK(proctab_init(&pt, root, TICK, 5000 * (int64_t)MS) == 0);

	/* An existing process from the start-up scan: started at tick 300
	 * (3 s since boot = -2 s monotonic, clamped to 0). */
	CHECK(proctab_add_existing(&pt, 7, 300, "old") == 0);
	CHECK(proctab_resolve(&pt, 7, 100 * MS, 200 * MS, &g) == 0);
	CHECK_STR(g->comm, "old");
	CHECK_EQ_U(g->start_ns, 3000 * MS);

	/* fork -> comm -> exit -> fork again with the same pid */
	CHECK(proctab_fork(&pt, 50, 7, 1000 * MS) == 0);
	proctab_comm(&pt, 50, 1001 * MS, "first", true);
	proctab_exit(&pt, 50, 2000 * MS);
	CHECK(proctab_fork(&pt, 50, 7, 2500 * MS) == 0);
	proctab_comm(&pt, 50, 2501 * MS, "second", false);

	CHECK(proctab_resolve(&pt, 50, 1500 * MS, 1900 * MS, &g) == 0);
	CHECK_STR(g->comm, "first");
	CHECK(g->exited && g->exit_mono == 2000 * MS);
	/* identity: boot-time ns at tick resolution (6.0 s since boot) */
	CHECK_EQ_U(g->start_ns, 6000 * MS);
	CHECK(proctab_resolve(&pt, 50, 2600 * MS, 2700 * MS, &g2) == 0);
	CHECK_STR(g2->comm, "second");
	CHECK(g2 != g);
	CHECK_EQ_U(g2->start_ns, 7500 * MS);
	/* the trailing sample of the first, charged at its exit time */
	CHECK(proctab_resolve(&pt, 50, 2000 * MS, 2000 * MS, &g) == 0);
	CHECK_STR(g->comm, "first");
	/* a span across the reuse cannot be split */
	CHECK(proctab_resolve(&pt, 50, 1800 * MS, 2600 * MS, &g) == -EAGAIN);

	/* a fork inherits the parent's name until it execs */
	CHECK(proctab_fork(&pt, 60, 50, 2600 * MS) == 0);
	CHECK(proctab_resolve(&pt, 60, 2700 * MS, 2700 * MS, &g) == 0);
	CHECK_STR(g->comm, "second");

	/* lost EXIT: a new fork of the same pid closes the old generation */
	CHECK(proctab_fork(&pt, 60, 50, 4000 * MS) == 0);
	CHECK(proctab_resolve(&pt, 60, 2700 * MS, 2800 * MS, &g) == 0);
	CHECK(g->exited && g->exit_mono == 4000 * MS);

	/* the start-up scan and a FORK record of the same process are one */
	CHECK(proctab_add_existing(&pt, 70, 850, "raced") == 0);   /* 8.5 s boot = 3.5 s mono */
	CHECK(proctab_fork(&pt, 70, 1, 3503 * MS) == 0);
	CHECK(proctab_resolve(&pt, 70, 3600 * MS, 3600 * MS, &g) == 0);
	CHECK(g->older == NULL);
	CHECK_STR(g->comm, "raced");

	/* idle */
	CHECK(proctab_resolve(&pt, 0, 1, 2, &g) == 0);
	CHECK(g == &pt.idle);

	/* a pid nobody announced: /proc has it, started before the sample */
	snprintf(cmd, sizeof(cmd), "mkdir -p %s/80", root);
	CHECK(system(cmd) == 0);
	snprintf(path, sizeof(path), "%s/80/stat", root);
	f = fopen(path, "w");
	CHECK(f != NULL);
	fprintf(f, "80 (found) S 1 80 80 0 -1 0 0 0 0 0 0 0 0 0 20 0 1 0 900 1 1\n");
	fclose(f);
	snprintf(path, sizeof(path), "%s/80/cmdline", root);
	f = fopen(path, "w");
	CHECK(f != NULL);
	fwrite("found\0-v\0", 1, 9, f);
	fclose(f);
	CHECK(proctab_resolve(&pt, 80, 4500 * MS, 4600 * MS, &g) == 0);   /* 9.5 s boot */
	CHECK_STR(g->comm, "found");
	CHECK_EQ_U(g->start_ns, 9000 * MS);
	snprintf(path, sizeof(path), "%s/80/status", root);
	f = fopen(path, "w");
	CHECK(f != NULL);
	fprintf(f, "Name:\tfound\nUmask:\t0022\nUid:\t65534\t65534\t65534\t65534\n");
	fclose(f);
	snprintf(path, sizeof(path), "%s/80/cgroup", root);
	f = fopen(path, "w");
	CHECK(f != NULL);
	fprintf(f, "0::/system.slice/found.service\n");
	fclose(f);
	proctab_enrich(&pt, g);
	CHECK_STR(g->cmdline, "found -v");
	CHECK(g->uid == 65534);

	/* A child gone before any flush read /proc for it keeps its parent's
	 * user and unit (it would otherwise show no user, and its own user
	 * could not see it); not the parent's command line. */
	CHECK(proctab_fork(&pt, 90, 80, 4700 * MS) == 0);
	proctab_comm(&pt, 90, 4701 * MS, "true", true);
	proctab_exit(&pt, 90, 4702 * MS);
	CHECK(proctab_resolve(&pt, 90, 4701 * MS, 4702 * MS, &g2) == 0);
	proctab_enrich(&pt, g2);
	CHECK_STR(g2->comm, "true");
	CHECK(g2->uid == 65534);
	CHECK_STR(g2->unit, "found.service");
	CHECK(g2->cmdline == NULL);
	/* ...but /proc showing a process that started after the sample is
	 * someone else: the start is unknown, the name is not borrowed */
	CHECK(proctab_resolve(&pt, 81, 100 * MS, 100 * MS, &g) == 0);
	CHECK(proctab_fork(&pt, 82, 1, 100 * MS) == 0);
	snprintf(cmd, sizeof(cmd), "mkdir -p %s/83 && cp %s/80/stat %s/83/stat", root, root, root);
	CHECK(system(cmd) == 0);
	CHECK(proctab_resolve(&pt, 83, 10 * MS, 10 * MS, &g) == 0);
	CHECK_STR(g->comm, "?");

	/* enrichment keeps identity when /proc now holds another process */
	CHECK(proctab_resolve(&pt, 50, 2600 * MS, 2600 * MS, &g) == 0);
	snprintf(cmd, sizeof(cmd), "mkdir -p %s/50 && cp %s/80/stat %s/50/stat", root, root, root);
	CHECK(system(cmd) == 0);
	proctab_enrich(&pt, g);
	CHECK_STR(g->comm, "second");
	CHECK(g->cmdline == NULL);

	/* GC drops exited generations not charged lately, keeps the rest */
	CHECK(proctab_resolve(&pt, 50, 1500 * MS, 1500 * MS, &g) == 0);
	g->last_charged = 1;
	proctab_gc(&pt, 10000 * MS, 5);
	CHECK(proctab_resolve(&pt, 50, 2600 * MS, 2600 * MS, &g) == 0);
	CHECK_STR(g->comm, "second");
	CHECK(g->older == NULL);   /* "first" is gone */

	proctab_done(&pt);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", root);
	CHECK(system(cmd) == 0);
	return 0;
}
