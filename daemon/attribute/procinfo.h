/*
 * procinfo.h - what /proc says about a process: start time, name, command
 * line, owner, systemd unit and container.  Read once per process, lazily, at the first
 * flush that stores it.  The root is a parameter so tests use a fake /proc.
 */
#ifndef STACKD_PROCINFO_H
#define STACKD_PROCINFO_H

#include "daemon/attribute/container.h"

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#define PROCINFO_CMDLINE_MAX 4096

struct procinfo {
	uint64_t start_ticks;   /* /proc/PID/stat field 22: clock ticks since boot */
	char comm[16];
	int64_t uid;            /* real uid, -1 unknown */
	char *cmdline;          /* args joined by spaces; NULL for kernel threads */
	char *unit;             /* "nginx.service"; NULL outside any unit */
	struct container *container;   /* NULL outside any container or pod; no
					* names yet (podnames_resolve()) */
};

/* Start time and name only (cheap).  Returns 0, -ENOENT (gone) or -EINVAL. */
int procinfo_read_stat(const char *root, pid_t pid, uint64_t *ret_start_ticks,
		       char comm[16]);

/* Everything; on success the caller owns out and frees it with procinfo_done(). */
int procinfo_read(const char *root, pid_t pid, struct procinfo *out);
void procinfo_done(struct procinfo *p);

/* The systemd unit a /proc/PID/cgroup file names, e.g. "0::/system.slice/
 * nginx.service" -> "nginx.service": the first unit name on the path that is
 * not a slice.  Prefers the unified (v2) line, else the name=systemd line.
 * Returns 0 and fills buf, or -ENOENT when the process is in no unit. */
int procinfo_unit_from_cgroup(const char *content, char *buf, size_t len);

/* The container and pod a /proc/PID/cgroup file names (container.h), from
 * the same line as the unit.  Returns 0, or -ENOENT when in none. */
int procinfo_container_from_cgroup(const char *content, struct container *out);

/* Parse the text of /proc/PID/stat. */
int procinfo_parse_stat(const char *text, uint64_t *ret_start_ticks, char comm[16]);

/* All numeric entries of root, malloc'd; *ret is the caller's to free(). */
int procinfo_list_pids(const char *root, pid_t **ret, size_t *ret_n);

#endif
