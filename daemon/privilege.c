/*
 * privilege.c - see privilege.h.  Raw capset(2)/prctl(2): one capability
 * to keep does not need libcap.
 */
#include "daemon/privilege.h"

#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <linux/capability.h>
#include <pwd.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#ifndef CAP_PERFMON
#define CAP_PERFMON 38
#endif

int privilege_check(const char *user, char *err, size_t errlen)
{
	if (geteuid() != 0 || strcmp(user, "root") == 0)
		return 0;
	if (getpwnam(user) == NULL) {
		snprintf(err, errlen, "started as root, stackd runs as the user '%s', which does not "
			 "exist: create it (systemd-sysusers, or useradd --system %s), or keep root "
			 "with --user root (user = root in the config)", user, user);
		return -ENOENT;
	}
	return 1;
}

/* Only CAP_PERFMON stays in the bounding set (needs CAP_SETPCAP: do it
 * while still root). */
static int shrink_bounding_set(void)
{
	int cap;

	for (cap = 0; cap <= CAP_LAST_CAP; cap++)
		if (cap != CAP_PERFMON && prctl(PR_CAPBSET_DROP, cap, 0, 0, 0) < 0 && errno != EINVAL)
			return -errno;
	return 0;
}

static int keep_perfmon(void)
{
	struct __user_cap_header_struct head = { _LINUX_CAPABILITY_VERSION_3, 0 };
	struct __user_cap_data_struct data[2];

	memset(data, 0, sizeof(data));
	data[CAP_PERFMON / 32].permitted = 1u << (CAP_PERFMON % 32);
	data[CAP_PERFMON / 32].effective = 1u << (CAP_PERFMON % 32);
	return syscall(SYS_capset, &head, data) < 0 ? -errno : 0;
}

/* chown path to uid:gid without following a symbolic link: the state
 * directory belongs to the service account, which could plant one pointing
 * anywhere for root to hand over.  A missing file is fine.
 * Not open() + fchown(): closing a descriptor of the database or its -shm
 * would drop every POSIX lock SQLite holds on it in this process (its
 * "dead man switch" on the -shm among them), and the next connection would
 * reset the -shm under the writer's mapping (SIGBUS). */
static int give_to(const char *path, uid_t uid, gid_t gid)
{
	struct stat st;

	if (lstat(path, &st) < 0)
		return errno == ENOENT ? 0 : -errno;
	if (S_ISLNK(st.st_mode))
		return -ELOOP;
	if (!S_ISREG(st.st_mode) && !S_ISDIR(st.st_mode))
		return -EINVAL;
	if (S_ISREG(st.st_mode) && st.st_nlink != 1)
		return -EMLINK;   /* a planted hard link to someone else's file */
	/* AT_SYMLINK_NOFOLLOW: a link swapped in since the lstat changes only
	 * the link's own owner. */
	return fchownat(AT_FDCWD, path, uid, gid, AT_SYMLINK_NOFOLLOW) < 0 ? -errno : 0;
}

int privilege_drop(const char *user, const char *const *paths, char *err, size_t errlen)
{
	struct passwd *pw = getpwnam(user);
	size_t i;
	int r;

	if (pw == NULL) {
		snprintf(err, errlen, "no user '%s'", user);
		return -ENOENT;
	}
	for (i = 0; paths != NULL && paths[i] != NULL; i++) {
		r = give_to(paths[i], pw->pw_uid, pw->pw_gid);
		if (r < 0) {
			snprintf(err, errlen, "cannot give %s to %s: %s", paths[i], user,
				 r == -ELOOP ? "it is a symbolic link" : strerror(-r));
			return r;
		}
	}
	r = shrink_bounding_set();
	/* Keep permitted capabilities across the uid change, then keep only
	 * CAP_PERFMON of them. */
	if (r == 0 && prctl(PR_SET_KEEPCAPS, 1, 0, 0, 0) < 0)
		r = -errno;
	if (r == 0 && (setgroups(0, NULL) < 0 || setresgid(pw->pw_gid, pw->pw_gid, pw->pw_gid) < 0 ||
		       setresuid(pw->pw_uid, pw->pw_uid, pw->pw_uid) < 0))
		r = -errno;
	if (r == 0)
		r = keep_perfmon();
	if (r == 0 && prctl(PR_SET_KEEPCAPS, 0, 0, 0, 0) < 0)
		r = -errno;
	if (r < 0)
		snprintf(err, errlen, "cannot become %s with CAP_PERFMON only: %s", user, strerror(-r));
	return r;
}
