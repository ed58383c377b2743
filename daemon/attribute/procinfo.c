/*
 * procinfo.c - see procinfo.h.
 */
#include "daemon/attribute/procinfo.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Read up to len-1 bytes of a file into buf (NUL-terminated).  Returns the
 * byte count or -errno. */
static ssize_t read_file(const char *path, char *buf, size_t len)
{
	size_t used = 0;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return -errno;
	while (used < len - 1) {
		ssize_t n = read(fd, buf + used, len - 1 - used);

		if (n < 0) {
			int e = errno;

			if (e == EINTR)
				continue;
			close(fd);
			return -e;
		}
		if (n == 0)
			break;
		used += (size_t)n;
	}
	close(fd);
	buf[used] = '\0';
	return (ssize_t)used;
}

int procinfo_parse_stat(const char *text, uint64_t *ret_start_ticks, char comm[16])
{
	const char *open_paren = strchr(text, '(');
	const char *close_paren = strrchr(text, ')');
	const char *p;
	size_t n;
	int field;

	if (open_paren == NULL || close_paren == NULL || close_paren < open_paren)
		return -EINVAL;
	n = (size_t)(close_paren - open_paren - 1);
	if (n > 15)
		n = 15;
	memcpy(comm, open_paren + 1, n);
	comm[n] = '\0';
	/* Fields after the comm start at 3 (state); starttime is field 22. */
	p = close_paren + 1;
	for (field = 3; field <= 22; field++) {
		while (*p == ' ')
			p++;
		if (*p == '\0')
			return -EINVAL;
		if (field == 22) {
			char *end;
			unsigned long long v = strtoull(p, &end, 10);

			if (end == p)
				return -EINVAL;
			*ret_start_ticks = v;
			return 0;
		}
		while (*p != ' ' && *p != '\0')
			p++;
	}
	return -EINVAL;
}

int procinfo_read_stat(const char *root, pid_t pid, uint64_t *ret_start_ticks, char comm[16])
{
	char path[256], buf[1024];
	ssize_t n;

	snprintf(path, sizeof(path), "%s/%d/stat", root, (int)pid);
	n = read_file(path, buf, sizeof(buf));
	if (n < 0)
		return n == -ENOENT || n == -ESRCH ? -ENOENT : (int)n;
	return procinfo_parse_stat(buf, ret_start_ticks, comm);
}

static int is_unit_name(const char *s, size_t n)
{
	static const char *const suffixes[] = {
		".service", ".scope", ".socket", ".mount", ".swap", ".target", ".timer",
		".device", ".path", ".automount",
	};
	size_t i;

	for (i = 0; i < sizeof(suffixes) / sizeof(suffixes[0]); i++) {
		size_t sl = strlen(suffixes[i]);

		if (n > sl && memcmp(s + n - sl, suffixes[i], sl) == 0)
			return 1;
	}
	return 0;
}

static int unit_from_path(const char *path, size_t path_len, char *buf, size_t len)
{
	const char *p = path, *end = path + path_len;

	while (p < end) {
		const char *seg;
		size_t n;

		while (p < end && *p == '/')
			p++;
		seg = p;
		while (p < end && *p != '/')
			p++;
		n = (size_t)(p - seg);
		if (n > 0 && is_unit_name(seg, n)) {
			snprintf(buf, len, "%.*s", (int)n, seg);
			return 0;
		}
	}
	return -ENOENT;
}

/* The unified (v2) line's path and the name=systemd line's, of a
 * /proc/PID/cgroup file; NULL where there is none. */
static void cgroup_paths(const char *content, const char **v2, size_t *v2_len,
			 const char **named, size_t *named_len)
{
	const char *line = content;

	*v2 = *named = NULL;
	*v2_len = *named_len = 0;
	while (*line != '\0') {
		const char *eol = strchr(line, '\n');
		size_t n = eol ? (size_t)(eol - line) : strlen(line);
		const char *c1 = memchr(line, ':', n);
		const char *c2 = c1 ? memchr(c1 + 1, ':', n - (size_t)(c1 + 1 - line)) : NULL;

		if (c1 != NULL && c2 != NULL) {
			const char *path = c2 + 1;
			size_t plen = n - (size_t)(path - line);

			if (c1 - line == 1 && line[0] == '0' && c2 == c1 + 1) {
				*v2 = path;
				*v2_len = plen;
			} else if ((size_t)(c2 - c1 - 1) == strlen("name=systemd") &&
				   memcmp(c1 + 1, "name=systemd", strlen("name=systemd")) == 0) {
				*named = path;
				*named_len = plen;
			}
		}
		line += n;
		if (*line == '\n')
			line++;
	}
}

int procinfo_unit_from_cgroup(const char *content, char *buf, size_t len)
{
	const char *v2, *named;
	size_t v2_len, named_len;

	cgroup_paths(content, &v2, &v2_len, &named, &named_len);
	if (v2 != NULL && unit_from_path(v2, v2_len, buf, len) == 0)
		return 0;
	if (named != NULL && unit_from_path(named, named_len, buf, len) == 0)
		return 0;
	return -ENOENT;
}

int procinfo_container_from_cgroup(const char *content, struct container *out)
{
	const char *v2, *named;
	size_t v2_len, named_len;

	cgroup_paths(content, &v2, &v2_len, &named, &named_len);
	if (v2 != NULL && container_from_path(v2, v2_len, out) == 0)
		return 0;
	if (named != NULL && container_from_path(named, named_len, out) == 0)
		return 0;
	return -ENOENT;
}

static int64_t parse_uid(const char *status)
{
	const char *p = strstr(status, "\nUid:");

	if (p == NULL)
		return -1;
	p += 5;
	while (*p == ' ' || *p == '\t')
		p++;
	if (!isdigit((unsigned char)*p))
		return -1;
	return strtoll(p, NULL, 10);
}

static char *parse_cmdline(char *buf, size_t n)
{
	size_t i;

	while (n > 0 && buf[n - 1] == '\0')
		n--;
	if (n == 0)
		return NULL;
	for (i = 0; i < n; i++)
		if (buf[i] == '\0' || buf[i] == '\n')
			buf[i] = ' ';
	buf[n] = '\0';
	return strdup(buf);
}

int procinfo_read(const char *root, pid_t pid, struct procinfo *out)
{
	char path[256];
	char *buf;
	ssize_t n;
	int r;

	memset(out, 0, sizeof(*out));
	out->uid = -1;
	r = procinfo_read_stat(root, pid, &out->start_ticks, out->comm);
	if (r < 0)
		return r;
	buf = malloc(PROCINFO_CMDLINE_MAX + 1);
	if (buf == NULL)
		return -ENOMEM;

	snprintf(path, sizeof(path), "%s/%d/cmdline", root, (int)pid);
	n = read_file(path, buf, PROCINFO_CMDLINE_MAX + 1);
	if (n > 0)
		out->cmdline = parse_cmdline(buf, (size_t)n);

	snprintf(path, sizeof(path), "%s/%d/status", root, (int)pid);
	buf[0] = '\n';
	n = read_file(path, buf + 1, PROCINFO_CMDLINE_MAX);
	if (n > 0)
		out->uid = parse_uid(buf);

	snprintf(path, sizeof(path), "%s/%d/cgroup", root, (int)pid);
	n = read_file(path, buf, PROCINFO_CMDLINE_MAX + 1);
	if (n > 0) {
		char unit[256];
		struct container c;

		if (procinfo_unit_from_cgroup(buf, unit, sizeof(unit)) == 0)
			out->unit = strdup(unit);
		if (procinfo_container_from_cgroup(buf, &c) == 0) {
			out->container = malloc(sizeof(c));
			if (out->container != NULL)
				*out->container = c;
		}
	}
	free(buf);
	return 0;
}

void procinfo_done(struct procinfo *p)
{
	free(p->cmdline);
	free(p->unit);
	free(p->container);
	p->cmdline = NULL;
	p->unit = NULL;
	p->container = NULL;
}

int procinfo_list_pids(const char *root, pid_t **ret, size_t *ret_n)
{
	DIR *d = opendir(root);
	struct dirent *de;
	pid_t *pids = NULL;
	size_t n = 0, cap = 0;

	if (d == NULL)
		return -errno;
	while ((de = readdir(d)) != NULL) {
		char *end;
		long v;

		if (!isdigit((unsigned char)de->d_name[0]))
			continue;
		v = strtol(de->d_name, &end, 10);
		if (*end != '\0' || v <= 0)
			continue;
		if (n == cap) {
			size_t ncap = cap ? cap * 2 : 256;
			pid_t *more = realloc(pids, ncap * sizeof(*more));

			if (more == NULL) {
				free(pids);
				closedir(d);
				return -ENOMEM;
			}
			pids = more;
			cap = ncap;
		}
		pids[n++] = (pid_t)v;
	}
	closedir(d);
	*ret = pids;
	*ret_n = n;
	return 0;
}
