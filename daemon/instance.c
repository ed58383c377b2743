/*
 * instance.c - see instance.h.
 *
 * First a lock file, /run/stackd/instance.lock, mode 0600, in a directory
 * only root or the service user can write: no other user can create it,
 * open it or take its lock, so nobody can squat the guard, and a file lock
 * holds across network namespaces (a container on the host's /run sees
 * the host's stackd).  The lock names its holder (pid_lock.h), so a
 * second start names it, and it vanishes with its process.
 *
 * Where the directory cannot be used (stackd run by hand as a user with
 * CAP_PERFMON has no /run/stackd), an abstract Unix socket "@stackd"
 * stands in: it needs no directory, but anyone may bind it and it is per
 * network namespace.  A holder is obeyed only when it is a listening
 * stackd of root, of us or of the service user (SO_PEERCRED names it); a
 * name bound by anyone else, or bound without listen() so that its holder
 * cannot be told, is a squatter: logged and ignored.
 */
#include "daemon/instance.h"
#include "daemon/base/pid_lock.h"
#include "lib/paths.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#define INSTANCE_NAME "stackd"

/* The owner of dir when root made it for someone (a root-owned parent
 * only root can write, dir itself writable by its owner alone): the
 * service user systemd's RuntimeDirectory= hands /run/stackd to, whatever
 * name this start was given.  (uid_t)-1 otherwise. */
static uid_t dir_owner(const char *dir)
{
	char parent[512];
	struct stat st, pst;
	char *slash;

	snprintf(parent, sizeof(parent), "%s", dir);
	slash = strrchr(parent, '/');
	if (slash == NULL)
		return (uid_t)-1;
	*(slash == parent ? slash + 1 : slash) = '\0';
	if (lstat(dir, &st) < 0 || !S_ISDIR(st.st_mode) || (st.st_mode & (S_IWGRP | S_IWOTH)) ||
	    lstat(parent, &pst) < 0 || pst.st_uid != 0 || (pst.st_mode & (S_IWGRP | S_IWOTH)))
		return (uid_t)-1;
	return st.st_uid;
}

/* The uids whose files and sockets are a stackd of ours: root, us, the
 * configured service user, and the owner root gave the runtime directory. */
static bool trusted_uid(uid_t uid, uid_t service_uid)
{
	return uid == 0 || uid == geteuid() || uid == service_uid ||
	       (uid != (uid_t)-1 && uid == dir_owner(STACKD_RUNTIME_DIR));
}

/* The lock file, opened: its fd, -ENOENT when the directory cannot be
 * used here (go to the abstract name), another -errno on a real error. */
static int open_lock(const char *dir, const char *path, uid_t service_uid)
{
	struct stat st;
	int fd;

	if (mkdir(dir, 0755) < 0 && errno != EEXIST)
		return -ENOENT;
	if (lstat(dir, &st) < 0 || !S_ISDIR(st.st_mode) ||
	    (!trusted_uid(st.st_uid, service_uid) && st.st_uid != dir_owner(dir)) ||
	    (st.st_mode & (S_IWGRP | S_IWOTH)) != 0)
		return -ENOENT;   /* a directory others may write is no guard */
	fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0600);
	if (fd < 0)
		return errno == EACCES || errno == EROFS || errno == EPERM ? -ENOENT : -errno;
	/* one link (root must not truncate a file linked in by another
	 * account), the owner one of ours, and nobody else able to open it */
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode) || st.st_nlink != 1 ||
	    (!trusted_uid(st.st_uid, service_uid) && st.st_uid != dir_owner(dir)) ||
	    (st.st_mode & 077) != 0) {
		close(fd);
		/* Not ours (left by a start under another user, or planted):
		 * root replaces it; whoever holds its lock is no stackd of
		 * ours and is ignored, as a squatter on the name is. */
		if (geteuid() != 0 || unlink(path) < 0)
			return -ENOENT;
		fd = open(path, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0600);
		if (fd < 0)
			return -ENOENT;
	}
	return fd;
}

/* Says in err that another stackd holds the guard; -EBUSY, or 0 beside
 * it with --allow-second. */
static int busy(pid_t holder, bool allow_second, char *err, size_t errlen)
{
	if (holder > 0)
		snprintf(err, errlen, "another stackd (pid %d) is collecting on this host", (int)holder);
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

int instance_claim_lock(const char *dir, bool allow_second, uid_t service_uid, int *ret_fd,
			pid_t *holder, char *err, size_t errlen)
{
	const char *failed;
	char path[512];
	int fd, r;

	*ret_fd = -1;
	*holder = 0;
	snprintf(path, sizeof(path), "%s/instance.lock", dir);
	fd = open_lock(dir, path, service_uid);
	if (fd < 0) {
		if (fd != -ENOENT)
			snprintf(err, errlen, "cannot open %s: %s", path, strerror(-fd));
		return fd;
	}
	r = pid_lock_take(fd, holder, &failed);
	if (r < 0) {
		close(fd);
		if (r == -EBUSY)
			return busy(*holder, allow_second, err, errlen);
		snprintf(err, errlen, "cannot %s %s: %s", failed, path, strerror(-r));
		return r;
	}
	*ret_fd = fd;
	return 0;
}

static socklen_t instance_addr(struct sockaddr_un *sun)
{
	memset(sun, 0, sizeof(*sun));
	sun->sun_family = AF_UNIX;
	/* sun_path[0] = '\0': the abstract namespace */
	memcpy(sun->sun_path + 1, INSTANCE_NAME, sizeof(INSTANCE_NAME) - 1);
	return (socklen_t)(offsetof(struct sockaddr_un, sun_path) + 1 + sizeof(INSTANCE_NAME) - 1);
}

/* Who listens on the name: pid (0 when it cannot be told) and uid.  A
 * stackd accepts and closes every connection (instance_answer), so its
 * queue never fills; one that does not answer is not a stackd. */
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

int instance_claim_name(bool allow_second, uid_t service_uid, int *ret_fd, pid_t *holder,
		      char *err, size_t errlen)
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
	if (bind(fd, (struct sockaddr *)&sun, len) == 0 && listen(fd, 16) == 0 &&
	    fcntl(fd, F_SETFL, O_NONBLOCK) == 0) {
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
	/* A stackd always listens, so a holder that cannot be asked (bound
	 * without listen()) or of another uid is squatting, not obeyed. */
	if (*holder <= 0 || !trusted_uid(uid, service_uid)) {
		if (*holder > 0)
			snprintf(err, errlen, "the stackd name @%s is held by pid %d of uid %u, not "
				 "a stackd of ours; going on without it", INSTANCE_NAME, (int)*holder,
				 (unsigned)uid);
		else
			snprintf(err, errlen, "the stackd name @%s is bound by a process that does "
				 "not answer (not a stackd); going on without it", INSTANCE_NAME);
		if (*holder <= 0)
			*holder = -1;
		return 0;
	}
	return busy(*holder, allow_second, err, errlen);
}

int instance_claim(bool allow_second, uid_t service_uid, int ret_fd[2], pid_t *holder,
		   char *err, size_t errlen)
{
	int r = instance_claim_lock(STACKD_RUNTIME_DIR, allow_second, service_uid, &ret_fd[0],
				    holder, err, errlen);

	ret_fd[1] = -1;
	if (r != -ENOENT && (r < 0 || ret_fd[0] < 0))
		return r;   /* refused, or beside a holder (--allow-second) */
	if (r == -ENOENT)
		ret_fd[0] = -1;
	/* The name too, lock or no lock: a stackd that cannot open the lock
	 * file (one run by hand as another user) looks there and must find
	 * us; one of that kind already holding it is collecting.  A squatter
	 * there is said in err (the caller logs it) and ignored. */
	r = instance_claim_name(allow_second, service_uid, &ret_fd[1], holder, err, errlen);
	if (r < 0 && ret_fd[0] >= 0) {
		close(ret_fd[0]);
		ret_fd[0] = -1;
	}
	return r;
}

void instance_answer(int name_fd)
{
	int c;

	/* Each connection only asked who holds the name (SO_PEERCRED has
	 * told it): closed at once, so probes never fill the queue. */
	while ((c = accept4(name_fd, NULL, NULL, SOCK_CLOEXEC | SOCK_NONBLOCK)) >= 0)
		close(c);
}
