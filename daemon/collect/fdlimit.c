/*
 * fdlimit.c - see fdlimit.h.
 */
#include "daemon/collect/fdlimit.h"

#include <errno.h>
#include <stdio.h>
#include <sys/resource.h>

size_t fdlimit_total(const struct fdlimit_need *need)
{
	return need->n_cpus * need->per_cpu + FDLIMIT_RESERVE;
}

static unsigned long long limit_now(void)
{
	struct rlimit rl;

	if (getrlimit(RLIMIT_NOFILE, &rl) < 0)
		return 0;
	return (unsigned long long)rl.rlim_cur;
}

void fdlimit_explain(const struct fdlimit_need *need, char *err, size_t errlen)
{
	snprintf(err, errlen, "too many open files: stackd needs about %zu descriptors for %zu "
		 "CPUs x %u groups (+ database, sockets); the limit is %llu (ulimit -n / "
		 "LimitNOFILE)", fdlimit_total(need), need->n_cpus, need->n_groups, limit_now());
}

int fdlimit_ensure(const struct fdlimit_need *need, char *err, size_t errlen)
{
	rlim_t want = (rlim_t)fdlimit_total(need);
	struct rlimit rl;

	if (getrlimit(RLIMIT_NOFILE, &rl) < 0)
		return 0;   /* cannot tell: let the opens say */
	if (rl.rlim_cur != RLIM_INFINITY && rl.rlim_cur < want &&
	    (rl.rlim_max == RLIM_INFINITY || rl.rlim_max > rl.rlim_cur)) {
		rl.rlim_cur = rl.rlim_max;
		(void)setrlimit(RLIMIT_NOFILE, &rl);   /* checked just below */
		if (getrlimit(RLIMIT_NOFILE, &rl) < 0)
			return 0;
	}
	if (rl.rlim_cur != RLIM_INFINITY && rl.rlim_cur < want) {
		fdlimit_explain(need, err, errlen);
		return -EMFILE;
	}
	return 0;
}
