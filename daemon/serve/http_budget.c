/*
 * http_budget.c - see http_budget.h.
 */
#include "daemon/serve/http_budget.h"

#include <dirent.h>
#include <stddef.h>
#include <sys/resource.h>

void http_budget_compute(unsigned max_connections, unsigned long long fd_limit,
			 unsigned long long fds_open, struct http_budget *ret)
{
	unsigned long long used = fds_open + HTTP_FD_RESERVE + HTTP_FDS_FIXED + HTTP_FD_REFUSALS + 1;
	unsigned long long left = fd_limit > used ? fd_limit - used : 0;
	unsigned long long work, conns;

	/* A database connection per eight descriptors free, up to
	 * HTTP_WORK_MAX (answers wait for one: few are enough); the shared
	 * -shm is the one added to used. */
	work = left / 8;
	if (work > HTTP_WORK_MAX)
		work = HTTP_WORK_MAX;
	if (work < 1)
		work = 1;
	conns = left > work * HTTP_FDS_PER_WORK ?
		(left - work * HTTP_FDS_PER_WORK) / HTTP_FDS_PER_CONNECTION : 0;
	ret->fd_bound = conns < max_connections;
	if (conns > max_connections)
		conns = max_connections;
	if (conns < HTTP_MIN_CONNECTIONS)
		conns = HTTP_MIN_CONNECTIONS;
	ret->connections = (unsigned)conns;
	ret->work = (unsigned)work;
	ret->fd_limit = fd_limit;
	ret->fds_open = fds_open;
}

/* Descriptors open now (those /proc/self/fd lists, less its own). */
static unsigned long long fds_open_now(void)
{
	DIR *d = opendir("/proc/self/fd");
	const struct dirent *e;
	unsigned long long n = 0;

	if (d == NULL)
		return 64;   /* cannot tell: a guess on the safe side */
	while ((e = readdir(d)) != NULL)
		n += e->d_name[0] != '.';
	closedir(d);
	return n > 0 ? n - 1 : 0;
}

void http_budget_measure(unsigned max_connections, struct http_budget *ret)
{
	struct rlimit rl;
	unsigned long long limit = 1ULL << 20;

	if (getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur != RLIM_INFINITY)
		limit = (unsigned long long)rl.rlim_cur;
	http_budget_compute(max_connections, limit, fds_open_now(), ret);
}
