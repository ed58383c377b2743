/*
 * test_instance.c - the one-per-host guard: the lock file names its holder
 * and refuses a second claim (across network namespaces too: a file lock
 * knows none); the lock file is 0600, so no other user can open it to
 * squat; on the abstract name, a holder that binds without listening (its
 * pid cannot be told) is a squatter and is ignored, where the old guard
 * refused to start.
 */
#include "test.h"
#include "daemon/instance.h"

#include <errno.h>
#include <fcntl.h>
#include <stddef.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

static void test_lock_file(void)
{
	char dir[] = "/tmp/stackd-instance-XXXXXX", path[64], err[512];
	struct stat st;
	pid_t holder, child;
	int fd, fd2, status;

	CHECK(mkdtemp(dir) != NULL);
	CHECK(chmod(dir, 0755) == 0);
	CHECK(instance_claim_lock(dir, false, (uid_t)-1, &fd, &holder, err, sizeof(err)) == 0);
	CHECK(fd >= 0 && holder == 0);
	snprintf(path, sizeof(path), "%s/instance.lock", dir);
	CHECK(stat(path, &st) == 0 && (st.st_mode & 0777) == 0600);
	/* A second claim, from another process (flock locks are per open
	 * file: a child's own open is a second claimant). */
	child = fork();
	CHECK(child >= 0);
	if (child == 0) {
		int r = instance_claim_lock(dir, false, (uid_t)-1, &fd2, &holder, err, sizeof(err));

		_exit(r == -EBUSY && holder == getppid() && strstr(err, "another stackd (pid") ? 0 : 1);
	}
	CHECK(waitpid(child, &status, 0) == child && WIFEXITED(status) && WEXITSTATUS(status) == 0);
	/* --allow-second: runs beside it, holding nothing */
	child = fork();
	if (child == 0) {
		int r = instance_claim_lock(dir, true, (uid_t)-1, &fd2, &holder, err, sizeof(err));

		_exit(r == 0 && fd2 == -1 && holder == getppid() ? 0 : 1);
	}
	CHECK(waitpid(child, &status, 0) == child && WIFEXITED(status) && WEXITSTATUS(status) == 0);
	close(fd);
	/* released with its holder: the next claim gets it */
	CHECK(instance_claim_lock(dir, false, (uid_t)-1, &fd, &holder, err, sizeof(err)) == 0);
	close(fd);
	/* a lock file others may open is no guard: root replaces it with
	 * one of its own (0600), whoever held the old one */
	CHECK(chmod(path, 0644) == 0);
	CHECK(instance_claim_lock(dir, false, (uid_t)-1, &fd, &holder, err, sizeof(err)) ==
	      (geteuid() == 0 ? 0 : -ENOENT));
	if (fd >= 0) {
		CHECK(stat(path, &st) == 0 && (st.st_mode & 0777) == 0600);
		close(fd);
	}
	/* nor a directory others may write */
	CHECK(unlink(path) == 0);
	CHECK(chmod(dir, 0777) == 0);
	CHECK(instance_claim_lock(dir, false, (uid_t)-1, &fd, &holder, err, sizeof(err)) == -ENOENT);
	CHECK(rmdir(dir) == 0);
}

static socklen_t abstract_name(struct sockaddr_un *sun)
{
	memset(sun, 0, sizeof(*sun));
	sun->sun_family = AF_UNIX;
	memcpy(sun->sun_path + 1, "stackd", 6);
	return (socklen_t)(offsetof(struct sockaddr_un, sun_path) + 1 + 6);
}

static void test_abstract_name(void)
{
	struct sockaddr_un sun;
	socklen_t len = abstract_name(&sun);
	char err[512];
	pid_t holder;
	int squat, fd, mine;

	/* Bound, never listening: whoever did it cannot be asked who it is. */
	squat = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	CHECK(squat >= 0);
	if (bind(squat, (struct sockaddr *)&sun, len) < 0) {
		fprintf(stderr, "SKIP the abstract name: @stackd is held here (a stackd runs)\n");
		close(squat);
		return;
	}
	CHECK(instance_claim_name(false, (uid_t)-1, &fd, &holder, err, sizeof(err)) == 0);
	CHECK(fd == -1 && holder == -1);
	CHECK(strstr(err, "does not answer") != NULL);
	close(squat);
	/* A stackd of ours (root, or us: the test's uid) listening: refused. */
	CHECK(instance_claim_name(false, (uid_t)-1, &mine, &holder, err, sizeof(err)) == 0);
	CHECK(mine >= 0);
	CHECK(instance_claim_name(false, (uid_t)-1, &fd, &holder, err, sizeof(err)) == -EBUSY);
	CHECK(holder == getpid());
	close(mine);
}

int main(void)
{
	test_lock_file();
	test_abstract_name();
	return 0;
}
