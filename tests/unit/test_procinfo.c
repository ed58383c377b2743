/* /proc parsing: stat with awkward names, cgroup paths to systemd units,
 * and a whole fake /proc entry. */
#include "daemon/attribute/procinfo.h"
#include "test.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

static const struct {
	const char *cgroup;
	const char *unit;   /* NULL: no unit */
} units[] = {
	{ "0::/system.slice/nginx.service\n", "nginx.service" },
	{ "0::/user.slice/user-1000.slice/session-3.scope\n", "session-3.scope" },
	{ "0::/user.slice/user-1000.slice/user@1000.service/app.slice/app-x.scope\n",
	  "user@1000.service" },
	{ "0::/system.slice/docker-0123abcd.scope\n", "docker-0123abcd.scope" },
	{ "0::/init.scope\n", "init.scope" },
	{ "0::/\n", NULL },
	{ "0::/system.slice\n", NULL },
	/* cgroup v1 + v2 hybrid, as on this development VM: name=systemd holds
	 * the unit, the unified line says nothing */
	{ "9:name=systemd:/system.slice/cron.service\n4:memory:/foo\n0::/\n", "cron.service" },
	{ "9:name=systemd:/\n4:memory:/process_api/65c4\n0::/\n", NULL },
	{ "4:memory:/system.slice/x.service\n", NULL },   /* other controllers do not count */
	{ "", NULL },
};

static void put(const char *dir, const char *name, const char *text, size_t len)
{
	char path[512];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "w");
	CHECK(f != NULL);
	fwrite(text, 1, len, f);
	fclose(f);
}

static void put_text(const char *dir, const char *name, const char *text)
{
	put(dir, name, text, strlen(text));
}

int main(void)
{
	char root[] = "/tmp/stackd-unit-proc.XXXXXX";
	char dir[512], comm[16], unit[128], cmd[600];
	struct procinfo info;
	uint64_t ticks = 0;
	pid_t *pids;
	size_t n, i;

	CHECK(procinfo_parse_stat("42 (a) b) c) S 1 42 42 0 -1 4194560 100 0 0 0 1 2 0 0 20 0 1 0 "
				  "123456 1000 10 18446744073709551615\n", &ticks, comm) == 0);
	CHECK_STR(comm, "a) b) c");
	CHECK_EQ_U(ticks, 123456);
	CHECK(procinfo_parse_stat("7 (a-very-long-name-that-is-cut) S 1", &ticks, comm) == -EINVAL);
	CHECK(procinfo_parse_stat("garbage", &ticks, comm) == -EINVAL);

	for (i = 0; i < sizeof(units) / sizeof(units[0]); i++) {
		int r = procinfo_unit_from_cgroup(units[i].cgroup, unit, sizeof(unit));

		if (units[i].unit == NULL) {
			if (r != -ENOENT)
				fprintf(stderr, "case %zu: got '%s'\n", i, unit);
			CHECK(r == -ENOENT);
		} else {
			CHECK(r == 0);
			CHECK_STR(unit, units[i].unit);
		}
	}

	CHECK(mkdtemp(root) != NULL);
	snprintf(dir, sizeof(dir), "%s/314", root);
	snprintf(cmd, sizeof(cmd), "mkdir -p %s %s/self %s/1", dir, root, root);
	CHECK(system(cmd) == 0);
	put_text(dir, "stat", "314 (spin ner) R 1 314 314 0 -1 0 0 0 0 0 0 0 0 0 20 0 1 0 777 1 1\n");
	put(dir, "cmdline", "/usr/bin/spin\0--fast\0x y\0", 25);
	put_text(dir, "status", "Name:\tspin ner\nUmask:\t0022\nUid:\t1000\t1000\t1000\t1000\n");
	put_text(dir, "cgroup", "0::/system.slice/spin.service\n");
	CHECK(procinfo_read(root, 314, &info) == 0);
	CHECK_STR(info.comm, "spin ner");
	CHECK_EQ_U(info.start_ticks, 777);
	CHECK_STR(info.cmdline, "/usr/bin/spin --fast x y");
	CHECK(info.uid == 1000);
	CHECK_STR(info.unit, "spin.service");
	procinfo_done(&info);
	CHECK(procinfo_read(root, 999, &info) == -ENOENT);

	/* kernel thread: empty cmdline */
	put(dir, "cmdline", "", 0);
	CHECK(procinfo_read(root, 314, &info) == 0);
	CHECK(info.cmdline == NULL);
	procinfo_done(&info);

	CHECK(procinfo_list_pids(root, &pids, &n) == 0);
	CHECK_EQ_U(n, 2);   /* 1 and 314; "self" is not a pid */
	free(pids);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", root);
	CHECK(system(cmd) == 0);
	return 0;
}
