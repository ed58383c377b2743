/*
 * instance.c - see instance.h.
 *
 * An abstract socket, not a lock file: it needs no writable directory (a
 * stackd run by hand as a user with CAP_PERFMON has no /run/stackd), it
 * vanishes with its process (no stale lock after a SIGKILL), and the
 * holder's pid comes from SO_PEERCRED.  Nothing is ever accepted on it: a
 * connection only asks who holds the name.
 */
#include "daemon/instance.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#define INSTANCE_NAME "stackd"

static socklen_t instance_addr(struct sockaddr_un *sun)
{
	memset(sun, 0, sizeof(*sun));
	sun->sun_family = AF_UNIX;
	/* sun_path[0] = '\0': the abstract namespace */
	memcpy(sun->sun_path + 1, INSTANCE_NAME, sizeof(INSTANCE_NAME) - 1);
	return (socklen_t)(offsetof(struct sockaddr_un, sun_path) + 1 + sizeof(INSTANCE_NAME) - 1);
}

/* Who listens on the name: pid (0 when it cannot be told) and uid. */
static pid_t holder_of(uid_t *uid)
{
	struct sockaddr_un sun;
	socklen_t len = instance_addr(&sun), clen;
	struct ucred cred = { 0 };
	int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);

	if (fd < 0)
		return 0;
	clen = sizeof(cred);
	if (connect(fd, (struct sockaddr *)&sun, len) < 0 ||
	    getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &cred, &clen) < 0)
		cred.pid = 0;
	close(fd);
	*uid = cred.pid > 0 ? cred.uid : (uid_t)-1;
	return cred.pid;
}

int instance_claim(bool allow_second, uid_t service_uid, int *ret_fd, pid_t *holder, char *err,
		   size_t errlen)
{
	struct sockaddr_un sun;
	socklen_t len = instance_addr(&sun);
	uid_t uid = (uid_t)-1;
	int fd, r;

	*ret_fd = -1;
	*holder = 0;
	fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return -errno;
	if (bind(fd, (struct sockaddr *)&sun, len) == 0 && listen(fd, 4) == 0) {
		*ret_fd = fd;
		return 0;
	}
	r = -errno;
	close(fd);
	if (r != -EADDRINUSE) {
		snprintf(err, errlen, "cannot claim the host's stackd name: %s", strerror(-r));
		return r;
	}
	*holder = holder_of(&uid);
	/* Abstract names have no permissions: any user can bind one.  Only a
	 * holder running as root, as us or as the service user is a stackd
	 * that counts; anyone else is squatting and is not obeyed. */
	if (*holder > 0 && uid != 0 && uid != geteuid() && uid != service_uid) {
		snprintf(err, errlen, "the host's stackd name is held by pid %d of uid %u, not a "
			 "stackd of ours; going on without it", (int)*holder, (unsigned)uid);
		return 0;
	}
	if (*holder > 0)
		snprintf(err, errlen, "another stackd (pid %d) is collecting on this host", (int)*holder);
	else
		snprintf(err, errlen, "another stackd is collecting on this host");
	if (allow_second) {
		strncat(err, "; running beside it (--allow-second)", errlen - strlen(err) - 1);
		return 0;
	}
	strncat(err, ": two samplers of every context switch cost twice and measure nothing more; "
		"stop it, or start this one with --allow-second", errlen - strlen(err) - 1);
	return -EBUSY;
}
