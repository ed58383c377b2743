/* The checks -n shares with the start: the open-file limit (raised when
 * the hard limit allows, else one line naming the need and the limit),
 * the web directory, the families of the model that will run, and the
 * database path. */
#include "daemon/config.h"
#include "daemon/collect/fdlimit.h"
#include "daemon/preflight.h"
#include "test.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

static void check_fdlimit(void)
{
	struct fdlimit_need need = { 8, 3, 10 };   /* 8 CPUs x 10 fds + reserve */
	struct rlimit rl;
	char err[512];

	CHECK_EQ_U(fdlimit_total(&need), 80 + FDLIMIT_RESERVE);
	/* A low soft limit under a high enough hard one is raised. */
	CHECK(getrlimit(RLIMIT_NOFILE, &rl) == 0);
	CHECK(rl.rlim_max == RLIM_INFINITY || rl.rlim_max >= 200);
	rl.rlim_max = 200;
	rl.rlim_cur = 40;
	CHECK(setrlimit(RLIMIT_NOFILE, &rl) == 0);
	CHECK(fdlimit_ensure(&need, err, sizeof(err)) == 0);
	CHECK(getrlimit(RLIMIT_NOFILE, &rl) == 0);
	CHECK_EQ_U(rl.rlim_cur, 200);
	/* A hard limit below the need: refused, naming both. */
	need.n_cpus = 64;
	CHECK(fdlimit_ensure(&need, err, sizeof(err)) == -EMFILE);
	CHECK(strstr(err, "too many open files: stackd needs about 672 descriptors for 64 CPUs "
			  "x 3 groups (+ database, sockets); the limit is 200 (ulimit -n / "
			  "LimitNOFILE)") != NULL);
}

static void check_web_dir(const char *dir)
{
	char file[256], err[512];
	struct config c;

	config_defaults(&c);
	snprintf(c.listen, sizeof(c.listen), "unix:/x");
	snprintf(c.web_dir, sizeof(c.web_dir), "%s", dir);
	CHECK(preflight_web_dir(&c, err, sizeof(err)) == 0);
	snprintf(c.web_dir, sizeof(c.web_dir), "none");
	CHECK(preflight_web_dir(&c, err, sizeof(err)) == 0);
	snprintf(c.web_dir, sizeof(c.web_dir), "%s/missing", dir);
	CHECK(preflight_web_dir(&c, err, sizeof(err)) == -ENOENT);
	CHECK(strstr(err, "web_dir: cannot open the directory '") != NULL);
	CHECK(strstr(err, "/missing': No such file or directory") != NULL);
	snprintf(file, sizeof(file), "%s/file", dir);
	CHECK(fclose(fopen(file, "w")) == 0);
	snprintf(c.web_dir, sizeof(c.web_dir), "%s", file);
	CHECK(preflight_web_dir(&c, err, sizeof(err)) == -ENOTDIR);
	/* Not served at all: no directory needed. */
	snprintf(c.listen, sizeof(c.listen), "none");
	CHECK(preflight_web_dir(&c, err, sizeof(err)) == 0);
	unlink(file);
}

static void check_start(const char *dir)
{
	struct config c;
	char err[1024];

	config_defaults(&c);
	snprintf(c.user, sizeof(c.user), "root");
	snprintf(c.model, sizeof(c.model), "software");
	snprintf(c.database, sizeof(c.database), "%s/s.db", dir);
	CHECK(preflight_check(&c, err, sizeof(err)) == 0);
	snprintf(c.families, sizeof(c.families), "faults,td_l1");
	CHECK(preflight_check(&c, err, sizeof(err)) == -EINVAL);
	CHECK(strstr(err, "families: model 'software' has no family 'td_l1' (it has: ") != NULL);
	snprintf(c.families, sizeof(c.families), "all");
	snprintf(c.database, sizeof(c.database), "%s/nodir/s.db", dir);
	CHECK(preflight_check(&c, err, sizeof(err)) == -ENOENT);
	CHECK(strstr(err, "/nodir' does not exist") != NULL);
	snprintf(c.database, sizeof(c.database), "%s/s.db", dir);
	snprintf(c.model, sizeof(c.model), "nehalem");
	CHECK(preflight_check(&c, err, sizeof(err)) == -ENOENT);
	CHECK(strstr(err, "model: unknown model 'nehalem'") != NULL);
}

int main(void)
{
	char dir[] = "/tmp/stackd-unit-preflight.XXXXXX";

	CHECK(mkdtemp(dir) != NULL);
	check_web_dir(dir);
	check_start(dir);
	check_fdlimit();   /* last: it lowers this process's limits for good */
	rmdir(dir);
	return 0;
}
