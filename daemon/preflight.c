/*
 * preflight.c - see preflight.h.
 */
#include "daemon/preflight.h"
#include "daemon/collect/collector.h"
#include "daemon/collect/cpulist.h"
#include "daemon/plan/families.h"
#include "daemon/plan/plan_hybrid.h"
#include "daemon/collect/fdlimit.h"
#include "daemon/privilege.h"
#include "daemon/model_choice.h"
#include "daemon/store/store_guard.h"
#include "lib/db.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* The families against the model that will run: named, or the one
 * model = auto picks on this host (so -n is checked where it will run). */
static int check_families(const struct config *c, const struct model *m, const char *why,
			  bool off[MODEL_MAX_GROUPS], char *err, size_t errlen)
{
	char reason[1024];

	if (families_parse(m, c->families, off, reason, sizeof(reason)) == 0)
		return 0;
	if (strcmp(c->model, "auto") == 0)
		snprintf(err, errlen, "families: %s; model = auto picks '%s' here (%s)", reason,
			 m->name, why);
	else
		snprintf(err, errlen, "families: %s", reason);
	return -EINVAL;
}

/* The database's path, as the store will find it: the default one's
 * directory is made at start, so its absence is fine. */
static int check_database(const struct config *c, char *err, size_t errlen)
{
	struct stat st;
	bool existed;

	if (strcmp(c->database, STACKD_DEFAULT_DB) == 0 && stat(STACKD_STATE_DIR, &st) < 0)
		return 0;
	return store_guard_path(c->database, &existed, err, errlen);
}

/* The groups this host's PMU takes (plan.h): a start where nothing fits
 * fails here with the reason. */
static int check_plan(const struct config *c, const bool off[MODEL_MAX_GROUPS],
		      const struct model *m, struct plan *plan, char *err, size_t errlen)
{
	return plan_make_for_host(m, off, c->families, c->reserved_counters, 0, plan, err,
				  errlen);
}

static int check_fds(const struct plan *plan, char *err, size_t errlen)
{
	struct fdlimit_need need = { 0, plan->n_groups, collector_fds_per_cpu(plan) };
	int *cpus = NULL;
	int r;

	r = cpulist_online(&cpus, &need.n_cpus);
	if (r < 0)
		return 0;   /* the collector says it, with its own words */
	free(cpus);
	return fdlimit_ensure(&need, err, errlen);
}

int preflight_check(const struct config *c, char *err, size_t errlen)
{
	bool off[MODEL_MAX_GROUPS];
	const struct model *m = NULL;
	char why[512], reason[1024];
	struct plan plan;
	int r;

	r = model_choose(c->model, &m, why, sizeof(why));
	if (r < 0) {
		snprintf(err, errlen, "model: %s (see stackd --list-models)", why);
		return r;
	}
	r = privilege_check(c->user, reason, sizeof(reason));
	if (r < 0) {
		snprintf(err, errlen, "user: %s", reason);
		return r;
	}
	r = check_families(c, m, why, off, err, errlen);
	if (r < 0)
		return r;
	r = check_plan(c, off, m, &plan, err, errlen);
	if (r < 0)
		return r;
	r = check_database(c, err, errlen);
	if (r < 0)
		return r;
	return check_fds(&plan, err, errlen);
}

int preflight_web_dir(const struct config *c, char *err, size_t errlen)
{
	int fd;

	if (strcmp(c->web_dir, "none") == 0 || strcmp(c->web_dir, "builtin") == 0 ||
	    strcmp(c->listen, "none") == 0)
		return 0;
	fd = open(c->web_dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0) {
		int e = errno;

		snprintf(err, errlen, "web_dir: cannot open the directory '%s': %s (set web_dir = "
			 "none to serve no dashboard)", c->web_dir, strerror(e));
		return -e;
	}
	close(fd);
	/* Its files are opened by name: the directory must be searchable too. */
	if (access(c->web_dir, R_OK | X_OK) < 0) {
		int e = errno;

		snprintf(err, errlen, "web_dir: '%s' is not readable: %s", c->web_dir, strerror(e));
		return -e;
	}
	return 0;
}
