/*
 * container.c - see container.h.
 */
#include "daemon/attribute/container.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The scope (systemd driver) or directory (cgroupfs) prefixes of each
 * runtime's containers: containerd's CRI plugin ("cri-containerd" in its
 * systemd cgroup parent), CRI-O, dockerd, podman.  CRI-O's and podman's
 * monitors live beside them as crio-conmon-<id> and libpod-conmon-<id>:
 * not hex after the prefix, so not containers. */
static const struct {
	const char *prefix, *runtime;
} runtimes[] = {
	{ "cri-containerd-", "containerd" }, { "crio-", "cri-o" },
	{ "docker-", "docker" }, { "libpod-", "podman" },
};

static bool all_hex(const char *s, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (!isxdigit((unsigned char)s[i]))
			return false;
	return true;
}

static bool ends_with(const char *s, size_t n, const char *suffix)
{
	size_t k = strlen(suffix);

	return n >= k && memcmp(s + n - k, suffix, k) == 0;
}

/* A pod uid as the cgroup writes it: a UUID, or a static pod's 32-hex hash;
 * the systemd driver escapes '-' as '_' (a '-' would nest the slice). */
static bool set_pod_uid(struct container *c, const char *s, size_t n)
{
	size_t i;

	if (n < 32 || n >= sizeof(c->pod_uid))
		return false;
	for (i = 0; i < n; i++) {
		if (!isxdigit((unsigned char)s[i]) && s[i] != '-' && s[i] != '_')
			return false;
		c->pod_uid[i] = s[i] == '_' ? '-' : s[i];
	}
	c->pod_uid[n] = '\0';
	return true;
}

/* kubepods-burstable-pod<uid>.slice, kubepods-pod<uid>.slice (systemd) or
 * pod<uid> below a kubepods directory (cgroupfs). */
static bool pod_segment(struct container *c, const char *seg, size_t n, bool in_kubepods)
{
	if (n > 8 && memcmp(seg, "kubepods", 8) == 0 && ends_with(seg, n, ".slice")) {
		const char *p;

		for (p = seg + n - 6; p > seg + 3; p--)
			if (memcmp(p - 4, "-pod", 4) == 0)
				return set_pod_uid(c, p, (size_t)(seg + n - 6 - p));
		return false;
	}
	return in_kubepods && n > 3 && memcmp(seg, "pod", 3) == 0 &&
	       set_pod_uid(c, seg + 3, n - 3);
}

static bool container_segment(struct container *c, const char *seg, size_t n,
			      const char *parent, size_t parent_n, bool in_pod)
{
	size_t i;

	if (ends_with(seg, n, ".scope"))
		n -= 6;
	for (i = 0; i < sizeof(runtimes) / sizeof(runtimes[0]); i++) {
		size_t k = strlen(runtimes[i].prefix);

		if (n == k + CONTAINER_ID_LEN && memcmp(seg, runtimes[i].prefix, k) == 0 &&
		    all_hex(seg + k, CONTAINER_ID_LEN)) {
			snprintf(c->runtime, sizeof(c->runtime), "%s", runtimes[i].runtime);
			memcpy(c->id, seg + k, CONTAINER_ID_LEN);
			c->id[CONTAINER_ID_LEN] = '\0';
			return true;
		}
	}
	/* cgroupfs: the bare id, in a pod's directory or Docker's /docker/ */
	if (n != CONTAINER_ID_LEN || !all_hex(seg, n))
		return false;
	if (parent_n == 6 && memcmp(parent, "docker", 6) == 0)
		snprintf(c->runtime, sizeof(c->runtime), "docker");
	else if (!in_pod)
		return false;
	memcpy(c->id, seg, CONTAINER_ID_LEN);
	c->id[CONTAINER_ID_LEN] = '\0';
	return true;
}

int container_from_path(const char *path, size_t len, struct container *out)
{
	const char *p = path, *end = path + len, *parent = "";
	size_t parent_n = 0;
	bool in_kubepods = false;

	memset(out, 0, sizeof(*out));
	while (p < end) {
		const char *seg;
		size_t n;

		while (p < end && *p == '/')
			p++;
		seg = p;
		while (p < end && *p != '/' && *p != '\n')
			p++;
		n = (size_t)(p - seg);
		if (n == 0)
			break;
		if (n >= 8 && memcmp(seg, "kubepods", 8) == 0)
			in_kubepods = true;
		if (out->pod_uid[0] == '\0' && pod_segment(out, seg, n, in_kubepods)) {
			parent = seg;
			parent_n = n;
			continue;
		}
		if (container_segment(out, seg, n, parent, parent_n, out->pod_uid[0] != '\0'))
			break;   /* the outermost container */
		parent = seg;
		parent_n = n;
	}
	return out->id[0] != '\0' || out->pod_uid[0] != '\0' ? 0 : -ENOENT;
}

const char *container_label(const struct container *c, char buf[16])
{
	if (c->name[0] != '\0')
		return c->name;
	snprintf(buf, 16, "%.12s", c->id);
	return buf;
}

/* ---- names from the kubelet's log directories ----------------------- */

#define PODNAMES_CACHE 256

struct podname_entry {
	char key[CONTAINER_ID_LEN + 1];  /* the container id, or the pod uid */
	char pod_uid[40];                /* and the pod's: both must match */
	char namespace_[64], pod[254], name[64];
};

struct podnames {
	char pods_dir[4096];
	char containers_dir[4096];
	struct podname_entry e[PODNAMES_CACHE];
	size_t n, next;                  /* entries used; the next to replace when full */
};

int podnames_new(const char *pods_dir, struct podnames **ret)
{
	struct podnames *pn = calloc(1, sizeof(*pn));
	const char *slash;

	if (pn == NULL)
		return -ENOMEM;
	snprintf(pn->pods_dir, sizeof(pn->pods_dir), "%s", pods_dir);
	/* the kubelet's legacy symlinks sit beside pods/: /var/log/containers */
	slash = strrchr(pods_dir, '/');
	if (slash != NULL)
		snprintf(pn->containers_dir, sizeof(pn->containers_dir), "%.*s/containers",
			 (int)(slash - pods_dir), pods_dir);
	*ret = pn;
	return 0;
}

void podnames_free(struct podnames *pn)
{
	free(pn);
}

/* "<a>_<b>_<rest>" (a and b without '_'): 0 and the two names. */
static int split2(const char *s, char *a, size_t alen, char *b, size_t blen, const char **rest)
{
	const char *u1 = strchr(s, '_'), *u2 = u1 != NULL ? strchr(u1 + 1, '_') : NULL;

	if (u1 == NULL || u2 == NULL || u1 == s || u2 == u1 + 1 ||
	    (size_t)(u1 - s) >= alen || (size_t)(u2 - u1 - 1) >= blen)
		return -EINVAL;
	snprintf(a, alen, "%.*s", (int)(u1 - s), s);
	snprintf(b, blen, "%.*s", (int)(u2 - u1 - 1), u1 + 1);
	*rest = u2 + 1;
	return 0;
}

/* The pod's directory <namespace>_<pod>_<uid> into e; 0 or -ENOENT. */
static int find_pod(const struct podnames *pn, const char *uid, struct podname_entry *e)
{
	DIR *d = opendir(pn->pods_dir);
	struct dirent *de;
	int r = -ENOENT;

	if (d == NULL)
		return -ENOENT;
	while (r < 0 && (de = readdir(d)) != NULL) {
		const char *rest;

		if (split2(de->d_name, e->namespace_, sizeof(e->namespace_), e->pod,
			   sizeof(e->pod), &rest) == 0 && strcmp(rest, uid) == 0)
			r = 0;
	}
	closedir(d);
	return r;
}

/* The container's name from the symlink <pod>_<namespace>_<name>-<id>.log. */
static int find_symlink(const struct podnames *pn, const char *id, struct podname_entry *e)
{
	DIR *d = pn->containers_dir[0] ? opendir(pn->containers_dir) : NULL;
	struct dirent *de;
	char suffix[CONTAINER_ID_LEN + 8];
	size_t sl;
	int r = -ENOENT;

	if (d == NULL)
		return -ENOENT;
	sl = (size_t)snprintf(suffix, sizeof(suffix), "-%s.log", id);
	while (r < 0 && (de = readdir(d)) != NULL) {
		char pod[254], ns[64];
		const char *rest;
		size_t n = strlen(de->d_name);

		if (!ends_with(de->d_name, n, suffix) ||
		    split2(de->d_name, pod, sizeof(pod), ns, sizeof(ns), &rest) < 0 ||
		    strcmp(pod, e->pod) != 0 || strcmp(ns, e->namespace_) != 0)
			continue;
		n = strlen(rest) - sl;
		if (n > 0 && n < sizeof(e->name)) {
			snprintf(e->name, sizeof(e->name), "%.*s", (int)n, rest);
			r = 0;
		}
	}
	closedir(d);
	return r;
}

/* A pod with one container directory: that is the name (without the
 * symlinks, the pod's sandbox "pause" process is counted with it). */
static void only_container(const struct podnames *pn, const char *uid, struct podname_entry *e)
{
	char dir[4096 + 400];
	DIR *d;
	struct dirent *de;
	int n = 0;

	snprintf(dir, sizeof(dir), "%s/%s_%s_%s", pn->pods_dir, e->namespace_, e->pod, uid);
	d = opendir(dir);
	if (d == NULL)
		return;
	while ((de = readdir(d)) != NULL) {
		if (de->d_name[0] == '.')
			continue;
		if (n++ == 0 && strlen(de->d_name) < sizeof(e->name))
			memcpy(e->name, de->d_name, strlen(de->d_name) + 1);
	}
	closedir(d);
	if (n != 1)
		e->name[0] = '\0';
}

static struct podname_entry *cached(struct podnames *pn, const char *key, const char *uid)
{
	size_t i;

	for (i = 0; i < pn->n; i++)
		if (strcmp(pn->e[i].key, key) == 0 && strcmp(pn->e[i].pod_uid, uid) == 0)
			return &pn->e[i];
	return NULL;
}

static void copy_names(struct container *c, const struct podname_entry *e)
{
	memcpy(c->namespace_, e->namespace_, sizeof(c->namespace_));
	memcpy(c->pod, e->pod, sizeof(c->pod));
	memcpy(c->name, e->name, sizeof(c->name));
}

void podnames_resolve(struct podnames *pn, struct container *c)
{
	const char *key = c->id[0] ? c->id : c->pod_uid;
	struct podname_entry e, *hit;

	if (pn == NULL || c->pod_uid[0] == '\0')
		return;   /* names only come with a pod */
	hit = cached(pn, key, c->pod_uid);
	if (hit != NULL) {
		copy_names(c, hit);
		return;
	}
	memset(&e, 0, sizeof(e));
	if (find_pod(pn, c->pod_uid, &e) < 0)
		return;   /* not yet on disk, or not readable: try again next time */
	if (c->id[0] && find_symlink(pn, c->id, &e) < 0)
		only_container(pn, c->pod_uid, &e);
	snprintf(e.key, sizeof(e.key), "%s", key);
	memcpy(e.pod_uid, c->pod_uid, sizeof(e.pod_uid));
	copy_names(c, &e);
	/* a container found without its name is asked again next time */
	if (c->id[0] && e.name[0] == '\0')
		return;
	if (pn->n < PODNAMES_CACHE) {
		pn->e[pn->n++] = e;
	} else {
		pn->e[pn->next] = e;
		pn->next = (pn->next + 1) % PODNAMES_CACHE;
	}
}
