/*
 * pid_lock.h - a lock file that names its holder: flock(2) on an open
 * file, and the holder's pid written into it, so a second claimant can say
 * who holds it.  flock, not fcntl: locks of SQLite's own (POSIX, per
 * process) on other files are separate, and closing some other descriptor
 * of ours cannot drop it; it vanishes with its process (no stale lock
 * after SIGKILL; the stale pid left in the file is never read as a holder
 * while nobody holds the lock).
 */
#ifndef STACKD_PID_LOCK_H
#define STACKD_PID_LOCK_H

#include <sys/types.h>

/* Take fd's lock without waiting and write our pid into the file.  0;
 * -EBUSY when another process holds it, *holder its pid (0 when the file
 * does not say); another -errno when the lock cannot be taken or the pid
 * not written, *failed naming which ("lock", "write"). */
int pid_lock_take(int fd, pid_t *holder, const char **failed);

#endif
